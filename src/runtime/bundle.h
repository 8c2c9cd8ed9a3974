#pragma once
// A loaded bundle (docs/bundle-format.md): the model's storages, inputs, steps
// and outputs, validated, with every kernel file parsed. Produced by
// runtime::loadBundle; each field keeps the JSON path it came from so that
// later errors can name it.
#include "core/dtype.h"
#include "core/operator_call.h"
#include "runtime/sizes.h"
#include "triton/frontend.h"

#include <array>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace npusim::runtime {

struct Storage {
  int64_t id = 0;
  core::DType dtype = core::DType::Float32;
  int64_t elements = 0;
};

/// A view on a storage: element [i0, i1, ...] is storage element
/// offset + sum(i_k * stride[k]).
struct TensorRef {
  int64_t storage = 0;
  int64_t offset = 0;
  std::vector<int64_t> shape;
  std::vector<int64_t> stride;
  std::string path; // JSON path of the reference, e.g. "steps[3].args[0].tensor"

  int64_t numel() const;
};

enum class InitKind { Uniform, Randint, Constant };

struct InputInit {
  InitKind kind = InitKind::Uniform;
  double low = 0.0, high = 0.0;        // uniform
  int64_t intLow = 0, intHigh = 0;     // randint
  double value = 0.0;                  // constant (as a float)
  std::optional<int64_t> integerValue; // constant, when written as an integer (or bool)
  uint64_t stream = 0;
};

struct Input {
  std::string name;
  TensorRef tensor;
  InputInit init;
  std::string path;
};

/// A sample of a fingerprint: the value at a logical index of the view.
struct Sample {
  int64_t index = 0;
  double value = 0.0;   // floats (NaN, +-inf included)
  int64_t intValue = 0; // integer and bool tensors
  bool isInteger = false;
  /// Added to the float tolerance by the drift analysis (runtime/drift.h) when
  /// this step's inputs carry measured drift; never read from a bundle: 0 there.
  double driftAllowance = 0.0;
};

struct Fingerprint {
  int64_t target = -1; // "arg" of a launch, "out" of a call; -1 for a model output
  int64_t elements = 0;
  double sum = 0.0, absSum = 0.0;
  std::optional<int64_t> exactSum; // integer tensors whose sum is written as an integer
  int64_t nans = 0, infs = 0;
  std::vector<Sample> samples;
  double sumDriftAllowance = 0.0; // the same for `sum` (runtime/drift.h)
  std::string path;
};

/// A launch argument: a tensor reference for a pointer parameter, a number for a scalar.
struct LaunchArg {
  bool isTensor = false;
  bool isConstant = false; // a parameter Triton specialised to a constant (listed, not passed)
  TensorRef tensor;
  bool isInteger = false; // scalars: integer (or bool) parameter
  int64_t intValue = 0;
  double floatValue = 0.0;
};

/// An argument of a library call, as the bundle spells it (core/operator_call.h).
using CallValue = core::CallValue<TensorRef>;

/// The values a random operator drew into one of a call's outputs during the capture
/// (`values` of a call step), in the view's logical order: integers for an integer or
/// bool storage, floats otherwise.
struct RecordedValues {
  size_t out = 0;
  std::vector<int64_t> integers;
  std::vector<double> floats;
};

struct Step {
  enum class Kind { Launch, Call };
  Kind kind = Kind::Launch;
  std::string name; // the kernel (launch) or the operator (call)
  std::string path; // "steps[12]"

  // Launch.
  const triton::KernelFile *kernel = nullptr;
  std::array<int64_t, 3> grid = {1, 1, 1};
  triton::ConstexprBindings constexprs;
  std::vector<LaunchArg> args;
  std::vector<std::string> argNames; // the kernel parameter of each entry of args
  std::vector<int64_t> writes;

  // Call.
  std::vector<CallValue> callArgs;
  std::vector<std::optional<TensorRef>> out; // null: a result the bundle does not record
  /// Non-empty for a random operator: the run writes these instead of drawing.
  std::vector<RecordedValues> recorded;

  std::vector<Fingerprint> fingerprints;
  /// Set only by the drift analysis (runtime/drift.h) for a step whose result
  /// depends on which side of a threshold its drifted inputs lie: the bytes of
  /// every storage the step writes, from the reference run on perturbed inputs
  /// that matches the device's fingerprints. A verifying run writes them after
  /// the step (and its NPU-against-reference check), so that the chain
  /// continues on the device's side.
  std::map<int64_t, std::vector<uint8_t>> deviceSide;
};

struct Output {
  std::string name;
  TensorRef tensor;
  std::string reference; // path of the .npy relative to the bundle; empty when absent
  Fingerprint fingerprint;
  /// False at sizes other than the captured ones (runtime/sizes.h): no
  /// reference and no fingerprint apply there.
  bool hasFingerprint = true;
  std::string path;
};

/// The optimizer of a training step as the capture describes it (`model.optimizer`,
/// docs/bundle-format.md "Reader notes"): verification judges an Adam-family step's
/// updates by the bound its arithmetic allows where rounding decides them
/// (runtime/optimizer_bound.h). `name` is empty when the bundle has none.
struct OptimizerDescription {
  std::string name; // "adamw", "adam", "sgd", ...: as written
  /// Adam and AdamW only (the other optimizers' numbers are not read).
  double lr = 0.0, beta1 = 0.0, beta2 = 0.0, eps = 0.0, weightDecay = 0.0;
  std::string path; // "model.optimizer"

  bool isAdam() const { return name == "adam" || name == "adamw"; }
};

struct Bundle {
  std::filesystem::path dir;
  std::string graphFile; // the graph.json path as messages name it
  uint64_t seed = 0;
  /// Where the fingerprints come from: "device", the capturing device's run of the
  /// compiled model (model.device), or "npusim-reference", npusim's reference
  /// interpreter and host library (a capture without a GPU).
  std::string fingerprintSource = "device";
  OptimizerDescription optimizer;
  std::vector<Storage> storages;
  std::vector<Input> inputs;
  std::vector<Step> steps;
  std::vector<Output> outputs;
  /// The dynamic sizes and the values this load bound them to (empty symbols:
  /// static sizes).
  SizeSummary sizes;
  /// Every kernel file the launches name, parsed once, by kernel name.
  std::map<std::string, std::unique_ptr<triton::KernelFile>> kernels;
};

/// The run-time (non-constexpr) parameters of a kernel in def order.
std::vector<const triton::ParameterSpec *> runtimeParameters(const triton::KernelMetadata &metadata);

} // namespace npusim::runtime
