// Inductor's looped reductions that carry state across blocks through
// triton_helpers functions of torch 2.11: the online softmax
// (online_softmax_combine, online_softmax_reduce) and the looped scan, whose
// carry advances by the block's last element (select_one). Each kernel is
// run by the reference interpreter at several block sizes and compared with
// a plain loop in double.
#include "reference/kernel_harness.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace npusim::reference {
namespace {

using core::DType;
using harness::allClose;
using harness::allEqual;
using harness::ceilDiv;
using harness::compileKernel;
using harness::contents;
using harness::floatsOf;
using harness::intArg;
using harness::kTol;
using harness::makeBuffer;
using harness::outputBuffer;
using harness::pointerArg;
using harness::randomFloats;
using harness::randomInts;

struct Blocks {
  int64_t xblock, r0block;
};

class OnlineSoftmaxTest : public ::testing::TestWithParam<Blocks> {};

// softmax over rows of 300 (24 rows): a row with a few -inf logits (their
// probabilities are 0), a row of equal logits (1/300 each), a row of large
// logits (exp would overflow without the running max) and a row of only
// -inf, which is NaN everywhere as in torch.softmax.
TEST_P(OnlineSoftmaxTest, MatchesTheTwoPassSoftmaxInDouble) {
  const Blocks b = GetParam();
  constexpr int kRows = 24, kCols = 300;
  auto k = compileKernel("triton_red_fused__softmax_exp_prepare_softmax_online_sub_0.py",
                         {{"XBLOCK", b.xblock}, {"R0_BLOCK", b.r0block}});
  std::vector<float> x = randomFloats(kRows * kCols, 21, -8.0f, 8.0f);
  const float inf = std::numeric_limits<float>::infinity();
  for (int c = 0; c < kCols; c += 7)
    x[1 * kCols + c] = -inf;
  for (int c = 0; c < kCols; ++c) {
    x[2 * kCols + c] = 0.75f;
    x[3 * kCols + c] += 500.0f;
    x[5 * kCols + c] = -inf;
  }
  Buffer in = makeBuffer("arg0_1", DType::Float32, x);
  Buffer out = outputBuffer("buf2", kRows * kCols);
  std::vector<Argument> args{pointerArg(in), pointerArg(out), intArg(kRows), intArg(kCols)};
  runLaunch(*k.function, Grid{ceilDiv(kRows, b.xblock), 1, 1}, args);

  std::vector<double> expected(kRows * kCols);
  for (int r = 0; r < kRows; ++r) {
    const float *row = &x[static_cast<size_t>(r * kCols)];
    double m = -std::numeric_limits<double>::infinity(), s = 0.0;
    for (int c = 0; c < kCols; ++c)
      m = std::max(m, static_cast<double>(row[c]));
    for (int c = 0; c < kCols; ++c)
      s += std::exp(row[c] - m);
    for (int c = 0; c < kCols; ++c)
      expected[static_cast<size_t>(r * kCols + c)] = std::exp(row[c] - m) / s;
  }
  const std::vector<float> got = floatsOf(out, kRows * kCols);
  for (int c = 0; c < kCols; ++c)
    ASSERT_TRUE(std::isnan(got[static_cast<size_t>(5 * kCols + c)])) << "the row of -inf at column " << c;
  for (int c = 0; c < kCols; c += 7)
    EXPECT_EQ(got[static_cast<size_t>(kCols + c)], 0.0f) << "exp(-inf - max) at column " << c;
  EXPECT_TRUE(allClose(got, expected, kTol, kTol)); // NaN matches NaN
}

INSTANTIATE_TEST_SUITE_P(Blocks, OnlineSoftmaxTest,
                         ::testing::Values(Blocks{8, 64}, Blocks{1, 512}, Blocks{32, 128}, Blocks{4, 16}));

class LoopedScanTest : public ::testing::TestWithParam<Blocks> {};

// cumsum over rows of 300 (5 rows), fp32 and int64 in one kernel: every block
// after the first adds the carry, which select_one advances by the block's
// last inclusive sum.
TEST_P(LoopedScanTest, CarriesEachBlocksLastElement) {
  const Blocks b = GetParam();
  constexpr int kRows = 5, kCols = 300;
  auto k = compileKernel("triton_red_fused_cumsum_0.py", {{"XBLOCK", b.xblock}, {"R0_BLOCK", b.r0block}});
  std::vector<float> x = randomFloats(kRows * kCols, 22, -1.0f, 1.0f);
  std::vector<int64_t> n(kRows * kCols);
  const std::vector<int64_t> draws = randomInts(kRows * kCols, 23, -1000000, 1000000);
  for (size_t i = 0; i < n.size(); ++i)
    n[i] = draws[i] * 4096; // sums past 2^32: the carry is 64-bit
  Buffer inF = makeBuffer("arg0_1", DType::Float32, x);
  Buffer inI = makeBuffer("arg1_1", DType::Int64, n);
  Buffer outF = outputBuffer("buf0", kRows * kCols);
  Buffer outI = makeBuffer("buf1", DType::Int64, std::vector<int64_t>(kRows * kCols, -7));
  std::vector<Argument> args{pointerArg(inF), pointerArg(inI), pointerArg(outF), pointerArg(outI),
                             intArg(kRows),   intArg(kCols)};
  runLaunch(*k.function, Grid{ceilDiv(kRows, b.xblock), 1, 1}, args);

  std::vector<double> expectedF(kRows * kCols);
  std::vector<int64_t> expectedI(kRows * kCols);
  for (int r = 0; r < kRows; ++r) {
    double s = 0.0;
    int64_t t = 0;
    for (int c = 0; c < kCols; ++c) {
      const size_t i = static_cast<size_t>(r * kCols + c);
      s += x[i];
      t += n[i];
      expectedF[i] = s;
      expectedI[i] = t;
    }
  }
  EXPECT_TRUE(allClose(floatsOf(outF, kRows * kCols), expectedF, kTol, kTol));
  EXPECT_TRUE(allEqual(contents<int64_t>(outI), expectedI));
}

INSTANTIATE_TEST_SUITE_P(Blocks, LoopedScanTest,
                         ::testing::Values(Blocks{1, 64}, Blocks{8, 128}, Blocks{2, 512}, Blocks{4, 32}));

} // namespace
} // namespace npusim::reference
