# C[M, N] = A[M, 2K] @ B[2K, N] in two K steps accumulated into one carried
# tile; the last program's row block is ragged past M (a scalar argument), so
# A's load is clipped on its rows.
import triton
import triton.language as tl


@triton.jit
def dot_ragged_rows(a_ptr: "*fp32", b_ptr: "*fp32", c_ptr: "*fp32", M: "i32", BLOCK_M: tl.constexpr,
                    K: tl.constexpr, N: tl.constexpr):
    pid = tl.program_id(0)
    rm = pid * BLOCK_M + tl.arange(0, BLOCK_M)
    rk = tl.arange(0, K)
    rn = tl.arange(0, N)
    acc = tl.zeros((BLOCK_M, N), dtype=tl.float32)
    for k0 in range(0, 2 * K, K):
        a = tl.load(a_ptr + rm[:, None] * (2 * K) + (k0 + rk)[None, :], mask=rm[:, None] < M, other=0.0)
        b = tl.load(b_ptr + (k0 + rk)[:, None] * N + rn[None, :])
        acc += tl.dot(a, b, allow_tf32=False)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc, mask=rm[:, None] < M)
