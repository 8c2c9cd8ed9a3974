
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 64, 'r0_': 128},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp16', 'in_ptr1': '*bf16', 'in_ptr2': '*fp32', 'out_ptr2': '*fp16', 'out_ptr3': '*bf16', 'out_ptr4': '*fp32', 'out_ptr5': '*fp32', 'out_ptr6': '*fp16', 'out_ptr7': '*fp16', 'out_ptr8': '*fp16', 'out_ptr9': '*bf16', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]], (8,): [['tt.divisibility', 16]], (9,): [['tt.divisibility', 16]], (10,): [['tt.divisibility', 16]], (11,): [['tt.divisibility', 16]], (12,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused__softmax__to_copy_add_exp_mul_prepare_softmax_online_relu_sub_sum_0', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 3, 'num_store': 8, 'num_reduction': 5, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 256, 'r0_': 360448}}
)
@triton.jit
def triton_per_fused__softmax__to_copy_add_exp_mul_prepare_softmax_online_relu_sub_sum_0(in_ptr0, in_ptr1, in_ptr2, out_ptr2, out_ptr3, out_ptr4, out_ptr5, out_ptr6, out_ptr7, out_ptr8, out_ptr9, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 64
    r0_numel = 128
    R0_BLOCK: tl.constexpr = 128
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = tl.full([R0_BLOCK], True, tl.int1)[None, :]
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (r0_1 + 128*x0), xmask, other=0.0).to(tl.float32)
    tmp17 = tl.load(in_ptr1 + (r0_1 + 128*x0), xmask, other=0.0).to(tl.float32)
    tmp25 = tl.load(in_ptr2 + (r0_1 + 128*x0), xmask, other=0.0)
    tmp1 = tmp0.to(tl.float32)
    tmp2 = tl.broadcast_to(tmp1, [XBLOCK, R0_BLOCK])
    tmp4 = tl.broadcast_to(tmp2, [XBLOCK, R0_BLOCK])
    tmp6 = tl.where(xmask, tmp4, float("-inf"))
    tmp7 = triton_helpers.max2(tmp6, 1)[:, None].to(tl.float32)
    tmp8 = tmp2 - tmp7
    tmp9 = libdevice.exp(tmp8)
    tmp10 = tl.broadcast_to(tmp9, [XBLOCK, R0_BLOCK])
    tmp12 = tl.where(xmask, tmp10, 0)
    tmp13 = tl.sum(tmp12, 1)[:, None].to(tl.float32)
    tmp14 = tmp0 * tmp0
    tmp15 = tl.full([1, 1], 3.0, tl.float32)
    tmp16 = tmp14 - tmp15
    tmp18 = tl.full([1, 1], 2.0, tl.float32)
    tmp19 = tmp17 * tmp18
    tmp20 = tl.full([1, 1], 1.0, tl.float32)
    tmp21 = tmp19 + tmp20
    tmp22 = tl.full([1, 1], 0, tl.int32)
    tmp23 = triton_helpers.maximum(tmp22, tmp21)
    tmp24 = tmp17.to(tl.float32)
    tmp26 = tmp24 + tmp25
    tmp27 = tmp25.to(tl.float32)
    tmp28 = tmp27 * tmp17
    tmp29 = tmp28.to(tl.float32)
    tmp30 = tmp24 + tmp0
    tmp31 = tmp1 - tmp7
    tmp32 = libdevice.exp(tmp31)
    tmp33 = (tmp32 / tmp13)
    tmp34 = tmp33.to(tl.float32)
    tmp35 = libdevice.exp(tmp0)
    tmp36 = tl.broadcast_to(tmp17, [XBLOCK, R0_BLOCK])
    tmp38 = tl.where(xmask, tmp36, 0)
    tmp39 = tl.sum(tmp38, 1)[:, None].to(tl.float32)
    tl.store(out_ptr2 + (r0_1 + 128*x0), tmp16, xmask)
    tl.store(out_ptr3 + (r0_1 + 128*x0), tmp23, xmask)
    tl.store(out_ptr4 + (r0_1 + 128*x0), tmp26, xmask)
    tl.store(out_ptr5 + (r0_1 + 128*x0), tmp29, xmask)
    tl.store(out_ptr6 + (r0_1 + 128*x0), tmp30, xmask)
    tl.store(out_ptr7 + (r0_1 + 128*x0), tmp34, xmask)
    tl.store(out_ptr8 + (r0_1 + 128*x0), tmp35, xmask)
    tl.store(out_ptr9 + (x0), tmp39, xmask)
