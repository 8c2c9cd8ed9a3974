// aten.embedding: the planned gather on the reference interpreter and on the
// NPU (compiler and functional simulator) against the host call (itself
// checked against hand values in tests/runtime/host_calls_test.cpp).
#include "config/hardware.h"
#include "library/plan_harness.h"

#include <gtest/gtest.h>

namespace npusim::library {
namespace {

using core::DType;
using harness::CallFixture;
using harness::RunStats;
using C = CallFixture;

/// An index tensor of `shape` whose elements are (7 i + 3) mod rows: every row
/// reached, repeats, the last row included.
TensorRef indexTensor(CallFixture &f, DType dtype, std::vector<int64_t> shape, int64_t rows,
                      std::vector<int64_t> stride = {}) {
  const TensorRef t = f.tensor(dtype, shape, stride);
  int64_t count = 1;
  for (int64_t s : shape)
    count *= s;
  std::vector<int64_t> at(shape.size(), 0);
  for (int64_t e = 0; e < count; ++e) {
    int64_t element = t.offset;
    for (size_t k = 0; k < shape.size(); ++k)
      element += at[k] * t.stride[k];
    f.set(t, element, static_cast<double>((7 * e + 3) % rows));
    for (size_t k = shape.size(); k-- > 0;)
      if (++at[k] < shape[k])
        break;
      else
        at[k] = 0;
  }
  return t;
}

TEST(LibraryEmbedding, GathersRowsOnEveryMachine) {
  const std::vector<std::optional<config::HardwareConfig>> machines = {std::nullopt, config::defaultConfig(),
                                                                       config::loadConfig("edge-8lane")};
  for (const auto &machine : machines) {
    const std::string where = machine ? " on " + machine->name : " on the interpreter";
    {
      // The tagger's shape: [2, 8] int64 indices into a [64, 16] table.
      CallFixture f;
      if (machine)
        f.useNpu(*machine);
      const TensorRef w = f.tensor(DType::Float32, {64, 16});
      const TensorRef ids = indexTensor(f, DType::Int64, {2, 8}, 64);
      const TensorRef out = f.tensor(DType::Float32, {2, 8, 16});
      RunStats stats;
      EXPECT_EQ(f.compare("aten.embedding", {C::arg(w), C::arg(ids)}, {out}, {}, {}, &stats), "") << where;
      if (machine) {
        EXPECT_EQ(stats.launches, 1) << where;
      }
    }
    {
      // More rows than a block, a wide row over several column blocks, a transposed
      // table, int32 indices of stride 2, a bf16 table.
      CallFixture f;
      if (machine)
        f.useNpu(*machine);
      const TensorRef w = f.tensor(DType::BFloat16, {50, 300}, {1, 50});
      const TensorRef ids = indexTensor(f, DType::Int32, {37}, 50, {2});
      const TensorRef out = f.tensor(DType::BFloat16, {37, 300});
      EXPECT_EQ(f.compare("aten.embedding", {C::arg(w), C::arg(ids)}, {out}), "") << where;
    }
  }
}

TEST(LibraryEmbedding, DenseBackwardSumsRepeatedRowsAndSkipsPadding) {
  const std::vector<std::optional<config::HardwareConfig>> machines = {std::nullopt, config::defaultConfig(),
                                                                       config::loadConfig("edge-8lane")};
  for (const auto &machine : machines) {
    const std::string where = machine ? " on " + machine->name : " on the interpreter";
    // 40 indices into 24 rows (every row hit once or twice), row 3 the padding; a gradient
    // of [4, 10, 20] and a second of 300 columns (several column blocks).
    // A bf16 gradient too (accumulated in fp32, rounded once).
    for (auto [d, dtype] : {std::pair{int64_t{20}, DType::Float32}, std::pair{int64_t{300}, DType::Float32},
                            std::pair{int64_t{20}, DType::BFloat16}}) {
      CallFixture f;
      if (machine)
        f.useNpu(*machine);
      const TensorRef grad = f.tensor(dtype, {4, 10, d});
      const TensorRef ids = indexTensor(f, DType::Int64, {4, 10}, 24);
      const TensorRef out = f.tensor(dtype, {24, d});
      RunStats stats;
      EXPECT_EQ(f.compare("aten.embedding_dense_backward",
                          {C::arg(grad), C::arg(ids), C::integer(24), C::integer(3), C::boolean(false)},
                          {out}, {}, {}, &stats),
                "")
          << where << ", D " << d;
      if (machine) {
        EXPECT_EQ(stats.launches, 1) << where;
      }
    }
  }
}

} // namespace
} // namespace npusim::library
