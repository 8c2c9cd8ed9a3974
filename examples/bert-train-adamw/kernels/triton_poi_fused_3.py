
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 64}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'in_ptr3': '*fp32', 'in_ptr4': '*fp32', 'out_ptr0': '*fp32', 'out_ptr3': '*fp32', 'out_ptr4': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]], (8,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_3', 'mutated_arg_names': ['in_ptr0', 'in_ptr2', 'in_ptr3', 'out_ptr0', 'out_ptr3', 'out_ptr4'], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 5, 'num_store': 3, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': True, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': True, 'has_loadstore_with_contiguous_rdim': False},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_3(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, out_ptr0, out_ptr3, out_ptr4, xnumel, XBLOCK : tl.constexpr):
    xnumel = 64
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0), xmask)
    tmp1 = tl.load(in_ptr1 + (x0), xmask)
    tmp6 = tl.load(in_ptr2 + (x0), xmask)
    tmp13 = tl.load(in_ptr3 + (x0), xmask)
    tmp17 = tl.load(in_ptr4 + (0))
    tmp18 = tl.broadcast_to(tmp17, [XBLOCK])
    tmp2 = tmp1 - tmp0
    tmp3 = tl.full([1], 0.09999999999999998, tl.float32)
    tmp4 = tmp2 * tmp3
    tmp5 = tmp0 + tmp4
    tmp7 = tl.full([1], 0.999, tl.float32)
    tmp8 = tmp6 * tmp7
    tmp9 = tmp1 * tmp1
    tmp10 = tl.full([1], 0.0010000000000000009, tl.float32)
    tmp11 = tmp9 * tmp10
    tmp12 = tmp8 + tmp11
    tmp14 = tl.full([1], 0.9999, tl.float32)
    tmp15 = tmp13 * tmp14
    tmp16 = tl.sqrt_rn(tmp12)
    tmp19 = libdevice.pow(tmp7, tmp18)
    tmp20 = tl.full([1], 1.0, tl.float32)
    tmp21 = tmp19 - tmp20
    tmp22 = -tmp21
    tmp23 = tl.sqrt_rn(tmp22)
    tmp24 = (tmp16 / tmp23)
    tmp25 = tl.full([1], 1e-08, tl.float32)
    tmp26 = tmp24 + tmp25
    tmp27 = tl.full([1], 0.9, tl.float32)
    tmp28 = libdevice.pow(tmp27, tmp18)
    tmp29 = tmp28 - tmp20
    tmp30 = tl.full([1], 100.0, tl.float32)
    tmp31 = tmp29 * tmp30
    tmp32 = tl.full([1], 1, tl.int32)
    tmp33 = (tmp32 / tmp31)
    tmp34 = (tmp26 / tmp33)
    tmp35 = (tmp5 / tmp34)
    tmp36 = tmp15 + tmp35
    tl.store(out_ptr0 + (x0), tmp5, xmask)
    tl.store(out_ptr3 + (x0), tmp36, xmask)
    tl.store(out_ptr4 + (x0), tmp12, xmask)
