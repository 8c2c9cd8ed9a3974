#pragma once
// One kernel on the NPU, the public interface of what the command line's
// compile and kernel commands do with a single Triton kernel file (the runner
// does the same for every launch of a bundle): block sizes chosen for the
// machine, the grid that follows from them, the NPU program, and one launch
// of it on the simulators. A kernel file is parsed with triton::loadKernelFile
// and its arguments bound as for the reference interpreter (reference::Argument).
#include "compiler/tiling.h"
#include "config/hardware.h"
#include "npu/program.h"
#include "reference/interpreter.h"
#include "runtime/runner.h"
#include "triton/frontend.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace npusim::runtime {

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

/// A launch's arguments in `function`'s parameter order (as the interpreter and
/// runOnNpu take them), from the buffers and scalars bound by parameter name.
/// A parameter with neither is a core::InputError naming it (an internal error
/// of the caller, which binds every run-time parameter first).
std::vector<reference::Argument> orderArguments(const ir::Function &function,
                                                const std::map<std::string, reference::Buffer *> &buffers,
                                                const std::map<std::string, reference::Scalar> &scalars);

/// What one launch on the NPU gave.
struct KernelRun {
  int64_t programs = 0; // program instances run
  bool timed = false;   // timing and full modes
  StepTiming timing;
  double wallMs = 0.0; // the simulation alone
  /// Why the trace (RunOptions::tracePath) could not be written; empty when
  /// it was, or none was asked for. The launch itself ran.
  std::string traceError;
  int64_t traceEventsKept = 0, traceEventsDropped = 0; // as RunReport's
};

/// Runs one launch of `kernel` over `arguments` (one per function parameter)
/// on options.machine: the functional simulator, computing values unless
/// options.mode is Timing, and in the timing and full modes the timing
/// simulator, whose trace goes to options.tracePath when one is given.
KernelRun runOnNpu(const NpuKernel &kernel, const triton::GridSize &grid,
                   std::vector<reference::Argument> &arguments, const RunOptions &options,
                   const std::string &name);

} // namespace npusim::runtime
