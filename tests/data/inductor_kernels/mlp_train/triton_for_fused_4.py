
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties

@triton_heuristics.foreach(
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'in_ptr3': '*fp32', 'in_ptr4': '*fp32', 'in_ptr5': '*fp32', 'in_ptr6': '*fp32', 'in_ptr7': '*fp32', 'in_ptr8': '*fp32', 'in_ptr9': '*fp32', 'in_ptr10': '*fp32', 'in_ptr11': '*fp32', 'in_ptr12': '*fp32', 'in_ptr13': '*fp32', 'in_ptr14': '*fp32', 'in_ptr15': '*fp32', 'out_ptr0': '*fp32', 'out_ptr1': '*fp32', 'out_ptr2': '*fp32', 'out_ptr3': '*fp32', 'out_ptr4': '*fp32', 'out_ptr5': '*fp32', 'out_ptr6': '*fp32', 'out_ptr7': '*fp32', 'out_ptr8': '*fp32'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'enable_fp_fusion': True, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]], (8,): [['tt.divisibility', 16]], (9,): [['tt.divisibility', 16]], (10,): [['tt.divisibility', 16]], (11,): [['tt.divisibility', 16]], (12,): [['tt.divisibility', 16]], (13,): [['tt.divisibility', 16]], (14,): [['tt.divisibility', 16]], (15,): [['tt.divisibility', 16]], (16,): [['tt.divisibility', 16]], (17,): [['tt.divisibility', 16]], (18,): [['tt.divisibility', 16]], (19,): [['tt.divisibility', 16]], (20,): [['tt.divisibility', 16]], (21,): [['tt.divisibility', 16]], (22,): [['tt.divisibility', 16]], (23,): [['tt.divisibility', 16]], (24,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'SequentialComboKernelGrid', 'combo_grid_meta': {'num_kernels': 8, 'min_blocks': 0, 'default_config': {'XBLOCK': 1024}, 'no_x_dim_0': False, 'xnumel_0': 8192, 'no_x_dim_1': False, 'xnumel_1': 128, 'no_x_dim_2': False, 'xnumel_2': 16384, 'no_x_dim_3': False, 'xnumel_3': 128, 'no_x_dim_4': False, 'xnumel_4': 128, 'no_x_dim_5': False, 'xnumel_5': 128, 'no_x_dim_6': False, 'xnumel_6': 1280, 'no_x_dim_7': False, 'xnumel_7': 10}, 'kernel_name': 'triton_for_fused_4', 'mutated_arg_names': ['in_ptr0', 'in_ptr10', 'in_ptr12', 'in_ptr14', 'in_ptr2', 'in_ptr5', 'in_ptr6', 'in_ptr8', 'out_ptr0', 'out_ptr1', 'out_ptr3', 'out_ptr4', 'out_ptr5', 'out_ptr6', 'out_ptr7', 'out_ptr8'], 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False},
)
@triton.jit
def triton_for_fused_4(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, in_ptr6, in_ptr7, in_ptr8, in_ptr9, in_ptr10, in_ptr11, in_ptr12, in_ptr13, in_ptr14, in_ptr15, out_ptr0, out_ptr1, out_ptr2, out_ptr3, out_ptr4, out_ptr5, out_ptr6, out_ptr7, out_ptr8):
    pid = tl.program_id(0)
    XBLOCK: tl.constexpr = 1024
    num_xblocks_0 = tl.cdiv(8192, XBLOCK)
    num_xblocks_1 = num_xblocks_0 + tl.cdiv(128, XBLOCK)
    num_xblocks_2 = num_xblocks_1 + tl.cdiv(16384, XBLOCK)
    num_xblocks_3 = num_xblocks_2 + tl.cdiv(128, XBLOCK)
    num_xblocks_4 = num_xblocks_3 + tl.cdiv(128, XBLOCK)
    num_xblocks_5 = num_xblocks_4 + tl.cdiv(128, XBLOCK)
    num_xblocks_6 = num_xblocks_5 + tl.cdiv(1280, XBLOCK)
    num_xblocks_7 = num_xblocks_6 + tl.cdiv(10, XBLOCK)
    if pid < num_xblocks_0:
        pid_offset = pid
        xnumel = 8192
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = tl.full([XBLOCK], True, tl.int1)[:]
        x0 = xindex
        tmp0 = tl.load(in_ptr0 + (x0), None)
        tmp1 = tl.load(in_ptr1 + (x0), None)
        tmp2 = tl.full([1], -0.01, tl.float32)
        tmp3 = tmp1 * tmp2
        tmp4 = tmp0 + tmp3
        tl.store(out_ptr0 + (x0), tmp4, None)
    elif pid < num_xblocks_1:
        pid_offset = pid - num_xblocks_0
        xnumel = 128
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        x1 = xindex
        tmp5 = tl.load(in_ptr2 + (x1), xmask)
        tmp6 = tl.load(in_ptr3 + (x1), xmask)
        tmp7 = tl.full([1], -0.01, tl.float32)
        tmp8 = tmp6 * tmp7
        tmp9 = tmp5 + tmp8
        tl.store(out_ptr1 + (x1), tmp9, xmask)
    elif pid < num_xblocks_2:
        pid_offset = pid - num_xblocks_1
        xnumel = 16384
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = tl.full([XBLOCK], True, tl.int1)[:]
        x2 = xindex
        tmp10 = tl.load(in_ptr4 + (x2), None)
        tmp11 = tl.load(in_ptr5 + (x2), None)
        tmp12 = tl.full([1], -0.01, tl.float32)
        tmp13 = tmp10 * tmp12
        tmp14 = tmp11 + tmp13
        tl.store(out_ptr2 + (x2), tmp10, None)
        tl.store(out_ptr3 + (x2), tmp14, None)
    elif pid < num_xblocks_3:
        pid_offset = pid - num_xblocks_2
        xnumel = 128
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        x3 = xindex
        tmp15 = tl.load(in_ptr6 + (x3), xmask)
        tmp16 = tl.load(in_ptr7 + (x3), xmask)
        tmp17 = tl.full([1], -0.01, tl.float32)
        tmp18 = tmp16 * tmp17
        tmp19 = tmp15 + tmp18
        tl.store(out_ptr4 + (x3), tmp19, xmask)
    elif pid < num_xblocks_4:
        pid_offset = pid - num_xblocks_3
        xnumel = 128
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        x4 = xindex
        tmp20 = tl.load(in_ptr8 + (x4), xmask)
        tmp21 = tl.load(in_ptr9 + (x4), xmask)
        tmp22 = tl.full([1], -0.01, tl.float32)
        tmp23 = tmp21 * tmp22
        tmp24 = tmp20 + tmp23
        tl.store(out_ptr5 + (x4), tmp24, xmask)
    elif pid < num_xblocks_5:
        pid_offset = pid - num_xblocks_4
        xnumel = 128
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        x5 = xindex
        tmp25 = tl.load(in_ptr10 + (x5), xmask)
        tmp26 = tl.load(in_ptr11 + (x5), xmask)
        tmp27 = tl.full([1], -0.01, tl.float32)
        tmp28 = tmp26 * tmp27
        tmp29 = tmp25 + tmp28
        tl.store(out_ptr6 + (x5), tmp29, xmask)
    elif pid < num_xblocks_6:
        pid_offset = pid - num_xblocks_5
        xnumel = 1280
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        x6 = xindex
        tmp30 = tl.load(in_ptr12 + (x6), xmask)
        tmp31 = tl.load(in_ptr13 + (x6), xmask)
        tmp32 = tl.full([1], -0.01, tl.float32)
        tmp33 = tmp31 * tmp32
        tmp34 = tmp30 + tmp33
        tl.store(out_ptr7 + (x6), tmp34, xmask)
    elif pid < num_xblocks_7:
        pid_offset = pid - num_xblocks_6
        xnumel = 10
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        x7 = xindex
        tmp35 = tl.load(in_ptr14 + (x7), xmask)
        tmp36 = tl.load(in_ptr15 + (x7), xmask)
        tmp37 = tl.full([1], -0.01, tl.float32)
        tmp38 = tmp36 * tmp37
        tmp39 = tmp35 + tmp38
        tl.store(out_ptr8 + (x7), tmp39, xmask)
    else:
        pass
