// The lowering's bookkeeping: registers, tiles, instructions, and the
// materialisation of lazy tiles (splats and affine integer tiles) and of
// scalars that live in tiles.
#include "compiler/compiler_internal.h"

#include <cstring>

namespace npusim::compiler {

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
int Lowering::recomputedBroadcast(const ir::Value *source, const ir::Shape &to, int laneAxis,
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
    instruction.srcs.push_back(
        materializeLazy(lazy, operand->type.dtype, to, laneAxis, nameOf(operand)));
  }
  const int dst = newTile(source->type.dtype, to, laneAxis, name);
  instruction.dsts = {dst};
  npu::Instruction &emitted = emit(npu::Opcode::VElementwise);
  const core::SourceLocation loc = emitted.loc;
  emitted = std::move(instruction);
  emitted.loc = loc;
  return dst;
}

Lowering::Lowering(const ir::Function &f, const config::HardwareConfig &m) : function(f), machine(m) {
  s.values.resize(f.numValues());
  s.canonical.assign(f.numValues(), -1);
}

void Lowering::unsupported(const std::string &what) const {
  fail(function, currentOp ? currentOp->loc : core::SourceLocation{}, "the NPU compiler does not support " + what);
}

int Lowering::newRegister(DType type, const std::string &name) {
  s.registers.push_back(npu::ScalarRegister{name, type});
  return static_cast<int>(s.registers.size()) - 1;
}

int Lowering::newTile(DType type, const ir::Shape &shape, int laneAxis, const std::string &name) {
  npu::Tile tile;
  tile.name = name;
  tile.layout.dtype = type;
  tile.layout.shape = shape;
  tile.layout.laneAxis = laneAxis;
  if (shape.empty() || shape.size() > 4)
    unsupported("a tile of rank " + std::to_string(shape.size()) + " (tiles have rank 1 to 4)");
  s.tiles.push_back(std::move(tile));
  s.storageRoot.push_back(static_cast<int>(s.tiles.size()) - 1);
  return static_cast<int>(s.tiles.size()) - 1;
}

int Lowering::aliasTile(int tile, const ir::Shape &shape, int laneAxis, const std::string &name) {
  const int alias = newTile(s.tiles.at(tile).layout.dtype, shape, laneAxis, name);
  s.storageRoot[alias] = s.storageRoot.at(tile);
  return alias;
}

npu::Instruction &Lowering::emit(npu::Opcode opcode) {
  out->emplace_back();
  npu::Instruction &instruction = out->back();
  instruction.opcode = opcode;
  if (currentOp)
    instruction.loc = currentOp->loc;
  return instruction;
}

int Lowering::laneAxisOf(const ir::Value *v) const {
  return v->laneAxis < 0 ? 0 : v->laneAxis;
}

std::string Lowering::nameOf(const ir::Value *v) const {
  return "%" + std::to_string(v->id) + (v->nameHint.empty() ? "" : " " + v->nameHint);
}

void Lowering::enterScope() {
  s.scopes.emplace_back();
  s.widenedScopes.emplace_back();
  s.pureOpScopes.emplace_back();
  s.lazyTileScopes.emplace_back();
}

void Lowering::leaveScope() {
  for (const auto &key : s.scopes.back())
    s.materialized.erase(key);
  s.scopes.pop_back();
  for (int reg : s.widenedScopes.back())
    s.widened.erase(reg);
  s.widenedScopes.pop_back();
  for (const std::string &key : s.pureOpScopes.back())
    s.pureOps.erase(key);
  s.pureOpScopes.pop_back();
  for (const std::string &key : s.lazyTileScopes.back())
    s.lazyTiles.erase(key);
  s.lazyTileScopes.pop_back();
}

// ------------------------------------------------------------------ scalars

Scalar Lowering::immediate(DType type, int64_t v) const {
  return Scalar{ScalarOperand::immediate(v), type};
}

Scalar Lowering::scalarOf(const ir::Value *v) {
  const ValueState &st = state(v);
  if (st.kind != ValueState::Kind::Scalar)
    unsupported("a scalar computed from tile data where the scalar unit needs it (" + nameOf(v) + ")");
  return st.scalar;
}

Scalar Lowering::widen(Scalar x) {
  if (x.type == DType::Int64)
    return x;
  if (x.isImmediate()) {
    if (core::isFloat(x.type))
      unsupported("a float used as an element offset");
    return immediate(DType::Int64, x.operand.intValue);
  }
  if (auto it = s.widened.find(x.operand.reg); it != s.widened.end())
    return Scalar{ScalarOperand::ofRegister(it->second), DType::Int64};
  npu::ElementFunction cast;
  cast.op = npu::ElementOp::Cast;
  cast.operandType = x.type;
  cast.resultType = DType::Int64;
  const Scalar wide = scalarOp(cast, {x}, s.registers.at(x.operand.reg).name + ".i64");
  s.widened[x.operand.reg] = wide.operand.reg;
  if (!s.widenedScopes.empty())
    s.widenedScopes.back().push_back(x.operand.reg);
  return wide;
}

Scalar Lowering::scalarOp(npu::ElementFunction fn, const std::vector<Scalar> &operands, const std::string &name) {
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

Scalar Lowering::scalarArith(npu::ElementOp op, Scalar a, Scalar b, DType type) {
  const bool integer = core::isInteger(type) && type != DType::Bool;
  if (integer && a.isImmediate() && b.isImmediate()) {
    const uint64_t x = static_cast<uint64_t>(a.operand.intValue), y = static_cast<uint64_t>(b.operand.intValue);
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

int Lowering::materializeLazy(const LazyTile &lazy, DType type, const ir::Shape &shape, int laneAxis,
                              const std::string &name) {
  // Equal splats and iotas share one tile (a tile is never written twice
  // except loop and branch homes, which are not made here).
  std::string key = std::to_string(static_cast<int>(type)) + "/" + ir::shapeString(shape) + "/" +
                    std::to_string(laneAxis);
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
  if (auto it = s.lazyTiles.find(key); it != s.lazyTiles.end())
    return it->second;
  const int tile = newTile(type, shape, laneAxis, name);
  s.lazyTiles.emplace(key, tile);
  if (!s.lazyTileScopes.empty())
    s.lazyTileScopes.back().push_back(key);
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

int Lowering::relayout(int tile, int laneAxis, const std::string &name) {
  const npu::TileLayout &from = s.tiles.at(tile).layout;
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

void Lowering::copyTile(int from, int to) {
  const npu::TileLayout &a = s.tiles.at(from).layout;
  const npu::TileLayout &b = s.tiles.at(to).layout;
  npu::Instruction &copy = emit(a.laneAxis == b.laneAxis && a.shape == b.shape ? npu::Opcode::VElementwise
                                                                               : npu::Opcode::XRelayout);
  copy.srcs = {from};
  copy.dsts = {to};
  copy.function.op = npu::ElementOp::Copy;
  copy.function.operandType = a.dtype;
  copy.function.resultType = b.dtype;
}

void Lowering::setTile(const ir::Value *v, int tile) {
  ValueState &st = state(v);
  st.kind = v->type.isScalar() ? ValueState::Kind::ScalarTile : ValueState::Kind::Tile;
  st.tile = tile;
  st.lazy.reset();
  st.broadcastOf = nullptr;
  st.gatherBase = immediate(DType::Int64, 0);
  const int axis = s.tiles.at(tile).layout.laneAxis;
  s.materialized[{idOf(v), axis}] = tile;
  if (!s.scopes.empty())
    s.scopes.back().push_back({idOf(v), axis});
}

void Lowering::setLazy(const ir::Value *v, LazyTile lazy) {
  ValueState &st = state(v);
  st.kind = ValueState::Kind::Tile;
  st.tile = -1;
  st.broadcastOf = nullptr;
  st.gatherBase = immediate(DType::Int64, 0);
  st.lazy = std::move(lazy);
}

int Lowering::tileOf(const ir::Value *v, int laneAxis) {
  const ValueState &st = state(v);
  const DType type = v->type.isPointer ? DType::Int64 : v->type.dtype;
  if (v->type.isScalar())
    return scalarTileOf(v);
  if (auto it = s.materialized.find({idOf(v), laneAxis}); it != s.materialized.end())
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
    if (s.tiles[index].layout.dtype != DType::Int64) {
      const int wide = newTile(DType::Int64, v->type.shape, laneAxis, nameOf(v) + ".i64");
      npu::Instruction &cast = emit(npu::Opcode::VElementwise);
      cast.function.op = npu::ElementOp::Cast;
      cast.function.operandType = s.tiles[index].layout.dtype;
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
    if (v->type.isPointer && s.tiles[tile].layout.dtype != DType::Int64) {
      // A gathered pointer's index tile keeps its own dtype; users of the
      // offsets as a tile get them in 64 bits.
      const int wide = newTile(DType::Int64, v->type.shape, laneAxis, nameOf(v) + ".i64");
      npu::Instruction &cast = emit(npu::Opcode::VElementwise);
      cast.function.op = npu::ElementOp::Cast;
      cast.function.operandType = s.tiles[tile].layout.dtype;
      cast.function.resultType = DType::Int64;
      cast.srcs = {tile};
      cast.dsts = {wide};
      tile = wide;
    }
  } else {
    fail(function, currentOp ? currentOp->loc : core::SourceLocation{},
         "internal: value " + nameOf(v) + " used before it was lowered");
  }
  s.materialized[{idOf(v), laneAxis}] = tile;
  if (!s.scopes.empty())
    s.scopes.back().push_back({idOf(v), laneAxis});
  return tile;
}

int Lowering::anyTileOf(const ir::Value *v, int laneAxis) {
  const ValueState &st = state(v);
  if (st.kind == ValueState::Kind::Tile && !st.lazy && st.tile >= 0 && !st.hasGatherBase())
    return st.tile;
  return tileOf(v, laneAxis);
}

int Lowering::scalarTileOf(const ir::Value *v) {
  const ValueState &st = state(v);
  if (st.kind == ValueState::Kind::ScalarTile)
    return st.tile;
  if (auto it = s.materialized.find({idOf(v), 0}); it != s.materialized.end())
    return it->second;
  const Scalar x = scalarOf(v);
  const DType type = v->type.isPointer ? DType::Int64 : v->type.dtype;
  LazyTile lazy{x, {immediate(DType::Int64, 0)}};
  const int tile = materializeLazy(lazy, type, {1}, 0, nameOf(v));
  s.materialized[{idOf(v), 0}] = tile;
  if (!s.scopes.empty())
    s.scopes.back().push_back({idOf(v), 0});
  return tile;
}

} // namespace npusim::compiler
