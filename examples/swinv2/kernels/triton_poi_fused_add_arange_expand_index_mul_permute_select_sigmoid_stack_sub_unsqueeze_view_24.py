
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 1024}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_add_arange_expand_index_mul_permute_select_sigmoid_stack_sub_unsqueeze_view_24', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 0, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': True, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': True, 'has_loadstore_with_contiguous_rdim': False, 'tiling_scores': {'x': 8192}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_add_arange_expand_index_mul_permute_select_sigmoid_stack_sub_unsqueeze_view_24(in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 1024
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x1 = ((xindex // 16) % 16)
    x3 = xindex
    x0 = (xindex % 16)
    x2 = xindex // 256
    tmp0 = x1 // 4
    tmp1 = tl.full([1], 0, tl.int64)
    tmp2 = tmp0 >= tmp1
    tmp3 = tl.full([1], 4, tl.int64)
    tmp4 = tmp0 < tmp3
    tmp5 = x1 // 4
    tmp6 = tl.full(tmp5.shape, 0.0, tmp5.dtype)
    tmp7 = tl.where(tmp4, tmp5, tmp6)
    tmp8 = tmp0 >= tmp3
    tmp9 = tl.full([1], 8, tl.int64)
    tmp10 = tmp0 < tmp9
    tmp11 = ((((x3 // 16) % 16)) % 4)
    tmp12 = tl.full(tmp11.shape, 0.0, tmp11.dtype)
    tmp13 = tl.where(tmp8, tmp11, tmp12)
    tmp14 = tl.where(tmp4, tmp7, tmp13)
    tmp15 = x0 // 4
    tmp16 = tmp15 >= tmp1
    tmp17 = tmp15 < tmp3
    tmp18 = x0 // 4
    tmp19 = tl.full(tmp18.shape, 0.0, tmp18.dtype)
    tmp20 = tl.where(tmp17, tmp18, tmp19)
    tmp21 = tmp15 >= tmp3
    tmp22 = tmp15 < tmp9
    tmp23 = (x3 % 4)
    tmp24 = tl.full(tmp23.shape, 0.0, tmp23.dtype)
    tmp25 = tl.where(tmp21, tmp23, tmp24)
    tmp26 = tl.where(tmp17, tmp20, tmp25)
    tmp27 = tmp14 - tmp26
    tmp28 = tl.full([1], 3, tl.int64)
    tmp29 = tmp27 + tmp28
    tmp30 = tl.full([1], 7, tl.int64)
    tmp31 = tmp29 * tmp30
    tmp32 = 4 + (x1 // 4)
    tmp33 = tmp32 >= tmp1
    tmp34 = tmp32 < tmp3
    tmp35 = 4 + (x1 // 4)
    tmp36 = tl.full(tmp35.shape, 0.0, tmp35.dtype)
    tmp37 = tl.where(tmp34, tmp35, tmp36)
    tmp38 = tmp32 >= tmp3
    tmp39 = tmp32 < tmp9
    tmp40 = ((((x3 // 16) % 16)) % 4)
    tmp41 = tl.full(tmp40.shape, 0.0, tmp40.dtype)
    tmp42 = tl.where(tmp38, tmp40, tmp41)
    tmp43 = tl.where(tmp34, tmp37, tmp42)
    tmp44 = 4 + (x0 // 4)
    tmp45 = tmp44 >= tmp1
    tmp46 = tmp44 < tmp3
    tmp47 = 4 + (x0 // 4)
    tmp48 = tl.full(tmp47.shape, 0.0, tmp47.dtype)
    tmp49 = tl.where(tmp46, tmp47, tmp48)
    tmp50 = tmp44 >= tmp3
    tmp51 = tmp44 < tmp9
    tmp52 = (x3 % 4)
    tmp53 = tl.full(tmp52.shape, 0.0, tmp52.dtype)
    tmp54 = tl.where(tmp50, tmp52, tmp53)
    tmp55 = tl.where(tmp46, tmp49, tmp54)
    tmp56 = tmp43 - tmp55
    tmp57 = tmp56 + tmp28
    tmp58 = tmp31 + tmp57
    tmp59 = tl.full([XBLOCK], 49, tl.int32)
    tmp60 = tmp58 + tmp59
    tmp61 = tmp58 < 0
    tmp62 = tl.where(tmp61, tmp60, tmp58)
    tl.device_assert(((0 <= tmp62) & (tmp62 < 49)) | ~(xmask), "index out of bounds: 0 <= tmp62 < 49")
    tmp64 = tl.load(in_ptr0 + (x2 + 4*tmp62), xmask, eviction_policy='evict_last')
    tmp65 = tl.sigmoid(tmp64)
    tmp66 = tl.full([1], 16.0, tl.float32)
    tmp67 = tmp65 * tmp66
    tl.store(out_ptr0 + (x3), tmp67, xmask)
