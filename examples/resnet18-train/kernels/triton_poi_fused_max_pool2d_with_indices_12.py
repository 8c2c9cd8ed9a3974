
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 16384}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'out_ptr1': '*i8', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_max_pool2d_with_indices_12', 'mutated_arg_names': [], 'optimize_mem': False, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 9, 'num_store': 2, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': True, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': True, 'has_loadstore_with_contiguous_rdim': False, 'tiling_scores': {'x': 753664}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_max_pool2d_with_indices_12(in_ptr0, out_ptr0, out_ptr1, xnumel, XBLOCK : tl.constexpr):
    xnumel = 16384
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x2 = ((xindex // 256) % 16)
    x1 = ((xindex // 16) % 16)
    x0 = (xindex % 16)
    x5 = xindex // 256
    x6 = xindex
    tmp0 = (-1) + 2*x2
    tmp1 = tl.full([1], 0, tl.int64)
    tmp2 = tmp0 >= tmp1
    tmp3 = tl.full([1], 32, tl.int64)
    tmp4 = tmp0 < tmp3
    tmp5 = tmp2 & tmp4
    tmp6 = (-1) + 2*x1
    tmp7 = tmp6 >= tmp1
    tmp8 = tmp6 < tmp3
    tmp9 = tmp7 & tmp8
    tmp10 = tmp5 & tmp9
    tmp11 = tl.load(in_ptr0 + ((-528) + x0 + 32*x1 + 1024*x5), tmp10, other=float("-inf"))
    tmp12 = 2*x1
    tmp13 = tmp12 >= tmp1
    tmp14 = tmp12 < tmp3
    tmp15 = tmp13 & tmp14
    tmp16 = tmp5 & tmp15
    tmp17 = tl.load(in_ptr0 + ((-512) + x0 + 32*x1 + 1024*x5), tmp16, other=float("-inf"))
    tmp18 = triton_helpers.maximum(tmp11, tmp17)
    tmp19 = 1 + 2*x1
    tmp20 = tmp19 >= tmp1
    tmp21 = tmp19 < tmp3
    tmp22 = tmp20 & tmp21
    tmp23 = tmp5 & tmp22
    tmp24 = tl.load(in_ptr0 + ((-496) + x0 + 32*x1 + 1024*x5), tmp23, other=float("-inf"))
    tmp25 = triton_helpers.maximum(tmp18, tmp24)
    tmp26 = 2*x2
    tmp27 = tmp26 >= tmp1
    tmp28 = tmp26 < tmp3
    tmp29 = tmp27 & tmp28
    tmp30 = tmp29 & tmp9
    tmp31 = tl.load(in_ptr0 + ((-16) + x0 + 32*x1 + 1024*x5), tmp30, other=float("-inf"))
    tmp32 = triton_helpers.maximum(tmp25, tmp31)
    tmp33 = tmp29 & tmp15
    tmp34 = tl.load(in_ptr0 + (x0 + 32*x1 + 1024*x5), tmp33, other=float("-inf"))
    tmp35 = triton_helpers.maximum(tmp32, tmp34)
    tmp36 = tmp29 & tmp22
    tmp37 = tl.load(in_ptr0 + (16 + x0 + 32*x1 + 1024*x5), tmp36, other=float("-inf"))
    tmp38 = triton_helpers.maximum(tmp35, tmp37)
    tmp39 = 1 + 2*x2
    tmp40 = tmp39 >= tmp1
    tmp41 = tmp39 < tmp3
    tmp42 = tmp40 & tmp41
    tmp43 = tmp42 & tmp9
    tmp44 = tl.load(in_ptr0 + (496 + x0 + 32*x1 + 1024*x5), tmp43, other=float("-inf"))
    tmp45 = triton_helpers.maximum(tmp38, tmp44)
    tmp46 = tmp42 & tmp15
    tmp47 = tl.load(in_ptr0 + (512 + x0 + 32*x1 + 1024*x5), tmp46, other=float("-inf"))
    tmp48 = triton_helpers.maximum(tmp45, tmp47)
    tmp49 = tmp42 & tmp22
    tmp50 = tl.load(in_ptr0 + (528 + x0 + 32*x1 + 1024*x5), tmp49, other=float("-inf"))
    tmp51 = triton_helpers.maximum(tmp48, tmp50)
    tmp52 = tmp11 > tmp17
    tmp53 = tmp11 == tmp17
    tmp54 = tmp11 != tmp11
    tmp55 = tmp17 != tmp17
    tmp56 = tmp54 > tmp55
    tmp57 = tmp52 | tmp56
    tmp58 = tmp54 & tmp55
    tmp59 = tmp53 | tmp58
    tmp60 = tl.full([1], 1, tl.int64)
    tmp61 = tmp1 < tmp60
    tmp62 = tmp59 & tmp61
    tmp63 = tmp57 | tmp62
    tmp64 = tl.where(tmp63, tmp11, tmp17)
    tmp65 = tl.where(tmp63, tmp1, tmp60)
    tmp66 = tmp64 > tmp24
    tmp67 = tmp64 == tmp24
    tmp68 = tmp64 != tmp64
    tmp69 = tmp24 != tmp24
    tmp70 = tmp68 > tmp69
    tmp71 = tmp66 | tmp70
    tmp72 = tmp68 & tmp69
    tmp73 = tmp67 | tmp72
    tmp74 = tl.full([1], 2, tl.int64)
    tmp75 = tmp65 < tmp74
    tmp76 = tmp73 & tmp75
    tmp77 = tmp71 | tmp76
    tmp78 = tl.where(tmp77, tmp64, tmp24)
    tmp79 = tl.where(tmp77, tmp65, tmp74)
    tmp80 = tmp78 > tmp31
    tmp81 = tmp78 == tmp31
    tmp82 = tmp78 != tmp78
    tmp83 = tmp31 != tmp31
    tmp84 = tmp82 > tmp83
    tmp85 = tmp80 | tmp84
    tmp86 = tmp82 & tmp83
    tmp87 = tmp81 | tmp86
    tmp88 = tl.full([1], 3, tl.int64)
    tmp89 = tmp79 < tmp88
    tmp90 = tmp87 & tmp89
    tmp91 = tmp85 | tmp90
    tmp92 = tl.where(tmp91, tmp78, tmp31)
    tmp93 = tl.where(tmp91, tmp79, tmp88)
    tmp94 = tmp92 > tmp34
    tmp95 = tmp92 == tmp34
    tmp96 = tmp92 != tmp92
    tmp97 = tmp34 != tmp34
    tmp98 = tmp96 > tmp97
    tmp99 = tmp94 | tmp98
    tmp100 = tmp96 & tmp97
    tmp101 = tmp95 | tmp100
    tmp102 = tl.full([1], 4, tl.int64)
    tmp103 = tmp93 < tmp102
    tmp104 = tmp101 & tmp103
    tmp105 = tmp99 | tmp104
    tmp106 = tl.where(tmp105, tmp92, tmp34)
    tmp107 = tl.where(tmp105, tmp93, tmp102)
    tmp108 = tmp106 > tmp37
    tmp109 = tmp106 == tmp37
    tmp110 = tmp106 != tmp106
    tmp111 = tmp37 != tmp37
    tmp112 = tmp110 > tmp111
    tmp113 = tmp108 | tmp112
    tmp114 = tmp110 & tmp111
    tmp115 = tmp109 | tmp114
    tmp116 = tl.full([1], 5, tl.int64)
    tmp117 = tmp107 < tmp116
    tmp118 = tmp115 & tmp117
    tmp119 = tmp113 | tmp118
    tmp120 = tl.where(tmp119, tmp106, tmp37)
    tmp121 = tl.where(tmp119, tmp107, tmp116)
    tmp122 = tmp120 > tmp44
    tmp123 = tmp120 == tmp44
    tmp124 = tmp120 != tmp120
    tmp125 = tmp44 != tmp44
    tmp126 = tmp124 > tmp125
    tmp127 = tmp122 | tmp126
    tmp128 = tmp124 & tmp125
    tmp129 = tmp123 | tmp128
    tmp130 = tl.full([1], 6, tl.int64)
    tmp131 = tmp121 < tmp130
    tmp132 = tmp129 & tmp131
    tmp133 = tmp127 | tmp132
    tmp134 = tl.where(tmp133, tmp120, tmp44)
    tmp135 = tl.where(tmp133, tmp121, tmp130)
    tmp136 = tmp134 > tmp47
    tmp137 = tmp134 == tmp47
    tmp138 = tmp134 != tmp134
    tmp139 = tmp47 != tmp47
    tmp140 = tmp138 > tmp139
    tmp141 = tmp136 | tmp140
    tmp142 = tmp138 & tmp139
    tmp143 = tmp137 | tmp142
    tmp144 = tl.full([1], 7, tl.int64)
    tmp145 = tmp135 < tmp144
    tmp146 = tmp143 & tmp145
    tmp147 = tmp141 | tmp146
    tmp148 = tl.where(tmp147, tmp134, tmp47)
    tmp149 = tl.where(tmp147, tmp135, tmp144)
    tmp150 = tmp148 > tmp50
    tmp151 = tmp148 == tmp50
    tmp152 = tmp148 != tmp148
    tmp153 = tmp50 != tmp50
    tmp154 = tmp152 > tmp153
    tmp155 = tmp150 | tmp154
    tmp156 = tmp152 & tmp153
    tmp157 = tmp151 | tmp156
    tmp158 = tl.full([1], 8, tl.int64)
    tmp159 = tmp149 < tmp158
    tmp160 = tmp157 & tmp159
    tmp161 = tmp155 | tmp160
    tmp162 = tl.where(tmp161, tmp148, tmp50)
    tmp163 = tl.where(tmp161, tmp149, tmp158)
    tmp164 = tmp163.to(tl.int8)
    tl.store(out_ptr0 + (x6), tmp51, None)
    tl.store(out_ptr1 + (x6), tmp164, None)
