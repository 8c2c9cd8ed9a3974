
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 1024}, 
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused__to_copy__unsafe_index_add_arange_clamp_mul_sub_unsqueeze_view_7', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 0, 'num_store': 2, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 16384}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused__to_copy__unsafe_index_add_arange_clamp_mul_sub_unsqueeze_view_7(in_out_ptr0, in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 1024
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x1 = ((xindex // 16) % 16)
    x0 = (xindex % 16)
    x2 = xindex // 256
    x4 = xindex
    tmp0 = x1
    tmp1 = tmp0.to(tl.float32)
    tmp2 = tl.full([1], 0.5, tl.float32)
    tmp3 = tmp1 * tmp2
    tmp4 = tmp3.to(tl.int32)
    tmp5 = x0
    tmp6 = tmp5.to(tl.float32)
    tmp7 = tmp6 * tmp2
    tmp8 = tmp7.to(tl.int32)
    tmp9 = tl.load(in_ptr0 + (tmp8 + 8*tmp4 + 64*x2), xmask, eviction_policy='evict_last')
    tmp10 = tmp1 + tmp2
    tmp11 = tmp10 * tmp2
    tmp12 = tmp11 - tmp2
    tmp13 = tl.full([1], 0.0, tl.float32)
    tmp14 = triton_helpers.maximum(tmp12, tmp13)
    tmp15 = tmp14.to(tl.int32)
    tmp16 = tl.full([1], 1, tl.int64)
    tmp17 = tmp15 + tmp16
    tmp18 = tl.full([1], 7, tl.int64)
    tmp19 = triton_helpers.minimum(tmp17, tmp18)
    tmp20 = tmp6 + tmp2
    tmp21 = tmp20 * tmp2
    tmp22 = tmp21 - tmp2
    tmp23 = triton_helpers.maximum(tmp22, tmp13)
    tmp24 = tmp23.to(tl.int32)
    tmp25 = tmp24 + tmp16
    tmp26 = triton_helpers.minimum(tmp25, tmp18)
    tmp27 = tl.load(in_ptr0 + (tmp26 + 8*tmp19 + 64*x2), xmask, eviction_policy='evict_last')
    tmp28 = tl.load(in_ptr0 + (tmp24 + 8*tmp19 + 64*x2), xmask, eviction_policy='evict_last')
    tmp29 = tmp27 - tmp28
    tmp30 = tmp24.to(tl.float32)
    tmp31 = tmp23 - tmp30
    tmp32 = triton_helpers.maximum(tmp31, tmp13)
    tmp33 = tl.full([1], 1.0, tl.float32)
    tmp34 = triton_helpers.minimum(tmp32, tmp33)
    tmp35 = tmp29 * tmp34
    tmp36 = tmp28 + tmp35
    tmp37 = tl.load(in_ptr0 + (tmp24 + 8*tmp15 + 64*x2), xmask, eviction_policy='evict_last')
    tmp38 = tl.load(in_ptr0 + (tmp26 + 8*tmp15 + 64*x2), xmask, eviction_policy='evict_last')
    tmp39 = tmp38 - tmp37
    tmp40 = tmp39 * tmp34
    tmp41 = tmp37 + tmp40
    tmp42 = tmp36 - tmp41
    tmp43 = tmp15.to(tl.float32)
    tmp44 = tmp14 - tmp43
    tmp45 = triton_helpers.maximum(tmp44, tmp13)
    tmp46 = triton_helpers.minimum(tmp45, tmp33)
    tmp47 = tmp42 * tmp46
    tmp48 = tmp41 + tmp47
    tl.store(out_ptr0 + (x4), tmp9, xmask)
    tl.store(in_out_ptr0 + (x4), tmp48, xmask)
