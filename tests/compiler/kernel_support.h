#pragma once
// Test helpers: find the kernel corpus, and compile a kernel file through the
// runtime's own path (driver::compileForNpu), block-size search included.
#include "compiler/compiler.h"
#include "compiler/tiling.h"
#include "reference/interpreter.h"
#include "triton/frontend.h"

#include <memory>
#include <string>
#include <vector>

namespace npusim::compiler::testing {

/// Every kernel file of the corpus: tests/data/inductor_kernels, tests/data/kernels,
/// examples/kernels and examples/*/kernels, sorted.
std::vector<std::string> corpusKernelFiles();

struct CompiledKernel {
  triton::KernelFile file;
  triton::ConstexprBindings constexprs;
  std::unique_ptr<ir::Function> function;
  npu::Program program;
  ProgramCost cost; // the search's estimate (zero when no block was chosen)
};

/// Loads, lowers and compiles the kernel as the product does
/// (driver::compileForNpu, as `npusim compile FILE`): the cheapest block sizes
/// of the search for Inductor pointwise and reduction kernels, the defaults
/// otherwise. Throws the runtime's error when nothing fits.
CompiledKernel compileKernelFile(const std::string &path, const config::HardwareConfig &machine);

/// An fp32 buffer of `n` small integers, ((i * 7 + offset) % 11 - 5) x
/// `scale`: with a power-of-two scale every product and sum of a test's
/// small GEMM is exact in fp32 (and tf32).
reference::Buffer exactFloats(const std::string &name, int64_t n, int64_t offset = 3, float scale = 1.0f);
/// Element i of an fp32 buffer.
float floatAt(const reference::Buffer &b, int64_t i);

/// The 8-lane machine with 32 KiB per lane the coverage tests use.
config::HardwareConfig smallMachine();

} // namespace npusim::compiler::testing
