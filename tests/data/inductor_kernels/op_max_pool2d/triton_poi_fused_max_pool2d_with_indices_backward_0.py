
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'y': 256, 'x': 16}, tile_hint=TileHint.DEFAULT,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*i64', 'in_ptr1': '*fp32', 'out_ptr0': '*fp32', 'ynumel': 'i32', 'xnumel': 'i32', 'YBLOCK': 'constexpr', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid2D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_max_pool2d_with_indices_backward_0', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 8, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'y': 24576, 'x': 45056}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_max_pool2d_with_indices_backward_0(in_ptr0, in_ptr1, out_ptr0, ynumel, xnumel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr):
    ynumel = 256
    xnumel = 16
    yoffset = tl.program_id(1) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[:, None]
    ymask = yindex < ynumel
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[None, :]
    xmask = xindex < xnumel
    x2 = xindex
    y0 = (yindex % 16)
    y1 = yindex // 16
    y3 = yindex
    tmp0 = tl.load(in_ptr0 + (8*((y0 // 2) * ((y0 // 2) <= ((-1) + ((8) * ((8) <= (1 + ((1 + y0) // 2))) + (1 + ((1 + y0) // 2)) * ((1 + ((1 + y0) // 2)) < (8))))) + ((-1) + ((8) * ((8) <= (1 + ((1 + y0) // 2))) + (1 + ((1 + y0) // 2)) * ((1 + ((1 + y0) // 2)) < (8)))) * (((-1) + ((8) * ((8) <= (1 + ((1 + y0) // 2))) + (1 + ((1 + y0) // 2)) * ((1 + ((1 + y0) // 2)) < (8)))) < (y0 // 2))) + 64*y1 + ((x2 // 2) * ((x2 // 2) <= ((-1) + ((8) * ((8) <= (1 + ((1 + x2) // 2))) + (1 + ((1 + x2) // 2)) * ((1 + ((1 + x2) // 2)) < (8))))) + ((-1) + ((8) * ((8) <= (1 + ((1 + x2) // 2))) + (1 + ((1 + x2) // 2)) * ((1 + ((1 + x2) // 2)) < (8)))) * (((-1) + ((8) * ((8) <= (1 + ((1 + x2) // 2))) + (1 + ((1 + x2) // 2)) * ((1 + ((1 + x2) // 2)) < (8)))) < (x2 // 2)))), xmask & ymask, eviction_policy='evict_last')
    tmp1 = tl.load(in_ptr1 + (8*((y0 // 2) * ((y0 // 2) <= ((-1) + ((8) * ((8) <= (1 + ((1 + y0) // 2))) + (1 + ((1 + y0) // 2)) * ((1 + ((1 + y0) // 2)) < (8))))) + ((-1) + ((8) * ((8) <= (1 + ((1 + y0) // 2))) + (1 + ((1 + y0) // 2)) * ((1 + ((1 + y0) // 2)) < (8)))) * (((-1) + ((8) * ((8) <= (1 + ((1 + y0) // 2))) + (1 + ((1 + y0) // 2)) * ((1 + ((1 + y0) // 2)) < (8)))) < (y0 // 2))) + 64*y1 + ((x2 // 2) * ((x2 // 2) <= ((-1) + ((8) * ((8) <= (1 + ((1 + x2) // 2))) + (1 + ((1 + x2) // 2)) * ((1 + ((1 + x2) // 2)) < (8))))) + ((-1) + ((8) * ((8) <= (1 + ((1 + x2) // 2))) + (1 + ((1 + x2) // 2)) * ((1 + ((1 + x2) // 2)) < (8)))) * (((-1) + ((8) * ((8) <= (1 + ((1 + x2) // 2))) + (1 + ((1 + x2) // 2)) * ((1 + ((1 + x2) // 2)) < (8)))) < (x2 // 2)))), xmask & ymask, eviction_policy='evict_last')
    tmp6 = tl.load(in_ptr0 + (8*((y0 // 2) * ((y0 // 2) <= ((-1) + ((8) * ((8) <= (1 + ((1 + y0) // 2))) + (1 + ((1 + y0) // 2)) * ((1 + ((1 + y0) // 2)) < (8))))) + ((-1) + ((8) * ((8) <= (1 + ((1 + y0) // 2))) + (1 + ((1 + y0) // 2)) * ((1 + ((1 + y0) // 2)) < (8)))) * (((-1) + ((8) * ((8) <= (1 + ((1 + y0) // 2))) + (1 + ((1 + y0) // 2)) * ((1 + ((1 + y0) // 2)) < (8)))) < (y0 // 2))) + 64*y1 + ((1 + (x2 // 2)) * ((1 + (x2 // 2)) <= ((-1) + ((8) * ((8) <= (1 + ((1 + x2) // 2))) + (1 + ((1 + x2) // 2)) * ((1 + ((1 + x2) // 2)) < (8))))) + ((-1) + ((8) * ((8) <= (1 + ((1 + x2) // 2))) + (1 + ((1 + x2) // 2)) * ((1 + ((1 + x2) // 2)) < (8)))) * (((-1) + ((8) * ((8) <= (1 + ((1 + x2) // 2))) + (1 + ((1 + x2) // 2)) * ((1 + ((1 + x2) // 2)) < (8)))) < (1 + (x2 // 2))))), xmask & ymask, eviction_policy='evict_last')
    tmp7 = tl.load(in_ptr1 + (8*((y0 // 2) * ((y0 // 2) <= ((-1) + ((8) * ((8) <= (1 + ((1 + y0) // 2))) + (1 + ((1 + y0) // 2)) * ((1 + ((1 + y0) // 2)) < (8))))) + ((-1) + ((8) * ((8) <= (1 + ((1 + y0) // 2))) + (1 + ((1 + y0) // 2)) * ((1 + ((1 + y0) // 2)) < (8)))) * (((-1) + ((8) * ((8) <= (1 + ((1 + y0) // 2))) + (1 + ((1 + y0) // 2)) * ((1 + ((1 + y0) // 2)) < (8)))) < (y0 // 2))) + 64*y1 + ((1 + (x2 // 2)) * ((1 + (x2 // 2)) <= ((-1) + ((8) * ((8) <= (1 + ((1 + x2) // 2))) + (1 + ((1 + x2) // 2)) * ((1 + ((1 + x2) // 2)) < (8))))) + ((-1) + ((8) * ((8) <= (1 + ((1 + x2) // 2))) + (1 + ((1 + x2) // 2)) * ((1 + ((1 + x2) // 2)) < (8)))) * (((-1) + ((8) * ((8) <= (1 + ((1 + x2) // 2))) + (1 + ((1 + x2) // 2)) * ((1 + ((1 + x2) // 2)) < (8)))) < (1 + (x2 // 2))))), xmask & ymask, eviction_policy='evict_last')
    tmp19 = tl.load(in_ptr0 + (8*((1 + (y0 // 2)) * ((1 + (y0 // 2)) <= ((-1) + ((8) * ((8) <= (1 + ((1 + y0) // 2))) + (1 + ((1 + y0) // 2)) * ((1 + ((1 + y0) // 2)) < (8))))) + ((-1) + ((8) * ((8) <= (1 + ((1 + y0) // 2))) + (1 + ((1 + y0) // 2)) * ((1 + ((1 + y0) // 2)) < (8)))) * (((-1) + ((8) * ((8) <= (1 + ((1 + y0) // 2))) + (1 + ((1 + y0) // 2)) * ((1 + ((1 + y0) // 2)) < (8)))) < (1 + (y0 // 2)))) + 64*y1 + ((x2 // 2) * ((x2 // 2) <= ((-1) + ((8) * ((8) <= (1 + ((1 + x2) // 2))) + (1 + ((1 + x2) // 2)) * ((1 + ((1 + x2) // 2)) < (8))))) + ((-1) + ((8) * ((8) <= (1 + ((1 + x2) // 2))) + (1 + ((1 + x2) // 2)) * ((1 + ((1 + x2) // 2)) < (8)))) * (((-1) + ((8) * ((8) <= (1 + ((1 + x2) // 2))) + (1 + ((1 + x2) // 2)) * ((1 + ((1 + x2) // 2)) < (8)))) < (x2 // 2)))), xmask & ymask, eviction_policy='evict_last')
    tmp20 = tl.load(in_ptr1 + (8*((1 + (y0 // 2)) * ((1 + (y0 // 2)) <= ((-1) + ((8) * ((8) <= (1 + ((1 + y0) // 2))) + (1 + ((1 + y0) // 2)) * ((1 + ((1 + y0) // 2)) < (8))))) + ((-1) + ((8) * ((8) <= (1 + ((1 + y0) // 2))) + (1 + ((1 + y0) // 2)) * ((1 + ((1 + y0) // 2)) < (8)))) * (((-1) + ((8) * ((8) <= (1 + ((1 + y0) // 2))) + (1 + ((1 + y0) // 2)) * ((1 + ((1 + y0) // 2)) < (8)))) < (1 + (y0 // 2)))) + 64*y1 + ((x2 // 2) * ((x2 // 2) <= ((-1) + ((8) * ((8) <= (1 + ((1 + x2) // 2))) + (1 + ((1 + x2) // 2)) * ((1 + ((1 + x2) // 2)) < (8))))) + ((-1) + ((8) * ((8) <= (1 + ((1 + x2) // 2))) + (1 + ((1 + x2) // 2)) * ((1 + ((1 + x2) // 2)) < (8)))) * (((-1) + ((8) * ((8) <= (1 + ((1 + x2) // 2))) + (1 + ((1 + x2) // 2)) * ((1 + ((1 + x2) // 2)) < (8)))) < (x2 // 2)))), xmask & ymask, eviction_policy='evict_last')
    tmp30 = tl.load(in_ptr0 + (8*((1 + (y0 // 2)) * ((1 + (y0 // 2)) <= ((-1) + ((8) * ((8) <= (1 + ((1 + y0) // 2))) + (1 + ((1 + y0) // 2)) * ((1 + ((1 + y0) // 2)) < (8))))) + ((-1) + ((8) * ((8) <= (1 + ((1 + y0) // 2))) + (1 + ((1 + y0) // 2)) * ((1 + ((1 + y0) // 2)) < (8)))) * (((-1) + ((8) * ((8) <= (1 + ((1 + y0) // 2))) + (1 + ((1 + y0) // 2)) * ((1 + ((1 + y0) // 2)) < (8)))) < (1 + (y0 // 2)))) + 64*y1 + ((1 + (x2 // 2)) * ((1 + (x2 // 2)) <= ((-1) + ((8) * ((8) <= (1 + ((1 + x2) // 2))) + (1 + ((1 + x2) // 2)) * ((1 + ((1 + x2) // 2)) < (8))))) + ((-1) + ((8) * ((8) <= (1 + ((1 + x2) // 2))) + (1 + ((1 + x2) // 2)) * ((1 + ((1 + x2) // 2)) < (8)))) * (((-1) + ((8) * ((8) <= (1 + ((1 + x2) // 2))) + (1 + ((1 + x2) // 2)) * ((1 + ((1 + x2) // 2)) < (8)))) < (1 + (x2 // 2))))), xmask & ymask, eviction_policy='evict_last')
    tmp31 = tl.load(in_ptr1 + (8*((1 + (y0 // 2)) * ((1 + (y0 // 2)) <= ((-1) + ((8) * ((8) <= (1 + ((1 + y0) // 2))) + (1 + ((1 + y0) // 2)) * ((1 + ((1 + y0) // 2)) < (8))))) + ((-1) + ((8) * ((8) <= (1 + ((1 + y0) // 2))) + (1 + ((1 + y0) // 2)) * ((1 + ((1 + y0) // 2)) < (8)))) * (((-1) + ((8) * ((8) <= (1 + ((1 + y0) // 2))) + (1 + ((1 + y0) // 2)) * ((1 + ((1 + y0) // 2)) < (8)))) < (1 + (y0 // 2)))) + 64*y1 + ((1 + (x2 // 2)) * ((1 + (x2 // 2)) <= ((-1) + ((8) * ((8) <= (1 + ((1 + x2) // 2))) + (1 + ((1 + x2) // 2)) * ((1 + ((1 + x2) // 2)) < (8))))) + ((-1) + ((8) * ((8) <= (1 + ((1 + x2) // 2))) + (1 + ((1 + x2) // 2)) * ((1 + ((1 + x2) // 2)) < (8)))) * (((-1) + ((8) * ((8) <= (1 + ((1 + x2) // 2))) + (1 + ((1 + x2) // 2)) * ((1 + ((1 + x2) // 2)) < (8)))) < (1 + (x2 // 2))))), xmask & ymask, eviction_policy='evict_last')
    tmp2 = x2 + 16*y0
    tmp3 = tmp0 == tmp2
    tmp4 = tl.full([1, 1], 0.0, tl.float32)
    tmp5 = tl.where(tmp3, tmp1, tmp4)
    tmp8 = tmp6 == tmp2
    tmp9 = y0 // 2
    tmp10 = ((8) * ((8) <= (1 + ((1 + y0) // 2))) + (1 + ((1 + y0) // 2)) * ((1 + ((1 + y0) // 2)) < (8)))
    tmp11 = tmp9 < tmp10
    tmp12 = 1 + (x2 // 2)
    tmp13 = ((8) * ((8) <= (1 + ((1 + x2) // 2))) + (1 + ((1 + x2) // 2)) * ((1 + ((1 + x2) // 2)) < (8)))
    tmp14 = tmp12 < tmp13
    tmp15 = tmp11 & tmp14
    tmp16 = tmp15 & tmp8
    tmp17 = tmp5 + tmp7
    tmp18 = tl.where(tmp16, tmp17, tmp5)
    tmp21 = tmp19 == tmp2
    tmp22 = 1 + (y0 // 2)
    tmp23 = tmp22 < tmp10
    tmp24 = x2 // 2
    tmp25 = tmp24 < tmp13
    tmp26 = tmp23 & tmp25
    tmp27 = tmp26 & tmp21
    tmp28 = tmp18 + tmp20
    tmp29 = tl.where(tmp27, tmp28, tmp18)
    tmp32 = tmp30 == tmp2
    tmp33 = tmp23 & tmp14
    tmp34 = tmp33 & tmp32
    tmp35 = tmp29 + tmp31
    tmp36 = tl.where(tmp34, tmp35, tmp29)
    tl.store(out_ptr0 + (x2 + 16*y3), tmp36, xmask & ymask)
