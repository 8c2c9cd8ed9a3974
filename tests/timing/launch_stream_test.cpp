// Launches timed as their instances arrive (timing::LaunchStream): the
// simulator holds the instances in flight and a few ahead, not the launch, and
// a long launch of identical instances settles into a steady state whose
// cycles grow linearly with the instances. Machine: timing_support.h's
// roundConfig (1 GHz, 128 lanes, one 16 bytes/ns channel behind a fixed
// 100 ns latency), with the number of cores each test names.
#include "timing/timing_support.h"

#include "core/error.h"

#include <gtest/gtest.h>

namespace npusim::timing {
namespace {

using namespace testing;
using core::DType;
using npu::ElementOp;

constexpr TimePs kLatencyPs = 100'000; // 100 ns

/// Load 4 KiB, exp, store 4 KiB: every instance alike, double buffered.
struct Pointwise {
  ProgramBuilder builder{128};
  Pointwise() {
    const int x = builder.tile("x", {128, 8}, DType::Float32, 0);
    const int y = builder.tile("y", {128, 8}, DType::Float32, 64);
    builder.add(dmaLoad(x));
    builder.add(vector(ElementOp::Math, y, {x}, core::MathFn::Exp));
    builder.add(dmaStore(y));
    builder.program.instanceBankStride = 512;
  }
  npu::InstanceTrace instance(int64_t i) const {
    const auto &body = builder.program.body;
    const auto offset = static_cast<uint64_t>(i) * 4096;
    npu::InstanceTrace trace;
    trace.instance = i;
    trace.instructions = {executedDma(body[0], offset, 4096, false), executed(body[1], 1024),
                          executedDma(body[2], (uint64_t{1} << 32) + offset, 4096, true)};
    return trace;
  }
};

config::HardwareConfig withCores(int cores) {
  config::HardwareConfig config = roundConfig();
  config.numCores = cores;
  return config;
}

struct Streamed {
  LaunchTiming timing;
  int64_t peakHeld = 0;
};

Streamed stream(const config::HardwareConfig &config, const Pointwise &kernel, int64_t instances) {
  Simulator simulator(config, testMemoryFactory(config, kLatencyPs));
  const std::unique_ptr<LaunchStream> launch = simulator.beginLaunch(kernel.builder.program);
  for (int64_t i = 0; i < instances; ++i)
    launch->add(kernel.instance(i));
  Streamed result;
  result.timing = launch->finish();
  result.peakHeld = launch->peakHeldInstances();
  return result;
}

TEST(LaunchStream, HoldsBoundedInstancesWhateverTheGrid) {
  // One core (with several, a core that lags keeps the instances it has not
  // reached, up to its cap: ALaggingCoreHoldsAtMostItsCap).
  const Pointwise kernel;
  const auto config = withCores(1);
  for (int64_t instances : {200, 2000}) {
    const Streamed s = stream(config, kernel, instances);
    EXPECT_EQ(s.timing.instances, instances);
    EXPECT_EQ(s.timing.instructions, 3 * instances);
    EXPECT_EQ(s.timing.dramBytesRead, 4096 * instances);
    EXPECT_EQ(s.timing.lateInstructions, 0);
    // The lookahead past the latest instance started, that one, and the
    // earlier ones still in flight (the previous instance's store overlaps
    // the next load: double buffering). Holding the launch whole would hold
    // all of them.
    EXPECT_LE(s.peakHeld, LaunchStream::kLookaheadInstances + 3) << s.peakHeld;
  }
}

/// Even instances load 16 KiB (four 4 KiB loads), odd ones only read their
/// program id: on two cores, core 0 does all the memory work and core 1
/// runs ahead of it, asking for instances that core 0 is far from reaching.
struct Skewed {
  ProgramBuilder builder{128};
  Skewed() {
    const int x = builder.tile("x", {128, 8}, DType::Float32, 0);
    builder.add(dmaLoad(x));
    builder.add(scalar(npu::Opcode::SProgramId, 0));
    builder.program.instanceBankStride = 512;
  }
  npu::InstanceTrace instance(int64_t i) const {
    const auto &body = builder.program.body;
    npu::InstanceTrace trace;
    trace.instance = i;
    if (i % 2 == 0)
      for (uint64_t k = 0; k < 4; ++k)
        trace.instructions.push_back(executedDma(body[0], (static_cast<uint64_t>(i) * 4 + k) * 4096, 4096, false));
    else
      trace.instructions.push_back(executed(body[1]));
    return trace;
  }
};

TEST(LaunchStream, ALaggingCoreHoldsAtMostItsCap) {
  // Core 0 needs 16 KiB / 16 bytes/ns = 1024 ns per instance; core 1 about
  // a cycle. Appended whole, core 0 would hold every instance it has not
  // reached, about half of those given (some 2000 at N = 4000, far
  // past the cap); the stream holds at most the cap on core 0 and what the
  // lookahead and the window leave on core 1 (4 + 8 + 1), whatever N.
  const Skewed kernel;
  const auto config = withCores(2);
  for (int64_t instances : {4000}) {
    Simulator simulator(config, testMemoryFactory(config, kLatencyPs));
    const std::unique_ptr<LaunchStream> launch = simulator.beginLaunch(kernel.builder.program);
    for (int64_t i = 0; i < instances; ++i)
      launch->add(kernel.instance(i));
    const LaunchTiming timing = launch->finish();
    EXPECT_LE(launch->peakHeldInstances(), LaunchStream::kMaxHeldPerCore + 1 + 13) << instances;
    EXPECT_GT(launch->peakHeldInstances(), LaunchStream::kMaxHeldPerCore) << instances;
    // Every instance counted: 4 loads per even instance, 1 scalar per odd.
    EXPECT_EQ(timing.instances, instances);
    EXPECT_EQ(timing.instructions, 4 * (instances / 2) + instances / 2);
    EXPECT_EQ(timing.dramBytesRead, 16384 * (instances / 2));
    // Core 1 ran dry while core 0 worked through its backlog: its program
    // ids were appended late, and the launch says so.
    EXPECT_GT(timing.lateInstructions, 0) << instances;
    // Core 0's memory time bounds the launch from below: N/2 x 1024 ns.
    EXPECT_GE(timing.timePs, instances / 2 * 1'024'000) << instances;
  }
}

TEST(LaunchStream, SteadyStateCyclesGrowLinearly) {
  // Identical instances on a memory-bound machine: after the first few, each
  // instance adds the same time, so equal steps of instances add equal cycles.
  const Pointwise kernel;
  for (int cores : {1, 2}) {
    const auto config = withCores(cores);
    const int64_t n = 300;
    const int64_t c1 = stream(config, kernel, n).timing.cycles;
    const int64_t c2 = stream(config, kernel, 2 * n).timing.cycles;
    const int64_t c3 = stream(config, kernel, 3 * n).timing.cycles;
    EXPECT_EQ(c2 - c1, c3 - c2) << cores << " cores";
    // The channel moves 8 KiB per instance at 16 bytes/ns: 512 ns, the
    // memory bound, whatever the cores; the steady state runs at it.
    EXPECT_EQ(c2 - c1, 512 * n) << cores << " cores";
  }
}

TEST(LaunchStream, StatisticsMatchTheLaunchTimedWhole) {
  // timeLaunch streams the sorted traces; given out of order, it times the
  // same launch as the stream given them in order.
  const Pointwise kernel;
  const auto config = withCores(2);
  std::vector<npu::InstanceTrace> traces;
  for (int64_t i = 99; i >= 0; --i)
    traces.push_back(kernel.instance(i));
  Simulator simulator(config, testMemoryFactory(config, kLatencyPs));
  const LaunchTiming whole = simulator.timeLaunch(kernel.builder.program, std::move(traces));
  const LaunchTiming streamed = stream(config, kernel, 100).timing;
  EXPECT_EQ(whole.cycles, streamed.cycles);
  EXPECT_EQ(whole.instructions, streamed.instructions);
  EXPECT_EQ(whole.vectorElementOps, streamed.vectorElementOps);
  EXPECT_DOUBLE_EQ(whole.busy(UnitKind::Dma), streamed.busy(UnitKind::Dma));
  EXPECT_DOUBLE_EQ(whole.busy(UnitKind::Vector), streamed.busy(UnitKind::Vector));
  // 100 exps of 16 cycles each (1 pass + 15, simulator_test.cpp) on 2 cores:
  // the vector units are busy 100 * 16 ns of 2 * the launch's time.
  EXPECT_NEAR(streamed.busy(UnitKind::Vector),
              100.0 * 100 * 16'000 / (2.0 * static_cast<double>(streamed.timePs)), 1e-9);
}

TEST(LaunchStream, InstancesOutOfOrderAreAnError) {
  const Pointwise kernel;
  const auto config = withCores(1);
  Simulator simulator(config, testMemoryFactory(config, kLatencyPs));
  const std::unique_ptr<LaunchStream> launch = simulator.beginLaunch(kernel.builder.program);
  launch->add(kernel.instance(5));
  EXPECT_THROW(launch->add(kernel.instance(3)), core::RuntimeError);
}

TEST(LaunchStream, UnitFirstUsedLateIsCounted) {
  // Instances 0-9 load only; instance 10 also runs a scalar instruction that
  // waits for nothing. Appended whole, it would have started at time 0; the
  // stream appends it after the scalar slot has sat empty since the start,
  // and says so.
  ProgramBuilder builder(128);
  const int x = builder.tile("x", {128, 8}, DType::Float32, 0);
  builder.add(dmaLoad(x));
  builder.add(scalar(npu::Opcode::SProgramId, 0));
  const auto &body = builder.program.body;
  const auto config = withCores(1);
  Simulator simulator(config, testMemoryFactory(config, kLatencyPs));
  const std::unique_ptr<LaunchStream> launch = simulator.beginLaunch(builder.program);
  for (int64_t i = 0; i <= 10; ++i) {
    npu::InstanceTrace trace;
    trace.instance = i;
    trace.instructions = {executedDma(body[0], static_cast<uint64_t>(i) * 4096, 4096, false)};
    if (i == 10)
      trace.instructions.push_back(executed(body[1]));
    launch->add(std::move(trace));
  }
  EXPECT_EQ(launch->finish().lateInstructions, 1);
}

} // namespace
} // namespace npusim::timing
