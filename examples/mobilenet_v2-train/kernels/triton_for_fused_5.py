
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties

@triton_heuristics.foreach(
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'in_ptr3': '*fp32', 'in_ptr4': '*fp32', 'in_ptr5': '*fp32', 'in_ptr6': '*fp32', 'in_ptr7': '*fp32', 'in_ptr8': '*fp32', 'out_ptr1': '*fp32', 'out_ptr2': '*fp32', 'out_ptr4': '*fp32', 'out_ptr5': '*fp32', 'out_ptr7': '*fp32', 'out_ptr8': '*fp32'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'enable_fp_fusion': True, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]], (8,): [['tt.divisibility', 16]], (9,): [['tt.divisibility', 16]], (10,): [['tt.divisibility', 16]], (11,): [['tt.divisibility', 16]], (12,): [['tt.divisibility', 16]], (13,): [['tt.divisibility', 16]], (14,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'SequentialComboKernelGrid', 'combo_grid_meta': {'num_kernels': 3, 'min_blocks': 0, 'default_config': {'XBLOCK': 1024}, 'no_x_dim_0': False, 'xnumel_0': 1280, 'no_x_dim_1': False, 'xnumel_1': 12800, 'no_x_dim_2': False, 'xnumel_2': 10}, 'kernel_name': 'triton_for_fused_5', 'mutated_arg_names': ['in_ptr0', 'in_ptr2', 'in_ptr3', 'in_ptr5', 'in_ptr6', 'in_ptr8', 'out_ptr1', 'out_ptr2', 'out_ptr4', 'out_ptr5', 'out_ptr7', 'out_ptr8'], 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': True, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': True},
)
@triton.jit
def triton_for_fused_5(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, in_ptr6, in_ptr7, in_ptr8, out_ptr1, out_ptr2, out_ptr4, out_ptr5, out_ptr7, out_ptr8):
    pid = tl.program_id(0)
    XBLOCK: tl.constexpr = 1024
    num_xblocks_0 = tl.cdiv(1280, XBLOCK)
    num_xblocks_1 = num_xblocks_0 + tl.cdiv(12800, XBLOCK)
    num_xblocks_2 = num_xblocks_1 + tl.cdiv(10, XBLOCK)
    if pid < num_xblocks_0:
        pid_offset = pid
        xnumel = 1280
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
        xnumel = 12800
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
        xnumel = 10
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
    else:
        pass
