# The same product with only A masked: B's rows past 300 are real data, which
# could be an infinity or a NaN meeting A's zeros, so every K block runs.
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics


@triton_heuristics.template(
num_stages=1,
num_warps=4,
triton_meta={'signature': {'a_ptr': '*fp32', 'b_ptr': '*fp32', 'c_ptr': '*fp32'}, 'constants': {}},
inductor_meta={'kernel_name': 'dot_one_side_masked_k', 'grid_type': 'FixedGrid', 'fixed_grid': ['_grid_0', '_grid_1', '_grid_2'], 'config_args': {}},
)
@triton.jit
def dot_one_side_masked_k(a_ptr, b_ptr, c_ptr):
    m = tl.arange(0, 16)
    k = tl.arange(0, 512)
    n = tl.arange(0, 16)
    a = tl.load(a_ptr + m[:, None] * 300 + k[None, :], mask=(k < 300)[None, :], other=0.0)
    b = tl.load(b_ptr + k[:, None] * 16 + n[None, :])
    tl.store(c_ptr + m[:, None] * 16 + n[None, :], tl.dot(a, b))
