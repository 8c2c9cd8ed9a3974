
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties

@triton_heuristics.foreach(
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'in_ptr3': '*fp32', 'in_ptr4': '*fp32', 'in_ptr5': '*fp32', 'in_ptr6': '*fp32', 'in_ptr7': '*fp32', 'in_ptr8': '*fp32', 'in_ptr9': '*fp32', 'in_ptr10': '*fp32', 'in_ptr11': '*fp32', 'in_ptr12': '*fp32', 'in_ptr13': '*fp32', 'in_ptr14': '*fp32', 'in_ptr15': '*fp32', 'in_ptr16': '*fp32', 'in_ptr17': '*fp32', 'in_ptr18': '*fp32', 'in_ptr19': '*fp32', 'out_ptr1': '*fp32', 'out_ptr3': '*fp32', 'out_ptr4': '*fp32', 'out_ptr6': '*fp32', 'out_ptr8': '*fp32', 'out_ptr9': '*fp32', 'out_ptr11': '*fp32', 'out_ptr13': '*fp32', 'out_ptr14': '*fp32', 'out_ptr16': '*fp32', 'out_ptr18': '*fp32', 'out_ptr19': '*fp32'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'enable_fp_fusion': True, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]], (8,): [['tt.divisibility', 16]], (9,): [['tt.divisibility', 16]], (10,): [['tt.divisibility', 16]], (11,): [['tt.divisibility', 16]], (12,): [['tt.divisibility', 16]], (13,): [['tt.divisibility', 16]], (14,): [['tt.divisibility', 16]], (15,): [['tt.divisibility', 16]], (16,): [['tt.divisibility', 16]], (17,): [['tt.divisibility', 16]], (18,): [['tt.divisibility', 16]], (19,): [['tt.divisibility', 16]], (20,): [['tt.divisibility', 16]], (21,): [['tt.divisibility', 16]], (22,): [['tt.divisibility', 16]], (23,): [['tt.divisibility', 16]], (24,): [['tt.divisibility', 16]], (25,): [['tt.divisibility', 16]], (26,): [['tt.divisibility', 16]], (27,): [['tt.divisibility', 16]], (28,): [['tt.divisibility', 16]], (29,): [['tt.divisibility', 16]], (30,): [['tt.divisibility', 16]], (31,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'SequentialComboKernelGrid', 'combo_grid_meta': {'num_kernels': 4, 'min_blocks': 0, 'default_config': {'XBLOCK': 1024}, 'no_x_dim_0': False, 'xnumel_0': 2048, 'no_x_dim_1': False, 'xnumel_1': 32, 'no_x_dim_2': False, 'xnumel_2': 320, 'no_x_dim_3': False, 'xnumel_3': 10}, 'kernel_name': 'triton_for_fused_1', 'mutated_arg_names': ['in_ptr0', 'in_ptr10', 'in_ptr12', 'in_ptr13', 'in_ptr15', 'in_ptr17', 'in_ptr18', 'in_ptr2', 'in_ptr3', 'in_ptr5', 'in_ptr7', 'in_ptr8', 'out_ptr1', 'out_ptr11', 'out_ptr13', 'out_ptr14', 'out_ptr16', 'out_ptr18', 'out_ptr19', 'out_ptr3', 'out_ptr4', 'out_ptr6', 'out_ptr8', 'out_ptr9'], 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': True, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': True},
)
@triton.jit
def triton_for_fused_1(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, in_ptr6, in_ptr7, in_ptr8, in_ptr9, in_ptr10, in_ptr11, in_ptr12, in_ptr13, in_ptr14, in_ptr15, in_ptr16, in_ptr17, in_ptr18, in_ptr19, out_ptr1, out_ptr3, out_ptr4, out_ptr6, out_ptr8, out_ptr9, out_ptr11, out_ptr13, out_ptr14, out_ptr16, out_ptr18, out_ptr19):
    pid = tl.program_id(0)
    XBLOCK: tl.constexpr = 1024
    num_xblocks_0 = tl.cdiv(2048, XBLOCK)
    num_xblocks_1 = num_xblocks_0 + tl.cdiv(32, XBLOCK)
    num_xblocks_2 = num_xblocks_1 + tl.cdiv(320, XBLOCK)
    num_xblocks_3 = num_xblocks_2 + tl.cdiv(10, XBLOCK)
    if pid < num_xblocks_0:
        pid_offset = pid
        xnumel = 2048
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
        xnumel = 32
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
        xnumel = 320
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
        xnumel = 10
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        x3 = xindex
        tmp114 = tl.load(in_ptr15 + (x3), xmask)
        tmp117 = tl.load(in_ptr16 + (x3), xmask)
        tmp122 = tl.load(in_ptr17 + (x3), xmask)
        tmp127 = tl.load(in_ptr18 + (x3), xmask)
        tmp131 = tl.load(in_ptr19 + (0))
        tmp132 = tl.broadcast_to(tmp131, [XBLOCK])
        tmp133 = tl.where(xmask, tmp132, 0.0)
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
        tmp134 = libdevice.pow(tmp115, tmp133)
        tmp135 = tl.full([1], 1.0, tl.float32)
        tmp136 = tmp134 - tmp135
        tmp137 = -tmp136
        tmp138 = tl.sqrt_rn(tmp137)
        tmp139 = (tmp130 / tmp138)
        tmp140 = tl.full([1], 1e-08, tl.float32)
        tmp141 = tmp139 + tmp140
        tmp142 = tl.full([1], 0.9, tl.float32)
        tmp143 = libdevice.pow(tmp142, tmp133)
        tmp144 = tmp143 - tmp135
        tmp145 = tl.full([1], 100.0, tl.float32)
        tmp146 = tmp144 * tmp145
        tmp147 = tl.full([1], 1, tl.int32)
        tmp148 = (tmp147 / tmp146)
        tmp149 = (tmp141 / tmp148)
        tmp150 = (tmp126 / tmp149)
        tmp151 = tmp129 + tmp150
        tl.store(out_ptr16 + (x3), tmp126, xmask)
        tl.store(out_ptr18 + (x3), tmp151, xmask)
        tl.store(out_ptr19 + (x3), tmp121, xmask)
    else:
        pass
