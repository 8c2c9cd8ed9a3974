
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.reduction(
    size_hints={'x': 1, 'r0_': 8192},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'out_ptr0': '*fp32', 'out_ptr1': '*fp32', 'out_ptr2': '*fp32', 'out_ptr3': '*fp32', 'out_ptr4': '*fp32', 'out_ptr5': '*fp32', 'out_ptr6': '*fp32', 'out_ptr7': '*fp32', 'out_ptr8': '*i64', 'xnumel': 'constexpr', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {'xnumel': 1}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]], (8,): [['tt.divisibility', 16]], (9,): [['tt.divisibility', 16]], (10,): [['tt.divisibility', 16]], (12,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_red_fused_clamp_fmax_full_like_gt_isinf_isnan_maximum_minimum_nan_to_num_scalar_tensor_sum_where_zeros_like_0', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 2, 'num_store': 9, 'num_reduction': 1, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'r0_': 589824}}
)
@triton.jit
def triton_red_fused_clamp_fmax_full_like_gt_isinf_isnan_maximum_minimum_nan_to_num_scalar_tensor_sum_where_zeros_like_0(in_ptr0, in_ptr1, out_ptr0, out_ptr1, out_ptr2, out_ptr3, out_ptr4, out_ptr5, out_ptr6, out_ptr7, out_ptr8, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 1
    r0_numel = 8192
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = tl.full([XBLOCK], True, tl.int1)[:, None]
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    _tmp30 = tl.full([XBLOCK, R0_BLOCK], 0, tl.int64)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_0 = r0_index
        tmp0 = tl.load(in_ptr0 + (r0_0), r0_mask, eviction_policy='evict_first', other=0.0)
        tmp15 = tl.load(in_ptr1 + (r0_0), r0_mask, eviction_policy='evict_first', other=0.0)
        tmp1 = libdevice.isnan(tmp0).to(tl.int1)
        tmp2 = tl.full([1, 1], 0.0, tl.float32)
        tmp3 = tl.where(tmp1, tmp2, tmp0)
        tmp4 = tmp0 > tmp2
        tmp5 = tl.full([1, 1], float("nan"), tl.float32)
        tmp6 = tl.where(tmp4, tmp0, tmp5)
        tmp7 = tl.full([1, 1], float("inf"), tl.float32)
        tmp8 = tmp0 == tmp7
        tmp9 = tl.full([1, 1], float("-inf"), tl.float32)
        tmp10 = tmp0 == tmp9
        tmp11 = tl.full([1, 1], -3.4028234663852886e+38, tl.float32)
        tmp12 = tl.where(tmp10, tmp11, tmp3)
        tmp13 = tl.full([1, 1], 3.4028234663852886e+38, tl.float32)
        tmp14 = tl.where(tmp8, tmp13, tmp12)
        tmp16 = triton_helpers.maximum(tmp0, tmp15)
        tmp17 = triton_helpers.minimum(tmp0, tmp15)
        tmp18 = libdevice.isnan(tmp15).to(tl.int1)
        tmp19 = tmp15 < tmp0
        tmp20 = tmp18 | tmp19
        tmp21 = tl.where(tmp20, tmp0, tmp15)
        tmp22 = triton_helpers.maximum(tmp0, tmp2)
        tmp23 = tmp15 > tmp2
        tmp24 = tl.full([1, 1], 1.0, tl.float32)
        tmp25 = tl.full([1, 1], -1.0, tl.float32)
        tmp26 = tl.where(tmp23, tmp24, tmp25)
        tmp27 = libdevice.isinf(tmp0).to(tl.int1)
        tmp28 = tmp27.to(tl.int64)
        tmp29 = tl.broadcast_to(tmp28, [XBLOCK, R0_BLOCK])
        tmp31 = _tmp30 + tmp29
        _tmp30 = tl.where(r0_mask, tmp31, _tmp30)
        tl.store(out_ptr0 + (tl.broadcast_to(r0_0, [XBLOCK, R0_BLOCK])), tmp3, r0_mask)
        tl.store(out_ptr1 + (tl.broadcast_to(r0_0, [XBLOCK, R0_BLOCK])), tmp6, r0_mask)
        tl.store(out_ptr2 + (tl.broadcast_to(r0_0, [XBLOCK, R0_BLOCK])), tmp14, r0_mask)
        tl.store(out_ptr3 + (tl.broadcast_to(r0_0, [XBLOCK, R0_BLOCK])), tmp16, r0_mask)
        tl.store(out_ptr4 + (tl.broadcast_to(r0_0, [XBLOCK, R0_BLOCK])), tmp17, r0_mask)
        tl.store(out_ptr5 + (tl.broadcast_to(r0_0, [XBLOCK, R0_BLOCK])), tmp21, r0_mask)
        tl.store(out_ptr6 + (tl.broadcast_to(r0_0, [XBLOCK, R0_BLOCK])), tmp22, r0_mask)
        tl.store(out_ptr7 + (tl.broadcast_to(r0_0, [XBLOCK, R0_BLOCK])), tmp26, r0_mask)
    tmp30 = tl.sum(_tmp30, 1)[:, None]
    tl.store(out_ptr8 + (tl.full([1, 1], 0, tl.int32).broadcast_to(XBLOCK, 1)), tmp30, None)
