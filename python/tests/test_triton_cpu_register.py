"""npusim.triton_cpu.register(): from a checkout (no entry point installed) the backend
makes itself Triton's "cpu" backend and clears torch's cached has_triton. With stand-ins
for Triton's backend modules and torch.utils._triton; needs neither Triton nor torch."""

import dataclasses
import importlib
import sys
import types

import pytest


class _Cached:
    """A functools-cached function's stand-in: counts cache_clear calls."""

    def __init__(self):
        self.cleared = 0

    def __call__(self):
        return False

    def cache_clear(self):
        self.cleared += 1


@pytest.fixture
def stand_ins(monkeypatch):
    class BaseBackend:
        pass

    class DriverBase:
        pass

    @dataclasses.dataclass(frozen=True)
    class Backend:
        compiler: type
        driver: type

    modules = {name: types.ModuleType(name) for name in
               ("triton", "triton.backends", "triton.backends.compiler", "triton.backends.driver")}
    modules["triton"].backends = modules["triton.backends"]
    modules["triton.backends"].backends = {"nvidia": "Triton's own"}
    modules["triton.backends"].Backend = Backend
    modules["triton.backends.compiler"].BaseBackend = BaseBackend
    modules["triton.backends.compiler"].GPUTarget = lambda *fields: fields
    modules["triton.backends.driver"].DriverBase = DriverBase
    cached = _Cached()
    utils_triton = types.ModuleType("torch.utils._triton")
    utils_triton.has_triton = cached
    try:
        import torch.utils

        monkeypatch.setattr(torch.utils, "_triton", utils_triton, raising=False)
    except ImportError:  # no torch (CI): stand-ins for the packages too
        modules["torch"], modules["torch.utils"] = types.ModuleType("torch"), types.ModuleType("torch.utils")
        modules["torch"].utils = modules["torch.utils"]
        modules["torch.utils"]._triton = utils_triton
    modules["torch.utils._triton"] = utils_triton
    for name, module in modules.items():
        monkeypatch.setitem(sys.modules, name, module)
    yield modules["triton.backends"], cached
    for name in ("npusim.triton_cpu.compiler", "npusim.triton_cpu.driver"):  # bound to the stand-ins
        sys.modules.pop(name, None)


def test_register_makes_npusim_the_cpu_backend_once(stand_ins):
    backends, has_triton = stand_ins
    triton_cpu = importlib.import_module("npusim.triton_cpu")
    assert triton_cpu.register() is True
    entry = backends.backends["cpu"]
    assert (entry.compiler.__name__, entry.driver.__name__) == ("NpusimBackend", "NpusimDriver")
    assert backends.backends["nvidia"] == "Triton's own"
    assert has_triton.cleared == 1
    assert triton_cpu.register() is False  # already there: left alone
    assert has_triton.cleared == 1
