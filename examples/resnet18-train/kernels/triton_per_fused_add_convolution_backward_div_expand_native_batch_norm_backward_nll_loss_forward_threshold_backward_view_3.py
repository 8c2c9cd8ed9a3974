
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 128, 'r0_': 16},
    reduction_hint=ReductionHint.DEFAULT,
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'in_out_ptr1': '*fp32', 'in_ptr0': '*fp32', 'in_ptr1': '*i1', 'in_ptr2': '*fp32', 'in_ptr3': '*fp32', 'in_ptr4': '*fp32', 'in_ptr5': '*fp32', 'in_ptr6': '*fp32', 'in_ptr7': '*fp32', 'in_ptr8': '*fp32', 'in_ptr9': '*fp32', 'out_ptr0': '*fp32', 'out_ptr2': '*fp32', 'out_ptr4': '*fp32', 'out_ptr5': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]], (8,): [['tt.divisibility', 16]], (9,): [['tt.divisibility', 16]], (10,): [['tt.divisibility', 16]], (11,): [['tt.divisibility', 16]], (12,): [['tt.divisibility', 16]], (13,): [['tt.divisibility', 16]], (14,): [['tt.divisibility', 16]], (15,): [['tt.divisibility', 16]], (16,): [['tt.divisibility', 16]], (17,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused_add_convolution_backward_div_expand_native_batch_norm_backward_nll_loss_forward_threshold_backward_view_3', 'mutated_arg_names': ['in_out_ptr0', 'in_out_ptr1'], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 12, 'num_store': 6, 'num_reduction': 4, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': True, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': True, 'has_loadstore_with_contiguous_rdim': True, 'tiling_scores': {'x': 74752, 'r0_': 2048}}
)
@triton.jit
def triton_per_fused_add_convolution_backward_div_expand_native_batch_norm_backward_nll_loss_forward_threshold_backward_view_3(in_out_ptr0, in_out_ptr1, in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, in_ptr6, in_ptr7, in_ptr8, in_ptr9, out_ptr0, out_ptr2, out_ptr4, out_ptr5, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 128
    r0_numel = 16
    R0_BLOCK: tl.constexpr = 16
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = tl.full([R0_BLOCK], True, tl.int1)[None, :]
    roffset = r0_offset
    rindex = r0_index
    r0_3 = r0_index
    x0 = xindex
    r0_1 = (r0_index % 4)
    r0_2 = r0_index // 4
    tmp0 = tl.load(in_ptr0 + (x0 + 128*r0_3), xmask, other=0.0)
    tmp3 = tl.load(in_ptr1 + (r0_1 + 4*x0 + 512*r0_2), xmask, other=0.0).to(tl.int1)
    tmp4 = tl.load(in_ptr2 + (x0 + 128*r0_2), xmask, eviction_policy='evict_last', other=0.0)
    tmp8 = tl.load(in_ptr3 + (x0 + 128*r0_3), xmask, other=0.0)
    tmp15 = tl.load(in_out_ptr0 + (x0 + 128*r0_3), xmask, other=0.0)
    tmp16 = tl.load(in_ptr4 + (x0), xmask, eviction_policy='evict_last')
    tmp23 = tl.load(in_out_ptr1 + (x0 + 128*r0_3), xmask, other=0.0)
    tmp24 = tl.load(in_ptr5 + (x0), xmask, eviction_policy='evict_last')
    tmp31 = tl.load(in_ptr6 + (x0), xmask, eviction_policy='evict_last')
    tmp33 = tl.load(in_ptr7 + (x0), xmask, eviction_policy='evict_last')
    tmp49 = tl.load(in_ptr8 + (x0), xmask, eviction_policy='evict_last')
    tmp52 = tl.load(in_ptr9 + (x0), xmask, eviction_policy='evict_last')
    tmp1 = tl.full([1, 1], 0.0, tl.float32)
    tmp2 = tmp0 <= tmp1
    tmp5 = tl.full([1, 1], 0.25, tl.float32)
    tmp6 = tmp4 * tmp5
    tmp7 = tl.where(tmp3, tmp1, tmp6)
    tmp9 = tmp7 + tmp8
    tmp10 = tl.where(tmp2, tmp1, tmp9)
    tmp11 = tl.broadcast_to(tmp10, [XBLOCK, R0_BLOCK])
    tmp13 = tl.where(xmask, tmp11, 0)
    tmp14 = tl.sum(tmp13, 1)[:, None].to(tl.float32)
    tmp17 = tmp15 - tmp16
    tmp18 = tmp10 * tmp17
    tmp19 = tl.broadcast_to(tmp18, [XBLOCK, R0_BLOCK])
    tmp21 = tl.where(xmask, tmp19, 0)
    tmp22 = tl.sum(tmp21, 1)[:, None].to(tl.float32)
    tmp25 = tmp23 - tmp24
    tmp26 = tmp10 * tmp25
    tmp27 = tl.broadcast_to(tmp26, [XBLOCK, R0_BLOCK])
    tmp29 = tl.where(xmask, tmp27, 0)
    tmp30 = tl.sum(tmp29, 1)[:, None].to(tl.float32)
    tmp32 = tmp22 * tmp31
    tmp34 = tmp30 * tmp33
    tmp35 = tl.full([1, 1], 0.0625, tl.float32)
    tmp36 = tmp22 * tmp35
    tmp37 = tmp31 * tmp31
    tmp38 = tmp36 * tmp37
    tmp39 = tmp17 * tmp38
    tmp40 = tmp10 - tmp39
    tmp41 = tmp14 * tmp35
    tmp42 = tmp40 - tmp41
    tmp43 = tmp30 * tmp35
    tmp44 = tmp33 * tmp33
    tmp45 = tmp43 * tmp44
    tmp46 = tmp25 * tmp45
    tmp47 = tmp10 - tmp46
    tmp48 = tmp47 - tmp41
    tmp50 = tmp31 * tmp49
    tmp51 = tmp42 * tmp50
    tmp53 = tmp33 * tmp52
    tmp54 = tmp48 * tmp53
    tl.store(out_ptr4 + (x0), tmp32, xmask)
    tl.store(out_ptr5 + (x0), tmp34, xmask)
    tl.store(in_out_ptr0 + (x0 + 128*r0_3), tmp51, xmask)
    tl.store(in_out_ptr1 + (x0 + 128*r0_3), tmp54, xmask)
    tl.store(out_ptr0 + (x0), tmp14, xmask)
    tl.store(out_ptr2 + (x0), tmp14, xmask)
