// aten.topk: the iterative-selection kernel, run on the reference interpreter,
// against the host call's stable sort: moe's router call as the bundle
// spells it, random ranks, axes, k, layouts and directions, and ties, NaN and
// infinities.
#include "library/plan_harness.h"

#include "core/error.h"

#include <gtest/gtest.h>

#include <limits>

namespace npusim::library {
namespace {

using harness::CallFixture;
using core::DType;

/// Numerical Recipes' LCG for test parameters.
struct TopkRandom {
  uint32_t state;
  int64_t below(int64_t n) {
    state = state * 1664525u + 1013904223u;
    return static_cast<int64_t>((state >> 8) % static_cast<uint32_t>(n));
  }
};

std::vector<CallArgument> topkArgs(const TensorRef &self, int64_t k, int64_t dim, bool largest) {
  return {CallFixture::arg(self), CallFixture::integer(k), CallFixture::integer(dim), CallFixture::boolean(largest),
          CallFixture::boolean(true)};
}

TEST(LibraryTopk, MoeRouterCall) {
  CallFixture f;
  const TensorRef self = f.tensor(DType::Float32, {1, 32, 4}, {128, 4, 1});
  const TensorRef values = f.tensor(DType::Float32, {1, 32, 2}, {64, 2, 1});
  const TensorRef indices = f.tensor(DType::Int64, {1, 32, 2}, {64, 2, 1});
  EXPECT_EQ(f.compare("aten.topk", topkArgs(self, 2, -1, true), {values, indices}), "");
}

TEST(LibraryTopk, RandomRanksAxesAndLayouts) {
  const MachineShape small{16, 2048, 256};
  TopkRandom rng{3};
  for (int trial = 0; trial < 24; ++trial) {
    const size_t rank = 1 + static_cast<size_t>(rng.below(4));
    std::vector<int64_t> shape;
    for (size_t a = 0; a < rank; ++a)
      shape.push_back(1 + rng.below(a + 1 == rank ? 40 : 6));
    const int64_t dim = rng.below(static_cast<int64_t>(rank));
    const int64_t k = rng.below(shape[static_cast<size_t>(dim)] + 1);
    // self either row-major or with its first and last axes' strides swapped.
    std::vector<int64_t> stride(rank, 1);
    for (size_t a = rank - 1; a-- > 0;)
      stride[a] = stride[a + 1] * shape[a + 1];
    if (rng.below(2) && rank > 1) {
      int64_t s = 1;
      stride[0] = s;
      s *= shape[0];
      for (size_t a = rank - 1; a >= 1; --a) {
        stride[a] = s;
        s *= shape[a];
      }
    }
    std::vector<int64_t> resultShape = shape;
    resultShape[static_cast<size_t>(dim)] = k;
    CallFixture f;
    const DType dtype = trial % 5 == 4 ? DType::Float16 : DType::Float32;
    const TensorRef self = f.tensor(dtype, shape, stride, rng.below(4));
    const TensorRef values = f.tensor(dtype, resultShape);
    const TensorRef indices = f.tensor(DType::Int64, resultShape);
    const bool largest = rng.below(3) != 0;
    EXPECT_EQ(f.compare("aten.topk", topkArgs(self, k, dim - (rng.below(2) ? static_cast<int64_t>(rank) : 0), largest),
                        {values, indices}, trial % 2 ? small : MachineShape{}),
              "")
        << "trial " << trial << ": rank " << rank << " dim " << dim << " k " << k << " largest " << largest;
  }
}

TEST(LibraryTopk, TiesNaNAndInfinities) {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  for (bool largest : {true, false}) {
    CallFixture f;
    const TensorRef self = f.tensor(DType::Float32, {3, 12});
    // Row 0: ties (index order decides); row 1: NaN (the largest) and infinities; row 2: all -inf and NaN.
    const double rows[3][12] = {{0.5, 0.25, 0.5, 0.75, 0.5, 0.25, 0.75, 0.0, 0.5, 0.0, 0.25, 0.75},
                                {1.0, nan, -inf, 2.0, inf, nan, -1.0, inf, 0.0, -inf, 3.0, nan},
                                {-inf, -inf, nan, -inf, -inf, nan, -inf, -inf, -inf, -inf, nan, -inf}};
    for (int64_t r = 0; r < 3; ++r)
      for (int64_t c = 0; c < 12; ++c)
        f.set(self, r * 12 + c, rows[r][c]);
    const TensorRef values = f.tensor(DType::Float32, {3, 9});
    const TensorRef indices = f.tensor(DType::Int64, {3, 9});
    EXPECT_EQ(f.compare("aten.topk", topkArgs(self, 9, 1, largest), {values, indices}), "") << "largest " << largest;
  }
}

TEST(LibraryTopk, ArgumentErrors) {
  CallFixture f;
  const TensorRef self = f.tensor(DType::Float32, {4, 5});
  const TensorRef values = f.tensor(DType::Float32, {4, 2});
  const TensorRef indices = f.tensor(DType::Int64, {4, 2});
  const TensorRef wrongIndices = f.tensor(DType::Int32, {4, 2});
  auto message = [&](int64_t k, int64_t dim, const TensorRef &idx) -> std::string {
    const std::vector<const TensorRef *> outs = {&values, &idx};
    try {
      planCall("aten.topk", topkArgs(self, k, dim, true), outs, MachineShape{});
    } catch (const core::RuntimeError &e) {
      return e.what();
    }
    return "no error";
  };
  EXPECT_EQ(message(2, 1, indices), "no error");
  EXPECT_NE(message(6, 1, indices).find("aten.topk: argument 1 (k): k=6 is out of range"), std::string::npos);
  EXPECT_NE(message(2, 2, indices).find("argument 2 (dim)"), std::string::npos);
  EXPECT_NE(message(2, 1, wrongIndices).find("expected i64"), std::string::npos);
}

} // namespace
} // namespace npusim::library
