
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties

@triton_heuristics.foreach(
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'in_ptr3': '*fp32', 'in_ptr4': '*fp32', 'in_ptr5': '*fp32', 'in_ptr6': '*fp32', 'in_ptr7': '*fp32', 'in_ptr8': '*fp32', 'in_ptr9': '*fp32', 'in_ptr10': '*fp32', 'in_ptr11': '*fp32', 'in_ptr12': '*fp32', 'in_ptr13': '*fp32', 'in_ptr14': '*fp32', 'in_ptr15': '*fp32', 'in_ptr16': '*fp32', 'in_ptr17': '*fp32', 'in_ptr18': '*fp32', 'in_ptr19': '*fp32', 'in_ptr20': '*fp32', 'in_ptr21': '*fp32', 'in_ptr22': '*fp32', 'in_ptr23': '*fp32', 'in_ptr24': '*fp32', 'in_ptr25': '*fp32', 'in_ptr26': '*fp32', 'in_ptr27': '*fp32', 'in_ptr28': '*fp32', 'in_ptr29': '*fp32', 'in_ptr30': '*fp32', 'in_ptr31': '*fp32', 'in_ptr32': '*fp32', 'in_ptr33': '*fp32', 'in_ptr34': '*fp32', 'in_ptr35': '*fp32', 'in_ptr36': '*fp32', 'in_ptr37': '*fp32', 'in_ptr38': '*fp32', 'in_ptr39': '*fp32', 'in_ptr40': '*fp32', 'in_ptr41': '*fp32', 'in_ptr42': '*fp32', 'in_ptr43': '*fp32', 'in_ptr44': '*fp32', 'out_ptr1': '*fp32', 'out_ptr3': '*fp32', 'out_ptr4': '*fp32', 'out_ptr6': '*fp32', 'out_ptr8': '*fp32', 'out_ptr9': '*fp32', 'out_ptr11': '*fp32', 'out_ptr13': '*fp32', 'out_ptr14': '*fp32', 'out_ptr16': '*fp32', 'out_ptr18': '*fp32', 'out_ptr19': '*fp32', 'out_ptr21': '*fp32', 'out_ptr23': '*fp32', 'out_ptr24': '*fp32', 'out_ptr26': '*fp32', 'out_ptr28': '*fp32', 'out_ptr29': '*fp32', 'out_ptr31': '*fp32', 'out_ptr33': '*fp32', 'out_ptr34': '*fp32', 'out_ptr36': '*fp32', 'out_ptr38': '*fp32', 'out_ptr39': '*fp32', 'out_ptr41': '*fp32', 'out_ptr43': '*fp32', 'out_ptr44': '*fp32'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'enable_fp_fusion': True, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]], (8,): [['tt.divisibility', 16]], (9,): [['tt.divisibility', 16]], (10,): [['tt.divisibility', 16]], (11,): [['tt.divisibility', 16]], (12,): [['tt.divisibility', 16]], (13,): [['tt.divisibility', 16]], (14,): [['tt.divisibility', 16]], (15,): [['tt.divisibility', 16]], (16,): [['tt.divisibility', 16]], (17,): [['tt.divisibility', 16]], (18,): [['tt.divisibility', 16]], (19,): [['tt.divisibility', 16]], (20,): [['tt.divisibility', 16]], (21,): [['tt.divisibility', 16]], (22,): [['tt.divisibility', 16]], (23,): [['tt.divisibility', 16]], (24,): [['tt.divisibility', 16]], (25,): [['tt.divisibility', 16]], (26,): [['tt.divisibility', 16]], (27,): [['tt.divisibility', 16]], (28,): [['tt.divisibility', 16]], (29,): [['tt.divisibility', 16]], (30,): [['tt.divisibility', 16]], (31,): [['tt.divisibility', 16]], (32,): [['tt.divisibility', 16]], (33,): [['tt.divisibility', 16]], (34,): [['tt.divisibility', 16]], (35,): [['tt.divisibility', 16]], (36,): [['tt.divisibility', 16]], (37,): [['tt.divisibility', 16]], (38,): [['tt.divisibility', 16]], (39,): [['tt.divisibility', 16]], (40,): [['tt.divisibility', 16]], (41,): [['tt.divisibility', 16]], (42,): [['tt.divisibility', 16]], (43,): [['tt.divisibility', 16]], (44,): [['tt.divisibility', 16]], (45,): [['tt.divisibility', 16]], (46,): [['tt.divisibility', 16]], (47,): [['tt.divisibility', 16]], (48,): [['tt.divisibility', 16]], (49,): [['tt.divisibility', 16]], (50,): [['tt.divisibility', 16]], (51,): [['tt.divisibility', 16]], (52,): [['tt.divisibility', 16]], (53,): [['tt.divisibility', 16]], (54,): [['tt.divisibility', 16]], (55,): [['tt.divisibility', 16]], (56,): [['tt.divisibility', 16]], (57,): [['tt.divisibility', 16]], (58,): [['tt.divisibility', 16]], (59,): [['tt.divisibility', 16]], (60,): [['tt.divisibility', 16]], (61,): [['tt.divisibility', 16]], (62,): [['tt.divisibility', 16]], (63,): [['tt.divisibility', 16]], (64,): [['tt.divisibility', 16]], (65,): [['tt.divisibility', 16]], (66,): [['tt.divisibility', 16]], (67,): [['tt.divisibility', 16]], (68,): [['tt.divisibility', 16]], (69,): [['tt.divisibility', 16]], (70,): [['tt.divisibility', 16]], (71,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'SequentialComboKernelGrid', 'combo_grid_meta': {'num_kernels': 9, 'min_blocks': 0, 'default_config': {'XBLOCK': 1024}, 'no_x_dim_0': False, 'xnumel_0': 64, 'no_x_dim_1': False, 'xnumel_1': 64, 'no_x_dim_2': False, 'xnumel_2': 64, 'no_x_dim_3': False, 'xnumel_3': 16384, 'no_x_dim_4': False, 'xnumel_4': 256, 'no_x_dim_5': False, 'xnumel_5': 16384, 'no_x_dim_6': False, 'xnumel_6': 64, 'no_x_dim_7': False, 'xnumel_7': 64, 'no_x_dim_8': False, 'xnumel_8': 64}, 'kernel_name': 'triton_for_fused_2', 'mutated_arg_names': ['in_ptr0', 'in_ptr10', 'in_ptr12', 'in_ptr13', 'in_ptr15', 'in_ptr17', 'in_ptr18', 'in_ptr2', 'in_ptr20', 'in_ptr22', 'in_ptr23', 'in_ptr25', 'in_ptr27', 'in_ptr28', 'in_ptr3', 'in_ptr30', 'in_ptr32', 'in_ptr33', 'in_ptr35', 'in_ptr37', 'in_ptr38', 'in_ptr40', 'in_ptr42', 'in_ptr43', 'in_ptr5', 'in_ptr7', 'in_ptr8', 'out_ptr1', 'out_ptr11', 'out_ptr13', 'out_ptr14', 'out_ptr16', 'out_ptr18', 'out_ptr19', 'out_ptr21', 'out_ptr23', 'out_ptr24', 'out_ptr26', 'out_ptr28', 'out_ptr29', 'out_ptr3', 'out_ptr31', 'out_ptr33', 'out_ptr34', 'out_ptr36', 'out_ptr38', 'out_ptr39', 'out_ptr4', 'out_ptr41', 'out_ptr43', 'out_ptr44', 'out_ptr6', 'out_ptr8', 'out_ptr9'], 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': True, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': True},
)
@triton.jit
def triton_for_fused_2(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, in_ptr6, in_ptr7, in_ptr8, in_ptr9, in_ptr10, in_ptr11, in_ptr12, in_ptr13, in_ptr14, in_ptr15, in_ptr16, in_ptr17, in_ptr18, in_ptr19, in_ptr20, in_ptr21, in_ptr22, in_ptr23, in_ptr24, in_ptr25, in_ptr26, in_ptr27, in_ptr28, in_ptr29, in_ptr30, in_ptr31, in_ptr32, in_ptr33, in_ptr34, in_ptr35, in_ptr36, in_ptr37, in_ptr38, in_ptr39, in_ptr40, in_ptr41, in_ptr42, in_ptr43, in_ptr44, out_ptr1, out_ptr3, out_ptr4, out_ptr6, out_ptr8, out_ptr9, out_ptr11, out_ptr13, out_ptr14, out_ptr16, out_ptr18, out_ptr19, out_ptr21, out_ptr23, out_ptr24, out_ptr26, out_ptr28, out_ptr29, out_ptr31, out_ptr33, out_ptr34, out_ptr36, out_ptr38, out_ptr39, out_ptr41, out_ptr43, out_ptr44):
    pid = tl.program_id(0)
    XBLOCK: tl.constexpr = 1024
    num_xblocks_0 = tl.cdiv(64, XBLOCK)
    num_xblocks_1 = num_xblocks_0 + tl.cdiv(64, XBLOCK)
    num_xblocks_2 = num_xblocks_1 + tl.cdiv(64, XBLOCK)
    num_xblocks_3 = num_xblocks_2 + tl.cdiv(16384, XBLOCK)
    num_xblocks_4 = num_xblocks_3 + tl.cdiv(256, XBLOCK)
    num_xblocks_5 = num_xblocks_4 + tl.cdiv(16384, XBLOCK)
    num_xblocks_6 = num_xblocks_5 + tl.cdiv(64, XBLOCK)
    num_xblocks_7 = num_xblocks_6 + tl.cdiv(64, XBLOCK)
    num_xblocks_8 = num_xblocks_7 + tl.cdiv(64, XBLOCK)
    if pid < num_xblocks_0:
        pid_offset = pid
        xnumel = 64
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        x0 = xindex
        tmp0 = tl.load(in_ptr0 + (x0), xmask)
        tmp3 = tl.load(in_ptr1 + (x0), xmask)
        tmp8 = tl.load(in_ptr2 + (x0), xmask)
        tmp13 = tl.load(in_ptr3 + (x0), xmask)
        tmp17 = tl.load(in_ptr4 + (0))
        tmp18 = tl.broadcast_to(tmp17, [XBLOCK])
        tmp19 = tl.where(xmask, tmp18, 0.0)
        tmp1 = tl.full([1], 0.999, tl.float32)
        tmp2 = tmp0 * tmp1
        tmp4 = tmp3 * tmp3
        tmp5 = tl.full([1], 0.0010000000000000009, tl.float32)
        tmp6 = tmp4 * tmp5
        tmp7 = tmp2 + tmp6
        tmp9 = tmp3 - tmp8
        tmp10 = tl.full([1], 0.09999999999999998, tl.float32)
        tmp11 = tmp9 * tmp10
        tmp12 = tmp8 + tmp11
        tmp14 = tl.full([1], 0.9999, tl.float32)
        tmp15 = tmp13 * tmp14
        tmp16 = tl.sqrt_rn(tmp7)
        tmp20 = libdevice.pow(tmp1, tmp19)
        tmp21 = tl.full([1], 1.0, tl.float32)
        tmp22 = tmp20 - tmp21
        tmp23 = -tmp22
        tmp24 = tl.sqrt_rn(tmp23)
        tmp25 = (tmp16 / tmp24)
        tmp26 = tl.full([1], 1e-08, tl.float32)
        tmp27 = tmp25 + tmp26
        tmp28 = tl.full([1], 0.9, tl.float32)
        tmp29 = libdevice.pow(tmp28, tmp19)
        tmp30 = tmp29 - tmp21
        tmp31 = tl.full([1], 100.0, tl.float32)
        tmp32 = tmp30 * tmp31
        tmp33 = tl.full([1], 1, tl.int32)
        tmp34 = (tmp33 / tmp32)
        tmp35 = (tmp27 / tmp34)
        tmp36 = (tmp12 / tmp35)
        tmp37 = tmp15 + tmp36
        tl.store(out_ptr1 + (x0), tmp12, xmask)
        tl.store(out_ptr3 + (x0), tmp37, xmask)
        tl.store(out_ptr4 + (x0), tmp7, xmask)
    elif pid < num_xblocks_1:
        pid_offset = pid - num_xblocks_0
        xnumel = 64
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        x1 = xindex
        tmp38 = tl.load(in_ptr5 + (x1), xmask)
        tmp41 = tl.load(in_ptr6 + (x1), xmask)
        tmp46 = tl.load(in_ptr7 + (x1), xmask)
        tmp51 = tl.load(in_ptr8 + (x1), xmask)
        tmp55 = tl.load(in_ptr9 + (0))
        tmp56 = tl.broadcast_to(tmp55, [XBLOCK])
        tmp57 = tl.where(xmask, tmp56, 0.0)
        tmp39 = tl.full([1], 0.999, tl.float32)
        tmp40 = tmp38 * tmp39
        tmp42 = tmp41 * tmp41
        tmp43 = tl.full([1], 0.0010000000000000009, tl.float32)
        tmp44 = tmp42 * tmp43
        tmp45 = tmp40 + tmp44
        tmp47 = tmp41 - tmp46
        tmp48 = tl.full([1], 0.09999999999999998, tl.float32)
        tmp49 = tmp47 * tmp48
        tmp50 = tmp46 + tmp49
        tmp52 = tl.full([1], 0.9999, tl.float32)
        tmp53 = tmp51 * tmp52
        tmp54 = tl.sqrt_rn(tmp45)
        tmp58 = libdevice.pow(tmp39, tmp57)
        tmp59 = tl.full([1], 1.0, tl.float32)
        tmp60 = tmp58 - tmp59
        tmp61 = -tmp60
        tmp62 = tl.sqrt_rn(tmp61)
        tmp63 = (tmp54 / tmp62)
        tmp64 = tl.full([1], 1e-08, tl.float32)
        tmp65 = tmp63 + tmp64
        tmp66 = tl.full([1], 0.9, tl.float32)
        tmp67 = libdevice.pow(tmp66, tmp57)
        tmp68 = tmp67 - tmp59
        tmp69 = tl.full([1], 100.0, tl.float32)
        tmp70 = tmp68 * tmp69
        tmp71 = tl.full([1], 1, tl.int32)
        tmp72 = (tmp71 / tmp70)
        tmp73 = (tmp65 / tmp72)
        tmp74 = (tmp50 / tmp73)
        tmp75 = tmp53 + tmp74
        tl.store(out_ptr6 + (x1), tmp50, xmask)
        tl.store(out_ptr8 + (x1), tmp75, xmask)
        tl.store(out_ptr9 + (x1), tmp45, xmask)
    elif pid < num_xblocks_2:
        pid_offset = pid - num_xblocks_1
        xnumel = 64
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        x2 = xindex
        tmp76 = tl.load(in_ptr10 + (x2), xmask)
        tmp79 = tl.load(in_ptr11 + (x2), xmask)
        tmp84 = tl.load(in_ptr12 + (x2), xmask)
        tmp89 = tl.load(in_ptr13 + (x2), xmask)
        tmp93 = tl.load(in_ptr14 + (0))
        tmp94 = tl.broadcast_to(tmp93, [XBLOCK])
        tmp95 = tl.where(xmask, tmp94, 0.0)
        tmp77 = tl.full([1], 0.999, tl.float32)
        tmp78 = tmp76 * tmp77
        tmp80 = tmp79 * tmp79
        tmp81 = tl.full([1], 0.0010000000000000009, tl.float32)
        tmp82 = tmp80 * tmp81
        tmp83 = tmp78 + tmp82
        tmp85 = tmp79 - tmp84
        tmp86 = tl.full([1], 0.09999999999999998, tl.float32)
        tmp87 = tmp85 * tmp86
        tmp88 = tmp84 + tmp87
        tmp90 = tl.full([1], 0.9999, tl.float32)
        tmp91 = tmp89 * tmp90
        tmp92 = tl.sqrt_rn(tmp83)
        tmp96 = libdevice.pow(tmp77, tmp95)
        tmp97 = tl.full([1], 1.0, tl.float32)
        tmp98 = tmp96 - tmp97
        tmp99 = -tmp98
        tmp100 = tl.sqrt_rn(tmp99)
        tmp101 = (tmp92 / tmp100)
        tmp102 = tl.full([1], 1e-08, tl.float32)
        tmp103 = tmp101 + tmp102
        tmp104 = tl.full([1], 0.9, tl.float32)
        tmp105 = libdevice.pow(tmp104, tmp95)
        tmp106 = tmp105 - tmp97
        tmp107 = tl.full([1], 100.0, tl.float32)
        tmp108 = tmp106 * tmp107
        tmp109 = tl.full([1], 1, tl.int32)
        tmp110 = (tmp109 / tmp108)
        tmp111 = (tmp103 / tmp110)
        tmp112 = (tmp88 / tmp111)
        tmp113 = tmp91 + tmp112
        tl.store(out_ptr11 + (x2), tmp88, xmask)
        tl.store(out_ptr13 + (x2), tmp113, xmask)
        tl.store(out_ptr14 + (x2), tmp83, xmask)
    elif pid < num_xblocks_3:
        pid_offset = pid - num_xblocks_2
        xnumel = 16384
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = tl.full([XBLOCK], True, tl.int1)[:]
        x3 = xindex
        tmp114 = tl.load(in_ptr15 + (x3), None)
        tmp117 = tl.load(in_ptr16 + (x3), None)
        tmp122 = tl.load(in_ptr17 + (x3), None)
        tmp127 = tl.load(in_ptr18 + (x3), None)
        tmp131 = tl.load(in_ptr19 + (0))
        tmp132 = tl.broadcast_to(tmp131, [XBLOCK])
        tmp115 = tl.full([1], 0.999, tl.float32)
        tmp116 = tmp114 * tmp115
        tmp118 = tmp117 * tmp117
        tmp119 = tl.full([1], 0.0010000000000000009, tl.float32)
        tmp120 = tmp118 * tmp119
        tmp121 = tmp116 + tmp120
        tmp123 = tmp117 - tmp122
        tmp124 = tl.full([1], 0.09999999999999998, tl.float32)
        tmp125 = tmp123 * tmp124
        tmp126 = tmp122 + tmp125
        tmp128 = tl.full([1], 0.9999, tl.float32)
        tmp129 = tmp127 * tmp128
        tmp130 = tl.sqrt_rn(tmp121)
        tmp133 = libdevice.pow(tmp115, tmp132)
        tmp134 = tl.full([1], 1.0, tl.float32)
        tmp135 = tmp133 - tmp134
        tmp136 = -tmp135
        tmp137 = tl.sqrt_rn(tmp136)
        tmp138 = (tmp130 / tmp137)
        tmp139 = tl.full([1], 1e-08, tl.float32)
        tmp140 = tmp138 + tmp139
        tmp141 = tl.full([1], 0.9, tl.float32)
        tmp142 = libdevice.pow(tmp141, tmp132)
        tmp143 = tmp142 - tmp134
        tmp144 = tl.full([1], 100.0, tl.float32)
        tmp145 = tmp143 * tmp144
        tmp146 = tl.full([1], 1, tl.int32)
        tmp147 = (tmp146 / tmp145)
        tmp148 = (tmp140 / tmp147)
        tmp149 = (tmp126 / tmp148)
        tmp150 = tmp129 + tmp149
        tl.store(out_ptr16 + (x3), tmp126, None)
        tl.store(out_ptr18 + (x3), tmp150, None)
        tl.store(out_ptr19 + (x3), tmp121, None)
    elif pid < num_xblocks_4:
        pid_offset = pid - num_xblocks_3
        xnumel = 256
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        x4 = xindex
        tmp151 = tl.load(in_ptr20 + (x4), xmask)
        tmp154 = tl.load(in_ptr21 + (x4), xmask)
        tmp159 = tl.load(in_ptr22 + (x4), xmask)
        tmp164 = tl.load(in_ptr23 + (x4), xmask)
        tmp168 = tl.load(in_ptr24 + (0))
        tmp169 = tl.broadcast_to(tmp168, [XBLOCK])
        tmp170 = tl.where(xmask, tmp169, 0.0)
        tmp152 = tl.full([1], 0.999, tl.float32)
        tmp153 = tmp151 * tmp152
        tmp155 = tmp154 * tmp154
        tmp156 = tl.full([1], 0.0010000000000000009, tl.float32)
        tmp157 = tmp155 * tmp156
        tmp158 = tmp153 + tmp157
        tmp160 = tmp154 - tmp159
        tmp161 = tl.full([1], 0.09999999999999998, tl.float32)
        tmp162 = tmp160 * tmp161
        tmp163 = tmp159 + tmp162
        tmp165 = tl.full([1], 0.9999, tl.float32)
        tmp166 = tmp164 * tmp165
        tmp167 = tl.sqrt_rn(tmp158)
        tmp171 = libdevice.pow(tmp152, tmp170)
        tmp172 = tl.full([1], 1.0, tl.float32)
        tmp173 = tmp171 - tmp172
        tmp174 = -tmp173
        tmp175 = tl.sqrt_rn(tmp174)
        tmp176 = (tmp167 / tmp175)
        tmp177 = tl.full([1], 1e-08, tl.float32)
        tmp178 = tmp176 + tmp177
        tmp179 = tl.full([1], 0.9, tl.float32)
        tmp180 = libdevice.pow(tmp179, tmp170)
        tmp181 = tmp180 - tmp172
        tmp182 = tl.full([1], 100.0, tl.float32)
        tmp183 = tmp181 * tmp182
        tmp184 = tl.full([1], 1, tl.int32)
        tmp185 = (tmp184 / tmp183)
        tmp186 = (tmp178 / tmp185)
        tmp187 = (tmp163 / tmp186)
        tmp188 = tmp166 + tmp187
        tl.store(out_ptr21 + (x4), tmp163, xmask)
        tl.store(out_ptr23 + (x4), tmp188, xmask)
        tl.store(out_ptr24 + (x4), tmp158, xmask)
    elif pid < num_xblocks_5:
        pid_offset = pid - num_xblocks_4
        xnumel = 16384
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = tl.full([XBLOCK], True, tl.int1)[:]
        x5 = xindex
        tmp189 = tl.load(in_ptr25 + (x5), None)
        tmp192 = tl.load(in_ptr26 + (x5), None)
        tmp197 = tl.load(in_ptr27 + (x5), None)
        tmp202 = tl.load(in_ptr28 + (x5), None)
        tmp206 = tl.load(in_ptr29 + (0))
        tmp207 = tl.broadcast_to(tmp206, [XBLOCK])
        tmp190 = tl.full([1], 0.999, tl.float32)
        tmp191 = tmp189 * tmp190
        tmp193 = tmp192 * tmp192
        tmp194 = tl.full([1], 0.0010000000000000009, tl.float32)
        tmp195 = tmp193 * tmp194
        tmp196 = tmp191 + tmp195
        tmp198 = tmp192 - tmp197
        tmp199 = tl.full([1], 0.09999999999999998, tl.float32)
        tmp200 = tmp198 * tmp199
        tmp201 = tmp197 + tmp200
        tmp203 = tl.full([1], 0.9999, tl.float32)
        tmp204 = tmp202 * tmp203
        tmp205 = tl.sqrt_rn(tmp196)
        tmp208 = libdevice.pow(tmp190, tmp207)
        tmp209 = tl.full([1], 1.0, tl.float32)
        tmp210 = tmp208 - tmp209
        tmp211 = -tmp210
        tmp212 = tl.sqrt_rn(tmp211)
        tmp213 = (tmp205 / tmp212)
        tmp214 = tl.full([1], 1e-08, tl.float32)
        tmp215 = tmp213 + tmp214
        tmp216 = tl.full([1], 0.9, tl.float32)
        tmp217 = libdevice.pow(tmp216, tmp207)
        tmp218 = tmp217 - tmp209
        tmp219 = tl.full([1], 100.0, tl.float32)
        tmp220 = tmp218 * tmp219
        tmp221 = tl.full([1], 1, tl.int32)
        tmp222 = (tmp221 / tmp220)
        tmp223 = (tmp215 / tmp222)
        tmp224 = (tmp201 / tmp223)
        tmp225 = tmp204 + tmp224
        tl.store(out_ptr26 + (x5), tmp201, None)
        tl.store(out_ptr28 + (x5), tmp225, None)
        tl.store(out_ptr29 + (x5), tmp196, None)
    elif pid < num_xblocks_6:
        pid_offset = pid - num_xblocks_5
        xnumel = 64
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        x6 = xindex
        tmp226 = tl.load(in_ptr30 + (x6), xmask)
        tmp229 = tl.load(in_ptr31 + (x6), xmask)
        tmp234 = tl.load(in_ptr32 + (x6), xmask)
        tmp239 = tl.load(in_ptr33 + (x6), xmask)
        tmp243 = tl.load(in_ptr34 + (0))
        tmp244 = tl.broadcast_to(tmp243, [XBLOCK])
        tmp245 = tl.where(xmask, tmp244, 0.0)
        tmp227 = tl.full([1], 0.999, tl.float32)
        tmp228 = tmp226 * tmp227
        tmp230 = tmp229 * tmp229
        tmp231 = tl.full([1], 0.0010000000000000009, tl.float32)
        tmp232 = tmp230 * tmp231
        tmp233 = tmp228 + tmp232
        tmp235 = tmp229 - tmp234
        tmp236 = tl.full([1], 0.09999999999999998, tl.float32)
        tmp237 = tmp235 * tmp236
        tmp238 = tmp234 + tmp237
        tmp240 = tl.full([1], 0.9999, tl.float32)
        tmp241 = tmp239 * tmp240
        tmp242 = tl.sqrt_rn(tmp233)
        tmp246 = libdevice.pow(tmp227, tmp245)
        tmp247 = tl.full([1], 1.0, tl.float32)
        tmp248 = tmp246 - tmp247
        tmp249 = -tmp248
        tmp250 = tl.sqrt_rn(tmp249)
        tmp251 = (tmp242 / tmp250)
        tmp252 = tl.full([1], 1e-08, tl.float32)
        tmp253 = tmp251 + tmp252
        tmp254 = tl.full([1], 0.9, tl.float32)
        tmp255 = libdevice.pow(tmp254, tmp245)
        tmp256 = tmp255 - tmp247
        tmp257 = tl.full([1], 100.0, tl.float32)
        tmp258 = tmp256 * tmp257
        tmp259 = tl.full([1], 1, tl.int32)
        tmp260 = (tmp259 / tmp258)
        tmp261 = (tmp253 / tmp260)
        tmp262 = (tmp238 / tmp261)
        tmp263 = tmp241 + tmp262
        tl.store(out_ptr31 + (x6), tmp238, xmask)
        tl.store(out_ptr33 + (x6), tmp263, xmask)
        tl.store(out_ptr34 + (x6), tmp233, xmask)
    elif pid < num_xblocks_7:
        pid_offset = pid - num_xblocks_6
        xnumel = 64
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        x7 = xindex
        tmp264 = tl.load(in_ptr35 + (x7), xmask)
        tmp267 = tl.load(in_ptr36 + (x7), xmask)
        tmp272 = tl.load(in_ptr37 + (x7), xmask)
        tmp277 = tl.load(in_ptr38 + (x7), xmask)
        tmp281 = tl.load(in_ptr39 + (0))
        tmp282 = tl.broadcast_to(tmp281, [XBLOCK])
        tmp283 = tl.where(xmask, tmp282, 0.0)
        tmp265 = tl.full([1], 0.999, tl.float32)
        tmp266 = tmp264 * tmp265
        tmp268 = tmp267 * tmp267
        tmp269 = tl.full([1], 0.0010000000000000009, tl.float32)
        tmp270 = tmp268 * tmp269
        tmp271 = tmp266 + tmp270
        tmp273 = tmp267 - tmp272
        tmp274 = tl.full([1], 0.09999999999999998, tl.float32)
        tmp275 = tmp273 * tmp274
        tmp276 = tmp272 + tmp275
        tmp278 = tl.full([1], 0.9999, tl.float32)
        tmp279 = tmp277 * tmp278
        tmp280 = tl.sqrt_rn(tmp271)
        tmp284 = libdevice.pow(tmp265, tmp283)
        tmp285 = tl.full([1], 1.0, tl.float32)
        tmp286 = tmp284 - tmp285
        tmp287 = -tmp286
        tmp288 = tl.sqrt_rn(tmp287)
        tmp289 = (tmp280 / tmp288)
        tmp290 = tl.full([1], 1e-08, tl.float32)
        tmp291 = tmp289 + tmp290
        tmp292 = tl.full([1], 0.9, tl.float32)
        tmp293 = libdevice.pow(tmp292, tmp283)
        tmp294 = tmp293 - tmp285
        tmp295 = tl.full([1], 100.0, tl.float32)
        tmp296 = tmp294 * tmp295
        tmp297 = tl.full([1], 1, tl.int32)
        tmp298 = (tmp297 / tmp296)
        tmp299 = (tmp291 / tmp298)
        tmp300 = (tmp276 / tmp299)
        tmp301 = tmp279 + tmp300
        tl.store(out_ptr36 + (x7), tmp276, xmask)
        tl.store(out_ptr38 + (x7), tmp301, xmask)
        tl.store(out_ptr39 + (x7), tmp271, xmask)
    elif pid < num_xblocks_8:
        pid_offset = pid - num_xblocks_7
        xnumel = 64
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        x8 = xindex
        tmp302 = tl.load(in_ptr40 + (x8), xmask)
        tmp305 = tl.load(in_ptr41 + (x8), xmask)
        tmp310 = tl.load(in_ptr42 + (x8), xmask)
        tmp315 = tl.load(in_ptr43 + (x8), xmask)
        tmp319 = tl.load(in_ptr44 + (0))
        tmp320 = tl.broadcast_to(tmp319, [XBLOCK])
        tmp321 = tl.where(xmask, tmp320, 0.0)
        tmp303 = tl.full([1], 0.999, tl.float32)
        tmp304 = tmp302 * tmp303
        tmp306 = tmp305 * tmp305
        tmp307 = tl.full([1], 0.0010000000000000009, tl.float32)
        tmp308 = tmp306 * tmp307
        tmp309 = tmp304 + tmp308
        tmp311 = tmp305 - tmp310
        tmp312 = tl.full([1], 0.09999999999999998, tl.float32)
        tmp313 = tmp311 * tmp312
        tmp314 = tmp310 + tmp313
        tmp316 = tl.full([1], 0.9999, tl.float32)
        tmp317 = tmp315 * tmp316
        tmp318 = tl.sqrt_rn(tmp309)
        tmp322 = libdevice.pow(tmp303, tmp321)
        tmp323 = tl.full([1], 1.0, tl.float32)
        tmp324 = tmp322 - tmp323
        tmp325 = -tmp324
        tmp326 = tl.sqrt_rn(tmp325)
        tmp327 = (tmp318 / tmp326)
        tmp328 = tl.full([1], 1e-08, tl.float32)
        tmp329 = tmp327 + tmp328
        tmp330 = tl.full([1], 0.9, tl.float32)
        tmp331 = libdevice.pow(tmp330, tmp321)
        tmp332 = tmp331 - tmp323
        tmp333 = tl.full([1], 100.0, tl.float32)
        tmp334 = tmp332 * tmp333
        tmp335 = tl.full([1], 1, tl.int32)
        tmp336 = (tmp335 / tmp334)
        tmp337 = (tmp329 / tmp336)
        tmp338 = (tmp314 / tmp337)
        tmp339 = tmp317 + tmp338
        tl.store(out_ptr41 + (x8), tmp314, xmask)
        tl.store(out_ptr43 + (x8), tmp339, xmask)
        tl.store(out_ptr44 + (x8), tmp309, xmask)
    else:
        pass
