// Uniform offsets (docs/compiler.md, "Split offsets"). A convolution
// template's tap offset is `(idx_y_h + i - 1) * stride_h + (idx_y_w + j - 1)
// * stride_w + ...`: a tile fixed for the instance plus the tap's scalar
// shift, but written so that every tap computes a tile of its own. Split as
// `addptr(addptr(p, tile part), splat(scalar part))`, the tile part is the
// same in every tap (`cse` merges it) and the lowering moves only the
// gathered pointer's base register by the splat.
#include "transform/transform.h"
#include "transform/transform_internal.h"

#include "ir/builder.h"

#include <limits>

namespace npusim::transform {
namespace {

using ir::OpCode;

bool fits(ValueRange r) {
  return r.lo >= kInt32Min && r.hi <= kInt32Max;
}

/// An i32 offset as `tile + splat(scalar)`: either part may be absent (zero).
/// The ranges hold every element of each part, and every value computed on
/// the way, so that no part wraps where the original did not.
struct Split {
  ir::Value *tile = nullptr;
  ir::Value *scalar = nullptr;
  ValueRange tileRange{0, 0};
  ValueRange scalarRange{0, 0};
  bool hasTile = false, hasScalar = false; // known also where nothing is built
};

class Splitter {
public:
  Splitter(ir::Function &function, const std::vector<std::optional<ValueRange>> &ranges)
      : b_(function), ranges_(ranges) {}

  /// The split of `v`, building its ops into `into` when `build`; nothing
  /// where a range is unknown or a part could wrap.
  std::optional<Split> split(const ir::Value *v, bool build, ir::Block *into) {
    b_.setInsertionBlock(into);
    return of(v, build);
  }

private:
  std::optional<ValueRange> rangeOf(const ir::Value *v) const {
    const auto r = ranges_[static_cast<size_t>(v->id)];
    if (!r || r->lo <= kInt32Min || r->hi >= kInt32Max) // unknown, or may have wrapped
      return std::nullopt;
    return r;
  }

  std::optional<Split> leaf(const ir::Value *v) const {
    const auto r = rangeOf(v);
    if (!r)
      return std::nullopt;
    return Split{const_cast<ir::Value *>(v), nullptr, *r, {0, 0}, true, false};
  }

  std::optional<Split> of(const ir::Value *v, bool build) {
    if (v->type.isPointer || v->type.dtype != ir::DType::Int32)
      return std::nullopt;
    const ir::Op *op = v->definingOp;
    if (!op)
      return leaf(v);
    switch (op->code) {
    case OpCode::Splat: {
      const auto r = rangeOf(op->operands[0]);
      if (!r)
        return std::nullopt;
      return Split{nullptr, op->operands[0], {0, 0}, *r, false, true};
    }
    case OpCode::ExpandDims:
    case OpCode::Broadcast: {
      auto s = of(op->operands[0], build);
      if (!s)
        return leaf(v);
      if (build && s->tile)
        s->tile = op->code == OpCode::ExpandDims ? b_.expandDims(s->tile, op->axis)
                                                 : b_.broadcast(s->tile, v->type.shape);
      return s;
    }
    case OpCode::Add:
    case OpCode::Sub: {
      auto x = of(op->operands[0], build);
      auto y = x ? of(op->operands[1], build) : std::nullopt;
      if (!x || !y)
        return leaf(v);
      if (x->tile && y->tile && x->tile->type.shape != y->tile->type.shape)
        return leaf(v); // the parts' shapes differ where a broadcast was implicit in the original
      return combine(op->code, *x, *y, v, build);
    }
    case OpCode::Mul: {
      for (int side = 0; side < 2; ++side) {
        const auto k = smallInt32Constant(op->operands[1 - side]);
        if (!k)
          continue;
        auto x = of(op->operands[side], build);
        if (!x)
          return leaf(v);
        return scale(*x, *k, v, build);
      }
      return leaf(v);
    }
    default: return leaf(v);
    }
  }

  std::optional<Split> combine(OpCode code, const Split &x, const Split &y, const ir::Value *v, bool build) {
    Split r;
    const bool add = code == OpCode::Add;
    r.tileRange = add ? ValueRange{x.tileRange.lo + y.tileRange.lo, x.tileRange.hi + y.tileRange.hi}
                      : ValueRange{x.tileRange.lo - y.tileRange.hi, x.tileRange.hi - y.tileRange.lo};
    r.scalarRange =
        add ? ValueRange{x.scalarRange.lo + y.scalarRange.lo, x.scalarRange.hi + y.scalarRange.hi}
            : ValueRange{x.scalarRange.lo - y.scalarRange.hi, x.scalarRange.hi - y.scalarRange.lo};
    r.hasTile = x.hasTile || y.hasTile;
    r.hasScalar = x.hasScalar || y.hasScalar;
    if (!fits(r.tileRange) || !fits(r.scalarRange))
      return leaf(v);
    if (!build)
      return r;
    if (x.tile && y.tile)
      r.tile = b_.binary(code, x.tile, y.tile);
    else if (y.tile)
      r.tile = add ? y.tile
                   : b_.binary(OpCode::Sub, b_.constantInt(ir::DType::Int32, 0, y.tile->type.shape), y.tile);
    else
      r.tile = x.tile;
    if (x.scalar && y.scalar)
      r.scalar = b_.binary(code, x.scalar, y.scalar);
    else if (y.scalar)
      r.scalar = add ? y.scalar : b_.binary(OpCode::Sub, b_.constantInt(ir::DType::Int32, 0), y.scalar);
    else
      r.scalar = x.scalar;
    return r;
  }

  std::optional<Split> scale(const Split &x, int64_t k, const ir::Value *v, bool build) {
    auto times = [k](ValueRange r) {
      return ValueRange{std::min(r.lo * k, r.hi * k), std::max(r.lo * k, r.hi * k)};
    };
    Split r{nullptr, nullptr, times(x.tileRange), times(x.scalarRange), x.hasTile, x.hasScalar};
    if (!fits(r.tileRange) || !fits(r.scalarRange))
      return leaf(v);
    if (!build)
      return r;
    if (x.tile)
      r.tile = b_.binary(OpCode::Mul, x.tile, b_.constantInt(ir::DType::Int32, k, x.tile->type.shape));
    if (x.scalar)
      r.scalar = b_.binary(OpCode::Mul, x.scalar, b_.constantInt(ir::DType::Int32, k));
    return r;
  }

  ir::Builder b_;
  const std::vector<std::optional<ValueRange>> &ranges_;
};

/// Whether `v`'s definition already has the split form `t + splat(s)` (or a
/// splat alone): nothing to gain.
bool alreadySplit(const ir::Value *v) {
  const ir::Op *op = v->definingOp;
  if (!op)
    return true;
  if (op->code == OpCode::Splat)
    return true;
  if (op->code != OpCode::Add)
    return false;
  for (const ir::Value *operand : op->operands)
    if (operand->definingOp && operand->definingOp->code == OpCode::Splat)
      return true;
  return false;
}

void visit(ir::Function &function, ir::Block &block, Splitter &splitter) {
  for (size_t i = 0; i < block.ops.size(); ++i) {
    ir::Op &op = *block.ops[i];
    for (auto &region : op.regions)
      visit(function, *region, splitter);
    if (op.code != OpCode::AddPtr || op.result()->type.isScalar() || alreadySplit(op.operands[1]))
      continue;
    const auto plan = splitter.split(op.operands[1], false, &block);
    if (!plan || !plan->hasScalar || !plan->hasTile ||
        !fits({plan->tileRange.lo + plan->scalarRange.lo, plan->tileRange.hi + plan->scalarRange.hi}))
      continue;
    ir::Block scratch;
    const auto built = splitter.split(op.operands[1], true, &scratch);
    ir::Builder b(function);
    b.setInsertionBlock(&scratch);
    b.setLocation(op.loc);
    ir::Value *tile = built->tile;
    if (tile->type.shape != op.result()->type.shape)
      tile = b.broadcast(tile, op.result()->type.shape);
    ir::Value *inner = b.binary(OpCode::AddPtr, op.operands[0], tile);
    ir::Value *shift = b.splat(built->scalar, op.result()->type.shape);
    op.operands = {inner, shift};
    for (auto &made : scratch.ops)
      made->loc = op.loc;
    const size_t n = scratch.ops.size();
    block.ops.insert(block.ops.begin() + static_cast<std::ptrdiff_t>(i),
                     std::make_move_iterator(scratch.ops.begin()),
                     std::make_move_iterator(scratch.ops.end()));
    i += n;
  }
}

} // namespace

void splitUniformOffsets(ir::Function &function) {
  const auto ranges = valueRanges(function, [](const ir::Op &op) {
    return ValueRange{op.start, op.end - 1};
  });
  Splitter splitter(function, ranges);
  visit(function, function.body(), splitter);
}

} // namespace npusim::transform
