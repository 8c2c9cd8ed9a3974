// Mapping strategies: registered by name, chosen by MachineShape::mappingStrategy
// (npusim run --mapping-strategy NAME), the external file's tiles first.
#include "library/plan_harness.h"

#include "core/error.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace npusim::library {
namespace {

using core::DType;
using harness::CallFixture;

/// The plan of mm [4096, 512] x [512, 4096] fp32 (B too large to stay in the
/// scratchpad: always the tiled kernel) with `strategy`.
KernelLaunch planMm(const std::string &strategy, const std::map<std::string, GemmTiles> &mapping = {}) {
  CallFixture f;
  const TensorRef a = f.tensor(DType::Float32, {4096, 512});
  const TensorRef b = f.tensor(DType::Float32, {512, 4096});
  const TensorRef out = f.tensor(DType::Float32, {4096, 4096});
  const std::vector<const TensorRef *> outs = {&out};
  MachineShape machine;
  machine.mappingStrategy = strategy;
  machine.mapping = mapping;
  machine.gemmKernel = "tiled"; // the kernel the mapping strategies tile
  const CallPlan plan =
      planCall("aten.mm", std::vector<CallArgument>{CallFixture::arg(a), CallFixture::arg(b)}, outs, machine);
  EXPECT_EQ(plan.launches.size(), 1u);
  return plan.launches.empty() ? KernelLaunch{} : plan.launches[0];
}

// The machine's shape as the library sees it, read from a configuration:
// edge-8lane's own sizes, and its DRAM round trip and per-core peak from the
// same formulas the timing simulator's memory follows (closed forms below).
TEST(LibraryMachineShape, ReadFromTheConfiguration) {
  const config::HardwareConfig edge = config::loadConfig("edge-8lane");
  const MachineShape shape = machineShapeOf(edge);
  EXPECT_EQ(shape.lanes, edge.lanes);
  EXPECT_EQ(shape.spadBytesPerLane, edge.spadBytesPerLane());
  EXPECT_EQ(shape.systolicArrays, edge.systolicArraysPerCore);
  // Weight load L, fill and drain 2L - 2.
  EXPECT_DOUBLE_EQ(shape.arrayPassOverheadCycles(), 3.0 * edge.lanes - 2);
  // NoC both ways, then nRCD + nCL + nBL DRAM cycles in core cycles.
  const config::DramTiming &t = edge.dram.timing;
  const double roundTrip = 2.0 * edge.noc.latencyCycles + (t.nRCDRead + t.nCL + t.burstCycles) *
                                                               static_cast<double>(edge.dram.clockPeriodPs()) *
                                                               1e-6 * edge.coreFreqMhz;
  EXPECT_NEAR(shape.dramLatencyCycles, roundTrip, 1e-9);
  // Per core: every channel's access bytes per nBL DRAM cycles, over the cores.
  const double peak = edge.dram.channels * t.accessBytes() /
                      (t.burstCycles * static_cast<double>(edge.dram.clockPeriodPs()) * 1e-12);
  EXPECT_NEAR(shape.dramBytesPerCycle, peak / std::max(1, edge.numCores) / (edge.coreFreqMhz * 1e6), 1e-9);
}

TEST(LibraryMappingStrategies, RegisteredByName) {
  const std::vector<std::string> names = mappingStrategies();
  for (const char *name : {"external", "first_fit", "search"})
    EXPECT_NE(std::find(names.begin(), names.end(), name), names.end()) << name;
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
}

TEST(LibraryMappingStrategies, FirstFitTakesTheLargestRowsThatFit) {
  // K and N blocks of the array's width (128); two K steps (K = 512 is four
  // blocks). Bytes per lane (docs/library-kernels.md, "Mapping search"):
  // 2 x (A 8 BM + B 1024 + C 4 BM) + 2 C 8 BM = 32 BM + 2048 <= 65536 (half
  // the bank): BM <= 1984, so BLOCK_M = 1024.
  const KernelLaunch l = planMm("first_fit");
  EXPECT_EQ(harness::launchConstant(l, "BLOCK_K"), 128);
  EXPECT_EQ(harness::launchConstant(l, "BLOCK_N"), 128);
  EXPECT_EQ(harness::launchConstant(l, "BLOCK_M"), 1024);
  EXPECT_EQ(l.grid[0], 4);
  EXPECT_NE(l.source.find("acc_1 += tl.dot("), std::string::npos);
  // The search ranks by the cost model and takes something else here.
  const KernelLaunch s = planMm("search");
  EXPECT_NE(harness::launchConstant(s, "BLOCK_M") * 10000 + harness::launchConstant(s, "BLOCK_N") * 100 +
                harness::launchConstant(s, "BLOCK_K"),
            1024 * 10000 + 128 * 100 + 128);
}

TEST(LibraryMappingStrategies, ExternalTilesComeFirstAndUnknownNamesAreErrors) {
  const KernelLaunch l =
      planMm("first_fit", {{"4096_4096_512", GemmTiles{256, 128, 64, "m.json: \"4096_4096_512\""}}});
  EXPECT_EQ(harness::launchConstant(l, "BLOCK_M"), 256);
  EXPECT_EQ(harness::launchConstant(l, "BLOCK_K"), 64);
  try {
    planMm("no_such_strategy");
    FAIL() << "expected an error";
  } catch (const core::InputError &e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("'no_such_strategy' is not registered"), std::string::npos) << message;
    EXPECT_NE(message.find("first_fit, search"), std::string::npos) << message;
  }
}

} // namespace
} // namespace npusim::library
