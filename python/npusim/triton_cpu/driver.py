"""The driver half of npusim's Triton "cpu" backend: what Inductor asks of the active
driver while it generates and benchmarks kernels for CPU tensors."""

import os

from triton.backends.compiler import GPUTarget
from triton.backends.driver import DriverBase


def _gpu_available():
    try:
        import torch

        return torch.cuda.is_available()
    except Exception:  # noqa: BLE001 - no torch: no GPU either
        return False


class _Utils:
    """Device facts Triton's runtime reads; npusim's NPU is described by its config."""

    def get_device_properties(self, device=0):
        return {"max_shared_mem": 1 << 20, "multiprocessor_count": os.cpu_count() or 1, "max_num_regs": 1 << 16,
                "warpSize": 1, "sm_clock_rate": 0, "mem_clock_rate": 0, "mem_bus_width": 0}

    def load_binary(self, *args, **kwargs):
        from .compiler import NOT_COMPILED

        raise RuntimeError(NOT_COMPILED)


class NpusimDriver(DriverBase):
    def __init__(self):
        self.utils = _Utils()
        self.backend = "cpu"

    @staticmethod
    def target_name():
        return "cpu"

    @staticmethod
    def is_active():
        return os.environ.get("NPUSIM_TRITON_DRIVER") == "1" or not _gpu_available()

    @classmethod
    def should_activate(cls):
        return cls.is_active()

    def get_current_target(self):
        return GPUTarget("cpu", "npusim", 1)

    def get_active_torch_device(self):
        import torch

        return torch.device("cpu")

    def get_device_interface(self):
        from torch._dynamo.device_interface import get_interface_for_device

        return get_interface_for_device("cpu")

    def get_current_device(self):
        return 0

    def set_current_device(self, device):
        if int(device) != 0:
            raise ValueError(f"npusim's Triton driver has one device, 0; got {device}")

    def get_current_stream(self, device=None):
        return 0

    def map_python_to_cpp_type(self, ty):
        return {"i1": "int32_t", "i8": "int8_t", "i16": "int16_t", "i32": "int32_t", "i64": "int64_t",
                "u8": "uint8_t", "u16": "uint16_t", "u32": "uint32_t", "u64": "uint64_t", "fp16": "uint16_t",
                "bf16": "uint16_t", "fp32": "float", "fp64": "double"}.get(ty, "void*")

    def get_benchmarker(self):
        """Inductor benchmarks autotuning candidates with it; npusim chooses block sizes
        itself, so every candidate measures the same."""
        def benchmark(fn, *args, quantiles=None, **kwargs):
            return [0.0 for _ in quantiles] if quantiles else 0.0

        return benchmark

    def get_empty_cache_for_benchmark(self):
        import torch

        return torch.empty(0)

    def clear_cache(self, cache):
        return None


# As for the compiler: Triton's discovery needs exactly one concrete DriverBase subclass.
NpusimDriver.__abstractmethods__ = frozenset()
