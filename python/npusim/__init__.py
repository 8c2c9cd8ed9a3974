"""npusim: PyTorch models and Triton kernels on a simulated NPU.

The runtime (C++, the extension ``npusim._native``; docs/python.md):
  run_bundle(path, config="tpuv3-like", mode="full", verify=False) -> the --report dict
  run_kernel(kernel, grid=None, args={...}, consts={...}, config=..., mode=...) -> (outputs, report)
  presets(), load_config(path_or_yaml), last_report(), trace(path)
  torch.compile(model, backend="npusim", options={"config": ..., "mode": ..., "verify": ...})

Modules (pure Python, no extension needed):
  generator   the counter-based input generator of docs/bundle-format.md (pure Python and numpy)
  bundle      bundle constants, JSON writing, schema validation, fingerprint matching (no torch)
  models      built-in model specifications (resnet18, bert, llama, moe, mlp, ...)
  capture     `python3 -m npusim.capture SPEC OUT_DIR [--templates] [--train] [--seed N]`
  recorder    the instrumentation used by capture (Inductor launches, aten library calls)
  dynamo      the torch.compile backend "npusim"; torch_calls, its library calls (run_call)
  batch       runs several captures in parallel processes (used to make examples/)
"""

BUNDLE_FORMAT = "npusim-bundle"
BUNDLE_VERSION = 1
__version__ = "0.1.0"  # keep in step with project(... VERSION ...) in CMakeLists.txt

from .api import bind_sizes, last_report, load_config, presets, run_bundle, run_call, run_graph, run_kernel, trace  # noqa: E402


_NATIVE_NAMES = ("Error", "CompileError", "InputError", "SimulationError", "VerificationError", "Config")


def __getattr__(name):
    """npusim.Error, CompileError, InputError, SimulationError, VerificationError and
    Config come from the extension, loaded when one is first asked for: `import npusim`
    loads no C++ (capture, replay and batch, and Triton's discovery of the ``cpu``
    backend, import the package without ever needing it)."""
    from . import _native_loader

    if name == "native_available":
        try:
            _native_loader.load()
        except ImportError:
            return False
        return True
    if name in _NATIVE_NAMES:
        return getattr(_native_loader.load(), name)
    raise AttributeError(f"module 'npusim' has no attribute {name!r}")
