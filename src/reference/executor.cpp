#include "reference/executor.h"

#include <algorithm>
#include <string>

namespace npusim::reference {

using ir::OpCode;

Executor::Executor(const ir::Function &function, const Analysis &analysis, const Grid &grid,
                   std::vector<Argument> &arguments, const LaunchOptions &options)
    : function_(function), analysis_(analysis), options_(options),
      tiles_(static_cast<size_t>(function.numValues())) {
  numPrograms_[0] = grid.x;
  numPrograms_[1] = grid.y;
  numPrograms_[2] = grid.z;
  const auto &params = function.parameters();
  memory_.reset(params.size());
  for (size_t i = 0; i < params.size(); ++i) {
    const ir::Type &t = params[i].type;
    Tile &slot = def(params[i].value);
    const Argument &arg = arguments[i];
    if (t.isPointer) {
      memory_.bind(i, arg.buffer);
      slot.i()[0] = memory_.pointer(i, arg.elementOffset * core::byteSize(t.dtype));
    } else if (core::isFloat(t.dtype)) {
      slot.f()[0] = roundFloatTo(t.dtype, arg.scalar.floatValue);
    } else if (t.dtype == DType::Bool) {
      slot.i()[0] = arg.scalar.intValue != 0 ? 1 : 0;
    } else {
      slot.i()[0] = wrapIntTo(t.dtype, static_cast<uint64_t>(arg.scalar.intValue));
    }
  }
}

void Executor::runProgram(int64_t x, int64_t y, int64_t z) {
  divisionOrigins_.clear();
  programId_[0] = x;
  programId_[1] = y;
  programId_[2] = z;
  ++stats_.programs;
  runBlock(function_.body());
}

std::string Executor::context(const ir::Op &op) const {
  std::string loc = op.loc.str();
  if (loc.empty())
    loc = "<unknown location>";
  return "kernel '" + function_.name() + "', program (" + std::to_string(programId_[0]) + ", " +
         std::to_string(programId_[1]) + ", " + std::to_string(programId_[2]) + "), at " + loc + ": ";
}

const ir::Op *Executor::runBlock(const ir::Block &block) {
  for (const auto &owned : block.ops) {
    const ir::Op &op = *owned;
    if (op.code == OpCode::Yield)
      return &op;
    try {
      execute(op);
    } catch (const Fault &fault) {
      throw core::RuntimeError(context(op) + fault.what());
    }
  }
  return nullptr;
}

void Executor::execute(const ir::Op &op) {
  ++stats_.opsExecuted;
  const ir::Value *res = op.results.empty() ? nullptr : op.results[0];
  bool poisonIn = false;
  for (const ir::Value *v : op.operands)
    poisonIn = poisonIn || tiles_[static_cast<size_t>(v->id)].poisoned();
  if (poisonIn)
    checkPoisonUse(op);
  switch (op.code) {
  case OpCode::Constant: {
    Tile &r = def(res);
    fillConstant(res->type, op.constant, r, r.size());
    break;
  }
  case OpCode::ProgramId:
  case OpCode::NumPrograms: {
    Tile &r = def(res);
    const int64_t v = (op.code == OpCode::ProgramId ? programId_ : numPrograms_)[op.axis];
    const int64_t wrapped = wrapIntTo(res->type.dtype, static_cast<uint64_t>(v));
    std::fill(r.i(), r.i() + r.size(), wrapped);
    break;
  }
  case OpCode::Arange: {
    Tile &r = def(res);
    int64_t *out = r.i();
    const uint64_t start = static_cast<uint64_t>(op.start);
    const int64_t n = r.size();
    visitInt(res->type.dtype, [&](auto tag) {
      for (int64_t k = 0; k < n; ++k)
        out[k] = wrapInt<decltype(tag)::value>(start + static_cast<uint64_t>(k));
    });
    break;
  }
  case OpCode::Splat: {
    Tile &r = def(res);
    splatOp(in(op, 0), r, r.size());
    break;
  }
  case OpCode::Broadcast:
    broadcastOp(in(op, 0), op.operands[0]->type.shape, res->type.shape, def(res));
    break;
  case OpCode::ExpandDims:
  case OpCode::Reshape:
    tile(res).copyFrom(in(op, 0)); // row-major order is unchanged
    break;
  case OpCode::Permute: permuteOp(in(op, 0), op.operands[0]->type.shape, op.order, def(res)); break;
  case OpCode::Slice:
    sliceOp(in(op, 0), op.operands[0]->type.shape, op.axis, op.start, res->type.shape, def(res));
    break;
  case OpCode::Cast: {
    Tile &r = def(res);
    castOp(op.operands[0]->type.dtype, res->type.dtype, in(op, 0), r, r.size());
    break;
  }
  case OpCode::Bitcast: {
    Tile &r = def(res);
    bitcastOp(op.operands[0]->type, res->type, in(op, 0), r, r.size());
    break;
  }
  case OpCode::Math: {
    mathOperands_.clear();
    for (size_t i = 0; i < op.operands.size(); ++i)
      mathOperands_.push_back(&in(op, i));
    Tile &r = def(res);
    mathOp(op.mathFn, op.operands[0]->type.dtype, mathOperands_, r, r.size());
    break;
  }
  case OpCode::AddPtr: {
    Tile &r = def(res);
    memory_.addPtr(res->type.dtype, op.operands[1]->type.dtype, in(op, 0), in(op, 1), r, r.size());
    break;
  }
  case OpCode::Cmp: {
    Tile &r = def(res);
    compareOp(op.predicate, op.operands[0]->type, in(op, 0), in(op, 1), r, r.size());
    break;
  }
  case OpCode::Select: {
    Tile &r = def(res);
    selectOp(in(op, 0), in(op, 1), in(op, 2), r, r.size());
    break;
  }
  case OpCode::Load: {
    Tile &r = def(res);
    const size_t n = op.operands.size();
    memory_.load(res->type.dtype, in(op, 0), n > 1 ? &in(op, 1) : nullptr, n > 2 ? &in(op, 2) : nullptr, r,
                 r.size());
    break;
  }
  case OpCode::Store:
    memory_.store(op.operands[0]->type.dtype, in(op, 0), in(op, 1),
                  op.operands.size() > 2 ? &in(op, 2) : nullptr, count(op.operands[0]));
    break;
  case OpCode::AtomicRMW: {
    Tile &r = def(res);
    memory_.atomic(op.atomicKind, res->type.dtype, in(op, 0), in(op, 1),
                   op.operands.size() > 2 ? &in(op, 2) : nullptr, r, r.size());
    break;
  }
  case OpCode::Reduce: runReduce(op); break;
  case OpCode::Scan: runScan(op); break;
  case OpCode::Sort: {
    const ir::Type &keys = op.operands[0]->type;
    Tile &rk = def(op.results[0]);
    Tile *rv = op.results.size() > 1 ? &def(op.results[1]) : nullptr;
    sortOp(keys.dtype, in(op, 0), op.operands.size() > 1 ? &in(op, 1) : nullptr,
           op.operands.size() > 2 ? &in(op, 2) : nullptr, rk, rv, splitAxis(keys.shape, op.axis),
           op.descending, op.stable);
    break;
  }
  case OpCode::Dot:
    dotOp(op.operands[0]->type, op.operands[1]->type, op.operands[2]->type, op.inputPrecision, in(op, 0),
          in(op, 1), in(op, 2), def(res), dotScratch_);
    break;
  case OpCode::For: runFor(op); break;
  case OpCode::If: runIf(op); break;
  case OpCode::Assert: runAssert(op); break;
  case OpCode::Yield:
  case OpCode::Barrier: break;
  default: {
    // Elementwise arithmetic (ir::opTraits(code).arithmetic): Add..Max, Neg, Not, Abs.
    Tile &r = def(res);
    if (ir::opTraits(op.code).maxOperands == 2)
      binaryOp(op.code, op.nanMode, res->type.dtype, in(op, 0), in(op, 1), r, r.size(),
               options_.integerDivisionByZero == DivisionByZero::Error);
    else
      unaryOp(op.code, res->type.dtype, in(op, 0), r, r.size());
    break;
  }
  }
  if (poisonIn)
    propagatePoison(op);
  if ((op.code == OpCode::Div || op.code == OpCode::Rem) && !isFloatType(res->type.dtype) &&
      options_.integerDivisionByZero == DivisionByZero::ErrorWhenUsed)
    markDivisionByZero(op);
  for (const ir::Value *r : op.results)
    stats_.elementsProcessed += count(r);
}

void Executor::markDivisionByZero(const ir::Op &op) {
  const Tile &divisor = in(op, 1);
  Tile &r = tile(op.results[0]);
  uint8_t id = 0;
  const int64_t n = r.size();
  const int64_t *d = divisor.i();
  for (int64_t k = 0; k < n; ++k) {
    if (d[k] != 0)
      continue;
    if (id == 0) {
      const std::string where = op.loc.str().empty() ? "<unknown location>" : op.loc.str();
      auto found = std::find(divisionOrigins_.begin(), divisionOrigins_.end(), where);
      if (found == divisionOrigins_.end() && divisionOrigins_.size() < 255)
        found = divisionOrigins_.insert(divisionOrigins_.end(), where);
      id = found == divisionOrigins_.end() ? uint8_t{255}
                                           : static_cast<uint8_t>(found - divisionOrigins_.begin() + 1);
    }
    uint8_t &p = r.poisonForWrite()[k];
    p = std::max(p, id);
  }
}

void Executor::poisonError(const std::string &use, uint8_t id) const {
  const std::string origin = id >= 1 && id <= divisionOrigins_.size() ? divisionOrigins_[id - 1u]
                                                                      : std::string("<unknown location>");
  throw Fault("a value computed by an integer division by zero (at " + origin + ") is used as " + use);
}

void Executor::checkPoisonUse(const ir::Op &op) const {
  auto poisonAt = [&](size_t operand, int64_t k) -> uint8_t {
    const Tile &t = in(op, operand);
    return t.poisoned() ? t.poison()[k] : 0;
  };
  auto anyPoison = [&](size_t operand) -> uint8_t {
    const Tile &t = in(op, operand);
    for (int64_t k = 0; t.poisoned() && k < t.size(); ++k)
      if (t.poison()[k])
        return t.poison()[k];
    return 0;
  };
  switch (op.code) {
  case OpCode::Load:
  case OpCode::Store:
  case OpCode::AtomicRMW: {
    const size_t maskOperand = op.code == OpCode::Load ? 1 : 2;
    const bool hasMask = op.operands.size() > maskOperand;
    const std::string what = std::string(ir::name(op.code));
    if (hasMask)
      if (const uint8_t id = anyPoison(maskOperand))
        poisonError("the mask of a " + what, id);
    const int64_t n = count(op.operands[0]);
    for (int64_t k = 0; k < n; ++k) {
      if (hasMask && in(op, maskOperand).i()[k] == 0)
        continue;
      if (const uint8_t id = poisonAt(0, k))
        poisonError("the address of active element " + std::to_string(k) + " of a " + what, id);
      if (op.code != OpCode::Load)
        if (const uint8_t id = poisonAt(1, k))
          poisonError("the value of active element " + std::to_string(k) + " of a " + what, id);
    }
    return;
  }
  case OpCode::Assert:
    if (const uint8_t id = anyPoison(0))
      poisonError("the condition of an assert", id);
    return;
  case OpCode::If:
    if (const uint8_t id = anyPoison(0))
      poisonError("the condition of an if", id);
    return;
  case OpCode::For:
    for (size_t i = 0; i < 3; ++i)
      if (const uint8_t id = anyPoison(i))
        poisonError("a bound of a for loop", id);
    return;
  default: return;
  }
}

void Executor::propagatePoison(const ir::Op &op) {
  const ir::Value *res = op.results.empty() ? nullptr : op.results[0];
  if (ir::opTraits(op.code).elementwise && op.code != OpCode::Select) {
    // Poison follows the elements: any poisoned operand element poisons the result's.
    for (size_t i = 0; i < op.operands.size(); ++i)
      orPoison(in(op, i), tile(res));
    return;
  }
  switch (op.code) {
  case OpCode::Select: selectPoison(in(op, 0), in(op, 1), in(op, 2), tile(res)); return;
  case OpCode::Load:
    if (op.operands.size() > 2 && in(op, 2).poisoned()) {
      const Tile &mask = in(op, 1), &other = in(op, 2);
      Tile &r = tile(res);
      for (int64_t k = 0; k < r.size(); ++k)
        if (mask.i()[k] == 0 && other.poison()[k])
          r.poisonForWrite()[k] = 1;
    }
    return;
  case OpCode::Reduce:
  case OpCode::Scan:
  case OpCode::Sort: {
    const AxisSplit split = splitAxis(op.operands[0]->type.shape, op.axis);
    for (size_t i = 0; i < op.operands.size(); ++i)
      for (const ir::Value *r : op.results) {
        if (op.code == OpCode::Reduce)
          reducePoison(in(op, i), split, tile(r));
        else if (op.code == OpCode::Scan)
          scanPoison(in(op, i), split, op.reverse, tile(r));
        else
          linePoison(in(op, i), split, tile(r));
      }
    return;
  }
  case OpCode::Dot:
    dotPoison(op.operands[0]->type, op.operands[1]->type, in(op, 0), in(op, 1), in(op, 2), tile(res));
    return;
  default:
    // Splat, Broadcast, Permute, Slice, ExpandDims and Reshape carry poison in their
    // kernels; For and If carry it in the tiles they move; memory ops, asserts
    // and conditions were checked before running.
    return;
  }
}

} // namespace npusim::reference
