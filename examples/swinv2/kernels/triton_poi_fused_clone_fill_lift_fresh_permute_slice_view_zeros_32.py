
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 64}, 
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_clone_fill_lift_fresh_permute_slice_view_zeros_32', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 0, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': True, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': True, 'has_loadstore_with_contiguous_rdim': False, 'tiling_scores': {'x': 512}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_clone_fill_lift_fresh_permute_slice_view_zeros_32(in_out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 64
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x1 = xindex // 8
    x0 = (xindex % 8)
    x2 = xindex
    tmp0 = x1
    tmp1 = tl.full([1], 4, tl.int64)
    tmp2 = tmp0 >= tmp1
    tmp3 = tl.full([1], 6, tl.int64)
    tmp4 = tmp0 < tmp3
    tmp5 = tmp2 & tmp4
    tmp6 = x0
    tmp7 = tl.full([1], 4, tl.int64)
    tmp8 = tmp6 < tmp7
    tmp9 = tmp8 & tmp5
    tmp10 = tl.full([1], 3.0, tl.float32)
    tmp11 = tl.full(tmp10.shape, 0.0, tmp10.dtype)
    tmp12 = tl.where(tmp9, tmp10, tmp11)
    tmp13 = x1
    tmp14 = tmp13 < tmp7
    tmp15 = tmp14 & tmp5
    tmp16 = x0
    tmp17 = tl.full([1], 6, tl.int64)
    tmp18 = tmp16 >= tmp17
    tmp19 = tmp18 & tmp15
    tmp20 = tl.full([1], 2.0, tl.float32)
    tmp21 = tl.full(tmp20.shape, 0.0, tmp20.dtype)
    tmp22 = tl.where(tmp19, tmp20, tmp21)
    tmp23 = x1
    tmp24 = tl.full([1], 4, tl.int64)
    tmp25 = tmp23 < tmp24
    tmp26 = tmp25 & tmp15
    tmp27 = x0
    tmp28 = tl.full([1], 4, tl.int64)
    tmp29 = tmp27 >= tmp28
    tmp30 = tl.full([1], 6, tl.int64)
    tmp31 = tmp27 < tmp30
    tmp32 = tmp29 & tmp31
    tmp33 = tmp32 & tmp26
    tmp34 = tl.full([1], 1.0, tl.float32)
    tmp35 = tl.full(tmp34.shape, 0.0, tmp34.dtype)
    tmp36 = tl.where(tmp33, tmp34, tmp35)
    tmp37 = x1
    tmp38 = tmp37 < tmp28
    tmp39 = tmp38 & tmp26
    tmp40 = x0
    tmp41 = tl.full([1], 4, tl.int64)
    tmp42 = tmp40 < tmp41
    tmp43 = tmp42 & tmp39
    tmp44 = tl.full([1], 0.0, tl.float32)
    tmp45 = tl.full(tmp44.shape, 0.0, tmp44.dtype)
    tmp46 = tl.where(tmp43, tmp44, tmp45)
    tmp47 = tl.full([1], 0.0, tl.float32)
    tmp48 = tl.where(tmp42, tmp46, tmp47)
    tmp49 = tl.full(tmp48.shape, 0.0, tmp48.dtype)
    tmp50 = tl.where(tmp39, tmp48, tmp49)
    tmp51 = tl.full([1], 0.0, tl.float32)
    tmp52 = tl.where(tmp38, tmp50, tmp51)
    tmp53 = tl.where(tmp32, tmp36, tmp52)
    tmp54 = tl.full(tmp53.shape, 0.0, tmp53.dtype)
    tmp55 = tl.where(tmp26, tmp53, tmp54)
    tmp56 = tmp27 < tmp28
    tmp57 = tmp56 & tmp26
    tmp58 = tl.full([1], 0.0, tl.float32)
    tmp59 = tl.full(tmp58.shape, 0.0, tmp58.dtype)
    tmp60 = tl.where(tmp57, tmp58, tmp59)
    tmp61 = tl.where(tmp56, tmp60, tmp51)
    tmp62 = tl.full(tmp61.shape, 0.0, tmp61.dtype)
    tmp63 = tl.where(tmp26, tmp61, tmp62)
    tmp64 = tl.full([1], 0.0, tl.float32)
    tmp65 = tl.where(tmp25, tmp63, tmp64)
    tmp66 = tl.where(tmp25, tmp55, tmp65)
    tmp67 = tl.where(tmp18, tmp22, tmp66)
    tmp68 = tl.full(tmp67.shape, 0.0, tmp67.dtype)
    tmp69 = tl.where(tmp15, tmp67, tmp68)
    tmp70 = tmp16 >= tmp24
    tmp71 = tmp16 < tmp17
    tmp72 = tmp70 & tmp71
    tmp73 = tmp72 & tmp15
    tmp74 = tl.full([1], 1.0, tl.float32)
    tmp75 = tl.full(tmp74.shape, 0.0, tmp74.dtype)
    tmp76 = tl.where(tmp73, tmp74, tmp75)
    tmp77 = tl.where(tmp72, tmp76, tmp65)
    tmp78 = tl.full(tmp77.shape, 0.0, tmp77.dtype)
    tmp79 = tl.where(tmp15, tmp77, tmp78)
    tmp80 = tmp16 < tmp24
    tmp81 = tmp80 & tmp15
    tmp82 = tl.full([1], 0.0, tl.float32)
    tmp83 = tl.full(tmp82.shape, 0.0, tmp82.dtype)
    tmp84 = tl.where(tmp81, tmp82, tmp83)
    tmp85 = tl.where(tmp80, tmp84, tmp64)
    tmp86 = tl.full(tmp85.shape, 0.0, tmp85.dtype)
    tmp87 = tl.where(tmp15, tmp85, tmp86)
    tmp88 = tl.full([1], 0.0, tl.float32)
    tmp89 = tl.where(tmp14, tmp87, tmp88)
    tmp90 = tl.where(tmp14, tmp79, tmp89)
    tmp91 = tl.where(tmp14, tmp69, tmp90)
    tmp92 = tl.where(tmp8, tmp12, tmp91)
    tmp93 = tl.full(tmp92.shape, 0.0, tmp92.dtype)
    tmp94 = tl.where(tmp5, tmp92, tmp93)
    tmp95 = tmp0 < tmp1
    tmp96 = x0
    tmp97 = tl.full([1], 6, tl.int64)
    tmp98 = tmp96 >= tmp97
    tmp99 = tmp98 & tmp95
    tmp100 = tl.full([1], 2.0, tl.float32)
    tmp101 = tl.full(tmp100.shape, 0.0, tmp100.dtype)
    tmp102 = tl.where(tmp99, tmp100, tmp101)
    tmp103 = x1
    tmp104 = tl.full([1], 4, tl.int64)
    tmp105 = tmp103 < tmp104
    tmp106 = tmp105 & tmp95
    tmp107 = x0
    tmp108 = tl.full([1], 4, tl.int64)
    tmp109 = tmp107 >= tmp108
    tmp110 = tl.full([1], 6, tl.int64)
    tmp111 = tmp107 < tmp110
    tmp112 = tmp109 & tmp111
    tmp113 = tmp112 & tmp106
    tmp114 = tl.full([1], 1.0, tl.float32)
    tmp115 = tl.full(tmp114.shape, 0.0, tmp114.dtype)
    tmp116 = tl.where(tmp113, tmp114, tmp115)
    tmp117 = x1
    tmp118 = tmp117 < tmp108
    tmp119 = tmp118 & tmp106
    tmp120 = x0
    tmp121 = tl.full([1], 4, tl.int64)
    tmp122 = tmp120 < tmp121
    tmp123 = tmp122 & tmp119
    tmp124 = tl.full([1], 0.0, tl.float32)
    tmp125 = tl.full(tmp124.shape, 0.0, tmp124.dtype)
    tmp126 = tl.where(tmp123, tmp124, tmp125)
    tmp127 = tl.full([1], 0.0, tl.float32)
    tmp128 = tl.where(tmp122, tmp126, tmp127)
    tmp129 = tl.full(tmp128.shape, 0.0, tmp128.dtype)
    tmp130 = tl.where(tmp119, tmp128, tmp129)
    tmp131 = tl.full([1], 0.0, tl.float32)
    tmp132 = tl.where(tmp118, tmp130, tmp131)
    tmp133 = tl.where(tmp112, tmp116, tmp132)
    tmp134 = tl.full(tmp133.shape, 0.0, tmp133.dtype)
    tmp135 = tl.where(tmp106, tmp133, tmp134)
    tmp136 = tmp107 < tmp108
    tmp137 = tmp136 & tmp106
    tmp138 = tl.full([1], 0.0, tl.float32)
    tmp139 = tl.full(tmp138.shape, 0.0, tmp138.dtype)
    tmp140 = tl.where(tmp137, tmp138, tmp139)
    tmp141 = tl.where(tmp136, tmp140, tmp131)
    tmp142 = tl.full(tmp141.shape, 0.0, tmp141.dtype)
    tmp143 = tl.where(tmp106, tmp141, tmp142)
    tmp144 = tl.full([1], 0.0, tl.float32)
    tmp145 = tl.where(tmp105, tmp143, tmp144)
    tmp146 = tl.where(tmp105, tmp135, tmp145)
    tmp147 = tl.where(tmp98, tmp102, tmp146)
    tmp148 = tl.full(tmp147.shape, 0.0, tmp147.dtype)
    tmp149 = tl.where(tmp95, tmp147, tmp148)
    tmp150 = tmp96 >= tmp104
    tmp151 = tmp96 < tmp97
    tmp152 = tmp150 & tmp151
    tmp153 = tmp152 & tmp95
    tmp154 = tl.full([1], 1.0, tl.float32)
    tmp155 = tl.full(tmp154.shape, 0.0, tmp154.dtype)
    tmp156 = tl.where(tmp153, tmp154, tmp155)
    tmp157 = tl.where(tmp152, tmp156, tmp145)
    tmp158 = tl.full(tmp157.shape, 0.0, tmp157.dtype)
    tmp159 = tl.where(tmp95, tmp157, tmp158)
    tmp160 = tmp96 < tmp104
    tmp161 = tmp160 & tmp95
    tmp162 = tl.full([1], 0.0, tl.float32)
    tmp163 = tl.full(tmp162.shape, 0.0, tmp162.dtype)
    tmp164 = tl.where(tmp161, tmp162, tmp163)
    tmp165 = tl.where(tmp160, tmp164, tmp144)
    tmp166 = tl.full(tmp165.shape, 0.0, tmp165.dtype)
    tmp167 = tl.where(tmp95, tmp165, tmp166)
    tmp168 = tl.full([1], 0.0, tl.float32)
    tmp169 = tl.where(tmp95, tmp167, tmp168)
    tmp170 = tl.where(tmp95, tmp159, tmp169)
    tmp171 = tl.where(tmp95, tmp149, tmp170)
    tmp172 = tl.where(tmp5, tmp94, tmp171)
    tmp173 = tmp6 >= tmp7
    tmp174 = tl.full([1], 6, tl.int64)
    tmp175 = tmp6 < tmp174
    tmp176 = tmp173 & tmp175
    tmp177 = tmp176 & tmp5
    tmp178 = tl.full([1], 4.0, tl.float32)
    tmp179 = tl.full(tmp178.shape, 0.0, tmp178.dtype)
    tmp180 = tl.where(tmp177, tmp178, tmp179)
    tmp181 = tl.where(tmp176, tmp180, tmp172)
    tmp182 = tl.full(tmp181.shape, 0.0, tmp181.dtype)
    tmp183 = tl.where(tmp5, tmp181, tmp182)
    tmp184 = tl.where(tmp5, tmp183, tmp172)
    tmp185 = tmp0 >= tmp3
    tmp186 = x0
    tmp187 = tl.full([1], 6, tl.int64)
    tmp188 = tmp186 >= tmp187
    tmp189 = tmp188 & tmp185
    tmp190 = tl.full([1], 8.0, tl.float32)
    tmp191 = tl.full(tmp190.shape, 0.0, tmp190.dtype)
    tmp192 = tl.where(tmp189, tmp190, tmp191)
    tmp193 = x1
    tmp194 = tmp193 >= tmp187
    tmp195 = tmp194 & tmp185
    tmp196 = x0
    tmp197 = tl.full([1], 4, tl.int64)
    tmp198 = tmp196 >= tmp197
    tmp199 = tl.full([1], 6, tl.int64)
    tmp200 = tmp196 < tmp199
    tmp201 = tmp198 & tmp200
    tmp202 = tmp201 & tmp195
    tmp203 = tl.full([1], 7.0, tl.float32)
    tmp204 = tl.full(tmp203.shape, 0.0, tmp203.dtype)
    tmp205 = tl.where(tmp202, tmp203, tmp204)
    tmp206 = x1
    tmp207 = tmp206 >= tmp199
    tmp208 = tmp207 & tmp195
    tmp209 = x0
    tmp210 = tl.full([1], 4, tl.int64)
    tmp211 = tmp209 < tmp210
    tmp212 = tmp211 & tmp208
    tmp213 = tl.full([1], 6.0, tl.float32)
    tmp214 = tl.full(tmp213.shape, 0.0, tmp213.dtype)
    tmp215 = tl.where(tmp212, tmp213, tmp214)
    tmp216 = x1
    tmp217 = tmp216 >= tmp210
    tmp218 = tl.full([1], 6, tl.int64)
    tmp219 = tmp216 < tmp218
    tmp220 = tmp217 & tmp219
    tmp221 = tmp220 & tmp208
    tmp222 = x0
    tmp223 = tl.full([1], 6, tl.int64)
    tmp224 = tmp222 >= tmp223
    tmp225 = tmp224 & tmp221
    tmp226 = tl.full([1], 5.0, tl.float32)
    tmp227 = tl.full(tmp226.shape, 0.0, tmp226.dtype)
    tmp228 = tl.where(tmp225, tmp226, tmp227)
    tmp229 = tl.where(tmp224, tmp228, tmp184)
    tmp230 = tl.full(tmp229.shape, 0.0, tmp229.dtype)
    tmp231 = tl.where(tmp221, tmp229, tmp230)
    tmp232 = tl.where(tmp220, tmp231, tmp184)
    tmp233 = tl.where(tmp211, tmp215, tmp232)
    tmp234 = tl.full(tmp233.shape, 0.0, tmp233.dtype)
    tmp235 = tl.where(tmp208, tmp233, tmp234)
    tmp236 = tmp206 >= tmp197
    tmp237 = tmp206 < tmp199
    tmp238 = tmp236 & tmp237
    tmp239 = tmp238 & tmp195
    tmp240 = x0
    tmp241 = tl.full([1], 6, tl.int64)
    tmp242 = tmp240 >= tmp241
    tmp243 = tmp242 & tmp239
    tmp244 = tl.full([1], 5.0, tl.float32)
    tmp245 = tl.full(tmp244.shape, 0.0, tmp244.dtype)
    tmp246 = tl.where(tmp243, tmp244, tmp245)
    tmp247 = tl.where(tmp242, tmp246, tmp184)
    tmp248 = tl.full(tmp247.shape, 0.0, tmp247.dtype)
    tmp249 = tl.where(tmp239, tmp247, tmp248)
    tmp250 = tl.where(tmp238, tmp249, tmp184)
    tmp251 = tl.where(tmp207, tmp235, tmp250)
    tmp252 = tl.where(tmp201, tmp205, tmp251)
    tmp253 = tl.full(tmp252.shape, 0.0, tmp252.dtype)
    tmp254 = tl.where(tmp195, tmp252, tmp253)
    tmp255 = tmp196 < tmp197
    tmp256 = tmp255 & tmp195
    tmp257 = tl.full([1], 6.0, tl.float32)
    tmp258 = tl.full(tmp257.shape, 0.0, tmp257.dtype)
    tmp259 = tl.where(tmp256, tmp257, tmp258)
    tmp260 = tl.where(tmp255, tmp259, tmp250)
    tmp261 = tl.full(tmp260.shape, 0.0, tmp260.dtype)
    tmp262 = tl.where(tmp195, tmp260, tmp261)
    tmp263 = tl.full([1], 4, tl.int64)
    tmp264 = tmp193 >= tmp263
    tmp265 = tmp193 < tmp187
    tmp266 = tmp264 & tmp265
    tmp267 = tmp266 & tmp185
    tmp268 = x0
    tmp269 = tl.full([1], 6, tl.int64)
    tmp270 = tmp268 >= tmp269
    tmp271 = tmp270 & tmp267
    tmp272 = tl.full([1], 5.0, tl.float32)
    tmp273 = tl.full(tmp272.shape, 0.0, tmp272.dtype)
    tmp274 = tl.where(tmp271, tmp272, tmp273)
    tmp275 = tl.where(tmp270, tmp274, tmp184)
    tmp276 = tl.full(tmp275.shape, 0.0, tmp275.dtype)
    tmp277 = tl.where(tmp267, tmp275, tmp276)
    tmp278 = tl.where(tmp266, tmp277, tmp184)
    tmp279 = tl.where(tmp194, tmp262, tmp278)
    tmp280 = tl.where(tmp194, tmp254, tmp279)
    tmp281 = tl.where(tmp188, tmp192, tmp280)
    tmp282 = tl.full(tmp281.shape, 0.0, tmp281.dtype)
    tmp283 = tl.where(tmp185, tmp281, tmp282)
    tmp284 = tmp186 >= tmp263
    tmp285 = tmp186 < tmp187
    tmp286 = tmp284 & tmp285
    tmp287 = tmp286 & tmp185
    tmp288 = tl.full([1], 7.0, tl.float32)
    tmp289 = tl.full(tmp288.shape, 0.0, tmp288.dtype)
    tmp290 = tl.where(tmp287, tmp288, tmp289)
    tmp291 = tl.where(tmp286, tmp290, tmp279)
    tmp292 = tl.full(tmp291.shape, 0.0, tmp291.dtype)
    tmp293 = tl.where(tmp185, tmp291, tmp292)
    tmp294 = tmp186 < tmp263
    tmp295 = tmp294 & tmp185
    tmp296 = tl.full([1], 6.0, tl.float32)
    tmp297 = tl.full(tmp296.shape, 0.0, tmp296.dtype)
    tmp298 = tl.where(tmp295, tmp296, tmp297)
    tmp299 = tl.where(tmp294, tmp298, tmp278)
    tmp300 = tl.full(tmp299.shape, 0.0, tmp299.dtype)
    tmp301 = tl.where(tmp185, tmp299, tmp300)
    tmp302 = tmp6 >= tmp174
    tmp303 = tmp302 & tmp5
    tmp304 = tl.full([1], 5.0, tl.float32)
    tmp305 = tl.full(tmp304.shape, 0.0, tmp304.dtype)
    tmp306 = tl.where(tmp303, tmp304, tmp305)
    tmp307 = tl.where(tmp302, tmp306, tmp184)
    tmp308 = tl.full(tmp307.shape, 0.0, tmp307.dtype)
    tmp309 = tl.where(tmp5, tmp307, tmp308)
    tmp310 = tl.where(tmp5, tmp309, tmp184)
    tmp311 = tl.where(tmp185, tmp301, tmp310)
    tmp312 = tl.where(tmp185, tmp293, tmp311)
    tmp313 = tl.where(tmp185, tmp283, tmp312)
    tl.store(in_out_ptr0 + (x2), tmp313, xmask)
