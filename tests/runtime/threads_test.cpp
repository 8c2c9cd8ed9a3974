// --threads: with two threads or more the timing modes time launches on
// threads of their own (each with its own simulator, in any order) while the
// next launch runs on the functional simulator. What a run computes must not
// depend on it: every step's timing (cycles, time, bytes, busy shares, row
// hits) and every output's bits are the same with 1, 2 and 3 threads, in full
// mode (0, 1 and 2 timing threads) and in timing mode (0, 2 and 3).
#include "runtime/bundle_storages.h"
#include "config/hardware.h"
#include "runtime/loader.h"
#include "runtime/runner.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <memory>

namespace npusim::runtime {
namespace {

namespace fs = std::filesystem;

const fs::path kTinyBundle = fs::path(NPUSIM_TEST_DATA) / "bundles" / "tiny";

RunReport runThreads(const Bundle &bundle, Mode mode, int threads) {
  RunOptions options;
  options.mode = mode;
  options.verify = mode != Mode::Timing;
  options.machine = config::loadConfig("tpuv3-like");
  options.threads = threads;
  return runBundle(bundle, options);
}

void expectSameRun(const RunReport &a, const RunReport &b, int threads) {
  ASSERT_EQ(a.failure, "");
  ASSERT_EQ(b.failure, "") << threads << " threads";
  EXPECT_EQ(a.totalCycles, b.totalCycles) << threads << " threads";
  EXPECT_EQ(a.totalTimeUs, b.totalTimeUs) << threads << " threads";
  ASSERT_EQ(a.steps.size(), b.steps.size());
  for (size_t i = 0; i < a.steps.size(); ++i) {
    const StepTiming &x = a.steps[i].timing, &y = b.steps[i].timing;
    EXPECT_TRUE(a.steps[i].timed);
    EXPECT_EQ(a.steps[i].timed, b.steps[i].timed);
    EXPECT_EQ(x.cycles, y.cycles) << "step " << i << ", " << threads << " threads";
    EXPECT_EQ(x.timeUs, y.timeUs) << "step " << i;
    EXPECT_EQ(x.dramBytesRead, y.dramBytesRead) << "step " << i;
    EXPECT_EQ(x.dramBytesWritten, y.dramBytesWritten) << "step " << i;
    EXPECT_EQ(x.rowHitRate, y.rowHitRate) << "step " << i;
    EXPECT_EQ(x.macs, y.macs) << "step " << i;
    EXPECT_EQ(x.rooflineUs, y.rooflineUs) << "step " << i;
    EXPECT_EQ(x.unitBusyPercent, y.unitBusyPercent) << "step " << i;
  }
  ASSERT_EQ(a.outputs.size(), b.outputs.size());
  for (size_t i = 0; i < a.outputs.size(); ++i) {
    EXPECT_EQ(a.outputs[i].result, Outcome::Verified) << a.outputs[i].message;
    EXPECT_EQ(a.outputs[i].valuesHash, b.outputs[i].valuesHash)
        << a.outputs[i].name << ", " << threads << " threads";
  }
}

TEST(Threads, FullModeGivesTheSameCyclesAndValuesWithOneTwoAndThreeThreads) {
  const Bundle bundle = loadBundle(kTinyBundle);
  const RunReport one = runThreads(bundle, Mode::Full, 1);
  EXPECT_GT(one.totalCycles, 0);
  ASSERT_EQ(one.outputs.size(), 2u);
  EXPECT_NE(one.outputs[0].valuesHash, one.outputs[1].valuesHash); // the hash sees the values
  for (int threads : {2, 3})
    expectSameRun(one, runThreads(bundle, Mode::Full, threads), threads);
}

TEST(Threads, TimingModeGivesTheSameCyclesWithOneTwoAndThreeThreads) {
  const Bundle bundle = loadBundle(kTinyBundle);
  const RunReport one = runThreads(bundle, Mode::Timing, 1);
  for (int threads : {2, 3})
    expectSameRun(one, runThreads(bundle, Mode::Timing, threads), threads);
}

// Two NCHW convolutions, the second reading the first's output: a plan may
// copy operands into scratch buffers (the relayout), which live only during
// their step; what the later steps and their rooflines see must not depend on
// the threads either.
TEST(Threads, CallsWithScratchBuffersGiveTheSameRunWithOneAndTwoThreads) {
  const std::string conv = R"({"kind": "call", "op": "aten.convolution",
      "args": [{"tensor": {"storage": IN, "offset": 0, "shape": [4, 64, 14, 14], "stride": [12544, 196, 14, 1]}},
               {"tensor": {"storage": 1, "offset": 0, "shape": [64, 64, 3, 3], "stride": [576, 9, 3, 1]}},
               null, [1, 1], [1, 1], [1, 1], false, [0, 0], 1],
      "out": [{"tensor": {"storage": OUT, "offset": 0, "shape": [4, 64, 14, 14], "stride": [12544, 196, 14, 1]}}]})";
  auto step = [&](int in, int out) {
    std::string s = conv;
    s.replace(s.find("IN"), 2, std::to_string(in));
    s.replace(s.find("OUT"), 3, std::to_string(out));
    return s;
  };
  const std::string graph = R"({"format": "npusim-bundle", "version": 1, "model": {"op": "convs"}, "seed": 0,
      "inputs": [], "outputs": [],
      "storages": [{"id": 0, "dtype": "fp32", "elements": 50176}, {"id": 1, "dtype": "fp32", "elements": 36864},
                   {"id": 2, "dtype": "fp32", "elements": 50176}, {"id": 3, "dtype": "fp32", "elements": 50176}],
      "steps": [)" + step(0, 2) + ", " + step(2, 3) + "]}";
  const Bundle bundle = parseBundle(graph, NPUSIM_TEST_DATA, "convs.json");
  auto run = [&](int threads) {
    std::vector<std::unique_ptr<reference::Buffer>> storages = test::zeroStorages(bundle);
    RunOptions options;
    options.mode = Mode::Timing;
    options.machine = config::loadConfig("tpuv3-like");
    options.threads = threads;
    return runBundle(bundle, options, storages);
  };
  const RunReport one = run(1);
  ASSERT_EQ(one.failure, "");
  ASSERT_EQ(one.steps.size(), 2u);
  EXPECT_GT(one.steps[0].npuLaunches, 1) << "the plan copies no operand: " << one.steps[0].blockSizes;
  const RunReport two = run(2);
  ASSERT_EQ(two.failure, "");
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(one.steps[i].timing.cycles, two.steps[i].timing.cycles) << "step " << i;
    EXPECT_EQ(one.steps[i].timing.compulsoryBytes, two.steps[i].timing.compulsoryBytes) << "step " << i;
    // Input, weights and output once each, whatever the scratch copies moved.
    EXPECT_EQ(one.steps[i].timing.compulsoryBytes, (2 * 50176 + 36864) * 4) << "step " << i;
  }
}

TEST(Threads, ZeroMeansTheMachinesCores) {
  RunOptions options;
  EXPECT_GE(effectiveThreads(options), 1);
  options.threads = 3;
  EXPECT_EQ(effectiveThreads(options), 3);
}

} // namespace
} // namespace npusim::runtime
