
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 1, 'r0_': 32},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*i64', 'in_ptr1': '*fp32', 'out_ptr0': '*i64', 'out_ptr1': '*i16', 'out_ptr2': '*i32', 'out_ptr3': '*fp32', 'out_ptr4': '*i64', 'xnumel': 'constexpr', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {'xnumel': 1}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (8,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused__to_copy_add_div_gather_index_mul_sigmoid_sort_sum_view_19', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 1, 'num_store': 5, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': True, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': True, 'has_loadstore_with_contiguous_rdim': True, 'tiling_scores': {'r0_': 1920}}
)
@triton.jit
def triton_per_fused__to_copy_add_div_gather_index_mul_sigmoid_sort_sum_view_19(in_ptr0, in_ptr1, out_ptr0, out_ptr1, out_ptr2, out_ptr3, out_ptr4, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 1
    r0_numel = 32
    R0_BLOCK: tl.constexpr = 32
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = tl.full([XBLOCK], True, tl.int1)[:, None]
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = tl.full([R0_BLOCK], True, tl.int1)[None, :]
    roffset = r0_offset
    rindex = r0_index
    r0_0 = r0_index
    tmp0 = tl.load(in_ptr0 + (r0_0), None)
    tmp1 = r0_0
    tmp2 = tmp1.to(tl.int16)
    tmp3 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
    tmp4 = tl.broadcast_to(tmp2, [XBLOCK, R0_BLOCK])
    tmp5, tmp6, = triton_helpers.sort_with_index(tmp3, tmp4, None, 1, stable=False, descending=False)
    tmp7 = tmp5.to(tl.int32)
    tmp8 = tmp6.to(tl.int64)
    tmp9 = tl.full([1, 1], 32, tl.int32)
    tmp10 = tmp8 + tmp9
    tmp11 = tmp8 < 0
    tmp12 = tl.where(tmp11, tmp10, tmp8)
    tl.device_assert((0 <= tmp12) & (tmp12 < 32), "index out of bounds: 0 <= tmp12 < 32")
    tmp14 = tl.load(in_ptr0 + ((tmp12 % 32)), None, eviction_policy='evict_last')
    tmp15 = tl.full([1, 1], 8, tl.int32)
    tmp16 = tmp14 + tmp15
    tmp17 = tmp14 < 0
    tmp18 = tl.where(tmp17, tmp16, tmp14)
    tl.device_assert((0 <= tmp18) & (tmp18 < 8), "index out of bounds: 0 <= tmp18 < 8")
    tmp20 = tl.load(in_ptr1 + (tmp18 + 8*(((tmp12 // 2) % 16))), None, eviction_policy='evict_last')
    tmp21 = tl.sigmoid(tmp20)
    tmp22 = tl.load(in_ptr0 + (2*(((tmp12 // 2) % 16))), None, eviction_policy='evict_last')
    tmp23 = tmp22 + tmp15
    tmp24 = tmp22 < 0
    tmp25 = tl.where(tmp24, tmp23, tmp22)
    tl.device_assert((0 <= tmp25) & (tmp25 < 8), "index out of bounds: 0 <= tmp25 < 8")
    tmp27 = tl.load(in_ptr1 + (tmp25 + 8*(((tmp12 // 2) % 16))), None, eviction_policy='evict_last')
    tmp28 = tl.sigmoid(tmp27)
    tmp29 = tl.load(in_ptr0 + (1 + 2*(((tmp12 // 2) % 16))), None, eviction_policy='evict_last')
    tmp30 = tmp29 + tmp15
    tmp31 = tmp29 < 0
    tmp32 = tl.where(tmp31, tmp30, tmp29)
    tl.device_assert((0 <= tmp32) & (tmp32 < 8), "index out of bounds: 0 <= tmp32 < 8")
    tmp34 = tl.load(in_ptr1 + (tmp32 + 8*(((tmp12 // 2) % 16))), None, eviction_policy='evict_last')
    tmp35 = tl.sigmoid(tmp34)
    tmp36 = tmp28 + tmp35
    tmp37 = tl.full([1, 1], 1e-20, tl.float32)
    tmp38 = tmp36 + tmp37
    tmp39 = (tmp21 / tmp38)
    tmp40 = tl.full([1, 1], 2.5, tl.float32)
    tmp41 = tmp39 * tmp40
    tl.store(out_ptr0 + (tl.broadcast_to(r0_0, [XBLOCK, R0_BLOCK])), tmp5, None)
    tl.store(out_ptr1 + (tl.broadcast_to(r0_0, [XBLOCK, R0_BLOCK])), tmp6, None)
    tl.store(out_ptr2 + (tl.broadcast_to(r0_0, [XBLOCK, R0_BLOCK])), tmp7, None)
    tl.store(out_ptr3 + (tl.broadcast_to(r0_0, [XBLOCK, R0_BLOCK])), tmp41, None)
    tl.store(out_ptr4 + (tl.broadcast_to(r0_0, [XBLOCK, R0_BLOCK])), tmp8, None)
