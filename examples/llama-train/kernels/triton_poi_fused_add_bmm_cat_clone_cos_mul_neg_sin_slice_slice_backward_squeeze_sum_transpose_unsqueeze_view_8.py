
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'y': 32, 'x': 16}, tile_hint=TileHint.DEFAULT,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'out_ptr0': '*fp32', 'ynumel': 'i32', 'xnumel': 'i32', 'YBLOCK': 'constexpr', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid2D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_add_bmm_cat_clone_cos_mul_neg_sin_slice_slice_backward_squeeze_sum_transpose_unsqueeze_view_8', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 9, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': True, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': True, 'has_loadstore_with_contiguous_rdim': False, 'tiling_scores': {'y': 4096, 'x': 10752}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_add_bmm_cat_clone_cos_mul_neg_sin_slice_slice_backward_squeeze_sum_transpose_unsqueeze_view_8(in_ptr0, in_ptr1, out_ptr0, ynumel, xnumel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr):
    ynumel = 32
    xnumel = 16
    yoffset = tl.program_id(1) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[:, None]
    ymask = yindex < ynumel
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[None, :]
    xmask = xindex < xnumel
    y0 = (yindex % 16)
    x2 = xindex
    y1 = yindex // 16
    y3 = yindex
    tmp29 = tl.load(in_ptr0 + (x2 + 16*y0 + 512*y1), xmask & ymask, eviction_policy='evict_last')
    tmp30 = tl.load(in_ptr0 + (256 + x2 + 16*y0 + 512*y1), xmask & ymask, eviction_policy='evict_last')
    tmp32 = tl.load(in_ptr1 + (x2 + 16*((y0 % 8))), xmask & ymask, eviction_policy='evict_last')
    tmp0 = y0
    tmp1 = tl.full([1, 1], 8, tl.int64)
    tmp2 = tmp0 >= tmp1
    tmp3 = tl.load(in_ptr0 + ((-128) + x2 + 16*y0 + 512*y1), tmp2 & xmask & ymask, eviction_policy='evict_last', other=0.0)
    tmp4 = tl.load(in_ptr0 + (128 + x2 + 16*y0 + 512*y1), tmp2 & xmask & ymask, eviction_policy='evict_last', other=0.0)
    tmp5 = tmp3 + tmp4
    tmp6 = tl.load(in_ptr1 + (x2 + 16*((y0 % 8))), tmp2 & xmask & ymask, eviction_policy='evict_last', other=0.0)
    tmp7 = tl_math.sin(tmp6)
    tmp8 = tl.full([1, 1], 1.0, tl.float32)
    tmp9 = tmp7 * tmp8
    tmp10 = tmp5 * tmp9
    tmp11 = -tmp10
    tmp12 = tl.full(tmp11.shape, 0.0, tmp11.dtype)
    tmp13 = tl.where(tmp2, tmp11, tmp12)
    tmp14 = tl.full([1, 1], 0.0, tl.float32)
    tmp15 = tl.where(tmp2, tmp13, tmp14)
    tmp16 = tmp0 < tmp1
    tmp17 = tl.load(in_ptr0 + (128 + x2 + 16*y0 + 512*y1), tmp16 & xmask & ymask, eviction_policy='evict_last', other=0.0)
    tmp18 = tl.load(in_ptr0 + (384 + x2 + 16*y0 + 512*y1), tmp16 & xmask & ymask, eviction_policy='evict_last', other=0.0)
    tmp19 = tmp17 + tmp18
    tmp20 = tl.load(in_ptr1 + (x2 + 16*((y0 % 8))), tmp16 & xmask & ymask, eviction_policy='evict_last', other=0.0)
    tmp21 = tl_math.sin(tmp20)
    tmp22 = tl.full([1, 1], 1.0, tl.float32)
    tmp23 = tmp21 * tmp22
    tmp24 = tmp19 * tmp23
    tmp25 = tl.full(tmp24.shape, 0.0, tmp24.dtype)
    tmp26 = tl.where(tmp16, tmp24, tmp25)
    tmp27 = tl.where(tmp16, tmp26, tmp14)
    tmp28 = tmp15 + tmp27
    tmp31 = tmp29 + tmp30
    tmp33 = tl_math.cos(tmp32)
    tmp34 = tl.full([1, 1], 1.0, tl.float32)
    tmp35 = tmp33 * tmp34
    tmp36 = tmp31 * tmp35
    tmp37 = tmp28 + tmp36
    tl.store(out_ptr0 + (y3 + 32*x2), tmp37, xmask & ymask)
