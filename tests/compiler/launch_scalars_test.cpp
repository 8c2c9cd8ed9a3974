// A kernel captured with dynamic shapes indexes by sizes it receives at run
// time. Compiled for a launch's values (docs/compiler.md, "Launch scalars"),
// the digits Inductor takes apart and sums back recombine ("Recombined
// divisions") and the widened index stays affine ("Widened index casts"):
// the copy below becomes one strided DMA each way, with no vector division,
// and copies exactly for each set of sizes it is compiled for.
#include "compiler/kernel_support.h"
#include "config/hardware.h"
#include "core/error.h"
#include "driver/driver.h"
#include "npu/program.h"
#include "reference/interpreter.h"
#include "runtime/kernels.h"
#include "triton/frontend.h"

#include <gtest/gtest.h>

#include <string_view>

namespace npusim {
namespace {

using compiler::testing::exactFloats;
using compiler::testing::floatAt;

// out[x] = in[x0 + ks0 * (x1 % ks1) + ks0 * ks1 * (x1 // ks1)] with x0 = x %
// ks0, x1 = x // ks0: the offset is x itself, written as Inductor writes a
// view of [n, ks1, ks0] that keeps its axes in order.
constexpr std::string_view kDigitsCopy = R"TRITON(import triton
import triton.language as tl


@triton.jit
def digits_copy(in_ptr0: "*fp32", out_ptr0: "*fp32", ks0: "i64", ks1: "i64", xnumel: "i32", XBLOCK: tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex % ks0
    x1 = xindex // ks0
    tmp0 = tl.load(in_ptr0 + (x0 + ks0 * (x1 % ks1) + ks0 * ks1 * (x1 // ks1)), xmask)
    tl.store(out_ptr0 + xindex, tmp0, xmask)
)TRITON";

constexpr int64_t kDigitsBlock = 256;

struct DigitsCopy {
  std::string program; // npu::print of the compiled program
  int mismatches = 0;  // elements of out that are not in's
};

/// Compiles digits_copy for ks0 x ks1 x 3 elements, with the launch's scalars
/// bound (`bind`) or not, and runs it on the functional simulator.
DigitsCopy runDigitsCopy(int64_t ks0, int64_t ks1, bool bind) {
  const int64_t numel = ks0 * ks1 * 3;
  const int64_t programs = (numel + kDigitsBlock - 1) / kDigitsBlock;
  const triton::KernelFile file = triton::loadKernel(kDigitsCopy, "digits_copy.py");
  const std::map<std::string, int64_t> scalars = {{"ks0", ks0}, {"ks1", ks1}, {"xnumel", numel}};
  const config::HardwareConfig machine = config::loadConfig("tpuv3-like");
  const auto kernel = driver::compileForNpu(file, {{"XBLOCK", kDigitsBlock}}, bind ? scalars : std::map<std::string, int64_t>{},
                                            machine, {"XBLOCK"}, 1, triton::GridSize{programs, 1, 1});
  DigitsCopy result;
  result.program = npu::print(kernel->program);
  reference::Buffer in = exactFloats("in", numel), out = exactFloats("out", numel, 7);
  std::vector<reference::Argument> args = {
      {&in, 0, {}}, {&out, 0, {}}, {nullptr, 0, {ks0, 0.0}}, {nullptr, 0, {ks1, 0.0}}, {nullptr, 0, {numel, 0.0}}};
  runtime::RunOptions options;
  options.mode = runtime::Mode::Functional;
  options.machine = machine;
  runtime::runOnNpu(*kernel, triton::GridSize{programs, 1, 1}, args, options, "digits_copy");
  for (int64_t i = 0; i < numel; ++i)
    result.mismatches += floatAt(out, i) != floatAt(in, i);
  return result;
}

TEST(LaunchScalars, BoundSizesMakeTheDigitsOneStridedCopy) {
  for (const auto &[ks0, ks1] : {std::pair<int64_t, int64_t>{96, 4}, {100, 7}}) {
    const DigitsCopy bound = runDigitsCopy(ks0, ks1, true);
    EXPECT_EQ(bound.mismatches, 0) << ks0 << " x " << ks1;
    EXPECT_EQ(bound.program.find("v.div"), std::string::npos) << bound.program;
    EXPECT_EQ(bound.program.find("v.rem"), std::string::npos) << bound.program;
    EXPECT_NE(bound.program.find("+ 1*i0] clip"), std::string::npos) << "the load is not one strided run\n"
                                                                      << bound.program;
  }
}

TEST(LaunchScalars, UnboundSizesStayAVectorIndexAndCopyExactly) {
  // Without the values the sizes are registers: the digits are computed per
  // element on the vector unit, and the load gathers through them.
  const DigitsCopy unbound = runDigitsCopy(96, 4, false);
  EXPECT_EQ(unbound.mismatches, 0);
  EXPECT_NE(unbound.program.find("v.div"), std::string::npos) << unbound.program;
}

TEST(LaunchScalars, ALaunchOnMoreProgramsThanCompiledForIsRefused) {
  // Compiled for 2 programs, whose value ranges the passes used: a third
  // program would run code proven for pid <= 1 only.
  const triton::KernelFile file = triton::loadKernel(kDigitsCopy, "digits_copy.py");
  const int64_t numel = 2 * kDigitsBlock;
  const config::HardwareConfig machine = config::loadConfig("tpuv3-like");
  const auto kernel = driver::compileForNpu(file, {{"XBLOCK", kDigitsBlock}},
                                            {{"ks0", 64}, {"ks1", 2}, {"xnumel", numel}}, machine, {"XBLOCK"}, 1,
                                            triton::GridSize{2, 1, 1});
  reference::Buffer in = exactFloats("in", 3 * kDigitsBlock), out = exactFloats("out", 3 * kDigitsBlock);
  std::vector<reference::Argument> args = {
      {&in, 0, {}}, {&out, 0, {}}, {nullptr, 0, {64, 0.0}}, {nullptr, 0, {2, 0.0}}, {nullptr, 0, {numel, 0.0}}};
  runtime::RunOptions options;
  options.mode = runtime::Mode::Functional;
  options.machine = machine;
  EXPECT_NO_THROW(runtime::runOnNpu(*kernel, triton::GridSize{2, 1, 1}, args, options, "digits_copy"));
  try {
    runtime::runOnNpu(*kernel, triton::GridSize{3, 1, 1}, args, options, "digits_copy");
    ADD_FAILURE() << "a launch of 3 programs ran";
  } catch (const core::RuntimeError &e) {
    EXPECT_NE(std::string(e.what()).find("compiled for a grid of 2 x 1 x 1 programs"), std::string::npos) << e.what();
  }
}

} // namespace
} // namespace npusim
