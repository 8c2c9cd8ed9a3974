#include "timing/timing_support.h"

#include <algorithm>
#include <cmath>

namespace npusim::timing::testing {

config::HardwareConfig roundConfig(int lanes, int channels) {
  config::HardwareConfig config;
  config.name = "round";
  config.numCores = 1;
  config.coreFreqMhz = 1000.0;
  config.lanes = lanes;
  config.vlenBits = 256;
  config.systolicArraysPerCore = 2;
  config.dmaOutstandingRequests = 64;
  config.dmaRequestBytes = 64;
  config.dram.channels = channels;
  config.dram.freqMhz = 1000.0;
  config.dram.timing.prefetch = 4;
  config.dram.timing.busWidthBits = 64;
  config.dram.timing.burstCycles = 2;
  return config;
}

TestMemory::TestMemory(EventQueue &queue, int channels, double bytesPerNsPerChannel, TimePs latencyPs,
                       int queueDepth, uint32_t granule)
    : queue_(queue), channels_(channels), bytesPerNs_(bytesPerNsPerChannel), latencyPs_(latencyPs),
      queueDepth_(queueDepth), granule_(granule), channelFree_(static_cast<size_t>(channels), 0),
      pending_(static_cast<size_t>(channels), 0) {}

int TestMemory::channelOf(uint64_t address) const {
  return static_cast<int>(address / granule_ % static_cast<uint64_t>(channels_));
}

TimePs TestMemory::transferPs(uint32_t bytes) const {
  // Rounded up, so the model never beats its bandwidth; the tolerance absorbs
  // the rounding of the bandwidth itself (16 bytes/ns may arrive as 16.000...04).
  return static_cast<TimePs>(std::ceil(bytes / bytesPerNs_ * 1000.0 - 1e-6));
}

bool TestMemory::canAccept(const MemoryRequest &request) const {
  return pending_[static_cast<size_t>(channelOf(request.address))] < queueDepth_;
}

void TestMemory::accept(const MemoryRequest &request) {
  const auto channel = static_cast<size_t>(channelOf(request.address));
  ++pending_[channel];
  const TimePs begin = std::max(queue_.now(), channelFree_[channel]);
  channelFree_[channel] = begin + transferPs(request.bytes);
  const TimePs done = channelFree_[channel] + latencyPs_;
  if (request.write) {
    ++stats_.writes;
    stats_.bytesWritten += request.bytes;
  } else {
    ++stats_.reads;
    stats_.bytesRead += request.bytes;
  }
  stats_.busyUntil = std::max(stats_.busyUntil, done);
  queue_.schedule(done, [this, request, channel] {
    --pending_[channel];
    completion_(request, queue_.now());
    if (retry_)
      retry_();
  });
}

MemoryFactory testMemoryFactory(const config::HardwareConfig &config, TimePs latencyPs, int queueDepth) {
  const double bytesPerNs = config.dram.peakBytesPerSecond() / config.dram.channels / 1.0e9;
  const int channels = config.dram.channels;
  return [=](EventQueue &queue) -> std::unique_ptr<MemoryPort> {
    return std::make_unique<TestMemory>(queue, channels, bytesPerNs, latencyPs, queueDepth);
  };
}

ProgramBuilder::ProgramBuilder(int lanes, std::string name) {
  program.kernelName = std::move(name);
  program.lanes = lanes;
  program.spadBytesPerLane = 128 * 1024;
  program.arguments.push_back(npu::Argument{"in_ptr0", true, core::DType::Float32});
  program.arguments.push_back(npu::Argument{"out_ptr0", true, core::DType::Float32});
  for (int reg = 0; reg < 4; ++reg)
    program.scalarRegs.push_back(npu::ScalarRegister{"r" + std::to_string(reg), core::DType::Int32});
}

int ProgramBuilder::tile(const std::string &name, std::vector<int64_t> shape, core::DType dtype,
                         int64_t bankOffset, int laneAxis) {
  npu::Tile tile;
  tile.name = name;
  tile.layout.dtype = dtype;
  tile.layout.shape = std::move(shape);
  tile.layout.laneAxis = laneAxis;
  tile.bankOffset = bankOffset;
  program.tiles.push_back(std::move(tile));
  return static_cast<int>(program.tiles.size()) - 1;
}

size_t ProgramBuilder::add(npu::Instruction instruction) {
  program.body.push_back(std::move(instruction));
  return program.body.size() - 1;
}

npu::Instruction dmaLoad(int dst) {
  npu::Instruction instruction;
  instruction.opcode = npu::Opcode::DmaLoad;
  instruction.dsts = {dst};
  instruction.dma.argument = 0;
  return instruction;
}

npu::Instruction dmaStore(int src) {
  npu::Instruction instruction;
  instruction.opcode = npu::Opcode::DmaStore;
  instruction.srcs = {src};
  instruction.dma.argument = 1;
  return instruction;
}

npu::Instruction vector(npu::ElementOp op, int dst, std::vector<int> srcs, core::MathFn fn) {
  npu::Instruction instruction;
  instruction.opcode = npu::Opcode::VElementwise;
  instruction.dsts = {dst};
  instruction.srcs = std::move(srcs);
  instruction.function.op = op;
  instruction.function.mathFn = fn;
  return instruction;
}

npu::Instruction loadWeights(int array, int weights, int64_t kBlock, int64_t nBlock) {
  npu::Instruction instruction;
  instruction.opcode = npu::Opcode::MLoadWeights;
  instruction.array = array;
  instruction.srcs = {weights};
  instruction.kBlock = kBlock;
  instruction.nBlock = nBlock;
  return instruction;
}

npu::Instruction matmul(int array, int dst, int a, int64_t kBlock, int64_t nBlock, bool accumulate) {
  npu::Instruction instruction;
  instruction.opcode = npu::Opcode::MMatmul;
  instruction.array = array;
  instruction.dsts = {dst};
  instruction.srcs = {a};
  instruction.kBlock = kBlock;
  instruction.nBlock = nBlock;
  instruction.accumulate = accumulate;
  return instruction;
}

npu::Instruction scalar(npu::Opcode opcode, int dstReg, std::vector<int> readRegs) {
  npu::Instruction instruction;
  instruction.opcode = opcode;
  instruction.dstReg = dstReg;
  for (int reg : readRegs)
    instruction.scalars.push_back(npu::ScalarOperand::ofRegister(reg));
  return instruction;
}

npu::ExecutedInstruction executed(const npu::Instruction &instruction, int64_t elements) {
  npu::ExecutedInstruction record;
  record.instruction = &instruction;
  record.elements = elements;
  return record;
}

npu::ExecutedInstruction executedDma(const npu::Instruction &instruction, uint64_t address, uint32_t bytes,
                                     bool write) {
  npu::ExecutedInstruction record;
  record.instruction = &instruction;
  record.dram.push_back(npu::DramRun{address, bytes, write});
  record.elements = bytes / 4;
  return record;
}

} // namespace npusim::timing::testing
