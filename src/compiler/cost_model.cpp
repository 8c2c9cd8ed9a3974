// The static cost model of a compiled program (docs/compiler.md "Cost model").
//
// It charges every instruction what the timing simulator's unit model charges
// (docs/timing.md "Unit costs"), from the same configuration, without running
// anything: loops multiply their bodies by trip counts the scalar unit can
// fold (immediates and scalar arguments), DMA runs follow from the strides of
// strided descriptors. What it cannot know statically (a gather's indices, a
// mask's extent) it estimates as docs/compiler.md "Cost model" says.
#include "compiler/tiling.h"
#include "machine/dram_address.h"
#include "machine/latencies.h"
#include "machine/unit_costs.h"

#include <algorithm>
#include <cmath>
#include <optional>

namespace npusim::compiler {

std::string_view name(CostBound bound) {
  switch (bound) {
  case CostBound::DramBandwidth: return "DRAM bandwidth";
  case CostBound::DmaIssue: return "DMA issue/latency";
  case CostBound::Systolic: return "systolic fill/drain";
  case CostBound::Vector: return "vector";
  case CostBound::CrossLane: return "cross-lane";
  case CostBound::Scalar: return "scalar";
  }
  return "scalar";
}

namespace {

using npu::Instruction;
using npu::Opcode;

// Runs enumerated per DMA instruction to find its busiest channel; the rest are
// assumed to repeat the pattern.
constexpr int64_t kRunsSampled = 4096;
// DRAM time of loads and stores in flight together over the same bytes' time
// in separate phases (see estimateCost).
constexpr double kMixedTrafficFactor = 1.5;

class Estimator {
public:
  Estimator(const npu::Program &program, const config::HardwareConfig &machine,
            const std::map<std::string, int64_t> &scalarArguments)
      : program_(program), machine_(machine), scalarArguments_(scalarArguments),
        known_(program.scalarRegs.size()), first_(program.scalarRegs.size()), channels_(machine.dram) {}

  void walk(const std::vector<Instruction> &body, double times) {
    for (const Instruction &instruction : body)
      charge(instruction, times);
  }

  ProgramCost cost;

private:
  const npu::Program &program_;
  const config::HardwareConfig &machine_;
  const std::map<std::string, int64_t> &scalarArguments_;
  std::vector<std::optional<int64_t>> known_; // registers the scalar unit folds
  // Registers folded with every program id 0: the first instance stands for
  // the others where only a mask's extent depends on them.
  std::vector<std::optional<int64_t>> first_;
  // Tiles whose elements are known: a VIota (base and strides per axis) or a
  // VSplat (every stride 0); and masks known to be true exactly on the box of
  // indices below `active` (per axis).
  struct Affine {
    int64_t base = 0;
    std::vector<int64_t> strides;
  };
  std::map<int, Affine> affine_;
  std::map<int, std::vector<int64_t>> activeBox_;
  machine::DramAddressMapper channels_;

  std::optional<int64_t> value(const npu::ScalarOperand &operand) const {
    if (!operand.isRegister())
      return operand.intValue;
    return operand.reg < static_cast<int>(known_.size()) ? known_[operand.reg] : std::nullopt;
  }

  const npu::TileLayout &layout(int tile) const { return program_.tiles.at(tile).layout; }

  std::optional<int64_t> firstValue(const npu::ScalarOperand &operand) const {
    if (!operand.isRegister())
      return operand.intValue;
    return operand.reg < static_cast<int>(first_.size()) ? first_[operand.reg] : std::nullopt;
  }

  /// The register's value in the first instance: program ids 0, the rest as
  /// `fold` does.
  void foldFirst(const Instruction &instruction) {
    std::optional<int64_t> result;
    if (instruction.opcode == Opcode::SProgramId) {
      result = 0;
    } else if (instruction.opcode == Opcode::SMove && !instruction.scalars.empty()) {
      result = firstValue(instruction.scalars[0]);
    } else if (instruction.opcode == Opcode::SElementwise && instruction.scalars.size() == 1 &&
               instruction.function.op == npu::ElementOp::Cast &&
               core::isInteger(instruction.function.resultType)) {
      result = firstValue(instruction.scalars[0]);
    } else if (instruction.opcode == Opcode::SElementwise && instruction.scalars.size() == 2 &&
               core::isInteger(instruction.function.resultType)) {
      const auto a = firstValue(instruction.scalars[0]), b = firstValue(instruction.scalars[1]);
      if (instruction.function.op == npu::ElementOp::Mul && ((a && *a == 0) || (b && *b == 0))) {
        result = 0; // program id 0 times a grid size
      } else if (a && b) {
        switch (instruction.function.op) {
        case npu::ElementOp::Add: result = *a + *b; break;
        case npu::ElementOp::Sub: result = *a - *b; break;
        case npu::ElementOp::Mul: result = *a * *b; break;
        case npu::ElementOp::Min: result = std::min(*a, *b); break;
        case npu::ElementOp::Max: result = std::max(*a, *b); break;
        default: break;
        }
      }
    } else if (instruction.dstReg >= 0 && instruction.dstReg < static_cast<int>(known_.size())) {
      result = known_[instruction.dstReg];
    }
    first_[instruction.dstReg] = result;
  }

  /// Records what a vector instruction makes known about its result: iotas,
  /// splats, `iota < bound` masks and their conjunctions.
  void track(const Instruction &instruction) {
    if (instruction.dsts.size() != 1)
      return;
    const int dst = instruction.dsts[0];
    affine_.erase(dst);
    activeBox_.erase(dst);
    const std::vector<int64_t> &shape = layout(dst).shape;
    if (instruction.opcode == Opcode::VSplat || instruction.opcode == Opcode::VIota) {
      Affine a;
      const auto base = instruction.scalars.empty() ? std::nullopt : firstValue(instruction.scalars[0]);
      if (!base || !core::isInteger(layout(dst).dtype))
        return;
      a.base = *base;
      a.strides.assign(shape.size(), 0);
      for (size_t axis = 0; instruction.opcode == Opcode::VIota && axis < shape.size(); ++axis) {
        const auto stride = axis + 1 < instruction.scalars.size() ? firstValue(instruction.scalars[axis + 1])
                                                                  : std::optional<int64_t>(0);
        if (!stride)
          return;
        a.strides[axis] = *stride;
      }
      affine_[dst] = a;
      return;
    }
    if (instruction.opcode == Opcode::VBroadcast && instruction.srcs.size() == 1) {
      // Stretched axes repeat the source's one index: all true or all false.
      auto source = activeBox_.find(instruction.srcs[0]);
      const std::vector<int64_t> &from = layout(instruction.srcs[0]).shape;
      if (source == activeBox_.end() || from.size() != shape.size())
        return;
      std::vector<int64_t> box = source->second;
      for (size_t axis = 0; axis < box.size(); ++axis)
        if (from[axis] == 1 && shape[axis] > 1)
          box[axis] = box[axis] > 0 ? shape[axis] : 0;
      activeBox_[dst] = box;
      return;
    }
    if (instruction.opcode != Opcode::VElementwise || instruction.srcs.size() != 2)
      return;
    const npu::ElementOp op = instruction.function.op;
    if (op == npu::ElementOp::And) {
      auto a = activeBox_.find(instruction.srcs[0]), b = activeBox_.find(instruction.srcs[1]);
      if (a == activeBox_.end() || b == activeBox_.end() || a->second.size() != b->second.size())
        return;
      std::vector<int64_t> box(a->second.size());
      for (size_t axis = 0; axis < box.size(); ++axis)
        box[axis] = std::min(a->second[axis], b->second[axis]);
      activeBox_[dst] = box;
      return;
    }
    if (op != npu::ElementOp::Cmp || instruction.function.predicate != core::CmpPredicate::Lt)
      return;
    auto index = affine_.find(instruction.srcs[0]), bound = affine_.find(instruction.srcs[1]);
    if (index == affine_.end() || bound == affine_.end() || index->second.strides.size() != shape.size() ||
        std::any_of(bound->second.strides.begin(), bound->second.strides.end(),
                    [](int64_t v) { return v != 0; }))
      return;
    // base + i[a] < bound along one axis of unit stride: true for i[a] below
    // bound - base.
    std::vector<int64_t> box(shape.begin(), shape.end());
    int axes = 0;
    for (size_t axis = 0; axis < shape.size(); ++axis) {
      const int64_t stride = index->second.strides[axis];
      if (stride == 0 || shape[axis] == 1)
        continue;
      if (stride != 1 || ++axes > 1)
        return;
      box[axis] = std::clamp<int64_t>(bound->second.base - index->second.base, 0, shape[axis]);
    }
    activeBox_[dst] = box;
  }

  void fold(const Instruction &instruction) {
    if (instruction.dstReg < 0 || instruction.dstReg >= static_cast<int>(known_.size()))
      return;
    std::optional<int64_t> result;
    if (instruction.opcode == Opcode::SMove && !instruction.scalars.empty()) {
      result = value(instruction.scalars[0]);
    } else if (instruction.opcode == Opcode::SArgument && instruction.argument >= 0 &&
               instruction.argument < static_cast<int>(program_.arguments.size())) {
      if (auto it = scalarArguments_.find(program_.arguments[instruction.argument].name);
          it != scalarArguments_.end())
        result = it->second;
    } else if (instruction.opcode == Opcode::SElementwise && instruction.scalars.size() == 2 &&
               core::isInteger(instruction.function.resultType)) {
      const auto a = value(instruction.scalars[0]), b = value(instruction.scalars[1]);
      if (a && b) {
        switch (instruction.function.op) {
        case npu::ElementOp::Add: result = *a + *b; break;
        case npu::ElementOp::Sub: result = *a - *b; break;
        case npu::ElementOp::Mul: result = *a * *b; break;
        case npu::ElementOp::Div: result = *b ? std::optional<int64_t>(*a / *b) : std::nullopt; break;
        case npu::ElementOp::Min: result = std::min(*a, *b); break;
        case npu::ElementOp::Max: result = std::max(*a, *b); break;
        default: break;
        }
      }
    }
    known_[instruction.dstReg] = result;
    foldFirst(instruction);
  }

  /// A DMA's contiguous runs: the tile is walked in row-major order and
  /// adjacent DRAM elements merge (docs/timing.md). `inner` is the number of
  /// trailing axes the run spans.
  struct Runs {
    int64_t count = 1, elements = 1;
    int inner = 0;
  };
  Runs runs(const Instruction &instruction, const npu::TileLayout &data) const {
    const int64_t elements = data.numElements();
    const npu::DmaDescriptor &dma = instruction.dma;
    // A gather's indices are data. Along one axis they come from index
    // arithmetic such as `x % C` (runs of up to C, wrapping) in Inductor's
    // kernels: taken as one run. Across axes they interleave (a layout change):
    // one run per element.
    if (dma.gathered() && data.rank() == 1)
      return {1, elements, 1};
    if (dma.gathered() || dma.strides.size() != data.shape.size())
      return {elements, 1, -1};
    // A mask true on a box (`x < xnumel` of a padded block) moves the box
    // alone: runs follow its extents.
    std::vector<int64_t> extent(data.shape.begin(), data.shape.end());
    if (auto box = activeBox_.find(dma.maskTile);
        dma.maskTile >= 0 && box != activeBox_.end() && box->second.size() == extent.size())
      extent = box->second;
    // A clip box likewise where its bounds are the same in every instance;
    // one that varies by instance counts as the whole tile. (Taking the first
    // instance's box, as for a mask tile's, moved the block search to blocks
    // that time slower: ResNet-18 took 10% longer.)
    for (size_t a = 0; a < dma.clipHigh.size() && a < extent.size(); ++a) {
      const auto low = value(dma.clipLow[a]), high = value(dma.clipHigh[a]);
      if (low && high)
        extent[a] = std::min(extent[a], std::clamp<int64_t>(*high, 0, extent[a]) -
                                            std::clamp<int64_t>(*low, 0, extent[a]));
      extent[a] = std::max<int64_t>(extent[a], 0);
    }
    int64_t active = 1;
    for (int64_t e : extent)
      active *= e;
    if (active == 0)
      return {0, 0, 0};
    Runs r;
    int64_t expected = 1;
    for (int a = data.rank() - 1; a >= 0; --a, ++r.inner) {
      if (extent[a] == 1)
        continue;
      const auto stride = value(dma.strides[a]);
      if (!stride || *stride != expected)
        break;
      // Masked-off elements move nothing: the next active element continues
      // the run when its address does (rows of 9 of a 16-wide block, 9 apart).
      r.elements *= extent[a];
      expected *= extent[a];
    }
    r.count = std::max<int64_t>(1, active / r.elements);
    return r;
  }

  /// DRAM accesses of the busiest channel, from the runs' addresses (the base
  /// taken as aligned); spread evenly where the addresses are not known.
  double busiestChannelAccesses(const Instruction &instruction, const npu::TileLayout &data, const Runs &r,
                                int64_t requestBytes, double accesses) const {
    const int outer = data.rank() - r.inner;
    std::vector<int64_t> strides;
    for (int a = 0; a < outer; ++a) {
      const auto stride = r.inner >= 0 ? value(instruction.dma.strides[a]) : std::nullopt;
      if (!stride)
        return accesses / channels_.channels();
      strides.push_back(*stride);
    }
    const int64_t elementBytes = core::byteSize(data.dtype);
    const int64_t runBytes = r.elements * elementBytes;
    const auto granule = static_cast<int64_t>(channels_.granuleBytes());
    std::vector<double> perChannel(static_cast<size_t>(channels_.channels()), 0.0);
    std::vector<int64_t> index(static_cast<size_t>(outer), 0);
    int64_t sampled = 0;
    for (; sampled < std::min(r.count, kRunsSampled); ++sampled) {
      int64_t start = 0;
      for (int a = 0; a < outer; ++a)
        start += strides[a] * index[a] * elementBytes;
      for (int64_t at = start; at < start + runBytes;) {
        const int64_t requestEnd = std::min(start + runBytes, (at / requestBytes + 1) * requestBytes);
        for (int64_t g = at / granule; g * granule < requestEnd; ++g)
          perChannel[static_cast<size_t>(channels_.channelOf(g * granule))] += 1.0;
        at = requestEnd;
      }
      for (int a = outer - 1; a >= 0; --a) {
        if (++index[a] < data.shape[a])
          break;
        index[a] = 0;
      }
    }
    const double busiest = *std::max_element(perChannel.begin(), perChannel.end());
    return busiest * static_cast<double>(r.count) / static_cast<double>(std::max<int64_t>(1, sampled));
  }

  void chargeDma(const Instruction &instruction, double times) {
    const int dataTile = instruction.opcode == Opcode::DmaStore ? instruction.srcs.at(0)
                         : instruction.dsts.empty()             ? instruction.srcs.at(0)
                                                                : instruction.dsts[0];
    const npu::TileLayout &data = layout(dataTile);
    const int elementBytes = core::byteSize(data.dtype);
    const Runs r = runs(instruction, data);
    const int64_t granule = std::max(1, machine_.dmaRequestBytes);
    const int64_t runBytes = r.elements * elementBytes;
    const int64_t requestsPerRun = (runBytes + granule - 1) / granule;
    const auto access = static_cast<int64_t>(channels_.granuleBytes());
    const int64_t bytesPerRequest = std::min(runBytes, granule);
    const int64_t accessesPerRequest = (bytesPerRequest + access - 1) / access;
    const double atomicFactor = instruction.opcode == Opcode::DmaAtomic ? 2.0 : 1.0;
    const double requests = static_cast<double>(r.count * requestsPerRun) * atomicFactor;
    const double accesses = requests * static_cast<double>(accessesPerRequest);
    cost.dmaInstructions += static_cast<int64_t>(times);
    cost.dmaRuns += static_cast<int64_t>(static_cast<double>(r.count) * times);
    cost.dmaRequests += static_cast<int64_t>(requests * times);
    cost.dmaBytes += static_cast<double>(r.count * runBytes) * times;
    (instruction.opcode == Opcode::DmaLoad ? loads_ : stores_) = true;
    if (instruction.opcode != Opcode::DmaLoad) {
      cost.storeRuns += static_cast<int64_t>(static_cast<double>(r.count) * times);
      cost.storeBytes += static_cast<double>(r.count * runBytes) * times;
    }
    cost.dramAccessBytes += accesses * static_cast<double>(access) * times;
    busiestChannel_ += busiestChannelAccesses(instruction, data, r, granule, accesses) * atomicFactor * times;
    // The NoC accepts a core's requests on portsPerCore ports, each moving
    // bytesPerCyclePerPort; a descriptor takes at least one cycle.
    const double portBytes = std::max(1, machine_.noc.portsPerCore * machine_.noc.bytesPerCyclePerPort);
    cost.dmaIssue +=
        std::max(1.0, requests * static_cast<double>(std::max(bytesPerRequest, access)) / portBytes) * times;
  }

public:
  double busiestChannel_ = 0; // DRAM accesses one instance sends to its busiest channels
  bool loads_ = false, stores_ = false;

private:
  void charge(const Instruction &instruction, double times) {
    const config::HardwareConfig &m = machine_;
    switch (npu::unitOf(instruction.opcode)) {
    case npu::Unit::Scalar:
    case npu::Unit::Control: {
      fold(instruction);
      if (instruction.opcode == Opcode::SLoad || instruction.opcode == Opcode::SStore) {
        cost.dmaRequests += static_cast<int64_t>(times);
        cost.dramAccessBytes += m.dram.timing.accessBytes() * times;
      }
      if (instruction.opcode == Opcode::Barrier)
        return;
      cost.scalar += m.scalarLatency * times;
      if (instruction.opcode == Opcode::Loop) {
        double trips = 1;
        if (instruction.scalars.size() == 3) {
          const auto lo = value(instruction.scalars[0]), hi = value(instruction.scalars[1]),
                     step = value(instruction.scalars[2]);
          if (lo && hi && step && *step > 0)
            trips = static_cast<double>(std::max<int64_t>(0, (*hi - *lo + *step - 1) / *step));
        }
        if (instruction.dstReg >= 0 && instruction.dstReg < static_cast<int>(known_.size()))
          known_[instruction.dstReg].reset();
        walk(instruction.body, times * trips);
      } else if (instruction.opcode == Opcode::If) {
        // Both sides are charged: which one runs depends on the instance.
        walk(instruction.body, times);
        walk(instruction.elseBody, times);
      }
      return;
    }
    case npu::Unit::Dma: chargeDma(instruction, times); return;
    case npu::Unit::Vector:
      track(instruction);
      // A vector unit issues a pass per cycle: its occupancy paces the unit.
      cost.vector += static_cast<double>(machine::costOf(instruction, program_, m).occupancy) * times;
      return;
    case npu::Unit::CrossLane:
      // The relayout's result feeds the next unit: its latency is on the path,
      // and the next unit starts on the cycle after it completes.
      cost.crossLane += static_cast<double>(machine::costOf(instruction, program_, m).latency + 1) * times;
      return;
    case npu::Unit::Systolic:
      cost.systolic += static_cast<double>(machine::costOf(instruction, program_, m).occupancy) * times /
                       std::max(1, m.systolicArraysPerCore);
      return;
    }
  }
};

} // namespace

ProgramCost estimateCost(const npu::Program &program, const config::HardwareConfig &machine,
                         int64_t instances, const std::map<std::string, int64_t> &scalarArguments) {
  Estimator estimator(program, machine, scalarArguments);
  estimator.walk(program.body, 1.0);
  ProgramCost cost = estimator.cost;
  cost.instances = std::max<int64_t>(1, instances);

  const double coreHz = machine.coreFreqMhz * 1e6;
  const double peak = machine.dram.peakBytesPerSecond();
  const int cores = std::max(1, machine.numCores);
  // One request's round trip: the NoC both ways, row activation, CAS, burst.
  const double roundTrip = machine::dramRoundTripCycles(machine);
  // Little's law: requests in flight per core bound the rate.
  const double inFlight = std::max(1, machine.dmaOutstandingRequests);
  cost.dmaIssue = std::max(cost.dmaIssue, static_cast<double>(cost.dmaRequests) * roundTrip / inFlight);
  // DRAM time: the busiest channel's accesses, one per burst; the launch as a
  // whole cannot beat the peak bandwidth either.
  const double accessSeconds = static_cast<double>(machine.dram.timing.burstCycles) *
                               static_cast<double>(machine.dram.clockPeriodPs()) * 1e-12;
  const double balanced = peak > 0 ? cost.dramAccessBytes / peak * coreHz : 0.0;
  cost.dram = std::max(balanced, estimator.busiestChannel_ * accessSeconds * coreHz);

  // Two instances in flight put one instance's loads on the DRAM together with
  // the other's stores: the channels turn between reads and writes at every
  // write drain and the posted writes hold request slots the reads wait for.
  // Measured on tpuv3-like (1024 x 1024 fp32 copies and transposes, tiles of
  // 128 KiB to 1 MiB) such mixed traffic takes 1.5x to 2x its DRAM time where
  // the same bytes in separate read and write phases take 1.26x to 1.6x; the
  // model charges the lower factor to mixed traffic and nothing to phases.
  const bool mixed = program.instanceBankStride > 0 && estimator.loads_ && estimator.stores_;
  const double dramPaced = mixed ? cost.dram * kMixedTrafficFactor : cost.dram;
  const std::pair<double, CostBound> units[] = {
      {dramPaced, CostBound::DramBandwidth},  {cost.dmaIssue, CostBound::DmaIssue},
      {cost.systolic, CostBound::Systolic},   {cost.vector, CostBound::Vector},
      {cost.crossLane, CostBound::CrossLane}, {cost.scalar, CostBound::Scalar}};
  double slowest = 0;
  for (const auto &[cycles, bound] : units) {
    if (cycles > slowest) {
      slowest = cycles;
      cost.bound = bound;
    }
  }
  // Units run in parallel. With two instances in flight per core
  // (instanceBankStride), one instance's DMA overlaps the other's compute and the
  // slowest unit sets the pace. An instance's own path is its load phase (a
  // round trip and its bytes), its compute and its store phase: paid per
  // instance alone, and half of it per instance with two in flight (the third
  // instance's loads wait for the first one's stores to free its bytes).
  const double roundTrips = roundTrip * ((estimator.loads_ ? 1 : 0) + (estimator.stores_ ? 1 : 0));
  const double chain = std::max(cost.dram, cost.dmaIssue) + roundTrips + cost.vector + cost.crossLane +
                       cost.systolic + cost.scalar;
  cost.instanceCycles =
      program.instanceBankStride > 0 ? std::max(slowest, chain / 2) : std::max(slowest, chain);
  const double waves = std::ceil(static_cast<double>(cost.instances) / cores);
  const double launchDram = balanced * static_cast<double>(cost.instances); // DRAM is shared by the cores
  cost.cycles = std::max(waves * cost.instanceCycles, launchDram) + roundTrip;
  return cost;
}

} // namespace npusim::compiler
