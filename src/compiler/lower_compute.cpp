// Sources, shape changes and elementwise ops. Integer tiles built from arange,
// splat, broadcast, expand_dims and add/sub/mul by a splat stay lazy (affine in
// the element index, docs/compiler.md "Lazy tiles") so that pointer
// arithmetic on them becomes strided DMA; everything else runs on the vector
// unit in the layout the layout pass chose, or on the scalar unit for scalars.
#include "compiler/compiler_internal.h"
#include "transform/transform.h"

#include <algorithm>
#include <numeric>

namespace npusim::compiler {

using ir::OpCode;
using Kind = ValueState::Kind;

namespace {

/// The instructions of `body` (nested ones included) that write `reg`.
int writesOf(const std::vector<npu::Instruction> &body, int reg, const npu::Instruction **last) {
  int count = 0;
  for (const npu::Instruction &instruction : body) {
    if (instruction.dstReg == reg) {
      ++count;
      *last = &instruction;
    }
    count += writesOf(instruction.body, reg, last) + writesOf(instruction.elseBody, reg, last);
  }
  return count;
}

} // namespace

int64_t knownMultiple(const std::vector<npu::Instruction> &body, const npu::ScalarOperand &x, int depth) {
  if (!x.isRegister())
    return x.intValue >= 0 ? x.intValue : 0;
  const npu::Instruction *def = nullptr;
  if (depth > 8 || writesOf(body, x.reg, &def) != 1)
    return 0;
  if (def->opcode == npu::Opcode::SProgramId || def->opcode == npu::Opcode::SNumPrograms)
    return 1;
  if (def->opcode != npu::Opcode::SElementwise)
    return 0;
  const npu::ElementOp op = def->function.op;
  if (op == npu::ElementOp::Cast && def->scalars.size() == 1 &&
      core::byteSize(def->function.resultType) >= core::byteSize(def->function.operandType))
    return knownMultiple(body, def->scalars[0], depth + 1);
  if ((op != npu::ElementOp::Mul && op != npu::ElementOp::Add) || def->scalars.size() != 2)
    return 0;
  const int64_t a = knownMultiple(body, def->scalars[0], depth + 1);
  const int64_t b = knownMultiple(body, def->scalars[1], depth + 1);
  if (op == npu::ElementOp::Mul)
    return a > 0 && b > 0 && a < (int64_t{1} << 30) && b < (int64_t{1} << 30) ? a * b : 0;
  // A sum of non-negatives is a multiple of their gcd (a zero addend: of the other).
  auto zero = [](const npu::ScalarOperand &v) { return !v.isRegister() && v.intValue == 0; };
  if ((a == 0 && !zero(def->scalars[0])) || (b == 0 && !zero(def->scalars[1])))
    return 0;
  return std::gcd(a, b);
}

namespace {

LazyTile uniformLazy(Scalar base, int rank) {
  LazyTile lazy;
  lazy.base = base;
  lazy.strides.assign(static_cast<size_t>(rank), Scalar{ScalarOperand::immediate(0), DType::Int64});
  return lazy;
}

} // namespace

void Lowering::lowerSource(const ir::Op &op) {
  const ir::Value *r = op.result();
  switch (op.code) {
  case OpCode::Constant: {
    Scalar x{core::isFloat(r->type.dtype) ? ScalarOperand::immediateFloat(op.constant.floatValue)
                                          : ScalarOperand::immediate(op.constant.intValue),
             r->type.dtype};
    if (r->type.dtype == DType::Bool)
      x.operand = ScalarOperand::immediate(op.constant.intValue != 0 ? 1 : 0);
    if (r->type.isScalar())
      setScalar(r, x);
    else
      setLazy(r, uniformLazy(x, r->type.rank()));
    return;
  }
  case OpCode::ProgramId:
  case OpCode::NumPrograms: {
    const int reg = newRegister(DType::Int32, op.code == OpCode::ProgramId ? "pid" : "nprog");
    npu::Instruction &instruction =
        emit(op.code == OpCode::ProgramId ? npu::Opcode::SProgramId : npu::Opcode::SNumPrograms);
    instruction.dstReg = reg;
    instruction.axis = op.axis;
    setScalar(r, Scalar{ScalarOperand::ofRegister(reg), DType::Int32});
    return;
  }
  case OpCode::Arange: {
    LazyTile lazy;
    lazy.base = immediate(DType::Int64, op.start);
    lazy.strides = {immediate(DType::Int64, 1)};
    setLazy(r, lazy);
    return;
  }
  default: unsupported(std::string(ir::name(op.code)));
  }
}

int Lowering::broadcastTile(int source, const ir::Shape &to, int laneAxis, const std::string &name) {
  const int src = relayout(source, laneAxis, name);
  const npu::TileLayout from = s.tiles.at(src).layout;
  ir::Shape middle = to;
  middle[laneAxis] = from.shape[laneAxis];
  int current = src;
  if (middle != from.shape) {
    const int dst = newTile(from.dtype, middle, laneAxis, name);
    npu::Instruction &b = emit(npu::Opcode::VBroadcast);
    b.srcs = {current};
    b.dsts = {dst};
    current = dst;
  }
  if (middle != to) {
    const int dst = newTile(from.dtype, to, laneAxis, name);
    npu::Instruction &b = emit(npu::Opcode::XBroadcast);
    b.srcs = {current};
    b.dsts = {dst};
    current = dst;
  }
  return current;
}

void Lowering::lowerShape(const ir::Op &op) {
  const ir::Value *x = op.operands[0];
  const ir::Value *r = op.result();
  const ValueState &in = state(x);
  state(r).argument = in.argument;
  const ir::Shape &to = r->type.shape;
  const int rank = r->type.rank();

  if (in.kind == Kind::Scalar) { // splat or expand_dims of a scalar
    LazyTile lazy = uniformLazy(in.scalar, rank);
    setLazy(r, lazy);
    return;
  }
  if (in.kind == Kind::ScalarTile) {
    const int ones = aliasTile(in.tile, ir::Shape(static_cast<size_t>(rank), 1), laneAxisOf(r), nameOf(r));
    if (ir::numElements(to) == 1)
      setTile(r, ones);
    else
      setTile(r, broadcastTile(ones, to, laneAxisOf(r), nameOf(r)));
    return;
  }
  const ir::Shape &from = x->type.shape;
  if (in.lazy) {
    LazyTile lazy;
    lazy.base = in.lazy->base;
    const auto &strides = in.lazy->strides;
    const Scalar zero = immediate(DType::Int64, 0);
    switch (op.code) {
    case OpCode::Broadcast:
      for (int a = 0; a < rank; ++a)
        lazy.strides.push_back(from[a] == to[a] ? strides[a] : zero);
      break;
    case OpCode::ExpandDims:
      lazy.strides = strides;
      lazy.strides.insert(lazy.strides.begin() + op.axis, zero);
      break;
    case OpCode::Permute:
      for (int a = 0; a < rank; ++a)
        lazy.strides.push_back(strides[op.order[a]]);
      break;
    case OpCode::Reshape: {
      // Only size-1 axes may come and go: the other axes keep their strides.
      std::vector<Scalar> kept;
      for (size_t a = 0; a < from.size(); ++a)
        if (from[a] != 1)
          kept.push_back(strides[a]);
      size_t next = 0;
      bool simple = true;
      for (int a = 0; a < rank; ++a) {
        if (to[a] == 1) {
          lazy.strides.push_back(zero);
        } else if (next < kept.size()) {
          lazy.strides.push_back(kept[next++]);
        } else {
          simple = false;
        }
      }
      std::vector<int64_t> bigFrom, bigTo;
      for (int64_t d : from)
        if (d != 1)
          bigFrom.push_back(d);
      for (int64_t d : to)
        if (d != 1)
          bigTo.push_back(d);
      if (simple && bigFrom == bigTo)
        break;
      if (in.lazy->uniform()) {
        lazy = uniformLazy(in.lazy->base, rank);
        break;
      }
      const int tile = tileOf(x, laneAxisOf(x));
      const int dst = newTile(s.tiles[tile].layout.dtype, to, laneAxisOf(r), nameOf(r));
      npu::Instruction &move = emit(npu::Opcode::XRelayout);
      move.srcs = {tile};
      move.dsts = {dst};
      setTile(r, dst);
      return;
    }
    default: unsupported(std::string(ir::name(op.code)) + " of this operand");
    }
    setLazy(r, lazy);
    return;
  }
  const int want = laneAxisOf(r);
  switch (op.code) {
  case OpCode::Broadcast: {
    // Done when a user asks for the value, in the layout that user wants, so
    // the large result never needs a relayout.
    ValueState &st = state(r);
    st.kind = Kind::Tile;
    st.tile = -1;
    st.lazy.reset();
    st.broadcastOf = x;
    return;
  }
  case OpCode::ExpandDims: {
    const int source = tileOf(x, laneAxisOf(x));
    const int sourceAxis = s.tiles[source].layout.laneAxis;
    setTile(r, aliasTile(source, to, sourceAxis >= op.axis ? sourceAxis + 1 : sourceAxis, nameOf(r)));
    return;
  }
  case OpCode::Reshape: {
    const int source = tileOf(x, laneAxisOf(x));
    const int axis = transform::sameMappingLaneAxis(from, s.tiles[source].layout.laneAxis, to, want, machine.lanes);
    if (axis >= 0) {
      setTile(r, aliasTile(source, to, axis, nameOf(r)));
      return;
    }
    const int dst = newTile(s.tiles[source].layout.dtype, to, want, nameOf(r));
    npu::Instruction &move = emit(npu::Opcode::XRelayout);
    move.srcs = {source};
    move.dsts = {dst};
    setTile(r, dst);
    return;
  }
  case OpCode::Permute: {
    const int source = tileOf(x, laneAxisOf(x));
    const int sourceAxis = s.tiles[source].layout.laneAxis;
    std::vector<int> others;
    int position = -1;
    for (int a = 0; a < rank; ++a) {
      if (op.order[a] == sourceAxis)
        position = a;
      else
        others.push_back(op.order[a]);
    }
    if (!std::is_sorted(others.begin(), others.end()))
      unsupported("a permute that reorders the axes within each lane");
    setTile(r, aliasTile(source, to, position, nameOf(r)));
    return;
  }
  default: unsupported(std::string(ir::name(op.code)));
  }
}

npu::ElementFunction Lowering::elementFunction(const ir::Op &op) const {
  npu::ElementFunction fn;
  const ir::Value *data = op.code == OpCode::Select ? op.operands[1] : op.operands[0];
  fn.operandType = data->type.isPointer ? DType::Int64 : data->type.dtype;
  fn.resultType = op.result()->type.isPointer ? DType::Int64 : op.result()->type.dtype;
  fn.nanMode = op.nanMode;
  fn.mathFn = op.mathFn;
  fn.predicate = op.predicate;
  switch (op.code) {
  case OpCode::Add: fn.op = npu::ElementOp::Add; break;
  case OpCode::Sub: fn.op = npu::ElementOp::Sub; break;
  case OpCode::Mul: fn.op = npu::ElementOp::Mul; break;
  case OpCode::Div: fn.op = npu::ElementOp::Div; break;
  case OpCode::Rem: fn.op = npu::ElementOp::Rem; break;
  case OpCode::And: fn.op = npu::ElementOp::And; break;
  case OpCode::Or: fn.op = npu::ElementOp::Or; break;
  case OpCode::Xor: fn.op = npu::ElementOp::Xor; break;
  case OpCode::Shl: fn.op = npu::ElementOp::Shl; break;
  case OpCode::Shr: fn.op = npu::ElementOp::Shr; break;
  case OpCode::Min: fn.op = npu::ElementOp::Min; break;
  case OpCode::Max: fn.op = npu::ElementOp::Max; break;
  case OpCode::Neg: fn.op = npu::ElementOp::Neg; break;
  case OpCode::Not: fn.op = npu::ElementOp::Not; break;
  case OpCode::Abs: fn.op = npu::ElementOp::Abs; break;
  case OpCode::Math: fn.op = npu::ElementOp::Math; break;
  case OpCode::Cmp: fn.op = npu::ElementOp::Cmp; break;
  case OpCode::Select: fn.op = npu::ElementOp::Select; break;
  case OpCode::Cast: fn.op = npu::ElementOp::Cast; break;
  case OpCode::Bitcast: fn.op = npu::ElementOp::Bitcast; break;
  default: unsupported(std::string("the op ") + std::string(ir::name(op.code)));
  }
  if (op.code == OpCode::Bitcast && (data->type.isPointer || op.result()->type.isPointer)) {
    fn.op = npu::ElementOp::Copy;
    fn.operandType = fn.resultType = DType::Int64;
  }
  return fn;
}

bool Lowering::lowerLazyArithmetic(const ir::Op &op) {
  const ir::Value *r = op.result();
  for (const ir::Value *operand : op.operands)
    if (!isLazy(operand))
      return false;
  const bool allUniform = std::all_of(op.operands.begin(), op.operands.end(),
                                      [&](const ir::Value *v) { return state(v).lazy->uniform(); });
  if (allUniform && !r->type.isPointer && !op.operands[0]->type.isPointer) {
    std::vector<Scalar> bases;
    for (const ir::Value *operand : op.operands)
      bases.push_back(state(operand).lazy->base);
    const npu::ElementFunction fn = elementFunction(op);
    Scalar x;
    if (fn.op == npu::ElementOp::Add || fn.op == npu::ElementOp::Sub || fn.op == npu::ElementOp::Mul)
      x = scalarArith(fn.op, bases[0], bases[1], fn.operandType);
    else
      x = scalarOp(fn, bases, nameOf(r));
    setLazy(r, uniformLazy(x, r->type.rank()));
    return true;
  }
  const DType type = r->type.dtype;
  if (r->type.isPointer || !core::isInteger(type) || type == DType::Bool)
    return false;
  const LazyTile &a = *state(op.operands[0]).lazy;
  if (op.code == OpCode::Cast && core::isInteger(op.operands[0]->type.dtype) &&
      op.operands[0]->type.dtype != DType::Bool) {
    // The lazy form holds the exact 64-bit value; a widening cast must see it
    // wrapped to the narrower source type, so that source is materialised.
    if (core::byteSize(type) > core::byteSize(op.operands[0]->type.dtype))
      return false;
    setLazy(r, a);
    return true;
  }
  if (op.operands.size() != 2)
    return false;
  const LazyTile &b = *state(op.operands[1]).lazy;
  LazyTile c;
  if (op.code == OpCode::Add || op.code == OpCode::Sub) {
    const npu::ElementOp e = op.code == OpCode::Add ? npu::ElementOp::Add : npu::ElementOp::Sub;
    c.base = scalarArith(e, widen(a.base), widen(b.base), DType::Int64);
    for (size_t i = 0; i < a.strides.size(); ++i)
      c.strides.push_back(scalarArith(e, a.strides[i], b.strides[i], DType::Int64));
  } else if (op.code == OpCode::Mul && (a.uniform() || b.uniform())) {
    const LazyTile &scale = a.uniform() ? a : b;
    const LazyTile &affine = a.uniform() ? b : a;
    const Scalar k = widen(scale.base);
    c.base = scalarArith(npu::ElementOp::Mul, widen(affine.base), k, DType::Int64);
    for (const Scalar &stride : affine.strides)
      c.strides.push_back(scalarArith(npu::ElementOp::Mul, stride, k, DType::Int64));
  } else if ((op.code == OpCode::Rem || op.code == OpCode::Div) && b.uniform() && b.base.isImmediate() &&
             b.base.operand.intValue > 0) {
    // A blocked index `offset + arange` divided by a constant C: when the
    // offset is a non-negative multiple of M and the tile spans fewer than
    // gcd(M, C) values, no element crosses a multiple of C, so `% C` is the
    // offset's remainder plus the same strides and `// C` the offset's quotient.
    const int64_t divisor = b.base.operand.intValue;
    int64_t span = 0;
    for (size_t i = 0; i < a.strides.size(); ++i) {
      if (!a.strides[i].isImmediate() || a.strides[i].operand.intValue < 0)
        return false;
      span += a.strides[i].operand.intValue * (r->type.shape.at(i) - 1);
    }
    const int64_t multiple = knownMultiple(*out, a.base.operand);
    if (multiple <= 0 || span >= std::gcd(multiple, divisor))
      return false;
    const npu::ElementOp e = op.code == OpCode::Rem ? npu::ElementOp::Rem : npu::ElementOp::Div;
    npu::ElementFunction fn;
    fn.op = e;
    fn.operandType = fn.resultType = DType::Int64;
    c.base = a.base.isImmediate()
                 ? immediate(DType::Int64, e == npu::ElementOp::Rem ? a.base.operand.intValue % divisor
                                                                    : a.base.operand.intValue / divisor)
                 : scalarOp(fn, {widen(a.base), immediate(DType::Int64, divisor)}, nameOf(r));
    for (const Scalar &stride : a.strides)
      c.strides.push_back(e == npu::ElementOp::Rem ? stride : immediate(DType::Int64, 0));
  } else {
    return false;
  }
  setLazy(r, c);
  return true;
}

void Lowering::lowerElementwise(const ir::Op &op) {
  const ir::Value *r = op.result();
  npu::ElementFunction fn = elementFunction(op);
  const bool pointerResult = r->type.isPointer;
  if (pointerResult) {
    // select and bitcast of pointers: one argument, offsets combined.
    const ir::Value *first = op.code == OpCode::Select ? op.operands[1] : op.operands[0];
    state(r).argument = state(first).argument;
    if (op.code == OpCode::Select && state(op.operands[2]).argument != state(first).argument)
      unsupported("a select between pointers into different arguments");
    if (op.code == OpCode::Bitcast) {
      if (!op.operands[0]->type.isPointer)
        unsupported("a bitcast of an integer to a pointer");
      if (core::byteSize(op.operands[0]->type.dtype) != core::byteSize(r->type.dtype))
        unsupported("a pointer bitcast between element types of different sizes");
      state(r) = state(op.operands[0]);
      return;
    }
  } else if (op.code == OpCode::Bitcast && op.operands[0]->type.isPointer) {
    unsupported("a bitcast of a pointer to an integer");
  }

  const bool allScalar = std::all_of(op.operands.begin(), op.operands.end(),
                                     [&](const ir::Value *v) { return state(v).kind == Kind::Scalar; });
  if (r->type.isScalar() && allScalar) {
    std::vector<Scalar> operands;
    for (const ir::Value *v : op.operands)
      operands.push_back(scalarOf(v));
    if ((fn.op == npu::ElementOp::Add || fn.op == npu::ElementOp::Sub || fn.op == npu::ElementOp::Mul) &&
        operands[0].type == operands[1].type)
      setScalar(r, scalarArith(fn.op, operands[0], operands[1], fn.resultType));
    else
      setScalar(r, scalarOp(fn, operands, nameOf(r)));
    return;
  }
  if (!r->type.isScalar() && lowerLazyArithmetic(op))
    return;
  // Integer identities: x + 0, 0 + x, x - 0, x * 1, 1 * x are x.
  if (!r->type.isPointer && core::isInteger(r->type.dtype) && r->type.dtype != DType::Bool &&
      op.operands.size() == 2 &&
      (op.code == OpCode::Add || op.code == OpCode::Sub || op.code == OpCode::Mul)) {
    const int64_t identity = op.code == OpCode::Mul ? 1 : 0;
    auto isIdentity = [&](const ir::Value *v) {
      const ValueState &st = state(v);
      return st.kind == Kind::Tile && st.lazy && st.lazy->uniform() && st.lazy->base.isImmediateInt(identity);
    };
    const ir::Value *kept = isIdentity(op.operands[1])                               ? op.operands[0]
                            : (op.code != OpCode::Sub && isIdentity(op.operands[0])) ? op.operands[1]
                                                                                     : nullptr;
    if (kept && kept->type == r->type) {
      s.canonical[r->id] = idOf(kept);
      return;
    }
  }

  const int axis = r->type.isScalar() ? 0 : laneAxisOf(r);
  npu::Instruction instruction;
  instruction.opcode = npu::Opcode::VElementwise;
  for (const ir::Value *v : op.operands)
    instruction.srcs.push_back(r->type.isScalar() ? scalarTileOf(v) : tileOf(v, axis));
  const ir::Shape shape = r->type.isScalar() ? ir::Shape{1} : r->type.shape;
  const int dst = newTile(fn.resultType, shape, axis, nameOf(r));
  npu::Instruction &emitted = emit(npu::Opcode::VElementwise);
  emitted.srcs = instruction.srcs;
  emitted.dsts = {dst};
  emitted.function = fn;
  setTile(r, dst);
}

} // namespace npusim::compiler
