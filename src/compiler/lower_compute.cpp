// Sources, shape changes and elementwise ops. Integer tiles built from arange,
// splat, broadcast, expand_dims and add/sub/mul by a splat stay lazy (affine in
// the element index, docs/compiler.md "Lazy tiles") so that pointer
// arithmetic on them becomes strided DMA; everything else runs on the vector
// unit in the layout the layout pass chose, or on the scalar unit for scalars.
#include "compiler/lowering_internal.h"
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

void ComputeLowerer::lowerSource(const ir::Op &op) {
  const ir::Value *r = op.result();
  switch (op.code) {
  case OpCode::Constant: {
    Scalar x{core::isFloat(r->type.dtype) ? ScalarOperand::immediateFloat(op.constant.floatValue)
                                          : ScalarOperand::immediate(op.constant.intValue),
             r->type.dtype};
    if (r->type.dtype == DType::Bool)
      x.operand = ScalarOperand::immediate(op.constant.intValue != 0 ? 1 : 0);
    if (r->type.isScalar())
      cx.setScalar(r, x);
    else
      cx.setLazy(r, uniformLazy(x, r->type.rank()));
    return;
  }
  case OpCode::ProgramId:
  case OpCode::NumPrograms: {
    const int reg = cx.newRegister(DType::Int32, op.code == OpCode::ProgramId ? "pid" : "nprog");
    npu::Instruction &instruction =
        cx.emit(op.code == OpCode::ProgramId ? npu::Opcode::SProgramId : npu::Opcode::SNumPrograms);
    instruction.dstReg = reg;
    instruction.axis = op.axis;
    cx.setScalar(r, Scalar{ScalarOperand::ofRegister(reg), DType::Int32});
    return;
  }
  case OpCode::Arange: {
    LazyTile lazy;
    lazy.base = cx.immediate(DType::Int64, op.start);
    lazy.strides = {cx.immediate(DType::Int64, 1)};
    cx.setLazy(r, lazy);
    return;
  }
  default: cx.unsupported(std::string(ir::name(op.code)));
  }
}

void ComputeLowerer::lowerShape(const ir::Op &op) {
  const ir::Value *x = op.operands[0];
  const ir::Value *r = op.result();
  const ValueState &in = cx.state(x);
  cx.state(r).argument = in.argument;
  const ir::Shape &to = r->type.shape;
  const int rank = r->type.rank();

  if (in.kind == Kind::Scalar) { // splat or expand_dims of a scalar
    LazyTile lazy = uniformLazy(in.scalar, rank);
    cx.setLazy(r, lazy);
    return;
  }
  if (in.kind == Kind::ScalarTile) {
    const int ones =
        cx.aliasTile(in.tile, ir::Shape(static_cast<size_t>(rank), 1), cx.laneAxisOf(r), cx.nameOf(r));
    if (ir::numElements(to) == 1)
      cx.setTile(r, ones);
    else
      cx.setTile(r, cx.broadcastTile(ones, to, cx.laneAxisOf(r), cx.nameOf(r)));
    return;
  }
  const ir::Shape &from = x->type.shape;
  if (in.lazy) {
    LazyTile lazy;
    lazy.base = in.lazy->base;
    const auto &strides = in.lazy->strides;
    const Scalar zero = cx.immediate(DType::Int64, 0);
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
    case OpCode::Slice: // element i of the window is element start + i of the operand
      lazy.strides = strides;
      lazy.base = cx.scalarArith(npu::ElementOp::Add, lazy.base,
                                 cx.scalarArith(npu::ElementOp::Mul, strides[op.axis],
                                                cx.immediate(DType::Int64, op.start), DType::Int64),
                                 DType::Int64);
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
      const int tile = cx.tileOf(x, cx.laneAxisOf(x));
      const int dst = cx.newTile(cx.tiles[tile].layout.dtype, to, cx.laneAxisOf(r), cx.nameOf(r));
      npu::Instruction &move = cx.emit(npu::Opcode::XRelayout);
      move.srcs = {tile};
      move.dsts = {dst};
      cx.setTile(r, dst);
      return;
    }
    default: cx.unsupported(std::string(ir::name(op.code)) + " of this operand");
    }
    cx.setLazy(r, lazy);
    return;
  }
  const int want = cx.laneAxisOf(r);
  switch (op.code) {
  case OpCode::Broadcast: {
    // Done when a user asks for the value, in the layout that user wants, so
    // the large result never needs a relayout.
    ValueState &st = cx.state(r);
    st.kind = Kind::Tile;
    st.tile = -1;
    st.lazy.reset();
    st.broadcastOf = x;
    return;
  }
  case OpCode::ExpandDims: {
    const int source = cx.tileOf(x, cx.laneAxisOf(x));
    const int sourceAxis = cx.tiles[source].layout.laneAxis;
    cx.setTile(r,
               cx.aliasTile(source, to, sourceAxis >= op.axis ? sourceAxis + 1 : sourceAxis, cx.nameOf(r)));
    return;
  }
  case OpCode::Reshape: {
    const int source = cx.tileOf(x, cx.laneAxisOf(x));
    const int axis =
        transform::sameMappingLaneAxis(from, cx.tiles[source].layout.laneAxis, to, want, cx.machine.lanes);
    if (axis >= 0) {
      cx.setTile(r, cx.aliasTile(source, to, axis, cx.nameOf(r)));
      return;
    }
    const int dst = cx.newTile(cx.tiles[source].layout.dtype, to, want, cx.nameOf(r));
    npu::Instruction &move = cx.emit(npu::Opcode::XRelayout);
    move.srcs = {source};
    move.dsts = {dst};
    cx.setTile(r, dst);
    return;
  }
  case OpCode::Permute: {
    const int source = cx.tileOf(x, cx.laneAxisOf(x));
    const int sourceAxis = cx.tiles[source].layout.laneAxis;
    std::vector<int> others;
    int position = -1;
    for (int a = 0; a < rank; ++a) {
      if (op.order[a] == sourceAxis)
        position = a;
      else
        others.push_back(op.order[a]);
    }
    if (!std::is_sorted(others.begin(), others.end()))
      cx.unsupported("a permute that reorders the axes within each lane");
    cx.setTile(r, cx.aliasTile(source, to, position, cx.nameOf(r)));
    return;
  }
  case OpCode::Slice: {
    // A window of the operand's bytes (docs/compiler.md, "Slices"): with the
    // lane axis in one lane group, slot = row-major index over the other axes,
    // so a window of an axis that only size-1 axes precede is a slot range;
    // a window of the lane axis from a whole lane group on is the slots of
    // those groups.
    // The layout the operand is held in when it allows that (a window of a
    // window), else the layout pass's, else the first that does (a relayout).
    auto windowAt = [&](int laneAxis) -> std::optional<int64_t> { // slots past the start, if a window
      if (op.axis == laneAxis) {
        // Lane group g of the lane axis is the slots [g rest, (g + 1) rest):
        // a window from a whole lane group on is those slots on.
        if (op.start % cx.machine.lanes != 0)
          return std::nullopt;
        int64_t rest = 1;
        for (int a = 0; a < rank; ++a)
          if (a != laneAxis)
            rest *= from[static_cast<size_t>(a)];
        return op.start / cx.machine.lanes * rest;
      }
      if (from[static_cast<size_t>(laneAxis)] > cx.machine.lanes)
        return std::nullopt;
      int64_t inner = 1;
      for (int a = 0; a < rank; ++a) {
        if (a == laneAxis)
          continue;
        if (a < op.axis && from[static_cast<size_t>(a)] != 1)
          return std::nullopt;
        if (a > op.axis)
          inner *= from[static_cast<size_t>(a)];
      }
      return op.start * inner;
    };
    int laneAxis = cx.tiles[cx.anyTileOf(x, cx.laneAxisOf(x))].layout.laneAxis;
    std::optional<int64_t> slots = windowAt(laneAxis);
    if (!slots && (slots = windowAt(cx.laneAxisOf(x))))
      laneAxis = cx.laneAxisOf(x);
    for (int a = rank - 1; a >= 0 && !slots; --a)
      if ((slots = windowAt(a)))
        laneAxis = a;
    if (!slots)
      cx.unsupported("a slice of " + r->type.str() + " from " + x->type.str() +
                     ": no layout makes it a window of the operand's bytes (a window of the lane axis must "
                     "start at a multiple of the lanes; for another axis the lane axis must fit the lanes, and "
                     "only size-1 axes may precede the sliced one)");
    const int source = cx.tileOf(x, laneAxis);
    const npu::TileLayout &layout = cx.tiles[source].layout;
    cx.setTile(
        r, cx.windowTile(source, to, layout.laneAxis, *slots * core::byteSize(layout.dtype), cx.nameOf(r)));
    return;
  }
  default: cx.unsupported(std::string(ir::name(op.code)));
  }
}

bool ComputeLowerer::lowerLazyArithmetic(const ir::Op &op) {
  const ir::Value *r = op.result();
  for (const ir::Value *operand : op.operands)
    if (!cx.isLazy(operand))
      return false;
  const bool allUniform = std::all_of(op.operands.begin(), op.operands.end(),
                                      [&](const ir::Value *v) { return cx.state(v).lazy->uniform(); });
  if (allUniform && !r->type.isPointer && !op.operands[0]->type.isPointer) {
    std::vector<Scalar> bases;
    for (const ir::Value *operand : op.operands)
      bases.push_back(cx.state(operand).lazy->base);
    const npu::ElementFunction fn = cx.elementFunction(op);
    Scalar x;
    if (fn.op == npu::ElementOp::Add || fn.op == npu::ElementOp::Sub || fn.op == npu::ElementOp::Mul)
      x = cx.scalarArith(fn.op, bases[0], bases[1], fn.operandType);
    else
      x = cx.scalarOp(fn, bases, cx.nameOf(r));
    cx.setLazy(r, uniformLazy(x, r->type.rank()));
    return true;
  }
  const DType type = r->type.dtype;
  if (r->type.isPointer || !core::isInteger(type) || type == DType::Bool)
    return false;
  const LazyTile &a = *cx.state(op.operands[0]).lazy;
  if (op.code == OpCode::Cast && core::isInteger(op.operands[0]->type.dtype) &&
      op.operands[0]->type.dtype != DType::Bool) {
    // The lazy form holds the exact 64-bit value; a widening cast must see it
    // wrapped to the narrower source type, so that source is materialised,
    // unless it is an arange, whose values are its own bounds' and never wrap
    // (widen-index-casts leaves casts of aranges at an index's leaves).
    const ir::Op *source = op.operands[0]->definingOp;
    if (core::byteSize(type) > core::byteSize(op.operands[0]->type.dtype) &&
        !(source && source->code == OpCode::Arange))
      return false;
    cx.setLazy(r, a);
    return true;
  }
  if (op.operands.size() != 2)
    return false;
  const LazyTile &b = *cx.state(op.operands[1]).lazy;
  LazyTile c;
  if (op.code == OpCode::Add || op.code == OpCode::Sub) {
    const npu::ElementOp e = op.code == OpCode::Add ? npu::ElementOp::Add : npu::ElementOp::Sub;
    c.base = cx.scalarArith(e, cx.widen(a.base), cx.widen(b.base), DType::Int64);
    for (size_t i = 0; i < a.strides.size(); ++i)
      c.strides.push_back(cx.scalarArith(e, a.strides[i], b.strides[i], DType::Int64));
  } else if (op.code == OpCode::Mul && (a.uniform() || b.uniform())) {
    const LazyTile &scale = a.uniform() ? a : b;
    const LazyTile &affine = a.uniform() ? b : a;
    const Scalar k = cx.widen(scale.base);
    c.base = cx.scalarArith(npu::ElementOp::Mul, cx.widen(affine.base), k, DType::Int64);
    for (const Scalar &stride : affine.strides)
      c.strides.push_back(cx.scalarArith(npu::ElementOp::Mul, stride, k, DType::Int64));
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
    const int64_t multiple = knownMultiple(*cx.out, a.base.operand);
    if (multiple <= 0 || span >= std::gcd(multiple, divisor))
      return false;
    const npu::ElementOp e = op.code == OpCode::Rem ? npu::ElementOp::Rem : npu::ElementOp::Div;
    npu::ElementFunction fn;
    fn.op = e;
    fn.operandType = fn.resultType = DType::Int64;
    c.base = a.base.isImmediate()
                 ? cx.immediate(DType::Int64, e == npu::ElementOp::Rem ? a.base.operand.intValue % divisor
                                                                       : a.base.operand.intValue / divisor)
                 : cx.scalarOp(fn, {cx.widen(a.base), cx.immediate(DType::Int64, divisor)}, cx.nameOf(r));
    for (const Scalar &stride : a.strides)
      c.strides.push_back(e == npu::ElementOp::Rem ? stride : cx.immediate(DType::Int64, 0));
  } else {
    return false;
  }
  cx.setLazy(r, c);
  return true;
}

void ComputeLowerer::lowerElementwise(const ir::Op &op) {
  const ir::Value *r = op.result();
  npu::ElementFunction fn = cx.elementFunction(op);
  const bool pointerResult = r->type.isPointer;
  if (pointerResult) {
    // select and bitcast of pointers: one argument, offsets combined.
    const ir::Value *first = op.code == OpCode::Select ? op.operands[1] : op.operands[0];
    cx.state(r).argument = cx.state(first).argument;
    if (op.code == OpCode::Select && cx.state(op.operands[2]).argument != cx.state(first).argument)
      cx.unsupported("a select between pointers into different arguments");
    if (op.code == OpCode::Bitcast) {
      if (!op.operands[0]->type.isPointer)
        cx.unsupported("a bitcast of an integer to a pointer");
      if (core::byteSize(op.operands[0]->type.dtype) != core::byteSize(r->type.dtype))
        cx.unsupported("a pointer bitcast between element types of different sizes");
      cx.state(r) = cx.state(op.operands[0]);
      return;
    }
  } else if (op.code == OpCode::Bitcast && op.operands[0]->type.isPointer) {
    cx.unsupported("a bitcast of a pointer to an integer");
  }

  const bool allScalar = std::all_of(op.operands.begin(), op.operands.end(),
                                     [&](const ir::Value *v) { return cx.state(v).kind == Kind::Scalar; });
  if (r->type.isScalar() && allScalar) {
    std::vector<Scalar> operands;
    for (const ir::Value *v : op.operands)
      operands.push_back(cx.scalarOf(v));
    if ((fn.op == npu::ElementOp::Add || fn.op == npu::ElementOp::Sub || fn.op == npu::ElementOp::Mul) &&
        operands[0].type == operands[1].type)
      cx.setScalar(r, cx.scalarArith(fn.op, operands[0], operands[1], fn.resultType));
    else
      cx.setScalar(r, cx.scalarOp(fn, operands, cx.nameOf(r)));
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
      const ValueState &st = cx.state(v);
      return st.kind == Kind::Tile && st.lazy && st.lazy->uniform() && st.lazy->base.isImmediateInt(identity);
    };
    const ir::Value *kept = isIdentity(op.operands[1])                               ? op.operands[0]
                            : (op.code != OpCode::Sub && isIdentity(op.operands[0])) ? op.operands[1]
                                                                                     : nullptr;
    if (kept && kept->type == r->type) {
      cx.canonical[r->id] = cx.idOf(kept);
      return;
    }
  }

  const int axis = r->type.isScalar() ? 0 : cx.laneAxisOf(r);
  npu::Instruction instruction;
  instruction.opcode = npu::Opcode::VElementwise;
  for (const ir::Value *v : op.operands)
    instruction.srcs.push_back(r->type.isScalar() ? cx.scalarTileOf(v) : cx.tileOf(v, axis));
  const ir::Shape shape = r->type.isScalar() ? ir::Shape{1} : r->type.shape;
  const int dst = cx.newTile(fn.resultType, shape, axis, cx.nameOf(r));
  npu::Instruction &emitted = cx.emit(npu::Opcode::VElementwise);
  emitted.srcs = instruction.srcs;
  emitted.dsts = {dst};
  emitted.function = fn;
  cx.setTile(r, dst);
}

} // namespace npusim::compiler
