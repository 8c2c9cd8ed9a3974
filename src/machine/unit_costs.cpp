#include "machine/unit_costs.h"

#include "core/error.h"
#include "machine/latencies.h"

#include <algorithm>
#include <string>

namespace npusim::machine {

using npu::Opcode;

std::string_view unitKindName(UnitKind kind) {
  switch (kind) {
  case UnitKind::Scalar: return "scalar";
  case UnitKind::Dma: return "dma";
  case UnitKind::Vector: return "vector";
  case UnitKind::CrossLane: return "cross-lane";
  case UnitKind::Systolic: return "systolic";
  }
  return "?";
}

UnitKind unitKindOf(const npu::Instruction &instruction) {
  switch (instruction.opcode) {
  case Opcode::DmaLoad:
  case Opcode::DmaStore:
  case Opcode::DmaAtomic: return UnitKind::Dma;
  case Opcode::VSplat:
  case Opcode::VIota:
  case Opcode::VElementwise:
  case Opcode::VBroadcast:
  case Opcode::VReduce:
  case Opcode::VScan:
  case Opcode::VSort: return UnitKind::Vector;
  case Opcode::XReduce:
  case Opcode::XScan:
  case Opcode::XSort:
  case Opcode::XBroadcast:
  case Opcode::XRelayout: return UnitKind::CrossLane;
  case Opcode::MLoadWeights:
  case Opcode::MMatmul: return UnitKind::Systolic;
  // An assert on a tile checks every element, which is vector work; a scalar
  // assert is one scalar compare.
  case Opcode::Assert: return instruction.srcs.empty() ? UnitKind::Scalar : UnitKind::Vector;
  default: return UnitKind::Scalar;
  }
}

VectorClass vectorClassOf(const npu::ElementFunction &function) {
  using npu::ElementOp;
  using core::MathFn;
  switch (function.op) {
  case ElementOp::Mul: return VectorClass::Multiply;
  case ElementOp::Div:
  case ElementOp::Rem: return VectorClass::Divide;
  case ElementOp::Math: break;
  default: return VectorClass::Simple;
  }
  switch (function.mathFn) {
  case MathFn::Sqrt:
  case MathFn::Rsqrt:
  case MathFn::Recip:
  case MathFn::Fmod:
  case MathFn::Hypot: return VectorClass::Divide;
  case MathFn::Fma: return VectorClass::Multiply;
  // Rounding, classification and sign manipulation are bit operations.
  case MathFn::Floor:
  case MathFn::Ceil:
  case MathFn::Trunc:
  case MathFn::Round:
  case MathFn::RoundAway:
  case MathFn::IsNan:
  case MathFn::IsInf:
  case MathFn::IsFinite:
  case MathFn::Signbit:
  case MathFn::Copysign:
  case MathFn::NextAfter: return VectorClass::Simple;
  default: return VectorClass::Transcendental;
  }
}

int vectorLatency(const config::VectorLatencies &latencies, VectorClass cls) {
  switch (cls) {
  case VectorClass::Simple: return latencies.simple;
  case VectorClass::Multiply: return latencies.multiply;
  case VectorClass::Divide: return latencies.divide;
  case VectorClass::Transcendental: return latencies.transcendental;
  }
  return latencies.simple;
}

int ceilLog2(int64_t n) {
  int levels = 0;
  while ((int64_t{1} << levels) < n)
    ++levels;
  return levels;
}

namespace {

const npu::Tile &tileAt(const npu::Program &program, int index, const npu::Instruction &instruction) {
  if (index < 0 || static_cast<size_t>(index) >= program.tiles.size())
    throw core::RuntimeError("timing: kernel " + program.kernelName + ": " +
                             std::string(unitKindName(unitKindOf(instruction))) + " instruction at " +
                             instruction.loc.str() + " names tile " + std::to_string(index) + " of " +
                             std::to_string(program.tiles.size()));
  return program.tiles[static_cast<size_t>(index)];
}

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// Slots per lane of the instruction's first destination (or first source).
int64_t resultSlots(const npu::Instruction &instruction, const npu::Program &program, int lanes) {
  if (!instruction.dsts.empty())
    return tileAt(program, instruction.dsts[0], instruction).layout.slotsPerLane(lanes);
  if (!instruction.srcs.empty())
    return tileAt(program, instruction.srcs[0], instruction).layout.slotsPerLane(lanes);
  return 1;
}

int64_t sourceSlots(const npu::Instruction &instruction, const npu::Program &program, int lanes) {
  if (!instruction.srcs.empty())
    return tileAt(program, instruction.srcs[0], instruction).layout.slotsPerLane(lanes);
  return resultSlots(instruction, program, lanes);
}

/// The slowest class among a combine program's steps (a reduction applies all
/// of them at every tree level).
VectorClass reductionClass(const npu::Instruction &instruction) {
  switch (instruction.reduceKind) {
  case core::ReduceKind::Prod: return VectorClass::Multiply;
  case core::ReduceKind::Combine: {
    VectorClass slowest = VectorClass::Simple;
    if (instruction.combine)
      for (const auto &step : instruction.combine->steps)
        if (!step.isConstant)
          slowest = std::max(slowest, vectorClassOf(step.function));
    return slowest;
  }
  default: return VectorClass::Simple;
  }
}

/// A pipelined pass: `passes` issue cycles, the first result after `depth`.
UnitCost pipelined(int64_t passes, int64_t depth) {
  passes = std::max<int64_t>(passes, 1);
  return UnitCost{passes, depth + passes - 1};
}

} // namespace

int vectorElementBytes(const npu::Instruction &instruction, const npu::Program &program) {
  int widest = 1;
  for (int tile : instruction.dsts)
    widest = std::max(widest, core::byteSize(tileAt(program, tile, instruction).layout.dtype));
  for (int tile : instruction.srcs)
    widest = std::max(widest, core::byteSize(tileAt(program, tile, instruction).layout.dtype));
  return widest;
}

int64_t matmulRows(const npu::Instruction &instruction, const npu::Program &program) {
  if (instruction.srcs.empty())
    return 0;
  const npu::TileLayout &a = tileAt(program, instruction.srcs[0], instruction).layout;
  if (a.shape.empty() || a.shape.back() == 0)
    return 0;
  return a.numElements() / a.shape.back();
}

int64_t usefulMacs(const npu::Instruction &instruction, const npu::Program &program, int lanes) {
  if (instruction.opcode != Opcode::MMatmul || instruction.srcs.empty() || instruction.dsts.empty())
    return 0;
  const npu::TileLayout &a = tileAt(program, instruction.srcs[0], instruction).layout;
  const npu::TileLayout &c = tileAt(program, instruction.dsts[0], instruction).layout;
  if (a.shape.empty() || c.shape.empty())
    return 0;
  // Block b of an axis of extent E covers [b * lanes, min(E, (b + 1) * lanes)).
  auto blockExtent = [lanes](int64_t extent, int64_t block) {
    return std::clamp<int64_t>(extent - block * lanes, 0, lanes);
  };
  const int64_t k = blockExtent(a.shape.back(), instruction.kBlock);
  const int64_t n = blockExtent(c.shape.back(), instruction.nBlock);
  return matmulRows(instruction, program) * k * n;
}

UnitCost costOf(const npu::Instruction &instruction, const npu::Program &program,
                const config::HardwareConfig &config) {
  const int lanes = config.lanes;
  switch (unitKindOf(instruction)) {
  case UnitKind::Scalar:
    if (instruction.opcode == Opcode::Barrier)
      return UnitCost{0, 0};
    return UnitCost{config.scalarLatency, config.scalarLatency};
  case UnitKind::Dma: return UnitCost{0, 0};
  case UnitKind::Vector: {
    const int perLane = std::max(1, config.elementsPerLaneVector(vectorElementBytes(instruction, program)));
    switch (instruction.opcode) {
    case Opcode::VElementwise:
      return pipelined(ceilDiv(resultSlots(instruction, program, lanes), perLane),
                       vectorLatency(config.vector, vectorClassOf(instruction.function)));
    case Opcode::VReduce:
    case Opcode::VScan:
    case Opcode::VSort: {
      const npu::TileLayout &src = tileAt(program, instruction.srcs.at(0), instruction).layout;
      const int64_t extent = instruction.axis >= 0 && instruction.axis < src.rank()
                                 ? src.shape[static_cast<size_t>(instruction.axis)]
                                 : 1;
      const int levels = std::max(1, ceilLog2(extent));
      const int64_t sourcePasses = ceilDiv(sourceSlots(instruction, program, lanes), perLane);
      if (instruction.opcode == Opcode::VReduce) {
        // A tree: level l combines pairs of level l-1; all levels together
        // process about as many elements as the source holds.
        const int latency = vectorLatency(config.vector, reductionClass(instruction));
        return pipelined(sourcePasses, int64_t{levels} * latency);
      }
      if (instruction.opcode == Opcode::VScan) {
        // Hillis-Steele: every level processes the whole source.
        const int latency = vectorLatency(config.vector, reductionClass(instruction));
        return pipelined(sourcePasses * levels, int64_t{levels} * latency);
      }
      // Bitonic sort: levels * (levels + 1) / 2 compare-exchange stages.
      const int64_t stages = int64_t{levels} * (levels + 1) / 2;
      return pipelined(sourcePasses * stages, stages * config.vector.simple);
    }
    default:
      // Splat, iota, broadcast, assert: one simple pass over the result.
      return pipelined(ceilDiv(resultSlots(instruction, program, lanes), perLane), config.vector.simple);
    }
  }
  case UnitKind::CrossLane: {
    // A butterfly network of log2(lanes) stages; one element per lane enters
    // per cycle.
    const int64_t stages = std::max(1, ceilLog2(lanes));
    const int64_t passes =
        std::max(sourceSlots(instruction, program, lanes), resultSlots(instruction, program, lanes));
    const int64_t networkStages = instruction.opcode == Opcode::XSort ? stages * (stages + 1) / 2 : stages;
    return pipelined(passes, networkStages * config.crossLaneLatency);
  }
  case UnitKind::Systolic:
    if (instruction.opcode == Opcode::MLoadWeights)
      return UnitCost{weightLoadCycles(lanes), weightLoadCycles(lanes)};
    {
      // M rows enter one per cycle; the last row's results leave the array
      // after crossing its lanes rows and lanes columns.
      const int64_t rows = std::max<int64_t>(matmulRows(instruction, program), 1);
      return UnitCost{rows, rows + fillDrainCycles(lanes)};
    }
  }
  return UnitCost{};
}

} // namespace npusim::machine
