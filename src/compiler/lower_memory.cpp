// Pointers, loads, stores and atomics. A pointer is (argument, element offset):
// scalar pointers keep their offset in a scalar register, pointer tiles keep
// affine offsets lazily (docs/compiler.md "DMA forms") and become strided DMA
// descriptors; any other offset is materialised as an i64 tile and used as the
// gathered form's index tile.
#include "compiler/compiler_internal.h"

namespace npusim::compiler {

using Kind = ValueState::Kind;

namespace {

bool isTrue(const ValueState &st) {
  return st.kind == Kind::Scalar ? st.scalar.isImmediateInt(1)
                                 : (st.kind == Kind::Tile && st.lazy && st.lazy->uniform() &&
                                    st.lazy->base.isImmediateInt(1));
}

} // namespace

void Lowering::lowerAddPtr(const ir::Op &op) {
  const ir::Value *p = op.operands[0];
  const ir::Value *offset = op.operands[1];
  const ir::Value *r = op.result();
  const ValueState &ps = state(p);
  if (ps.argument < 0)
    unsupported("a pointer that does not come from a pointer argument");
  state(r).argument = ps.argument;
  if (ps.kind == Kind::Scalar && state(offset).kind == Kind::Scalar) {
    state(r).kind = Kind::Scalar;
    state(r).scalar = scalarArith(npu::ElementOp::Add, widen(ps.scalar), widen(scalarOf(offset)), DType::Int64);
    return;
  }
  if (isLazy(p) && isLazy(offset)) {
    const LazyTile &a = *ps.lazy;
    const LazyTile &b = *state(offset).lazy;
    LazyTile c;
    c.base = scalarArith(npu::ElementOp::Add, widen(a.base), widen(b.base), DType::Int64);
    for (size_t i = 0; i < a.strides.size(); ++i)
      c.strides.push_back(scalarArith(npu::ElementOp::Add, widen(a.strides[i]), widen(b.strides[i]), DType::Int64));
    setLazy(r, c);
    state(r).argument = ps.argument;
    return;
  }
  const bool scalar = r->type.isScalar();
  const int axis = scalar ? 0 : laneAxisOf(r);
  const ir::Shape shape = scalar ? ir::Shape{1} : r->type.shape;
  const ValueState &os = state(offset);
  // An index tile advanced by a splat (`a_ptrs += BLOCK_K * stride`) moves
  // only the scalar base of the gathered form.
  if (!scalar && ps.kind == Kind::Tile && !ps.lazy && !ps.broadcastOf && ps.tile >= 0 && os.kind == Kind::Tile &&
      os.lazy && os.lazy->uniform()) {
    ValueState moved = ps;
    moved.gatherBase = scalarArith(npu::ElementOp::Add, widen(ps.gatherBase), widen(os.lazy->base), DType::Int64);
    state(r) = moved;
    return;
  }
  // A splat pointer plus an index tile (`in_ptr0 + x0`) needs no addition:
  // the index tile keeps its integer dtype (the DMA extends it by its
  // signedness) and the pointer's offset becomes the base.
  if (!scalar && ps.kind == Kind::Tile && ps.lazy && ps.lazy->uniform()) {
    const Scalar base = widen(ps.lazy->base);
    ValueState &st = state(r);
    st.kind = Kind::Tile;
    st.tile = tileOf(offset, axis);
    st.lazy.reset();
    st.broadcastOf = nullptr;
    st.argument = ps.argument;
    st.gatherBase = base;
    return;
  }
  int index = scalar ? scalarTileOf(offset) : tileOf(offset, axis);
  if (offset->type.dtype != DType::Int64) {
    const int wide = newTile(DType::Int64, shape, axis, nameOf(offset) + ".i64");
    npu::Instruction &cast = emit(npu::Opcode::VElementwise);
    cast.function.op = npu::ElementOp::Cast;
    cast.function.operandType = offset->type.dtype;
    cast.function.resultType = DType::Int64;
    cast.srcs = {index};
    cast.dsts = {wide};
    index = wide;
  }
  int base = scalar ? scalarTileOf(p) : tileOf(p, axis);
  if (s.tiles[base].layout.dtype != DType::Int64) {
    const int wide = newTile(DType::Int64, shape, axis, nameOf(p) + ".i64");
    npu::Instruction &cast = emit(npu::Opcode::VElementwise);
    cast.function.op = npu::ElementOp::Cast;
    cast.function.operandType = s.tiles[base].layout.dtype;
    cast.function.resultType = DType::Int64;
    cast.srcs = {base};
    cast.dsts = {wide};
    base = wide;
  }
  const int dst = newTile(DType::Int64, shape, axis, nameOf(r));
  npu::Instruction &add = emit(npu::Opcode::VElementwise);
  add.function.op = npu::ElementOp::Add;
  add.function.operandType = add.function.resultType = DType::Int64;
  add.srcs = {base, index};
  add.dsts = {dst};
  setTile(r, dst);
  state(r).argument = ps.argument;
}

npu::DmaDescriptor Lowering::dmaFor(const ir::Value *pointer, const ir::Value *mask, const ir::Shape &shape,
                                    int laneAxis) {
  const ValueState &ps = state(pointer);
  npu::DmaDescriptor dma;
  dma.argument = ps.argument;
  if (dma.argument < 0)
    unsupported("an access through a pointer that does not come from a pointer argument");
  if (ps.kind == Kind::Scalar) {
    dma.base = ps.scalar.operand;
    dma.strides.assign(shape.size(), ScalarOperand::immediate(0));
  } else if (ps.kind == Kind::Tile && ps.lazy) {
    dma.base = ps.lazy->base.operand;
    for (const Scalar &stride : ps.lazy->strides)
      dma.strides.push_back(stride.operand);
  } else if (ps.kind == Kind::Tile && ps.tile >= 0 && !ps.broadcastOf) {
    dma.base = ps.gatherBase.operand;
    dma.indexTile = ps.tile; // any layout: only the shape must match
  } else {
    // Index and mask tiles only need the data tile's shape: any layout will do.
    dma.base = ScalarOperand::immediate(0);
    dma.indexTile = pointer->type.isScalar() ? scalarTileOf(pointer) : anyTileOf(pointer, laneAxis);
  }
  if (mask && !isTrue(state(mask)))
    dma.maskTile = mask->type.isScalar() ? scalarTileOf(mask) : anyTileOf(mask, laneAxis);
  return dma;
}

void Lowering::lowerLoad(const ir::Op &op) {
  const ir::Value *pointer = op.operands[0];
  const ir::Value *mask = op.operands.size() > 1 ? op.operands[1] : nullptr;
  const ir::Value *other = op.operands.size() > 2 ? op.operands[2] : nullptr;
  const ir::Value *r = op.result();
  const DType type = r->type.dtype;
  const Scalar zero{core::isFloat(type) ? ScalarOperand::immediateFloat(0.0) : ScalarOperand::immediate(0), type};

  if (r->type.isScalar() && state(pointer).kind == Kind::Scalar &&
      (!mask || state(mask).kind == Kind::Scalar) && (!other || state(other).kind == Kind::Scalar)) {
    const int reg = newRegister(type, nameOf(r));
    auto sload = [&](std::vector<npu::Instruction> &into) {
      npu::Instruction instruction;
      instruction.opcode = npu::Opcode::SLoad;
      instruction.loc = op.loc;
      instruction.dstReg = reg;
      instruction.argument = state(pointer).argument;
      instruction.scalars = {state(pointer).scalar.operand};
      into.push_back(std::move(instruction));
    };
    if (!mask || isTrue(state(mask))) {
      sload(*out);
    } else {
      const Scalar fill = other ? scalarOf(other) : zero;
      npu::Instruction &branch = emit(npu::Opcode::If);
      branch.scalars = {scalarOf(mask).operand};
      sload(branch.body);
      npu::Instruction move;
      move.opcode = npu::Opcode::SMove;
      move.loc = op.loc;
      move.dstReg = reg;
      move.scalars = {fill.operand};
      branch.elseBody.push_back(std::move(move));
    }
    setScalar(r, Scalar{ScalarOperand::ofRegister(reg), type});
    return;
  }

  const bool scalar = r->type.isScalar();
  const int axis = scalar ? 0 : laneAxisOf(r);
  const ir::Shape shape = scalar ? ir::Shape{1} : r->type.shape;
  npu::DmaDescriptor dma = dmaFor(pointer, mask, shape, axis);
  bool selectOther = false;
  if (other && dma.maskTile >= 0) {
    const ValueState &os = state(other);
    if (os.kind == Kind::Scalar)
      dma.fill = os.scalar.operand;
    else if (os.kind == Kind::Tile && os.lazy && os.lazy->uniform())
      dma.fill = os.lazy->base.operand;
    else
      selectOther = true;
  }
  if (!other || selectOther)
    dma.fill = zero.operand;
  const int dst = newTile(type, shape, axis, nameOf(r));
  npu::Instruction &load = emit(npu::Opcode::DmaLoad);
  load.dma = dma;
  load.dsts = {dst};
  int result = dst;
  if (selectOther) {
    const int otherTile = scalar ? scalarTileOf(other) : tileOf(other, axis);
    result = newTile(type, shape, axis, nameOf(r));
    const int maskTile = scalar ? dma.maskTile : tileOf(mask, axis);
    npu::Instruction &select = emit(npu::Opcode::VElementwise);
    select.function.op = npu::ElementOp::Select;
    select.function.operandType = select.function.resultType = type;
    select.srcs = {maskTile, dst, otherTile};
    select.dsts = {result};
  }
  setTile(r, result);
}

void Lowering::lowerStore(const ir::Op &op) {
  const ir::Value *pointer = op.operands[0];
  const ir::Value *value = op.operands[1];
  const ir::Value *mask = op.operands.size() > 2 ? op.operands[2] : nullptr;
  if (pointer->type.isScalar() && state(pointer).kind == Kind::Scalar && state(value).kind == Kind::Scalar &&
      (!mask || state(mask).kind == Kind::Scalar)) {
    npu::Instruction store;
    store.opcode = npu::Opcode::SStore;
    store.loc = op.loc;
    store.argument = state(pointer).argument;
    store.scalars = {state(pointer).scalar.operand, scalarOf(value).operand};
    if (state(pointer).argument < 0)
      unsupported("a store through a pointer that does not come from a pointer argument");
    if (!mask || isTrue(state(mask))) {
      out->push_back(std::move(store));
    } else {
      npu::Instruction &branch = emit(npu::Opcode::If);
      branch.scalars = {scalarOf(mask).operand};
      branch.body.push_back(std::move(store));
    }
    return;
  }
  const bool scalar = pointer->type.isScalar();
  const int axis = scalar ? 0 : laneAxisOf(value);
  const ir::Shape shape = scalar ? ir::Shape{1} : pointer->type.shape;
  const int data = scalar ? scalarTileOf(value) : tileOf(value, axis);
  npu::DmaDescriptor dma = dmaFor(pointer, mask, shape, axis);
  npu::Instruction &store = emit(npu::Opcode::DmaStore);
  store.dma = dma;
  store.srcs = {data};
}

void Lowering::lowerAtomic(const ir::Op &op) {
  const ir::Value *pointer = op.operands[0];
  const ir::Value *value = op.operands[1];
  const ir::Value *mask = op.operands.size() > 2 ? op.operands[2] : nullptr;
  const ir::Value *r = op.result();
  const bool scalar = pointer->type.isScalar();
  const int axis = scalar ? 0 : laneAxisOf(r);
  const ir::Shape shape = scalar ? ir::Shape{1} : pointer->type.shape;
  const int data = scalar ? scalarTileOf(value) : tileOf(value, axis);
  npu::DmaDescriptor dma = dmaFor(pointer, mask, shape, axis);
  dma.atomic = op.atomicKind;
  dma.fill = core::isFloat(r->type.dtype) ? ScalarOperand::immediateFloat(0.0) : ScalarOperand::immediate(0);
  const int old = newTile(r->type.dtype, shape, axis, nameOf(r));
  npu::Instruction &atomic = emit(npu::Opcode::DmaAtomic);
  atomic.dma = dma;
  atomic.srcs = {data};
  atomic.dsts = {old};
  setTile(r, old);
}

} // namespace npusim::compiler
