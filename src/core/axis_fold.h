#pragma once
// A tensor seen around one axis as [outer, length, inner], and the sequential
// folds along that axis. The reference interpreter and the functional
// simulator both reduce and scan through these, so that their order of
// evaluation (acc = x[0]; acc = f(acc, x[k]) for k = 1, 2, ...) is one
// definition and their results are bit-identical.
#include <algorithm>
#include <cstdint>
#include <span>

namespace npusim::core {

struct AxisSplit {
  int64_t outer = 1, length = 1, inner = 1;
  /// Independent lines along the axis.
  int64_t lanes() const { return outer * inner; }
  /// Row-major index of element (o, k, in).
  int64_t at(int64_t o, int64_t k, int64_t in) const { return (o * length + k) * inner + in; }
};

inline AxisSplit splitAxis(std::span<const int64_t> shape, int axis) {
  AxisSplit s;
  for (int d = 0; d < static_cast<int>(shape.size()); ++d) {
    if (d < axis)
      s.outer *= shape[static_cast<size_t>(d)];
    else if (d == axis)
      s.length = shape[static_cast<size_t>(d)];
    else
      s.inner *= shape[static_cast<size_t>(d)];
  }
  return s;
}

/// r[o, in] = step(...step(step(x[o, 0, in], x[o, 1, in]), x[o, 2, in])...).
template <class T, class Step> void foldAxis(const T *x, T *r, const AxisSplit &s, Step step) {
  for (int64_t o = 0; o < s.outer; ++o) {
    T *acc = r + o * s.inner;
    const T *base = x + o * s.length * s.inner;
    std::copy(base, base + s.inner, acc);
    for (int64_t k = 1; k < s.length; ++k) {
      const T *row = base + k * s.inner;
      for (int64_t in = 0; in < s.inner; ++in)
        acc[in] = step(acc[in], row[in]);
    }
  }
}

/// Inclusive scan along the axis, from its end when `reverse`.
template <class T, class Step> void scanAxis(const T *x, T *r, const AxisSplit &s, bool reverse, Step step) {
  for (int64_t o = 0; o < s.outer; ++o) {
    const int64_t first = reverse ? s.length - 1 : 0;
    std::copy(x + s.at(o, first, 0), x + s.at(o, first, 0) + s.inner, r + s.at(o, first, 0));
    for (int64_t m = 1; m < s.length; ++m) {
      const int64_t k = reverse ? s.length - 1 - m : m;
      const int64_t previous = reverse ? k + 1 : k - 1;
      const T *row = x + s.at(o, k, 0);
      const T *acc = r + s.at(o, previous, 0);
      T *out = r + s.at(o, k, 0);
      for (int64_t in = 0; in < s.inner; ++in)
        out[in] = step(acc[in], row[in]);
    }
  }
}

} // namespace npusim::core
