// End-to-end tests of the front end and the reference interpreter on kernels
// written the way TorchInductor writes them (tests/data/kernels/*.py): each
// kernel is loaded, lowered, launched, and its outputs are compared with an
// independent computation written below as a plain C++ loop. This file holds
// the kernel shapes (pointwise, reductions, scans, sorts, templates, foreach,
// gathers); kernels_numerics_test.cpp holds numerics and memory semantics.
//
// Tolerances: rtol = atol = 1e-4 for float results that depend on the order of
// floating-point operations (reductions, dot products), bit-exact comparisons
// where the kernel does the same IEEE operations in the same order as the
// expectation (elementwise fp32, copies, integer arithmetic).
#include "reference/kernel_harness.h"

#include "core/error.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <string>

namespace npusim::reference {
namespace {

using core::DType;
using harness::allClose;
using harness::allEqual;
using harness::bitsOf;
using harness::ceilDiv;
using harness::compileKernel;
using harness::contents;
using harness::floatsOf;
using harness::intArg;
using harness::kInf;
using harness::kNaN;
using harness::kSentinel;
using harness::kTol;
using harness::makeBuffer;
using harness::outputBuffer;
using harness::pointerArg;
using harness::randomFloats;
using harness::randomInts;
using harness::widen;

// ---------------------------------------------------------------------------
// 1. Pointwise 1-D: out = relu(x + bias[x % 40]), xnumel = 1000 (not a
// multiple of XBLOCK), for several block sizes.

class KernelAddReluTest : public ::testing::TestWithParam<int64_t> {};

TEST_P(KernelAddReluTest, MatchesLoopForEveryBlockSize) {
  const int64_t xblock = GetParam();
  auto k = compileKernel("triton_poi_fused_add_relu_0.py", {{"XBLOCK", xblock}});
  std::vector<float> x = randomFloats(1000, 1, -2.0f, 2.0f);
  std::vector<float> bias = randomFloats(40, 2, -1.0f, 1.0f);
  x[5] = bias[5] = -0.0f; // -0 + -0 = -0, and maximum(0, -0.0) keeps -0.0 (0 > -0 is false)
  x[6] = kNaN;            // maximum(0, NaN) is NaN
  Buffer in0 = makeBuffer("arg0_1", DType::Float32, x);
  Buffer in1 = makeBuffer("arg1_1", DType::Float32, bias);
  Buffer out = outputBuffer("buf0", 1000);
  std::vector<Argument> args{pointerArg(in0), pointerArg(in1), pointerArg(out), intArg(1000)};

  const Grid grid{ceilDiv(1000, xblock), 1, 1};
  auto inferred = triton::inferGrid(k.file.metadata, {{"XBLOCK", xblock}}, {{"xnumel", 1000}});
  ASSERT_TRUE(inferred.has_value());
  EXPECT_EQ(inferred->x, grid.x);
  EXPECT_EQ(inferred->y, 1);
  const LaunchStats stats = runLaunch(*k.function, grid, args);
  EXPECT_EQ(stats.programs, grid.x);

  std::vector<float> expected(1000);
  for (size_t i = 0; i < 1000; ++i) {
    const float s = x[i] + bias[i % 40];
    expected[i] = 0.0f > s ? 0.0f : s; // triton_helpers.maximum(0, s): where(0 > s, 0, s)
  }
  EXPECT_TRUE(std::signbit(expected[5]) && expected[5] == 0.0f);
  // One fp32 add and a max: exact, to the bit.
  EXPECT_TRUE(allEqual(bitsOf(floatsOf(out, 1000)), bitsOf(expected)));
}

INSTANTIATE_TEST_SUITE_P(BlockSizes, KernelAddReluTest, ::testing::Values(64, 128, 1024));

TEST(KernelAddReluOffsetTest, ReadsAndWritesThroughOffsetPointers) {
  // Inductor passes views of larger storages (reinterpret_tensor with an
  // offset): the pointer argument points into the middle of its buffer.
  auto k = compileKernel("triton_poi_fused_add_relu_0.py", {{"XBLOCK", 256}});
  const std::vector<float> storage = randomFloats(1037, 48, -2.0f, 2.0f);
  const std::vector<float> bias = randomFloats(40, 49, -1.0f, 1.0f);
  Buffer in0 = makeBuffer("buf7", DType::Float32, storage);
  Buffer in1 = makeBuffer("arg1_1", DType::Float32, bias);
  Buffer out = outputBuffer("buf8", 1000 + 24, 0);
  std::vector<Argument> args{pointerArg(in0, 37), pointerArg(in1), pointerArg(out, 24), intArg(1000)};
  runLaunch(*k.function, Grid{ceilDiv(1000, 256), 1, 1}, args);
  std::vector<float> all = contents<float>(out), expected(1024, kSentinel);
  for (size_t i = 0; i < 1000; ++i) {
    const float s = storage[37 + i] + bias[i % 40];
    expected[24 + i] = 0.0f > s ? 0.0f : s;
  }
  EXPECT_TRUE(allEqual(bitsOf(all), bitsOf(expected)));
}

// ---------------------------------------------------------------------------
// 2. Pointwise 2-D: a channels-last [2, 48, 5, 8] tensor copied to NCHW, with
// YBLOCK x XBLOCK tiles on a 2-D grid (ynumel = 96, xnumel = 40).

class KernelChannelsLastCopyTest : public ::testing::TestWithParam<std::pair<int64_t, int64_t>> {};

TEST_P(KernelChannelsLastCopyTest, TransposesEveryTile) {
  const auto [yblock, xblock] = GetParam();
  auto k = compileKernel("triton_poi_fused_clone_0.py", {{"YBLOCK", yblock}, {"XBLOCK", xblock}});
  constexpr int N = 2, C = 48, HW = 40;
  const std::vector<float> src = randomFloats(N * C * HW, 3, -1.0f, 1.0f); // [n][hw][c]
  Buffer in = makeBuffer("arg0_1", DType::Float32, src);
  Buffer out = outputBuffer("buf0", N * C * HW);
  std::vector<Argument> args{pointerArg(in), pointerArg(out), intArg(N * C), intArg(HW)};
  const Grid grid{ceilDiv(HW, xblock), ceilDiv(N * C, yblock), 1};
  auto inferred = triton::inferGrid(k.file.metadata, {{"YBLOCK", yblock}, {"XBLOCK", xblock}},
                                    {{"xnumel", HW}, {"ynumel", N * C}});
  ASSERT_TRUE(inferred.has_value());
  EXPECT_EQ(inferred->x, grid.x);
  EXPECT_EQ(inferred->y, grid.y);
  runLaunch(*k.function, grid, args);

  std::vector<float> expected(N * C * HW);
  for (int n = 0; n < N; ++n)
    for (int c = 0; c < C; ++c)
      for (int p = 0; p < HW; ++p)
        expected[(n * C + c) * HW + p] = src[(n * HW + p) * C + c];
  EXPECT_TRUE(allEqual(bitsOf(floatsOf(out, N * C * HW)), bitsOf(expected)));
}

TEST(KernelChannelsLastCopyTest, YBlocksSpreadOverProgramIdsOneAndTwo) {
  // Grid2DWithYZOverflow: y block = program_id(1) + program_id(2) * num_programs(1).
  auto k = compileKernel("triton_poi_fused_clone_2.py", {{"YBLOCK", 8}, {"XBLOCK", 16}});
  constexpr int N = 2, C = 48, HW = 9;
  const std::vector<float> src = randomFloats(N * C * HW, 50, -1.0f, 1.0f); // NCHW
  Buffer in = makeBuffer("arg0_1", DType::Float32, src);
  Buffer out = outputBuffer("buf0", N * C * HW);
  std::vector<Argument> args{pointerArg(in), pointerArg(out), intArg(N * C), intArg(HW)};
  runLaunch(*k.function, Grid{1, 4, 3}, args); // 4 x 3 = 12 = cdiv(96, 8) y blocks
  std::vector<float> expected(N * C * HW);
  for (int n = 0; n < N; ++n)
    for (int c = 0; c < C; ++c)
      for (int p = 0; p < HW; ++p)
        expected[(n * HW + p) * C + c] = src[(n * C + c) * HW + p];
  EXPECT_TRUE(allEqual(bitsOf(floatsOf(out, N * C * HW)), bitsOf(expected)));
}

INSTANTIATE_TEST_SUITE_P(Tiles, KernelChannelsLastCopyTest,
                         ::testing::Values(std::make_pair(int64_t{32}, int64_t{16}),
                                           std::make_pair(int64_t{64}, int64_t{64}),
                                           std::make_pair(int64_t{1}, int64_t{8}),
                                           std::make_pair(int64_t{128}, int64_t{4})));

// ---------------------------------------------------------------------------
// 3. Looped reductions over rows of [37, 300].

struct RedBlocks {
  int64_t xblock, r0block;
};

class KernelLoopedReductionTest : public ::testing::TestWithParam<RedBlocks> {};

TEST_P(KernelLoopedReductionTest, SumCarriesTheAccumulatorAcrossIterations) {
  const RedBlocks b = GetParam();
  auto k = compileKernel("triton_red_fused_sum_0.py", {{"XBLOCK", b.xblock}, {"R0_BLOCK", b.r0block}});
  const std::vector<float> x = randomFloats(37 * 300, 4, -1.0f, 1.0f);
  Buffer in = makeBuffer("arg0_1", DType::Float32, x);
  Buffer out = outputBuffer("buf0", 37);
  std::vector<Argument> args{pointerArg(in), pointerArg(out), intArg(37), intArg(300)};
  runLaunch(*k.function, Grid{ceilDiv(37, b.xblock), 1, 1}, args);

  std::vector<double> expected(37, 0.0);
  for (int r = 0; r < 37; ++r)
    for (int c = 0; c < 300; ++c)
      expected[r] += x[r * 300 + c];
  EXPECT_TRUE(allClose(floatsOf(out, 37), expected, kTol, kTol));
}

TEST_P(KernelLoopedReductionTest, MaxStartsFromMinusInfinityAndPropagatesNaN) {
  const RedBlocks b = GetParam();
  auto k = compileKernel("triton_red_fused_amax_0.py", {{"XBLOCK", b.xblock}, {"R0_BLOCK", b.r0block}});
  std::vector<float> x = randomFloats(37 * 300, 5, -1.0f, 1.0f);
  for (int c = 0; c < 300; ++c) // row 3: all negative, so masked lanes' 0.0 must not win
    x[3 * 300 + c] = -5.0f + 0.01f * static_cast<float>(c % 7);
  x[7 * 300 + 299] = 30.0f; // row 7: the max in the last, partial block
  x[11 * 300 + 150] = kNaN; // row 11: NaN propagates through maximum and max2
  Buffer in = makeBuffer("arg0_1", DType::Float32, x);
  Buffer out = outputBuffer("buf0", 37);
  std::vector<Argument> args{pointerArg(in), pointerArg(out), intArg(37), intArg(300)};
  runLaunch(*k.function, Grid{ceilDiv(37, b.xblock), 1, 1}, args);

  std::vector<double> expected(37);
  for (int r = 0; r < 37; ++r) {
    double m = -std::numeric_limits<double>::infinity();
    bool nan = false;
    for (int c = 0; c < 300; ++c) {
      nan |= std::isnan(x[r * 300 + c]);
      m = std::max(m, static_cast<double>(x[r * 300 + c]));
    }
    expected[r] = nan ? std::nan("") : m;
  }
  EXPECT_LT(expected[3], -4.0); // row 3 is all negative
  EXPECT_TRUE(allClose(floatsOf(out, 37), expected, 0.0, 0.0));
}

INSTANTIATE_TEST_SUITE_P(Blocks, KernelLoopedReductionTest,
                         ::testing::Values(RedBlocks{8, 64}, RedBlocks{1, 512}, RedBlocks{4, 128},
                                           RedBlocks{64, 16}));

// ---------------------------------------------------------------------------
// 4. Persistent reductions: softmax and layer norm over rows of [20, 50] in a
// block of 64 (R0_BLOCK fixed in the body).

class KernelPersistentReductionTest : public ::testing::TestWithParam<int64_t> {};

TEST_P(KernelPersistentReductionTest, Softmax) {
  const int64_t xblock = GetParam();
  auto k = compileKernel("triton_per_fused__softmax_0.py", {{"XBLOCK", xblock}});
  std::vector<float> x = randomFloats(20 * 50, 6, -3.0f, 3.0f);
  for (int c = 0; c < 50; ++c) // row 5: exp would overflow without subtracting the max
    x[5 * 50 + c] = 100.0f + 0.2f * static_cast<float>(c);
  Buffer in = makeBuffer("arg0_1", DType::Float32, x);
  Buffer out = outputBuffer("buf2", 20 * 50);
  std::vector<Argument> args{pointerArg(in), pointerArg(out), intArg(20), intArg(50)};
  runLaunch(*k.function, Grid{ceilDiv(20, xblock), 1, 1}, args);

  std::vector<double> expected(20 * 50);
  for (int r = 0; r < 20; ++r) {
    double m = -INFINITY, sum = 0.0;
    for (int c = 0; c < 50; ++c)
      m = std::max(m, static_cast<double>(x[r * 50 + c]));
    for (int c = 0; c < 50; ++c)
      sum += std::exp(x[r * 50 + c] - m);
    for (int c = 0; c < 50; ++c)
      expected[r * 50 + c] = std::exp(x[r * 50 + c] - m) / sum;
  }
  EXPECT_TRUE(allClose(floatsOf(out, 20 * 50), expected, kTol, 1e-6));
}

TEST_P(KernelPersistentReductionTest, LayerNormTwoPassMeanAndVariance) {
  const int64_t xblock = GetParam();
  auto k = compileKernel("triton_per_fused_native_layer_norm_0.py", {{"XBLOCK", xblock}});
  const std::vector<float> x = randomFloats(20 * 50, 7, 3.0f, 5.0f);
  const std::vector<float> w = randomFloats(50, 8, 0.5f, 1.5f);
  const std::vector<float> bias = randomFloats(50, 9, -0.5f, 0.5f);
  Buffer rstd = outputBuffer("buf3", 20);
  Buffer in0 = makeBuffer("primals_3", DType::Float32, x);
  Buffer in1 = makeBuffer("primals_1", DType::Float32, w);
  Buffer in2 = makeBuffer("primals_2", DType::Float32, bias);
  Buffer mean = outputBuffer("buf0", 20);
  Buffer y = outputBuffer("buf4", 20 * 50);
  std::vector<Argument> args{pointerArg(rstd), pointerArg(in0), pointerArg(in1), pointerArg(in2),
                             pointerArg(mean), pointerArg(y),   intArg(20),      intArg(50)};
  runLaunch(*k.function, Grid{ceilDiv(20, xblock), 1, 1}, args);

  std::vector<double> eMean(20), eRstd(20), eY(20 * 50);
  for (int r = 0; r < 20; ++r) {
    double s = 0.0, ss = 0.0;
    for (int c = 0; c < 50; ++c)
      s += x[r * 50 + c];
    const double mu = s / 50.0;
    for (int c = 0; c < 50; ++c)
      ss += (x[r * 50 + c] - mu) * (x[r * 50 + c] - mu);
    const double rs = 1.0 / std::sqrt(ss / 50.0 + 1e-5);
    eMean[r] = mu;
    eRstd[r] = rs;
    for (int c = 0; c < 50; ++c)
      eY[r * 50 + c] = (x[r * 50 + c] - mu) * rs * w[c] + bias[c];
  }
  EXPECT_TRUE(allClose(floatsOf(mean, 20), eMean, kTol, kTol));
  EXPECT_TRUE(allClose(floatsOf(rstd, 20), eRstd, kTol, kTol));
  EXPECT_TRUE(allClose(floatsOf(y, 20 * 50), eY, kTol, kTol));
}

INSTANTIATE_TEST_SUITE_P(XBlocks, KernelPersistentReductionTest, ::testing::Values(1, 8, 32));

// ---------------------------------------------------------------------------
// 5. Welford: welford_reduce in a loop (first iteration on roffset == 0), then
// welford across the lanes; rows of [24, 300] with a large mean.

class KernelWelfordTest : public ::testing::TestWithParam<RedBlocks> {};

TEST_P(KernelWelfordTest, MeanVarianceAndWeightMatchTwoPassDouble) {
  const RedBlocks b = GetParam();
  auto k = compileKernel("triton_red_fused_var_mean_0.py", {{"XBLOCK", b.xblock}, {"R0_BLOCK", b.r0block}});
  std::vector<float> x = randomFloats(24 * 300, 10, -1.0f, 1.0f);
  for (int r = 0; r < 24; ++r)
    for (int c = 0; c < 300; ++c)
      x[r * 300 + c] += 10.0f + static_cast<float>(r);
  for (int c = 0; c < 300; ++c) // row 4: constant, variance exactly 0
    x[4 * 300 + c] = 2.5f;
  Buffer in = makeBuffer("arg0_1", DType::Float32, x);
  Buffer mean = outputBuffer("buf0", 24), var = outputBuffer("buf1", 24), weight = outputBuffer("buf2", 24);
  std::vector<Argument> args{pointerArg(in),     pointerArg(mean), pointerArg(var),
                             pointerArg(weight), intArg(24),       intArg(300)};
  runLaunch(*k.function, Grid{ceilDiv(24, b.xblock), 1, 1}, args);

  std::vector<double> eMean(24), eVar(24), eWeight(24, 300.0);
  for (int r = 0; r < 24; ++r) {
    double s = 0.0, ss = 0.0;
    for (int c = 0; c < 300; ++c)
      s += x[r * 300 + c];
    eMean[r] = s / 300.0;
    for (int c = 0; c < 300; ++c)
      ss += (x[r * 300 + c] - eMean[r]) * (x[r * 300 + c] - eMean[r]);
    eVar[r] = ss / 300.0;
  }
  EXPECT_TRUE(allClose(floatsOf(mean, 24), eMean, kTol, kTol));
  EXPECT_TRUE(allClose(floatsOf(var, 24), eVar, kTol, kTol));
  EXPECT_TRUE(allClose(floatsOf(weight, 24), eWeight, 0.0, 0.0)); // counts are exact
}

INSTANTIATE_TEST_SUITE_P(Blocks, KernelWelfordTest,
                         ::testing::Values(RedBlocks{4, 64}, RedBlocks{2, 512}, RedBlocks{1, 128},
                                           RedBlocks{32, 32}));

// ---------------------------------------------------------------------------
// 6. argmax / argmin: ties go to the smallest index, NaN wins (as torch.argmax
// and Inductor's max_with_index / min_with_index define it).

/// (index, value) of the max (or min) of a row: NaN beats everything, the
/// first of equal values wins.
std::pair<int64_t, float> argExtreme(const float *row, int n, bool isMax) {
  int64_t best = 0;
  for (int i = 1; i < n; ++i) {
    const float v = row[i], b = row[best];
    if (std::isnan(b))
      break;
    if (std::isnan(v) || (isMax ? v > b : v < b))
      best = i;
  }
  return {best, row[best]};
}

std::vector<float> argRows(int rowLength, uint32_t seed) {
  std::vector<float> x = randomFloats(6 * static_cast<size_t>(rowLength), seed, -1.0f, 1.0f);
  float *r1 = &x[1 * rowLength], *r2 = &x[2 * rowLength], *r3 = &x[3 * rowLength], *r4 = &x[4 * rowLength],
        *r5 = &x[5 * rowLength];
  const int last = rowLength - 1;
  // row 1: ties, in different lanes and (for the looped kernel) iterations.
  r1[7] = r1[20] = r1[last] = 5.0f;
  r1[3] = r1[33] = -5.0f;
  // row 2: two NaNs: the first wins both argmax and argmin.
  r2[30] = r2[40] = kNaN;
  // row 3: all equal.
  std::fill(r3, r3 + rowLength, 0.25f);
  // row 4: extremes at the ends.
  r4[last] = 9.0f;
  r4[0] = -9.0f;
  // row 5: infinities.
  r5[10] = -kInf;
  r5[12] = kInf;
  return x;
}

class KernelArgReductionTest : public ::testing::TestWithParam<int64_t> {};

TEST_P(KernelArgReductionTest, PersistentMaxAndMinWithIndex) {
  const int64_t xblock = GetParam();
  auto k = compileKernel("triton_per_fused_argmax_argmin_max_min_0.py", {{"XBLOCK", xblock}});
  const std::vector<float> x = argRows(50, 11);
  Buffer in = makeBuffer("arg0_1", DType::Float32, x);
  Buffer amax = makeBuffer("buf0", DType::Int64, std::vector<int64_t>(6, -7));
  Buffer amin = makeBuffer("buf1", DType::Int64, std::vector<int64_t>(6, -7));
  Buffer vmax = outputBuffer("buf2", 6), vmin = outputBuffer("buf3", 6);
  std::vector<Argument> args{pointerArg(in),   pointerArg(amax), pointerArg(amin), pointerArg(vmax),
                             pointerArg(vmin), intArg(6),        intArg(50)};
  runLaunch(*k.function, Grid{ceilDiv(6, xblock), 1, 1}, args);

  std::vector<int64_t> eMaxIdx, eMinIdx;
  std::vector<float> eMax, eMin;
  for (int r = 0; r < 6; ++r) {
    auto [i1, v1] = argExtreme(&x[r * 50], 50, true);
    auto [i2, v2] = argExtreme(&x[r * 50], 50, false);
    eMaxIdx.push_back(i1);
    eMax.push_back(v1);
    eMinIdx.push_back(i2);
    eMin.push_back(v2);
  }
  // The cases the rows were built for, spelled out.
  EXPECT_EQ(eMaxIdx[1], 7);
  EXPECT_EQ(eMinIdx[1], 3);
  EXPECT_EQ(eMaxIdx[2], 30);
  EXPECT_EQ(eMinIdx[2], 30);
  EXPECT_EQ(eMaxIdx[3], 0);
  EXPECT_EQ(eMaxIdx[5], 12);
  EXPECT_EQ(eMinIdx[5], 10);

  EXPECT_TRUE(allEqual(contents<int64_t>(amax), eMaxIdx));
  EXPECT_TRUE(allEqual(contents<int64_t>(amin), eMinIdx));
  EXPECT_TRUE(allClose(floatsOf(vmax, 6), widen(eMax), 0.0, 0.0));
  EXPECT_TRUE(allClose(floatsOf(vmin, 6), widen(eMin), 0.0, 0.0));
}

TEST_P(KernelArgReductionTest, LoopedMaximumAndMinimumWithIndex) {
  const int64_t xblock = GetParam();
  for (int64_t r0block : {64, 512, 16}) {
    SCOPED_TRACE("R0_BLOCK " + std::to_string(r0block));
    auto k =
        compileKernel("triton_red_fused_argmax_argmin_0.py", {{"XBLOCK", xblock}, {"R0_BLOCK", r0block}});
    std::vector<float> x = argRows(300, 12);
    x[1 * 300 + 70] = 5.0f;  // another tie for row 1's max, in a later iteration
    x[2 * 300 + 250] = kNaN; // a later NaN in row 2
    x[4 * 300 + 260] = 9.0f; // row 4: 9.0 at 260 and at 299: 260 wins
    Buffer in = makeBuffer("arg0_1", DType::Float32, x);
    Buffer amin = makeBuffer("buf0", DType::Int64, std::vector<int64_t>(6, -7));
    Buffer amax = makeBuffer("buf1", DType::Int64, std::vector<int64_t>(6, -7));
    std::vector<Argument> args{pointerArg(in), pointerArg(amin), pointerArg(amax), intArg(6), intArg(300)};
    runLaunch(*k.function, Grid{ceilDiv(6, xblock), 1, 1}, args);

    std::vector<int64_t> eMaxIdx, eMinIdx;
    for (int r = 0; r < 6; ++r) {
      eMaxIdx.push_back(argExtreme(&x[r * 300], 300, true).first);
      eMinIdx.push_back(argExtreme(&x[r * 300], 300, false).first);
    }
    EXPECT_EQ(eMaxIdx[1], 7);
    EXPECT_EQ(eMaxIdx[4], 260);
    EXPECT_TRUE(allEqual(contents<int64_t>(amin), eMinIdx));
    EXPECT_TRUE(allEqual(contents<int64_t>(amax), eMaxIdx));
  }
}

INSTANTIATE_TEST_SUITE_P(XBlocks, KernelArgReductionTest, ::testing::Values(1, 4, 8));

// ---------------------------------------------------------------------------
// 7. Scans and reductions with combine functions.

class KernelCombineTest : public ::testing::TestWithParam<int64_t> {};

TEST_P(KernelCombineTest, CumsumThroughAssociativeScanInFp32AndInt64) {
  const int64_t xblock = GetParam();
  auto k = compileKernel("triton_per_fused__to_copy_cumsum_0.py", {{"XBLOCK", xblock}});
  // Integer values: every summation order gives the same, exact, result.
  const std::vector<int64_t> ints = randomInts(10 * 50, 13, -10, 10);
  std::vector<float> x(ints.begin(), ints.end());
  Buffer in = makeBuffer("arg0_1", DType::Float32, x);
  Buffer outF = outputBuffer("buf0", 10 * 50);
  Buffer outI = makeBuffer("buf1", DType::Int64, std::vector<int64_t>(10 * 50, -7));
  std::vector<Argument> args{pointerArg(in), pointerArg(outF), pointerArg(outI), intArg(10), intArg(50)};
  runLaunch(*k.function, Grid{ceilDiv(10, xblock), 1, 1}, args);

  std::vector<double> eF(10 * 50);
  std::vector<int64_t> eI(10 * 50);
  for (int r = 0; r < 10; ++r) {
    int64_t acc = 0;
    for (int c = 0; c < 50; ++c) {
      acc += ints[r * 50 + c];
      eI[r * 50 + c] = acc;
      eF[r * 50 + c] = static_cast<double>(acc);
    }
  }
  EXPECT_TRUE(allClose(floatsOf(outF, 10 * 50), eF, 0.0, 0.0));
  EXPECT_TRUE(allEqual(contents<int64_t>(outI), eI));
}

TEST_P(KernelCombineTest, ReduceWithSingleAndTupleCombineFunctions) {
  const int64_t xblock = GetParam();
  auto k = compileKernel("triton_per_fused_amax_prod_sum_0.py", {{"XBLOCK", xblock}});
  // Powers of two (and their negatives): products and sums are exact in any order.
  static const float kValues[] = {-2.0f, -1.0f, -0.5f, 0.5f, 1.0f, 2.0f};
  const std::vector<int64_t> picks = randomInts(12 * 16, 14, 0, 5);
  std::vector<float> x(12 * 16);
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = kValues[picks[i]];
  x[11 * 16 + 5] = kNaN; // row 11: NaN through the product, the sum and triton_helpers.maximum
  Buffer in = makeBuffer("arg0_1", DType::Float32, x);
  Buffer prod = outputBuffer("buf0", 12), sum = outputBuffer("buf1", 12), amax = outputBuffer("buf2", 12);
  std::vector<Argument> args{pointerArg(in),   pointerArg(prod), pointerArg(sum),
                             pointerArg(amax), intArg(12),       intArg(16)};
  runLaunch(*k.function, Grid{ceilDiv(12, xblock), 1, 1}, args);

  std::vector<double> eProd(12, 1.0), eSum(12, 0.0), eMax(12, -INFINITY);
  for (int r = 0; r < 12; ++r)
    for (int c = 0; c < 16; ++c) {
      const double v = x[r * 16 + c];
      eProd[r] *= v;
      eSum[r] += v;
      eMax[r] = std::isnan(v) || std::isnan(eMax[r]) ? NAN : std::max(eMax[r], v);
    }
  EXPECT_TRUE(allClose(floatsOf(prod, 12), eProd, 0.0, 0.0));
  EXPECT_TRUE(allClose(floatsOf(sum, 12), eSum, 0.0, 0.0));
  EXPECT_TRUE(allClose(floatsOf(amax, 12), eMax, 0.0, 0.0));
}

INSTANTIATE_TEST_SUITE_P(XBlocks, KernelCombineTest, ::testing::Values(1, 4, 16));

// ---------------------------------------------------------------------------
// 8. sort_with_index, stable: equal values keep their index order.

/// Stable sort of one row: (values, original indices).
std::pair<std::vector<float>, std::vector<int64_t>> stableSortRow(const float *row, int n, bool descending) {
  std::vector<int64_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  // NaN sorts as the largest value (torch.sort's order).
  auto less = [&](int64_t a, int64_t b) {
    const float x = row[a], y = row[b];
    if (std::isnan(x) || std::isnan(y))
      return !std::isnan(x) && std::isnan(y);
    return x < y;
  };
  std::stable_sort(order.begin(), order.end(),
                   [&](int64_t a, int64_t b) { return descending ? less(b, a) : less(a, b); });
  std::vector<float> values;
  for (int64_t i : order)
    values.push_back(row[i]);
  return {values, order};
}

class KernelSortTest : public ::testing::TestWithParam<int64_t> {};

TEST_P(KernelSortTest, AscendingStableWithTiesAndNaN) {
  const int64_t xblock = GetParam();
  auto k = compileKernel("triton_per_fused_sort_0.py", {{"XBLOCK", xblock}});
  const std::vector<int64_t> ints = randomInts(6 * 64, 15, -5, 5);
  std::vector<float> x(ints.begin(), ints.end()); // eleven distinct values over 64 lanes: many ties
  x[5 * 64 + 9] = kNaN;                           // row 5: one NaN sorts last
  Buffer in = makeBuffer("arg0_1", DType::Float32, x);
  Buffer values = outputBuffer("buf0", 6 * 64);
  Buffer indices = makeBuffer("buf1", DType::Int64, std::vector<int64_t>(6 * 64, -7));
  std::vector<Argument> args{pointerArg(in), pointerArg(values), pointerArg(indices), intArg(6), intArg(64)};
  runLaunch(*k.function, Grid{ceilDiv(6, xblock), 1, 1}, args);

  std::vector<double> eValues;
  std::vector<int64_t> eIndices;
  for (int r = 0; r < 6; ++r) {
    auto [v, i] = stableSortRow(&x[r * 64], 64, false);
    eValues.insert(eValues.end(), v.begin(), v.end());
    eIndices.insert(eIndices.end(), i.begin(), i.end());
  }
  EXPECT_TRUE(std::isnan(eValues[5 * 64 + 63]));
  EXPECT_TRUE(allClose(floatsOf(values, 6 * 64), eValues, 0.0, 0.0));
  EXPECT_TRUE(allEqual(contents<int64_t>(indices), eIndices));
}

TEST_P(KernelSortTest, DescendingStableWithPaddingSortedLast) {
  const int64_t xblock = GetParam();
  auto k = compileKernel("triton_per_fused_sort_1.py", {{"XBLOCK", xblock}});
  // Values around 0: the padding lanes (loaded as 0.0) tie with real zeros and
  // must still end up after every real element.
  const std::vector<int64_t> ints = randomInts(6 * 50, 16, -5, 5);
  std::vector<float> x(ints.begin(), ints.end());
  Buffer in = makeBuffer("arg0_1", DType::Float32, x);
  Buffer values = outputBuffer("buf0", 6 * 50);
  Buffer indices = makeBuffer("buf1", DType::Int64, std::vector<int64_t>(6 * 50, -7));
  std::vector<Argument> args{pointerArg(in), pointerArg(values), pointerArg(indices), intArg(6), intArg(50)};
  runLaunch(*k.function, Grid{ceilDiv(6, xblock), 1, 1}, args);

  std::vector<double> eValues;
  std::vector<int64_t> eIndices;
  for (int r = 0; r < 6; ++r) {
    auto [v, i] = stableSortRow(&x[r * 50], 50, true);
    eValues.insert(eValues.end(), v.begin(), v.end());
    eIndices.insert(eIndices.end(), i.begin(), i.end());
  }
  EXPECT_TRUE(allClose(floatsOf(values, 6 * 50), eValues, 0.0, 0.0));
  EXPECT_TRUE(allEqual(contents<int64_t>(indices), eIndices));
}

INSTANTIATE_TEST_SUITE_P(XBlocks, KernelSortTest, ::testing::Values(1, 2, 8));

// ---------------------------------------------------------------------------
// 9. The mm template: FixedGrid, grouped program ordering, masked epilogue.

std::vector<double> referenceMatmul(const std::vector<float> &a, const std::vector<float> &b, int m, int n, int kk,
                           bool bTransposed) {
  std::vector<double> c(static_cast<size_t>(m) * n, 0.0);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double s = 0.0;
      for (int p = 0; p < kk; ++p)
        s += static_cast<double>(a[i * kk + p]) * (bTransposed ? b[j * kk + p] : b[p * n + j]);
      c[i * n + j] = s;
    }
  return c;
}

TEST(KernelMatmulTemplateTest, MmWithEvenK) {
  auto k = compileKernel("triton_tem_fused_mm_0.py");
  EXPECT_EQ(k.file.metadata.gridType, "FixedGrid");
  EXPECT_TRUE(k.file.metadata.freeConstexprs().empty());
  constexpr int M = 40, N = 56, K = 48;
  const std::vector<float> a = randomFloats(M * K, 17, -1.0f, 1.0f), b = randomFloats(K * N, 18, -1.0f, 1.0f);
  Buffer bufA = makeBuffer("arg0_1", DType::Float32, a), bufB = makeBuffer("arg1_1", DType::Float32, b);
  Buffer out = outputBuffer("buf0", M * N);
  std::vector<Argument> args{pointerArg(bufA), pointerArg(bufB), pointerArg(out)};
  runLaunch(*k.function, Grid{ceilDiv(M, 32) * ceilDiv(N, 32), 1, 1}, args);
  EXPECT_TRUE(allClose(floatsOf(out, M * N), referenceMatmul(a, b, M, N, K, false), kTol, kTol));
}

TEST(KernelMatmulTemplateTest, AddmmWithMaskedKAndTransposedB) {
  auto k = compileKernel("triton_tem_fused_addmm_0.py");
  constexpr int M = 40, N = 56, K = 40;
  const std::vector<float> a = randomFloats(M * K, 19, -1.0f, 1.0f);
  const std::vector<float> bt = randomFloats(N * K, 20, -1.0f, 1.0f); // B^T, [N, K]
  const std::vector<float> bias = randomFloats(N, 21, -1.0f, 1.0f);
  Buffer bufBias = makeBuffer("arg2_1", DType::Float32, bias);
  Buffer bufA = makeBuffer("arg0_1", DType::Float32, a), bufB = makeBuffer("arg1_1", DType::Float32, bt);
  Buffer out = outputBuffer("buf0", M * N);
  std::vector<Argument> args{pointerArg(bufBias), pointerArg(bufA), pointerArg(bufB), pointerArg(out)};
  runLaunch(*k.function, Grid{ceilDiv(M, 32) * ceilDiv(N, 32), 1, 1}, args);
  std::vector<double> expected = referenceMatmul(a, bt, M, N, K, true);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      expected[i * N + j] += bias[j];
  EXPECT_TRUE(allClose(floatsOf(out, M * N), expected, kTol, kTol));
}

TEST(KernelMatmulTemplateTest, GroupedOrderingCoversEveryTileWhenTheLastGroupIsShort) {
  // grid_m = 10 > GROUP_M = 8: programs 0..15 form a group of 8 row blocks,
  // programs 16..19 a group of 2.
  auto k = compileKernel("triton_tem_fused_mm_1.py");
  constexpr int M = 300, N = 40, K = 32;
  const std::vector<float> a = randomFloats(M * K, 52, -1.0f, 1.0f), b = randomFloats(K * N, 53, -1.0f, 1.0f);
  Buffer bufA = makeBuffer("arg0_1", DType::Float32, a), bufB = makeBuffer("arg1_1", DType::Float32, b);
  Buffer out = outputBuffer("buf0", M * N);
  std::vector<Argument> args{pointerArg(bufA), pointerArg(bufB), pointerArg(out)};
  runLaunch(*k.function, Grid{ceilDiv(M, 32) * ceilDiv(N, 32), 1, 1}, args);
  EXPECT_TRUE(allClose(floatsOf(out, M * N), referenceMatmul(a, b, M, N, K, false), kTol, kTol));
}

// ---------------------------------------------------------------------------
// 10. The convolution template: x [2, 3, 6, 7], w [5, 3, 3, 3], stride 1, padding 1.

TEST(KernelConvolutionTemplateTest, DirectConvolutionWithPadding) {
  auto k = compileKernel("triton_tem_fused_convolution_0.py");
  constexpr int NB = 2, IC = 3, H = 6, W = 7, OC = 5, KH = 3, KW = 3;
  const std::vector<float> x = randomFloats(NB * IC * H * W, 22, -1.0f, 1.0f);
  const std::vector<float> w = randomFloats(OC * IC * KH * KW, 23, -1.0f, 1.0f);
  Buffer bufX = makeBuffer("arg0_1", DType::Float32, x), bufW = makeBuffer("arg1_1", DType::Float32, w);
  Buffer out = outputBuffer("buf0", NB * OC * H * W);
  std::vector<Argument> args{pointerArg(bufX), pointerArg(bufW), pointerArg(out)};
  runLaunch(*k.function, Grid{ceilDiv(NB * H * W, 64), ceilDiv(OC, 16), 1}, args);

  std::vector<double> expected(NB * OC * H * W, 0.0);
  for (int n = 0; n < NB; ++n)
    for (int oc = 0; oc < OC; ++oc)
      for (int oh = 0; oh < H; ++oh)
        for (int ow = 0; ow < W; ++ow) {
          double s = 0.0;
          for (int ic = 0; ic < IC; ++ic)
            for (int i = 0; i < KH; ++i)
              for (int j = 0; j < KW; ++j) {
                const int ih = oh - 1 + i, iw = ow - 1 + j;
                if (ih < 0 || ih >= H || iw < 0 || iw >= W)
                  continue;
                s += static_cast<double>(x[((n * IC + ic) * H + ih) * W + iw]) *
                     w[((oc * IC + ic) * KH + i) * KW + j];
              }
          expected[((n * OC + oc) * H + oh) * W + ow] = s;
        }
  EXPECT_TRUE(allClose(floatsOf(out, NB * OC * H * W), expected, kTol, kTol));
}

TEST(KernelConvolutionTemplateTest, StrideTwoChannelsLast) {
  auto k = compileKernel("triton_tem_fused_convolution_1.py");
  constexpr int IC = 4, H = 7, W = 7, OC = 6, OH = 4, OW = 4, KH = 3, KW = 3;
  // x is [1, 4, 7, 7] stored channels-last: element (c, h, w) at h * 28 + w * 4 + c.
  const std::vector<float> x = randomFloats(IC * H * W, 54, -1.0f, 1.0f);
  const std::vector<float> w = randomFloats(OC * IC * KH * KW, 55, -1.0f, 1.0f);
  Buffer bufX = makeBuffer("arg0_1", DType::Float32, x), bufW = makeBuffer("arg1_1", DType::Float32, w);
  Buffer out = outputBuffer("buf0", OC * OH * OW);
  std::vector<Argument> args{pointerArg(bufX), pointerArg(bufW), pointerArg(out)};
  runLaunch(*k.function, Grid{ceilDiv(OH * OW, 16), ceilDiv(OC, 16), 1}, args);

  std::vector<double> expected(OC * OH * OW, 0.0); // channels-last: (c, h, w) at h * 24 + w * 6 + c
  for (int oc = 0; oc < OC; ++oc)
    for (int oh = 0; oh < OH; ++oh)
      for (int ow = 0; ow < OW; ++ow) {
        double sum = 0.0;
        for (int ic = 0; ic < IC; ++ic)
          for (int i = 0; i < KH; ++i)
            for (int j = 0; j < KW; ++j) {
              const int ih = oh * 2 - 1 + i, iw = ow * 2 - 1 + j;
              if (ih < 0 || ih >= H || iw < 0 || iw >= W)
                continue;
              sum += static_cast<double>(x[ih * 28 + iw * 4 + ic]) * w[((oc * IC + ic) * KH + i) * KW + j];
            }
        expected[oh * 24 + ow * 6 + oc] = sum;
      }
  EXPECT_TRUE(allClose(floatsOf(out, OC * OH * OW), expected, kTol, kTol));
}

// ---------------------------------------------------------------------------
// 11. triton_for_: two adds of different sizes, switched on the program id.

TEST(KernelForeachTest, EachProgramRunsItsOwnSubKernel) {
  auto k = compileKernel("triton_for_fused_0.py");
  constexpr int N0 = 1000, N1 = 3000;
  const std::vector<float> a0 = randomFloats(N0, 24, -1, 1), b0 = randomFloats(N0, 25, -1, 1);
  const std::vector<float> a1 = randomFloats(N1, 26, -1, 1), b1 = randomFloats(N1, 27, -1, 1);
  Buffer in0 = makeBuffer("arg0_1", DType::Float32, a0), in1 = makeBuffer("arg1_1", DType::Float32, b0);
  Buffer in2 = makeBuffer("arg2_1", DType::Float32, a1), in3 = makeBuffer("arg3_1", DType::Float32, b1);
  Buffer out0 = outputBuffer("buf0", N0), out1 = outputBuffer("buf1", N1);
  std::vector<Argument> args{pointerArg(in0),  pointerArg(in1),  pointerArg(in2), pointerArg(in3),
                             pointerArg(out0), pointerArg(out1), intArg(N0),      intArg(N1)};
  // cdiv(1000, 1024) + cdiv(3000, 1024) = 4 programs, and one more that takes the `else: pass` branch.
  runLaunch(*k.function, Grid{ceilDiv(N0, 1024) + ceilDiv(N1, 1024) + 1, 1, 1}, args);
  std::vector<float> e0(N0), e1(N1);
  for (int i = 0; i < N0; ++i)
    e0[i] = a0[i] + b0[i];
  for (int i = 0; i < N1; ++i)
    e1[i] = a1[i] + b1[i];
  EXPECT_TRUE(allEqual(bitsOf(floatsOf(out0, N0)), bitsOf(e0)));
  EXPECT_TRUE(allEqual(bitsOf(floatsOf(out1, N1)), bitsOf(e1)));
}

// ---------------------------------------------------------------------------
// 12. Embedding: int64 indices, negative ones wrapping, and the bounds assert.

struct EmbeddingRun {
  std::vector<float> table, out;
};

EmbeddingRun runEmbedding(const std::vector<int64_t> &indices, int64_t xblock) {
  auto k = compileKernel("triton_poi_fused_embedding_0.py", {{"XBLOCK", xblock}});
  EmbeddingRun run;
  run.table = randomFloats(50 * 16, 28, -1, 1);
  Buffer idx = makeBuffer("arg0_1", DType::Int64, indices);
  Buffer table = makeBuffer("arg1_1", DType::Float32, run.table);
  Buffer out = outputBuffer("buf0", 96);
  std::vector<Argument> args{pointerArg(idx), pointerArg(table), pointerArg(out), intArg(96)};
  runLaunch(*k.function, Grid{ceilDiv(96, xblock), 1, 1}, args);
  run.out = floatsOf(out, 96);
  return run;
}

TEST(KernelEmbeddingTest, GathersRowsAndWrapsNegativeIndices) {
  const std::vector<int64_t> indices{0, 49, -1, -50, 17, 3};
  for (int64_t xblock : {32, 128, 16}) {
    SCOPED_TRACE("XBLOCK " + std::to_string(xblock));
    EmbeddingRun run = runEmbedding(indices, xblock);
    std::vector<float> expected(96);
    for (int i = 0; i < 6; ++i) {
      const int64_t row = indices[i] < 0 ? indices[i] + 50 : indices[i];
      for (int c = 0; c < 16; ++c)
        expected[i * 16 + c] = run.table[row * 16 + c];
    }
    EXPECT_TRUE(allEqual(bitsOf(run.out), bitsOf(expected)));
  }
}

TEST(KernelEmbeddingTest, OutOfRangeIndexFailsTheDeviceAssert) {
  for (int64_t bad : {50, -51}) {
    SCOPED_TRACE("index " + std::to_string(bad));
    // Row 3 holds elements 48..63: program 1 with XBLOCK = 32.
    const std::vector<int64_t> indices{0, 1, 2, bad, 4, 5};
    try {
      runEmbedding(indices, 32);
      ADD_FAILURE() << "no error for index " << bad;
    } catch (const core::RuntimeError &e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("triton_poi_fused_embedding_0"), std::string::npos) << what;
      EXPECT_NE(what.find("program (1, 0, 0)"), std::string::npos) << what;
      EXPECT_NE(what.find("index out of bounds: 0 <= tmp4 < 50"), std::string::npos) << what;
    }
  }
}

} // namespace
} // namespace npusim::reference
