import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.hints import DeviceProperties

@triton_heuristics.pointwise(
    size_hints={'x': 64},
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*i64', 'out_ptr0': '*fp32', 'out_ptr1': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'constants': {}},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'if_scan_atomic'}
)
@triton.jit
def if_scan_atomic(in_ptr0, in_ptr1, out_ptr0, out_ptr1, xnumel, XBLOCK : tl.constexpr):
    xnumel = 64
    pid = tl.program_id(0)
    xindex = pid * XBLOCK + tl.arange(0, XBLOCK)
    xmask = xindex < xnumel
    values = tl.load(in_ptr0 + xindex, xmask, other=1.0)
    if pid == 0:
        scaled = values * 2.0
        first = tl.load(in_ptr0 + 0)
    else:
        scaled = values - 1.0
        first = tl.load(in_ptr0 + 1)
    running = tl.cumsum(scaled, 0)
    tl.store(out_ptr0 + xindex, running + first, xmask)
    bucket = tl.load(in_ptr1 + xindex, xmask) % 4
    tl.atomic_add(out_ptr1 + bucket, values, xmask)
