
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 64, 'r0_': 16},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'in_ptr0': '*i64', 'in_ptr1': '*i64', 'out_ptr3': '*i1', 'out_ptr4': '*fp32', 'load_seed_offset': 'constexpr', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {'load_seed_offset': 1}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused__softmax__to_copy_add_arange_bitwise_and_exp_expand_ge_index_lift_fresh_mul_native_dropout_new_ones_prepare_softmax_online_scalar_tensor_sub_unsqueeze_view_where_1', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': False, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 2, 'num_store': 3, 'num_reduction': 4, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': True, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': True, 'has_loadstore_with_contiguous_rdim': True, 'tiling_scores': {'x': 0, 'r0_': 22656}}
)
@triton.jit
def triton_per_fused__softmax__to_copy_add_arange_bitwise_and_exp_expand_ge_index_lift_fresh_mul_native_dropout_new_ones_prepare_softmax_online_scalar_tensor_sub_unsqueeze_view_where_1(in_out_ptr0, in_ptr0, in_ptr1, out_ptr3, out_ptr4, load_seed_offset, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 64
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
    r0_2 = r0_index
    x3 = xindex
    x0 = (xindex % 16)
    tmp0 = tl.load(in_out_ptr0 + (r0_2 + 16*x3), xmask, other=0.0)
    tmp8 = tl.load(in_ptr0 + (r0_2), None, eviction_policy='evict_last')
    tmp1 = tl.full([1, 1], 0.25, tl.float32)
    tmp2 = tmp0 * tmp1
    tmp3 = x0
    tmp4 = tl.full([1, 1], 0, tl.int64)
    tmp5 = tmp3 >= tmp4
    tmp6 = tl.full([1, 1], True, tl.int1)
    tmp7 = tmp6 & tmp5
    tmp9 = (tmp8 != 0)
    tmp10 = tmp7 & tmp9
    tmp11 = tl.full([1, 1], 0.0, tl.float32)
    tmp12 = tl.full([1, 1], -3.4028234663852886e+38, tl.float32)
    tmp13 = tl.where(tmp10, tmp11, tmp12)
    tmp14 = tmp2 + tmp13
    tmp15 = tl.broadcast_to(tmp14, [XBLOCK, R0_BLOCK])
    tmp17 = tl.broadcast_to(tmp15, [XBLOCK, R0_BLOCK])
    tmp19 = tl.where(xmask, tmp17, float("-inf"))
    tmp20 = triton_helpers.max2(tmp19, 1)[:, None].to(tl.float32)
    tmp21 = tmp15 - tmp20
    tmp22 = libdevice.exp(tmp21)
    tmp23 = tl.broadcast_to(tmp22, [XBLOCK, R0_BLOCK])
    tmp25 = tl.where(xmask, tmp23, 0)
    tmp26 = tl.sum(tmp25, 1)[:, None].to(tl.float32)
    tmp27 = tl.load(in_ptr1 + load_seed_offset)
    tmp28 = r0_2 + 16*x3
    tmp29 = tl.rand(tmp27, (tmp28).to(tl.uint32))
    tmp30 = tl.full([1, 1], 0.1, tl.float32)
    tmp31 = tmp29 > tmp30
    tmp32 = tmp14 - tmp20
    tmp33 = libdevice.exp(tmp32)
    tmp34 = (tmp33 / tmp26)
    tmp35 = tmp31.to(tl.float32)
    tmp36 = tmp35 * tmp34
    tmp37 = tl.full([1, 1], 1.1111111111111112, tl.float32)
    tmp38 = tmp36 * tmp37
    tl.store(out_ptr3 + (r0_2 + 16*x3), tmp31, xmask)
    tl.store(in_out_ptr0 + (r0_2 + 16*x3), tmp34, xmask)
    tl.store(out_ptr4 + (r0_2 + 16*x3), tmp38, xmask)
