// The systolic arrays: a blocked matmul with K and N not multiples of the lanes,
// against a plain loop in the reference interpreter's order (k ascending from
// the initial accumulator, every product and sum rounded to fp32).
#include "core/float16.h"
#include "functional/sim_harness.h"

#include <gtest/gtest.h>

#include <cmath>

namespace npusim::functionaltest {
namespace {

struct MatmulCase {
  int64_t M, K, N;
  int lanes;
  DType inputType;
  int laneAxisA = 1, laneAxisC = 1; // 1: each column of A and C one run in a lane (multiplyFloat32Lanes)
};

npu::Program blockedMatmul(const MatmulCase &c) {
  ProgramBuilder b("matmul", c.lanes, 8192);
  const int aa = b.pointerArgument("a", c.inputType), ab = b.pointerArgument("b", c.inputType),
            ac = b.pointerArgument("c", DType::Float32);
  const int ta = b.tile("a", c.inputType, {c.M, c.K}, c.laneAxisA);
  const int tb = b.tile("b", c.inputType, {c.K, c.N}, 1);
  const int tc = b.tile("c", DType::Float32, {c.M, c.N}, c.laneAxisC);
  b.dmaLoad(ta, aa, imm(0), {imm(c.K), imm(1)});
  b.dmaLoad(tb, ab, imm(0), {imm(c.N), imm(1)});
  b.dmaLoad(tc, ac, imm(0), {imm(c.N), imm(1)}); // the initial accumulator
  const int64_t kBlocks = (c.K + c.lanes - 1) / c.lanes, nBlocks = (c.N + c.lanes - 1) / c.lanes;
  for (int64_t nb = 0; nb < nBlocks; ++nb)
    for (int64_t kb = 0; kb < kBlocks; ++kb) {
      const int array = static_cast<int>((nb * kBlocks + kb) % 2);
      b.loadWeights(array, tb, kb, nb);
      b.matmul(array, tc, ta, kb, nb, true);
    }
  b.dmaStore(tc, ac, imm(0), {imm(c.N), imm(1)});
  return b.finish();
}

TEST(Matmul, BlockedKAndNNotMultiplesOfTheLanesMatchTheReferenceOrder) {
  const MatmulCase c{5, 10, 7, 4, DType::Float32};
  std::vector<float> a(static_cast<size_t>(c.M * c.K)), bm(static_cast<size_t>(c.K * c.N)),
      acc(static_cast<size_t>(c.M * c.N));
  for (size_t k = 0; k < a.size(); ++k)
    a[k] = std::cos(static_cast<float>(k)) * 1.7f;
  for (size_t k = 0; k < bm.size(); ++k)
    bm[k] = std::sin(static_cast<float>(k) * 0.3f) + 0.01f;
  for (size_t k = 0; k < acc.size(); ++k)
    acc[k] = static_cast<float>(k % 5) * 0.125f;
  Harness h;
  h.pointer(h.buffer("a", DType::Float32, a));
  h.pointer(h.buffer("b", DType::Float32, bm));
  const int bc = h.buffer("c", DType::Float32, acc);
  h.pointer(bc);
  h.run(blockedMatmul(c));
  const auto out = h.contents<float>(bc);
  for (int64_t m = 0; m < c.M; ++m)
    for (int64_t n = 0; n < c.N; ++n) {
      float x = acc[static_cast<size_t>(m * c.N + n)];
      for (int64_t k = 0; k < c.K; ++k) {
        const float p = a[static_cast<size_t>(m * c.K + k)] * bm[static_cast<size_t>(k * c.N + n)];
        x = x + p;
      }
      EXPECT_EQ(out[static_cast<size_t>(m * c.N + n)], x) << m << "," << n;
    }
}

TEST(Matmul, EveryLaneAxisOfAAndCGivesTheReferenceOrder) {
  // M = 37 rows: columns of 37 floats, padded to whole vectors in the
  // transposed product; the element path (lane axis 0) and the column path
  // (lane axis 1) must both give the plain loop's bits.
  for (int laneAxisA : {0, 1})
    for (int laneAxisC : {0, 1}) {
      const MatmulCase c{37, 10, 7, 4, DType::Float32, laneAxisA, laneAxisC};
      std::vector<float> a(static_cast<size_t>(c.M * c.K)), bm(static_cast<size_t>(c.K * c.N)),
          acc(static_cast<size_t>(c.M * c.N));
      for (size_t k = 0; k < a.size(); ++k)
        a[k] = std::cos(static_cast<float>(k) * 0.7f) * 1.3f;
      for (size_t k = 0; k < bm.size(); ++k)
        bm[k] = std::sin(static_cast<float>(k) * 0.3f) + 0.01f;
      for (size_t k = 0; k < acc.size(); ++k)
        acc[k] = static_cast<float>(k % 7) * 0.375f;
      Harness h;
      h.pointer(h.buffer("a", DType::Float32, a));
      h.pointer(h.buffer("b", DType::Float32, bm));
      const int bc = h.buffer("c", DType::Float32, acc);
      h.pointer(bc);
      h.run(blockedMatmul(c));
      const auto out = h.contents<float>(bc);
      for (int64_t m = 0; m < c.M; ++m)
        for (int64_t n = 0; n < c.N; ++n) {
          float x = acc[static_cast<size_t>(m * c.N + n)];
          for (int64_t k = 0; k < c.K; ++k)
            x = x + a[static_cast<size_t>(m * c.K + k)] * bm[static_cast<size_t>(k * c.N + n)];
          ASSERT_EQ(out[static_cast<size_t>(m * c.N + n)], x)
              << "lane axes " << laneAxisA << ", " << laneAxisC << ": " << m << "," << n;
        }
    }
}

TEST(Matmul, HalfInputsAccumulateInFloat) {
  const MatmulCase c{3, 6, 5, 4, DType::Float16};
  // Halves chosen exactly representable: k / 8 and (n - k) / 4.
  std::vector<uint16_t> a(static_cast<size_t>(c.M * c.K)), bm(static_cast<size_t>(c.K * c.N));
  std::vector<float> af(a.size()), bf(bm.size());
  for (int64_t m = 0; m < c.M; ++m)
    for (int64_t k = 0; k < c.K; ++k) {
      const float v = static_cast<float>(k + m) / 8.0f;
      af[static_cast<size_t>(m * c.K + k)] = v;
      a[static_cast<size_t>(m * c.K + k)] = core::floatToHalf(v);
    }
  for (int64_t k = 0; k < c.K; ++k)
    for (int64_t n = 0; n < c.N; ++n) {
      const float v = static_cast<float>(n - k) / 4.0f;
      bf[static_cast<size_t>(k * c.N + n)] = v;
      bm[static_cast<size_t>(k * c.N + n)] = core::floatToHalf(v);
    }
  Harness h;
  h.pointer(h.buffer("a", DType::Float16, a));
  h.pointer(h.buffer("b", DType::Float16, bm));
  const int bc = h.buffer("c", DType::Float32, std::vector<float>(static_cast<size_t>(c.M * c.N), 0.0f));
  h.pointer(bc);
  h.run(blockedMatmul(c));
  const auto out = h.contents<float>(bc);
  for (int64_t m = 0; m < c.M; ++m)
    for (int64_t n = 0; n < c.N; ++n) {
      float x = 0.0f;
      for (int64_t k = 0; k < c.K; ++k)
        x = x + af[static_cast<size_t>(m * c.K + k)] * bf[static_cast<size_t>(k * c.N + n)];
      EXPECT_EQ(out[static_cast<size_t>(m * c.N + n)], x);
    }
}

} // namespace
} // namespace npusim::functionaltest
