#include "runtime/call_bounds.h"

#include "runtime/fingerprint.h"
#include "runtime/runner_internal.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace npusim::runtime {

namespace {

/// The unit roundoff of the arithmetic a device computes `dtype` in: fp32 or wider
/// (Inductor computes fp16 and bf16 in fp32).
double unitRoundoff(core::DType dtype) {
  return dtype == core::DType::Float64 ? std::ldexp(1.0, -53) : std::ldexp(1.0, -24);
}

const TensorRef *tensorArg(const Step &step, size_t i) {
  if (i >= step.callArgs.size() || step.callArgs[i].kind != core::CallKind::Tensor)
    return nullptr;
  return &step.callArgs[i].tensor;
}

std::optional<double> numberArg(const Step &step, size_t i) {
  if (i >= step.callArgs.size())
    return std::nullopt;
  const CallValue &v = step.callArgs[i];
  if (v.kind == core::CallKind::Float)
    return v.floatValue;
  if (v.kind == core::CallKind::Int)
    return static_cast<double>(v.intValue);
  return std::nullopt;
}

/// LayerNorm over rows of n: |y' - y| <= |w| (d_a r_max + |a| (r_max - r_min)), at
/// most |w| (sqrt(n) + |a| r) (a normalised value never exceeds sqrt(n - 1)), where the
/// device's mean is within d_mu = gamma_{n+1} mean|x| of npusim's, its centred values
/// within d_a = d_mu + u (|a| + d_mu), its variance within d_v = 2 gamma_{n+2} mean(x^2) +
/// d_mu^2, and r in [1 / sqrt(var + d_v + eps), (1 + 4u) / sqrt(max(var - d_v, 0) + eps)].
/// A row gets the allowance where the mean's rounding alone, amplified by r_max, can
/// exceed the fixed tolerance; the others keep it.
std::optional<CallBound> layerNormBound(const Step &step, const std::vector<std::unique_ptr<reference::Buffer>> &s) {
  const TensorRef *input = tensorArg(step, 0);
  const std::optional<double> eps = numberArg(step, 4);
  if (!input || !eps || step.callArgs.size() < 2 || !step.out[0])
    return std::nullopt;
  const CallValue &shape = step.callArgs[1];
  int64_t n = 1;
  if (shape.kind == core::CallKind::Int)
    n = shape.intValue;
  else if (shape.kind == core::CallKind::List)
    for (const CallValue &e : shape.list)
      n *= e.intValue;
  else
    return std::nullopt;
  const std::vector<double> x = reference::readValues(viewOf(s, *input));
  if (n <= 0 || x.size() % static_cast<size_t>(n) != 0)
    return std::nullopt;
  std::vector<double> w(static_cast<size_t>(n), 1.0);
  if (const TensorRef *weight = tensorArg(step, 2)) {
    w = reference::readValues(viewOf(s, *weight));
    if (w.size() != static_cast<size_t>(n))
      return std::nullopt;
  }
  const double u = unitRoundoff(s[static_cast<size_t>(input->storage)]->dtype);
  CallBound bound;
  bound.what = "LayerNorm";
  bound.rows = static_cast<int64_t>(x.size()) / n;
  std::vector<double> allowance(x.size(), 0.0);
  const double nd = static_cast<double>(n);
  for (int64_t row = 0; row < bound.rows; ++row) {
    const double *xr = x.data() + row * n;
    double mean = 0.0, meanAbs = 0.0, meanSquare = 0.0;
    for (int64_t i = 0; i < n; ++i) {
      mean += xr[i];
      meanAbs += std::fabs(xr[i]);
      meanSquare += xr[i] * xr[i];
    }
    mean /= nd;
    meanAbs /= nd;
    meanSquare /= nd;
    double var = 0.0;
    for (int64_t i = 0; i < n; ++i)
      var += (xr[i] - mean) * (xr[i] - mean);
    var /= nd;
    const double dMean = sumRounding(n + 1, u) * meanAbs;
    const double dVar = 2.0 * sumRounding(n + 2, u) * meanSquare + dMean * dMean;
    const double rMax = (1.0 + 4.0 * u) / std::sqrt(std::max(var - dVar, 0.0) + *eps);
    const double rMin = 1.0 / std::sqrt(var + dVar + *eps);
    if (var <= dVar)
      ++bound.constantRows;
    if (!(dMean * rMax > kAtol)) // well conditioned (and NaN rows): the fixed tolerance
      continue;
    const double r = 1.0 / std::sqrt(var + *eps);
    for (int64_t i = 0; i < n; ++i) {
      const double a = std::fabs(xr[i] - mean);
      const double dA = dMean + u * (a + dMean);
      const double amplified = dA * rMax + a * (rMax - rMin);
      const double v = std::fabs(w[static_cast<size_t>(i)]) * std::min(amplified, std::sqrt(nd) + a * r);
      allowance[static_cast<size_t>(row * n + i)] = std::isfinite(v) ? v : 0.0;
    }
  }
  double total = 0.0;
  for (double a : allowance)
    total += std::isfinite(a) ? a : 0.0;
  bound.rule.sumAllowance = total;
  bound.rule.bound = [allowance = std::move(allowance)](int64_t i) {
    ElementBound b;
    b.allowance = allowance[static_cast<size_t>(i)];
    return b;
  };
  return bound;
}

/// Softmax along `dim`: p = e / S with e = exp(x - max); the device's e is within (2u +
/// u |x - max|) of npusim's relatively (exp, and the rounded difference), S within
/// gamma_n, the quotient within u: |p' - p| <= p (gamma_n + 4u + 2u |x - max|). With equal
/// logits that is (gamma_n + 4u) / n per element.
std::optional<CallBound> softmaxBound(const Step &step, const std::vector<std::unique_ptr<reference::Buffer>> &s) {
  const TensorRef *input = tensorArg(step, 0);
  if (!input || step.callArgs.size() < 2 || step.callArgs[1].kind != core::CallKind::Int || !step.out[0])
    return std::nullopt;
  const int64_t rank = static_cast<int64_t>(input->shape.size());
  int64_t dim = step.callArgs[1].intValue;
  if (dim < 0)
    dim += std::max<int64_t>(rank, 1);
  if (rank == 0 || dim < 0 || dim >= rank)
    return std::nullopt;
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < dim; ++d)
    outer *= input->shape[static_cast<size_t>(d)];
  for (int64_t d = dim + 1; d < rank; ++d)
    inner *= input->shape[static_cast<size_t>(d)];
  const int64_t n = input->shape[static_cast<size_t>(dim)];
  const std::vector<double> x = reference::readValues(viewOf(s, *input));
  const std::vector<double> p = reference::readValues(viewOf(s, *step.out[0]));
  if (p.size() != x.size())
    return std::nullopt;
  const double u = unitRoundoff(s[static_cast<size_t>(input->storage)]->dtype);
  const double relative = sumRounding(n, u) + 4.0 * u;
  CallBound bound;
  bound.what = "softmax";
  bound.rows = outer * inner;
  std::vector<double> allowance(x.size(), 0.0);
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t j = 0; j < inner; ++j) {
      const auto at = [&](int64_t k) { return static_cast<size_t>((o * n + k) * inner + j); };
      double top = -std::numeric_limits<double>::infinity();
      for (int64_t k = 0; k < n; ++k)
        top = std::max(top, x[at(k)]);
      for (int64_t k = 0; k < n; ++k) {
        const double a = std::fabs(p[at(k)]) * (relative + 2.0 * u * std::fabs(x[at(k)] - top));
        allowance[at(k)] = std::isfinite(a) ? a : 0.0;
      }
    }
  double total = 0.0;
  for (double a : allowance)
    total += a;
  bound.rule.sumAllowance = total;
  bound.rule.bound = [allowance = std::move(allowance)](int64_t i) {
    ElementBound b;
    b.allowance = allowance[static_cast<size_t>(i)];
    return b;
  };
  return bound;
}

} // namespace

double sumRounding(int64_t n, double unitRoundoff) {
  const double nu = static_cast<double>(n) * unitRoundoff;
  return nu < 1.0 ? nu / (1.0 - nu) : std::numeric_limits<double>::infinity();
}

std::optional<CallBound> callResultBound(const Step &step, size_t out,
                                         const std::vector<std::unique_ptr<reference::Buffer>> &storages) {
  if (step.kind != Step::Kind::Call || out != 0 || step.out.empty())
    return std::nullopt;
  if (step.name == "aten.native_layer_norm")
    return layerNormBound(step, storages);
  if (step.name == "aten._softmax")
    return softmaxBound(step, storages);
  return std::nullopt;
}

} // namespace npusim::runtime
