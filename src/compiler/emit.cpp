// The lowering's bookkeeping: registers, tiles, instructions, and the
// materialisation of lazy tiles (splats and affine integer tiles) and of
// scalars that live in tiles.
#include "compiler/lowering_internal.h"

#include <cstring>

namespace npusim::compiler {

using ir::OpCode;

void fail(const ir::Function &function, const core::SourceLocation &loc, const std::string &what) {
  throw core::CompileError(loc, "kernel " + function.name() + ": " + what);
}

bool LazyTile::uniform() const {
  for (const Scalar &stride : strides)
    if (!stride.isImmediateInt(0))
      return false;
  return true;
}

/// `source` broadcast to `to` across the lanes, computed again at `to` from
/// its operands when they are all splats, lazy affine tiles or scalars (a mask
/// `x < xnumel` of a [1, X] row used in a [Y, X] tile): a few vector passes
/// instead of an XBroadcast, whose cost grows with the destination and the
/// butterfly's stages. -1 when `source` is not such a value or the broadcast
/// stays within lanes.
int LoweringContext::recomputedBroadcast(const ir::Value *source, const ir::Shape &to, int laneAxis,
                                         const std::string &name) {
  // Through expand_dims (free views) to the elementwise op; its operands
  // get the inserted axes back, each with stride 0.
  std::vector<int> inserted;
  const ir::Value *inner = source;
  while (inner->definingOp && inner->definingOp->code == ir::OpCode::ExpandDims && inserted.size() < 4) {
    inserted.push_back(inner->definingOp->axis);
    inner = inner->definingOp->operands[0];
  }
  const ir::Op *op = inner->definingOp;
  const ir::Shape &from = source->type.shape;
  if (!op || inner->type.isScalar() || source->type.isPointer || from.size() != to.size() || laneAxis < 0 ||
      laneAxis >= static_cast<int>(to.size()) || from[laneAxis] != 1 || to[laneAxis] <= 1 ||
      !ir::opTraits(op->code).elementwise || !ir::opTraits(op->code).pure || op->results.size() != 1)
    return -1;
  for (const ir::Value *operand : op->operands) {
    const ValueState &st = state(operand);
    if (operand->type.isPointer || !(st.kind == ValueState::Kind::Scalar || isLazy(operand)))
      return -1;
  }
  npu::Instruction instruction;
  instruction.opcode = npu::Opcode::VElementwise;
  instruction.function = elementFunction(*op);
  for (const ir::Value *operand : op->operands) {
    const ValueState &st = state(operand);
    LazyTile lazy;
    if (st.kind == ValueState::Kind::Scalar) {
      lazy.base = st.scalar;
      lazy.strides.assign(to.size(), Scalar{ScalarOperand::immediate(0), DType::Int64});
    } else {
      lazy = *st.lazy;
      for (auto axis = inserted.rbegin(); axis != inserted.rend(); ++axis)
        lazy.strides.insert(lazy.strides.begin() + std::min<std::ptrdiff_t>(*axis, lazy.strides.size()),
                            Scalar{ScalarOperand::immediate(0), DType::Int64});
      // Axes of one element repeat that element along the broadcast.
      for (size_t a = 0; a < lazy.strides.size() && a < from.size(); ++a)
        if (from[a] == 1)
          lazy.strides[a] = Scalar{ScalarOperand::immediate(0), DType::Int64};
    }
    instruction.srcs.push_back(materializeLazy(lazy, operand->type.dtype, to, laneAxis, nameOf(operand)));
  }
  const int dst = newTile(source->type.dtype, to, laneAxis, name);
  instruction.dsts = {dst};
  npu::Instruction &emitted = emit(npu::Opcode::VElementwise);
  const core::SourceLocation loc = emitted.loc;
  emitted = std::move(instruction);
  emitted.loc = loc;
  return dst;
}

LoweringContext::LoweringContext(const ir::Function &f, const config::HardwareConfig &m)
    : function(f), machine(m) {
  values.resize(f.numValues());
  canonical.assign(f.numValues(), -1);
}

void LoweringContext::unsupported(const std::string &what) const {
  fail(function, currentOp ? currentOp->loc : core::SourceLocation{},
       "the NPU compiler does not support " + what);
}

int LoweringContext::newRegister(DType type, const std::string &name) {
  registers.push_back(npu::ScalarRegister{name, type});
  return static_cast<int>(registers.size()) - 1;
}

int LoweringContext::newTile(DType type, const ir::Shape &shape, int laneAxis, const std::string &name) {
  npu::Tile tile;
  tile.name = name;
  tile.layout.dtype = type;
  tile.layout.shape = shape;
  tile.layout.laneAxis = laneAxis;
  if (shape.empty() || shape.size() > 4)
    unsupported("a tile of rank " + std::to_string(shape.size()) + " (tiles have rank 1 to 4)");
  tiles.push_back(std::move(tile));
  storageRoot.push_back(static_cast<int>(tiles.size()) - 1);
  storageOffset.push_back(0);
  return static_cast<int>(tiles.size()) - 1;
}

int LoweringContext::aliasTile(int tile, const ir::Shape &shape, int laneAxis, const std::string &name) {
  const int alias = newTile(tiles.at(tile).layout.dtype, shape, laneAxis, name);
  storageRoot[alias] = storageRoot.at(tile);
  storageOffset[alias] = storageOffset.at(tile);
  return alias;
}

int LoweringContext::windowTile(int tile, const ir::Shape &shape, int laneAxis, int64_t byteOffset,
                                const std::string &name) {
  const int window = aliasTile(tile, shape, laneAxis, name);
  storageOffset[window] += byteOffset;
  return window;
}

npu::Instruction &LoweringContext::emit(npu::Opcode opcode) {
  out->emplace_back();
  npu::Instruction &instruction = out->back();
  instruction.opcode = opcode;
  if (currentOp)
    instruction.loc = currentOp->loc;
  return instruction;
}

int LoweringContext::laneAxisOf(const ir::Value *v) const {
  return v->laneAxis < 0 ? 0 : v->laneAxis;
}

std::string LoweringContext::nameOf(const ir::Value *v) const {
  return "%" + std::to_string(v->id) + (v->nameHint.empty() ? "" : " " + v->nameHint);
}

void LoweringContext::enterScope() {
  scopes.emplace_back();
  widenedScopes.emplace_back();
  pureOpScopes.emplace_back();
  lazyTileScopes.emplace_back();
}

void LoweringContext::leaveScope() {
  for (const auto &key : scopes.back())
    materialized.erase(key);
  scopes.pop_back();
  for (int reg : widenedScopes.back())
    widened.erase(reg);
  widenedScopes.pop_back();
  for (const std::string &key : pureOpScopes.back())
    pureOps.erase(key);
  pureOpScopes.pop_back();
  for (const std::string &key : lazyTileScopes.back())
    lazyTiles.erase(key);
  lazyTileScopes.pop_back();
}

// ------------------------------------------------------------------ scalars

Scalar LoweringContext::immediate(DType type, int64_t v) const {
  return Scalar{ScalarOperand::immediate(v), type};
}

Scalar LoweringContext::scalarOf(const ir::Value *v) {
  const ValueState &st = state(v);
  if (st.kind != ValueState::Kind::Scalar)
    unsupported("a scalar computed from tile data where the scalar unit needs it (" + nameOf(v) + ")");
  return st.scalar;
}

Scalar LoweringContext::widen(Scalar x) {
  if (x.type == DType::Int64)
    return x;
  if (x.isImmediate()) {
    if (core::isFloat(x.type))
      unsupported("a float used as an element offset");
    return immediate(DType::Int64, x.operand.intValue);
  }
  if (auto it = widened.find(x.operand.reg); it != widened.end())
    return Scalar{ScalarOperand::ofRegister(it->second), DType::Int64};
  npu::ElementFunction cast;
  cast.op = npu::ElementOp::Cast;
  cast.operandType = x.type;
  cast.resultType = DType::Int64;
  const Scalar wide = scalarOp(cast, {x}, registers.at(x.operand.reg).name + ".i64");
  widened[x.operand.reg] = wide.operand.reg;
  if (!widenedScopes.empty())
    widenedScopes.back().push_back(x.operand.reg);
  return wide;
}

Scalar LoweringContext::scalarOp(npu::ElementFunction fn, const std::vector<Scalar> &operands,
                                 const std::string &name) {
  const int reg = newRegister(fn.resultType, name);
  npu::Instruction &instruction = emit(npu::Opcode::SElementwise);
  instruction.dstReg = reg;
  instruction.function = fn;
  for (const Scalar &x : operands)
    instruction.scalars.push_back(x.operand);
  return Scalar{ScalarOperand::ofRegister(reg), fn.resultType};
}

namespace {

// Wraps v to the width and signedness of an integer dtype.
int64_t wrapTo(DType type, int64_t v) {
  const int bits = core::bitWidth(type);
  if (bits >= 64)
    return v;
  const uint64_t mask = (uint64_t{1} << bits) - 1;
  uint64_t u = static_cast<uint64_t>(v) & mask;
  if (core::isSigned(type) && (u >> (bits - 1)) != 0)
    u |= ~mask;
  return static_cast<int64_t>(u);
}

} // namespace

Scalar LoweringContext::scalarArith(npu::ElementOp op, Scalar a, Scalar b, DType type) {
  const bool integer = core::isInteger(type) && type != DType::Bool;
  if (integer && a.isImmediate() && b.isImmediate()) {
    const uint64_t x = static_cast<uint64_t>(a.operand.intValue),
                   y = static_cast<uint64_t>(b.operand.intValue);
    switch (op) {
    case npu::ElementOp::Add: return immediate(type, wrapTo(type, static_cast<int64_t>(x + y)));
    case npu::ElementOp::Sub: return immediate(type, wrapTo(type, static_cast<int64_t>(x - y)));
    case npu::ElementOp::Mul: return immediate(type, wrapTo(type, static_cast<int64_t>(x * y)));
    default: break;
    }
  }
  if (integer) {
    if (op == npu::ElementOp::Add && a.isImmediateInt(0))
      return b;
    if ((op == npu::ElementOp::Add || op == npu::ElementOp::Sub) && b.isImmediateInt(0))
      return a;
    if (op == npu::ElementOp::Mul && (a.isImmediateInt(0) || b.isImmediateInt(0)))
      return immediate(type, 0);
    if (op == npu::ElementOp::Mul && a.isImmediateInt(1))
      return b;
    if (op == npu::ElementOp::Mul && b.isImmediateInt(1))
      return a;
  }
  npu::ElementFunction fn;
  fn.op = op;
  fn.operandType = type;
  fn.resultType = type;
  return scalarOp(fn, {a, b}, "t");
}

// -------------------------------------------------------------------- tiles

int LoweringContext::materializeLazy(const LazyTile &lazy, DType type, const ir::Shape &shape, int laneAxis,
                                     const std::string &name) {
  // Equal splats and iotas share one tile (a tile is never written twice
  // except loop and branch homes, which are not made here).
  std::string key =
      std::to_string(static_cast<int>(type)) + "/" + ir::shapeString(shape) + "/" + std::to_string(laneAxis);
  auto operandKey = [](const Scalar &x) {
    if (x.operand.isRegister())
      return "r" + std::to_string(x.operand.reg);
    uint64_t bits = 0;
    std::memcpy(&bits, &x.operand.floatValue, sizeof bits);
    return std::to_string(x.operand.intValue) + ":" + std::to_string(bits);
  };
  key += "/" + operandKey(lazy.base);
  for (const Scalar &stride : lazy.strides)
    key += "/" + operandKey(stride);
  if (auto it = lazyTiles.find(key); it != lazyTiles.end())
    return it->second;
  const int tile = newTile(type, shape, laneAxis, name);
  lazyTiles.emplace(key, tile);
  if (!lazyTileScopes.empty())
    lazyTileScopes.back().push_back(key);
  if (lazy.uniform()) {
    npu::Instruction &splat = emit(npu::Opcode::VSplat);
    splat.dsts = {tile};
    splat.scalars = {lazy.base.operand};
    return tile;
  }
  npu::Instruction &iota = emit(npu::Opcode::VIota);
  iota.dsts = {tile};
  iota.scalars.push_back(lazy.base.operand);
  for (const Scalar &stride : lazy.strides)
    iota.scalars.push_back(stride.operand);
  return tile;
}

int LoweringContext::relayout(int tile, int laneAxis, const std::string &name) {
  const npu::TileLayout &from = tiles.at(tile).layout;
  if (from.laneAxis == laneAxis)
    return tile;
  const DType type = from.dtype;
  const ir::Shape shape = from.shape;
  const int dst = newTile(type, shape, laneAxis, name);
  npu::Instruction &move = emit(npu::Opcode::XRelayout);
  move.srcs = {tile};
  move.dsts = {dst};
  return dst;
}

void LoweringContext::copyTile(int from, int to) {
  const npu::TileLayout &a = tiles.at(from).layout;
  const npu::TileLayout &b = tiles.at(to).layout;
  npu::Instruction &copy = emit(a.laneAxis == b.laneAxis && a.shape == b.shape ? npu::Opcode::VElementwise
                                                                               : npu::Opcode::XRelayout);
  copy.srcs = {from};
  copy.dsts = {to};
  copy.function.op = npu::ElementOp::Copy;
  copy.function.operandType = a.dtype;
  copy.function.resultType = b.dtype;
}

void LoweringContext::setTile(const ir::Value *v, int tile) {
  ValueState &st = state(v);
  st.kind = v->type.isScalar() ? ValueState::Kind::ScalarTile : ValueState::Kind::Tile;
  st.tile = tile;
  st.lazy.reset();
  st.broadcastOf = nullptr;
  st.gatherBase = immediate(DType::Int64, 0);
  const int axis = tiles.at(tile).layout.laneAxis;
  materialized[{idOf(v), axis}] = tile;
  if (!scopes.empty())
    scopes.back().push_back({idOf(v), axis});
}

void LoweringContext::setLazy(const ir::Value *v, LazyTile lazy) {
  ValueState &st = state(v);
  st.kind = ValueState::Kind::Tile;
  st.tile = -1;
  st.broadcastOf = nullptr;
  st.gatherBase = immediate(DType::Int64, 0);
  st.lazy = std::move(lazy);
}

int LoweringContext::tileOf(const ir::Value *v, int laneAxis) {
  const ValueState &st = state(v);
  const DType type = v->type.isPointer ? DType::Int64 : v->type.dtype;
  if (v->type.isScalar())
    return scalarTileOf(v);
  if (auto it = materialized.find({idOf(v), laneAxis}); it != materialized.end())
    return it->second;
  int tile = -1;
  if (st.kind == ValueState::Kind::Tile && st.lazy) {
    tile = materializeLazy(*st.lazy, type, v->type.shape, laneAxis, nameOf(v));
  } else if (st.kind == ValueState::Kind::Tile && st.broadcastOf) {
    const ir::Value *source = st.broadcastOf;
    tile = recomputedBroadcast(source, v->type.shape, laneAxis, nameOf(v));
    if (tile < 0)
      tile = broadcastTile(tileOf(source, laneAxis), v->type.shape, laneAxis, nameOf(v));
  } else if (st.kind == ValueState::Kind::Tile && st.tile >= 0 && st.hasGatherBase()) {
    // A pointer tile whose base moved: its full offsets, tile + base.
    const Scalar base = st.gatherBase;
    int index = relayout(st.tile, laneAxis, nameOf(v));
    if (tiles[index].layout.dtype != DType::Int64) {
      const int wide = newTile(DType::Int64, v->type.shape, laneAxis, nameOf(v) + ".i64");
      npu::Instruction &cast = emit(npu::Opcode::VElementwise);
      cast.function.op = npu::ElementOp::Cast;
      cast.function.operandType = tiles[index].layout.dtype;
      cast.function.resultType = DType::Int64;
      cast.srcs = {index};
      cast.dsts = {wide};
      index = wide;
    }
    LazyTile splat{base, std::vector<Scalar>(v->type.shape.size(), immediate(DType::Int64, 0))};
    const int baseTile = materializeLazy(splat, DType::Int64, v->type.shape, laneAxis, nameOf(v) + ".base");
    tile = newTile(DType::Int64, v->type.shape, laneAxis, nameOf(v));
    npu::Instruction &add = emit(npu::Opcode::VElementwise);
    add.function.op = npu::ElementOp::Add;
    add.function.operandType = add.function.resultType = DType::Int64;
    add.srcs = {index, baseTile};
    add.dsts = {tile};
  } else if (st.kind == ValueState::Kind::Tile && st.tile >= 0) {
    tile = relayout(st.tile, laneAxis, nameOf(v));
    if (v->type.isPointer && tiles[tile].layout.dtype != DType::Int64) {
      // A gathered pointer's index tile keeps its own dtype; users of the
      // offsets as a tile get them in 64 bits.
      const int wide = newTile(DType::Int64, v->type.shape, laneAxis, nameOf(v) + ".i64");
      npu::Instruction &cast = emit(npu::Opcode::VElementwise);
      cast.function.op = npu::ElementOp::Cast;
      cast.function.operandType = tiles[tile].layout.dtype;
      cast.function.resultType = DType::Int64;
      cast.srcs = {tile};
      cast.dsts = {wide};
      tile = wide;
    }
  } else {
    fail(function, currentOp ? currentOp->loc : core::SourceLocation{},
         "internal: value " + nameOf(v) + " used before it was lowered");
  }
  materialized[{idOf(v), laneAxis}] = tile;
  if (!scopes.empty())
    scopes.back().push_back({idOf(v), laneAxis});
  return tile;
}

int LoweringContext::anyTileOf(const ir::Value *v, int laneAxis) {
  const ValueState &st = state(v);
  if (st.kind == ValueState::Kind::Tile && !st.lazy && st.tile >= 0 && !st.hasGatherBase())
    return st.tile;
  return tileOf(v, laneAxis);
}

int LoweringContext::scalarTileOf(const ir::Value *v) {
  const ValueState &st = state(v);
  if (st.kind == ValueState::Kind::ScalarTile)
    return st.tile;
  if (auto it = materialized.find({idOf(v), 0}); it != materialized.end())
    return it->second;
  const Scalar x = scalarOf(v);
  const DType type = v->type.isPointer ? DType::Int64 : v->type.dtype;
  LazyTile lazy{x, {immediate(DType::Int64, 0)}};
  const int tile = materializeLazy(lazy, type, {1}, 0, nameOf(v));
  materialized[{idOf(v), 0}] = tile;
  if (!scopes.empty())
    scopes.back().push_back({idOf(v), 0});
  return tile;
}

int LoweringContext::broadcastTile(int source, const ir::Shape &to, int laneAxis, const std::string &name) {
  const int src = relayout(source, laneAxis, name);
  const npu::TileLayout from = tiles.at(src).layout;
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

npu::ElementFunction LoweringContext::elementFunction(const ir::Op &op) const {
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

} // namespace npusim::compiler
