
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties

@triton_heuristics.foreach(
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'in_ptr3': '*fp32', 'in_ptr4': '*fp32', 'in_ptr5': '*fp32', 'in_ptr6': '*fp32', 'in_ptr7': '*fp32', 'in_ptr8': '*fp32', 'in_ptr9': '*fp32', 'in_ptr10': '*fp32', 'in_ptr11': '*fp32', 'in_ptr12': '*fp32', 'in_ptr13': '*fp32', 'in_ptr14': '*fp32', 'in_ptr15': '*fp32', 'in_ptr16': '*fp32', 'in_ptr17': '*fp32', 'in_ptr18': '*fp32', 'in_ptr19': '*fp32', 'in_ptr20': '*fp32', 'in_ptr21': '*fp32', 'in_ptr22': '*fp32', 'in_ptr23': '*fp32', 'in_ptr24': '*fp32', 'in_ptr25': '*fp32', 'in_ptr26': '*fp32', 'in_ptr27': '*fp32', 'in_ptr28': '*fp32', 'in_ptr29': '*fp32', 'in_ptr30': '*fp32', 'in_ptr31': '*fp32', 'in_ptr32': '*fp32', 'in_ptr33': '*fp32', 'in_ptr34': '*fp32', 'in_ptr35': '*fp32', 'in_ptr36': '*fp32', 'in_ptr37': '*fp32', 'in_ptr38': '*fp32', 'in_ptr39': '*fp32', 'in_ptr40': '*fp32', 'in_ptr41': '*fp32', 'in_ptr42': '*fp32', 'in_ptr43': '*fp32', 'in_ptr44': '*fp32', 'in_ptr45': '*fp32', 'in_ptr46': '*fp32', 'in_ptr47': '*fp32', 'in_ptr48': '*fp32', 'in_ptr49': '*fp32', 'in_ptr50': '*fp32', 'in_ptr51': '*fp32', 'in_ptr52': '*fp32', 'in_ptr53': '*fp32', 'in_ptr54': '*fp32', 'in_ptr55': '*fp32', 'in_ptr56': '*fp32', 'in_ptr57': '*fp32', 'in_ptr58': '*fp32', 'in_ptr59': '*fp32', 'in_ptr60': '*fp32', 'in_ptr61': '*fp32', 'in_ptr62': '*fp32', 'in_ptr63': '*fp32', 'in_ptr64': '*fp32', 'in_ptr65': '*fp32', 'in_ptr66': '*fp32', 'in_ptr67': '*fp32', 'in_ptr68': '*fp32', 'in_ptr69': '*fp32', 'in_ptr70': '*fp32', 'in_ptr71': '*fp32', 'in_ptr72': '*fp32', 'in_ptr73': '*fp32', 'in_ptr74': '*fp32', 'in_ptr75': '*fp32', 'in_ptr76': '*fp32', 'in_ptr77': '*fp32', 'in_ptr78': '*fp32', 'in_ptr79': '*fp32', 'in_ptr80': '*fp32', 'in_ptr81': '*fp32', 'in_ptr82': '*fp32', 'in_ptr83': '*fp32', 'in_ptr84': '*fp32', 'in_ptr85': '*fp32', 'in_ptr86': '*fp32', 'in_ptr87': '*fp32', 'in_ptr88': '*fp32', 'in_ptr89': '*fp32', 'in_ptr90': '*fp32', 'in_ptr91': '*fp32', 'in_ptr92': '*fp32', 'out_ptr1': '*fp32', 'out_ptr2': '*fp32', 'out_ptr4': '*fp32', 'out_ptr5': '*fp32', 'out_ptr7': '*fp32', 'out_ptr8': '*fp32', 'out_ptr10': '*fp32', 'out_ptr11': '*fp32', 'out_ptr13': '*fp32', 'out_ptr14': '*fp32', 'out_ptr16': '*fp32', 'out_ptr17': '*fp32', 'out_ptr19': '*fp32', 'out_ptr20': '*fp32', 'out_ptr22': '*fp32', 'out_ptr23': '*fp32', 'out_ptr25': '*fp32', 'out_ptr26': '*fp32', 'out_ptr28': '*fp32', 'out_ptr29': '*fp32', 'out_ptr31': '*fp32', 'out_ptr32': '*fp32', 'out_ptr34': '*fp32', 'out_ptr35': '*fp32', 'out_ptr37': '*fp32', 'out_ptr38': '*fp32', 'out_ptr40': '*fp32', 'out_ptr41': '*fp32', 'out_ptr43': '*fp32', 'out_ptr44': '*fp32', 'out_ptr46': '*fp32', 'out_ptr47': '*fp32', 'out_ptr49': '*fp32', 'out_ptr50': '*fp32', 'out_ptr52': '*fp32', 'out_ptr53': '*fp32', 'out_ptr55': '*fp32', 'out_ptr56': '*fp32', 'out_ptr58': '*fp32', 'out_ptr59': '*fp32', 'out_ptr61': '*fp32', 'out_ptr62': '*fp32', 'out_ptr64': '*fp32', 'out_ptr65': '*fp32', 'out_ptr67': '*fp32', 'out_ptr68': '*fp32', 'out_ptr70': '*fp32', 'out_ptr71': '*fp32', 'out_ptr73': '*fp32', 'out_ptr74': '*fp32', 'out_ptr76': '*fp32', 'out_ptr77': '*fp32', 'out_ptr79': '*fp32', 'out_ptr80': '*fp32', 'out_ptr82': '*fp32', 'out_ptr83': '*fp32', 'out_ptr85': '*fp32', 'out_ptr86': '*fp32', 'out_ptr88': '*fp32', 'out_ptr89': '*fp32', 'out_ptr91': '*fp32', 'out_ptr92': '*fp32'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'enable_fp_fusion': True, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]], (8,): [['tt.divisibility', 16]], (9,): [['tt.divisibility', 16]], (10,): [['tt.divisibility', 16]], (11,): [['tt.divisibility', 16]], (12,): [['tt.divisibility', 16]], (13,): [['tt.divisibility', 16]], (14,): [['tt.divisibility', 16]], (15,): [['tt.divisibility', 16]], (16,): [['tt.divisibility', 16]], (17,): [['tt.divisibility', 16]], (18,): [['tt.divisibility', 16]], (19,): [['tt.divisibility', 16]], (20,): [['tt.divisibility', 16]], (21,): [['tt.divisibility', 16]], (22,): [['tt.divisibility', 16]], (23,): [['tt.divisibility', 16]], (24,): [['tt.divisibility', 16]], (25,): [['tt.divisibility', 16]], (26,): [['tt.divisibility', 16]], (27,): [['tt.divisibility', 16]], (28,): [['tt.divisibility', 16]], (29,): [['tt.divisibility', 16]], (30,): [['tt.divisibility', 16]], (31,): [['tt.divisibility', 16]], (32,): [['tt.divisibility', 16]], (33,): [['tt.divisibility', 16]], (34,): [['tt.divisibility', 16]], (35,): [['tt.divisibility', 16]], (36,): [['tt.divisibility', 16]], (37,): [['tt.divisibility', 16]], (38,): [['tt.divisibility', 16]], (39,): [['tt.divisibility', 16]], (40,): [['tt.divisibility', 16]], (41,): [['tt.divisibility', 16]], (42,): [['tt.divisibility', 16]], (43,): [['tt.divisibility', 16]], (44,): [['tt.divisibility', 16]], (45,): [['tt.divisibility', 16]], (46,): [['tt.divisibility', 16]], (47,): [['tt.divisibility', 16]], (48,): [['tt.divisibility', 16]], (49,): [['tt.divisibility', 16]], (50,): [['tt.divisibility', 16]], (51,): [['tt.divisibility', 16]], (52,): [['tt.divisibility', 16]], (53,): [['tt.divisibility', 16]], (54,): [['tt.divisibility', 16]], (55,): [['tt.divisibility', 16]], (56,): [['tt.divisibility', 16]], (57,): [['tt.divisibility', 16]], (58,): [['tt.divisibility', 16]], (59,): [['tt.divisibility', 16]], (60,): [['tt.divisibility', 16]], (61,): [['tt.divisibility', 16]], (62,): [['tt.divisibility', 16]], (63,): [['tt.divisibility', 16]], (64,): [['tt.divisibility', 16]], (65,): [['tt.divisibility', 16]], (66,): [['tt.divisibility', 16]], (67,): [['tt.divisibility', 16]], (68,): [['tt.divisibility', 16]], (69,): [['tt.divisibility', 16]], (70,): [['tt.divisibility', 16]], (71,): [['tt.divisibility', 16]], (72,): [['tt.divisibility', 16]], (73,): [['tt.divisibility', 16]], (74,): [['tt.divisibility', 16]], (75,): [['tt.divisibility', 16]], (76,): [['tt.divisibility', 16]], (77,): [['tt.divisibility', 16]], (78,): [['tt.divisibility', 16]], (79,): [['tt.divisibility', 16]], (80,): [['tt.divisibility', 16]], (81,): [['tt.divisibility', 16]], (82,): [['tt.divisibility', 16]], (83,): [['tt.divisibility', 16]], (84,): [['tt.divisibility', 16]], (85,): [['tt.divisibility', 16]], (86,): [['tt.divisibility', 16]], (87,): [['tt.divisibility', 16]], (88,): [['tt.divisibility', 16]], (89,): [['tt.divisibility', 16]], (90,): [['tt.divisibility', 16]], (91,): [['tt.divisibility', 16]], (92,): [['tt.divisibility', 16]], (93,): [['tt.divisibility', 16]], (94,): [['tt.divisibility', 16]], (95,): [['tt.divisibility', 16]], (96,): [['tt.divisibility', 16]], (97,): [['tt.divisibility', 16]], (98,): [['tt.divisibility', 16]], (99,): [['tt.divisibility', 16]], (100,): [['tt.divisibility', 16]], (101,): [['tt.divisibility', 16]], (102,): [['tt.divisibility', 16]], (103,): [['tt.divisibility', 16]], (104,): [['tt.divisibility', 16]], (105,): [['tt.divisibility', 16]], (106,): [['tt.divisibility', 16]], (107,): [['tt.divisibility', 16]], (108,): [['tt.divisibility', 16]], (109,): [['tt.divisibility', 16]], (110,): [['tt.divisibility', 16]], (111,): [['tt.divisibility', 16]], (112,): [['tt.divisibility', 16]], (113,): [['tt.divisibility', 16]], (114,): [['tt.divisibility', 16]], (115,): [['tt.divisibility', 16]], (116,): [['tt.divisibility', 16]], (117,): [['tt.divisibility', 16]], (118,): [['tt.divisibility', 16]], (119,): [['tt.divisibility', 16]], (120,): [['tt.divisibility', 16]], (121,): [['tt.divisibility', 16]], (122,): [['tt.divisibility', 16]], (123,): [['tt.divisibility', 16]], (124,): [['tt.divisibility', 16]], (125,): [['tt.divisibility', 16]], (126,): [['tt.divisibility', 16]], (127,): [['tt.divisibility', 16]], (128,): [['tt.divisibility', 16]], (129,): [['tt.divisibility', 16]], (130,): [['tt.divisibility', 16]], (131,): [['tt.divisibility', 16]], (132,): [['tt.divisibility', 16]], (133,): [['tt.divisibility', 16]], (134,): [['tt.divisibility', 16]], (135,): [['tt.divisibility', 16]], (136,): [['tt.divisibility', 16]], (137,): [['tt.divisibility', 16]], (138,): [['tt.divisibility', 16]], (139,): [['tt.divisibility', 16]], (140,): [['tt.divisibility', 16]], (141,): [['tt.divisibility', 16]], (142,): [['tt.divisibility', 16]], (143,): [['tt.divisibility', 16]], (144,): [['tt.divisibility', 16]], (145,): [['tt.divisibility', 16]], (146,): [['tt.divisibility', 16]], (147,): [['tt.divisibility', 16]], (148,): [['tt.divisibility', 16]], (149,): [['tt.divisibility', 16]], (150,): [['tt.divisibility', 16]], (151,): [['tt.divisibility', 16]], (152,): [['tt.divisibility', 16]], (153,): [['tt.divisibility', 16]], (154,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'SequentialComboKernelGrid', 'combo_grid_meta': {'num_kernels': 31, 'min_blocks': 0, 'default_config': {'XBLOCK': 1024}, 'no_x_dim_0': False, 'xnumel_0': 216, 'no_x_dim_1': False, 'xnumel_1': 8, 'no_x_dim_2': False, 'xnumel_2': 8, 'no_x_dim_3': False, 'xnumel_3': 72, 'no_x_dim_4': False, 'xnumel_4': 8, 'no_x_dim_5': False, 'xnumel_5': 8, 'no_x_dim_6': False, 'xnumel_6': 64, 'no_x_dim_7': False, 'xnumel_7': 8, 'no_x_dim_8': False, 'xnumel_8': 8, 'no_x_dim_9': False, 'xnumel_9': 384, 'no_x_dim_10': False, 'xnumel_10': 48, 'no_x_dim_11': False, 'xnumel_11': 48, 'no_x_dim_12': False, 'xnumel_12': 432, 'no_x_dim_13': False, 'xnumel_13': 48, 'no_x_dim_14': False, 'xnumel_14': 48, 'no_x_dim_15': False, 'xnumel_15': 384, 'no_x_dim_16': False, 'xnumel_16': 8, 'no_x_dim_17': False, 'xnumel_17': 8, 'no_x_dim_18': False, 'xnumel_18': 384, 'no_x_dim_19': False, 'xnumel_19': 48, 'no_x_dim_20': False, 'xnumel_20': 48, 'no_x_dim_21': False, 'xnumel_21': 432, 'no_x_dim_22': False, 'xnumel_22': 48, 'no_x_dim_23': False, 'xnumel_23': 48, 'no_x_dim_24': False, 'xnumel_24': 384, 'no_x_dim_25': False, 'xnumel_25': 8, 'no_x_dim_26': False, 'xnumel_26': 8, 'no_x_dim_27': False, 'xnumel_27': 384, 'no_x_dim_28': False, 'xnumel_28': 48, 'no_x_dim_29': False, 'xnumel_29': 48, 'no_x_dim_30': False, 'xnumel_30': 432}, 'kernel_name': 'triton_for_fused_0', 'mutated_arg_names': ['in_ptr0', 'in_ptr11', 'in_ptr12', 'in_ptr14', 'in_ptr15', 'in_ptr17', 'in_ptr18', 'in_ptr2', 'in_ptr20', 'in_ptr21', 'in_ptr23', 'in_ptr24', 'in_ptr26', 'in_ptr27', 'in_ptr29', 'in_ptr3', 'in_ptr30', 'in_ptr32', 'in_ptr33', 'in_ptr35', 'in_ptr36', 'in_ptr38', 'in_ptr39', 'in_ptr41', 'in_ptr42', 'in_ptr44', 'in_ptr45', 'in_ptr47', 'in_ptr48', 'in_ptr5', 'in_ptr50', 'in_ptr51', 'in_ptr53', 'in_ptr54', 'in_ptr56', 'in_ptr57', 'in_ptr59', 'in_ptr6', 'in_ptr60', 'in_ptr62', 'in_ptr63', 'in_ptr65', 'in_ptr66', 'in_ptr68', 'in_ptr69', 'in_ptr71', 'in_ptr72', 'in_ptr74', 'in_ptr75', 'in_ptr77', 'in_ptr78', 'in_ptr8', 'in_ptr80', 'in_ptr81', 'in_ptr83', 'in_ptr84', 'in_ptr86', 'in_ptr87', 'in_ptr89', 'in_ptr9', 'in_ptr90', 'in_ptr92', 'out_ptr1', 'out_ptr10', 'out_ptr11', 'out_ptr13', 'out_ptr14', 'out_ptr16', 'out_ptr17', 'out_ptr19', 'out_ptr2', 'out_ptr20', 'out_ptr22', 'out_ptr23', 'out_ptr25', 'out_ptr26', 'out_ptr28', 'out_ptr29', 'out_ptr31', 'out_ptr32', 'out_ptr34', 'out_ptr35', 'out_ptr37', 'out_ptr38', 'out_ptr4', 'out_ptr40', 'out_ptr41', 'out_ptr43', 'out_ptr44', 'out_ptr46', 'out_ptr47', 'out_ptr49', 'out_ptr5', 'out_ptr50', 'out_ptr52', 'out_ptr53', 'out_ptr55', 'out_ptr56', 'out_ptr58', 'out_ptr59', 'out_ptr61', 'out_ptr62', 'out_ptr64', 'out_ptr65', 'out_ptr67', 'out_ptr68', 'out_ptr7', 'out_ptr70', 'out_ptr71', 'out_ptr73', 'out_ptr74', 'out_ptr76', 'out_ptr77', 'out_ptr79', 'out_ptr8', 'out_ptr80', 'out_ptr82', 'out_ptr83', 'out_ptr85', 'out_ptr86', 'out_ptr88', 'out_ptr89', 'out_ptr91', 'out_ptr92'], 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': True, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': True},
)
@triton.jit
def triton_for_fused_0(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, in_ptr6, in_ptr7, in_ptr8, in_ptr9, in_ptr10, in_ptr11, in_ptr12, in_ptr13, in_ptr14, in_ptr15, in_ptr16, in_ptr17, in_ptr18, in_ptr19, in_ptr20, in_ptr21, in_ptr22, in_ptr23, in_ptr24, in_ptr25, in_ptr26, in_ptr27, in_ptr28, in_ptr29, in_ptr30, in_ptr31, in_ptr32, in_ptr33, in_ptr34, in_ptr35, in_ptr36, in_ptr37, in_ptr38, in_ptr39, in_ptr40, in_ptr41, in_ptr42, in_ptr43, in_ptr44, in_ptr45, in_ptr46, in_ptr47, in_ptr48, in_ptr49, in_ptr50, in_ptr51, in_ptr52, in_ptr53, in_ptr54, in_ptr55, in_ptr56, in_ptr57, in_ptr58, in_ptr59, in_ptr60, in_ptr61, in_ptr62, in_ptr63, in_ptr64, in_ptr65, in_ptr66, in_ptr67, in_ptr68, in_ptr69, in_ptr70, in_ptr71, in_ptr72, in_ptr73, in_ptr74, in_ptr75, in_ptr76, in_ptr77, in_ptr78, in_ptr79, in_ptr80, in_ptr81, in_ptr82, in_ptr83, in_ptr84, in_ptr85, in_ptr86, in_ptr87, in_ptr88, in_ptr89, in_ptr90, in_ptr91, in_ptr92, out_ptr1, out_ptr2, out_ptr4, out_ptr5, out_ptr7, out_ptr8, out_ptr10, out_ptr11, out_ptr13, out_ptr14, out_ptr16, out_ptr17, out_ptr19, out_ptr20, out_ptr22, out_ptr23, out_ptr25, out_ptr26, out_ptr28, out_ptr29, out_ptr31, out_ptr32, out_ptr34, out_ptr35, out_ptr37, out_ptr38, out_ptr40, out_ptr41, out_ptr43, out_ptr44, out_ptr46, out_ptr47, out_ptr49, out_ptr50, out_ptr52, out_ptr53, out_ptr55, out_ptr56, out_ptr58, out_ptr59, out_ptr61, out_ptr62, out_ptr64, out_ptr65, out_ptr67, out_ptr68, out_ptr70, out_ptr71, out_ptr73, out_ptr74, out_ptr76, out_ptr77, out_ptr79, out_ptr80, out_ptr82, out_ptr83, out_ptr85, out_ptr86, out_ptr88, out_ptr89, out_ptr91, out_ptr92):
    pid = tl.program_id(0)
    XBLOCK: tl.constexpr = 1024
    num_xblocks_0 = tl.cdiv(216, XBLOCK)
    num_xblocks_1 = num_xblocks_0 + tl.cdiv(8, XBLOCK)
    num_xblocks_2 = num_xblocks_1 + tl.cdiv(8, XBLOCK)
    num_xblocks_3 = num_xblocks_2 + tl.cdiv(72, XBLOCK)
    num_xblocks_4 = num_xblocks_3 + tl.cdiv(8, XBLOCK)
    num_xblocks_5 = num_xblocks_4 + tl.cdiv(8, XBLOCK)
    num_xblocks_6 = num_xblocks_5 + tl.cdiv(64, XBLOCK)
    num_xblocks_7 = num_xblocks_6 + tl.cdiv(8, XBLOCK)
    num_xblocks_8 = num_xblocks_7 + tl.cdiv(8, XBLOCK)
    num_xblocks_9 = num_xblocks_8 + tl.cdiv(384, XBLOCK)
    num_xblocks_10 = num_xblocks_9 + tl.cdiv(48, XBLOCK)
    num_xblocks_11 = num_xblocks_10 + tl.cdiv(48, XBLOCK)
    num_xblocks_12 = num_xblocks_11 + tl.cdiv(432, XBLOCK)
    num_xblocks_13 = num_xblocks_12 + tl.cdiv(48, XBLOCK)
    num_xblocks_14 = num_xblocks_13 + tl.cdiv(48, XBLOCK)
    num_xblocks_15 = num_xblocks_14 + tl.cdiv(384, XBLOCK)
    num_xblocks_16 = num_xblocks_15 + tl.cdiv(8, XBLOCK)
    num_xblocks_17 = num_xblocks_16 + tl.cdiv(8, XBLOCK)
    num_xblocks_18 = num_xblocks_17 + tl.cdiv(384, XBLOCK)
    num_xblocks_19 = num_xblocks_18 + tl.cdiv(48, XBLOCK)
    num_xblocks_20 = num_xblocks_19 + tl.cdiv(48, XBLOCK)
    num_xblocks_21 = num_xblocks_20 + tl.cdiv(432, XBLOCK)
    num_xblocks_22 = num_xblocks_21 + tl.cdiv(48, XBLOCK)
    num_xblocks_23 = num_xblocks_22 + tl.cdiv(48, XBLOCK)
    num_xblocks_24 = num_xblocks_23 + tl.cdiv(384, XBLOCK)
    num_xblocks_25 = num_xblocks_24 + tl.cdiv(8, XBLOCK)
    num_xblocks_26 = num_xblocks_25 + tl.cdiv(8, XBLOCK)
    num_xblocks_27 = num_xblocks_26 + tl.cdiv(384, XBLOCK)
    num_xblocks_28 = num_xblocks_27 + tl.cdiv(48, XBLOCK)
    num_xblocks_29 = num_xblocks_28 + tl.cdiv(48, XBLOCK)
    num_xblocks_30 = num_xblocks_29 + tl.cdiv(432, XBLOCK)
    if pid < num_xblocks_0:
        pid_offset = pid
        xnumel = 216
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        x0 = xindex
        tmp0 = tl.load(in_ptr0 + (x0), xmask)
        tmp3 = tl.load(in_ptr1 + (x0), xmask)
        tmp5 = tl.load(in_ptr2 + (x0), xmask)
        tmp1 = tl.full([1], 0.9, tl.float32)
        tmp2 = tmp0 * tmp1
        tmp4 = tmp2 + tmp3
        tmp6 = tl.full([1], -0.01, tl.float32)
        tmp7 = tmp4 * tmp6
        tmp8 = tmp5 + tmp7
        tl.store(out_ptr1 + (x0), tmp8, xmask)
        tl.store(out_ptr2 + (x0), tmp4, xmask)
    elif pid < num_xblocks_1:
        pid_offset = pid - num_xblocks_0
        xnumel = 8
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        x1 = xindex
        tmp9 = tl.load(in_ptr3 + (x1), xmask)
        tmp12 = tl.load(in_ptr4 + (x1), xmask)
        tmp14 = tl.load(in_ptr5 + (x1), xmask)
        tmp10 = tl.full([1], 0.9, tl.float32)
        tmp11 = tmp9 * tmp10
        tmp13 = tmp11 + tmp12
        tmp15 = tl.full([1], -0.01, tl.float32)
        tmp16 = tmp13 * tmp15
        tmp17 = tmp14 + tmp16
        tl.store(out_ptr4 + (x1), tmp17, xmask)
        tl.store(out_ptr5 + (x1), tmp13, xmask)
    elif pid < num_xblocks_2:
        pid_offset = pid - num_xblocks_1
        xnumel = 8
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        x2 = xindex
        tmp18 = tl.load(in_ptr6 + (x2), xmask)
        tmp21 = tl.load(in_ptr7 + (x2), xmask)
        tmp23 = tl.load(in_ptr8 + (x2), xmask)
        tmp19 = tl.full([1], 0.9, tl.float32)
        tmp20 = tmp18 * tmp19
        tmp22 = tmp20 + tmp21
        tmp24 = tl.full([1], -0.01, tl.float32)
        tmp25 = tmp22 * tmp24
        tmp26 = tmp23 + tmp25
        tl.store(out_ptr7 + (x2), tmp26, xmask)
        tl.store(out_ptr8 + (x2), tmp22, xmask)
    elif pid < num_xblocks_3:
        pid_offset = pid - num_xblocks_2
        xnumel = 72
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        x3 = xindex
        tmp27 = tl.load(in_ptr9 + (x3), xmask)
        tmp30 = tl.load(in_ptr10 + (x3), xmask)
        tmp32 = tl.load(in_ptr11 + (x3), xmask)
        tmp28 = tl.full([1], 0.9, tl.float32)
        tmp29 = tmp27 * tmp28
        tmp31 = tmp29 + tmp30
        tmp33 = tl.full([1], -0.01, tl.float32)
        tmp34 = tmp31 * tmp33
        tmp35 = tmp32 + tmp34
        tl.store(out_ptr10 + (x3), tmp35, xmask)
        tl.store(out_ptr11 + (x3), tmp31, xmask)
    elif pid < num_xblocks_4:
        pid_offset = pid - num_xblocks_3
        xnumel = 8
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        x4 = xindex
        tmp36 = tl.load(in_ptr12 + (x4), xmask)
        tmp39 = tl.load(in_ptr13 + (x4), xmask)
        tmp41 = tl.load(in_ptr14 + (x4), xmask)
        tmp37 = tl.full([1], 0.9, tl.float32)
        tmp38 = tmp36 * tmp37
        tmp40 = tmp38 + tmp39
        tmp42 = tl.full([1], -0.01, tl.float32)
        tmp43 = tmp40 * tmp42
        tmp44 = tmp41 + tmp43
        tl.store(out_ptr13 + (x4), tmp44, xmask)
        tl.store(out_ptr14 + (x4), tmp40, xmask)
    elif pid < num_xblocks_5:
        pid_offset = pid - num_xblocks_4
        xnumel = 8
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        x5 = xindex
        tmp45 = tl.load(in_ptr15 + (x5), xmask)
        tmp48 = tl.load(in_ptr16 + (x5), xmask)
        tmp50 = tl.load(in_ptr17 + (x5), xmask)
        tmp46 = tl.full([1], 0.9, tl.float32)
        tmp47 = tmp45 * tmp46
        tmp49 = tmp47 + tmp48
        tmp51 = tl.full([1], -0.01, tl.float32)
        tmp52 = tmp49 * tmp51
        tmp53 = tmp50 + tmp52
        tl.store(out_ptr16 + (x5), tmp53, xmask)
        tl.store(out_ptr17 + (x5), tmp49, xmask)
    elif pid < num_xblocks_6:
        pid_offset = pid - num_xblocks_5
        xnumel = 64
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        x6 = xindex
        tmp54 = tl.load(in_ptr18 + (x6), xmask)
        tmp57 = tl.load(in_ptr19 + (x6), xmask)
        tmp59 = tl.load(in_ptr20 + (x6), xmask)
        tmp55 = tl.full([1], 0.9, tl.float32)
        tmp56 = tmp54 * tmp55
        tmp58 = tmp56 + tmp57
        tmp60 = tl.full([1], -0.01, tl.float32)
        tmp61 = tmp58 * tmp60
        tmp62 = tmp59 + tmp61
        tl.store(out_ptr19 + (x6), tmp62, xmask)
        tl.store(out_ptr20 + (x6), tmp58, xmask)
    elif pid < num_xblocks_7:
        pid_offset = pid - num_xblocks_6
        xnumel = 8
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        x7 = xindex
        tmp63 = tl.load(in_ptr21 + (x7), xmask)
        tmp66 = tl.load(in_ptr22 + (x7), xmask)
        tmp68 = tl.load(in_ptr23 + (x7), xmask)
        tmp64 = tl.full([1], 0.9, tl.float32)
        tmp65 = tmp63 * tmp64
        tmp67 = tmp65 + tmp66
        tmp69 = tl.full([1], -0.01, tl.float32)
        tmp70 = tmp67 * tmp69
        tmp71 = tmp68 + tmp70
        tl.store(out_ptr22 + (x7), tmp71, xmask)
        tl.store(out_ptr23 + (x7), tmp67, xmask)
    elif pid < num_xblocks_8:
        pid_offset = pid - num_xblocks_7
        xnumel = 8
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        x8 = xindex
        tmp72 = tl.load(in_ptr24 + (x8), xmask)
        tmp75 = tl.load(in_ptr25 + (x8), xmask)
        tmp77 = tl.load(in_ptr26 + (x8), xmask)
        tmp73 = tl.full([1], 0.9, tl.float32)
        tmp74 = tmp72 * tmp73
        tmp76 = tmp74 + tmp75
        tmp78 = tl.full([1], -0.01, tl.float32)
        tmp79 = tmp76 * tmp78
        tmp80 = tmp77 + tmp79
        tl.store(out_ptr25 + (x8), tmp80, xmask)
        tl.store(out_ptr26 + (x8), tmp76, xmask)
    elif pid < num_xblocks_9:
        pid_offset = pid - num_xblocks_8
        xnumel = 384
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        x9 = xindex
        tmp81 = tl.load(in_ptr27 + (x9), xmask)
        tmp84 = tl.load(in_ptr28 + (x9), xmask)
        tmp86 = tl.load(in_ptr29 + (x9), xmask)
        tmp82 = tl.full([1], 0.9, tl.float32)
        tmp83 = tmp81 * tmp82
        tmp85 = tmp83 + tmp84
        tmp87 = tl.full([1], -0.01, tl.float32)
        tmp88 = tmp85 * tmp87
        tmp89 = tmp86 + tmp88
        tl.store(out_ptr28 + (x9), tmp89, xmask)
        tl.store(out_ptr29 + (x9), tmp85, xmask)
    elif pid < num_xblocks_10:
        pid_offset = pid - num_xblocks_9
        xnumel = 48
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        x10 = xindex
        tmp90 = tl.load(in_ptr30 + (x10), xmask)
        tmp93 = tl.load(in_ptr31 + (x10), xmask)
        tmp95 = tl.load(in_ptr32 + (x10), xmask)
        tmp91 = tl.full([1], 0.9, tl.float32)
        tmp92 = tmp90 * tmp91
        tmp94 = tmp92 + tmp93
        tmp96 = tl.full([1], -0.01, tl.float32)
        tmp97 = tmp94 * tmp96
        tmp98 = tmp95 + tmp97
        tl.store(out_ptr31 + (x10), tmp98, xmask)
        tl.store(out_ptr32 + (x10), tmp94, xmask)
    elif pid < num_xblocks_11:
        pid_offset = pid - num_xblocks_10
        xnumel = 48
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        x11 = xindex
        tmp99 = tl.load(in_ptr33 + (x11), xmask)
        tmp102 = tl.load(in_ptr34 + (x11), xmask)
        tmp104 = tl.load(in_ptr35 + (x11), xmask)
        tmp100 = tl.full([1], 0.9, tl.float32)
        tmp101 = tmp99 * tmp100
        tmp103 = tmp101 + tmp102
        tmp105 = tl.full([1], -0.01, tl.float32)
        tmp106 = tmp103 * tmp105
        tmp107 = tmp104 + tmp106
        tl.store(out_ptr34 + (x11), tmp107, xmask)
        tl.store(out_ptr35 + (x11), tmp103, xmask)
    elif pid < num_xblocks_12:
        pid_offset = pid - num_xblocks_11
        xnumel = 432
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        x12 = xindex
        tmp108 = tl.load(in_ptr36 + (x12), xmask)
        tmp111 = tl.load(in_ptr37 + (x12), xmask)
        tmp113 = tl.load(in_ptr38 + (x12), xmask)
        tmp109 = tl.full([1], 0.9, tl.float32)
        tmp110 = tmp108 * tmp109
        tmp112 = tmp110 + tmp111
        tmp114 = tl.full([1], -0.01, tl.float32)
        tmp115 = tmp112 * tmp114
        tmp116 = tmp113 + tmp115
        tl.store(out_ptr37 + (x12), tmp116, xmask)
        tl.store(out_ptr38 + (x12), tmp112, xmask)
    elif pid < num_xblocks_13:
        pid_offset = pid - num_xblocks_12
        xnumel = 48
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        x13 = xindex
        tmp117 = tl.load(in_ptr39 + (x13), xmask)
        tmp120 = tl.load(in_ptr40 + (x13), xmask)
        tmp122 = tl.load(in_ptr41 + (x13), xmask)
        tmp118 = tl.full([1], 0.9, tl.float32)
        tmp119 = tmp117 * tmp118
        tmp121 = tmp119 + tmp120
        tmp123 = tl.full([1], -0.01, tl.float32)
        tmp124 = tmp121 * tmp123
        tmp125 = tmp122 + tmp124
        tl.store(out_ptr40 + (x13), tmp125, xmask)
        tl.store(out_ptr41 + (x13), tmp121, xmask)
    elif pid < num_xblocks_14:
        pid_offset = pid - num_xblocks_13
        xnumel = 48
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        x14 = xindex
        tmp126 = tl.load(in_ptr42 + (x14), xmask)
        tmp129 = tl.load(in_ptr43 + (x14), xmask)
        tmp131 = tl.load(in_ptr44 + (x14), xmask)
        tmp127 = tl.full([1], 0.9, tl.float32)
        tmp128 = tmp126 * tmp127
        tmp130 = tmp128 + tmp129
        tmp132 = tl.full([1], -0.01, tl.float32)
        tmp133 = tmp130 * tmp132
        tmp134 = tmp131 + tmp133
        tl.store(out_ptr43 + (x14), tmp134, xmask)
        tl.store(out_ptr44 + (x14), tmp130, xmask)
    elif pid < num_xblocks_15:
        pid_offset = pid - num_xblocks_14
        xnumel = 384
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        x15 = xindex
        tmp135 = tl.load(in_ptr45 + (x15), xmask)
        tmp138 = tl.load(in_ptr46 + (x15), xmask)
        tmp140 = tl.load(in_ptr47 + (x15), xmask)
        tmp136 = tl.full([1], 0.9, tl.float32)
        tmp137 = tmp135 * tmp136
        tmp139 = tmp137 + tmp138
        tmp141 = tl.full([1], -0.01, tl.float32)
        tmp142 = tmp139 * tmp141
        tmp143 = tmp140 + tmp142
        tl.store(out_ptr46 + (x15), tmp143, xmask)
        tl.store(out_ptr47 + (x15), tmp139, xmask)
    elif pid < num_xblocks_16:
        pid_offset = pid - num_xblocks_15
        xnumel = 8
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        x16 = xindex
        tmp144 = tl.load(in_ptr48 + (x16), xmask)
        tmp147 = tl.load(in_ptr49 + (x16), xmask)
        tmp149 = tl.load(in_ptr50 + (x16), xmask)
        tmp145 = tl.full([1], 0.9, tl.float32)
        tmp146 = tmp144 * tmp145
        tmp148 = tmp146 + tmp147
        tmp150 = tl.full([1], -0.01, tl.float32)
        tmp151 = tmp148 * tmp150
        tmp152 = tmp149 + tmp151
        tl.store(out_ptr49 + (x16), tmp152, xmask)
        tl.store(out_ptr50 + (x16), tmp148, xmask)
    elif pid < num_xblocks_17:
        pid_offset = pid - num_xblocks_16
        xnumel = 8
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        x17 = xindex
        tmp153 = tl.load(in_ptr51 + (x17), xmask)
        tmp156 = tl.load(in_ptr52 + (x17), xmask)
        tmp158 = tl.load(in_ptr53 + (x17), xmask)
        tmp154 = tl.full([1], 0.9, tl.float32)
        tmp155 = tmp153 * tmp154
        tmp157 = tmp155 + tmp156
        tmp159 = tl.full([1], -0.01, tl.float32)
        tmp160 = tmp157 * tmp159
        tmp161 = tmp158 + tmp160
        tl.store(out_ptr52 + (x17), tmp161, xmask)
        tl.store(out_ptr53 + (x17), tmp157, xmask)
    elif pid < num_xblocks_18:
        pid_offset = pid - num_xblocks_17
        xnumel = 384
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        x18 = xindex
        tmp162 = tl.load(in_ptr54 + (x18), xmask)
        tmp165 = tl.load(in_ptr55 + (x18), xmask)
        tmp167 = tl.load(in_ptr56 + (x18), xmask)
        tmp163 = tl.full([1], 0.9, tl.float32)
        tmp164 = tmp162 * tmp163
        tmp166 = tmp164 + tmp165
        tmp168 = tl.full([1], -0.01, tl.float32)
        tmp169 = tmp166 * tmp168
        tmp170 = tmp167 + tmp169
        tl.store(out_ptr55 + (x18), tmp170, xmask)
        tl.store(out_ptr56 + (x18), tmp166, xmask)
    elif pid < num_xblocks_19:
        pid_offset = pid - num_xblocks_18
        xnumel = 48
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        x19 = xindex
        tmp171 = tl.load(in_ptr57 + (x19), xmask)
        tmp174 = tl.load(in_ptr58 + (x19), xmask)
        tmp176 = tl.load(in_ptr59 + (x19), xmask)
        tmp172 = tl.full([1], 0.9, tl.float32)
        tmp173 = tmp171 * tmp172
        tmp175 = tmp173 + tmp174
        tmp177 = tl.full([1], -0.01, tl.float32)
        tmp178 = tmp175 * tmp177
        tmp179 = tmp176 + tmp178
        tl.store(out_ptr58 + (x19), tmp179, xmask)
        tl.store(out_ptr59 + (x19), tmp175, xmask)
    elif pid < num_xblocks_20:
        pid_offset = pid - num_xblocks_19
        xnumel = 48
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        x20 = xindex
        tmp180 = tl.load(in_ptr60 + (x20), xmask)
        tmp183 = tl.load(in_ptr61 + (x20), xmask)
        tmp185 = tl.load(in_ptr62 + (x20), xmask)
        tmp181 = tl.full([1], 0.9, tl.float32)
        tmp182 = tmp180 * tmp181
        tmp184 = tmp182 + tmp183
        tmp186 = tl.full([1], -0.01, tl.float32)
        tmp187 = tmp184 * tmp186
        tmp188 = tmp185 + tmp187
        tl.store(out_ptr61 + (x20), tmp188, xmask)
        tl.store(out_ptr62 + (x20), tmp184, xmask)
    elif pid < num_xblocks_21:
        pid_offset = pid - num_xblocks_20
        xnumel = 432
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        x21 = xindex
        tmp189 = tl.load(in_ptr63 + (x21), xmask)
        tmp192 = tl.load(in_ptr64 + (x21), xmask)
        tmp194 = tl.load(in_ptr65 + (x21), xmask)
        tmp190 = tl.full([1], 0.9, tl.float32)
        tmp191 = tmp189 * tmp190
        tmp193 = tmp191 + tmp192
        tmp195 = tl.full([1], -0.01, tl.float32)
        tmp196 = tmp193 * tmp195
        tmp197 = tmp194 + tmp196
        tl.store(out_ptr64 + (x21), tmp197, xmask)
        tl.store(out_ptr65 + (x21), tmp193, xmask)
    elif pid < num_xblocks_22:
        pid_offset = pid - num_xblocks_21
        xnumel = 48
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        x22 = xindex
        tmp198 = tl.load(in_ptr66 + (x22), xmask)
        tmp201 = tl.load(in_ptr67 + (x22), xmask)
        tmp203 = tl.load(in_ptr68 + (x22), xmask)
        tmp199 = tl.full([1], 0.9, tl.float32)
        tmp200 = tmp198 * tmp199
        tmp202 = tmp200 + tmp201
        tmp204 = tl.full([1], -0.01, tl.float32)
        tmp205 = tmp202 * tmp204
        tmp206 = tmp203 + tmp205
        tl.store(out_ptr67 + (x22), tmp206, xmask)
        tl.store(out_ptr68 + (x22), tmp202, xmask)
    elif pid < num_xblocks_23:
        pid_offset = pid - num_xblocks_22
        xnumel = 48
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        x23 = xindex
        tmp207 = tl.load(in_ptr69 + (x23), xmask)
        tmp210 = tl.load(in_ptr70 + (x23), xmask)
        tmp212 = tl.load(in_ptr71 + (x23), xmask)
        tmp208 = tl.full([1], 0.9, tl.float32)
        tmp209 = tmp207 * tmp208
        tmp211 = tmp209 + tmp210
        tmp213 = tl.full([1], -0.01, tl.float32)
        tmp214 = tmp211 * tmp213
        tmp215 = tmp212 + tmp214
        tl.store(out_ptr70 + (x23), tmp215, xmask)
        tl.store(out_ptr71 + (x23), tmp211, xmask)
    elif pid < num_xblocks_24:
        pid_offset = pid - num_xblocks_23
        xnumel = 384
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        x24 = xindex
        tmp216 = tl.load(in_ptr72 + (x24), xmask)
        tmp219 = tl.load(in_ptr73 + (x24), xmask)
        tmp221 = tl.load(in_ptr74 + (x24), xmask)
        tmp217 = tl.full([1], 0.9, tl.float32)
        tmp218 = tmp216 * tmp217
        tmp220 = tmp218 + tmp219
        tmp222 = tl.full([1], -0.01, tl.float32)
        tmp223 = tmp220 * tmp222
        tmp224 = tmp221 + tmp223
        tl.store(out_ptr73 + (x24), tmp224, xmask)
        tl.store(out_ptr74 + (x24), tmp220, xmask)
    elif pid < num_xblocks_25:
        pid_offset = pid - num_xblocks_24
        xnumel = 8
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        x25 = xindex
        tmp225 = tl.load(in_ptr75 + (x25), xmask)
        tmp228 = tl.load(in_ptr76 + (x25), xmask)
        tmp230 = tl.load(in_ptr77 + (x25), xmask)
        tmp226 = tl.full([1], 0.9, tl.float32)
        tmp227 = tmp225 * tmp226
        tmp229 = tmp227 + tmp228
        tmp231 = tl.full([1], -0.01, tl.float32)
        tmp232 = tmp229 * tmp231
        tmp233 = tmp230 + tmp232
        tl.store(out_ptr76 + (x25), tmp233, xmask)
        tl.store(out_ptr77 + (x25), tmp229, xmask)
    elif pid < num_xblocks_26:
        pid_offset = pid - num_xblocks_25
        xnumel = 8
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        x26 = xindex
        tmp234 = tl.load(in_ptr78 + (x26), xmask)
        tmp237 = tl.load(in_ptr79 + (x26), xmask)
        tmp239 = tl.load(in_ptr80 + (x26), xmask)
        tmp235 = tl.full([1], 0.9, tl.float32)
        tmp236 = tmp234 * tmp235
        tmp238 = tmp236 + tmp237
        tmp240 = tl.full([1], -0.01, tl.float32)
        tmp241 = tmp238 * tmp240
        tmp242 = tmp239 + tmp241
        tl.store(out_ptr79 + (x26), tmp242, xmask)
        tl.store(out_ptr80 + (x26), tmp238, xmask)
    elif pid < num_xblocks_27:
        pid_offset = pid - num_xblocks_26
        xnumel = 384
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        x27 = xindex
        tmp243 = tl.load(in_ptr81 + (x27), xmask)
        tmp246 = tl.load(in_ptr82 + (x27), xmask)
        tmp248 = tl.load(in_ptr83 + (x27), xmask)
        tmp244 = tl.full([1], 0.9, tl.float32)
        tmp245 = tmp243 * tmp244
        tmp247 = tmp245 + tmp246
        tmp249 = tl.full([1], -0.01, tl.float32)
        tmp250 = tmp247 * tmp249
        tmp251 = tmp248 + tmp250
        tl.store(out_ptr82 + (x27), tmp251, xmask)
        tl.store(out_ptr83 + (x27), tmp247, xmask)
    elif pid < num_xblocks_28:
        pid_offset = pid - num_xblocks_27
        xnumel = 48
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        x28 = xindex
        tmp252 = tl.load(in_ptr84 + (x28), xmask)
        tmp255 = tl.load(in_ptr85 + (x28), xmask)
        tmp257 = tl.load(in_ptr86 + (x28), xmask)
        tmp253 = tl.full([1], 0.9, tl.float32)
        tmp254 = tmp252 * tmp253
        tmp256 = tmp254 + tmp255
        tmp258 = tl.full([1], -0.01, tl.float32)
        tmp259 = tmp256 * tmp258
        tmp260 = tmp257 + tmp259
        tl.store(out_ptr85 + (x28), tmp260, xmask)
        tl.store(out_ptr86 + (x28), tmp256, xmask)
    elif pid < num_xblocks_29:
        pid_offset = pid - num_xblocks_28
        xnumel = 48
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        x29 = xindex
        tmp261 = tl.load(in_ptr87 + (x29), xmask)
        tmp264 = tl.load(in_ptr88 + (x29), xmask)
        tmp266 = tl.load(in_ptr89 + (x29), xmask)
        tmp262 = tl.full([1], 0.9, tl.float32)
        tmp263 = tmp261 * tmp262
        tmp265 = tmp263 + tmp264
        tmp267 = tl.full([1], -0.01, tl.float32)
        tmp268 = tmp265 * tmp267
        tmp269 = tmp266 + tmp268
        tl.store(out_ptr88 + (x29), tmp269, xmask)
        tl.store(out_ptr89 + (x29), tmp265, xmask)
    elif pid < num_xblocks_30:
        pid_offset = pid - num_xblocks_29
        xnumel = 432
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        x30 = xindex
        tmp270 = tl.load(in_ptr90 + (x30), xmask)
        tmp273 = tl.load(in_ptr91 + (x30), xmask)
        tmp275 = tl.load(in_ptr92 + (x30), xmask)
        tmp271 = tl.full([1], 0.9, tl.float32)
        tmp272 = tmp270 * tmp271
        tmp274 = tmp272 + tmp273
        tmp276 = tl.full([1], -0.01, tl.float32)
        tmp277 = tmp274 * tmp276
        tmp278 = tmp275 + tmp277
        tl.store(out_ptr91 + (x30), tmp278, xmask)
        tl.store(out_ptr92 + (x30), tmp274, xmask)
    else:
        pass
