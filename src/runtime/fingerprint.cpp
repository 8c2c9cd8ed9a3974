#include "runtime/fingerprint.h"

#include "core/float16.h"
#include "core/text_format.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>

namespace npusim::runtime {

namespace {

/// The sample indices of a fingerprint of n elements.
std::vector<int64_t> sampleIndices(int64_t n) {
  std::vector<int64_t> indices;
  if (n <= 0)
    return indices;
  for (int k = 0; k < 64; ++k) {
    const auto i =
        static_cast<int64_t>(std::nearbyint(static_cast<double>(k) * static_cast<double>(n - 1) / 63.0));
    if (indices.empty() || indices.back() != i)
      indices.push_back(i);
  }
  return indices;
}

void describeSamples(Comparison &c, const std::string &what) {
  std::ostringstream s;
  s << c.overTolerance << " of " << c.compared << " " << what << " over tolerance, first at element "
    << c.firstBad << " (got " << core::significantDigits(c.firstActual, 9) << ", expected " << core::significantDigits(c.firstExpected, 9)
    << "), max error " << core::significantDigits(c.maxError, 9);
  c.message = s.str();
}

void record(Comparison &c, int64_t index, double actual, double expected, bool match) {
  ++c.compared;
  double error = std::fabs(actual - expected);
  if (std::isnan(error))
    error = match ? 0.0 : HUGE_VAL;
  if (!std::isnan(error) && error > c.maxError && !(match && std::isinf(actual)))
    c.maxError = error;
  if (match)
    return;
  if (c.overTolerance++ == 0) {
    c.firstBad = index;
    c.firstActual = actual;
    c.firstExpected = expected;
  }
  c.ok = false;
}

/// Within the fixed tolerance widened by the drift analysis's allowance
/// (finite values only: NaNs and infinities never match by drift).
bool withinDrift(double actual, const Sample &s) {
  return s.driftAllowance > 0.0 && std::isfinite(actual) && std::isfinite(s.value) &&
         std::fabs(actual - s.value) <= kAtol + kRtol * std::fabs(s.value) + s.driftAllowance;
}

/// Whether `actual` matches `expected` (with `driftAllowance`) under `rule`'s
/// bound of logical index `index`, recording in `c` how it was judged.
bool matchUnderRule(Comparison &c, const ElementRule *rule, int64_t index, double actual, double expected,
                    double driftAllowance) {
  const bool plain = floatsMatch(actual, expected);
  if (!rule)
    return plain;
  const ElementBound b = rule->bound ? rule->bound(index) : ElementBound{};
  if (b.kind == ElementBound::Kind::Interval) {
    c.judgedByInterval.push_back(index);
    const double tolerance = kAtol + kRtol * std::max(std::fabs(b.low), std::fabs(b.high));
    return std::isfinite(actual) && actual >= b.low - tolerance && actual <= b.high + tolerance;
  }
  const double allowance = b.allowance + rule->rounding * (std::fabs(expected) + rule->scale);
  if (plain || allowance <= 0.0 || !std::isfinite(actual) || !std::isfinite(expected))
    return plain;
  const bool within =
      std::fabs(actual - expected) <= kAtol + kRtol * std::fabs(expected) + allowance + driftAllowance;
  if (within)
    c.withinAllowance.push_back(index);
  return within;
}

} // namespace

bool floatsMatch(double actual, double expected) {
  if (std::isnan(expected) || std::isnan(actual))
    return std::isnan(expected) && std::isnan(actual);
  if (std::isinf(expected) || std::isinf(actual))
    return actual == expected;
  return std::fabs(actual - expected) <= kAtol + kRtol * std::fabs(expected);
}

Fingerprint computeFingerprint(const reference::TensorView &view) {
  Fingerprint f;
  f.elements = view.numel();
  const bool isFloat = core::isFloat(view.dtype());
  const std::vector<int64_t> indices = sampleIndices(f.elements);
  if (isFloat) {
    const std::vector<double> v = reference::readValues(view);
    for (double x : v) {
      if (std::isnan(x))
        ++f.nans;
      else if (std::isinf(x))
        ++f.infs;
      else {
        f.sum += x;
        f.absSum += std::fabs(x);
      }
    }
    for (int64_t i : indices)
      f.samples.push_back({i, v[static_cast<size_t>(i)], 0, false});
  } else {
    const std::vector<int64_t> v = reference::readIntegers(view);
    uint64_t sum = 0; // modulo 2^64, as int64 sums wrap
    for (int64_t x : v) {
      sum += static_cast<uint64_t>(x);
      f.sum += static_cast<double>(x);
      f.absSum += std::fabs(static_cast<double>(x));
    }
    f.exactSum = static_cast<int64_t>(sum);
    for (int64_t i : indices)
      f.samples.push_back(
          {i, static_cast<double>(v[static_cast<size_t>(i)]), v[static_cast<size_t>(i)], true});
  }
  return f;
}

Comparison compareFingerprint(const reference::TensorView &view, const Fingerprint &expected,
                              const ElementRule *rule) {
  Comparison c;
  const bool isFloat = core::isFloat(view.dtype());
  std::vector<double> v;
  std::vector<int64_t> vi;
  if (isFloat)
    v = reference::readValues(view);
  else
    vi = reference::readIntegers(view);
  for (const Sample &s : expected.samples) {
    const size_t i = static_cast<size_t>(s.index);
    if (isFloat)
      record(c, s.index, v[i], s.value,
             matchUnderRule(c, rule, s.index, v[i], s.value, s.driftAllowance) || withinDrift(v[i], s));
    else
      record(c, s.index, static_cast<double>(vi[i]), static_cast<double>(s.intValue), vi[i] == s.intValue);
  }
  std::vector<std::string> problems;
  if (!c.ok)
    describeSamples(c, "samples");
  if (!c.message.empty())
    problems.push_back(c.message);

  const Fingerprint actual = computeFingerprint(view);
  if (actual.nans != expected.nans)
    problems.push_back(std::to_string(actual.nans) + " NaNs, expected " + std::to_string(expected.nans));
  if (actual.infs != expected.infs)
    problems.push_back(std::to_string(actual.infs) + " infinities, expected " +
                       std::to_string(expected.infs));
  if (!isFloat && expected.exactSum) {
    if (*actual.exactSum != *expected.exactSum)
      problems.push_back("sum " + std::to_string(*actual.exactSum) + ", expected " +
                         std::to_string(*expected.exactSum));
  } else {
    const double allowed = 1e-4 * (std::fabs(expected.absSum) + 1.0) + expected.sumDriftAllowance +
                           (rule ? rule->sumAllowance : 0.0);
    const bool sumOk = std::fabs(actual.sum - expected.sum) <= allowed ||
                       (std::isnan(expected.sum) && std::isnan(actual.sum));
    if (!sumOk)
      problems.push_back("sum " + core::significantDigits(actual.sum, 9) + ", expected " + core::significantDigits(expected.sum, 9) +
                         " (allowed difference " + core::significantDigits(allowed, 9) + ")");
  }
  c.ok = problems.empty();
  c.message.clear();
  for (const std::string &p : problems)
    c.message += (c.message.empty() ? "" : "; ") + p;
  return c;
}

Comparison compareWithReference(const reference::TensorView &view, const core::NpyArray &reference,
                                const ElementRule *rule) {
  Comparison c;
  const int64_t n = view.numel();
  if (reference.numElements() != n) {
    c.ok = false;
    c.message = "the reference holds " + std::to_string(reference.numElements()) + " elements, the output " +
                std::to_string(n);
    return c;
  }
  const core::DType rt = reference.dtype;
  const core::DType vt = view.dtype();
  auto raw = [&](int64_t i, auto tag) {
    decltype(tag) x;
    std::memcpy(&x, reference.bytes.data() + static_cast<size_t>(i) * sizeof x, sizeof x);
    return x;
  };
  if (core::isFloat(vt)) {
    const std::vector<double> v = reference::readValues(view);
    // A 16-bit float output may come as its raw bit patterns (numpy has no bf16).
    const bool bits16 = !core::isFloat(rt) && core::byteSize(rt) == 2 && core::byteSize(vt) == 2;
    for (int64_t i = 0; i < n; ++i) {
      double expected = 0.0;
      if (bits16) {
        const uint16_t b = raw(i, uint16_t{});
        expected = vt == core::DType::BFloat16 ? core::bfloat16ToFloat(b) : core::halfToFloat(b);
      } else {
        switch (rt) {
        case core::DType::Float16: expected = core::halfToFloat(raw(i, uint16_t{})); break;
        case core::DType::Float32: expected = raw(i, float{}); break;
        case core::DType::Float64: expected = raw(i, double{}); break;
        case core::DType::Bool: expected = raw(i, uint8_t{}) != 0; break;
        case core::DType::Int8: expected = raw(i, int8_t{}); break;
        case core::DType::UInt8: expected = raw(i, uint8_t{}); break;
        case core::DType::Int16: expected = raw(i, int16_t{}); break;
        case core::DType::UInt16: expected = raw(i, uint16_t{}); break;
        case core::DType::Int32: expected = raw(i, int32_t{}); break;
        case core::DType::UInt32: expected = raw(i, uint32_t{}); break;
        case core::DType::Int64: expected = static_cast<double>(raw(i, int64_t{})); break;
        case core::DType::UInt64: expected = static_cast<double>(raw(i, uint64_t{})); break;
        case core::DType::BFloat16: expected = core::bfloat16ToFloat(raw(i, uint16_t{})); break;
        }
      }
      record(c, i, v[static_cast<size_t>(i)], expected,
             matchUnderRule(c, rule, i, v[static_cast<size_t>(i)], expected, 0.0));
    }
  } else {
    const std::vector<int64_t> v = reference::readIntegers(view);
    for (int64_t i = 0; i < n; ++i) {
      int64_t expected = 0;
      switch (rt) {
      case core::DType::Bool: expected = raw(i, uint8_t{}) != 0; break;
      case core::DType::Int8: expected = raw(i, int8_t{}); break;
      case core::DType::UInt8: expected = raw(i, uint8_t{}); break;
      case core::DType::Int16: expected = raw(i, int16_t{}); break;
      case core::DType::UInt16: expected = raw(i, uint16_t{}); break;
      case core::DType::Int32: expected = raw(i, int32_t{}); break;
      case core::DType::UInt32: expected = raw(i, uint32_t{}); break;
      case core::DType::Int64: expected = raw(i, int64_t{}); break;
      case core::DType::UInt64: expected = static_cast<int64_t>(raw(i, uint64_t{})); break;
      default:
        c.ok = false;
        c.message = "the reference holds floats (" + std::string(core::numpyDescriptor(rt)) +
                    ") but the output is " + std::string(core::tritonName(vt));
        return c;
      }
      const int64_t a = v[static_cast<size_t>(i)];
      record(c, i, static_cast<double>(a), static_cast<double>(expected), a == expected);
    }
  }
  if (!c.ok)
    describeSamples(c, "elements");
  return c;
}

MeasuredDrift measureDrift(const reference::TensorView &view, const Fingerprint &device) {
  MeasuredDrift d;
  if (device.elements <= 0)
    return d;
  d.scale = device.absSum / static_cast<double>(device.elements);
  const std::vector<double> values = reference::readValues(view);
  for (const Sample &s : device.samples) {
    const double now = values[static_cast<size_t>(s.index)];
    const double denominator = std::fabs(s.value) + d.scale;
    if (std::isfinite(now) && std::isfinite(s.value) && denominator > 0.0)
      d.drift = std::max(d.drift, std::fabs(now - s.value) / denominator);
  }
  // The sum sees every element: elements each within d (|x| + m) of the
  // device's move the sum by at most d (abs_sum + n m) = 2 d abs_sum, so a sum
  // that moved by D implies a drift of at least D / (2 abs_sum), which the
  // samples alone may miss.
  double sum = 0.0;
  for (double v : values)
    if (std::isfinite(v))
      sum += v;
  if (device.absSum > 0.0 && std::isfinite(device.sum))
    d.drift = std::max(d.drift, std::fabs(sum - device.sum) / (2.0 * device.absSum));
  return d;
}

} // namespace npusim::runtime
