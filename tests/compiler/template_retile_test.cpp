// Re-tiling Inductor template kernels (docs/frontend.md, "Re-tiling
// templates"): blocks whose every use is a recognised form get larger values
// and the grid that covers the same rows; any other use keeps the launch's value
// and says why.
#include "compiler/kernel_support.h"
#include "config/hardware.h"
#include "driver/driver.h"
#include "reference/interpreter.h"
#include "runtime/kernels.h"
#include "triton/frontend.h"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <map>

namespace npusim {
namespace {

using compiler::testing::exactFloats;
using compiler::testing::floatAt;

namespace fs = std::filesystem;

const fs::path kTemplates = fs::path(NPUSIM_TEST_DATA) / "templates";

// The kernels compute out[256, 128] = A[256, 64] @ B[64, 128] with BLOCK_M =
// BLOCK_N = 32, BLOCK_K = 16, launched on a grid of (256 / 32, 128 / 32, 1).
constexpr int64_t kRetileM = 256, kRetileN = 128, kRetileK = 64;
const triton::GridSize kLaunchGrid{kRetileM / 32, kRetileN / 32, 1};

int64_t chosen(const driver::NpuKernel &kernel, const std::string &name) {
  return std::get<int64_t>(kernel.constexprs.at(name));
}

TEST(TemplateRetile, ChoosesLargerBlocksAndTheGridCoveringTheSameRows) {
  const triton::KernelFile file = triton::loadKernelFile((kTemplates / "triton_tem_small_mm.py").string());
  const config::HardwareConfig machine = config::loadConfig("tpuv3-like");
  const auto kernel = driver::compileForNpu(file, {}, {}, machine, {}, 1, kLaunchGrid);
  ASSERT_TRUE(kernel->blocksChosen);
  EXPECT_TRUE(kernel->keptBlocks.empty());
  const int64_t m = chosen(*kernel, "BLOCK_M"), n = chosen(*kernel, "BLOCK_N"),
                k = chosen(*kernel, "BLOCK_K");
  // Larger than the launch's, and dividing the covered extents (8 x 32 rows,
  // 4 x 32 columns, a reduction of 64).
  EXPECT_GT(m * n * k, 32 * 32 * 16);
  EXPECT_EQ(kRetileM % m, 0);
  EXPECT_EQ(kRetileN % n, 0);
  EXPECT_EQ(kRetileK % k, 0);
  const triton::GridSize grid = driver::npuGrid(file, *kernel, {}, kLaunchGrid);
  EXPECT_EQ(grid.x, kRetileM / m);
  EXPECT_EQ(grid.y, kRetileN / n);
  EXPECT_EQ(grid.z, 1);

  // Values: the re-tiled program on the functional simulator against the
  // reference interpreter at the launch's blocks and grid, and both against
  // the product computed here.
  reference::Buffer a = exactFloats("arg_A", kRetileM * kRetileK, 3, 0.5f), b = exactFloats("arg_B", kRetileK * kRetileN, 3, 0.25f);
  reference::Buffer npuOut = exactFloats("out_ptr0", kRetileM * kRetileN, 3, 0.0f), refOut = npuOut;
  const auto launched = triton::lowerKernel(file, {});
  std::vector<reference::Argument> refArgs = {{&a, 0, {}}, {&b, 0, {}}, {&refOut, 0, {}}};
  reference::runLaunch(*launched, reference::Grid{kLaunchGrid.x, kLaunchGrid.y, kLaunchGrid.z}, refArgs);
  std::vector<reference::Argument> npuArgs = {{&a, 0, {}}, {&b, 0, {}}, {&npuOut, 0, {}}};
  runtime::RunOptions options;
  options.mode = runtime::Mode::Functional;
  options.machine = machine;
  runtime::runOnNpu(*kernel, grid, npuArgs, options, "triton_tem_small_mm");
  int mismatches = 0;
  for (int64_t i = 0; i < kRetileM; ++i)
    for (int64_t j = 0; j < kRetileN; ++j) {
      double expected = 0; // out[i, j] = sum_k A[i, k] * B[k, j]
      for (int64_t r = 0; r < kRetileK; ++r)
        expected += static_cast<double>(floatAt(a, i * kRetileK + r)) * floatAt(b, r * kRetileN + j);
      mismatches += floatAt(refOut, i * kRetileN + j) != expected || floatAt(npuOut, i * kRetileN + j) != expected;
    }
  EXPECT_EQ(mismatches, 0);
}

TEST(TemplateRetile, AnUnrecognisedUseKeepsTheLaunchsBlockAndSaysWhy) {
  const triton::KernelFile file = triton::loadKernelFile((kTemplates / "triton_tem_hinted_mm.py").string());
  const auto kernel =
      driver::compileForNpu(file, {}, {}, config::loadConfig("tpuv3-like"), {}, 1, kLaunchGrid);
  ASSERT_EQ(kernel->keptBlocks.size(), 1u);
  // Line 24: `rm = tl.multiple_of(rm, BLOCK_M)`.
  EXPECT_EQ(kernel->keptBlocks[0], "BLOCK_M: used outside the tile and reduction forms at line 24");
  // BLOCK_M is not bound: the body's `BLOCK_M : tl.constexpr = 32` stands.
  EXPECT_EQ(kernel->constexprs.count("BLOCK_M"), 0u);
  for (const auto &[name, value] : kernel->program.blockSizes)
    EXPECT_NE(name, "BLOCK_M");
  const triton::GridSize grid = driver::npuGrid(file, *kernel, {}, kLaunchGrid);
  EXPECT_EQ(grid.x, kLaunchGrid.x);
  // Without the launch's grid nothing is re-tiled: the extents are unknown.
  const auto gridless = driver::compileForNpu(file, {}, {}, config::loadConfig("tpuv3-like"));
  EXPECT_FALSE(gridless->blocksChosen);
  EXPECT_FALSE(gridless->grid.has_value());
}

} // namespace
} // namespace npusim
