
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 128}, 
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'in_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused__unsafe_view_add_arange_cat_cos_div_mul_neg_pow_reciprocal_sin_slice_split_with_sizes_unsqueeze_view_6', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 3, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': True, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': True, 'has_loadstore_with_contiguous_rdim': False, 'tiling_scores': {'x': 2560}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused__unsafe_view_add_arange_cat_cos_div_mul_neg_pow_reciprocal_sin_slice_split_with_sizes_unsqueeze_view_6(in_out_ptr0, in_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 128
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = (xindex % 8)
    x1 = xindex // 8
    x2 = xindex
    tmp48 = tl.load(in_ptr0 + (32 + x0 + 40*x1), xmask)
    tmp0 = x0
    tmp1 = tl.full([1], 0, tl.int64)
    tmp2 = tmp0 >= tmp1
    tmp3 = tl.full([1], 4, tl.int64)
    tmp4 = tmp0 < tmp3
    tmp5 = tl.load(in_ptr0 + (36 + 40*x1 + (x0)), tmp4 & xmask, eviction_policy='evict_last', other=0.0)
    tmp6 = -tmp5
    tmp7 = tl.full(tmp6.shape, 0.0, tmp6.dtype)
    tmp8 = tl.where(tmp4, tmp6, tmp7)
    tmp9 = tmp0 >= tmp3
    tmp10 = tl.full([1], 8, tl.int64)
    tmp11 = tmp0 < tmp10
    tmp12 = tl.load(in_ptr0 + (32 + 40*x1 + ((-4) + x0)), tmp9 & xmask, eviction_policy='evict_last', other=0.0)
    tmp13 = tl.where(tmp4, tmp8, tmp12)
    tmp14 = 2*(x0)
    tmp15 = tmp14.to(tl.float32)
    tmp16 = tl.full([1], 0.125, tl.float32)
    tmp17 = tmp15 * tmp16
    tmp18 = tl.full([1], 10000.0, tl.float32)
    tmp19 = libdevice.pow(tmp18, tmp17)
    tmp20 = tl.full([1], 1, tl.int32)
    tmp21 = (tmp20 / tmp19)
    tmp22 = tl.full([1], 1.0, tl.float32)
    tmp23 = tmp21 * tmp22
    tmp24 = x1
    tmp25 = tmp24.to(tl.float32)
    tmp26 = tmp25 * tmp23
    tmp27 = tl_math.sin(tmp26)
    tmp28 = tl.full(tmp27.shape, 0.0, tmp27.dtype)
    tmp29 = tl.where(tmp4, tmp27, tmp28)
    tmp30 = 2*((-4) + x0)
    tmp31 = tmp30.to(tl.float32)
    tmp32 = tl.full([1], 0.125, tl.float32)
    tmp33 = tmp31 * tmp32
    tmp34 = tl.full([1], 10000.0, tl.float32)
    tmp35 = libdevice.pow(tmp34, tmp33)
    tmp36 = tl.full([1], 1, tl.int32)
    tmp37 = (tmp36 / tmp35)
    tmp38 = tl.full([1], 1.0, tl.float32)
    tmp39 = tmp37 * tmp38
    tmp40 = x1
    tmp41 = tmp40.to(tl.float32)
    tmp42 = tmp41 * tmp39
    tmp43 = tl_math.sin(tmp42)
    tmp44 = tl.full(tmp43.shape, 0.0, tmp43.dtype)
    tmp45 = tl.where(tmp9, tmp43, tmp44)
    tmp46 = tl.where(tmp4, tmp29, tmp45)
    tmp47 = tmp13 * tmp46
    tmp49 = tl_math.cos(tmp26)
    tmp50 = tl.full(tmp49.shape, 0.0, tmp49.dtype)
    tmp51 = tl.where(tmp4, tmp49, tmp50)
    tmp52 = tl_math.cos(tmp42)
    tmp53 = tl.full(tmp52.shape, 0.0, tmp52.dtype)
    tmp54 = tl.where(tmp9, tmp52, tmp53)
    tmp55 = tl.where(tmp4, tmp51, tmp54)
    tmp56 = tmp48 * tmp55
    tmp57 = tmp56 + tmp47
    tl.store(in_out_ptr0 + (x2), tmp57, xmask)
