#include "runtime/rounding_tolerance.h"

#include "runtime/runner_internal.h"

#include <algorithm>
#include <cmath>

namespace npusim::runtime {

double roundingTolerance(core::DType dtype, int64_t depth) {
  double u = 0.0;
  if (dtype == core::DType::BFloat16)
    u = std::ldexp(1.0, -8);
  else if (dtype == core::DType::Float16)
    u = std::ldexp(1.0, -11);
  if (u == 0.0 || depth <= 0)
    return 0.0;
  const double d = static_cast<double>(depth);
  return 2.0 * std::expm1(kRoundingLambda * std::sqrt(d) * u + d * u * u / (1.0 - u));
}

Depths valueDepths(const Bundle &bundle) {
  Depths d;
  d.storage.assign(bundle.storages.size(), 0);
  for (const Step &step : bundle.steps) {
    int64_t depth = 1;
    for (int64_t s : readStorages(step))
      depth = std::max(depth, 1 + d.storage[static_cast<size_t>(s)]);
    d.step.push_back(depth);
    for (int64_t s : writtenStorages(step))
      d.storage[static_cast<size_t>(s)] = std::max(d.storage[static_cast<size_t>(s)], depth);
  }
  return d;
}

std::optional<ElementRule> roundingRule(core::DType dtype, int64_t depth, double scale, double absSum) {
  const double tolerance = roundingTolerance(dtype, depth);
  if (tolerance <= 0.0)
    return std::nullopt;
  ElementRule rule;
  rule.rounding = tolerance;
  rule.scale = scale;
  // Each element within tolerance * (|expected| + scale): the sum within
  // tolerance * (abs_sum + elements * scale) = 2 tolerance abs_sum.
  rule.sumAllowance = 2.0 * tolerance * absSum;
  return rule;
}

} // namespace npusim::runtime
