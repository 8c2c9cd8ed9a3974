// Tolerances of 16-bit floats (docs/bundle-format.md, "Tolerances of 16-bit
// floats"): the allowance follows its formula, depths follow the longest chain of
// steps, and a chain of bf16 or fp16 steps matches the fingerprint of its float64
// computation under its depth's allowance while a wrong one does not.
#include "core/float16.h"
#include "reference/host_calls.h"
#include "runtime/loader.h"
#include "runtime/rounding_tolerance.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <random>
#include <vector>

namespace npusim::runtime {
namespace {

TEST(RoundingTolerance, FollowsHighamAndMarysBound) {
  // 2 (exp(6 sqrt(d) u + d u^2 / (1 - u)) - 1), u = 2^-8 (bf16), 2^-11 (fp16).
  for (const auto &[dtype, u] :
       {std::pair{core::DType::BFloat16, 1.0 / 256}, std::pair{core::DType::Float16, 1.0 / 2048}})
    for (int64_t d : {1, 4, 30}) {
      const double want =
          2 *
          (std::exp(6 * std::sqrt(static_cast<double>(d)) * u + static_cast<double>(d) * u * u / (1 - u)) -
           1);
      EXPECT_NEAR(roundingTolerance(dtype, d), want, 1e-12 * want);
    }
  EXPECT_EQ(roundingTolerance(core::DType::Float32, 30), 0.0);
  EXPECT_EQ(roundingTolerance(core::DType::BFloat16, 0), 0.0);
  EXPECT_FALSE(roundingRule(core::DType::Float32, 5, 1.0, 10.0).has_value());
}

TEST(RoundingTolerance, DepthsAreTheLongestChainOfSteps) {
  // tests/data/bundles/tiny: relu(x + b) -> storage 2 (step 0, depth 1); addmm of
  // storage 2 -> storage 5 (step 1, depth 2); convolution of storage 5 -> storage 8
  // (step 2, depth 3). Inputs stay at depth 0.
  const Bundle bundle = loadBundle(std::filesystem::path(NPUSIM_TEST_DATA) / "bundles" / "tiny");
  const Depths d = valueDepths(bundle);
  EXPECT_EQ(d.step, (std::vector<int64_t>{1, 2, 3}));
  EXPECT_EQ(d.storage[0], 0);
  EXPECT_EQ(d.storage[2], 1);
  EXPECT_EQ(d.storage[5], 2);
  EXPECT_EQ(d.storage[8], 3);
}

constexpr int kDepth = 12, kWidth = 64, kRows = 8;

/// kDepth steps x <- tanh(W_k x + b_k), each stored rounded by `round` (one
/// rounding per step, as a kernel stores its result; fp32 arithmetic inside),
/// or in double without it. `wrongStep` drops that step's bias.
std::vector<double> chain(float (*round)(float), int wrongStep = -1) {
  std::mt19937_64 random(5);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  std::vector<double> x(kRows * kWidth);
  for (double &v : x)
    v = round ? round(static_cast<float>(uniform(random))) : uniform(random);
  for (int k = 0; k < kDepth; ++k) {
    std::vector<double> w(kWidth * kWidth), b(kWidth);
    for (double &v : w)
      v = uniform(random) / 8.0; // 1 / sqrt(64)
    for (double &v : b)
      v = uniform(random) / 2.0;
    std::vector<double> y(x.size());
    for (int r = 0; r < kRows; ++r)
      for (int j = 0; j < kWidth; ++j) {
        if (round) {
          float s = 0.0f;
          for (int i = 0; i < kWidth; ++i)
            s += static_cast<float>(x[r * kWidth + i]) * round(static_cast<float>(w[i * kWidth + j]));
          if (k != wrongStep)
            s += round(static_cast<float>(b[j]));
          y[r * kWidth + j] = round(std::tanh(s));
        } else {
          double s = 0.0;
          for (int i = 0; i < kWidth; ++i)
            s += x[r * kWidth + i] * w[i * kWidth + j];
          y[r * kWidth + j] = std::tanh(s + (k != wrongStep ? b[j] : 0.0));
        }
      }
    x = y;
  }
  return x;
}

/// The fingerprint of `values` and the comparison of `got` (stored as `dtype`) with it.
Comparison judge(const std::vector<double> &values, const std::vector<double> &got, core::DType dtype,
                 bool rule) {
  auto view = [](reference::Buffer &b, core::DType d, int64_t n) {
    b.dtype = d;
    b.bytes.assign(static_cast<size_t>(n * core::byteSize(d)), 0);
    reference::TensorView v;
    v.buffer = &b;
    v.shape = {n};
    v.stride = {1};
    return v;
  };
  const auto n = static_cast<int64_t>(values.size());
  reference::Buffer exact, actual;
  const reference::TensorView e = view(exact, core::DType::Float64, n), a = view(actual, dtype, n);
  reference::writeValues(e, values);
  reference::writeValues(a, got);
  const Fingerprint f = computeFingerprint(e);
  const std::optional<ElementRule> r =
      roundingRule(dtype, kDepth, f.absSum / static_cast<double>(f.elements), f.absSum);
  EXPECT_TRUE(r.has_value());
  return compareFingerprint(a, f, rule && r ? &*r : nullptr);
}

TEST(RoundingTolerance, ACorrectChainPassesAndAWrongOneFails) {
  const std::vector<double> exact = chain(nullptr);
  for (const auto &[dtype, round] : {std::pair{core::DType::BFloat16, &core::roundToBFloat16},
                                     std::pair{core::DType::Float16, &core::roundToHalf}}) {
    const std::vector<double> right = chain(round), wrong = chain(round, kDepth - 1);
    EXPECT_TRUE(judge(exact, right, dtype, true).ok) << judge(exact, right, dtype, true).message;
    // The fixed tolerance alone takes the format's rounding for a divergence.
    EXPECT_FALSE(judge(exact, right, dtype, false).ok);
    EXPECT_FALSE(judge(exact, wrong, dtype, true).ok);
  }
}

} // namespace
} // namespace npusim::runtime
