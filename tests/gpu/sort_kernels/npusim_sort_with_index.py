import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers


@triton.jit
def npusim_sort_with_index(keys_ptr: "*fp32", values_ptr: "*fp32", indices_ptr: "*i64",
                           ROWS: tl.constexpr, N: tl.constexpr, RNUMEL: tl.constexpr,
                           STABLE: tl.constexpr, DESCENDING: tl.constexpr):
    # As Inductor writes an MoE routing sort: rows x N keys, the row index as int16.
    rows = tl.arange(0, ROWS)[:, None]
    r0 = tl.arange(0, N)[None, :]
    keys = tl.load(keys_ptr + rows * N + r0)
    index = tl.broadcast_to(r0.to(tl.int16), [ROWS, N])
    if RNUMEL < N:
        values, indices = triton_helpers.sort_with_index(keys, index, RNUMEL, 1, stable=STABLE,
                                                         descending=DESCENDING)
    else:
        values, indices = triton_helpers.sort_with_index(keys, index, None, 1, stable=STABLE,
                                                         descending=DESCENDING)
    tl.store(values_ptr + rows * N + r0, values)
    tl.store(indices_ptr + rows * N + r0, indices.to(tl.int64))
