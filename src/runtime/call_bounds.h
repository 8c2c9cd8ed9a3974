#pragma once
// Derived bounds of library calls whose rounding the fixed tolerance does not
// cover (internal to the runtime module; docs/bundle-format.md, "Derived
// bounds of library calls"). The device and npusim compute a call's sums in
// other orders; for most calls the results then agree to within the fixed
// tolerance, but a normalisation divides that rounding by a spread that may be
// rounding itself. Each bound here follows from the standard bound on a float
// sum of n terms, |fl(sum) - sum| <= gamma_n sum |x_i| with gamma_n = n u /
// (1 - n u), u the unit roundoff, and is added to an element's tolerance in the
// comparison of the call's result with the device's fingerprint.
#include "reference/host_calls.h"
#include "runtime/bundle.h"
#include "runtime/fingerprint.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace npusim::runtime {

/// gamma_n for the unit roundoff u.
double sumRounding(int64_t n, double unitRoundoff);

struct CallBound {
  std::string what; // "LayerNorm", "softmax"
  ElementRule rule;
  int64_t rows = 0;
  /// LayerNorm: rows whose variance lies within its rounding of zero (a
  /// constant row, up to rounding): there the output's deviation from the bias
  /// is rounding divided by sqrt(eps).
  int64_t constantRows = 0;
};

/// The bound of `step`'s result `out` (a call of aten.native_layer_norm, out 0,
/// or aten._softmax, out 0) on the run's storages after the step; nothing for
/// other calls and results.
std::optional<CallBound> callResultBound(const Step &step, size_t out,
                                         const std::vector<std::unique_ptr<reference::Buffer>> &storages);

} // namespace npusim::runtime
