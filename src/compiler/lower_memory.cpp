// Pointers, loads, stores and atomics. A pointer is (argument, element offset):
// scalar pointers keep their offset in a scalar register, pointer tiles keep
// affine offsets lazily (docs/compiler.md "DMA forms") and become strided DMA
// descriptors; any other offset is materialised as an i64 tile and used as the
// gathered form's index tile.
#include "compiler/lowering_internal.h"

#include <algorithm>
#include <numeric>

namespace npusim::compiler {

using Kind = ValueState::Kind;

namespace {

bool isTrue(const ValueState &st) {
  return st.kind == Kind::Scalar
             ? st.scalar.isImmediateInt(1)
             : (st.kind == Kind::Tile && st.lazy && st.lazy->uniform() && st.lazy->base.isImmediateInt(1));
}

/// The axis order in which a strided DMA walks DRAM in runs: the axis of unit
/// stride innermost, the others in their order (docs/compiler.md "DMA forms").
/// Empty when the tile's own order is as good: the last axis of more than one
/// element already has unit stride, or no axis has.
std::vector<int> contiguousOrder(const npu::DmaDescriptor &dma, const ir::Shape &shape) {
  const int rank = static_cast<int>(shape.size());
  if (dma.gathered() || rank < 2 || static_cast<int>(dma.strides.size()) != rank)
    return {};
  auto unitStride = [&](int a) { return !dma.strides[a].isRegister() && dma.strides[a].intValue == 1; };
  int last = -1;
  for (int a = 0; a < rank; ++a)
    if (shape[a] > 1)
      last = a;
  if (last < 0 || unitStride(last))
    return {};
  int unit = -1;
  for (int a = 0; a < rank && unit < 0; ++a)
    if (shape[a] > 1 && unitStride(a))
      unit = a;
  if (unit < 0)
    return {};
  std::vector<int> order;
  for (int a = 0; a < rank; ++a)
    if (a != unit)
      order.push_back(a);
  order.push_back(unit);
  return order;
}

} // namespace

/// `tile` seen with its axes in `order` (axis d of the result is axis order[d]
/// of `tile`): a view of the same bytes when the axes within each lane keep
/// their order, else a cross-lane relayout.
int MemoryLowerer::permutedView(int tile, const std::vector<int> &order) {
  const npu::TileLayout from = cx.tiles.at(tile).layout;
  const std::string name = cx.tiles.at(tile).name;
  ir::Shape shape;
  std::vector<int> others;
  int laneAxis = 0;
  for (size_t d = 0; d < order.size(); ++d) {
    shape.push_back(from.shape.at(order[d]));
    if (order[d] == from.laneAxis)
      laneAxis = static_cast<int>(d);
    else
      others.push_back(order[d]);
  }
  if (std::is_sorted(others.begin(), others.end()))
    return cx.aliasTile(tile, shape, laneAxis, name);
  const int dst = cx.newTile(from.dtype, shape, laneAxis, name);
  npu::Instruction &move = cx.emit(npu::Opcode::XRelayout);
  move.srcs = {tile};
  move.dsts = {dst};
  move.permutation = order;
  return dst;
}

/// Walks `dma` in `order`: strides and mask permuted alike.
void MemoryLowerer::permuteDma(npu::DmaDescriptor &dma, const std::vector<int> &order) {
  std::vector<npu::ScalarOperand> strides;
  for (int a : order)
    strides.push_back(dma.strides[a]);
  dma.strides = std::move(strides);
  if (dma.maskTile >= 0)
    dma.maskTile = permutedView(dma.maskTile, order);
  if (dma.clipped()) {
    std::vector<npu::ScalarOperand> low, high;
    for (int a : order) {
      low.push_back(dma.clipLow[a]);
      high.push_back(dma.clipHigh[a]);
    }
    dma.clipLow = std::move(low);
    dma.clipHigh = std::move(high);
  }
}

namespace {

std::vector<int> inverse(const std::vector<int> &order) {
  std::vector<int> back(order.size());
  for (size_t d = 0; d < order.size(); ++d)
    back[order[d]] = static_cast<int>(d);
  return back;
}

} // namespace

/// A load of `pointer + (start + s * arange) % C` over a rank-1 block (Inductor's
/// per-channel parameters, `x0 = xindex % C`): its values repeat every P
/// elements, P the least multiple of the lane count with s * P a multiple of C.
/// When the block is a multiple of P and `start` is a known non-negative value,
/// only the first P elements are gathered and the vector unit replicates them
/// (docs/compiler.md "DMA forms"); the DRAM sees P elements instead of the
/// block. A mask `index < bound` over an increasing index (Inductor's `xmask`)
/// keeps the form: an element kept by it has the first period's element of the
/// same index kept too, so the first period loads under the first period of
/// the mask; elements the mask drops hold the replicated values (a load
/// without `other` leaves them unspecified). Returns the loaded tile, or -1
/// when the pattern does not apply.
int MemoryLowerer::periodicGather(const ir::Value *pointer, const ir::Value *mask, const ir::Value *result) {
  const ValueState &ps = cx.state(pointer);
  const ir::Op *add = pointer->definingOp;
  if (result->type.shape.size() != 1 || ps.kind != Kind::Tile || ps.lazy || ps.broadcastOf || ps.tile < 0 ||
      !add || add->code != ir::OpCode::AddPtr)
    return -1;
  const ir::Value *offset = add->operands[1];
  const ir::Op *rem = offset->definingOp;
  if (!rem || rem->code != ir::OpCode::Rem || rem->operands.size() != 2 || !cx.isLazy(rem->operands[0]) ||
      !cx.isLazy(rem->operands[1]))
    return -1;
  const LazyTile &index = *cx.state(rem->operands[0]).lazy;
  const LazyTile &divisor = *cx.state(rem->operands[1]).lazy;
  if (index.strides.size() != 1 || !index.strides[0].isImmediate() || index.strides[0].operand.intValue < 0 ||
      !divisor.uniform() || !divisor.base.isImmediate() || divisor.base.operand.intValue <= 0)
    return -1;
  // The period holds for non-negative indices (`%` truncates): an immediate
  // start of at least 0, or a register known to be a positive multiple.
  if (index.base.isImmediate() ? index.base.operand.intValue < 0
                               : knownMultiple(*cx.out, index.base.operand) <= 0)
    return -1;
  const int64_t lanes = std::max(1, cx.machine.lanes);
  const int64_t c = divisor.base.operand.intValue;
  const int64_t step = index.strides[0].operand.intValue;
  const int64_t cycle = c / std::gcd(c, step); // elements after which the index repeats
  const int64_t period = cycle / std::gcd(cycle, lanes) * lanes;
  const int64_t block = result->type.shape[0];
  // A block that is no multiple of the period (96 channels on 128 lanes
  // repeat every 384 elements, which divides no power of two) takes the
  // copies that cover it; the block is their prefix.
  if (period >= block || block % lanes != 0)
    return -1;
  const int64_t copies = (block + period - 1) / period;
  int periodMask = -1;
  if (mask) {
    const ir::Op *cmp = mask->definingOp;
    if (!cmp || cmp->code != ir::OpCode::Cmp || cmp->predicate != core::CmpPredicate::Lt ||
        cmp->operands.size() != 2 || !cx.isLazy(cmp->operands[0]) || !cx.isLazy(cmp->operands[1]))
      return -1;
    const LazyTile &kept = *cx.state(cmp->operands[0]).lazy;
    if (kept.strides.size() != 1 || !kept.strides[0].isImmediate() || kept.strides[0].operand.intValue <= 0 ||
        !cx.state(cmp->operands[1]).lazy->uniform())
      return -1;
    // Element i of a rank-1 tile sits in lane i % lanes, slot i / lanes: the
    // first period is a prefix of every lane's bytes.
    periodMask = cx.aliasTile(cx.tileOf(mask, 0), {period}, 0, cx.nameOf(mask));
  }
  // A period of whole lane rows that starts at a multiple of C (`x % 128`
  // of a block at a multiple of 128) is elements 0..C-1 in order: a strided
  // DMA, with no index for the vector unit to compute first, so the next
  // instance's parameter loads do not wait behind this instance's compute.
  const int64_t startMultiple =
      index.base.isImmediate() ? index.base.operand.intValue : knownMultiple(*cx.out, index.base.operand);
  const bool inOrder = step == 1 && period == c && startMultiple % c == 0;
  // The first period's indices, computed as the kernel computes them, once
  // for all the loads that share them (the materialised splats and iotas'
  // cache and scopes).
  const std::string key = "periodic/" + std::to_string(cx.idOf(offset)) + "/" + std::to_string(period);
  int indices = -1;
  if (auto it = cx.lazyTiles.find(key); !inOrder && it != cx.lazyTiles.end()) {
    indices = it->second;
  } else if (!inOrder) {
    const int first =
        cx.materializeLazy(index, rem->operands[0]->type.dtype, {period}, 0, cx.nameOf(rem->operands[0]));
    const int modulus =
        cx.materializeLazy(divisor, rem->operands[1]->type.dtype, {period}, 0, cx.nameOf(rem->operands[1]));
    indices = cx.newTile(offset->type.dtype, {period}, 0, cx.nameOf(offset));
    npu::Instruction &mod = cx.emit(npu::Opcode::VElementwise);
    mod.function = cx.elementFunction(*rem);
    mod.srcs = {first, modulus};
    mod.dsts = {indices};
    cx.lazyTiles.emplace(key, indices);
    if (!cx.lazyTileScopes.empty())
      cx.lazyTileScopes.back().push_back(key);
  }
  const DType type = result->type.dtype;
  const std::string name = cx.nameOf(result);
  const int loaded = cx.newTile(type, {period}, 0, name);
  npu::Instruction &load = cx.emit(npu::Opcode::DmaLoad);
  load.dma.argument = ps.argument;
  load.dma.base = ps.gatherBase.operand;
  if (inOrder)
    load.dma.strides = {ScalarOperand::immediate(1)};
  load.dma.indexTile = indices;
  load.dma.maskTile = periodMask;
  load.dma.fill = core::isFloat(type) ? ScalarOperand::immediateFloat(0.0) : ScalarOperand::immediate(0);
  load.dsts = {loaded};
  // Element i of a rank-1 tile sits in lane i % lanes, slot i / lanes: the
  // same bytes as [i / period, (i % period) / lanes, i % lanes] with the last
  // axis across the lanes, so the replication stays within each lane, and
  // the block's slots are the first of the copies'.
  const int rows = cx.aliasTile(loaded, {1, period / lanes, lanes}, 2, name);
  const int stretched = cx.newTile(type, {copies, period / lanes, lanes}, 2, name);
  npu::Instruction &copy = cx.emit(npu::Opcode::VBroadcast);
  copy.srcs = {rows};
  copy.dsts = {stretched};
  return cx.aliasTile(stretched, {block}, 0, name);
}

void MemoryLowerer::lowerAddPtr(const ir::Op &op) {
  const ir::Value *p = op.operands[0];
  const ir::Value *offset = op.operands[1];
  const ir::Value *r = op.result();
  const ValueState &ps = cx.state(p);
  if (ps.argument < 0)
    cx.unsupported("a pointer that does not come from a pointer argument");
  cx.state(r).argument = ps.argument;
  if (ps.kind == Kind::Scalar && cx.state(offset).kind == Kind::Scalar) {
    cx.state(r).kind = Kind::Scalar;
    cx.state(r).scalar =
        cx.scalarArith(npu::ElementOp::Add, cx.widen(ps.scalar), cx.widen(cx.scalarOf(offset)), DType::Int64);
    return;
  }
  if (cx.isLazy(p) && cx.isLazy(offset)) {
    const LazyTile &a = *ps.lazy;
    const LazyTile &b = *cx.state(offset).lazy;
    LazyTile c;
    c.base = cx.scalarArith(npu::ElementOp::Add, cx.widen(a.base), cx.widen(b.base), DType::Int64);
    for (size_t i = 0; i < a.strides.size(); ++i)
      c.strides.push_back(
          cx.scalarArith(npu::ElementOp::Add, cx.widen(a.strides[i]), cx.widen(b.strides[i]), DType::Int64));
    cx.setLazy(r, c);
    cx.state(r).argument = ps.argument;
    return;
  }
  const bool scalar = r->type.isScalar();
  const int axis = scalar ? 0 : cx.laneAxisOf(r);
  const ir::Shape shape = scalar ? ir::Shape{1} : r->type.shape;
  const ValueState &os = cx.state(offset);
  // An index tile advanced by a splat (`a_ptrs += BLOCK_K * stride`) moves
  // only the scalar base of the gathered form.
  if (!scalar && ps.kind == Kind::Tile && !ps.lazy && !ps.broadcastOf && ps.tile >= 0 &&
      os.kind == Kind::Tile && os.lazy && os.lazy->uniform()) {
    ValueState moved = ps;
    moved.gatherBase =
        cx.scalarArith(npu::ElementOp::Add, cx.widen(ps.gatherBase), cx.widen(os.lazy->base), DType::Int64);
    cx.state(r) = moved;
    return;
  }
  // A splat pointer plus an index tile (`in_ptr0 + x0`) needs no addition:
  // the index tile keeps its integer dtype (the DMA extends it by its
  // signedness) and the pointer's offset becomes the base.
  if (!scalar && ps.kind == Kind::Tile && ps.lazy && ps.lazy->uniform()) {
    const Scalar base = cx.widen(ps.lazy->base);
    ValueState &st = cx.state(r);
    st.kind = Kind::Tile;
    st.tile = cx.tileOf(offset, axis);
    st.lazy.reset();
    st.broadcastOf = nullptr;
    st.argument = ps.argument;
    st.gatherBase = base;
    return;
  }
  int index = scalar ? cx.scalarTileOf(offset) : cx.tileOf(offset, axis);
  if (offset->type.dtype != DType::Int64) {
    const int wide = cx.newTile(DType::Int64, shape, axis, cx.nameOf(offset) + ".i64");
    npu::Instruction &cast = cx.emit(npu::Opcode::VElementwise);
    cast.function.op = npu::ElementOp::Cast;
    cast.function.operandType = offset->type.dtype;
    cast.function.resultType = DType::Int64;
    cast.srcs = {index};
    cast.dsts = {wide};
    index = wide;
  }
  int base = scalar ? cx.scalarTileOf(p) : cx.tileOf(p, axis);
  if (cx.tiles[base].layout.dtype != DType::Int64) {
    const int wide = cx.newTile(DType::Int64, shape, axis, cx.nameOf(p) + ".i64");
    npu::Instruction &cast = cx.emit(npu::Opcode::VElementwise);
    cast.function.op = npu::ElementOp::Cast;
    cast.function.operandType = cx.tiles[base].layout.dtype;
    cast.function.resultType = DType::Int64;
    cast.srcs = {base};
    cast.dsts = {wide};
    base = wide;
  }
  const int dst = cx.newTile(DType::Int64, shape, axis, cx.nameOf(r));
  npu::Instruction &add = cx.emit(npu::Opcode::VElementwise);
  add.function.op = npu::ElementOp::Add;
  add.function.operandType = add.function.resultType = DType::Int64;
  add.srcs = {base, index};
  add.dsts = {dst};
  cx.setTile(r, dst);
  cx.state(r).argument = ps.argument;
}

npu::DmaDescriptor MemoryLowerer::dmaFor(const ir::Value *pointer, const ir::Value *mask,
                                         const ir::Shape &shape, int laneAxis) {
  const ValueState &ps = cx.state(pointer);
  npu::DmaDescriptor dma;
  dma.argument = ps.argument;
  if (dma.argument < 0)
    cx.unsupported("an access through a pointer that does not come from a pointer argument");
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
    dma.indexTile = pointer->type.isScalar() ? cx.scalarTileOf(pointer) : cx.anyTileOf(pointer, laneAxis);
  }
  if (mask && !isTrue(cx.state(mask)) && !clipDma(dma, mask, shape))
    dma.maskTile = mask->type.isScalar() ? cx.scalarTileOf(mask) : cx.anyTileOf(mask, laneAxis);
  return dma;
}

void MemoryLowerer::lowerLoad(const ir::Op &op) {
  const ir::Value *pointer = op.operands[0];
  const ir::Value *mask = op.operands.size() > 1 ? op.operands[1] : nullptr;
  const ir::Value *other = op.operands.size() > 2 ? op.operands[2] : nullptr;
  const ir::Value *r = op.result();
  const DType type = r->type.dtype;
  const Scalar zero{core::isFloat(type) ? ScalarOperand::immediateFloat(0.0) : ScalarOperand::immediate(0),
                    type};

  if (r->type.isScalar() && cx.state(pointer).kind == Kind::Scalar &&
      (!mask || cx.state(mask).kind == Kind::Scalar) && (!other || cx.state(other).kind == Kind::Scalar)) {
    const int reg = cx.newRegister(type, cx.nameOf(r));
    auto sload = [&](std::vector<npu::Instruction> &into) {
      npu::Instruction instruction;
      instruction.opcode = npu::Opcode::SLoad;
      instruction.loc = op.loc;
      instruction.dstReg = reg;
      instruction.argument = cx.state(pointer).argument;
      instruction.scalars = {cx.state(pointer).scalar.operand};
      into.push_back(std::move(instruction));
    };
    if (!mask || isTrue(cx.state(mask))) {
      sload(*cx.out);
    } else {
      const Scalar fill = other ? cx.scalarOf(other) : zero;
      npu::Instruction &branch = cx.emit(npu::Opcode::If);
      branch.scalars = {cx.scalarOf(mask).operand};
      sload(branch.body);
      npu::Instruction move;
      move.opcode = npu::Opcode::SMove;
      move.loc = op.loc;
      move.dstReg = reg;
      move.scalars = {fill.operand};
      branch.elseBody.push_back(std::move(move));
    }
    cx.setScalar(r, Scalar{ScalarOperand::ofRegister(reg), type});
    return;
  }

  const bool scalar = r->type.isScalar();
  const int axis = scalar ? 0 : cx.laneAxisOf(r);
  const ir::Shape shape = scalar ? ir::Shape{1} : r->type.shape;
  if (!scalar && !other)
    if (const int periodic = periodicGather(pointer, mask && !isTrue(cx.state(mask)) ? mask : nullptr, r);
        periodic >= 0) {
      cx.setTile(r, periodic);
      return;
    }
  const ir::Value *activeMask = mask && !isTrue(cx.state(mask)) ? mask : nullptr;
  const std::optional<BoxLowerer::BoxAccess> box =
      scalar ? std::nullopt : boxes.boxAccess(pointer, activeMask, shape, axis);
  npu::DmaDescriptor dma = box ? box->dma : dmaFor(pointer, mask, shape, axis);
  const ir::Shape &accessShape = box ? box->shape : shape;
  const int accessAxis = box ? box->laneAxis : axis;
  bool selectOther = false;
  if (other && dma.masked()) {
    const ValueState &os = cx.state(other);
    if (os.kind == Kind::Scalar)
      dma.fill = os.scalar.operand;
    else if (os.kind == Kind::Tile && os.lazy && os.lazy->uniform())
      dma.fill = os.lazy->base.operand;
    else
      selectOther = true;
  }
  if (!other || selectOther)
    dma.fill = zero.operand;
  // A transposing access loads in DRAM order and permutes on chip.
  const std::vector<int> order = scalar ? std::vector<int>{} : contiguousOrder(dma, accessShape);
  int dst = -1;
  if (order.empty()) {
    dst = cx.newTile(type, accessShape, accessAxis, cx.nameOf(r));
    npu::Instruction &load = cx.emit(npu::Opcode::DmaLoad);
    load.dma = dma;
    load.dsts = {dst};
  } else {
    permuteDma(dma, order);
    ir::Shape walked;
    for (int a : order)
      walked.push_back(accessShape[a]);
    const int loaded = cx.newTile(type, walked, inverse(order)[accessAxis], cx.nameOf(r));
    npu::Instruction &load = cx.emit(npu::Opcode::DmaLoad);
    load.dma = dma;
    load.dsts = {loaded};
    dst = permutedView(loaded, inverse(order));
  }
  if (box) // the split tile seen in the access's shape: the same bytes
    dst = cx.aliasTile(dst, shape, axis, cx.nameOf(r));
  int result = dst;
  if (selectOther) {
    const int otherTile = scalar ? cx.scalarTileOf(other) : cx.tileOf(other, axis);
    result = cx.newTile(type, shape, axis, cx.nameOf(r));
    const int maskTile = scalar ? dma.maskTile : cx.tileOf(mask, axis);
    npu::Instruction &select = cx.emit(npu::Opcode::VElementwise);
    select.function.op = npu::ElementOp::Select;
    select.function.operandType = select.function.resultType = type;
    select.srcs = {maskTile, dst, otherTile};
    select.dsts = {result};
  }
  cx.setTile(r, result);
}

void MemoryLowerer::lowerStore(const ir::Op &op) {
  const ir::Value *pointer = op.operands[0];
  const ir::Value *value = op.operands[1];
  const ir::Value *mask = op.operands.size() > 2 ? op.operands[2] : nullptr;
  if (pointer->type.isScalar() && cx.state(pointer).kind == Kind::Scalar &&
      cx.state(value).kind == Kind::Scalar && (!mask || cx.state(mask).kind == Kind::Scalar)) {
    npu::Instruction store;
    store.opcode = npu::Opcode::SStore;
    store.loc = op.loc;
    store.argument = cx.state(pointer).argument;
    store.scalars = {cx.state(pointer).scalar.operand, cx.scalarOf(value).operand};
    if (cx.state(pointer).argument < 0)
      cx.unsupported("a store through a pointer that does not come from a pointer argument");
    if (!mask || isTrue(cx.state(mask))) {
      cx.out->push_back(std::move(store));
    } else {
      npu::Instruction &branch = cx.emit(npu::Opcode::If);
      branch.scalars = {cx.scalarOf(mask).operand};
      branch.body.push_back(std::move(store));
    }
    return;
  }
  const bool scalar = pointer->type.isScalar();
  const int axis = scalar ? 0 : cx.laneAxisOf(value);
  const ir::Shape shape = scalar ? ir::Shape{1} : pointer->type.shape;
  int data = scalar ? cx.scalarTileOf(value) : cx.tileOf(value, axis);
  const ir::Value *activeMask = mask && !isTrue(cx.state(mask)) ? mask : nullptr;
  const std::optional<BoxLowerer::BoxAccess> box =
      scalar ? std::nullopt : boxes.boxAccess(pointer, activeMask, shape, axis);
  npu::DmaDescriptor dma = box ? box->dma : dmaFor(pointer, mask, shape, axis);
  if (box)
    data = cx.aliasTile(data, box->shape, box->laneAxis, cx.tiles.at(data).name);
  // A transposing access permutes on chip and stores in DRAM order.
  if (const std::vector<int> order =
          scalar ? std::vector<int>{} : contiguousOrder(dma, box ? box->shape : shape);
      !order.empty()) {
    permuteDma(dma, order);
    data = permutedView(data, order);
  }
  npu::Instruction &store = cx.emit(npu::Opcode::DmaStore);
  store.dma = dma;
  store.srcs = {data};
}

void MemoryLowerer::lowerAtomic(const ir::Op &op) {
  const ir::Value *pointer = op.operands[0];
  const ir::Value *value = op.operands[1];
  const ir::Value *mask = op.operands.size() > 2 ? op.operands[2] : nullptr;
  const ir::Value *r = op.result();
  const bool scalar = pointer->type.isScalar();
  const int axis = scalar ? 0 : cx.laneAxisOf(r);
  const ir::Shape shape = scalar ? ir::Shape{1} : pointer->type.shape;
  const int data = scalar ? cx.scalarTileOf(value) : cx.tileOf(value, axis);
  npu::DmaDescriptor dma = dmaFor(pointer, mask, shape, axis);
  dma.atomic = op.atomicKind;
  dma.fill = core::isFloat(r->type.dtype) ? ScalarOperand::immediateFloat(0.0) : ScalarOperand::immediate(0);
  const int old = cx.newTile(r->type.dtype, shape, axis, cx.nameOf(r));
  npu::Instruction &atomic = cx.emit(npu::Opcode::DmaAtomic);
  atomic.dma = dma;
  atomic.srcs = {data};
  atomic.dsts = {old};
  cx.setTile(r, old);
}

} // namespace npusim::compiler
