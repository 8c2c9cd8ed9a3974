// The comparison of a step's NPU results with the reference's on the same
// inputs: whole buffers (a launch's) and the rule of 16-bit float results
// (each side rounds once).
#include "runtime/npu_steps_internal.h"

#include "core/npy.h"
#include "runtime/rounding_tolerance.h"

#include <cmath>
#include <cstdint>
#include <optional>
#include <vector>

namespace npusim::runtime {

std::optional<ElementRule> oneRounding(core::DType dtype, const std::vector<double> &expected) {
  double absSum = 0.0;
  int64_t finite = 0;
  for (double x : expected)
    if (std::isfinite(x)) {
      absSum += std::fabs(x);
      ++finite;
    }
  return roundingRule(dtype, 1, finite > 0 ? absSum / static_cast<double>(finite) : 0.0, absSum);
}

Comparison compareBuffers(reference::Buffer &actual, const std::vector<uint8_t> &expected) {
  if (actual.bytes == expected)
    return Comparison{};
  core::NpyArray array;
  array.dtype = actual.dtype;
  array.shape = {actual.numElements()};
  array.bytes = expected;
  reference::TensorView view;
  view.buffer = &actual;
  view.shape = {actual.numElements()};
  view.stride = {1};
  std::optional<ElementRule> rule;
  if (roundingTolerance(actual.dtype, 1) > 0.0) {
    reference::Buffer want;
    want.dtype = actual.dtype;
    want.bytes = expected;
    reference::TensorView wantView = view;
    wantView.buffer = &want;
    rule = oneRounding(actual.dtype, reference::readValues(wantView));
  }
  return compareWithReference(view, array, rule ? &*rule : nullptr);
}

} // namespace npusim::runtime
