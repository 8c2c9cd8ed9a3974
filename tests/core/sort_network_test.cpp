// core::bitonicSort: on distinct keys every network sorts (checked against
// std::sort); stable sort_with_index orders ties by index at every length; the
// length must be a power of two.
#include "core/sort_network.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace npusim::core {
namespace {

std::vector<int64_t> sortKeys(SortNetwork network, bool descending, const std::vector<double> &keys) {
  const SortLine line{
      [&](int64_t a, int64_t b) { return keys[static_cast<size_t>(a)] > keys[static_cast<size_t>(b)]; },
      [&](int64_t a, int64_t b) { return keys[static_cast<size_t>(a)] == keys[static_cast<size_t>(b)]; },
      [&](int64_t a) { return std::isnan(keys[static_cast<size_t>(a)]); },
      [](int64_t a, int64_t b) { return a > b; }, [](int64_t) { return true; }};
  return bitonicSort(network, descending, static_cast<int64_t>(keys.size()), line);
}

TEST(SortNetwork, DistinctKeysComeOutSortedInEveryNetwork) {
  uint32_t state = 7;
  for (int64_t n = 1; n <= 256; n *= 2)
    for (SortNetwork network :
         {SortNetwork::TritonSort, SortNetwork::WithIndex, SortNetwork::WithIndexStable})
      for (bool descending : {false, true}) {
        std::vector<double> keys(static_cast<size_t>(n));
        for (int64_t i = 0; i < n; ++i)
          keys[static_cast<size_t>(i)] = static_cast<double>(i) - 0.5 * static_cast<double>(n);
        for (int64_t i = n - 1; i > 0; --i) { // Fisher-Yates with an LCG
          state = state * 1664525u + 1013904223u;
          std::swap(keys[static_cast<size_t>(i)], keys[static_cast<size_t>((state >> 8) % (i + 1))]);
        }
        std::vector<double> expected = keys;
        std::sort(expected.begin(), expected.end());
        if (descending)
          std::reverse(expected.begin(), expected.end());
        const std::vector<int64_t> at = sortKeys(network, descending, keys);
        std::vector<double> got;
        for (int64_t e : at)
          got.push_back(keys[static_cast<size_t>(e)]);
        EXPECT_EQ(got, expected) << "n " << n << " network " << static_cast<int>(network) << " descending "
                                 << descending;
      }
}

TEST(SortNetwork, StableWithIndexOrdersTiesByIndex) {
  for (int64_t n = 2; n <= 128; n *= 2)
    for (bool descending : {false, true}) {
      std::vector<double> keys(static_cast<size_t>(n));
      for (int64_t i = 0; i < n; ++i)
        keys[static_cast<size_t>(i)] = static_cast<double>((i * 7) % 3); // three values, many ties
      std::vector<int64_t> expected(static_cast<size_t>(n));
      for (int64_t i = 0; i < n; ++i)
        expected[static_cast<size_t>(i)] = i;
      std::stable_sort(expected.begin(), expected.end(), [&](int64_t a, int64_t b) {
        return descending ? keys[static_cast<size_t>(a)] > keys[static_cast<size_t>(b)]
                          : keys[static_cast<size_t>(a)] < keys[static_cast<size_t>(b)];
      });
      EXPECT_EQ(sortKeys(SortNetwork::WithIndexStable, descending, keys), expected)
          << "n " << n << " descending " << descending;
    }
}

TEST(SortNetwork, LengthMustBeAPowerOfTwo) {
  EXPECT_THROW(sortKeys(SortNetwork::WithIndex, false, {3.0, 1.0, 2.0}), RuntimeError);
}

} // namespace
} // namespace npusim::core
