#pragma once
// Fingerprints of a tensor (docs/bundle-format.md, "Fingerprints") and the
// comparisons --verify makes: a written view against a recorded fingerprint,
// and a model output against its reference .npy.
#include "core/npy.h"
#include "reference/host_calls.h"
#include "runtime/bundle.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace npusim::runtime {

inline constexpr double kRtol = 1e-4;
inline constexpr double kAtol = 1e-4;

/// The fingerprint of a view: over its elements in logical order, the sum and
/// absolute sum of the finite values in double, the NaN and infinity counts, and
/// 64 samples at round(k * (n - 1) / 63) (fewer, without repeats, when n < 64).
Fingerprint computeFingerprint(const reference::TensorView &view);

/// |actual - expected| <= atol + rtol * |expected|; NaN matches NaN, infinities match by sign.
bool floatsMatch(double actual, double expected);

/// How one element is judged where the math bounds what rounding can do to it
/// (runtime/optimizer_bound.h): instead of the fixed tolerance alone.
struct ElementBound {
  enum class Kind : uint8_t {
    Tolerance, // |actual - expected| <= atol + rtol * |expected| + allowance
    Interval,  // low <= actual <= high, each end widened by the fixed tolerance;
               // the expected value is not compared (rounding decides where it lies)
  };
  Kind kind = Kind::Tolerance;
  double allowance = 0.0;
  double low = 0.0, high = 0.0;
};

/// The bounds of the elements of one compared view, by logical index.
struct ElementRule {
  std::function<ElementBound(int64_t logicalIndex)> bound; // none: Tolerance, no allowance
  double sumAllowance = 0.0; // added to the tolerance of the fingerprint's sum
  /// 16-bit floats (runtime/rounding_tolerance.h): every Tolerance element's
  /// allowance grows by rounding * (|expected| + scale).
  double rounding = 0.0, scale = 0.0;
};

/// The outcome of a comparison; `message` says what differs when !ok.
struct Comparison {
  bool ok = true;
  int64_t compared = 0; // samples or elements compared
  /// With an ElementRule: the logical indices judged by an interval, and those
  /// that matched only through their allowance (over the fixed tolerance).
  std::vector<int64_t> judgedByInterval, withinAllowance;
  int64_t overTolerance = 0;
  int64_t firstBad = -1; // logical index of the first bad sample or element
  double firstActual = 0.0, firstExpected = 0.0;
  double maxError = 0.0; // largest |actual - expected| over the compared values
  std::string message;
};

/// The view's values against a recorded fingerprint: samples (at the recorded
/// indices), NaN and infinity counts, and the sum within 1e-4 * (abs_sum + 1);
/// integer tensors exactly. A float sample's tolerance (and the sum's) grows by
/// its driftAllowance, which only the drift analysis sets (runtime/drift.h).
/// With `rule`, each sample is judged by its ElementBound and the sum's tolerance
/// grows by rule->sumAllowance.
Comparison compareFingerprint(const reference::TensorView &view, const Fingerprint &expected,
                              const ElementRule *rule = nullptr);

/// The view's values against a reference array of the same element count
/// (floats within rtol = atol = 1e-4, integers exactly). A reference of a
/// 16-bit float tensor may be an array of floats or of its raw 16-bit patterns.
/// With `rule`, each float element is judged by its ElementBound.
Comparison compareWithReference(const reference::TensorView &view, const core::NpyArray &reference,
                                const ElementRule *rule = nullptr);

/// How far a view's values lie from a fingerprint of the device's values of it
/// (docs/bundle-format.md, "Drift analysis"): the largest |value - device| /
/// (|device| + scale) over the fingerprint's finite samples, `scale` the
/// fingerprint's mean |value| (abs_sum / elements).
struct MeasuredDrift {
  double drift = 0.0;
  double scale = 0.0;
};
MeasuredDrift measureDrift(const reference::TensorView &view, const Fingerprint &device);

} // namespace npusim::runtime
