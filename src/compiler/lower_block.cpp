// The lowering's walk: arguments first, then every op of the body in order,
// each to the lowerer of its family (lowering_internal.h).
#include "compiler/lowering_internal.h"
#include "transform/transform.h"

#include <algorithm>

namespace npusim::compiler {

using ir::OpCode;

namespace {

void countUses(const ir::Block &block, std::vector<int> &uses) {
  for (const auto &op : block.ops) {
    for (const ir::Value *v : op->operands)
      ++uses[v->id];
    for (const auto &region : op->regions)
      countUses(*region, uses);
  }
}

void countReads(const std::vector<npu::Instruction> &body, const std::vector<int> &storageRoot,
                std::vector<int> &reads) {
  for (const npu::Instruction &instruction : body) {
    for (int t : tilesRead(instruction))
      ++reads.at(storageRoot.at(t));
    countReads(instruction.body, storageRoot, reads);
    countReads(instruction.elseBody, storageRoot, reads);
  }
}

/// A vector or cross-lane instruction that only writes tiles: removable when
/// nothing reads their bytes.
bool onlyWritesTiles(const npu::Instruction &instruction) {
  const npu::Unit unit = npu::unitOf(instruction.opcode);
  return (unit == npu::Unit::Vector || unit == npu::Unit::CrossLane) && !instruction.dsts.empty() &&
         instruction.dstReg < 0 && instruction.body.empty() && instruction.elseBody.empty();
}

bool removeUnread(std::vector<npu::Instruction> &body, const std::vector<int> &storageRoot,
                  std::vector<int> &reads) {
  bool removed = false;
  for (auto it = body.end(); it != body.begin();) {
    --it;
    removed |= removeUnread(it->body, storageRoot, reads) | removeUnread(it->elseBody, storageRoot, reads);
    if (!onlyWritesTiles(*it) ||
        std::any_of(it->dsts.begin(), it->dsts.end(), [&](int t) { return reads.at(storageRoot.at(t)) > 0; }))
      continue;
    for (int t : tilesRead(*it))
      --reads.at(storageRoot.at(t));
    it = body.erase(it);
    removed = true;
  }
  return removed;
}

/// Drops computation whose results nothing reads: a tile materialised for a
/// form that a later op replaced (the block-wide index of a periodic gather).
/// Repeated until nothing changes, since removing a reader can leave its
/// sources unread.
void removeDeadComputation(std::vector<npu::Instruction> &body, const std::vector<int> &storageRoot,
                           size_t tiles) {
  std::vector<int> reads(tiles, 0);
  countReads(body, storageRoot, reads);
  while (removeUnread(body, storageRoot, reads)) {
  }
}

} // namespace

Lowering::Lowering(const ir::Function &function, const config::HardwareConfig &machine)
    : cx(function, machine), compute(cx), memory(cx), reduce(cx), dot(cx),
      control(cx, [this](const ir::Block &block) { lowerBlock(block); }) {}

npu::Program Lowering::run(TileStorage &storage) {
  npu::Program program;
  program.kernelName = cx.function.name();
  program.lanes = cx.machine.lanes;
  program.compiledForGrid = cx.function.programs();
  program.spadBytesPerLane = cx.machine.spadBytesPerLane();
  cx.out = &program.body;
  for (size_t i = 0; i < cx.function.parameters().size(); ++i) {
    const ir::Parameter &parameter = cx.function.parameters()[i];
    program.arguments.push_back(
        npu::Argument{parameter.name, parameter.type.isPointer, parameter.type.dtype});
    ValueState &st = cx.state(parameter.value);
    st.kind = ValueState::Kind::Scalar;
    if (parameter.type.isPointer) {
      st.argument = static_cast<int>(i);
      st.scalar = cx.immediate(DType::Int64, 0);
      continue;
    }
    const int reg = cx.newRegister(parameter.type.dtype, parameter.name);
    npu::Instruction &load = cx.emit(npu::Opcode::SArgument);
    load.dstReg = reg;
    load.argument = static_cast<int>(i);
    st.scalar = Scalar{ScalarOperand::ofRegister(reg), parameter.type.dtype};
  }
  cx.uses.assign(cx.function.numValues(), 0);
  countUses(cx.function.body(), cx.uses);
  lowerBlock(cx.function.body());
  removeDeadComputation(program.body, cx.storageRoot, cx.tiles.size());
  program.scalarRegs = cx.registers;
  program.tiles = cx.tiles;
  storage.root = cx.storageRoot;
  storage.offset = cx.storageOffset;
  return program;
}

void Lowering::lowerBlock(const ir::Block &block) {
  const ir::Block *saved = cx.currentBlock;
  cx.currentBlock = &block;
  for (const auto &op : block.ops)
    lowerOp(*op);
  cx.currentBlock = saved;
}

// The pipeline's `cse` pass has removed the ops that TileIR shows equal. This
// finds those whose operands are different TileIR values that the lowering
// holds as one (an equal op reused here, x + 0 on a lazy uniform tile, an add
// fused into a matmul): operands are compared by the value whose state they
// share. Without it, 47 of the 518 corpus programs get more instructions
// (docs/compiler.md, "Common subexpressions").
bool Lowering::reuseEqualOp(const ir::Op &op) {
  if (!transform::isPureOp(op))
    return false;
  const std::string key = transform::equalityKey(op, [this](const ir::Value *v) { return cx.idOf(v); });
  auto it = cx.pureOps.find(key);
  if (it == cx.pureOps.end()) {
    cx.pureOps.emplace(key, &op);
    if (!cx.pureOpScopes.empty())
      cx.pureOpScopes.back().push_back(key);
    return false;
  }
  for (size_t i = 0; i < op.results.size(); ++i)
    cx.canonical[op.results[i]->id] = cx.idOf(it->second->results[i]);
  return true;
}

void Lowering::lowerOp(const ir::Op &op) {
  if (cx.lowered.count(&op))
    return; // done by an earlier op (an add fused into a matmul)
  if (reuseEqualOp(op))
    return;
  const ir::Op *saved = cx.currentOp;
  cx.currentOp = &op;
  switch (op.code) {
  case OpCode::Constant:
  case OpCode::ProgramId:
  case OpCode::NumPrograms:
  case OpCode::Arange: compute.lowerSource(op); break;
  case OpCode::Splat:
  case OpCode::Broadcast:
  case OpCode::ExpandDims:
  case OpCode::Reshape:
  case OpCode::Slice:
  case OpCode::Permute: compute.lowerShape(op); break;
  case OpCode::AddPtr: memory.lowerAddPtr(op); break;
  case OpCode::Load: memory.lowerLoad(op); break;
  case OpCode::Store: memory.lowerStore(op); break;
  case OpCode::AtomicRMW: memory.lowerAtomic(op); break;
  case OpCode::Reduce: reduce.lowerReduce(op); break;
  case OpCode::Scan: reduce.lowerScan(op); break;
  case OpCode::Sort: reduce.lowerSort(op); break;
  case OpCode::Dot: dot.lowerDot(op); break;
  case OpCode::For: control.lowerFor(op); break;
  case OpCode::If: control.lowerIf(op); break;
  case OpCode::Yield: break; // the owning op reads its operands
  case OpCode::Assert: control.lowerAssert(op); break;
  case OpCode::Barrier: control.lowerBarrier(); break;
  default: compute.lowerElementwise(op); break;
  }
  cx.currentOp = saved;
}

npu::Program lower(const ir::Function &function, const config::HardwareConfig &machine,
                   TileStorage &storage) {
  return Lowering(function, machine).run(storage);
}

} // namespace npusim::compiler
