
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 1}, 
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'in_ptr0': '*i1', 'in_ptr1': '*i64', 'in_ptr2': '*fp32', 'in_ptr3': '*fp32', 'in_ptr4': '*fp32', 'xnumel': 'constexpr', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {'xnumel': 1}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused__log_softmax_nll_loss_forward_sub_13', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': False, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 8, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': True, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': True, 'has_loadstore_with_contiguous_rdim': False},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused__log_softmax_nll_loss_forward_sub_13(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, xnumel, XBLOCK : tl.constexpr):
    xnumel = 1
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    tmp0 = tl.load(in_ptr0 + (0)).to(tl.int1)
    tmp1 = tl.broadcast_to(tmp0, [XBLOCK])
    tmp2 = tl.load(in_ptr1 + (0))
    tmp3 = tl.broadcast_to(tmp2, [XBLOCK])
    tmp12 = tl.load(in_ptr3 + (0))
    tmp13 = tl.broadcast_to(tmp12, [XBLOCK])
    tmp15 = tl.load(in_ptr4 + (0))
    tmp16 = tl.broadcast_to(tmp15, [XBLOCK])
    tmp21 = tl.load(in_ptr0 + (1)).to(tl.int1)
    tmp22 = tl.broadcast_to(tmp21, [XBLOCK])
    tmp23 = tl.load(in_ptr1 + (1))
    tmp24 = tl.broadcast_to(tmp23, [XBLOCK])
    tmp31 = tl.load(in_ptr3 + (1))
    tmp32 = tl.broadcast_to(tmp31, [XBLOCK])
    tmp34 = tl.load(in_ptr4 + (1))
    tmp35 = tl.broadcast_to(tmp34, [XBLOCK])
    tmp4 = tl.full([1], 0, tl.int64)
    tmp5 = tl.where(tmp1, tmp3, tmp4)
    tmp6 = tl.full([XBLOCK], 10, tl.int32)
    tmp7 = tmp5 + tmp6
    tmp8 = tmp5 < 0
    tmp9 = tl.where(tmp8, tmp7, tmp5)
    tl.device_assert((0 <= tmp9) & (tmp9 < 10), "index out of bounds: 0 <= tmp9 < 10")
    tmp11 = tl.load(in_ptr2 + (tmp9), None, eviction_policy='evict_last')
    tmp14 = tmp11 - tmp13
    tmp17 = tmp14 - tmp16
    tmp18 = -tmp17
    tmp19 = tl.full([1], 0.0, tl.float32)
    tmp20 = tl.where(tmp1, tmp18, tmp19)
    tmp25 = tl.where(tmp22, tmp24, tmp4)
    tmp26 = tmp25 + tmp6
    tmp27 = tmp25 < 0
    tmp28 = tl.where(tmp27, tmp26, tmp25)
    tl.device_assert((0 <= tmp28) & (tmp28 < 10), "index out of bounds: 0 <= tmp28 < 10")
    tmp30 = tl.load(in_ptr2 + (10 + tmp28), None, eviction_policy='evict_last')
    tmp33 = tmp30 - tmp32
    tmp36 = tmp33 - tmp35
    tmp37 = -tmp36
    tmp38 = tl.where(tmp22, tmp37, tmp19)
    tmp39 = tmp20 + tmp38
    tmp40 = tmp1.to(tl.int64)
    tmp41 = tmp22.to(tl.int64)
    tmp42 = tmp40 + tmp41
    tmp43 = tmp42.to(tl.float32)
    tmp44 = (tmp39 / tmp43)
    tl.store(in_out_ptr0 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to(XBLOCK)), tmp44, None)
