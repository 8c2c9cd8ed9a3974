// Whole-launch properties the timing model must have: streaming reaches the
// DRAM's bandwidth, a GEMM keeps the arrays busy, nothing beats its roofline,
// more bandwidth or more cores never hurt, and runs are reproducible.
// Machine: timing_support.h's roundConfig (1 GHz core, 128 lanes, channels of
// 16 bytes/ns) unless a test says otherwise.
#include "timing/timing_support.h"

#include <gtest/gtest.h>

#include <random>

namespace npusim::timing {
namespace {

using namespace testing;
using core::DType;
using npu::ElementOp;

constexpr TimePs kValidationLatencyPs = 100'000; // 100 ns

/// Instances of a streaming copy: each loads 64 KiB ([128, 128] fp32) and
/// stores it elsewhere; consecutive instances use two tile copies.
struct StreamingCopy {
  ProgramBuilder builder{128, "copy"};
  int instances;
  explicit StreamingCopy(int count) : instances(count) {
    const int tile = builder.tile("x", {128, 128}, DType::Float32, 0); // 512 bytes per lane
    builder.program.instanceBankStride = 512;
    builder.add(dmaLoad(tile));
    builder.add(dmaStore(tile));
  }
  std::vector<npu::InstanceTrace> traces() const {
    std::vector<npu::InstanceTrace> result;
    const auto &body = builder.program.body;
    for (int i = 0; i < instances; ++i) {
      npu::InstanceTrace trace;
      trace.instance = i;
      const uint64_t offset = uint64_t{65536} * static_cast<uint64_t>(i);
      trace.instructions.push_back(executedDma(body[0], offset, 65536, false));
      trace.instructions.push_back(executedDma(body[1], (uint64_t{64} << 20) + offset, 65536, true));
      result.push_back(std::move(trace));
    }
    return result;
  }
};

TEST(TimingValidation, StreamingCopyReachesNinetyPercentOfDramBandwidth) {
  auto config = roundConfig(128, 4); // 4 channels x 16 bytes/ns = 64 GB/s
  // Little's law: 64 bytes/ns x about 104 ns per request keeps ~6.7 KB, 104
  // requests of 64 bytes in flight; 512 leave room for the store stream.
  config.dmaOutstandingRequests = 512;
  StreamingCopy copy(32);
  Simulator simulator(config, testMemoryFactory(config, kValidationLatencyPs));
  const LaunchTiming timing = simulator.timeLaunch(copy.builder.program, copy.traces());
  // 32 x 128 KiB = 4 MiB moved.
  EXPECT_EQ(timing.dramBytesRead + timing.dramBytesWritten, 32 * 131072);
  EXPECT_GE(timing.achievedBandwidthGBs, 0.9 * 64.0);
  EXPECT_LE(timing.achievedBandwidthGBs, 64.0);
  EXPECT_GE(timing.boundRatio, 1.0);
}

TEST(TimingValidation, StreamingCopyOnConfiguredMemorySystem) {
  auto config = roundConfig(128, 4);
  config.dram.model = "fixed_latency";
  config.dmaOutstandingRequests = 512;
  StreamingCopy copy(16);
  Simulator simulator(config);
  const LaunchTiming timing = simulator.timeLaunch(copy.builder.program, copy.traces());
  const double peakGBs = config.dram.peakBytesPerSecond() / 1e9; // 4 x 32 bytes / 2 ns = 64
  EXPECT_EQ(timing.dramBytesRead + timing.dramBytesWritten, 16 * 131072);
  EXPECT_GE(timing.achievedBandwidthGBs, 0.9 * peakGBs);
  EXPECT_GE(timing.boundRatio, 1.0);
}

TEST(TimingValidation, LargeGemmKeepsArraysNinetyPercentBusy) {
  const auto config = roundConfig(); // 2 arrays of 128 x 128
  ProgramBuilder builder(128, "gemm");
  // C[1024, 256] = A[1024, 1024] @ B[1024, 256], operands resident.
  const int a = builder.tile("a", {1024, 1024}, DType::Float32, 0);       // 32 KiB per lane
  const int b = builder.tile("b", {1024, 256}, DType::Float32, 32768);    // 8 KiB
  const int c0 = builder.tile("c0", {1024, 128}, DType::Float32, 40960);  // 4 KiB
  const int c1 = builder.tile("c1", {1024, 128}, DType::Float32, 45056);  // 4 KiB
  for (int n = 0; n < 2; ++n)
    for (int k = 0; k < 8; ++k) {
      builder.add(loadWeights(n, b, k, n));
      builder.add(matmul(n, n == 0 ? c0 : c1, a, k, 0, k > 0));
    }
  std::vector<npu::InstanceTrace> traces(1);
  for (const auto &instruction : builder.program.body)
    traces[0].instructions.push_back(executed(instruction));
  Simulator simulator(config, testMemoryFactory(config, kValidationLatencyPs));
  const LaunchTiming timing = simulator.timeLaunch(builder.program, std::move(traces));
  // Each array: first weights 128 cycles, then 8 folds of 1024 rows back to
  // back (the next weights load while rows stream), then the last row's
  // 2 * 128 - 2 = 254 cycles: 128 + 8192 + 254 = 8574.
  EXPECT_EQ(timing.cycles, 8574);
  // 2 x 8 x 1024 x 128 x 128 MACs = 268435456 = 8192 cycles of 2 x 128^2:
  // 8192 / 8574 = 95.5 %.
  EXPECT_EQ(timing.macs, int64_t{268435456});
  EXPECT_GE(timing.systolicUtilisation, 0.9);
  EXPECT_NEAR(timing.systolicUtilisation, 8192.0 / 8574.0, 1e-9);
  EXPECT_EQ(timing.computeBoundPs, 8192 * 1000);
}

/// A random kernel: loads, stores, vector ops and matmul folds over a few
/// tiles that may share bytes, for `instances` program instances.
struct RandomKernel {
  ProgramBuilder builder{128, "random"};
  std::vector<npu::InstanceTrace> traces;

  explicit RandomKernel(uint32_t seed) {
    std::mt19937 random(seed);
    auto pick = [&random](int low, int high) { return std::uniform_int_distribution<int>(low, high)(random); };
    std::vector<int> tiles;
    for (int t = 0; t < 6; ++t) {
      const int64_t depth = int64_t{1} << pick(3, 7); // 8 .. 128 fp32 per lane, up to 64 KiB
      // Offsets on a 1 KiB grid so that some tiles overlap.
      tiles.push_back(builder.tile("t" + std::to_string(t), {128, depth}, DType::Float32, 1024 * pick(0, 12)));
    }
    const int matmulA = builder.tile("a", {256, 128}, DType::Float32, 65536);
    const int matmulB = builder.tile("b", {128, 128}, DType::Float32, 69632);
    const int matmulC = builder.tile("c", {256, 128}, DType::Float32, 73728);
    builder.program.instanceBankStride = pick(0, 1) == 0 ? 0 : 16384;
    const int length = pick(3, 12);
    std::vector<int> kinds;
    for (int i = 0; i < length; ++i) {
      const int kind = pick(0, 4);
      kinds.push_back(kind);
      const int dst = tiles[static_cast<size_t>(pick(0, 5))];
      const int src = tiles[static_cast<size_t>(pick(0, 5))];
      switch (kind) {
      case 0: builder.add(dmaLoad(dst)); break;
      case 1: builder.add(dmaStore(src)); break;
      case 2: builder.add(vector(pick(0, 1) ? ElementOp::Add : ElementOp::Math, dst, {src, src})); break;
      case 3: builder.add(loadWeights(pick(0, 1), matmulB, 0, 0)); break;
      default: builder.add(matmul(pick(0, 1), matmulC, matmulA, 0, 0, true)); break;
      }
    }
    const int instances = pick(1, 6);
    for (int i = 0; i < instances; ++i) {
      npu::InstanceTrace trace;
      trace.instance = i;
      for (size_t k = 0; k < builder.program.body.size(); ++k) {
        const npu::Instruction &instruction = builder.program.body[k];
        const auto &layout = builder.program.tiles[static_cast<size_t>(
            instruction.dsts.empty() ? instruction.srcs[0] : instruction.dsts[0])].layout;
        const auto bytes = static_cast<uint32_t>(layout.numElements() * 4);
        const uint64_t address = (uint64_t{1} << 24) * k + uint64_t{1} * pick(0, 1 << 20) * 64;
        if (kinds[k] <= 1) {
          trace.instructions.push_back(executedDma(instruction, address, bytes, kinds[k] == 1));
        } else {
          trace.instructions.push_back(executed(instruction, layout.numElements()));
        }
      }
      traces.push_back(std::move(trace));
    }
  }
};

TEST(TimingValidation, NoLaunchIsFasterThanItsRoofline) {
  for (uint32_t seed = 1; seed <= 40; ++seed) {
    auto config = roundConfig(128, 1 + static_cast<int>(seed % 4));
    config.numCores = 1 + static_cast<int>(seed % 3);
    RandomKernel kernel(seed);
    Simulator simulator(config, testMemoryFactory(config, kValidationLatencyPs));
    const LaunchTiming timing = simulator.timeLaunch(kernel.builder.program, std::move(kernel.traces));
    EXPECT_GE(timing.timePs, timing.rooflineBoundPs) << "seed " << seed;
    EXPECT_GE(timing.boundRatio, 1.0) << "seed " << seed;
  }
}

TEST(TimingValidation, NoLaunchIsFasterThanItsRooflineOnConfiguredMemory) {
  for (uint32_t seed = 1; seed <= 12; ++seed) {
    auto config = roundConfig(128, 1 + static_cast<int>(seed % 4));
    config.numCores = 1 + static_cast<int>(seed % 3);
    config.dram.model = seed % 2 == 0 ? "fixed_latency" : "detailed";
    RandomKernel kernel(seed);
    Simulator simulator(config);
    const LaunchTiming timing = simulator.timeLaunch(kernel.builder.program, std::move(kernel.traces));
    EXPECT_GE(timing.timePs, timing.rooflineBoundPs) << "seed " << seed;
  }
}

TEST(TimingValidation, PerBankFrFcfsGivesTheCyclesOfThePerRequestStatementOnRandomPrograms) {
  // "frfcfs_reference" is dram_scheduler_reference_support.cpp.
  int64_t requests = 0;
  for (uint32_t seed = 1; seed <= 24; ++seed) {
    auto config = roundConfig(128, 1 + static_cast<int>(seed % 4));
    config.numCores = 1 + static_cast<int>(seed % 3);
    config.dram.queueEntries = seed % 2 == 0 ? 64 : 6;
    config.dram.timing.nREFI = seed % 3 == 0 ? 500 : 3900;
    TimePs times[2] = {0, 0};
    for (int which = 0; which < 2; ++which) {
      config.dram.scheduler = which == 0 ? "frfcfs" : "frfcfs_reference";
      RandomKernel kernel(seed);
      const LaunchTiming timing =
          Simulator(config).timeLaunch(kernel.builder.program, std::move(kernel.traces));
      times[which] = timing.timePs;
      requests += timing.memory.reads + timing.memory.writes;
    }
    EXPECT_EQ(times[0], times[1]) << "seed " << seed;
  }
  EXPECT_GT(requests, 10000); // the kernels do go to DRAM
}

TEST(TimingValidation, DoublingDramChannelsNeverSlowsAKernel) {
  for (uint32_t seed = 1; seed <= 30; ++seed) {
    TimePs previous = 0;
    for (int channels : {1, 2, 4, 8}) {
      const auto config = roundConfig(128, channels);
      RandomKernel kernel(seed);
      Simulator simulator(config, testMemoryFactory(config, kValidationLatencyPs));
      const TimePs time = simulator.timeLaunch(kernel.builder.program, std::move(kernel.traces)).timePs;
      if (previous > 0) {
        EXPECT_LE(time, previous) << "seed " << seed << ", " << channels << " channels";
      }
      previous = time;
    }
  }
  // The streaming copy is bandwidth bound: twice the channels, nearly half the time.
  auto config = roundConfig(128, 2);
  config.dmaOutstandingRequests = 512;
  StreamingCopy copy(16);
  const TimePs two = Simulator(config, testMemoryFactory(config, kValidationLatencyPs))
                         .timeLaunch(copy.builder.program, copy.traces())
                         .timePs;
  config.dram.channels = 4;
  const TimePs four = Simulator(config, testMemoryFactory(config, kValidationLatencyPs))
                          .timeLaunch(copy.builder.program, copy.traces())
                          .timePs;
  EXPECT_LT(static_cast<double>(four), 0.6 * static_cast<double>(two));
}

TEST(TimingValidation, DoublingChannelsNeverSlowsAKernelOnConfiguredMemory) {
  for (const char *model : {"fixed_latency", "detailed"})
    for (uint32_t seed = 1; seed <= 6; ++seed) {
      TimePs previous = 0;
      for (int channels : {1, 2, 4, 8}) {
        auto config = roundConfig(128, channels);
        config.dram.model = model;
        RandomKernel kernel(seed);
        Simulator simulator(config);
        const TimePs time = simulator.timeLaunch(kernel.builder.program, std::move(kernel.traces)).timePs;
        if (previous > 0) {
          EXPECT_LE(time, previous) << "seed " << seed << ", " << channels << " channels, model " << model;
        }
        previous = time;
      }
    }
}

/// 16 independent instances that are vector bound: load 4 KiB into x, then
/// y = x + x, 8 dependent exp passes over [128, 1024] fp32 (y -> z -> y ...),
/// x = x + x after them (the vector unit is in order), store x. Double
/// buffered unless a test clears instanceBankStride.
struct ParallelKernel {
  ProgramBuilder builder{128, "parallel"};
  std::vector<npu::InstanceTrace> traces() const {
    std::vector<npu::InstanceTrace> result;
    const auto &body = builder.program.body;
    for (int i = 0; i < 16; ++i) {
      npu::InstanceTrace trace;
      trace.instance = i;
      trace.instructions.push_back(executedDma(body[0], uint64_t{4096} * i, 4096, false));
      for (size_t k = 1; k + 1 < body.size(); ++k)
        trace.instructions.push_back(executed(body[k]));
      trace.instructions.push_back(executedDma(body.back(), (uint64_t{1} << 24) + uint64_t{4096} * i, 4096, true));
      result.push_back(std::move(trace));
    }
    return result;
  }
  ParallelKernel() {
    const int x = builder.tile("x", {128, 8}, DType::Float32, 0);
    const int y = builder.tile("y", {128, 1024}, DType::Float32, 1024);
    const int z = builder.tile("z", {128, 1024}, DType::Float32, 8192);
    builder.program.instanceBankStride = 16384;
    builder.add(dmaLoad(x));
    builder.add(vector(ElementOp::Add, y, {x, x}));
    for (int k = 0; k < 4; ++k) {
      builder.add(vector(ElementOp::Math, z, {y}, core::MathFn::Exp));
      builder.add(vector(ElementOp::Math, y, {z}, core::MathFn::Exp));
    }
    builder.add(vector(ElementOp::Add, x, {x, x}));
    builder.add(dmaStore(x));
  }
};

TEST(TimingValidation, TwoCoresRunAnEmbarrassinglyParallelKernelNearlyTwiceAsFast) {
  auto config = roundConfig(128, 4);
  ParallelKernel kernel;
  config.numCores = 1;
  const LaunchTiming one =
      Simulator(config, testMemoryFactory(config, kValidationLatencyPs)).timeLaunch(kernel.builder.program, kernel.traces());
  config.numCores = 2;
  const LaunchTiming two =
      Simulator(config, testMemoryFactory(config, kValidationLatencyPs)).timeLaunch(kernel.builder.program, kernel.traces());
  EXPECT_GE(static_cast<double>(one.timePs) / static_cast<double>(two.timePs), 1.8);
  // The vector unit is the bottleneck on both machines.
  EXPECT_GT(one.busy(UnitKind::Vector), 90.0);
  EXPECT_GT(two.busy(UnitKind::Vector), 90.0);
}

TEST(TimingValidation, TwoRunsGiveIdenticalResults) {
  for (uint32_t seed = 1; seed <= 10; ++seed) {
    auto config = roundConfig(128, 2);
    config.numCores = 2;
    RandomKernel first(seed), second(seed);
    Simulator simulator(config, testMemoryFactory(config, kValidationLatencyPs));
    const LaunchTiming a = simulator.timeLaunch(first.builder.program, std::move(first.traces));
    const LaunchTiming b = simulator.timeLaunch(second.builder.program, std::move(second.traces));
    EXPECT_EQ(a.cycles, b.cycles) << "seed " << seed;
    EXPECT_EQ(a.timePs, b.timePs) << "seed " << seed;
    EXPECT_EQ(a.busyPercent, b.busyPercent) << "seed " << seed;
    EXPECT_EQ(a.memory.bytesRead, b.memory.bytesRead) << "seed " << seed;
  }
}

TEST(TimingValidation, DoubleBufferingOverlapsLoadsWithCompute) {
  auto config = roundConfig(128, 4);
  auto run = [&config](int64_t stride) {
    ParallelKernel kernel;
    kernel.builder.program.instanceBankStride = stride;
    return Simulator(config, testMemoryFactory(config, kValidationLatencyPs))
        .timeLaunch(kernel.builder.program, kernel.traces())
        .timePs;
  };
  const TimePs single = run(0);
  const TimePs doubled = run(16384);
  // Without a second copy, instance i + 1's load overwrites x, so it waits for
  // instance i's store of x to complete, and each later instance pays at
  // least the 100 ns memory latency of that load on top of its compute.
  EXPECT_LT(doubled, single);
  EXPECT_GE(single - doubled, 15 * 100'000);
}

} // namespace
} // namespace npusim::timing
