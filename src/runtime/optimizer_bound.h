#pragma once
// Verification of an Adam-family optimizer step (internal to the runtime
// module; docs/bundle-format.md, "Optimizer steps"). Adam moves an element by
// lr * m^ / (sqrt(v^) + eps), m^ and v^ its bias-corrected moments. Where the
// first moment m is within its measured rounding of zero (a gradient that is
// zero in exact arithmetic, such as an attention key bias's, computed as
// rounding noise), the update's sign is whatever rounding gave it and its size
// up to lr * B(t): the device's and npusim's parameters may each lie anywhere
// in that bound around the decayed parameter, and such an element is judged by
// the bound. On a first step, an element whose gradient is near eps (Adam's eps
// regime) may differ by what its measured rounding moves the update through
// u(x) = x / (|x| + eps); that allowance is added to the fixed tolerance. Every
// other element keeps the fixed tolerance. The rounding of m is measured where
// the device's values are known: the step's fingerprint of exp_avg, and an
// output of exp_avg's storage (the reference computation's moment, which the
// parameters' outputs come from). An element computed as exactly 0 is no
// rounding where the samples show the device's exact zeros at ours.
#include "reference/host_calls.h"
#include "runtime/bundle.h"
#include "runtime/fingerprint.h"
#include "runtime/runner.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace npusim::runtime {

/// B(t) = (1 - b1) / (1 - b1^t) * sqrt((1 - b2^t) / (1 - b2)) * sqrt(sum_{k<t} (b1^2 / b2)^k):
/// the largest |m^| / sqrt(v^) that t steps of Adam's moments from zero allow
/// (Cauchy-Schwarz); 1 for t = 1.
double adamUpdateBound(double beta1, double beta2, int64_t t);

/// A first step's update u(x) = x / (|x| + eps) for a bias-corrected gradient
/// x known to within `rounding`: the widest u(a) - u(b) over a, b in
/// [|x| - rounding, |x| + rounding] (u is monotone); for |x| <= rounding the
/// sign is open and the allowance is that of the AdamW bound instead.
double adamFirstStepSpread(double x, double rounding, double eps);

class AdamBound {
public:
  using Storages = std::vector<std::unique_ptr<reference::Buffer>>;

  /// The parameters of `bundle` with Adam state inputs (`optimizer.NAME.exp_avg`,
  /// `.exp_avg_sq`, `.step` beside the input NAME); none unless
  /// bundle.optimizer is Adam or AdamW.
  explicit AdamBound(const Bundle &bundle);

  bool active() const { return !parameters_.empty(); }

  /// Before `step` runs (every step, in order): the value and state of each
  /// parameter whose storage or state the step is the first to write.
  void beforeStep(const Step &step, const Storages &storages);
  /// After `step` ran, before its fingerprints are compared: for each first
  /// moment the step wrote with a fingerprint (or, as the last step writing it,
  /// with an output), its rounding (npusim against the device) and which
  /// elements of the parameter lie within it of zero.
  void measure(const Step &step, const Storages &storages);
  /// How to judge `view`'s elements: set when it views a parameter whose first
  /// moment has been measured.
  std::optional<ElementRule> ruleFor(const TensorRef &view) const;
  /// Keeps the elements of a comparison of `view` (ruleFor's) that matched
  /// only through the eps-regime allowance.
  void noteComparison(const TensorRef &view, const Comparison &comparison);

  OptimizerBoundReport report() const;

private:
  struct Parameter {
    std::string name;
    TensorRef value, expAvg, expAvgSq, step;
    bool hasStep = false;
    // Before the optimizer's first write (beforeStep).
    bool snapshotted = false;
    std::vector<double> before; // the parameter's storage
    int64_t t = 0;              // the step count this update makes
    bool firstStep = false;     // t = 1 from zero moments
    // After its first moment's step (measure).
    bool measured = false;
    double drift = 0.0, scale = 0.0;
    // Samples at which npusim's moment is exactly 0: the device's too, or not.
    int64_t zerosKept = 0, zerosLost = 0;
    std::vector<double> moment;          // the exp_avg storage after the step
    std::vector<char> withinRounding;    // by the parameter's storage element
    int64_t withinCount = 0;
    std::vector<int64_t> withinIndices;  // logical indices in the input's view
    std::set<int64_t> epsRegime;         // storage elements that needed the allowance
  };

  const Parameter *parameterOf(int64_t storage) const;
  Parameter *parameterOf(int64_t storage);
  /// The rounding of the first moment at storage element `e` of the parameter.
  double momentRounding(const Parameter &p, int64_t e) const;

  OptimizerDescription optimizer_;
  std::vector<Parameter> parameters_;
  std::vector<Output> momentOutputs_; // outputs of a parameter's exp_avg storage
  // Steps writing each storage: all of them, and those begun (beforeStep); an
  // output is the value its last writer leaves.
  std::map<int64_t, int64_t> writes_, writesBegun_;
  std::vector<std::string> notCovered_;
};

} // namespace npusim::runtime
