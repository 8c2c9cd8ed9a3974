"""Triton's "cpu" backend and driver for machines without a GPU (docs/python.md).

Registered through the package's ``triton.backends`` entry point under the name
``cpu``: TorchInductor emits Triton kernels for CPU tensors only when Triton has a
backend of that name (``torch.utils._triton.has_triton``) and an active driver.
Kernels are never compiled by Triton: under ``torch.compile(backend="npusim")`` every
launch goes to npusim, which reads the kernel file Inductor wrote (npusim.dynamo).

The driver is active only where no GPU is (``torch.cuda.is_available()`` false), or
when ``NPUSIM_TRITON_DRIVER=1``; with a GPU, Triton's own driver stays the only active
one. These modules import nothing from npusim's extension, so that Triton's backend
discovery never fails because of them.
"""


def register():
    """Makes this Triton's "cpu" backend where the package's entry point did not (the
    package used from a checkout on PYTHONPATH, not installed), and tells torch to look
    again (``has_triton`` caches its answer). Returns whether it registered it; a "cpu"
    backend Triton already has is left alone."""
    import triton.backends

    if "cpu" in triton.backends.backends:
        return False
    from .compiler import NpusimBackend
    from .driver import NpusimDriver

    triton.backends.backends["cpu"] = triton.backends.Backend(compiler=NpusimBackend, driver=NpusimDriver)
    from torch.utils import _triton

    for name in ("has_triton", "has_triton_package"):
        cached = getattr(_triton, name, None)
        if hasattr(cached, "cache_clear"):
            cached.cache_clear()
    return True
