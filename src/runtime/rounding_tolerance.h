#pragma once
// Tolerances of 16-bit floats (docs/bundle-format.md, "Tolerances of 16-bit
// floats"): a bf16 or fp16 value is judged by the rounding of its format at
// the depth of the computation that made it, not by fp32's fixed tolerance.
// python/npusim/bundle.py (rounding_tolerance, storage_depths) computes the same.
#include "core/dtype.h"
#include "runtime/bundle.h"
#include "runtime/fingerprint.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace npusim::runtime {

/// lambda of Higham and Mary's probabilistic bound (SIAM J. Sci. Comput. 41(5),
/// 2019): exceeded with probability at most 2 d exp(-lambda^2 (1 - u)^2 / 2)
/// when the d roundings are independent.
inline constexpr double kRoundingLambda = 6.0;

/// The allowance, relative to |expected| + mean |expected|, of a value of
/// `dtype` that `depth` roundings separate from the inputs, compared between
/// two runs that each round: 2 (exp(lambda sqrt(d) u + d u^2 / (1 - u)) - 1),
/// u = 2^-8 (bf16) or 2^-11 (fp16). 0 for other dtypes (the fixed tolerance).
double roundingTolerance(core::DType dtype, int64_t depth);

/// Depths of the bundle's values: per storage, the steps on the longest chain
/// from the graph's inputs to what it holds after the last step (0: never
/// written); per step, 1 + the deepest storage it reads. Each step rounds what
/// it stores once.
struct Depths {
  std::vector<int64_t> storage, step;
};
Depths valueDepths(const Bundle &bundle);

/// The rule judging a view of `dtype` at `depth` whose expected values have
/// mean magnitude `scale` (a fingerprint's abs_sum / elements); nothing where
/// roundingTolerance is 0.
std::optional<ElementRule> roundingRule(core::DType dtype, int64_t depth, double scale, double absSum);

} // namespace npusim::runtime
