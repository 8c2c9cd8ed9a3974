"""A hand-written Triton kernel launched on npusim through the Python API.

    PYTHONPATH=python python3 examples/python/triton_kernel.py    # needs Triton (no GPU)

Triton's own launcher is never called: npusim reads the kernel's source, types its
parameters from the arguments, compiles it for the NPU and runs it on the simulators.
"""

import numpy as np
import triton
import triton.language as tl

import npusim


@triton.jit
def softplus_scale(x_ptr, out_ptr, n, scale, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.where(x > 20.0, x, tl.log(1.0 + tl.exp(x)))
    tl.store(out_ptr + offsets, y * scale, mask=mask)


def main():
    n = 4096
    x = np.random.default_rng(0).uniform(-4, 4, n).astype(np.float32)
    out = np.zeros(n, np.float32)
    _, report = npusim.run_kernel(softplus_scale, grid=lambda meta: (triton.cdiv(n, meta["BLOCK"]),),
                                  args={"x_ptr": x, "out_ptr": out, "n": n, "scale": 0.5},
                                  consts={"BLOCK": 1024}, mode="full")
    expected = np.log1p(np.exp(x.astype(np.float64))) * 0.5
    print(f"kernel={report['kernel']} grid={report['grid'][0]} cycles={report['cycles']} "
          f"time_us={report['timing']['time_us']} max_diff={np.abs(out - expected).max():.3g}")


if __name__ == "__main__":
    main()
