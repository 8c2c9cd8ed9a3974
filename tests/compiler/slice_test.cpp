// Windows of tiles (docs/compiler.md, "Slices"): a slice is an alias of its
// operand's bytes, so the shifted-tap pattern of a convolution moves no data
// on chip, and the values are the reference's. The kernel is
// tests/data/slices/slice_windows.py, outside the compile corpus: its
// [64, 128] tile has no window on 8 lanes.
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

constexpr int64_t kSliceRows = 64, kSliceC = 128, kSliceN = 16, kSliceM = 32;

const triton::KernelFile &kernelFile() {
  static const triton::KernelFile file =
      triton::loadKernelFile((fs::path(NPUSIM_TEST_DATA) / "slices" / "slice_windows.py").string());
  return file;
}

class SliceWindows : public ::testing::TestWithParam<runtime::Mode> {};

TEST_P(SliceWindows, GiveTheShiftedProductsAndWindows) {
  reference::Buffer x = exactFloats("x", kSliceRows * kSliceC, 3), w = exactFloats("w", 3 * kSliceC * kSliceN, 5);
  reference::Buffer y = exactFloats("y", kSliceM * kSliceN, 0), z = exactFloats("z", kSliceN, 0),
                    v = exactFloats("v", kSliceM * kSliceN, 0);
  std::vector<reference::Argument> args = {{&x, 0, {}}, {&w, 0, {}}, {&y, 0, {}}, {&z, 0, {}}, {&v, 0, {}}};
  const config::HardwareConfig machine = config::loadConfig("tpuv3-like");
  if (GetParam() == runtime::Mode::Reference) {
    const auto launched = triton::lowerKernel(kernelFile(), {});
    reference::runLaunch(*launched, reference::Grid{1, 1, 1}, args);
  } else {
    const auto kernel = driver::compileForNpu(kernelFile(), {}, {}, machine);
    runtime::RunOptions options;
    options.mode = GetParam();
    options.machine = machine;
    runtime::runOnNpu(*kernel, triton::GridSize{1, 1, 1}, args, options, "slice_windows");
  }
  int mismatches = 0;
  for (int64_t m = 0; m < kSliceM; ++m)
    for (int64_t n = 0; n < kSliceN; ++n) {
      // y[m, n] = sum over taps t of x[m + 2t, :] . w[t, :, n], plus x[32 + m, n]
      double expected = floatAt(x, (kSliceRows - kSliceM + m) * kSliceC + n);
      for (int64_t t = 0; t < 3; ++t)
        for (int64_t c = 0; c < kSliceC; ++c)
          expected +=
              static_cast<double>(floatAt(x, (m + 2 * t) * kSliceC + c)) * floatAt(w, (t * kSliceC + c) * kSliceN + n);
      mismatches += floatAt(y, m * kSliceN + n) != expected;
    }
  for (int64_t n = 0; n < kSliceN; ++n)
    mismatches += floatAt(z, n) != floatAt(x, 5 * kSliceC + n);
  for (int64_t m = 0; m < kSliceM; ++m)
    for (int64_t n = 0; n < kSliceN; ++n) {
      // v[m, n] = x[m, :] . w[1, :, n] (rows 128.. of w's first 256)
      double expected = 0;
      for (int64_t c = 0; c < kSliceC; ++c)
        expected += static_cast<double>(floatAt(x, m * kSliceC + c)) * floatAt(w, (kSliceC + c) * kSliceN + n);
      mismatches += floatAt(v, m * kSliceN + n) != expected;
    }
  EXPECT_EQ(mismatches, 0);
}

INSTANTIATE_TEST_SUITE_P(Modes, SliceWindows,
                         ::testing::Values(runtime::Mode::Reference, runtime::Mode::Functional,
                                           runtime::Mode::Full));

TEST(SliceWindows, DotsReadTheLoadedTileInPlace) {
  const auto kernel = driver::compileForNpu(kernelFile(), {}, {}, config::loadConfig("tpuv3-like"));
  int loads = 0, relayouts = 0;
  for (const npu::Instruction &i : kernel->program.body) {
    loads += i.opcode == npu::Opcode::DmaLoad;
    relayouts += i.opcode == npu::Opcode::XRelayout;
  }
  EXPECT_EQ(loads, 5); // x once, the three taps' weights and the [256, 16] tile
  EXPECT_EQ(relayouts, 0);
}

} // namespace
} // namespace npusim
