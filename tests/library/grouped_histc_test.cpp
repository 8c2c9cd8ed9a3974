// aten._grouped_mm, transformers.grouped_mm_fallback and aten.histc: the
// planned kernels on the reference interpreter and on the NPU (compiler and
// functional simulator) against the host calls (themselves checked against
// naive loops in tests/runtime/host_calls_training_test.cpp).
#include "config/hardware.h"
#include "core/error.h"
#include "library/plan_harness.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace npusim::library {
namespace {

using core::DType;
using harness::CallFixture;
using C = CallFixture;

/// An int32 offs tensor holding `ends`.
TensorRef offsets(CallFixture &f, const std::vector<int64_t> &ends) {
  const TensorRef t = f.tensor(DType::Int32, {static_cast<int64_t>(ends.size())});
  for (size_t i = 0; i < ends.size(); ++i)
    f.set(t, static_cast<int64_t>(i), static_cast<double>(ends[i]));
  return t;
}

// Uneven groups of 40 rows: 5, 0 (empty), 17, 11, then 7 rows in no group;
// both ops, both weight layouts, on the interpreter, the default NPU and the edge NPU.
TEST(LibraryGroupedMm, UnevenGroupsEveryWhere) {
  const int64_t M = 40, K = 24, N = 20, G = 4;
  const std::vector<std::optional<config::HardwareConfig>> machines = {std::nullopt, config::defaultConfig(),
                                                                       config::loadConfig("edge-8lane")};
  for (const auto &machine : machines)
    for (const char *op : {"aten._grouped_mm", "transformers.grouped_mm_fallback"})
      for (bool kContiguous : {false, true}) {
        CallFixture f;
        if (machine)
          f.useNpu(*machine);
        const TensorRef a = f.tensor(DType::Float32, {M, K});
        const TensorRef b = kContiguous ? f.tensor(DType::Float32, {G, K, N}, {N * K, 1, K})
                                        : f.tensor(DType::Float32, {G, K, N});
        const TensorRef offs = offsets(f, {5, 5, 22, 33});
        const TensorRef out = f.tensor(DType::Float32, {M, N});
        EXPECT_EQ(f.compare(op, {C::arg(a), C::arg(b), C::arg(offs)}, {out}), "")
            << op << (machine ? " on " + machine->name : " on the interpreter") << ", K contiguous "
            << kContiguous;
      }
}

TEST(LibraryGroupedMm, SixteenBitAndBatched) {
  CallFixture f;
  f.useNpu(config::loadConfig("edge-8lane"));
  const TensorRef a = f.tensor(DType::BFloat16, {19, 33});
  const TensorRef b = f.tensor(DType::BFloat16, {3, 33, 18});
  const TensorRef offs = offsets(f, {0, 12, 19}); // an empty first group, every row used
  const TensorRef out = f.tensor(DType::BFloat16, {19, 18});
  EXPECT_EQ(f.compare("aten._grouped_mm", {C::arg(a), C::arg(b), C::arg(offs)}, {out}), "");
  const TensorRef a3 = f.tensor(DType::Float32, {3, 9, 17});
  const TensorRef b3 = f.tensor(DType::Float32, {3, 17, 5});
  const TensorRef out3 = f.tensor(DType::Float32, {3, 9, 5});
  EXPECT_EQ(f.compare("aten._grouped_mm", {C::arg(a3), C::arg(b3)}, {out3}), "");
}

TEST(LibraryGroupedMm, OtherFormsHaveNoNpuKernel) {
  CallFixture f;
  const TensorRef a = f.tensor(DType::Float32, {3, 4, 5});
  const TensorRef b = f.tensor(DType::Float32, {5, 6});
  const TensorRef offs = offsets(f, {2, 4, 6});
  const TensorRef out = f.tensor(DType::Float32, {4, 6});
  const std::vector<CallArgument> args = {C::arg(a), C::arg(b), C::arg(offs)};
  const std::vector<const TensorRef *> outs = {&out};
  try {
    planCall("aten._grouped_mm", args, outs, MachineShape{});
    FAIL() << "expected an error";
  } catch (const core::RuntimeError &e) {
    EXPECT_NE(std::string(e.what()).find("aten._grouped_mm: only the 2-D x 3-D form"), std::string::npos)
        << e.what();
  }
}

TEST(LibraryHistc, RangesTiesAndEdges) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (bool npu : {false, true}) {
    CallFixture f;
    if (npu)
      f.useNpu(config::loadConfig("edge-8lane"));
    // A strided 2-D view; values on bin edges, at min and max, outside, and NaN.
    const TensorRef self = f.tensor(DType::Float32, {7, 9}, {16, 2}, 1, -1.5, 3.5);
    const double special[] = {0.0, 3.0, -1.0, 0.75, 1.5, nan, 2.25, 4.0};
    for (int64_t i = 0; i < 8; ++i)
      f.set(self, 1 + i * 2, special[i]);
    const TensorRef out = f.tensor(DType::Float32, {37});
    EXPECT_EQ(f.compare("aten.histc", {C::arg(self), C::integer(37), C::number(0.0), C::number(3.0)}, {out}),
              "")
        << "npu " << npu;
    // min == max: the data's range (no NaN here).
    const TensorRef data = f.tensor(DType::BFloat16, {300}, {}, 0, -4.0, 4.0);
    const TensorRef counts = f.tensor(DType::BFloat16, {10});
    EXPECT_EQ(
        f.compare("aten.histc", {C::arg(data), C::integer(10), C::number(0.0), C::number(0.0)}, {counts}), "")
        << "npu " << npu;
    // All equal: the range widens to [v - 1, v + 1].
    const TensorRef same = f.tensor(DType::Float32, {5}, {}, 0, 2.0, 2.0);
    const TensorRef two = f.tensor(DType::Float32, {2});
    EXPECT_EQ(f.compare("aten.histc", {C::arg(same), C::integer(2), C::number(1.0), C::number(1.0)}, {two}),
              "")
        << "npu " << npu;
  }
}

} // namespace
} // namespace npusim::library
