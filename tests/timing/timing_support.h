#pragma once
// Hand-built programs, traces and a small memory model for the timing tests.
#include "config/hardware.h"
#include "npu/execution.h"
#include "npu/program.h"
#include "timing/memory_port.h"
#include "timing/simulator.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace npusim::timing::testing {

/// A machine with round numbers: 1 GHz core (1000 ps per cycle), DRAM at
/// 1 GHz with 32-byte accesses every 2 cycles (16 bytes per ns per channel).
config::HardwareConfig roundConfig(int lanes = 128, int channels = 1);

/// Memory for the tests: `channels` channels interleaved every `granule`
/// bytes; each serves one request at a time for bytes / bytesPerNs, then the
/// data takes latencyPs more. At most queueDepth requests wait per channel.
class TestMemory : public MemoryPort {
public:
  TestMemory(EventQueue &queue, int channels, double bytesPerNsPerChannel, TimePs latencyPs, int queueDepth,
             uint32_t granule = 64);

  bool canAccept(const MemoryRequest &request) const override;
  void accept(const MemoryRequest &request) override;
  void setRetryCallback(std::function<void()> callback) override { retry_ = std::move(callback); }
  void setCompletionCallback(Completion callback) override { completion_ = std::move(callback); }
  MemoryStats stats() const override { return stats_; }

  /// Transfer time of `bytes` on one channel.
  TimePs transferPs(uint32_t bytes) const;

private:
  int channelOf(uint64_t address) const;
  EventQueue &queue_;
  int channels_;
  double bytesPerNs_;
  TimePs latencyPs_;
  int queueDepth_;
  uint32_t granule_;
  std::vector<TimePs> channelFree_;
  std::vector<int> pending_;
  std::function<void()> retry_;
  Completion completion_;
  MemoryStats stats_;
};

/// A factory for TestMemory matching the configuration's channels and peak
/// bandwidth (so the roofline's memory bound is the model's real limit).
MemoryFactory testMemoryFactory(const config::HardwareConfig &config, TimePs latencyPs, int queueDepth = 64);

/// Builds programs tile by tile and instruction by instruction.
struct ProgramBuilder {
  npu::Program program;

  explicit ProgramBuilder(int lanes, std::string name = "kernel");
  /// A tile at `bankOffset`; laneAxis 0.
  int tile(const std::string &name, std::vector<int64_t> shape, core::DType dtype, int64_t bankOffset,
           int laneAxis = 0);
  /// Appends an instruction and returns its index in the body.
  size_t add(npu::Instruction instruction);
};

npu::Instruction dmaLoad(int dst);
npu::Instruction dmaStore(int src);
npu::Instruction vector(npu::ElementOp op, int dst, std::vector<int> srcs, core::MathFn fn = core::MathFn::Exp);
npu::Instruction loadWeights(int array, int weights, int64_t kBlock, int64_t nBlock);
npu::Instruction matmul(int array, int dst, int a, int64_t kBlock, int64_t nBlock, bool accumulate);
npu::Instruction scalar(npu::Opcode opcode, int dstReg, std::vector<int> readRegs = {});

/// One executed instruction; runs of `bytes` from `address` in one piece.
npu::ExecutedInstruction executed(const npu::Instruction &instruction, int64_t elements = 0);
npu::ExecutedInstruction executedDma(const npu::Instruction &instruction, uint64_t address, uint32_t bytes,
                                     bool write);

} // namespace npusim::timing::testing
