#pragma once
// The runner's classes (internal to the runtime module): Runner walks the
// bundle's steps; NpuSteps runs a step on the NPU (compile, functional and
// timing simulation, comparison with the reference).
#include "reference/host_calls.h"
#include "reference/interpreter.h"
#include "runtime/npu_steps.h"
#include "runtime/rounding_tolerance.h"
#include "runtime/runner.h"

#include <map>
#include <memory>
#include <set>
#include <span>
#include <string>
#include <vector>

namespace npusim::runtime {

/// All of a storage's elements as one flat view.
inline reference::TensorView wholeStorage(reference::Buffer &b) {
  reference::TensorView v;
  v.buffer = &b;
  v.shape = {b.numElements()};
  v.stride = {1};
  return v;
}

/// The view of `t` into the run's storages (indexed by storage id).
inline reference::TensorView viewOf(const std::vector<std::unique_ptr<reference::Buffer>> &storages,
                                    const TensorRef &t) {
  reference::TensorView v;
  v.buffer = storages[static_cast<size_t>(t.storage)].get();
  v.offset = t.offset;
  v.shape = t.shape;
  v.stride = t.stride;
  return v;
}

/// The storages a step reads (its tensor arguments) and writes.
std::set<int64_t> readStorages(const Step &step);
std::set<int64_t> writtenStorages(const Step &step);
/// The tensor a fingerprint of `step` is of; null for a call result the bundle does not record.
const TensorRef *fingerprintTarget(const Step &step, const Fingerprint &f);

class AdamBound;

class Runner {
public:
  /// With `storages`, the run works on them (runBundle's second form) and
  /// hands them back at the end. With `adam`, verification judges optimizer
  /// steps with it (the drift analysis runs a bundle step by step, in slices
  /// that share one); otherwise the run makes its own.
  Runner(const Bundle &bundle, const RunOptions &options,
         std::vector<std::unique_ptr<reference::Buffer>> *storages = nullptr, AdamBound *adam = nullptr);
  ~Runner();

  RunReport run();

private:
  reference::TensorView view(const TensorRef &t) const { return viewOf(buffers_, t); }
  const ir::Function &lowered(const Step &step);
  std::vector<reference::Argument> launchArguments(const Step &step, const ir::Function &function);
  /// Generates every held input storage from the bundle's seed and poisons
  /// the other held ones (on the run's threads; the bytes do not depend on
  /// their number).
  void fillStorages(const std::vector<bool> &held);
  /// The storages whose contents the run holds: all of them, but in timing
  /// mode only those whose contents the computed values depend on
  /// (`contentsNeeded`, valueReasons) and the outputs of the library calls that
  /// compute values (on the host they write every output). The NPU programs
  /// of steps that compute values read zeros from the others and store nothing
  /// to them: no address, mask or control depends on what they hold.
  std::vector<bool> heldStorages(const std::vector<std::string> &reasons,
                                 const std::set<int> &contentsNeeded) const;
  /// The buffers of the storages not held, with their sizes in bytes.
  std::map<const reference::Buffer *, int64_t> absentStorages(const std::vector<bool> &held) const;
  void runLaunch(const Step &step, StepResult &result, bool computeValues);
  void runCall(const Step &step, StepResult &result, std::vector<bool> &defined, bool computeValues);
  /// Timing mode: which steps must compute values (their own addresses or
  /// control flow depend on values, or a later such step reads what they write),
  /// and in `contentsNeeded` the storages whose contents those values depend on.
  std::vector<std::string> valueReasons(std::set<int> &contentsNeeded);
  /// Compares the step's fingerprints; false (with the report's failure set) on a divergence.
  bool verifyStep(const Step &step, const std::vector<bool> &defined, StepResult &result);
  void verifyOutputs();
  std::string stepTitle(const Step &step, size_t index) const {
    return "step " + std::to_string(index) + " (" + (step.kind == Step::Kind::Launch ? "launch " : "call ") +
           step.name + ")";
  }
  bool onNpu() const { return options_.mode != Mode::Reference; }

  const Bundle &bundle_;
  const RunOptions &options_;
  RunReport report_;
  std::vector<std::unique_ptr<reference::Buffer>> buffers_;
  std::vector<std::unique_ptr<reference::Buffer>> *given_ = nullptr;
  std::map<std::string, std::unique_ptr<ir::Function>> compiled_;
  std::set<std::string> kernelsLaunched_;
  std::unique_ptr<NpuSteps> npu_;
  std::unique_ptr<AdamBound> ownAdam_;
  AdamBound *adam_ = nullptr; // null without verification
  Depths depths_;             // with verification: 16-bit values' rounding depths
};

} // namespace npusim::runtime
