// Fills and copies (zero_, fill_, zeros, ones, *_like, copy_, clone,
// _to_copy): the planned kernel on the reference interpreter and compiled for
// tpuv3-like and edge-8lane, against the host call, over layouts (transposed,
// channels-last, sliced, broadcast sources), ranks and dtype conversions.
#include "config/hardware.h"
#include "library/plan_harness.h"

#include "core/error.h"

#include <gtest/gtest.h>

#include <optional>

namespace npusim::library {
namespace {

using core::DType;
using harness::CallFixture;
using C = CallFixture;

/// Runs `body` against the interpreter and against both NPUs.
template <typename Body> void everywhere(Body body) {
  for (const char *machine : {"", "tpuv3-like", "edge-8lane"}) {
    CallFixture f;
    if (*machine)
      f.useNpu(config::loadConfig(machine));
    body(f, std::string(*machine ? machine : "interpreter"));
  }
}

TEST(LibraryCopy, CopiesConvertAndBroadcastAcrossLayouts) {
  struct Case {
    std::vector<int64_t> shape, dstStride, srcShape, srcStride;
    DType dst, src;
  };
  const std::vector<Case> cases = {
      {{37, 53}, {}, {37, 53}, {}, DType::Float32, DType::Float32},                 // contiguous, ragged
      {{64, 48}, {}, {64, 48}, {1, 64}, DType::Float32, DType::Float32},            // transposed source
      {{2, 8, 5, 6}, {240, 1, 48, 8}, {2, 8, 5, 6}, {}, DType::Float32, DType::Float32}, // to channels-last
      {{3, 40}, {}, {40}, {}, DType::Float16, DType::Float32},                      // broadcast row, fp32 -> fp16
      {{6, 7}, {}, {6, 1}, {}, DType::Float32, DType::Int64},                       // a column, int64 -> fp32
      {{5, 9}, {}, {5, 9}, {}, DType::Int32, DType::Float32},                       // truncation toward zero
      {{4, 33}, {}, {4, 33}, {}, DType::Bool, DType::Float32},                      // nonzero -> true
      {{129}, {}, {129}, {}, DType::Int64, DType::Bool},
  };
  for (const Case &c : cases)
    everywhere([&](CallFixture &f, const std::string &where) {
      const TensorRef dst = f.tensor(c.dst, c.shape, c.dstStride);
      const TensorRef src = f.tensor(c.src, c.srcShape, c.srcStride, 0, -3.0, 3.0);
      EXPECT_EQ(f.compare("aten.copy_", {C::arg(dst), C::arg(src)}, {dst}), "") << where;
    });
  everywhere([](CallFixture &f, const std::string &where) {
    // clone of a sliced view into a new contiguous tensor; _to_copy to bf16.
    const TensorRef base = f.tensor(DType::Float32, {10, 20});
    TensorRef slice = base;
    slice.shape = {10, 7};
    slice.offset = 5;
    const TensorRef out = f.tensor(DType::Float32, {10, 7});
    EXPECT_EQ(f.compare("aten.clone", {C::arg(slice)}, {out}), "") << where;
    const TensorRef half = f.tensor(DType::BFloat16, {10, 7});
    EXPECT_EQ(f.compare("aten._to_copy", {C::arg(slice), C::integer(15)}, {half}), "") << where;
  });
}

TEST(LibraryCopy, CopiesBetweenLayoutsTurnBlocksOnChip) {
  // The source contiguous along the result's second-innermost merged axis
  // (or the other way round): the transposing kernel, whose blocks load and
  // store in runs; ragged against its blocks, with a dtype conversion, and
  // batched over the outer axes (NCHW <-> NHWC).
  struct Case {
    std::vector<int64_t> shape, dstStride, srcStride;
    DType dst, src;
  };
  const std::vector<Case> cases = {
      {{37, 53}, {}, {1, 37}, DType::Float16, DType::Float32},                     // transposed, fp32 -> fp16
      {{3, 20, 5, 7}, {700, 1, 140, 20}, {}, DType::Float32, DType::Float32},       // NCHW -> NHWC
      {{2, 24, 6, 9}, {}, {1296, 1, 216, 24}, DType::Float32, DType::Float32},      // NHWC -> NCHW
  };
  for (const Case &c : cases) {
    CallFixture planned;
    const TensorRef dst = planned.tensor(c.dst, c.shape, c.dstStride);
    const TensorRef src = planned.tensor(c.src, c.shape, c.srcStride);
    const CallPlan plan = planCall("aten.copy_", std::vector<CallArgument>{C::arg(dst), C::arg(src)},
                                   std::vector<const TensorRef *>{&dst}, MachineShape{});
    ASSERT_EQ(plan.launches.size(), 1u);
    EXPECT_EQ(plan.launches[0].kernelName.rfind("npusim_transpose_", 0), 0u) << plan.launches[0].kernelName;
    everywhere([&](CallFixture &f, const std::string &where) {
      const TensorRef d = f.tensor(c.dst, c.shape, c.dstStride);
      const TensorRef s = f.tensor(c.src, c.shape, c.srcStride, 0, -3.0, 3.0);
      EXPECT_EQ(f.compare("aten.copy_", {C::arg(d), C::arg(s)}, {d}), "") << where;
    });
  }
}

TEST(LibraryCopy, FillsEveryElementOfTheResult) {
  everywhere([](CallFixture &f, const std::string &where) {
    const TensorRef t = f.tensor(DType::Float32, {3, 4, 17}, {4 * 17 * 2, 17 * 2, 2}); // every other element
    EXPECT_EQ(f.compare("aten.zero_", {C::arg(t)}, {t}), "") << where;
    EXPECT_EQ(f.compare("aten.fill_.Scalar", {C::arg(t), C::number(-2.5)}, {t}), "") << where;
    const TensorRef i = f.tensor(DType::Int64, {70});
    EXPECT_EQ(f.compare("aten.fill_.Scalar", {C::arg(i), C::integer(1234567)}, {i}), "") << where;
    const TensorRef b = f.tensor(DType::Bool, {9, 9});
    EXPECT_EQ(f.compare("aten.ones_like", {C::arg(b)}, {b}), "") << where;
    const TensorRef like = f.tensor(DType::Float16, {2, 130});
    EXPECT_EQ(f.compare("aten.zeros_like", {C::arg(like)}, {like}), "") << where;
    const TensorRef ones = f.tensor(DType::Float32, {5, 6});
    EXPECT_EQ(f.compare("aten.ones", {C::integers({5, 6})}, {ones}), "") << where;
  });
}

TEST(LibraryCopy, ViewsOfMoreThanFourAxesAreRefused) {
  CallFixture f;
  // Five axes that no two strides merge (a permuted 2x3x2x3x2 tensor).
  const TensorRef dst = f.tensor(DType::Float32, {2, 3, 2, 3, 2}, {1, 2, 6, 12, 36});
  try {
    planCall("aten.zero_", std::vector<CallArgument>{C::arg(dst)}, std::vector<const TensorRef *>{&dst}, MachineShape{});
    FAIL() << "a five-axis view was planned";
  } catch (const core::RuntimeError &e) {
    EXPECT_NE(std::string(e.what()).find("at most 4"), std::string::npos) << e.what();
  }
}

} // namespace
} // namespace npusim::library
