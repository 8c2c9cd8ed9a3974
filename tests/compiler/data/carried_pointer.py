import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.hints import DeviceProperties

@triton_heuristics.template(
    num_stages=2,
    num_warps=4,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32'}, 'constants': {}},
    inductor_meta={'kernel_name': 'carried_pointer', 'grid_type': 'FixedGrid', 'fixed_grid': ['_grid_0', '_grid_1', '_grid_2'], 'config_args': {'BLOCK': 32}},
)
@triton.jit
def carried_pointer(in_ptr0, out_ptr0):
    BLOCK : tl.constexpr = 32
    offs = tl.arange(0, BLOCK)
    ptrs = in_ptr0 + offs
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for k in range(0, 4):
        acc += tl.load(ptrs)
        ptrs += BLOCK
    tl.store(out_ptr0 + offs, acc)
