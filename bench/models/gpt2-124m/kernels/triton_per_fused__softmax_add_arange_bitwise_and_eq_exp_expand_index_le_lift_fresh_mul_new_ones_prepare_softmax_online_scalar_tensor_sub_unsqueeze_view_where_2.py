
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 2048, 'r0_': 128},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'in_ptr0': '*i64', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused__softmax_add_arange_bitwise_and_eq_exp_expand_index_le_lift_fresh_mul_new_ones_prepare_softmax_online_scalar_tensor_sub_unsqueeze_view_where_2', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 3, 'num_store': 1, 'num_reduction': 4, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': True, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': True, 'has_loadstore_with_contiguous_rdim': True, 'tiling_scores': {'x': 1024, 'r0_': 2360320}}
)
@triton.jit
def triton_per_fused__softmax_add_arange_bitwise_and_eq_exp_expand_index_le_lift_fresh_mul_new_ones_prepare_softmax_online_scalar_tensor_sub_unsqueeze_view_where_2(in_out_ptr0, in_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 1536
    r0_numel = 128
    R0_BLOCK: tl.constexpr = 128
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
    r0_2 = r0_index
    x3 = xindex
    x0 = (xindex % 128)
    tmp0 = tl.load(in_out_ptr0 + (r0_2 + 128*x3), xmask, other=0.0)
    tmp8 = tl.load(in_ptr0 + (x0), xmask, eviction_policy='evict_last')
    tmp9 = tl.load(in_ptr0 + (r0_2), None, eviction_policy='evict_last')
    tmp1 = tl.full([1, 1], 0.125, tl.float32)
    tmp2 = tmp0 * tmp1
    tmp3 = r0_2
    tmp4 = x0
    tmp5 = tmp3 <= tmp4
    tmp6 = tl.full([1, 1], True, tl.int1)
    tmp7 = tmp6 & tmp5
    tmp10 = tmp8 == tmp9
    tmp11 = tmp7 & tmp10
    tmp12 = tl.full([1, 1], 0.0, tl.float32)
    tmp13 = tl.full([1, 1], -3.4028234663852886e+38, tl.float32)
    tmp14 = tl.where(tmp11, tmp12, tmp13)
    tmp15 = tmp2 + tmp14
    tmp16 = tl.broadcast_to(tmp15, [XBLOCK, R0_BLOCK])
    tmp18 = tl.broadcast_to(tmp16, [XBLOCK, R0_BLOCK])
    tmp20 = tl.where(xmask, tmp18, float("-inf"))
    tmp21 = triton_helpers.max2(tmp20, 1)[:, None].to(tl.float32)
    tmp22 = tmp16 - tmp21
    tmp23 = libdevice.exp(tmp22)
    tmp24 = tl.broadcast_to(tmp23, [XBLOCK, R0_BLOCK])
    tmp26 = tl.where(xmask, tmp24, 0)
    tmp27 = tl.sum(tmp26, 1)[:, None].to(tl.float32)
    tmp28 = tmp15 - tmp21
    tmp29 = libdevice.exp(tmp28)
    tmp30 = (tmp29 / tmp27)
    tl.store(in_out_ptr0 + (r0_2 + 128*x3), tmp30, xmask)
