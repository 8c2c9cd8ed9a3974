"""Hand-written Triton kernels as a user writes them, for run_kernel's @triton.jit
path. `triton` here is a stand-in with the same shape as Triton's JITFunction (the
Python function under `.fn`), so that the tests need no Triton; the decorator text is
`@triton.jit`, as npusim's front end expects."""

import types


class _JITFunction:
    def __init__(self, fn):
        self.fn = fn


triton = types.SimpleNamespace(jit=_JITFunction)
tl = types.SimpleNamespace(constexpr=int)


@triton.jit
def scaled_add(x_ptr, y_ptr, out_ptr, n, alpha, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x * alpha + y, mask=mask)


@triton.jit
def broken(x_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.arange(0, BLOCK)
    tl.store(x_ptr + offsets, tl.no_such_function(offsets))
