// Widened index casts (docs/compiler.md, "Widened index casts"). A kernel
// captured with dynamic shapes multiplies its i32 index by i64 sizes, so the
// front end widens the index: `cast<i64>(pid * XBLOCK + arange)`. The lowering
// holds affine tiles exactly in 64 bits, so it cannot keep such a cast lazy
// (the i32 sum might have wrapped) and materialises the index: every offset
// built from it is a gather. Where value ranges prove that no i32 step wraps
// (program ids bounded by the grid the function is compiled for), the cast
// moves down to the leaves: `cast(pid) * XBLOCK + cast(arange)` in i64, which
// is the same value and stays affine.
#include "transform/transform.h"
#include "transform/transform_internal.h"

#include "ir/builder.h"

#include <limits>
#include <map>

namespace npusim::transform {
namespace {

using ir::OpCode;

class Widener {
public:
  explicit Widener(ir::Function &function)
      : function_(function), ranges_(valueRanges(
                                 function,
                                 [](const ir::Op &arange) {
                                   return ValueRange{arange.start, arange.end - 1};
                                 },
                                 true)),
        b_(function) {}

  void run(ir::Block &block) {
    for (size_t i = 0; i < block.ops.size(); ++i) {
      ir::Op &op = *block.ops[i];
      for (auto &region : op.regions)
        run(*region);
      if (!isIndexWidening(op))
        continue;
      // A leaf's cast is as good as itself: only arithmetic gains.
      const ir::Op *source = op.operands[0]->definingOp;
      if (!source || source->code == OpCode::Splat || source->code == OpCode::Arange ||
          source->code == OpCode::Constant || !widens(op.operands[0], 0))
        continue;
      ir::Block built;
      b_.setInsertionBlock(&built);
      b_.setLocation(op.loc);
      ir::Value *widened = widen(op.operands[0]);
      replacement_[op.result()] = widened;
      i += spliceBefore(block, i, built);
    }
  }

  void finish() {
    if (!replacement_.empty())
      replaceUses(function_.body(), replacement_);
  }

private:
  static bool isIndexWidening(const ir::Op &op) {
    return op.code == OpCode::Cast && op.operands.size() == 1 && op.results.size() == 1 &&
           !op.result()->type.isScalar() && !op.result()->type.isPointer &&
           op.result()->type.dtype == ir::DType::Int64 && op.operands[0]->type.dtype == ir::DType::Int32;
  }

  std::optional<ValueRange> rangeOf(const ir::Value *v) const {
    const size_t id = static_cast<size_t>(v->id);
    return id < ranges_.size() ? ranges_[id] : std::nullopt;
  }

  /// Whether `a op b` over the operands' ranges stays within i32: then the
  /// i32 op wraps nowhere and the same op in i64 gives the same values.
  bool exactInInt32(const ir::Op &op) const {
    const auto a = rangeOf(op.operands[0]), b = rangeOf(op.operands[1]);
    if (!a || !b)
      return false;
    int64_t lo = std::numeric_limits<int64_t>::max(), hi = std::numeric_limits<int64_t>::min();
    for (int64_t x : {a->lo, a->hi})
      for (int64_t y : {b->lo, b->hi}) {
        int64_t r = 0;
        const bool overflow = op.code == OpCode::Add   ? __builtin_add_overflow(x, y, &r)
                              : op.code == OpCode::Sub ? __builtin_sub_overflow(x, y, &r)
                                                       : __builtin_mul_overflow(x, y, &r);
        if (overflow)
          return false;
        lo = std::min(lo, r);
        hi = std::max(hi, r);
      }
    return lo >= std::numeric_limits<int32_t>::min() && hi <= std::numeric_limits<int32_t>::max();
  }

  /// Whether `v` widens to an affine i64 tile: its leaves are aranges, splats
  /// and constants, joined by adds, subs and products that never wrap in i32,
  /// broadcasts and expand_dims. A leaf computed otherwise (a division's
  /// digit) is materialised either way, and widening would only move the
  /// arithmetic above it to i64.
  bool widens(const ir::Value *v, int depth) const {
    const ir::Op *op = v->definingOp;
    if (!op || depth > 32 || v->type.dtype != ir::DType::Int32)
      return false;
    switch (op->code) {
    case OpCode::Add:
    case OpCode::Sub:
    case OpCode::Mul:
      return op->operands.size() == 2 && exactInInt32(*op) && widens(op->operands[0], depth + 1) &&
             widens(op->operands[1], depth + 1);
    case OpCode::Broadcast:
    case OpCode::ExpandDims: return widens(op->operands[0], depth + 1);
    case OpCode::Arange:
    case OpCode::Splat:
    case OpCode::Constant: return true;
    default: return false;
    }
  }

  /// The i64 value equal to `v` (which widens) built from its leaves' casts.
  ir::Value *widen(ir::Value *v) {
    const ir::Op *op = v->definingOp;
    switch (op->code) {
    case OpCode::Add:
    case OpCode::Sub:
    case OpCode::Mul: {
      // One statement per op made, so that their order is the operands'.
      ir::Value *a = widen(op->operands[0]);
      ir::Value *b = widen(op->operands[1]);
      return b_.binary(op->code, a, b);
    }
    case OpCode::Splat: return b_.splat(b_.cast(op->operands[0], ir::DType::Int64), v->type.shape);
    case OpCode::Broadcast: return b_.broadcast(widen(op->operands[0]), v->type.shape);
    case OpCode::ExpandDims: return b_.expandDims(widen(op->operands[0]), op->axis);
    default: return b_.cast(v, ir::DType::Int64); // an arange or a constant
    }
  }

  ir::Function &function_;
  std::vector<std::optional<ValueRange>> ranges_;
  ir::Builder b_;
  std::map<const ir::Value *, ir::Value *> replacement_;
};

} // namespace

void widenIndexCasts(ir::Function &function) {
  Widener widener(function);
  widener.run(function.body());
  widener.finish();
}

} // namespace npusim::transform
