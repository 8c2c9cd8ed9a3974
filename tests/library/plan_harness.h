#pragma once
// Runs a library call two ways on identical copies of its buffers: the
// host calls (reference::runHostCall, sums in double) and the
// launches library::planCall plans, lowered by the Triton front end and run
// on the reference interpreter, or compiled for an NPU (compiler::compile) and
// run on the functional simulator; then compares every element of every buffer.
#include "config/hardware.h"
#include "library/library.h"
#include "reference/interpreter.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace npusim::library::harness {

/// Tolerances of the comparison; 16-bit buffers also get one unit in the last
/// place of their format (the kernels round an fp32 sum, the reference a double).
struct Tolerance {
  double rtol = 1e-4, atol = 1e-4;
};

struct RunStats {
  int64_t launches = 0;
  int64_t programs = 0;
  int64_t instructions = 0;      // NPU instructions executed (NPU runs)
  double kernelSeconds = 0.0;    // lowering + interpreting (or compiling + simulating) the planned launches
  double referenceSeconds = 0.0; // the host calls call
};

class CallFixture {
public:
  /// A new buffer holding a view of `shape` (row-major when `stride` is empty),
  /// starting at `offset`, with a few spare elements after it; every element
  /// (spare ones included) is filled with uniform values in [lo, hi) (integers:
  /// rounded; bool: about half true).
  TensorRef tensor(core::DType dtype, std::vector<int64_t> shape, std::vector<int64_t> stride = {},
                   int64_t offset = 0, double lo = -1.0, double hi = 1.0);
  /// Sets element `index` of a buffer (both copies get it).
  void set(const TensorRef &t, int64_t elementIndex, double value);
  /// From now on compare() runs the plans on this NPU (compiler + functional
  /// simulator) instead of the interpreter, planned for its machine shape.
  void useNpu(const config::HardwareConfig &machine) { npu_ = machine; }

  static CallArgument arg(const TensorRef &t);
  static CallArgument integer(int64_t v);
  static CallArgument number(double v);
  static CallArgument boolean(bool v);
  static CallArgument none();
  static CallArgument integers(const std::vector<int64_t> &v);

  /// Runs both ways and returns "" when every buffer agrees, else a message
  /// naming the first elements that differ. Also checks that the plan's
  /// outputDefined matches the reference's.
  std::string compare(const std::string &op, const std::vector<CallArgument> &args,
                      const std::vector<std::optional<TensorRef>> &outs, const MachineShape &machine = {},
                      Tolerance tolerance = {}, RunStats *stats = nullptr);

private:
  struct Spec {
    core::DType dtype;
    int64_t elements;
    uint32_t seed;
    double lo, hi;
  };
  std::vector<Spec> specs_;
  std::vector<std::pair<std::pair<int, int64_t>, double>> overrides_;
  uint32_t nextSeed_ = 1;
  std::optional<config::HardwareConfig> npu_;
};

/// The launch's value of constexpr `name`, or -1.
int64_t launchConstant(const KernelLaunch &launch, const std::string &name);

/// Runs a plan's launches on `buffers` (indexed by buffer id; scratch buffers
/// are appended at the plan's ids). Lowered kernels are cached by name and constexprs.
RunStats runPlan(const CallPlan &plan, std::vector<std::unique_ptr<reference::Buffer>> &buffers, int scratchBase);
/// The launch's kernel lowered with its constexprs (cached by name and constexprs).
const ir::Function &loweredKernel(const KernelLaunch &launch);
/// Appends (or places) the plan's scratch buffers at their ids, zero-filled.
void addScratch(const CallPlan &plan, std::vector<std::unique_ptr<reference::Buffer>> &buffers, int scratchBase);

/// The same on an NPU: each launch compiled for `machine` (cached by name and
/// constexprs) and run on the functional simulator.
RunStats runPlanOnNpu(const CallPlan &plan, std::vector<std::unique_ptr<reference::Buffer>> &buffers,
                      int scratchBase, const config::HardwareConfig &machine);

} // namespace npusim::library::harness
