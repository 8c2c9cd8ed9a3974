@triton.jit
def _triton_helper_fn_add0(arg0_0, arg1_0):
    tmp0 = arg0_0 + arg1_0
    return tmp0

@triton.jit
def triton_per_fused_cumsum_0(in_ptr0, out_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr):
    R0_BLOCK: tl.constexpr = 16
    tmp3, = tl.associative_scan((tmp2,), 1, _triton_helper_fn_add0)
    tmp4_mean, tmp4_m2, tmp4_weight = triton_helpers.welford_reduce(tmp3, tmp4_mean, tmp4_m2, tmp4_weight, roffset == 0)
    tl.device_assert(((0 <= tmp7) & (tmp7 < 50257)) | ~(xmask), "index out of bounds: 0 <= tmp7 < 50257")
    tmp8 = tl.load(in_ptr1 + (tmp7), xmask).to(tl.float32, bitcast=True)
    tmp9 = tl.full([1], -9223372036854775808, tl.int64)
    tmp11 = tl.where(tmp8 != tmp8, float("nan"), -tmp8 ** 2)
