
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties

@triton_heuristics.foreach(
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'in_ptr3': '*fp32', 'in_ptr4': '*fp32', 'in_ptr5': '*fp32', 'in_ptr6': '*fp32', 'in_ptr7': '*fp32', 'in_ptr8': '*fp32', 'in_ptr9': '*fp32', 'in_ptr10': '*fp32', 'in_ptr11': '*fp32', 'in_ptr12': '*fp32', 'in_ptr13': '*fp32', 'in_ptr14': '*fp32', 'in_ptr15': '*fp32', 'in_ptr16': '*fp32', 'in_ptr17': '*fp32', 'in_ptr18': '*fp32', 'in_ptr19': '*fp32', 'in_ptr20': '*fp32', 'in_ptr21': '*fp32', 'in_ptr22': '*fp32', 'in_ptr23': '*fp32', 'in_ptr24': '*fp32', 'in_ptr25': '*fp32', 'in_ptr26': '*fp32', 'in_ptr27': '*fp32', 'in_ptr28': '*fp32', 'in_ptr29': '*fp32', 'in_ptr30': '*fp32', 'in_ptr31': '*fp32', 'in_ptr32': '*fp32', 'in_ptr33': '*fp32', 'in_ptr34': '*fp32', 'in_ptr35': '*fp32', 'in_ptr36': '*fp32', 'in_ptr37': '*fp32', 'in_ptr38': '*fp32', 'in_ptr39': '*fp32', 'in_ptr40': '*fp32', 'in_ptr41': '*fp32', 'in_ptr42': '*fp32', 'in_ptr43': '*fp32', 'in_ptr44': '*fp32', 'in_ptr45': '*fp32', 'in_ptr46': '*fp32', 'in_ptr47': '*fp32', 'in_ptr48': '*fp32', 'in_ptr49': '*fp32', 'in_ptr50': '*fp32', 'in_ptr51': '*fp32', 'in_ptr52': '*fp32', 'in_ptr53': '*fp32', 'in_ptr54': '*fp32', 'in_ptr55': '*fp32', 'in_ptr56': '*fp32', 'in_ptr57': '*fp32', 'in_ptr58': '*fp32', 'in_ptr59': '*fp32', 'in_ptr60': '*fp32', 'in_ptr61': '*fp32', 'in_ptr62': '*fp32', 'in_ptr63': '*fp32', 'in_ptr64': '*fp32', 'out_ptr1': '*fp32', 'out_ptr3': '*fp32', 'out_ptr4': '*fp32', 'out_ptr6': '*fp32', 'out_ptr8': '*fp32', 'out_ptr9': '*fp32', 'out_ptr11': '*fp32', 'out_ptr13': '*fp32', 'out_ptr14': '*fp32', 'out_ptr16': '*fp32', 'out_ptr18': '*fp32', 'out_ptr19': '*fp32', 'out_ptr21': '*fp32', 'out_ptr23': '*fp32', 'out_ptr24': '*fp32', 'out_ptr26': '*fp32', 'out_ptr28': '*fp32', 'out_ptr29': '*fp32', 'out_ptr31': '*fp32', 'out_ptr33': '*fp32', 'out_ptr34': '*fp32', 'out_ptr36': '*fp32', 'out_ptr38': '*fp32', 'out_ptr39': '*fp32', 'out_ptr41': '*fp32', 'out_ptr43': '*fp32', 'out_ptr44': '*fp32', 'out_ptr46': '*fp32', 'out_ptr48': '*fp32', 'out_ptr49': '*fp32', 'out_ptr51': '*fp32', 'out_ptr53': '*fp32', 'out_ptr54': '*fp32', 'out_ptr56': '*fp32', 'out_ptr58': '*fp32', 'out_ptr59': '*fp32', 'out_ptr61': '*fp32', 'out_ptr63': '*fp32', 'out_ptr64': '*fp32'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'enable_fp_fusion': True, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]], (8,): [['tt.divisibility', 16]], (9,): [['tt.divisibility', 16]], (10,): [['tt.divisibility', 16]], (11,): [['tt.divisibility', 16]], (12,): [['tt.divisibility', 16]], (13,): [['tt.divisibility', 16]], (14,): [['tt.divisibility', 16]], (15,): [['tt.divisibility', 16]], (16,): [['tt.divisibility', 16]], (17,): [['tt.divisibility', 16]], (18,): [['tt.divisibility', 16]], (19,): [['tt.divisibility', 16]], (20,): [['tt.divisibility', 16]], (21,): [['tt.divisibility', 16]], (22,): [['tt.divisibility', 16]], (23,): [['tt.divisibility', 16]], (24,): [['tt.divisibility', 16]], (25,): [['tt.divisibility', 16]], (26,): [['tt.divisibility', 16]], (27,): [['tt.divisibility', 16]], (28,): [['tt.divisibility', 16]], (29,): [['tt.divisibility', 16]], (30,): [['tt.divisibility', 16]], (31,): [['tt.divisibility', 16]], (32,): [['tt.divisibility', 16]], (33,): [['tt.divisibility', 16]], (34,): [['tt.divisibility', 16]], (35,): [['tt.divisibility', 16]], (36,): [['tt.divisibility', 16]], (37,): [['tt.divisibility', 16]], (38,): [['tt.divisibility', 16]], (39,): [['tt.divisibility', 16]], (40,): [['tt.divisibility', 16]], (41,): [['tt.divisibility', 16]], (42,): [['tt.divisibility', 16]], (43,): [['tt.divisibility', 16]], (44,): [['tt.divisibility', 16]], (45,): [['tt.divisibility', 16]], (46,): [['tt.divisibility', 16]], (47,): [['tt.divisibility', 16]], (48,): [['tt.divisibility', 16]], (49,): [['tt.divisibility', 16]], (50,): [['tt.divisibility', 16]], (51,): [['tt.divisibility', 16]], (52,): [['tt.divisibility', 16]], (53,): [['tt.divisibility', 16]], (54,): [['tt.divisibility', 16]], (55,): [['tt.divisibility', 16]], (56,): [['tt.divisibility', 16]], (57,): [['tt.divisibility', 16]], (58,): [['tt.divisibility', 16]], (59,): [['tt.divisibility', 16]], (60,): [['tt.divisibility', 16]], (61,): [['tt.divisibility', 16]], (62,): [['tt.divisibility', 16]], (63,): [['tt.divisibility', 16]], (64,): [['tt.divisibility', 16]], (65,): [['tt.divisibility', 16]], (66,): [['tt.divisibility', 16]], (67,): [['tt.divisibility', 16]], (68,): [['tt.divisibility', 16]], (69,): [['tt.divisibility', 16]], (70,): [['tt.divisibility', 16]], (71,): [['tt.divisibility', 16]], (72,): [['tt.divisibility', 16]], (73,): [['tt.divisibility', 16]], (74,): [['tt.divisibility', 16]], (75,): [['tt.divisibility', 16]], (76,): [['tt.divisibility', 16]], (77,): [['tt.divisibility', 16]], (78,): [['tt.divisibility', 16]], (79,): [['tt.divisibility', 16]], (80,): [['tt.divisibility', 16]], (81,): [['tt.divisibility', 16]], (82,): [['tt.divisibility', 16]], (83,): [['tt.divisibility', 16]], (84,): [['tt.divisibility', 16]], (85,): [['tt.divisibility', 16]], (86,): [['tt.divisibility', 16]], (87,): [['tt.divisibility', 16]], (88,): [['tt.divisibility', 16]], (89,): [['tt.divisibility', 16]], (90,): [['tt.divisibility', 16]], (91,): [['tt.divisibility', 16]], (92,): [['tt.divisibility', 16]], (93,): [['tt.divisibility', 16]], (94,): [['tt.divisibility', 16]], (95,): [['tt.divisibility', 16]], (96,): [['tt.divisibility', 16]], (97,): [['tt.divisibility', 16]], (98,): [['tt.divisibility', 16]], (99,): [['tt.divisibility', 16]], (100,): [['tt.divisibility', 16]], (101,): [['tt.divisibility', 16]], (102,): [['tt.divisibility', 16]], (103,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'SequentialComboKernelGrid', 'combo_grid_meta': {'num_kernels': 13, 'min_blocks': 0, 'default_config': {'XBLOCK': 1024}, 'no_x_dim_0': False, 'xnumel_0': 192, 'no_x_dim_1': False, 'xnumel_1': 4096, 'no_x_dim_2': False, 'xnumel_2': 64, 'no_x_dim_3': False, 'xnumel_3': 64, 'no_x_dim_4': False, 'xnumel_4': 64, 'no_x_dim_5': False, 'xnumel_5': 8192, 'no_x_dim_6': False, 'xnumel_6': 128, 'no_x_dim_7': False, 'xnumel_7': 8192, 'no_x_dim_8': False, 'xnumel_8': 64, 'no_x_dim_9': False, 'xnumel_9': 64, 'no_x_dim_10': False, 'xnumel_10': 64, 'no_x_dim_11': False, 'xnumel_11': 640, 'no_x_dim_12': False, 'xnumel_12': 10}, 'kernel_name': 'triton_for_fused_2', 'mutated_arg_names': ['in_ptr0', 'in_ptr10', 'in_ptr12', 'in_ptr13', 'in_ptr15', 'in_ptr17', 'in_ptr18', 'in_ptr2', 'in_ptr20', 'in_ptr22', 'in_ptr23', 'in_ptr25', 'in_ptr27', 'in_ptr28', 'in_ptr3', 'in_ptr30', 'in_ptr32', 'in_ptr33', 'in_ptr35', 'in_ptr37', 'in_ptr38', 'in_ptr40', 'in_ptr42', 'in_ptr43', 'in_ptr45', 'in_ptr47', 'in_ptr48', 'in_ptr5', 'in_ptr50', 'in_ptr52', 'in_ptr53', 'in_ptr55', 'in_ptr57', 'in_ptr58', 'in_ptr60', 'in_ptr62', 'in_ptr63', 'in_ptr7', 'in_ptr8', 'out_ptr1', 'out_ptr11', 'out_ptr13', 'out_ptr14', 'out_ptr16', 'out_ptr18', 'out_ptr19', 'out_ptr21', 'out_ptr23', 'out_ptr24', 'out_ptr26', 'out_ptr28', 'out_ptr29', 'out_ptr3', 'out_ptr31', 'out_ptr33', 'out_ptr34', 'out_ptr36', 'out_ptr38', 'out_ptr39', 'out_ptr4', 'out_ptr41', 'out_ptr43', 'out_ptr44', 'out_ptr46', 'out_ptr48', 'out_ptr49', 'out_ptr51', 'out_ptr53', 'out_ptr54', 'out_ptr56', 'out_ptr58', 'out_ptr59', 'out_ptr6', 'out_ptr61', 'out_ptr63', 'out_ptr64', 'out_ptr8', 'out_ptr9'], 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': True, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': True},
)
@triton.jit
def triton_for_fused_2(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, in_ptr6, in_ptr7, in_ptr8, in_ptr9, in_ptr10, in_ptr11, in_ptr12, in_ptr13, in_ptr14, in_ptr15, in_ptr16, in_ptr17, in_ptr18, in_ptr19, in_ptr20, in_ptr21, in_ptr22, in_ptr23, in_ptr24, in_ptr25, in_ptr26, in_ptr27, in_ptr28, in_ptr29, in_ptr30, in_ptr31, in_ptr32, in_ptr33, in_ptr34, in_ptr35, in_ptr36, in_ptr37, in_ptr38, in_ptr39, in_ptr40, in_ptr41, in_ptr42, in_ptr43, in_ptr44, in_ptr45, in_ptr46, in_ptr47, in_ptr48, in_ptr49, in_ptr50, in_ptr51, in_ptr52, in_ptr53, in_ptr54, in_ptr55, in_ptr56, in_ptr57, in_ptr58, in_ptr59, in_ptr60, in_ptr61, in_ptr62, in_ptr63, in_ptr64, out_ptr1, out_ptr3, out_ptr4, out_ptr6, out_ptr8, out_ptr9, out_ptr11, out_ptr13, out_ptr14, out_ptr16, out_ptr18, out_ptr19, out_ptr21, out_ptr23, out_ptr24, out_ptr26, out_ptr28, out_ptr29, out_ptr31, out_ptr33, out_ptr34, out_ptr36, out_ptr38, out_ptr39, out_ptr41, out_ptr43, out_ptr44, out_ptr46, out_ptr48, out_ptr49, out_ptr51, out_ptr53, out_ptr54, out_ptr56, out_ptr58, out_ptr59, out_ptr61, out_ptr63, out_ptr64):
    pid = tl.program_id(0)
    XBLOCK: tl.constexpr = 1024
    num_xblocks_0 = tl.cdiv(192, XBLOCK)
    num_xblocks_1 = num_xblocks_0 + tl.cdiv(4096, XBLOCK)
    num_xblocks_2 = num_xblocks_1 + tl.cdiv(64, XBLOCK)
    num_xblocks_3 = num_xblocks_2 + tl.cdiv(64, XBLOCK)
    num_xblocks_4 = num_xblocks_3 + tl.cdiv(64, XBLOCK)
    num_xblocks_5 = num_xblocks_4 + tl.cdiv(8192, XBLOCK)
    num_xblocks_6 = num_xblocks_5 + tl.cdiv(128, XBLOCK)
    num_xblocks_7 = num_xblocks_6 + tl.cdiv(8192, XBLOCK)
    num_xblocks_8 = num_xblocks_7 + tl.cdiv(64, XBLOCK)
    num_xblocks_9 = num_xblocks_8 + tl.cdiv(64, XBLOCK)
    num_xblocks_10 = num_xblocks_9 + tl.cdiv(64, XBLOCK)
    num_xblocks_11 = num_xblocks_10 + tl.cdiv(640, XBLOCK)
    num_xblocks_12 = num_xblocks_11 + tl.cdiv(10, XBLOCK)
    if pid < num_xblocks_0:
        pid_offset = pid
        xnumel = 192
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
        xnumel = 4096
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = tl.full([XBLOCK], True, tl.int1)[:]
        x1 = xindex
        tmp38 = tl.load(in_ptr5 + (x1), None)
        tmp41 = tl.load(in_ptr6 + (x1), None)
        tmp46 = tl.load(in_ptr7 + (x1), None)
        tmp51 = tl.load(in_ptr8 + (x1), None)
        tmp55 = tl.load(in_ptr9 + (0))
        tmp56 = tl.broadcast_to(tmp55, [XBLOCK])
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
        tmp57 = libdevice.pow(tmp39, tmp56)
        tmp58 = tl.full([1], 1.0, tl.float32)
        tmp59 = tmp57 - tmp58
        tmp60 = -tmp59
        tmp61 = tl.sqrt_rn(tmp60)
        tmp62 = (tmp54 / tmp61)
        tmp63 = tl.full([1], 1e-08, tl.float32)
        tmp64 = tmp62 + tmp63
        tmp65 = tl.full([1], 0.9, tl.float32)
        tmp66 = libdevice.pow(tmp65, tmp56)
        tmp67 = tmp66 - tmp58
        tmp68 = tl.full([1], 100.0, tl.float32)
        tmp69 = tmp67 * tmp68
        tmp70 = tl.full([1], 1, tl.int32)
        tmp71 = (tmp70 / tmp69)
        tmp72 = (tmp64 / tmp71)
        tmp73 = (tmp50 / tmp72)
        tmp74 = tmp53 + tmp73
        tl.store(out_ptr6 + (x1), tmp50, None)
        tl.store(out_ptr8 + (x1), tmp74, None)
        tl.store(out_ptr9 + (x1), tmp45, None)
    elif pid < num_xblocks_2:
        pid_offset = pid - num_xblocks_1
        xnumel = 64
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        x2 = xindex
        tmp75 = tl.load(in_ptr10 + (x2), xmask)
        tmp78 = tl.load(in_ptr11 + (x2), xmask)
        tmp83 = tl.load(in_ptr12 + (x2), xmask)
        tmp88 = tl.load(in_ptr13 + (x2), xmask)
        tmp92 = tl.load(in_ptr14 + (0))
        tmp93 = tl.broadcast_to(tmp92, [XBLOCK])
        tmp94 = tl.where(xmask, tmp93, 0.0)
        tmp76 = tl.full([1], 0.999, tl.float32)
        tmp77 = tmp75 * tmp76
        tmp79 = tmp78 * tmp78
        tmp80 = tl.full([1], 0.0010000000000000009, tl.float32)
        tmp81 = tmp79 * tmp80
        tmp82 = tmp77 + tmp81
        tmp84 = tmp78 - tmp83
        tmp85 = tl.full([1], 0.09999999999999998, tl.float32)
        tmp86 = tmp84 * tmp85
        tmp87 = tmp83 + tmp86
        tmp89 = tl.full([1], 0.9999, tl.float32)
        tmp90 = tmp88 * tmp89
        tmp91 = tl.sqrt_rn(tmp82)
        tmp95 = libdevice.pow(tmp76, tmp94)
        tmp96 = tl.full([1], 1.0, tl.float32)
        tmp97 = tmp95 - tmp96
        tmp98 = -tmp97
        tmp99 = tl.sqrt_rn(tmp98)
        tmp100 = (tmp91 / tmp99)
        tmp101 = tl.full([1], 1e-08, tl.float32)
        tmp102 = tmp100 + tmp101
        tmp103 = tl.full([1], 0.9, tl.float32)
        tmp104 = libdevice.pow(tmp103, tmp94)
        tmp105 = tmp104 - tmp96
        tmp106 = tl.full([1], 100.0, tl.float32)
        tmp107 = tmp105 * tmp106
        tmp108 = tl.full([1], 1, tl.int32)
        tmp109 = (tmp108 / tmp107)
        tmp110 = (tmp102 / tmp109)
        tmp111 = (tmp87 / tmp110)
        tmp112 = tmp90 + tmp111
        tl.store(out_ptr11 + (x2), tmp87, xmask)
        tl.store(out_ptr13 + (x2), tmp112, xmask)
        tl.store(out_ptr14 + (x2), tmp82, xmask)
    elif pid < num_xblocks_3:
        pid_offset = pid - num_xblocks_2
        xnumel = 64
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        x3 = xindex
        tmp113 = tl.load(in_ptr15 + (x3), xmask)
        tmp116 = tl.load(in_ptr16 + (x3), xmask)
        tmp121 = tl.load(in_ptr17 + (x3), xmask)
        tmp126 = tl.load(in_ptr18 + (x3), xmask)
        tmp130 = tl.load(in_ptr19 + (0))
        tmp131 = tl.broadcast_to(tmp130, [XBLOCK])
        tmp132 = tl.where(xmask, tmp131, 0.0)
        tmp114 = tl.full([1], 0.999, tl.float32)
        tmp115 = tmp113 * tmp114
        tmp117 = tmp116 * tmp116
        tmp118 = tl.full([1], 0.0010000000000000009, tl.float32)
        tmp119 = tmp117 * tmp118
        tmp120 = tmp115 + tmp119
        tmp122 = tmp116 - tmp121
        tmp123 = tl.full([1], 0.09999999999999998, tl.float32)
        tmp124 = tmp122 * tmp123
        tmp125 = tmp121 + tmp124
        tmp127 = tl.full([1], 0.9999, tl.float32)
        tmp128 = tmp126 * tmp127
        tmp129 = tl.sqrt_rn(tmp120)
        tmp133 = libdevice.pow(tmp114, tmp132)
        tmp134 = tl.full([1], 1.0, tl.float32)
        tmp135 = tmp133 - tmp134
        tmp136 = -tmp135
        tmp137 = tl.sqrt_rn(tmp136)
        tmp138 = (tmp129 / tmp137)
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
        tmp149 = (tmp125 / tmp148)
        tmp150 = tmp128 + tmp149
        tl.store(out_ptr16 + (x3), tmp125, xmask)
        tl.store(out_ptr18 + (x3), tmp150, xmask)
        tl.store(out_ptr19 + (x3), tmp120, xmask)
    elif pid < num_xblocks_4:
        pid_offset = pid - num_xblocks_3
        xnumel = 64
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
        xnumel = 8192
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
        xnumel = 128
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
        xnumel = 8192
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = tl.full([XBLOCK], True, tl.int1)[:]
        x7 = xindex
        tmp264 = tl.load(in_ptr35 + (x7), None)
        tmp267 = tl.load(in_ptr36 + (x7), None)
        tmp272 = tl.load(in_ptr37 + (x7), None)
        tmp277 = tl.load(in_ptr38 + (x7), None)
        tmp281 = tl.load(in_ptr39 + (0))
        tmp282 = tl.broadcast_to(tmp281, [XBLOCK])
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
        tmp283 = libdevice.pow(tmp265, tmp282)
        tmp284 = tl.full([1], 1.0, tl.float32)
        tmp285 = tmp283 - tmp284
        tmp286 = -tmp285
        tmp287 = tl.sqrt_rn(tmp286)
        tmp288 = (tmp280 / tmp287)
        tmp289 = tl.full([1], 1e-08, tl.float32)
        tmp290 = tmp288 + tmp289
        tmp291 = tl.full([1], 0.9, tl.float32)
        tmp292 = libdevice.pow(tmp291, tmp282)
        tmp293 = tmp292 - tmp284
        tmp294 = tl.full([1], 100.0, tl.float32)
        tmp295 = tmp293 * tmp294
        tmp296 = tl.full([1], 1, tl.int32)
        tmp297 = (tmp296 / tmp295)
        tmp298 = (tmp290 / tmp297)
        tmp299 = (tmp276 / tmp298)
        tmp300 = tmp279 + tmp299
        tl.store(out_ptr36 + (x7), tmp276, None)
        tl.store(out_ptr38 + (x7), tmp300, None)
        tl.store(out_ptr39 + (x7), tmp271, None)
    elif pid < num_xblocks_8:
        pid_offset = pid - num_xblocks_7
        xnumel = 64
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        x8 = xindex
        tmp301 = tl.load(in_ptr40 + (x8), xmask)
        tmp304 = tl.load(in_ptr41 + (x8), xmask)
        tmp309 = tl.load(in_ptr42 + (x8), xmask)
        tmp314 = tl.load(in_ptr43 + (x8), xmask)
        tmp318 = tl.load(in_ptr44 + (0))
        tmp319 = tl.broadcast_to(tmp318, [XBLOCK])
        tmp320 = tl.where(xmask, tmp319, 0.0)
        tmp302 = tl.full([1], 0.999, tl.float32)
        tmp303 = tmp301 * tmp302
        tmp305 = tmp304 * tmp304
        tmp306 = tl.full([1], 0.0010000000000000009, tl.float32)
        tmp307 = tmp305 * tmp306
        tmp308 = tmp303 + tmp307
        tmp310 = tmp304 - tmp309
        tmp311 = tl.full([1], 0.09999999999999998, tl.float32)
        tmp312 = tmp310 * tmp311
        tmp313 = tmp309 + tmp312
        tmp315 = tl.full([1], 0.9999, tl.float32)
        tmp316 = tmp314 * tmp315
        tmp317 = tl.sqrt_rn(tmp308)
        tmp321 = libdevice.pow(tmp302, tmp320)
        tmp322 = tl.full([1], 1.0, tl.float32)
        tmp323 = tmp321 - tmp322
        tmp324 = -tmp323
        tmp325 = tl.sqrt_rn(tmp324)
        tmp326 = (tmp317 / tmp325)
        tmp327 = tl.full([1], 1e-08, tl.float32)
        tmp328 = tmp326 + tmp327
        tmp329 = tl.full([1], 0.9, tl.float32)
        tmp330 = libdevice.pow(tmp329, tmp320)
        tmp331 = tmp330 - tmp322
        tmp332 = tl.full([1], 100.0, tl.float32)
        tmp333 = tmp331 * tmp332
        tmp334 = tl.full([1], 1, tl.int32)
        tmp335 = (tmp334 / tmp333)
        tmp336 = (tmp328 / tmp335)
        tmp337 = (tmp313 / tmp336)
        tmp338 = tmp316 + tmp337
        tl.store(out_ptr41 + (x8), tmp313, xmask)
        tl.store(out_ptr43 + (x8), tmp338, xmask)
        tl.store(out_ptr44 + (x8), tmp308, xmask)
    elif pid < num_xblocks_9:
        pid_offset = pid - num_xblocks_8
        xnumel = 64
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        x9 = xindex
        tmp339 = tl.load(in_ptr45 + (x9), xmask)
        tmp342 = tl.load(in_ptr46 + (x9), xmask)
        tmp347 = tl.load(in_ptr47 + (x9), xmask)
        tmp352 = tl.load(in_ptr48 + (x9), xmask)
        tmp356 = tl.load(in_ptr49 + (0))
        tmp357 = tl.broadcast_to(tmp356, [XBLOCK])
        tmp358 = tl.where(xmask, tmp357, 0.0)
        tmp340 = tl.full([1], 0.999, tl.float32)
        tmp341 = tmp339 * tmp340
        tmp343 = tmp342 * tmp342
        tmp344 = tl.full([1], 0.0010000000000000009, tl.float32)
        tmp345 = tmp343 * tmp344
        tmp346 = tmp341 + tmp345
        tmp348 = tmp342 - tmp347
        tmp349 = tl.full([1], 0.09999999999999998, tl.float32)
        tmp350 = tmp348 * tmp349
        tmp351 = tmp347 + tmp350
        tmp353 = tl.full([1], 0.9999, tl.float32)
        tmp354 = tmp352 * tmp353
        tmp355 = tl.sqrt_rn(tmp346)
        tmp359 = libdevice.pow(tmp340, tmp358)
        tmp360 = tl.full([1], 1.0, tl.float32)
        tmp361 = tmp359 - tmp360
        tmp362 = -tmp361
        tmp363 = tl.sqrt_rn(tmp362)
        tmp364 = (tmp355 / tmp363)
        tmp365 = tl.full([1], 1e-08, tl.float32)
        tmp366 = tmp364 + tmp365
        tmp367 = tl.full([1], 0.9, tl.float32)
        tmp368 = libdevice.pow(tmp367, tmp358)
        tmp369 = tmp368 - tmp360
        tmp370 = tl.full([1], 100.0, tl.float32)
        tmp371 = tmp369 * tmp370
        tmp372 = tl.full([1], 1, tl.int32)
        tmp373 = (tmp372 / tmp371)
        tmp374 = (tmp366 / tmp373)
        tmp375 = (tmp351 / tmp374)
        tmp376 = tmp354 + tmp375
        tl.store(out_ptr46 + (x9), tmp351, xmask)
        tl.store(out_ptr48 + (x9), tmp376, xmask)
        tl.store(out_ptr49 + (x9), tmp346, xmask)
    elif pid < num_xblocks_10:
        pid_offset = pid - num_xblocks_9
        xnumel = 64
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        x10 = xindex
        tmp377 = tl.load(in_ptr50 + (x10), xmask)
        tmp380 = tl.load(in_ptr51 + (x10), xmask)
        tmp385 = tl.load(in_ptr52 + (x10), xmask)
        tmp390 = tl.load(in_ptr53 + (x10), xmask)
        tmp394 = tl.load(in_ptr54 + (0))
        tmp395 = tl.broadcast_to(tmp394, [XBLOCK])
        tmp396 = tl.where(xmask, tmp395, 0.0)
        tmp378 = tl.full([1], 0.999, tl.float32)
        tmp379 = tmp377 * tmp378
        tmp381 = tmp380 * tmp380
        tmp382 = tl.full([1], 0.0010000000000000009, tl.float32)
        tmp383 = tmp381 * tmp382
        tmp384 = tmp379 + tmp383
        tmp386 = tmp380 - tmp385
        tmp387 = tl.full([1], 0.09999999999999998, tl.float32)
        tmp388 = tmp386 * tmp387
        tmp389 = tmp385 + tmp388
        tmp391 = tl.full([1], 0.9999, tl.float32)
        tmp392 = tmp390 * tmp391
        tmp393 = tl.sqrt_rn(tmp384)
        tmp397 = libdevice.pow(tmp378, tmp396)
        tmp398 = tl.full([1], 1.0, tl.float32)
        tmp399 = tmp397 - tmp398
        tmp400 = -tmp399
        tmp401 = tl.sqrt_rn(tmp400)
        tmp402 = (tmp393 / tmp401)
        tmp403 = tl.full([1], 1e-08, tl.float32)
        tmp404 = tmp402 + tmp403
        tmp405 = tl.full([1], 0.9, tl.float32)
        tmp406 = libdevice.pow(tmp405, tmp396)
        tmp407 = tmp406 - tmp398
        tmp408 = tl.full([1], 100.0, tl.float32)
        tmp409 = tmp407 * tmp408
        tmp410 = tl.full([1], 1, tl.int32)
        tmp411 = (tmp410 / tmp409)
        tmp412 = (tmp404 / tmp411)
        tmp413 = (tmp389 / tmp412)
        tmp414 = tmp392 + tmp413
        tl.store(out_ptr51 + (x10), tmp389, xmask)
        tl.store(out_ptr53 + (x10), tmp414, xmask)
        tl.store(out_ptr54 + (x10), tmp384, xmask)
    elif pid < num_xblocks_11:
        pid_offset = pid - num_xblocks_10
        xnumel = 640
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        x11 = xindex
        tmp415 = tl.load(in_ptr55 + (x11), xmask)
        tmp418 = tl.load(in_ptr56 + (x11), xmask)
        tmp423 = tl.load(in_ptr57 + (x11), xmask)
        tmp428 = tl.load(in_ptr58 + (x11), xmask)
        tmp432 = tl.load(in_ptr59 + (0))
        tmp433 = tl.broadcast_to(tmp432, [XBLOCK])
        tmp434 = tl.where(xmask, tmp433, 0.0)
        tmp416 = tl.full([1], 0.999, tl.float32)
        tmp417 = tmp415 * tmp416
        tmp419 = tmp418 * tmp418
        tmp420 = tl.full([1], 0.0010000000000000009, tl.float32)
        tmp421 = tmp419 * tmp420
        tmp422 = tmp417 + tmp421
        tmp424 = tmp418 - tmp423
        tmp425 = tl.full([1], 0.09999999999999998, tl.float32)
        tmp426 = tmp424 * tmp425
        tmp427 = tmp423 + tmp426
        tmp429 = tl.full([1], 0.9999, tl.float32)
        tmp430 = tmp428 * tmp429
        tmp431 = tl.sqrt_rn(tmp422)
        tmp435 = libdevice.pow(tmp416, tmp434)
        tmp436 = tl.full([1], 1.0, tl.float32)
        tmp437 = tmp435 - tmp436
        tmp438 = -tmp437
        tmp439 = tl.sqrt_rn(tmp438)
        tmp440 = (tmp431 / tmp439)
        tmp441 = tl.full([1], 1e-08, tl.float32)
        tmp442 = tmp440 + tmp441
        tmp443 = tl.full([1], 0.9, tl.float32)
        tmp444 = libdevice.pow(tmp443, tmp434)
        tmp445 = tmp444 - tmp436
        tmp446 = tl.full([1], 100.0, tl.float32)
        tmp447 = tmp445 * tmp446
        tmp448 = tl.full([1], 1, tl.int32)
        tmp449 = (tmp448 / tmp447)
        tmp450 = (tmp442 / tmp449)
        tmp451 = (tmp427 / tmp450)
        tmp452 = tmp430 + tmp451
        tl.store(out_ptr56 + (x11), tmp427, xmask)
        tl.store(out_ptr58 + (x11), tmp452, xmask)
        tl.store(out_ptr59 + (x11), tmp422, xmask)
    elif pid < num_xblocks_12:
        pid_offset = pid - num_xblocks_11
        xnumel = 10
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        x12 = xindex
        tmp453 = tl.load(in_ptr60 + (x12), xmask)
        tmp456 = tl.load(in_ptr61 + (x12), xmask)
        tmp461 = tl.load(in_ptr62 + (x12), xmask)
        tmp466 = tl.load(in_ptr63 + (x12), xmask)
        tmp470 = tl.load(in_ptr64 + (0))
        tmp471 = tl.broadcast_to(tmp470, [XBLOCK])
        tmp472 = tl.where(xmask, tmp471, 0.0)
        tmp454 = tl.full([1], 0.999, tl.float32)
        tmp455 = tmp453 * tmp454
        tmp457 = tmp456 * tmp456
        tmp458 = tl.full([1], 0.0010000000000000009, tl.float32)
        tmp459 = tmp457 * tmp458
        tmp460 = tmp455 + tmp459
        tmp462 = tmp456 - tmp461
        tmp463 = tl.full([1], 0.09999999999999998, tl.float32)
        tmp464 = tmp462 * tmp463
        tmp465 = tmp461 + tmp464
        tmp467 = tl.full([1], 0.9999, tl.float32)
        tmp468 = tmp466 * tmp467
        tmp469 = tl.sqrt_rn(tmp460)
        tmp473 = libdevice.pow(tmp454, tmp472)
        tmp474 = tl.full([1], 1.0, tl.float32)
        tmp475 = tmp473 - tmp474
        tmp476 = -tmp475
        tmp477 = tl.sqrt_rn(tmp476)
        tmp478 = (tmp469 / tmp477)
        tmp479 = tl.full([1], 1e-08, tl.float32)
        tmp480 = tmp478 + tmp479
        tmp481 = tl.full([1], 0.9, tl.float32)
        tmp482 = libdevice.pow(tmp481, tmp472)
        tmp483 = tmp482 - tmp474
        tmp484 = tl.full([1], 100.0, tl.float32)
        tmp485 = tmp483 * tmp484
        tmp486 = tl.full([1], 1, tl.int32)
        tmp487 = (tmp486 / tmp485)
        tmp488 = (tmp480 / tmp487)
        tmp489 = (tmp465 / tmp488)
        tmp490 = tmp468 + tmp489
        tl.store(out_ptr61 + (x12), tmp465, xmask)
        tl.store(out_ptr63 + (x12), tmp490, xmask)
        tl.store(out_ptr64 + (x12), tmp460, xmask)
    else:
        pass
