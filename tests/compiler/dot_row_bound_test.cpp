// A dot whose A tile comes from a load clipped on its rows (a ragged last row
// block, `mask=rm[:, None] < M`) streams only the rows before the clip's end:
// its accumulating matmuls carry that bound (docs/compiler.md, "Dot"), the
// functional simulator records the rows that streamed, and the timing model
// charges those rows (docs/timing.md, "Systolic arrays"). The kernel is
// tests/data/kernels/dot_ragged_rows.py: C[M, 128] = A[M, 256] @ B[256, 128]
// in row blocks of 256, two K steps of 128 accumulated.
#include "compiler/kernel_support.h"
#include "config/hardware.h"
#include "driver/driver.h"
#include "reference/interpreter.h"
#include "runtime/kernels.h"
#include "triton/frontend.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace npusim {
namespace {

using compiler::testing::exactFloats;
using compiler::testing::floatAt;

namespace fs = std::filesystem;

constexpr int64_t kBlockM = 256, kK = 128, kN = 128;

std::unique_ptr<driver::NpuKernel> compileRaggedRows() {
  const triton::KernelFile file =
      triton::loadKernelFile((fs::path(NPUSIM_TEST_DATA) / "kernels" / "dot_ragged_rows.py").string());
  return driver::compileForNpu(file, {{"BLOCK_M", kBlockM}, {"K", kK}, {"N", kN}}, {},
                               config::loadConfig("tpuv3-like"));
}

void collectMatmuls(const std::vector<npu::Instruction> &body, std::vector<const npu::Instruction *> &out) {
  for (const npu::Instruction &i : body) {
    if (i.opcode == npu::Opcode::MMatmul)
      out.push_back(&i);
    collectMatmuls(i.body, out);
    collectMatmuls(i.elseBody, out);
  }
}

TEST(DotRowBound, MatmulsOfARowClippedTileCarryTheBound) {
  const auto kernel = compileRaggedRows();
  std::vector<const npu::Instruction *> matmuls;
  collectMatmuls(kernel->program.body, matmuls);
  ASSERT_FALSE(matmuls.empty());
  for (const npu::Instruction *m : matmuls) {
    EXPECT_TRUE(m->accumulate);
    EXPECT_EQ(m->scalars.size(), 1u) << "a matmul without the row bound";
  }
}

struct RaggedRun {
  runtime::KernelRun run;
  int mismatches = 0;
};

/// One launch over M rows (grid ceil(M / 256)) in `mode`; in the functional
/// mode the product is checked against a sum in double.
RaggedRun runRaggedRows(int64_t m, runtime::Mode mode) {
  const auto kernel = compileRaggedRows();
  const int64_t blocks = (m + kBlockM - 1) / kBlockM;
  reference::Buffer a = exactFloats("a", blocks * kBlockM * 2 * kK), b = exactFloats("b", 2 * kK * kN),
                    c = exactFloats("c", blocks * kBlockM * kN);
  std::vector<reference::Argument> args = {{&a, 0, {}}, {&b, 0, {}}, {&c, 0, {}}, {nullptr, 0, {m, 0.0}}};
  runtime::RunOptions options;
  options.mode = mode;
  options.machine = config::loadConfig("tpuv3-like");
  RaggedRun result;
  result.run = runtime::runOnNpu(*kernel, triton::GridSize{blocks, 1, 1}, args, options, "dot_ragged_rows");
  if (mode == runtime::Mode::Functional)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < kN; ++j) {
        double expected = 0;
        for (int64_t r = 0; r < 2 * kK; ++r)
          expected += static_cast<double>(floatAt(a, i * 2 * kK + r)) * floatAt(b, r * kN + j);
        result.mismatches += floatAt(c, i * kN + j) != expected;
      }
  return result;
}

TEST(DotRowBound, TheRowsPastTheBoundDoNotStream) {
  // 300 rows: a full block and one of 44. Every matmul accumulates (the
  // carried tile starts as a splat of zeros), so the arrays multiply
  // exactly M x 2K x N: 300 x 256 x 128 = 9,830,400 (without the bound the
  // second block's 256 rows: 512 x 256 x 128 = 16,777,216).
  const RaggedRun ragged = runRaggedRows(300, runtime::Mode::Timing);
  ASSERT_TRUE(ragged.run.timed);
  EXPECT_EQ(ragged.run.timing.macs, 300 * 2 * kK * kN);
  // The same two blocks full (512 rows) stream 212 rows more per matmul:
  // 2 K steps x 1 column block of the second program.
  const RaggedRun full = runRaggedRows(512, runtime::Mode::Timing);
  EXPECT_EQ(full.run.timing.macs, 512 * 2 * kK * kN);
  EXPECT_LT(ragged.run.timing.cycles, full.run.timing.cycles);
}

TEST(DotRowBound, TheProductIsExact) {
  EXPECT_EQ(runRaggedRows(300, runtime::Mode::Functional).mismatches, 0);
}

} // namespace
} // namespace npusim
