
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.hints import DeviceProperties
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math

@triton_heuristics.pointwise(
    size_hints={'x': 1024},
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_out_ptr0': '*fp32', 'out_ptr0': '*fp32', 'XBLOCK': 'constexpr'}, 'constants': {}},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'independent_gathers'}
)
@triton.jit
def independent_gathers(in_ptr0, in_ptr1, in_out_ptr0, out_ptr0, XBLOCK : tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    tmp0 = tl.load(in_ptr0 + ((xindex * xindex) % 997))
    tmp1 = tl_math.exp(tmp0)
    tmp2 = tl.load(in_ptr1 + ((xindex * xindex) % 991))
    tmp3 = tl.load(in_out_ptr0 + (xindex))
    tmp4 = tmp3 + tmp1 + tmp2
    tl.store(in_out_ptr0 + (xindex), tmp4)
    tmp5 = tl.load(in_out_ptr0 + ((xindex * xindex) % 983))
    tl.store(out_ptr0 + (xindex), tmp5)
