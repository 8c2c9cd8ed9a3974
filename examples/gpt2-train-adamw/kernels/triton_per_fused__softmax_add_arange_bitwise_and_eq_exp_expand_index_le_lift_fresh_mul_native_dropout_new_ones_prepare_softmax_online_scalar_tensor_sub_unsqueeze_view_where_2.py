
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
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'in_ptr0': '*i64', 'in_ptr1': '*i64', 'in_ptr2': '*i64', 'out_ptr3': '*i1', 'out_ptr4': '*fp32', 'load_seed_offset': 'constexpr', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {'load_seed_offset': 1}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]], (8,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused__softmax_add_arange_bitwise_and_eq_exp_expand_index_le_lift_fresh_mul_native_dropout_new_ones_prepare_softmax_online_scalar_tensor_sub_unsqueeze_view_where_2', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': False, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 3, 'num_store': 3, 'num_reduction': 4, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': True, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': True, 'has_loadstore_with_contiguous_rdim': True, 'tiling_scores': {'x': 128, 'r0_': 22656}}
)
@triton.jit
def triton_per_fused__softmax_add_arange_bitwise_and_eq_exp_expand_index_le_lift_fresh_mul_native_dropout_new_ones_prepare_softmax_online_scalar_tensor_sub_unsqueeze_view_where_2(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, out_ptr3, out_ptr4, load_seed_offset, xnumel, r0_numel, XBLOCK : tl.constexpr):
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
    tmp3 = tl.load(in_ptr0 + (r0_2), None, eviction_policy='evict_last')
    tmp4 = tl.load(in_ptr0 + (x0), xmask, eviction_policy='evict_last')
    tmp1 = tl.full([1, 1], 0.25, tl.float32)
    tmp2 = tmp0 * tmp1
    tmp5 = tmp3 <= tmp4
    tmp6 = tl.full([1, 1], True, tl.int1)
    tmp7 = tmp6 & tmp5
    tmp8 = tl.full([1, 1], 16, tl.int32)
    tmp9 = tmp4 + tmp8
    tmp10 = tmp4 < 0
    tmp11 = tl.where(tmp10, tmp9, tmp4)
    tl.device_assert(((0 <= tmp11) & (tmp11 < 16)) | ~(xmask), "index out of bounds: 0 <= tmp11 < 16")
    tmp13 = tl.load(in_ptr1 + (tmp11), xmask, eviction_policy='evict_last')
    tmp14 = tmp3 + tmp8
    tmp15 = tmp3 < 0
    tmp16 = tl.where(tmp15, tmp14, tmp3)
    tl.device_assert((0 <= tmp16) & (tmp16 < 16), "index out of bounds: 0 <= tmp16 < 16")
    tmp18 = tl.load(in_ptr1 + (tmp16), None, eviction_policy='evict_last')
    tmp19 = tmp13 == tmp18
    tmp20 = tmp7 & tmp19
    tmp21 = tl.full([1, 1], 0.0, tl.float32)
    tmp22 = tl.full([1, 1], -3.4028234663852886e+38, tl.float32)
    tmp23 = tl.where(tmp20, tmp21, tmp22)
    tmp24 = tmp2 + tmp23
    tmp25 = tl.broadcast_to(tmp24, [XBLOCK, R0_BLOCK])
    tmp27 = tl.broadcast_to(tmp25, [XBLOCK, R0_BLOCK])
    tmp29 = tl.where(xmask, tmp27, float("-inf"))
    tmp30 = triton_helpers.max2(tmp29, 1)[:, None].to(tl.float32)
    tmp31 = tmp25 - tmp30
    tmp32 = libdevice.exp(tmp31)
    tmp33 = tl.broadcast_to(tmp32, [XBLOCK, R0_BLOCK])
    tmp35 = tl.where(xmask, tmp33, 0)
    tmp36 = tl.sum(tmp35, 1)[:, None].to(tl.float32)
    tmp37 = tl.load(in_ptr2 + load_seed_offset)
    tmp38 = r0_2 + 16*x3
    tmp39 = tl.rand(tmp37, (tmp38).to(tl.uint32))
    tmp40 = tl.full([1, 1], 0.1, tl.float32)
    tmp41 = tmp39 > tmp40
    tmp42 = tmp24 - tmp30
    tmp43 = libdevice.exp(tmp42)
    tmp44 = (tmp43 / tmp36)
    tmp45 = tmp41.to(tl.float32)
    tmp46 = tmp45 * tmp44
    tmp47 = tl.full([1, 1], 1.1111111111111112, tl.float32)
    tmp48 = tmp46 * tmp47
    tl.store(out_ptr3 + (r0_2 + 16*x3), tmp41, xmask)
    tl.store(in_out_ptr0 + (r0_2 + 16*x3), tmp44, xmask)
    tl.store(out_ptr4 + (r0_2 + 16*x3), tmp48, xmask)
