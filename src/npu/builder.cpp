#include "npu/builder.h"

#include <algorithm>

namespace npusim::npu {

ProgramBuilder::ProgramBuilder(std::string kernelName, int lanes, int64_t spadBytesPerLane) {
  program_.kernelName = std::move(kernelName);
  program_.lanes = lanes;
  program_.spadBytesPerLane = spadBytesPerLane;
  open_.push_back(&program_.body);
}

int ProgramBuilder::pointerArgument(const std::string &argumentName, DType pointee) {
  program_.arguments.push_back(Argument{argumentName, true, pointee});
  return static_cast<int>(program_.arguments.size()) - 1;
}

int ProgramBuilder::scalarArgument(const std::string &argumentName, DType dtype) {
  program_.arguments.push_back(Argument{argumentName, false, dtype});
  return static_cast<int>(program_.arguments.size()) - 1;
}

int ProgramBuilder::reg(const std::string &regName, DType dtype) {
  program_.scalarRegs.push_back(ScalarRegister{regName, dtype});
  return static_cast<int>(program_.scalarRegs.size()) - 1;
}

int ProgramBuilder::tile(const std::string &tileName, DType dtype, std::vector<int64_t> shape, int laneAxis) {
  const int t = tileAt(tileName, dtype, std::move(shape), laneAxis, nextOffset_);
  nextOffset_ = (nextOffset_ + program_.tiles.back().layout.bytesPerLane(program_.lanes) + 31) / 32 * 32;
  return t;
}

int ProgramBuilder::tileAt(const std::string &tileName, DType dtype, std::vector<int64_t> shape, int laneAxis,
                           int64_t bankOffset) {
  program_.tiles.push_back(Tile{tileName, TileLayout{dtype, std::move(shape), laneAxis}, bankOffset});
  return static_cast<int>(program_.tiles.size()) - 1;
}

Instruction &ProgramBuilder::emit(Instruction instruction) {
  open_.back()->push_back(std::move(instruction));
  return open_.back()->back();
}

namespace {
Instruction make(Opcode opcode) {
  Instruction in;
  in.opcode = opcode;
  return in;
}
} // namespace

Instruction &ProgramBuilder::move(int dstReg, ScalarOperand value) {
  Instruction in = make(Opcode::SMove);
  in.dstReg = dstReg;
  in.scalars = {value};
  return emit(std::move(in));
}

Instruction &ProgramBuilder::argument(int dstReg, int argumentIndex) {
  Instruction in = make(Opcode::SArgument);
  in.dstReg = dstReg;
  in.argument = argumentIndex;
  return emit(std::move(in));
}

Instruction &ProgramBuilder::programId(int dstReg, int axis) {
  Instruction in = make(Opcode::SProgramId);
  in.dstReg = dstReg;
  in.axis = axis;
  return emit(std::move(in));
}

Instruction &ProgramBuilder::numPrograms(int dstReg, int axis) {
  Instruction in = make(Opcode::SNumPrograms);
  in.dstReg = dstReg;
  in.axis = axis;
  return emit(std::move(in));
}

Instruction &ProgramBuilder::scalarOp(int dstReg, ElementFunction function, std::vector<ScalarOperand> operands) {
  Instruction in = make(Opcode::SElementwise);
  in.dstReg = dstReg;
  in.function = function;
  in.scalars = std::move(operands);
  return emit(std::move(in));
}

Instruction &ProgramBuilder::scalarLoad(int dstReg, int pointerArgumentIndex, ScalarOperand element) {
  Instruction in = make(Opcode::SLoad);
  in.dstReg = dstReg;
  in.argument = pointerArgumentIndex;
  in.scalars = {element};
  return emit(std::move(in));
}

Instruction &ProgramBuilder::scalarStore(int pointerArgumentIndex, ScalarOperand element, ScalarOperand value) {
  Instruction in = make(Opcode::SStore);
  in.argument = pointerArgumentIndex;
  in.scalars = {element, value};
  return emit(std::move(in));
}

Instruction &ProgramBuilder::dmaLoad(int dst, int pointerArgumentIndex, ScalarOperand base,
                                     std::vector<ScalarOperand> strides, int mask, ScalarOperand fill) {
  Instruction in = make(Opcode::DmaLoad);
  in.dsts = {dst};
  in.dma.argument = pointerArgumentIndex;
  in.dma.base = base;
  in.dma.strides = std::move(strides);
  in.dma.maskTile = mask;
  in.dma.fill = fill;
  return emit(std::move(in));
}

Instruction &ProgramBuilder::dmaStore(int src, int pointerArgumentIndex, ScalarOperand base,
                                      std::vector<ScalarOperand> strides, int mask) {
  Instruction in = make(Opcode::DmaStore);
  in.srcs = {src};
  in.dma.argument = pointerArgumentIndex;
  in.dma.base = base;
  in.dma.strides = std::move(strides);
  in.dma.maskTile = mask;
  return emit(std::move(in));
}

Instruction &ProgramBuilder::dmaGather(int dst, int pointerArgumentIndex, ScalarOperand base, int indexTile,
                                       int mask, ScalarOperand fill) {
  Instruction in = make(Opcode::DmaLoad);
  in.dsts = {dst};
  in.dma.argument = pointerArgumentIndex;
  in.dma.base = base;
  in.dma.indexTile = indexTile;
  in.dma.maskTile = mask;
  in.dma.fill = fill;
  return emit(std::move(in));
}

Instruction &ProgramBuilder::dmaScatter(int src, int pointerArgumentIndex, ScalarOperand base, int indexTile,
                                        int mask) {
  Instruction in = make(Opcode::DmaStore);
  in.srcs = {src};
  in.dma.argument = pointerArgumentIndex;
  in.dma.base = base;
  in.dma.indexTile = indexTile;
  in.dma.maskTile = mask;
  return emit(std::move(in));
}

Instruction &ProgramBuilder::dmaAtomic(core::AtomicKind kind, int oldValues, int src, int pointerArgumentIndex,
                                       ScalarOperand base, int indexTile, int mask) {
  Instruction in = make(Opcode::DmaAtomic);
  if (oldValues >= 0)
    in.dsts = {oldValues};
  in.srcs = {src};
  in.dma.argument = pointerArgumentIndex;
  in.dma.base = base;
  in.dma.indexTile = indexTile;
  in.dma.maskTile = mask;
  in.dma.atomic = kind;
  return emit(std::move(in));
}

Instruction &ProgramBuilder::splat(int dst, ScalarOperand value) {
  Instruction in = make(Opcode::VSplat);
  in.dsts = {dst};
  in.scalars = {value};
  return emit(std::move(in));
}

Instruction &ProgramBuilder::iota(int dst, ScalarOperand start, std::vector<ScalarOperand> steps) {
  Instruction in = make(Opcode::VIota);
  in.dsts = {dst};
  in.scalars = {start};
  in.scalars.insert(in.scalars.end(), steps.begin(), steps.end());
  return emit(std::move(in));
}

Instruction &ProgramBuilder::elementwise(int dst, ElementFunction function, std::vector<int> srcs) {
  Instruction in = make(Opcode::VElementwise);
  in.dsts = {dst};
  in.srcs = std::move(srcs);
  in.function = function;
  return emit(std::move(in));
}

Instruction &ProgramBuilder::reduce(Opcode opcode, core::ReduceKind kind, int axis, std::vector<int> dsts,
                                    std::vector<int> srcs) {
  Instruction in = make(opcode);
  in.reduceKind = kind;
  in.axis = axis;
  in.dsts = std::move(dsts);
  in.srcs = std::move(srcs);
  return emit(std::move(in));
}

Instruction &ProgramBuilder::sort(Opcode opcode, int axis, bool descending, std::vector<int> dsts,
                                  std::vector<int> srcs) {
  Instruction in = make(opcode);
  in.axis = axis;
  in.descending = descending;
  in.dsts = std::move(dsts);
  in.srcs = std::move(srcs);
  return emit(std::move(in));
}

Instruction &ProgramBuilder::broadcast(Opcode opcode, int dst, int src) {
  Instruction in = make(opcode);
  in.dsts = {dst};
  in.srcs = {src};
  return emit(std::move(in));
}

Instruction &ProgramBuilder::relayout(int dst, int src, std::vector<int> permutation) {
  Instruction in = make(Opcode::XRelayout);
  in.dsts = {dst};
  in.srcs = {src};
  in.permutation = std::move(permutation);
  return emit(std::move(in));
}

Instruction &ProgramBuilder::loadWeights(int array, int weights, int64_t kBlock, int64_t nBlock) {
  Instruction in = make(Opcode::MLoadWeights);
  in.array = array;
  in.srcs = {weights};
  in.kBlock = kBlock;
  in.nBlock = nBlock;
  return emit(std::move(in));
}

Instruction &ProgramBuilder::matmul(int array, int c, int a, int64_t kBlock, int64_t nBlock, bool accumulate) {
  Instruction in = make(Opcode::MMatmul);
  in.array = array;
  in.dsts = {c};
  in.srcs = {a};
  in.kBlock = kBlock;
  in.nBlock = nBlock;
  in.accumulate = accumulate;
  return emit(std::move(in));
}

Instruction &ProgramBuilder::assertTrue(int conditionTile, std::string message) {
  Instruction in = make(Opcode::Assert);
  in.srcs = {conditionTile};
  in.message = std::move(message);
  return emit(std::move(in));
}

void ProgramBuilder::beginLoop(int inductionReg, ScalarOperand lower, ScalarOperand upper, ScalarOperand step) {
  Instruction in = make(Opcode::Loop);
  in.dstReg = inductionReg;
  in.scalars = {lower, upper, step};
  Instruction &loop = emit(std::move(in));
  open_.push_back(&loop.body);
}

void ProgramBuilder::endLoop() { open_.pop_back(); }

void ProgramBuilder::beginIf(ScalarOperand condition) {
  Instruction in = make(Opcode::If);
  in.scalars = {condition};
  Instruction &branch = emit(std::move(in));
  open_.push_back(&branch.body);
}

void ProgramBuilder::beginElse() {
  open_.pop_back();
  open_.push_back(&open_.back()->back().elseBody);
}

void ProgramBuilder::endIf() { open_.pop_back(); }

Program ProgramBuilder::finish() {
  int64_t used = 0;
  for (const Tile &t : program_.tiles)
    used = std::max(used, t.bankOffset + t.layout.bytesPerLane(program_.lanes));
  program_.spadBytesUsed = used;
  validate(program_);
  return program_;
}

ElementFunction ProgramBuilder::function(ElementOp op, DType operandType) {
  return function(op, operandType, operandType);
}

ElementFunction ProgramBuilder::function(ElementOp op, DType operandType, DType resultType) {
  ElementFunction f;
  f.op = op;
  f.operandType = operandType;
  f.resultType = resultType;
  return f;
}

ElementFunction ProgramBuilder::math(core::MathFn fn, DType dtype) {
  ElementFunction f = function(ElementOp::Math, dtype, core::producesBool(fn) ? DType::Bool : dtype);
  f.mathFn = fn;
  return f;
}

ElementFunction ProgramBuilder::compare(core::CmpPredicate predicate, DType operandType) {
  ElementFunction f = function(ElementOp::Cmp, operandType, DType::Bool);
  f.predicate = predicate;
  return f;
}

} // namespace npusim::npu
