// The vector GEMM (docs/library-kernels.md, "Vector GEMM"): products of at
// most four rows on the vector unit, by columns or by batches, with B's tile
// in either orientation, against the host call's double-precision products on
// the reference interpreter and compiled for the NPU.
#include "library/plan_harness.h"

#include "config/hardware.h"
#include "core/error.h"

#include <gtest/gtest.h>

namespace npusim::library {
namespace {

using harness::CallFixture;
using core::DType;

/// Row-major strides of `shape`, the last two axes swapped in memory when
/// `swapped` (B with its K axis contiguous).
std::vector<int64_t> vectorGemmStrides(const std::vector<int64_t> &shape, bool swapped) {
  std::vector<size_t> order(shape.size());
  for (size_t i = 0; i < shape.size(); ++i)
    order[i] = i;
  if (swapped)
    std::swap(order[shape.size() - 1], order[shape.size() - 2]);
  std::vector<int64_t> stride(shape.size());
  int64_t s = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    stride[order[i]] = s;
    s *= shape[order[i]];
  }
  return stride;
}

struct VectorGemmCase {
  int64_t batches, m, k, n;
  bool bKContiguous;
  const char *form; // the kernel name's part that tells the form and B's tile
};

TEST(LibraryVectorGemm, FormsAndOrientationsMatchTheHost) {
  const VectorGemmCase cases[] = {
      {1, 1, 300, 200, true, "_columns_rk_m1"},   // a GEMV, B's K contiguous (a Linear weight)
      {1, 3, 70, 129, false, "_columns_kr_m3"},   // three rows, B's columns contiguous, ragged blocks
      {40, 2, 33, 1, false, "_batches_rk_m2"},    // one column per batch: the batches are the rows
      {48, 1, 128, 1, true, "_batches_rk_m1"},    // a decode step's query by its own key
      {6, 1, 150, 64, false, "_columns_kr_m1"},   // probabilities by values
      {24, 1, 1, 5, false, "_columns_kr_m1"},     // K of one
  };
  for (const VectorGemmCase &c : cases) {
    const bool batched = c.batches > 1;
    auto shape = [&](int64_t r, int64_t col) {
      return batched ? std::vector<int64_t>{c.batches, r, col} : std::vector<int64_t>{r, col};
    };
    MachineShape machine;
    machine.gemmKernel = "vector";
    CallFixture f;
    const TensorRef a = f.tensor(DType::Float32, shape(c.m, c.k));
    const TensorRef b = f.tensor(DType::Float32, shape(c.k, c.n), vectorGemmStrides(shape(c.k, c.n), c.bKContiguous));
    const TensorRef out = f.tensor(DType::Float32, shape(c.m, c.n));
    const std::vector<CallArgument> args = {CallFixture::arg(a), CallFixture::arg(b)};
    const std::string op = batched ? "aten.bmm" : "aten.mm";
    const CallPlan plan = planCall(op, args, std::vector<const TensorRef *>{&out}, machine);
    ASSERT_EQ(plan.launches.size(), 1u);
    const std::string &name = plan.launches[0].kernelName;
    EXPECT_NE(name.find("npusim_gemm_vector_"), std::string::npos) << name;
    EXPECT_NE(name.find(c.form), std::string::npos) << name << " for " << c.batches << " x " << c.m << "x" << c.k << "x"
                                                    << c.n;
    EXPECT_EQ(f.compare(op, args, {out}, machine), "") << name;
    f.useNpu(config::loadConfig("tpuv3-like"));
    EXPECT_EQ(f.compare(op, args, {out}, machine), "") << name << " on the NPU";
  }
}

TEST(LibraryVectorGemm, MoreRowsOrABiasHaveNoTiles) {
  MachineShape machine;
  machine.gemmKernel = "vector";
  CallFixture f;
  const TensorRef a = f.tensor(DType::Float32, {5, 32}), b = f.tensor(DType::Float32, {32, 16}),
                  out = f.tensor(DType::Float32, {5, 16});
  try {
    planCall("aten.mm", std::vector<CallArgument>{CallFixture::arg(a), CallFixture::arg(b)},
             std::vector<const TensorRef *>{&out}, machine);
    FAIL() << "five rows were planned on the vector unit";
  } catch (const core::RuntimeError &e) {
    EXPECT_NE(std::string(e.what()).find("GEMM kernel 'vector' has no tiles for 5 x 32 x 16"), std::string::npos)
        << e.what();
  }
  const TensorRef row = f.tensor(DType::Float32, {1, 32}), bias = f.tensor(DType::Float32, {16}),
                  rowOut = f.tensor(DType::Float32, {1, 16});
  EXPECT_THROW(planCall("aten.addmm",
                        std::vector<CallArgument>{CallFixture::arg(bias), CallFixture::arg(row), CallFixture::arg(b),
                                                  CallFixture::number(1.0), CallFixture::number(1.0)},
                        std::vector<const TensorRef *>{&rowOut}, machine),
               core::RuntimeError);
}

} // namespace
} // namespace npusim::library
