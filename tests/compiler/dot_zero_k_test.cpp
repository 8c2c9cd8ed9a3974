// A dot issues no matmul for K blocks where both operands are provably +0
// (docs/compiler.md, "Dot"; compiler/zero_extent.h): a masked ragged K. The
// kernels are tests/data/kernels/dot_*_k.py, 16 x 16 products whose K tile is
// wider than the reduction's 300 columns.
#include "compiler/kernel_support.h"
#include "config/hardware.h"
#include "driver/driver.h"
#include "reference/interpreter.h"
#include "runtime/kernels.h"
#include "triton/frontend.h"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>

namespace npusim {
namespace {

using compiler::testing::exactFloats;
using compiler::testing::floatAt;

namespace fs = std::filesystem;

const fs::path kKernels = fs::path(NPUSIM_TEST_DATA) / "kernels";
constexpr int64_t kM = 16, kDotN = 16, kK = 300, kBRows = 512;

int64_t matmuls(const std::vector<npu::Instruction> &body) {
  int64_t n = 0;
  for (const npu::Instruction &i : body)
    n += (i.opcode == npu::Opcode::MMatmul) + matmuls(i.body) + matmuls(i.elseBody);
  return n;
}

std::unique_ptr<driver::NpuKernel> compile(const std::string &name) {
  const triton::KernelFile file = triton::loadKernelFile((kKernels / (name + ".py")).string());
  return driver::compileForNpu(file, {}, {}, config::loadConfig("tpuv3-like"));
}

TEST(DotZeroK, BlocksPastAMaskedKOnBothOperandsIssueNoMatmul) {
  // K = 512 is four blocks of the 128-lane arrays; columns 300.. are masked
  // on both operands: ceil(300 / 128) = 3 blocks, one N block.
  EXPECT_EQ(matmuls(compile("dot_masked_k")->program.body), 3);
  // The second K block of 256 (columns 256..511, 300 > k + 256): 44 valid
  // columns, one block of the two.
  EXPECT_EQ(matmuls(compile("dot_offset_masked_k")->program.body), 1);
}

TEST(DotZeroK, AMaskOnOneOperandKeepsEveryBlock) {
  EXPECT_EQ(matmuls(compile("dot_one_side_masked_k")->program.body), 4);
}

TEST(DotZeroK, TheSkippedBlocksLeaveTheProductExact) {
  const auto kernel = compile("dot_masked_k");
  reference::Buffer a = exactFloats("a", kM * kK), b = exactFloats("b", kBRows * kDotN),
                    out = exactFloats("c", kM * kDotN);
  std::vector<reference::Argument> args = {{&a, 0, {}}, {&b, 0, {}}, {&out, 0, {}}};
  runtime::RunOptions options;
  options.mode = runtime::Mode::Functional;
  options.machine = config::loadConfig("tpuv3-like");
  runtime::runOnNpu(*kernel, triton::GridSize{1, 1, 1}, args, options, "dot_masked_k");
  int mismatches = 0;
  for (int64_t i = 0; i < kM; ++i)
    for (int64_t j = 0; j < kDotN; ++j) {
      double expected = 0; // out[i, j] = sum over k < 300 of A[i, k] * B[k, j]
      for (int64_t r = 0; r < kK; ++r)
        expected += static_cast<double>(floatAt(a, i * kK + r)) * floatAt(b, r * kDotN + j);
      mismatches += floatAt(out, i * kDotN + j) != expected;
    }
  EXPECT_EQ(mismatches, 0);
}

} // namespace
} // namespace npusim
