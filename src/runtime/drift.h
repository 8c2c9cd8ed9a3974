#pragma once
// Verification of long float chains (docs/bundle-format.md, "Drift analysis").
// Each step reads what npusim's earlier steps wrote, not the device's values,
// so rounding differences carry along the chain, and an ill-conditioned step
// (a reduction that cancels, a comparison with a threshold that its input lies
// near) turns them into a difference over the fixed tolerance without being
// wrong. When a step's fingerprint diverges, the drift analysis measures how far
// the step's inputs have drifted from the device's values (at the samples of the
// fingerprints of the steps that wrote them), runs the step on the reference
// interpreter on its inputs and on copies perturbed by that drift, and widens
// each sample's tolerance by a multiple of the spread the perturbations cause.
// When the step's own result differs from the device beyond the fixed
// tolerance but a perturbed run matches it within it (a threshold its inputs
// lie within their drift of, such as a ReLU6 mask), the device took the other
// side: the chain goes on from that run's results (Step::deviceSide), so that
// the steps after it are checked against the device without wide allowances.
// A step whose inputs carry no measured drift gets no allowance, so a wrong
// step on exact inputs fails exactly as before; the NPU-vs-reference check on
// identical inputs is untouched.
#include "runtime/bundle.h"
#include "runtime/runner.h"

#include <cstddef>
#include <string>
#include <vector>

namespace npusim::runtime {

/// Perturbed runs per analysed step, and the multiple of their largest
/// deviation that a sample's tolerance grows by.
inline constexpr int kDriftPerturbations = 4;
inline constexpr double kDriftSafetyFactor = 8.0;

struct DriftAnalysis {
  size_t step = 0;
  /// The largest drift of the step's perturbed inputs: |npusim - device| /
  /// (|device| + mean |device|) over the samples of the fingerprints of the
  /// steps that last wrote them; a storage whose last writer has no fingerprint
  /// of it, and a generated graph input that no step wrote, have none.
  double inputDrift = 0.0;
  double largestAllowance = 0.0; // over the step's samples
  /// The perturbed run (1..kDriftPerturbations) whose results match the
  /// device's fingerprints at the fixed tolerance where the step's own do not
  /// (a threshold the inputs lie within their drift of): the chain goes on
  /// from those results (Step::deviceSide); 0 when none does.
  int deviceSideRun = 0;
  std::string note; // one line for the step's message
};

/// Runs `bundle` step by step in `options`' mode (functional for full: the
/// same values) on freshly generated storages, and for every step whose
/// fingerprint diverges while its inputs carry measured drift, sets its
/// fingerprints' driftAllowance and sumDriftAllowance: kDriftSafetyFactor times
/// the largest deviation of kDriftPerturbations reference runs of the step on
/// its inputs perturbed by their drift. Stops at the first other failure, or at
/// a divergence on inputs without drift (the run that follows reports either).
/// Throws core::RuntimeError naming the step when a reference run fails.
std::vector<DriftAnalysis> allowForDrift(Bundle &bundle, const RunOptions &options);

/// runBundle; with options.verify (functional, full and reference modes), when
/// it fails on a fingerprint, allowForDrift and runBundle again. The report is
/// the last run's, with stepsWithinDrift and those steps' messages set; a
/// failure says whether the step was beyond its inputs' drift or had none.
/// Changes `bundle`'s fingerprints.
RunReport runBundleAllowingDrift(Bundle &bundle, const RunOptions &options);

} // namespace npusim::runtime
