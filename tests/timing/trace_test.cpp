// The Chrome / Perfetto trace: valid JSON, one event per executed instruction,
// launches laid end to end, a DRAM bandwidth track, and the event cap.
#include "timing/timing_support.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

namespace npusim::timing {
namespace {

using namespace testing;
using core::DType;

constexpr TimePs kTraceLatencyPs = 100'000;

/// Load 4 KiB, exp, store 4 KiB (728 ns on the round machine, simulator_test).
struct SmallKernel {
  ProgramBuilder builder{128, "small"};
  SmallKernel() {
    const int x = builder.tile("x", {128, 8}, DType::Float32, 0);
    const int y = builder.tile("y", {128, 8}, DType::Float32, 64);
    builder.add(dmaLoad(x));
    builder.add(vector(npu::ElementOp::Math, y, {x}));
    builder.add(dmaStore(y));
  }
  std::vector<npu::InstanceTrace> traces() const {
    const auto &body = builder.program.body;
    std::vector<npu::InstanceTrace> result(1);
    result[0].instructions = {executedDma(body[0], 0, 4096, false), executed(body[1], 1024),
                              executedDma(body[2], 65536, 4096, true)};
    return result;
  }
};

nlohmann::json writeAndParse(const Simulator &simulator) {
  const auto path = std::filesystem::temp_directory_path() /
                    ("npusim_trace_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
                     ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".json");
  simulator.writeChromeTrace(path.string());
  std::ifstream in(path);
  nlohmann::json json = nlohmann::json::parse(in);
  std::filesystem::remove(path);
  return json;
}

TEST(TimingTrace, OneEventPerInstructionAndLaunchesEndToEnd) {
  const auto config = roundConfig();
  Simulator simulator(config, testMemoryFactory(config, kTraceLatencyPs));
  simulator.enableTrace(true);
  SmallKernel kernel;
  kernel.builder.program.kernelName = "first";
  simulator.timeLaunch(kernel.builder.program, kernel.traces());
  simulator.timeLaunch(kernel.builder.program, kernel.traces(), "second");
  const nlohmann::json trace = writeAndParse(simulator);

  std::vector<nlohmann::json> instructions, launches, counters;
  for (const auto &event : trace.at("traceEvents")) {
    if (event.at("ph") == "X" && event.at("pid") == 0)
      instructions.push_back(event);
    else if (event.at("ph") == "X")
      launches.push_back(event);
    else if (event.at("ph") == "C")
      counters.push_back(event);
  }
  // Three instructions per launch, two launches.
  ASSERT_EQ(instructions.size(), 6u);
  ASSERT_EQ(launches.size(), 2u);
  EXPECT_EQ(launches[0].at("name"), "first");
  EXPECT_EQ(launches[1].at("name"), "second");
  // Each launch takes 728 ns (simulator_test's LoadComputeStoreChain); the
  // second begins where the first ended. Trace times are microseconds.
  EXPECT_DOUBLE_EQ(launches[0].at("dur").get<double>(), 0.728);
  EXPECT_DOUBLE_EQ(launches[1].at("ts").get<double>(), 0.728);
  // The second launch's store: 372 ns into it, on the store queue (tid 2).
  const auto &store = instructions[5];
  EXPECT_EQ(store.at("tid"), 2);
  EXPECT_EQ(store.at("args").at("launch"), "second");
  EXPECT_DOUBLE_EQ(store.at("ts").get<double>(), 0.728 + 0.372);
  EXPECT_DOUBLE_EQ(store.at("dur").get<double>(), 0.356);
  // DRAM moved 4096 bytes each way per launch: the read samples of the first
  // launch (100 ns buckets, GB/s) add up to 4096 bytes / 100 ns = 40.96.
  double readSum = 0.0;
  for (const auto &counter : counters)
    if (counter.at("ts").get<double>() < 0.728)
      readSum += counter.at("args").at("read").get<double>();
  EXPECT_NEAR(readSum, 40.96, 1e-6);
  EXPECT_EQ(trace.at("otherData").at("droppedInstructionEvents"), 0);
}

TEST(TimingTrace, EventCapDropsAndCountsTheRest) {
  const auto config = roundConfig();
  Simulator simulator(config, testMemoryFactory(config, kTraceLatencyPs));
  simulator.enableTrace(true, 4);
  SmallKernel kernel;
  simulator.timeLaunch(kernel.builder.program, kernel.traces());
  simulator.timeLaunch(kernel.builder.program, kernel.traces());
  ASSERT_NE(simulator.trace(), nullptr);
  EXPECT_EQ(simulator.trace()->keptEvents(), 4u);
  EXPECT_EQ(simulator.trace()->droppedEvents(), 2u);
  const nlohmann::json trace = writeAndParse(simulator);
  EXPECT_EQ(trace.at("otherData").at("droppedInstructionEvents"), 2);
}

TEST(TimingTrace, TracingDoesNotChangeTiming) {
  const auto config = roundConfig();
  SmallKernel kernel;
  Simulator plain(config, testMemoryFactory(config, kTraceLatencyPs));
  Simulator traced(config, testMemoryFactory(config, kTraceLatencyPs));
  traced.enableTrace(true);
  EXPECT_EQ(plain.timeLaunch(kernel.builder.program, kernel.traces()).timePs,
            traced.timeLaunch(kernel.builder.program, kernel.traces()).timePs);
}

TEST(TimingTrace, UnwritablePathIsAnInputError) {
  const auto config = roundConfig();
  Simulator simulator(config, testMemoryFactory(config, kTraceLatencyPs));
  EXPECT_THROW(simulator.writeChromeTrace("/nonexistent-directory/trace.json"), core::InputError);
}

} // namespace
} // namespace npusim::timing
