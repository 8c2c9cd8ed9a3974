// The fp32 kernel of the systolic arrays against a scalar loop: every element
// summed over k in increasing order, the product and the sum each rounded to
// float, so the bits must agree exactly, also for infinities, NaN, signed
// zeros and subnormals, and for row counts and widths that are not whole
// register blocks.
#include "functional/machine.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

namespace npusim::functionaltest {
namespace {

using functional::detail::kFloat32GemmWidth;
using functional::detail::float32GemmVariants;
using functional::detail::multiplyFloat32;

float special(std::mt19937 &rng) {
  static const float kValues[] = {0.0f,
                                  -0.0f,
                                  std::numeric_limits<float>::infinity(),
                                  -std::numeric_limits<float>::infinity(),
                                  std::numeric_limits<float>::quiet_NaN(),
                                  std::numeric_limits<float>::denorm_min(),
                                  1e-39f,
                                  -3e38f,
                                  3e38f};
  return kValues[rng() % (sizeof kValues / sizeof kValues[0])];
}

// Every variant the host can run (AVX-512, AVX2, SSE2), and the one
// multiplyFloat32 dispatches to.
void checkKernel(const char *isa, functional::detail::Float32GemmKernel kernel) {
  SCOPED_TRACE(isa);
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> uniform(-2.0f, 2.0f);
  struct Shape {
    int64_t M, rows, cols;
  };
  for (const Shape s :
       {Shape{1, 1, 1}, Shape{7, 37, 33}, Shape{13, 128, 128}, Shape{4, 3, 16}, Shape{9, 64, 50}}) {
    const int64_t ld = (s.cols + kFloat32GemmWidth - 1) / kFloat32GemmWidth * kFloat32GemmWidth;
    std::vector<float> a(static_cast<size_t>(s.M * s.rows)), b(static_cast<size_t>(s.rows * ld), 0.0f),
        c(static_cast<size_t>(s.M * ld), 0.0f);
    auto value = [&] { return rng() % 50 == 0 ? special(rng) : uniform(rng); };
    for (float &x : a)
      x = value();
    for (int64_t k = 0; k < s.rows; ++k)
      for (int64_t n = 0; n < s.cols; ++n)
        b[static_cast<size_t>(k * ld + n)] = value();
    for (int64_t m = 0; m < s.M; ++m)
      for (int64_t n = 0; n < s.cols; ++n)
        c[static_cast<size_t>(m * ld + n)] = value();
    std::vector<float> expected = c;
    for (int64_t m = 0; m < s.M; ++m)
      for (int64_t n = 0; n < s.cols; ++n) {
        float x = expected[static_cast<size_t>(m * ld + n)];
        for (int64_t k = 0; k < s.rows; ++k) {
          // volatile: the product is rounded to float before the sum.
          volatile float product =
              a[static_cast<size_t>(m * s.rows + k)] * b[static_cast<size_t>(k * ld + n)];
          x = x + product;
        }
        expected[static_cast<size_t>(m * ld + n)] = x;
      }
    kernel(a.data(), b.data(), c.data(), s.M, s.rows, ld);
    for (int64_t m = 0; m < s.M; ++m)
      for (int64_t n = 0; n < s.cols; ++n) {
        const size_t at = static_cast<size_t>(m * ld + n);
        const float want = expected[at], got = c[at];
        if (std::isnan(want))
          EXPECT_TRUE(std::isnan(got)) << "M " << s.M << " rows " << s.rows << " at " << m << ", " << n;
        else
          EXPECT_EQ(std::bit_cast<uint32_t>(got), std::bit_cast<uint32_t>(want))
              << "M " << s.M << " rows " << s.rows << " at " << m << ", " << n << ": " << got << " vs "
              << want;
      }
  }
}

TEST(Float32Gemm, BitIdenticalToTheScalarLoopInIncreasingK) {
  checkKernel("dispatched", multiplyFloat32);
  const auto variants = functional::detail::float32GemmVariants();
  ASSERT_FALSE(variants.empty());
  EXPECT_STREQ(variants.back().isa, "sse2"); // every x86-64 host has it
  for (const auto &v : variants)
    checkKernel(v.isa, v.kernel);
}

} // namespace
} // namespace npusim::functionaltest
