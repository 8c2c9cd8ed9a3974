#include "compiler/zero_extent.h"

#include "core/dtype.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>

namespace npusim::compiler {
namespace {

using ir::OpCode;

/// A value that is `slope * i + offset` at index `i` along an axis, the same
/// at every other index.
struct AlongAxis {
  int64_t slope = 1, offset = 0;
};

// Bounded: index arithmetic is a few ops deep; a deeper chain is not proven.
constexpr int kMaxZeroExtentDepth = 16;

/// A signed integer constant: a constant, or a splat or broadcast of one.
std::optional<int64_t> uniformInt(const ir::Value *v) {
  const ir::Op *op = v->definingOp;
  while (op && (op->code == OpCode::Splat || op->code == OpCode::Broadcast || op->code == OpCode::ExpandDims))
    op = op->operands[0]->definingOp;
  if (!op || op->code != OpCode::Constant || core::isFloat(op->result()->type.dtype))
    return std::nullopt;
  return op->constant.intValue;
}

std::optional<AlongAxis> alongAxis(const ir::Value *v, int axis, int depth) {
  const ir::Op *op = v->definingOp;
  if (!op || depth > kMaxZeroExtentDepth || axis < 0 || axis >= static_cast<int>(v->type.shape.size()))
    return std::nullopt;
  switch (op->code) {
  case OpCode::Arange:
    return AlongAxis{1, op->start};
  case OpCode::ExpandDims:
    if (op->axis == axis)
      return std::nullopt;
    return alongAxis(op->operands[0], axis < op->axis ? axis : axis - 1, depth + 1);
  case OpCode::Broadcast:
    if (op->operands[0]->type.shape.at(static_cast<size_t>(axis)) != v->type.shape.at(static_cast<size_t>(axis)))
      return std::nullopt;
    return alongAxis(op->operands[0], axis, depth + 1);
  case OpCode::Add:
  case OpCode::Mul: {
    for (int side = 0; side < 2; ++side) {
      const std::optional<int64_t> n = uniformInt(op->operands[static_cast<size_t>(1 - side)]);
      if (!n)
        continue;
      const std::optional<AlongAxis> x = alongAxis(op->operands[static_cast<size_t>(side)], axis, depth + 1);
      if (!x)
        return std::nullopt;
      AlongAxis r;
      if (op->code == OpCode::Add) {
        r.slope = x->slope;
        if (__builtin_add_overflow(x->offset, *n, &r.offset))
          return std::nullopt;
        return r;
      }
      if (*n < 1 || __builtin_mul_overflow(x->slope, *n, &r.slope) ||
          __builtin_mul_overflow(x->offset, *n, &r.offset))
        return std::nullopt;
      return r;
    }
    return std::nullopt;
  }
  default:
    return std::nullopt;
  }
}

int64_t floorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

std::optional<int64_t> falseFromAt(const ir::Value *mask, int axis, int depth) {
  const ir::Op *op = mask->definingOp;
  if (!op || depth > kMaxZeroExtentDepth || axis < 0 || axis >= static_cast<int>(mask->type.shape.size()))
    return std::nullopt;
  switch (op->code) {
  case OpCode::Constant:
    return op->constant.intValue == 0 ? std::optional<int64_t>(0) : std::nullopt;
  case OpCode::And: {
    const std::optional<int64_t> a = falseFromAt(op->operands[0], axis, depth + 1);
    const std::optional<int64_t> b = falseFromAt(op->operands[1], axis, depth + 1);
    if (a && b)
      return std::min(*a, *b);
    return a ? a : b;
  }
  case OpCode::ExpandDims:
    if (op->axis == axis)
      return std::nullopt;
    return falseFromAt(op->operands[0], axis < op->axis ? axis : axis - 1, depth + 1);
  case OpCode::Broadcast:
    if (op->operands[0]->type.shape.at(static_cast<size_t>(axis)) !=
        mask->type.shape.at(static_cast<size_t>(axis)))
      return std::nullopt;
    return falseFromAt(op->operands[0], axis, depth + 1);
  case OpCode::Cmp: {
    const ir::Value *lhs = op->operands[0], *rhs = op->operands[1];
    const core::DType type = lhs->type.dtype;
    if (type != core::DType::Int32 && type != core::DType::Int64)
      return std::nullopt;
    // x < n or x <= n, written either way round.
    core::CmpPredicate predicate = op->predicate;
    if (predicate == core::CmpPredicate::Gt || predicate == core::CmpPredicate::Ge) {
      std::swap(lhs, rhs);
      predicate = predicate == core::CmpPredicate::Gt ? core::CmpPredicate::Lt : core::CmpPredicate::Le;
    }
    if (predicate != core::CmpPredicate::Lt && predicate != core::CmpPredicate::Le)
      return std::nullopt;
    const std::optional<int64_t> n = uniformInt(rhs);
    const std::optional<AlongAxis> x = alongAxis(lhs, axis, depth + 1);
    if (!n || !x)
      return std::nullopt;
    // The exact values must be the ones the program computes: no wrap in
    // the operands' type anywhere along the axis.
    const int64_t extent = lhs->type.shape.at(static_cast<size_t>(axis));
    int64_t last = 0;
    const int64_t lo = type == core::DType::Int32 ? INT32_MIN : INT64_MIN,
                  hi = type == core::DType::Int32 ? INT32_MAX : INT64_MAX;
    if (__builtin_mul_overflow(x->slope, extent - 1, &last) || __builtin_add_overflow(last, x->offset, &last) ||
        x->offset < lo || last > hi)
      return std::nullopt;
    // False where s * i + o >= n (Lt) or > n (Le): i >= ceil((n - o) / s),
    // or i > floor((n - o) / s).
    int64_t limit = 0;
    if (__builtin_sub_overflow(*n, x->offset, &limit) || limit == INT64_MIN)
      return std::nullopt;
    const int64_t from = predicate == core::CmpPredicate::Lt ? -floorDiv(-limit, x->slope)
                                                              : floorDiv(limit, x->slope) + 1;
    return std::max<int64_t>(0, from);
  }
  default:
    return std::nullopt;
  }
}

bool isZeroConstant(const ir::Value *v) {
  const ir::Op *op = v->definingOp;
  while (op && (op->code == OpCode::Splat || op->code == OpCode::Broadcast || op->code == OpCode::ExpandDims))
    op = op->operands[0]->definingOp;
  if (!op || op->code != OpCode::Constant)
    return false;
  // +0 only: a -0 fill would make a skipped block's sum differ in sign.
  return core::isFloat(op->result()->type.dtype)
             ? op->constant.floatValue == 0.0 && !std::signbit(op->constant.floatValue)
             : op->constant.intValue == 0;
}

std::optional<int64_t> zeroFromAt(const ir::Value *tile, int axis, int depth) {
  const ir::Op *op = tile->definingOp;
  if (!op || depth > kMaxZeroExtentDepth || axis < 0 || axis >= static_cast<int>(tile->type.shape.size()))
    return std::nullopt;
  switch (op->code) {
  case OpCode::Load:
    if (op->operands.size() < 2 || (op->operands.size() > 2 && !isZeroConstant(op->operands[2])))
      return std::nullopt;
    return falseFromAt(op->operands[1], axis, depth + 1);
  case OpCode::Cast:
    return zeroFromAt(op->operands[0], axis, depth + 1);
  case OpCode::Permute:
    return zeroFromAt(op->operands[0], op->order.at(static_cast<size_t>(axis)), depth + 1);
  case OpCode::ExpandDims:
    if (op->axis == axis)
      return std::nullopt;
    return zeroFromAt(op->operands[0], axis < op->axis ? axis : axis - 1, depth + 1);
  case OpCode::Broadcast:
    if (op->operands[0]->type.shape.at(static_cast<size_t>(axis)) != tile->type.shape.at(static_cast<size_t>(axis)))
      return std::nullopt;
    return zeroFromAt(op->operands[0], axis, depth + 1);
  default:
    return isZeroConstant(tile) ? std::optional<int64_t>(0) : std::nullopt;
  }
}

} // namespace

std::optional<int64_t> falseFrom(const ir::Value *mask, int axis) { return falseFromAt(mask, axis, 0); }

std::optional<int64_t> zeroFrom(const ir::Value *tile, int axis) { return zeroFromAt(tile, axis, 0); }

} // namespace npusim::compiler
