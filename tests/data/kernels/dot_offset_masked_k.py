# A second block of K (columns 256..511 of a 300-column reduction), its mask
# an offset arange compared the other way round: `300 > k + 256`.
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics


@triton_heuristics.template(
num_stages=1,
num_warps=4,
triton_meta={'signature': {'a_ptr': '*fp32', 'b_ptr': '*fp32', 'c_ptr': '*fp32'}, 'constants': {}},
inductor_meta={'kernel_name': 'dot_offset_masked_k', 'grid_type': 'FixedGrid', 'fixed_grid': ['_grid_0', '_grid_1', '_grid_2'], 'config_args': {}},
)
@triton.jit
def dot_offset_masked_k(a_ptr, b_ptr, c_ptr):
    m = tl.arange(0, 16)
    k = tl.arange(0, 256)
    n = tl.arange(0, 16)
    a = tl.load(a_ptr + m[:, None] * 300 + (k + 256)[None, :], mask=(300 > k + 256)[None, :], other=0.0)
    b = tl.load(b_ptr + (k + 256)[:, None] * 16 + n[None, :], mask=(300 > k + 256)[:, None], other=0.0)
    tl.store(c_ptr + m[:, None] * 16 + n[None, :], tl.dot(a, b))
