
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 128}, 
    filename=__file__,
    triton_meta={'signature': {'out_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_abs_add_arange_div_expand_log2_mul_sign_stack_view_5', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 0, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': True, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': True, 'has_loadstore_with_contiguous_rdim': False, 'tiling_scores': {'x': 784}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_abs_add_arange_div_expand_log2_mul_sign_stack_view_5(out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 98
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = (xindex % 2)
    x1 = xindex // 2
    x2 = xindex
    tmp0 = x0
    tmp1 = tl.full([1], 0, tl.int64)
    tmp2 = tmp0 >= tmp1
    tmp3 = tl.full([1], 1, tl.int64)
    tmp4 = tmp0 < tmp3
    tmp5 = (-3) + (x1 // 7)
    tmp6 = tmp5.to(tl.float32)
    tmp7 = tl.full(tmp6.shape, 0.0, tmp6.dtype)
    tmp8 = tl.where(tmp4, tmp6, tmp7)
    tmp9 = tmp0 >= tmp3
    tmp10 = tl.full([1], 2, tl.int64)
    tmp11 = tmp0 < tmp10
    tmp12 = (-3) + ((x1 % 7))
    tmp13 = tmp12.to(tl.float32)
    tmp14 = tl.full(tmp13.shape, 0.0, tmp13.dtype)
    tmp15 = tl.where(tmp9, tmp13, tmp14)
    tmp16 = tl.where(tmp4, tmp8, tmp15)
    tmp17 = tl.full([1], 0.3333333333333333, tl.float32)
    tmp18 = tmp16 * tmp17
    tmp19 = tl.full([1], 8.0, tl.float32)
    tmp20 = tmp18 * tmp19
    tmp21 = tl.full([1], 0, tl.int32)
    tmp22 = tmp21 < tmp20
    tmp23 = tmp22.to(tl.int8)
    tmp24 = tmp20 < tmp21
    tmp25 = tmp24.to(tl.int8)
    tmp26 = tmp23 - tmp25
    tmp27 = tmp26.to(tmp20.dtype)
    tmp28 = tl_math.abs(tmp20)
    tmp29 = tl.full([1], 1.0, tl.float32)
    tmp30 = tmp28 + tmp29
    tmp31 = libdevice.log2(tmp30)
    tmp32 = tmp27 * tmp31
    tmp33 = tmp32 * tmp17
    tl.store(out_ptr0 + (x2), tmp33, xmask)
