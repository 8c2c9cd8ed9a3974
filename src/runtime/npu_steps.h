#pragma once
// Steps on the NPU: kernels compiled for the machine, run on the functional
// simulator for values and the timing simulator for cycles, and compared with
// the reference on the same inputs (internal to the runtime: the runner uses
// it for every step of a bundle, runOnNpu for one kernel).
#include "library/library.h"
#include "reference/host_calls.h"
#include "reference/interpreter.h"
#include "runtime/bundle.h"
#include "runtime/compulsory_bytes.h"
#include "runtime/kernels.h"
#include "runtime/runner.h"

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

namespace npusim::runtime {

/// Runs steps on the NPU and keeps what outlives one step: compiled kernels,
/// the flat DRAM address of every buffer, the timing simulator.
class NpuSteps {
public:
  NpuSteps(const RunOptions &options, RunReport &report);
  ~NpuSteps();
  NpuSteps(const NpuSteps &) = delete;
  NpuSteps &operator=(const NpuSteps &) = delete;

  /// Compiles (once per kernel and constexprs) the kernel a launch step runs.
  const NpuKernel &kernelFor(const Step &step, const std::map<std::string, int64_t> &scalars);

  /// The kernel a launch of `compiled` runs (TimedTiling, runtime/kernels.h),
  /// chosen once per compiled kernel and argument layout.
  TimedTiling fastestTiling(const triton::KernelFile &file, const NpuKernel &compiled,
                            const std::map<std::string, int64_t> &scalars, const triton::GridSize &launchGrid,
                            const std::vector<reference::Argument> &arguments, const std::string &name);

  /// A launch: `arguments` bind the step's kernel parameters (as for the
  /// interpreter). With `verify`, the reference interpreter first runs
  /// `referenceFunction` on the same inputs and every argument buffer is
  /// compared after the NPU run; a divergence throws core::RuntimeError.
  void launch(const Step &step, const ir::Function &referenceFunction,
              std::vector<reference::Argument> &arguments, bool computeValues, bool verify,
              StepResult &result);

  /// Whether `op` has an NPU implementation (else the runner runs it on the host).
  static bool callOnNpu(const std::string &op);
  /// A library call: its planned NPU launches; with `verify`, compared with the
  /// host implementation's outputs. Returns which outputs are defined, or
  /// nothing (with `result.message` saying why) when the call has no NPU plan
  /// for these arguments (a transposed convolution, say): the caller then runs
  /// it on the host.
  std::optional<std::vector<bool>> call(const Step &step, std::span<const reference::HostCallValue> args,
                                        std::span<const reference::TensorView *const> outs,
                                        const std::vector<std::unique_ptr<reference::Buffer>> &storages,
                                        bool computeValues, bool verify, StepResult &result);

  /// Timing mode: the storages whose contents the NPU programs of a library
  /// call read for addresses, loop bounds, branches or asserts
  /// (npu::timingValueNeed). `reason` gets why the call must compute values,
  /// and stays empty when it need not. Nothing for a call without an NPU plan.
  std::set<int> callAddressStorages(const Step &step,
                                    const std::vector<std::unique_ptr<reference::Buffer>> &storages,
                                    std::string &reason);

  /// One launch of a compiled program on the functional simulator (and the
  /// timing simulator in the timing modes): `arguments` bind the program's
  /// parameters; `result` gets the programs run, the launch count and timing.
  void runProgram(const npu::Program &program, const triton::GridSize &grid,
                  std::vector<reference::Argument> &arguments, bool computeValues, const std::string &name,
                  StepResult &result);

  /// The timing modes time launches on threads of their own when the run
  /// has two threads or more: a step's timing is complete only after this.
  /// Waits for the timing of every launch and fills in the timing of each
  /// step timed (by StepResult::index). When timing a launch failed, the
  /// launches after it were not timed: returns its step and the error.
  struct TimingFailure {
    size_t step = 0;
    std::string message;
  };
  std::optional<TimingFailure> collectTimings(std::vector<StepResult> &steps);
  /// Whether timing an earlier launch failed (the run should stop).
  bool timingFailed() const;

  /// Timing mode: the storages whose contents the run does not hold, with
  /// their sizes in bytes. Their DRAM addresses are laid out by these sizes, as
  /// if they held them, and the functional simulator moves nothing for them
  /// (functional::DramBuffer); a launch that computes values must not use one.
  void setAbsent(std::map<const reference::Buffer *, int64_t> absent);

  /// The distinct DRAM bytes step `step`'s NPU programs read and wrote in
  /// each storage (`storages` indexed by storage id), for the honest roofline
  /// (compulsory_bytes.h); nothing when the step ran no program that was
  /// timed.
  std::optional<TouchedByStorage> touched(size_t step,
                                          const std::vector<std::unique_ptr<reference::Buffer>> &storages);

  /// Writes the trace (when asked for) after the last step, after collectTimings.
  void finish();

private:
  /// A library call's NPU launches, and the first buffer id of its scratch
  /// buffers (ids below it are the bundle's storages).
  struct PlannedCall {
    library::CallPlan plan;
    int scratchBase = 0;
  };
  /// Throws core::RuntimeError when the call has no NPU plan for its arguments.
  PlannedCall planFor(const Step &step, const std::vector<std::unique_ptr<reference::Buffer>> &storages);
  /// The compiled kernel of a planned launch (once per kernel and constexprs).
  const NpuKernel &libraryKernel(const library::KernelLaunch &launch);
  /// The kernel among `kernels` (library::gemmKernels(), convKernels(); set
  /// through `choice`) whose plan of this call the timing simulator finds
  /// fastest, once per call signature; "" (the library's own choice) in
  /// reference mode or when fewer than two kernels can run the call.
  std::string fastestKernel(const std::string &op, std::span<const library::CallArgument> args,
                            std::span<const library::TensorRef *const> outs, const library::MachineShape &shape,
                            const std::vector<std::unique_ptr<reference::Buffer>> &storages,
                            const std::vector<std::string> &kernels, std::string library::MachineShape::*choice);
  /// A plan's cycles alone, from an idle machine (its launches' traces run
  /// without values); nothing when a launch needs values for its trace or
  /// uses a scratch buffer.
  std::optional<int64_t> timeAlone(const library::CallPlan &plan, int scratchBase,
                                   const std::vector<std::unique_ptr<reference::Buffer>> &storages);

  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace npusim::runtime
