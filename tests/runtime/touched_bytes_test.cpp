// The union of DRAM runs a step touched (runtime/touched_bytes.h), against a
// byte map of the same runs.
#include "runtime/touched_bytes.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace npusim::runtime {
namespace {

TEST(ByteRanges, MergesOverlappingAndAdjacentRuns) {
  ByteRanges r;
  r.add(100, 10);  // [100, 110)
  r.add(110, 10);  // adjacent: [100, 120)
  r.add(105, 3);   // inside
  r.add(200, 50);  // [200, 250)
  r.add(90, 15);   // reaches back: [90, 120)
  EXPECT_EQ(r.ranges(), 2u);
  EXPECT_EQ(r.bytesWithin(0, 1000), 30u + 50u);
  EXPECT_EQ(r.bytesWithin(95, 210), 25u + 10u);
  r.add(115, 90); // bridges both: [90, 250)
  EXPECT_EQ(r.ranges(), 1u);
  EXPECT_EQ(r.bytesWithin(0, 1000), 160u);
  EXPECT_EQ(r.bytesWithin(250, 1000), 0u);
  r.add(300, 0); // empty
  EXPECT_EQ(r.ranges(), 1u);
}

TEST(ByteRanges, AgreesWithAByteMapOverRandomRuns) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 20; ++trial) {
    ByteRanges r;
    std::vector<bool> touched(4096, false);
    std::uniform_int_distribution<int> start(0, 4000), length(0, 96), order(0, 3);
    int cursor = 0;
    for (int i = 0; i < 300; ++i) {
      // Mostly in address order (as a DMA issues its runs), sometimes anywhere.
      const int a = order(rng) == 0 ? start(rng) : cursor;
      const int n = length(rng);
      cursor = std::min(4000, a + n + order(rng) * 8);
      r.add(static_cast<uint64_t>(a), static_cast<uint64_t>(n));
      for (int b = a; b < a + n; ++b)
        touched[static_cast<size_t>(b)] = true;
    }
    for (int lo = 0; lo < 4096; lo += 317)
      for (int hi = lo; hi <= 4096; hi += 509) {
        uint64_t expected = 0;
        for (int b = lo; b < hi; ++b)
          expected += touched[static_cast<size_t>(b)];
        ASSERT_EQ(r.bytesWithin(static_cast<uint64_t>(lo), static_cast<uint64_t>(hi)), expected)
            << "trial " << trial << ", [" << lo << ", " << hi << ")";
      }
  }
}

TEST(TouchedBytes, KeepsReadsAndWritesApart) {
  npu::InstanceTrace trace;
  npu::ExecutedInstruction load, store;
  load.dram = {{1000, 64, false}, {1064, 64, false}};
  store.dram = {{1000, 32, true}};
  trace.instructions = {load, store};
  TouchedBytes t;
  t.add(trace);
  t.add(trace); // a second instance touching the same bytes adds none
  EXPECT_EQ(t.read.bytesWithin(0, 4096), 128u);
  EXPECT_EQ(t.written.bytesWithin(0, 4096), 32u);
}

} // namespace
} // namespace npusim::runtime
