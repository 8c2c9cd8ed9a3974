#pragma once
// The bitonic sorting networks of Triton's sorts, compare for compare, so that
// equal keys (and NaN, and -0 against +0) come out where the GPU puts them.
// Both executors (the reference interpreter and the NPU's functional
// simulator) sort through this one function.
//
// A line of n = 2^L elements goes through stages s = 1..L; stage s runs
// compare-and-swaps at partner distances 2^(s-1), ..., 2, 1 between positions
// p and q = p + d (p without bit d). The flip of a pair is bit s of p in every
// stage but the last, where it is `descending` for tl.sort and 0 for
// sort_with_index. Per pair, with L = the element at p and R the one at q:
//
// - tl.sort (python/triton/language/standard.py, Triton 3: `_compare_and_swap`
//   of `_bitonic_merge_hypercube`): position p takes R when (L > R) != flip,
//   else keeps L; position q takes L when (R > L) != !flip, else keeps R. The
//   two choices are made separately, so a pair whose comparison is false both
//   ways (NaN, or -0 against +0) can end with one element twice, as on the GPU.
// - Inductor's sort_with_index (torch/_inductor/runtime/triton_helpers.py,
//   `_compare_and_swap_with_index`): key and index swap together when cond ^
//   flip, cond = (L > R, or L < R when descending; NaN counts as larger: for
//   floats `| isnan(L)` ascending, `| isnan(R)` descending, each only against a
//   number when stable); stable adds (L == R or both NaN) and index(L) >
//   index(R); elements whose valid flag is false (padding past rnumel) then
//   win over valid ones: cond = (valid(R) > valid(L)) | (valid(R) ==
//   valid(L) & cond).
#include "core/error.h"

#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

namespace npusim::core {

enum class SortNetwork {
  TritonSort,      // tl.sort: keys only
  WithIndex,       // triton_helpers.sort_with_index(..., stable=False)
  WithIndexStable, // triton_helpers.sort_with_index(..., stable=True)
};

/// The element comparisons of one line, by element number (its position
/// before the sort): `greater(a, b)` is key(a) > key(b) (false with NaN),
/// `equal(a, b)` key(a) == key(b), `isNan(a)` (always false for integers),
/// `indexGreater(a, b)` index(a) > index(b), `valid(a)` whether a is not padding.
template <class Greater, class Equal, class IsNan, class IndexGreater, class Valid> struct SortLine {
  Greater greater;
  Equal equal;
  IsNan isNan;
  IndexGreater indexGreater;
  Valid valid;
};
// Spelt out for compilers without deduction for aggregates (clang before 17).
template <class Greater, class Equal, class IsNan, class IndexGreater, class Valid>
SortLine(Greater, Equal, IsNan, IndexGreater, Valid) -> SortLine<Greater, Equal, IsNan, IndexGreater, Valid>;

/// Runs the network over a line of `n` elements (a power of two) and returns,
/// per position, the number of the element that ends there.
template <class Line>
std::vector<int64_t> bitonicSort(SortNetwork network, bool descending, int64_t n, const Line &line) {
  if (n < 1 || (n & (n - 1)) != 0)
    throw RuntimeError("a Triton sort of " + std::to_string(n) +
                       " elements: the length must be a power of two");
  std::vector<int64_t> at(static_cast<size_t>(n));
  std::iota(at.begin(), at.end(), int64_t{0});
  int stages = 0;
  while ((int64_t{1} << stages) < n)
    ++stages;
  const bool stable = network == SortNetwork::WithIndexStable;
  for (int stage = 1; stage <= stages; ++stage)
    for (int i = 0; i < stage; ++i) {
      const int64_t d = int64_t{1} << (stage - 1 - i);
      for (int64_t p = 0; p < n; ++p) {
        if (p & d)
          continue;
        const int64_t q = p + d;
        const bool last = stage == stages;
        const int64_t a = at[static_cast<size_t>(p)], b = at[static_cast<size_t>(q)];
        if (network == SortNetwork::TritonSort) {
          const bool flip = last ? descending : ((p >> stage) & 1) != 0;
          at[static_cast<size_t>(p)] = line.greater(a, b) != flip ? b : a;
          at[static_cast<size_t>(q)] = line.greater(b, a) != !flip ? a : b;
          continue;
        }
        const bool flip = last ? false : ((p >> stage) & 1) != 0;
        const bool nanA = line.isNan(a), nanB = line.isNan(b);
        bool cond = descending ? line.greater(b, a) || (nanB && (!stable || !nanA))
                               : line.greater(a, b) || (nanA && (!stable || !nanB));
        if (stable)
          cond = cond || ((line.equal(a, b) || (nanA && nanB)) && line.indexGreater(a, b));
        const bool validA = line.valid(a), validB = line.valid(b);
        cond = (validB && !validA) || (validA == validB && cond);
        if (cond != flip)
          std::swap(at[static_cast<size_t>(p)], at[static_cast<size_t>(q)]);
      }
    }
  return at;
}

} // namespace npusim::core
