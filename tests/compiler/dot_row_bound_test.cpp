// A dot whose A tile comes from a load clipped on its rows (a ragged last row
// block, `mask=rm[:, None] < M`) streams only the rows before the clip's end,
// and one whose B tile is clipped on its columns leaves out the column blocks
// wholly past the clip: its accumulating matmuls and weight loads carry those
// bounds (docs/compiler.md, "Dot"), the functional simulator records what
// streamed, and the timing model charges that (docs/timing.md, "Systolic
// arrays"). The kernels (below): dot_ragged_rows, C[M, 128] = A[M, 256] @
// B[256, 128] in row blocks of 256, and dot_ragged_columns, C[128, N] in one
// column block of 512; both in two K steps of 128.
#include "compiler/kernel_support.h"
#include "config/hardware.h"
#include "driver/driver.h"
#include "reference/interpreter.h"
#include "runtime/kernels.h"
#include "triton/frontend.h"

#include <gtest/gtest.h>

#include <string_view>

namespace npusim {
namespace {

using compiler::testing::exactFloats;
using compiler::testing::floatAt;

constexpr std::string_view kRaggedRows = R"TRITON(# C[M, N] = A[M, 2K] @ B[2K, N] in two K steps accumulated into one carried
# tile; the last program's row block is ragged past M (a scalar argument), so
# A's load is clipped on its rows.
import triton
import triton.language as tl


@triton.jit
def dot_ragged_rows(a_ptr: "*fp32", b_ptr: "*fp32", c_ptr: "*fp32", M: "i32"):
    BLOCK_M: tl.constexpr = 256
    K: tl.constexpr = 128
    N: tl.constexpr = 128
    pid = tl.program_id(0)
    rm = pid * BLOCK_M + tl.arange(0, BLOCK_M)
    rk = tl.arange(0, K)
    rn = tl.arange(0, N)
    acc = tl.zeros((BLOCK_M, N), dtype=tl.float32)
    for k0 in range(0, 2 * K, K):
        a = tl.load(a_ptr + rm[:, None] * (2 * K) + (k0 + rk)[None, :], mask=rm[:, None] < M, other=0.0)
        b = tl.load(b_ptr + (k0 + rk)[:, None] * N + rn[None, :])
        acc += tl.dot(a, b, allow_tf32=False)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc, mask=rm[:, None] < M)
)TRITON";

constexpr std::string_view kRaggedColumns = R"TRITON(# C[M, N] = A[M, 2K] @ B[2K, N] in two K steps accumulated into one carried
# tile of BLOCK_N columns; N (a scalar argument) leaves the tile's last column
# blocks past it, so B's load is clipped on its columns.
import triton
import triton.language as tl


@triton.jit
def dot_ragged_columns(a_ptr: "*fp32", b_ptr: "*fp32", c_ptr: "*fp32", N: "i32"):
    M: tl.constexpr = 128
    K: tl.constexpr = 128
    BLOCK_N: tl.constexpr = 512
    rm = tl.arange(0, M)
    rk = tl.arange(0, K)
    rn = tl.arange(0, BLOCK_N)
    acc = tl.zeros((M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, 2 * K, K):
        a = tl.load(a_ptr + rm[:, None] * (2 * K) + (k0 + rk)[None, :])
        b = tl.load(b_ptr + (k0 + rk)[:, None] * N + rn[None, :], mask=rn[None, :] < N, other=0.0)
        acc += tl.dot(a, b, allow_tf32=False)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc, mask=rn[None, :] < N)
)TRITON";

// The kernels' own constexprs.
constexpr int64_t kRaggedBlockM = 256, kRaggedK = 128, kRaggedN = 128;

std::unique_ptr<driver::NpuKernel> compileRaggedRows() {
  const triton::KernelFile file = triton::loadKernel(kRaggedRows, "dot_ragged_rows.py");
  return driver::compileForNpu(file, {}, {}, config::loadConfig("tpuv3-like"));
}

void collectBoundedMatmuls(const std::vector<npu::Instruction> &body, std::vector<const npu::Instruction *> &out) {
  for (const npu::Instruction &i : body) {
    if (i.opcode == npu::Opcode::MMatmul)
      out.push_back(&i);
    collectBoundedMatmuls(i.body, out);
    collectBoundedMatmuls(i.elseBody, out);
  }
}

TEST(DotRowBound, MatmulsOfARowClippedTileCarryTheBound) {
  const auto kernel = compileRaggedRows();
  std::vector<const npu::Instruction *> matmuls;
  collectBoundedMatmuls(kernel->program.body, matmuls);
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
  const int64_t blocks = (m + kRaggedBlockM - 1) / kRaggedBlockM;
  reference::Buffer a = exactFloats("a", blocks * kRaggedBlockM * 2 * kRaggedK), b = exactFloats("b", 2 * kRaggedK * kRaggedN),
                    c = exactFloats("c", blocks * kRaggedBlockM * kRaggedN);
  std::vector<reference::Argument> args = {{&a, 0, {}}, {&b, 0, {}}, {&c, 0, {}}, {nullptr, 0, {m, 0.0}}};
  runtime::RunOptions options;
  options.mode = mode;
  options.machine = config::loadConfig("tpuv3-like");
  RaggedRun result;
  result.run = runtime::runOnNpu(*kernel, triton::GridSize{blocks, 1, 1}, args, options, "dot_ragged_rows");
  if (mode == runtime::Mode::Functional)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < kRaggedN; ++j) {
        double expected = 0;
        for (int64_t r = 0; r < 2 * kRaggedK; ++r)
          expected += static_cast<double>(floatAt(a, i * 2 * kRaggedK + r)) * floatAt(b, r * kRaggedN + j);
        result.mismatches += floatAt(c, i * kRaggedN + j) != expected;
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
  EXPECT_EQ(ragged.run.timing.macs, 300 * 2 * kRaggedK * kRaggedN);
  // The same two blocks full (512 rows) stream 212 rows more per matmul:
  // 2 K steps x 1 column block of the second program.
  const RaggedRun full = runRaggedRows(512, runtime::Mode::Timing);
  EXPECT_EQ(full.run.timing.macs, 512 * 2 * kRaggedK * kRaggedN);
  EXPECT_LT(ragged.run.timing.cycles, full.run.timing.cycles);
}

TEST(DotRowBound, TheProductIsExact) {
  EXPECT_EQ(runRaggedRows(300, runtime::Mode::Functional).mismatches, 0);
}

/// dot_ragged_columns over N columns in `mode` (one program of 512
/// columns); in the functional mode the product is checked in double.
RaggedRun runRaggedColumns(int64_t n, runtime::Mode mode) {
  constexpr int64_t kRows = 128; // the kernel's M (its BLOCK_N is 512)
  const triton::KernelFile file = triton::loadKernel(kRaggedColumns, "dot_ragged_columns.py");
  const auto kernel = driver::compileForNpu(file, {}, {}, config::loadConfig("tpuv3-like"));
  std::vector<const npu::Instruction *> matmuls;
  collectBoundedMatmuls(kernel->program.body, matmuls);
  for (const npu::Instruction *m : matmuls)
    EXPECT_EQ(m->scalars.size(), 2u) << "a matmul without the column bound";
  reference::Buffer a = exactFloats("a", kRows * 2 * kRaggedK), b = exactFloats("b", 2 * kRaggedK * n),
                    c = exactFloats("c", kRows * n);
  std::vector<reference::Argument> args = {{&a, 0, {}}, {&b, 0, {}}, {&c, 0, {}}, {nullptr, 0, {n, 0.0}}};
  runtime::RunOptions options;
  options.mode = mode;
  options.machine = config::loadConfig("tpuv3-like");
  RaggedRun result;
  result.run = runtime::runOnNpu(*kernel, triton::GridSize{1, 1, 1}, args, options, "dot_ragged_columns");
  if (mode == runtime::Mode::Functional)
    for (int64_t i = 0; i < kRows; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double expected = 0;
        for (int64_t r = 0; r < 2 * kRaggedK; ++r)
          expected += static_cast<double>(floatAt(a, i * 2 * kRaggedK + r)) * floatAt(b, r * n + j);
        result.mismatches += floatAt(c, i * n + j) != expected;
      }
  return result;
}

TEST(DotRowBound, ColumnBlocksPastTheBoundAreLeftOut) {
  // 200 columns of a 512-column tile: lane blocks 0 and 1 hold them, 2 and 3
  // only zeros. The arrays count a block's MACs over its columns in the
  // tile: 128 x 256 x 256 = 8,388,608 (without the bound, all four blocks:
  // 16,777,216).
  const RaggedRun ragged = runRaggedColumns(200, runtime::Mode::Timing);
  ASSERT_TRUE(ragged.run.timed);
  EXPECT_EQ(ragged.run.timing.macs, 128 * 2 * kRaggedK * 256);
  const RaggedRun full = runRaggedColumns(512, runtime::Mode::Timing);
  EXPECT_EQ(full.run.timing.macs, 128 * 2 * kRaggedK * 512);
  EXPECT_LT(ragged.run.timing.cycles, full.run.timing.cycles);
  EXPECT_EQ(runRaggedColumns(200, runtime::Mode::Functional).mismatches, 0);
}

} // namespace
} // namespace npusim
