#pragma once
// The driver between the runtime and the compiler (docs/architecture.md): how
// one Triton kernel becomes an NPU program for a machine. It decides which
// block sizes may be chosen (Inductor's pointwise and reduction kernels, whose
// grid follows from them; a block whose launch value divided its numel keeps
// dividing it unless every access along its axis is proven masked), runs the
// compiler's block-size search over their candidates with the front end
// lowering each, and falls back to the launch's own values. The runtime and
// the compile and kernel commands compile through it.
#include "compiler/tiling.h"
#include "config/hardware.h"
#include "npu/program.h"
#include "triton/frontend.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace npusim::driver {

/// One kernel compiled for a machine.
struct NpuKernel {
  triton::ConstexprBindings constexprs; // the values the program was compiled with
  std::unique_ptr<ir::Function> function;
  npu::Program program;
  /// True when the block sizes were chosen for the machine (Inductor pointwise
  /// and reduction kernels, whose grid follows from them); false when the
  /// launch's own values were kept (templates, fixed grids).
  bool blocksChosen = false;
  /// The cost model's estimate of the chosen tiling (when blocksChosen).
  compiler::ProgramCost cost;
  /// One line per candidate that did not fit, for messages and reports.
  std::vector<std::string> rejected;
};

/// Compiles `file` for `machine`. Inductor pointwise and reduction kernels get
/// the block sizes compiler::searchBlockSizes finds cheapest (a block the
/// launch's value divided its numel with keeps dividing it), else the launch's
/// own values; other kernels keep `launchConstexprs`. `scalarArguments` holds the launch's integer scalars
/// (xnumel, ...). Throws core::CompileError naming the kernel; when nothing
/// fits, the message gives each candidate's bytes per lane and the bank size.
/// Block sizes named in `pinned` keep their launch value (a user's --const).
/// The search compiles its candidates on up to `threads` threads.
std::unique_ptr<NpuKernel> compileForNpu(const triton::KernelFile &file,
                                         const triton::ConstexprBindings &launchConstexprs,
                                         const std::map<std::string, int64_t> &scalarArguments,
                                         const config::HardwareConfig &machine,
                                         const std::vector<std::string> &pinned = {}, int threads = 1);

/// The grid of a launch of `kernel`: Inductor's rule for its grid type with the
/// chosen block sizes when they were chosen, else `launchGrid`.
triton::GridSize npuGrid(const triton::KernelFile &file, const NpuKernel &kernel,
                         const std::map<std::string, int64_t> &scalarArguments,
                         const triton::GridSize &launchGrid);

} // namespace npusim::driver
