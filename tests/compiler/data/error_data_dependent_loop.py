import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.hints import DeviceProperties

@triton_heuristics.template(
    num_stages=2,
    num_warps=4,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32'}, 'constants': {}},
    inductor_meta={'kernel_name': 'data_dependent_loop', 'grid_type': 'FixedGrid', 'fixed_grid': ['_grid_0', '_grid_1', '_grid_2'], 'config_args': {}},
)
@triton.jit
def data_dependent_loop(in_ptr0, out_ptr0):
    values = tl.load(in_ptr0 + tl.arange(0, 16))
    count = tl.sum(values, 0).to(tl.int32)
    acc = tl.zeros([16], dtype=tl.float32)
    for k in range(0, count):
        acc += values
    tl.store(out_ptr0 + tl.arange(0, 16), acc)
