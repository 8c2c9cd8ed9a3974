import triton
import triton.language as tl


@triton.jit
def npusim_tl_sort(keys_ptr: "*fp32", values_ptr: "*fp32",
                   ROWS: tl.constexpr, N: tl.constexpr, DESCENDING: tl.constexpr):
    rows = tl.arange(0, ROWS)[:, None]
    r0 = tl.arange(0, N)[None, :]
    keys = tl.load(keys_ptr + rows * N + r0)
    tl.store(values_ptr + rows * N + r0, tl.sort(keys, 1, descending=DESCENDING))
