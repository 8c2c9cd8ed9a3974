// The lowering driver: arguments first, then every op of the body in order,
// each dispatched to the file that lowers its kind.
#include "compiler/compiler_internal.h"
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

npu::Program Lowering::run(std::vector<int> &storageRoot) {
  npu::Program program;
  program.kernelName = function.name();
  program.lanes = machine.lanes;
  program.spadBytesPerLane = machine.spadBytesPerLane();
  out = &program.body;
  for (size_t i = 0; i < function.parameters().size(); ++i) {
    const ir::Parameter &parameter = function.parameters()[i];
    program.arguments.push_back(
        npu::Argument{parameter.name, parameter.type.isPointer, parameter.type.dtype});
    ValueState &st = state(parameter.value);
    st.kind = ValueState::Kind::Scalar;
    if (parameter.type.isPointer) {
      st.argument = static_cast<int>(i);
      st.scalar = immediate(DType::Int64, 0);
      continue;
    }
    const int reg = newRegister(parameter.type.dtype, parameter.name);
    npu::Instruction &load = emit(npu::Opcode::SArgument);
    load.dstReg = reg;
    load.argument = static_cast<int>(i);
    st.scalar = Scalar{ScalarOperand::ofRegister(reg), parameter.type.dtype};
  }
  uses.assign(function.numValues(), 0);
  countUses(function.body(), uses);
  lowerBlock(function.body());
  removeDeadComputation(program.body, s.storageRoot, s.tiles.size());
  program.scalarRegs = s.registers;
  program.tiles = s.tiles;
  storageRoot = s.storageRoot;
  return program;
}

void Lowering::lowerBlock(const ir::Block &block) {
  const ir::Block *saved = currentBlock;
  currentBlock = &block;
  for (const auto &op : block.ops)
    lowerOp(*op);
  currentBlock = saved;
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
  const std::string key = transform::equalityKey(op, [this](const ir::Value *v) { return idOf(v); });
  auto it = s.pureOps.find(key);
  if (it == s.pureOps.end()) {
    s.pureOps.emplace(key, &op);
    if (!s.pureOpScopes.empty())
      s.pureOpScopes.back().push_back(key);
    return false;
  }
  for (size_t i = 0; i < op.results.size(); ++i)
    s.canonical[op.results[i]->id] = idOf(it->second->results[i]);
  return true;
}

void Lowering::lowerOp(const ir::Op &op) {
  if (s.lowered.count(&op))
    return; // done by an earlier op (an add fused into a matmul)
  if (reuseEqualOp(op))
    return;
  const ir::Op *saved = currentOp;
  currentOp = &op;
  switch (op.code) {
  case OpCode::Constant:
  case OpCode::ProgramId:
  case OpCode::NumPrograms:
  case OpCode::Arange: lowerSource(op); break;
  case OpCode::Splat:
  case OpCode::Broadcast:
  case OpCode::ExpandDims:
  case OpCode::Reshape:
  case OpCode::Permute: lowerShape(op); break;
  case OpCode::AddPtr: lowerAddPtr(op); break;
  case OpCode::Load: lowerLoad(op); break;
  case OpCode::Store: lowerStore(op); break;
  case OpCode::AtomicRMW: lowerAtomic(op); break;
  case OpCode::Reduce: lowerReduce(op); break;
  case OpCode::Scan: lowerScan(op); break;
  case OpCode::Sort: lowerSort(op); break;
  case OpCode::Dot: lowerDot(op); break;
  case OpCode::For: lowerFor(op); break;
  case OpCode::If: lowerIf(op); break;
  case OpCode::Yield: break; // the owning op reads its operands
  case OpCode::Assert: {
    const ir::Value *cond = op.operands[0];
    if (cond->type.isScalar() && state(cond).kind == ValueState::Kind::Scalar) {
      const Scalar c = scalarOf(cond);
      emit(npu::Opcode::Assert).scalars = {c.operand};
    } else {
      const int tile = cond->type.isScalar() ? scalarTileOf(cond) : tileOf(cond, laneAxisOf(cond));
      emit(npu::Opcode::Assert).srcs = {tile};
    }
    out->back().message = op.message;
    break;
  }
  case OpCode::Barrier: emit(npu::Opcode::Barrier); break;
  default: lowerElementwise(op); break;
  }
  currentOp = saved;
}

} // namespace npusim::compiler
