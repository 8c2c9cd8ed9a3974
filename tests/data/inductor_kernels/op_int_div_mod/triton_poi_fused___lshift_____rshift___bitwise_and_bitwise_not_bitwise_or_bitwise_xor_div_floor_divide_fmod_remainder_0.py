
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 1024}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*i64', 'in_ptr1': '*i64', 'out_ptr0': '*i64', 'out_ptr1': '*i64', 'out_ptr2': '*i64', 'out_ptr3': '*i64', 'out_ptr4': '*i64', 'out_ptr5': '*fp32', 'out_ptr6': '*i64', 'out_ptr7': '*i64', 'out_ptr8': '*i64', 'out_ptr9': '*i64', 'out_ptr10': '*i64', 'out_ptr11': '*i64', 'out_ptr12': '*i64', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]], (8,): [['tt.divisibility', 16]], (9,): [['tt.divisibility', 16]], (10,): [['tt.divisibility', 16]], (11,): [['tt.divisibility', 16]], (12,): [['tt.divisibility', 16]], (13,): [['tt.divisibility', 16]], (14,): [['tt.divisibility', 16]], (15,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused___lshift_____rshift___bitwise_and_bitwise_not_bitwise_or_bitwise_xor_div_floor_divide_fmod_remainder_0', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 2, 'num_store': 13, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 221184}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused___lshift_____rshift___bitwise_and_bitwise_not_bitwise_or_bitwise_xor_div_floor_divide_fmod_remainder_0(in_ptr0, in_ptr1, out_ptr0, out_ptr1, out_ptr2, out_ptr3, out_ptr4, out_ptr5, out_ptr6, out_ptr7, out_ptr8, out_ptr9, out_ptr10, out_ptr11, out_ptr12, xnumel, XBLOCK : tl.constexpr):
    xnumel = 1024
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0), xmask)
    tmp3 = tl.load(in_ptr1 + (x0), xmask)
    tmp1 = tl.full([1], 15, tl.int64)
    tmp2 = tmp0 & tmp1
    tmp4 = tl.where((tmp0 < 0) != (tmp3 < 0), tl.where(tmp0 % tmp3 != 0, tmp0 // tmp3 - 1, tmp0 // tmp3), tmp0 // tmp3)
    tmp5 = (tmp0 % tmp3)
    tmp6 = tl.full([1], 0, tl.int32)
    tmp7 = tmp5 != tmp6
    tmp8 = (libdevice.signbit(tmp5) != 0) if (tmp5).dtype is tl.float32 else tmp5 < 0
    tmp9 = (libdevice.signbit(tmp3) != 0) if (tmp3).dtype is tl.float32 else tmp3 < 0
    tmp10 = tmp8 != tmp9
    tmp11 = tmp7 & tmp10
    tmp12 = tmp5 + tmp3
    tmp13 = tl.where(tmp11, tmp12, tmp5)
    tmp14 = tmp0 // tmp3
    tmp15 = tmp0.to(tl.float32)
    tmp16 = tmp3.to(tl.float32)
    tmp17 = (tmp15 / tmp16)
    tmp18 = tmp0 | tmp3
    tmp19 = tmp0 ^ tmp3
    tmp20 = tl.full([1], 3, tl.int64)
    tmp21 = tl.where((tmp0 < 0) != (tmp20 < 0), tl.where(tmp0 % tmp20 != 0, tmp0 // tmp20 - 1, tmp0 // tmp20), tmp0 // tmp20)
    tmp22 = tl.full([1], 7, tl.int64)
    tmp23 = (tmp0 % tmp22)
    tmp24 = tmp23 != tmp6
    tmp25 = (libdevice.signbit(tmp23) != 0) if (tmp23).dtype is tl.float32 else tmp23 < 0
    tmp26 = (libdevice.signbit(tmp22) != 0) if (tmp22).dtype is tl.float32 else tmp22 < 0
    tmp27 = tmp25 != tmp26
    tmp28 = tmp24 & tmp27
    tmp29 = tmp23 + tmp22
    tmp30 = tl.where(tmp28, tmp29, tmp23)
    tmp31 = tl.full([1], 2, tl.int64)
    tmp32 = tmp0 << tmp31
    tmp33 = tl.full([1], 1, tl.int64)
    tmp34 = tmp0 >> tmp33
    tmp35 = ~tmp0
    tl.store(out_ptr0 + (x0), tmp2, xmask)
    tl.store(out_ptr1 + (x0), tmp4, xmask)
    tl.store(out_ptr2 + (x0), tmp13, xmask)
    tl.store(out_ptr3 + (x0), tmp14, xmask)
    tl.store(out_ptr4 + (x0), tmp5, xmask)
    tl.store(out_ptr5 + (x0), tmp17, xmask)
    tl.store(out_ptr6 + (x0), tmp18, xmask)
    tl.store(out_ptr7 + (x0), tmp19, xmask)
    tl.store(out_ptr8 + (x0), tmp21, xmask)
    tl.store(out_ptr9 + (x0), tmp30, xmask)
    tl.store(out_ptr10 + (x0), tmp32, xmask)
    tl.store(out_ptr11 + (x0), tmp34, xmask)
    tl.store(out_ptr12 + (x0), tmp35, xmask)
