#pragma once
// One kernel on the NPU, the public interface of what the command line's
// kernel command does with a single Triton kernel file (the runner does the
// same for every launch of a bundle): one launch of a kernel the driver
// compiled (driver/driver.h) on the simulators. A kernel file is parsed with
// triton::loadKernelFile and its arguments bound as for the reference
// interpreter (reference::Argument).
#include "config/hardware.h"
#include "driver/driver.h"
#include "npu/program.h"
#include "reference/interpreter.h"
#include "runtime/runner.h"
#include "triton/frontend.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace npusim::runtime {

// Kernels are compiled for the NPU by the driver; the runtime's steps name its
// kernel, its compilation and its grid as their own.
using driver::compileForNpu;
using driver::npuGrid;
using driver::NpuKernel;

/// A launch's arguments in `function`'s parameter order (as the interpreter and
/// runOnNpu take them), from the buffers and scalars bound by parameter name.
/// A parameter with neither is a core::InputError naming it (an internal error
/// of the caller, which binds every run-time parameter first).
std::vector<reference::Argument> orderArguments(const ir::Function &function,
                                                const std::map<std::string, reference::Buffer *> &buffers,
                                                const std::map<std::string, reference::Scalar> &scalars);

/// The kernel a launch of a compiled kernel runs (docs/compiler.md, "Timed
/// near-ties"): the compiled one, or where the block-size search left
/// near-ties (NpuKernel::nearTies), the fastest of it and them on the timing
/// simulator over this launch's grid and arguments.
struct TimedTiling {
  const NpuKernel *kernel = nullptr;
  int timed = 0;   // candidates timed, the compiled one included; 0 without near-ties
  int untimed = 0; // candidates whose trace needs values, so were not timed
  /// What a step's block sizes say about it: "" without near-ties, else
  /// ": the fastest of 3 near-ties timed" and "; 1 near-tie not timed (...)".
  std::string note() const;
};

/// The TimedTiling of one launch of `compiled` (from `file`) over
/// `arguments` (one per function parameter), whose launch grid is
/// `launchGrid` (each candidate's grid follows from its block sizes,
/// driver::npuGrid). The candidates run on options.machine without values and
/// leave `arguments` as they were.
TimedTiling fastestTiling(const triton::KernelFile &file, const NpuKernel &compiled,
                          const std::map<std::string, int64_t> &scalarArguments,
                          const triton::GridSize &launchGrid, std::vector<reference::Argument> &arguments,
                          const RunOptions &options);

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
