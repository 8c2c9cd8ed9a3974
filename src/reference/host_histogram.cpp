// aten.histc(self, bins, min, max): counts of the elements in `bins` equal
// bins over [min, max], as PyTorch's CUDA kernel computes them
// (aten/src/ATen/native/cuda/SummaryOps.cu): min and max are rounded to the
// input's dtype; min == max takes the input's minimum and maximum instead, and
// a range that is still empty widens to [min - 1, max + 1]; an element v
// counts when min <= v <= max (NaN never does), in bin
//   (int)((v - min) * bins / (max - min)), the last bin taking v == max,
// computed in fp32 for 16- and 32-bit floats (CUDA's accumulate type), in
// double for fp64, in int64 for integers. The counts have the input's dtype.
#include "core/float16.h"
#include "reference/host_calls_internal.h"

#include <algorithm>
#include <cmath>

namespace npusim::reference::host {

namespace {

/// The bin of every element in [lo, hi] (-1 outside), in arithmetic T.
template <typename T> int64_t binOf(T v, T lo, T hi, int64_t bins) {
  if (!(v >= lo && v <= hi))
    return -1;
  const int64_t bin = static_cast<int64_t>(static_cast<T>((v - lo) * static_cast<T>(bins)) / (hi - lo));
  return bin == bins ? bin - 1 : bin;
}

double roundTo(core::DType dtype, double v) {
  switch (dtype) {
  case core::DType::Float32: return static_cast<float>(v);
  case core::DType::Float16: return core::halfToFloat(core::doubleToHalf(v));
  case core::DType::BFloat16: return core::bfloat16ToFloat(core::doubleToBFloat16(v));
  default: return v;
  }
}

} // namespace

std::vector<bool> callHistc(const CallArgs &c) {
  const TensorView &self = c.tensor(0, "self");
  const int64_t bins = c.integer(1, "bins");
  if (bins <= 0)
    c.fail(1, "bins", "must be positive, got " + std::to_string(bins));
  const TensorView &out = c.out(0);
  const std::string op(c.op());
  checkView(self, op + ": self");
  checkView(out, op + ": out");
  expectShape(out, std::vector<int64_t>{bins}, op, "out");
  const core::DType dtype = self.dtype();
  const bool floating = core::isFloat(dtype);
  const std::vector<double> values = readValues(self);
  const std::vector<int64_t> integers = floating ? std::vector<int64_t>{} : readIntegers(self);

  double lo = floating ? roundTo(dtype, c.number(2, "min")) : std::trunc(c.number(2, "min"));
  double hi = floating ? roundTo(dtype, c.number(3, "max")) : std::trunc(c.number(3, "max"));
  if (lo == hi && !values.empty()) {
    // torch.min/max propagate NaN, which the finiteness check below rejects.
    const bool nan = std::any_of(values.begin(), values.end(), [](double v) { return std::isnan(v); });
    const auto [mn, mx] = std::minmax_element(values.begin(), values.end());
    lo = nan ? NAN : *mn;
    hi = nan ? NAN : *mx;
  }
  if (lo == hi) {
    lo = floating ? roundTo(dtype, lo - 1) : lo - 1;
    hi = floating ? roundTo(dtype, hi + 1) : hi + 1;
  }
  if (!std::isfinite(lo) || !std::isfinite(hi))
    c.fail("range of [" + std::to_string(lo) + ", " + std::to_string(hi) + "] is not finite");
  if (!(lo < hi))
    c.fail(2, "min",
           "max must be larger than min (range [" + std::to_string(lo) + ", " + std::to_string(hi) + "])");

  std::vector<double> counts(static_cast<size_t>(bins), 0.0);
  for (size_t i = 0; i < values.size(); ++i) {
    int64_t bin;
    if (!floating)
      bin = binOf<int64_t>(integers[i], static_cast<int64_t>(lo), static_cast<int64_t>(hi), bins);
    else if (dtype == core::DType::Float64)
      bin = binOf<double>(values[i], lo, hi, bins);
    else
      bin = binOf<float>(static_cast<float>(values[i]), static_cast<float>(lo), static_cast<float>(hi), bins);
    if (bin >= 0)
      counts[static_cast<size_t>(bin)] += 1.0;
  }
  writeValues(out, counts);
  return std::vector<bool>(c.numOuts(), true);
}

} // namespace npusim::reference::host
