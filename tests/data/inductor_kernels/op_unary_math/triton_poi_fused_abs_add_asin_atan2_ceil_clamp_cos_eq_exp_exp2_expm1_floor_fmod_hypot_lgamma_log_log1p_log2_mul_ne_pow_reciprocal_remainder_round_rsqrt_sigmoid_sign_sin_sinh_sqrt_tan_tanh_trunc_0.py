
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 16384}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'out_ptr0': '*fp32', 'out_ptr1': '*fp32', 'out_ptr2': '*fp32', 'out_ptr3': '*fp32', 'out_ptr4': '*fp32', 'out_ptr5': '*fp32', 'out_ptr6': '*fp32', 'out_ptr7': '*fp32', 'out_ptr8': '*fp32', 'out_ptr9': '*fp32', 'out_ptr10': '*fp32', 'out_ptr11': '*fp32', 'out_ptr12': '*fp32', 'out_ptr13': '*fp32', 'out_ptr14': '*fp32', 'out_ptr15': '*fp32', 'out_ptr16': '*fp32', 'out_ptr17': '*fp32', 'out_ptr18': '*fp32', 'out_ptr19': '*fp32', 'out_ptr20': '*fp32', 'out_ptr21': '*fp32', 'out_ptr22': '*fp32', 'out_ptr23': '*fp32', 'out_ptr24': '*fp32', 'out_ptr25': '*fp32', 'out_ptr26': '*fp32', 'out_ptr27': '*fp32', 'out_ptr28': '*fp32', 'out_ptr29': '*fp32', 'out_ptr30': '*i1', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]], (8,): [['tt.divisibility', 16]], (9,): [['tt.divisibility', 16]], (10,): [['tt.divisibility', 16]], (11,): [['tt.divisibility', 16]], (12,): [['tt.divisibility', 16]], (13,): [['tt.divisibility', 16]], (14,): [['tt.divisibility', 16]], (15,): [['tt.divisibility', 16]], (16,): [['tt.divisibility', 16]], (17,): [['tt.divisibility', 16]], (18,): [['tt.divisibility', 16]], (19,): [['tt.divisibility', 16]], (20,): [['tt.divisibility', 16]], (21,): [['tt.divisibility', 16]], (22,): [['tt.divisibility', 16]], (23,): [['tt.divisibility', 16]], (24,): [['tt.divisibility', 16]], (25,): [['tt.divisibility', 16]], (26,): [['tt.divisibility', 16]], (27,): [['tt.divisibility', 16]], (28,): [['tt.divisibility', 16]], (29,): [['tt.divisibility', 16]], (30,): [['tt.divisibility', 16]], (31,): [['tt.divisibility', 16]], (32,): [['tt.divisibility', 16]], (33,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_abs_add_asin_atan2_ceil_clamp_cos_eq_exp_exp2_expm1_floor_fmod_hypot_lgamma_log_log1p_log2_mul_ne_pow_reciprocal_remainder_round_rsqrt_sigmoid_sign_sin_sinh_sqrt_tan_tanh_trunc_0', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 2, 'num_store': 31, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 4096000}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_abs_add_asin_atan2_ceil_clamp_cos_eq_exp_exp2_expm1_floor_fmod_hypot_lgamma_log_log1p_log2_mul_ne_pow_reciprocal_remainder_round_rsqrt_sigmoid_sign_sin_sinh_sqrt_tan_tanh_trunc_0(in_ptr0, in_ptr1, out_ptr0, out_ptr1, out_ptr2, out_ptr3, out_ptr4, out_ptr5, out_ptr6, out_ptr7, out_ptr8, out_ptr9, out_ptr10, out_ptr11, out_ptr12, out_ptr13, out_ptr14, out_ptr15, out_ptr16, out_ptr17, out_ptr18, out_ptr19, out_ptr20, out_ptr21, out_ptr22, out_ptr23, out_ptr24, out_ptr25, out_ptr26, out_ptr27, out_ptr28, out_ptr29, out_ptr30, xnumel, XBLOCK : tl.constexpr):
    xnumel = 16384
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0), None)
    tmp30 = tl.load(in_ptr1 + (x0), None)
    tmp1 = tl_math.sin(tmp0)
    tmp2 = tl_math.cos(tmp0)
    tmp3 = libdevice.tan(tmp0)
    tmp4 = libdevice.tanh(tmp0)
    tmp5 = tl.sigmoid(tmp0)
    tmp6 = libdevice.exp(tmp0)
    tmp7 = libdevice.exp2(tmp0)
    tmp8 = tl_math.abs(tmp0)
    tmp9 = tl.full([1], 0.1, tl.float32)
    tmp10 = tmp8 + tmp9
    tmp11 = tl_math.log(tmp10)
    tmp12 = libdevice.log2(tmp10)
    tmp13 = libdevice.log1p(tmp10)
    tmp14 = libdevice.expm1(tmp0)
    tmp15 = tl.sqrt_rn(tmp10)
    tmp16 = libdevice.rsqrt(tmp10)
    tmp17 = tl.full([1], 0, tl.int32)
    tmp18 = tmp17 < tmp0
    tmp19 = tmp18.to(tl.int8)
    tmp20 = tmp0 < tmp17
    tmp21 = tmp20.to(tl.int8)
    tmp22 = tmp19 - tmp21
    tmp23 = tmp22.to(tmp0.dtype)
    tmp24 = libdevice.floor(tmp0)
    tmp25 = libdevice.ceil(tmp0)
    tmp26 = libdevice.nearbyint(tmp0)
    tmp27 = libdevice.trunc(tmp0)
    tmp28 = tl.full([1], 2.5, tl.float32)
    tmp29 = libdevice.pow(tmp10, tmp28)
    tmp31 = libdevice.pow(tmp10, tmp30)
    tmp32 = libdevice.atan2(tmp0, tmp30)
    tmp33 = libdevice.hypot(tmp0, tmp30)
    tmp34 = tl.full([1], 1, tl.int32)
    tmp35 = (tmp34 / tmp10)
    tmp36 = tl.full([1], -0.5, tl.float32)
    tmp37 = triton_helpers.maximum(tmp0, tmp36)
    tmp38 = tl.full([1], 0.5, tl.float32)
    tmp39 = triton_helpers.minimum(tmp37, tmp38)
    tmp40 = tl.full([1], 0.7, tl.float32)
    tmp41 = libdevice.fmod(tmp0, tmp40)
    tmp42 = (tmp0 % tmp40)
    tmp43 = tmp42 != tmp17
    tmp44 = (libdevice.signbit(tmp42) != 0) if (tmp42).dtype is tl.float32 else tmp42 < 0
    tmp45 = (libdevice.signbit(tmp40) != 0) if (tmp40).dtype is tl.float32 else tmp40 < 0
    tmp46 = tmp44 != tmp45
    tmp47 = tmp43 & tmp46
    tmp48 = tmp42 + tmp40
    tmp49 = tl.where(tmp47, tmp48, tmp42)
    tmp50 = tl.full([1], -1.0, tl.float32)
    tmp51 = triton_helpers.maximum(tmp0, tmp50)
    tmp52 = tl.full([1], 1.0, tl.float32)
    tmp53 = triton_helpers.minimum(tmp51, tmp52)
    tmp54 = libdevice.asin(tmp53)
    tmp55 = libdevice.sinh(tmp0)
    tmp56 = libdevice.lgamma(tmp10)
    tmp57 = tmp0 == tmp0
    tmp58 = tl.full([1], float("inf"), tl.float32)
    tmp59 = tmp8 != tmp58
    tmp60 = tmp57 & tmp59
    tl.store(out_ptr0 + (x0), tmp1, None)
    tl.store(out_ptr1 + (x0), tmp2, None)
    tl.store(out_ptr2 + (x0), tmp3, None)
    tl.store(out_ptr3 + (x0), tmp4, None)
    tl.store(out_ptr4 + (x0), tmp5, None)
    tl.store(out_ptr5 + (x0), tmp6, None)
    tl.store(out_ptr6 + (x0), tmp7, None)
    tl.store(out_ptr7 + (x0), tmp11, None)
    tl.store(out_ptr8 + (x0), tmp12, None)
    tl.store(out_ptr9 + (x0), tmp13, None)
    tl.store(out_ptr10 + (x0), tmp14, None)
    tl.store(out_ptr11 + (x0), tmp15, None)
    tl.store(out_ptr12 + (x0), tmp16, None)
    tl.store(out_ptr13 + (x0), tmp23, None)
    tl.store(out_ptr14 + (x0), tmp24, None)
    tl.store(out_ptr15 + (x0), tmp25, None)
    tl.store(out_ptr16 + (x0), tmp26, None)
    tl.store(out_ptr17 + (x0), tmp27, None)
    tl.store(out_ptr18 + (x0), tmp29, None)
    tl.store(out_ptr19 + (x0), tmp7, None)
    tl.store(out_ptr20 + (x0), tmp31, None)
    tl.store(out_ptr21 + (x0), tmp32, None)
    tl.store(out_ptr22 + (x0), tmp33, None)
    tl.store(out_ptr23 + (x0), tmp35, None)
    tl.store(out_ptr24 + (x0), tmp39, None)
    tl.store(out_ptr25 + (x0), tmp41, None)
    tl.store(out_ptr26 + (x0), tmp49, None)
    tl.store(out_ptr27 + (x0), tmp54, None)
    tl.store(out_ptr28 + (x0), tmp55, None)
    tl.store(out_ptr29 + (x0), tmp56, None)
    tl.store(out_ptr30 + (x0), tmp60, None)
