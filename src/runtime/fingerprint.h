#pragma once
// Fingerprints of a tensor (docs/bundle-format.md, "Fingerprints") and the
// comparisons --verify makes: a written view against a recorded fingerprint,
// and a model output against its reference .npy.
#include "core/npy.h"
#include "reference/host_calls.h"
#include "runtime/bundle.h"

#include <cstdint>
#include <string>

namespace npusim::runtime {

inline constexpr double kRtol = 1e-4;
inline constexpr double kAtol = 1e-4;

/// The fingerprint of a view: over its elements in logical order, the sum and
/// absolute sum of the finite values in double, the NaN and infinity counts, and
/// 64 samples at round(k * (n - 1) / 63) (fewer, without repeats, when n < 64).
Fingerprint computeFingerprint(const reference::TensorView &view);

/// |actual - expected| <= atol + rtol * |expected|; NaN matches NaN, infinities match by sign.
bool floatsMatch(double actual, double expected);

/// The outcome of a comparison; `message` says what differs when !ok.
struct Comparison {
  bool ok = true;
  int64_t compared = 0; // samples or elements compared
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
Comparison compareFingerprint(const reference::TensorView &view, const Fingerprint &expected);

/// The view's values against a reference array of the same element count
/// (floats within rtol = atol = 1e-4, integers exactly). A reference of a
/// 16-bit float tensor may be an array of floats or of its raw 16-bit patterns.
Comparison compareWithReference(const reference::TensorView &view, const core::NpyArray &reference);

} // namespace npusim::runtime
