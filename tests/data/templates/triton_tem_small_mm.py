# A matrix product in the style of Inductor's convolution template: block
# sizes as body constexprs, a fixed grid of (M / BLOCK_M, N / BLOCK_N), the
# reduction walked by `for k in range(0, K, BLOCK_K)` under a mask.
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics

@triton_heuristics.template(
num_stages=2,
num_warps=4,
triton_meta={'signature': {'arg_A': '*fp32', 'arg_B': '*fp32', 'out_ptr0': '*fp32'}, 'constants': {}},
inductor_meta={'kernel_name': 'triton_tem_small_mm', 'grid_type': 'FixedGrid', 'fixed_grid': ['_grid_0', '_grid_1', '_grid_2'], 'config_args': {'BLOCK_M': 32, 'BLOCK_N': 32, 'BLOCK_K': 16}},
)
@triton.jit
def triton_tem_small_mm(arg_A, arg_B, out_ptr0):
    BLOCK_M : tl.constexpr = 32
    BLOCK_N : tl.constexpr = 32
    BLOCK_K : tl.constexpr = 16
    M = 256
    N = 128
    K = 64

    rm = tl.program_id(0).to(tl.int32) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1).to(tl.int32) * BLOCK_N + tl.arange(0, BLOCK_N)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        rk = tl.arange(0, BLOCK_K) + k
        a = tl.load(arg_A + (rm[:, None] * K + rk[None, :]), mask=(rm < M)[:, None] & (rk < K)[None, :], other=0.0)
        b = tl.load(arg_B + (rk[:, None] * N + rn[None, :]), mask=(rk < K)[:, None] & (rn < N)[None, :], other=0.0)
        acc += tl.dot(a, b, allow_tf32=False)
    mask = (rm < M)[:, None] & (rn < N)[None, :]
    tl.store(out_ptr0 + (tl.broadcast_to(rm[:, None] * N + rn[None, :], [BLOCK_M, BLOCK_N])), acc, mask)
