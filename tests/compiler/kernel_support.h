#pragma once
// Test helpers: find the kernel corpus, and compile a kernel file the way the
// runtime does (block sizes from the cost model's search, searchBlockSizes).
#include "compiler/compiler.h"
#include "compiler/tiling.h"
#include "triton/frontend.h"

#include <memory>
#include <string>
#include <vector>

namespace npusim::compiler::testing {

/// Every kernel file of the corpus: tests/data/inductor_kernels, tests/data/kernels,
/// examples/kernels and examples/*/kernels, sorted.
std::vector<std::string> corpusKernelFiles();

/// The block parameters of a kernel's free constexprs, with the numels its
/// metadata gives.
std::vector<BlockParameter> blockParameters(const triton::KernelMetadata &metadata);

struct CompiledKernel {
  triton::KernelFile file;
  triton::ConstexprBindings constexprs;
  std::unique_ptr<ir::Function> function;
  npu::Program program;
  ProgramCost cost; // the search's estimate (zero when no block was chosen)
  int candidatesTried = 0;
};

/// Loads, lowers and compiles with the cheapest block sizes; candidates that
/// overflow the scratchpad are skipped. Throws the last error when none compiles.
CompiledKernel compileKernelFile(const std::string &path, const config::HardwareConfig &machine);

/// The 8-lane machine with 32 KiB per lane the coverage tests use.
config::HardwareConfig smallMachine();

} // namespace npusim::compiler::testing
