"""The compiler half of npusim's Triton "cpu" backend: it names the target; kernels are
compiled by npusim itself, from Inductor's kernel file, when they are launched."""

from triton.backends.compiler import BaseBackend

NOT_COMPILED = ("npusim's Triton 'cpu' backend does not compile kernels through Triton: run the model with "
                "torch.compile(backend=\"npusim\") (Inductor's launches go to npusim), or launch a @triton.jit "
                "kernel with npusim.run_kernel(kernel, grid, args=...)")


class NpusimBackend(BaseBackend):
    @staticmethod
    def supports_target(target):
        return target.backend == "cpu"

    def hash(self):
        return "npusim-0.1.0"

    def parse_options(self, options):
        raise RuntimeError(NOT_COMPILED)

    def add_stages(self, stages, options, *language):
        raise RuntimeError(NOT_COMPILED)

    def load_dialects(self, context):
        raise RuntimeError(NOT_COMPILED)

    def get_module_map(self):
        return {}

    def get_codegen_implementation(self, options):
        return {}


# Triton's backend discovery takes the one concrete BaseBackend subclass of this module;
# should a later Triton add an abstract method, the class must stay concrete, or every
# `import triton` on the machine would fail. Such a method raises NotImplementedError.
NpusimBackend.__abstractmethods__ = frozenset()
