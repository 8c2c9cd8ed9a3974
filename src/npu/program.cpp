// Layout arithmetic, names and the read/write sets of instructions.
#include "npu/program.h"

#include "npu/layout.h"

#include <algorithm>

namespace npusim::npu {

int64_t TileLayout::numElements() const {
  int64_t n = 1;
  for (int64_t extent : shape)
    n *= extent;
  return n;
}

int64_t TileLayout::slotsPerLane(int lanes) const {
  if (shape.empty() || lanes <= 0)
    return numElements();
  const int64_t laneExtent = shape[static_cast<size_t>(laneAxis)];
  const int64_t rest = laneExtent == 0 ? 0 : numElements() / laneExtent;
  return (laneExtent + lanes - 1) / lanes * rest;
}

int64_t TileLayout::bytesPerLane(int lanes) const {
  return slotsPerLane(lanes) * core::byteSize(dtype);
}

int ElementFunction::arity() const {
  switch (op) {
  case ElementOp::Copy:
  case ElementOp::Neg:
  case ElementOp::Not:
  case ElementOp::Abs:
  case ElementOp::Cast:
  case ElementOp::Bitcast: return 1;
  case ElementOp::Math: return core::arity(mathFn);
  case ElementOp::Select: return 3;
  default: return 2;
  }
}

LaneSlot laneSlotOf(const TileLayout &layout, int lanes, const std::vector<int64_t> &index) {
  const int64_t laneIndex = index[static_cast<size_t>(layout.laneAxis)];
  int64_t rest = 1, restIndex = 0;
  for (int a = 0; a < layout.rank(); ++a) {
    if (a == layout.laneAxis)
      continue;
    restIndex = restIndex * layout.shape[static_cast<size_t>(a)] + index[static_cast<size_t>(a)];
    rest *= layout.shape[static_cast<size_t>(a)];
  }
  return LaneSlot{static_cast<int>(laneIndex % lanes), (laneIndex / lanes) * rest + restIndex};
}

void elementPositions(const TileLayout &layout, int lanes, int64_t bankBytes, std::vector<int64_t> &out) {
  const int64_t n = layout.numElements();
  out.resize(static_cast<size_t>(n));
  if (n == 0)
    return;
  const int rank = layout.rank();
  const int64_t elementBytes = core::byteSize(layout.dtype);
  // Row-major strides of the other axes inside `rest`.
  std::vector<int64_t> restStride(static_cast<size_t>(rank), 0);
  int64_t rest = 1;
  for (int a = rank - 1; a >= 0; --a) {
    if (a == layout.laneAxis)
      continue;
    restStride[static_cast<size_t>(a)] = rest;
    rest *= layout.shape[static_cast<size_t>(a)];
  }
  // Row by row along the last axis: the other axes fix a row's part of the
  // position, the last axis adds a part that is the same for every row.
  const size_t last = static_cast<size_t>(rank - 1), laneAxis = static_cast<size_t>(layout.laneAxis);
  const int64_t inner = layout.shape[last];
  std::vector<int64_t> along(static_cast<size_t>(inner));
  for (int64_t j = 0; j < inner; ++j)
    along[static_cast<size_t>(j)] =
        laneAxis == last ? (j % lanes) * bankBytes + (j / lanes) * rest * elementBytes : j * elementBytes;
  std::vector<int64_t> index(static_cast<size_t>(rank), 0);
  for (int64_t e = 0; e < n; e += inner) {
    int64_t restIndex = 0;
    for (size_t a = 0; a < last; ++a)
      restIndex += restStride[a] * index[a];
    int64_t rowBase = restIndex * elementBytes;
    if (laneAxis != last)
      rowBase += (index[laneAxis] % lanes) * bankBytes + (index[laneAxis] / lanes) * rest * elementBytes;
    int64_t *row = out.data() + e;
    for (int64_t j = 0; j < inner; ++j)
      row[j] = rowBase + along[static_cast<size_t>(j)];
    for (int a = rank - 2; a >= 0; --a) {
      if (++index[static_cast<size_t>(a)] < layout.shape[static_cast<size_t>(a)])
        break;
      index[static_cast<size_t>(a)] = 0;
    }
  }
}

bool sameLaneMapping(const TileLayout &a, const TileLayout &b) {
  if (a.shape != b.shape)
    return false;
  if (a.laneAxis == b.laneAxis)
    return true;
  // Every element in lane 0 on both sides.
  return a.shape[static_cast<size_t>(a.laneAxis)] == 1 && b.shape[static_cast<size_t>(b.laneAxis)] == 1;
}

Unit unitOf(Opcode opcode) {
  switch (opcode) {
  case Opcode::SMove:
  case Opcode::SArgument:
  case Opcode::SProgramId:
  case Opcode::SNumPrograms:
  case Opcode::SElementwise:
  case Opcode::SLoad:
  case Opcode::SStore: return Unit::Scalar;
  case Opcode::DmaLoad:
  case Opcode::DmaStore:
  case Opcode::DmaAtomic: return Unit::Dma;
  case Opcode::VSplat:
  case Opcode::VIota:
  case Opcode::VElementwise:
  case Opcode::VBroadcast:
  case Opcode::VReduce:
  case Opcode::VScan:
  case Opcode::VSort: return Unit::Vector;
  case Opcode::XReduce:
  case Opcode::XScan:
  case Opcode::XSort:
  case Opcode::XBroadcast:
  case Opcode::XRelayout: return Unit::CrossLane;
  case Opcode::MLoadWeights:
  case Opcode::MMatmul: return Unit::Systolic;
  case Opcode::Loop:
  case Opcode::If:
  case Opcode::Barrier:
  case Opcode::Assert: return Unit::Control;
  }
  return Unit::Control;
}

std::string_view name(Opcode opcode) {
  switch (opcode) {
  case Opcode::SMove: return "s.move";
  case Opcode::SArgument: return "s.argument";
  case Opcode::SProgramId: return "s.program_id";
  case Opcode::SNumPrograms: return "s.num_programs";
  case Opcode::SElementwise: return "s.elementwise";
  case Opcode::SLoad: return "s.load";
  case Opcode::SStore: return "s.store";
  case Opcode::DmaLoad: return "dma.load";
  case Opcode::DmaStore: return "dma.store";
  case Opcode::DmaAtomic: return "dma.atomic";
  case Opcode::VSplat: return "v.splat";
  case Opcode::VIota: return "v.iota";
  case Opcode::VElementwise: return "v.elementwise";
  case Opcode::VBroadcast: return "v.broadcast";
  case Opcode::VReduce: return "v.reduce";
  case Opcode::VScan: return "v.scan";
  case Opcode::VSort: return "v.sort";
  case Opcode::XReduce: return "x.reduce";
  case Opcode::XScan: return "x.scan";
  case Opcode::XSort: return "x.sort";
  case Opcode::XBroadcast: return "x.broadcast";
  case Opcode::XRelayout: return "x.relayout";
  case Opcode::MLoadWeights: return "m.load_weights";
  case Opcode::MMatmul: return "m.matmul";
  case Opcode::Loop: return "loop";
  case Opcode::If: return "if";
  case Opcode::Barrier: return "barrier";
  case Opcode::Assert: return "assert";
  }
  return "?";
}

std::string_view name(ElementOp op) {
  switch (op) {
  case ElementOp::Copy: return "copy";
  case ElementOp::Add: return "add";
  case ElementOp::Sub: return "sub";
  case ElementOp::Mul: return "mul";
  case ElementOp::Div: return "div";
  case ElementOp::Rem: return "rem";
  case ElementOp::And: return "and";
  case ElementOp::Or: return "or";
  case ElementOp::Xor: return "xor";
  case ElementOp::Shl: return "shl";
  case ElementOp::Shr: return "shr";
  case ElementOp::Min: return "min";
  case ElementOp::Max: return "max";
  case ElementOp::Neg: return "neg";
  case ElementOp::Not: return "not";
  case ElementOp::Abs: return "abs";
  case ElementOp::Math: return "math";
  case ElementOp::Cmp: return "cmp";
  case ElementOp::Select: return "select";
  case ElementOp::Cast: return "cast";
  case ElementOp::Bitcast: return "bitcast";
  }
  return "?";
}

std::string_view name(Unit unit) {
  switch (unit) {
  case Unit::Scalar: return "scalar";
  case Unit::Dma: return "dma";
  case Unit::Vector: return "vector";
  case Unit::CrossLane: return "cross-lane";
  case Unit::Systolic: return "systolic";
  case Unit::Control: return "control";
  }
  return "?";
}

std::vector<int> readTiles(const Instruction &instruction) {
  std::vector<int> tiles = instruction.srcs;
  if (instruction.opcode == Opcode::DmaLoad || instruction.opcode == Opcode::DmaStore ||
      instruction.opcode == Opcode::DmaAtomic) {
    if (instruction.dma.indexTile >= 0)
      tiles.push_back(instruction.dma.indexTile);
    if (instruction.dma.maskTile >= 0)
      tiles.push_back(instruction.dma.maskTile);
  }
  if (instruction.opcode == Opcode::MMatmul && instruction.accumulate)
    tiles.insert(tiles.end(), instruction.dsts.begin(), instruction.dsts.end());
  return tiles;
}

std::vector<int> writtenTiles(const Instruction &instruction) { return instruction.dsts; }

std::vector<int> registersRead(const Instruction &instruction) {
  std::vector<int> regs;
  auto note = [&regs](const ScalarOperand &operand) {
    if (operand.isRegister())
      regs.push_back(operand.reg);
  };
  for (const ScalarOperand &operand : instruction.scalars)
    note(operand);
  const DmaDescriptor &dma = instruction.dma;
  note(dma.base);
  for (const ScalarOperand &operand : dma.strides)
    note(operand);
  note(dma.fill);
  for (const ScalarOperand &operand : dma.clipLow)
    note(operand);
  for (const ScalarOperand &operand : dma.clipHigh)
    note(operand);
  return regs;
}

} // namespace npusim::npu
