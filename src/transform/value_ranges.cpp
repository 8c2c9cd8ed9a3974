// Integer ranges of TileIR values (docs/compiler.md, "Dead lanes"): one
// interval per value, holding every element of it. Program ids are bounded by
// the grid limits Triton launches accept, or for a caller that asks, by the
// grid the function is compiled for; a result that could leave its dtype
// (where i32 arithmetic would wrap) is unknown.
#include "transform/transform_internal.h"

#include <algorithm>
#include <limits>

namespace npusim::transform {
namespace {

using ir::OpCode;

constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
// Triton's grid limits: x below 2^31, y and z below 2^16.
constexpr int64_t kMaxProgramsX = (int64_t{1} << 31) - 1;
constexpr int64_t kMaxProgramsYZ = 65535;

/// The range of every value of `type`; empty for types the analysis does not
/// follow (pointers, floats, unsigned integers).
std::optional<ValueRange> fullRange(const ir::Type &type) {
  if (type.isPointer)
    return std::nullopt;
  switch (type.dtype) {
  case ir::DType::Bool: return ValueRange{0, 1};
  case ir::DType::Int8: return ValueRange{-128, 127};
  case ir::DType::Int16: return ValueRange{-32768, 32767};
  case ir::DType::Int32:
    return ValueRange{std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()};
  case ir::DType::Int64: return ValueRange{kMin, kMax};
  default: return std::nullopt;
  }
}

/// `r` when it fits `type`, else the full range of `type`.
std::optional<ValueRange> fitted(const ir::Type &type, std::optional<ValueRange> r) {
  const auto full = fullRange(type);
  if (!full || !r || r->lo < full->lo || r->hi > full->hi)
    return full;
  return r;
}

/// The hull of `f` over the corners of `a` x `b`, or empty when one overflows.
template <typename F> std::optional<ValueRange> corners(ValueRange a, ValueRange b, F f) {
  int64_t lo = kMax, hi = kMin;
  for (int64_t x : {a.lo, a.hi})
    for (int64_t y : {b.lo, b.hi}) {
      int64_t r = 0;
      if (!f(x, y, r))
        return std::nullopt;
      lo = std::min(lo, r);
      hi = std::max(hi, r);
    }
  return ValueRange{lo, hi};
}

std::optional<ValueRange> remainder(ValueRange x, ValueRange d) {
  if (d.lo <= 0) // C remainder by a divisor that may be negative or zero
    return std::nullopt;
  if (x.lo >= 0 && x.hi < d.lo)
    return x;
  if (x.lo >= 0)
    return ValueRange{0, std::min(x.hi, d.hi - 1)};
  if (x.hi <= 0)
    return ValueRange{std::max(x.lo, 1 - d.hi), 0};
  return ValueRange{1 - d.hi, d.hi - 1};
}

std::optional<ValueRange> compare(ir::CmpPredicate p, ValueRange a, ValueRange b) {
  bool always = false, never = false;
  switch (p) {
  case ir::CmpPredicate::Lt: always = a.hi < b.lo, never = a.lo >= b.hi; break;
  case ir::CmpPredicate::Le: always = a.hi <= b.lo, never = a.lo > b.hi; break;
  case ir::CmpPredicate::Gt: always = a.lo > b.hi, never = a.hi <= b.lo; break;
  case ir::CmpPredicate::Ge: always = a.lo >= b.hi, never = a.hi < b.lo; break;
  case ir::CmpPredicate::Eq:
    always = a.lo == a.hi && b.lo == b.hi && a.lo == b.lo, never = a.hi < b.lo || b.hi < a.lo;
    break;
  case ir::CmpPredicate::Ne:
    never = a.lo == a.hi && b.lo == b.hi && a.lo == b.lo, always = a.hi < b.lo || b.hi < a.lo;
    break;
  }
  return ValueRange{always ? 1 : 0, never ? 0 : 1};
}

class RangeAnalysis {
public:
  RangeAnalysis(const ir::Function &function, const std::function<ValueRange(const ir::Op &)> &arangeRange,
                bool withinGrid)
      : arangeRange_(arangeRange), programs_(withinGrid ? function.programs() : std::array<int64_t, 3>{0, 0, 0}),
        ranges_(static_cast<size_t>(function.numValues())) {
    for (const ir::Value *argument : function.body().arguments)
      setUnknown(argument);
    visit(function.body());
  }
  std::vector<std::optional<ValueRange>> take() { return std::move(ranges_); }

private:
  std::optional<ValueRange> of(const ir::Value *v) const { return ranges_[static_cast<size_t>(v->id)]; }
  void set(const ir::Value *v, std::optional<ValueRange> r) {
    ranges_[static_cast<size_t>(v->id)] = fitted(v->type, r);
  }
  void setUnknown(const ir::Value *v) { ranges_[static_cast<size_t>(v->id)] = fullRange(v->type); }

  /// The ranges of `block`'s ops, its arguments' ranges set by the caller.
  void visit(const ir::Block &block) {
    for (const auto &op : block.ops) {
      for (const ir::Value *r : op->results)
        setUnknown(r);
      if (op->results.size() == 1)
        set(op->result(), rangeOf(*op));
      for (const auto &region : op->regions) {
        for (const ir::Value *argument : region->arguments)
          setUnknown(argument);
        if (op->code == OpCode::For && !region->arguments.empty())
          set(region->arguments[0], inductionRange(*op));
        visit(*region);
      }
    }
  }

  /// A loop that steps up keeps its induction variable in [lower, upper - 1].
  /// With a constant start and step it takes only start + k step, so its
  /// largest value is the last such point below upper: a loop over a row of
  /// 2048 in blocks of 512 ends at 1536, and `offset + arange(0, 512) < 2048`
  /// holds in every iteration (Inductor's `r0_mask`).
  std::optional<ValueRange> inductionRange(const ir::Op &loop) const {
    const auto lower = of(loop.operands[0]), upper = of(loop.operands[1]), step = of(loop.operands[2]);
    if (!lower || !upper || !step || step->lo <= 0 || upper->hi == kMin)
      return std::nullopt;
    const int64_t last = std::max(lower->lo, upper->hi - 1);
    if (lower->lo == lower->hi && step->lo == step->hi && last > lower->lo) {
      // (last - lo) cannot overflow: last > lo, both within int64.
      const uint64_t span = static_cast<uint64_t>(last) - static_cast<uint64_t>(lower->lo);
      const uint64_t steps = span / static_cast<uint64_t>(step->lo);
      return ValueRange{lower->lo, static_cast<int64_t>(static_cast<uint64_t>(lower->lo) +
                                                        steps * static_cast<uint64_t>(step->lo))};
    }
    return ValueRange{lower->lo, last};
  }

  std::optional<ValueRange> rangeOf(const ir::Op &op) const {
    const auto operand = [&](size_t i) { return of(op.operands.at(i)); };
    const ir::Type &type = op.result()->type;
    switch (op.code) {
    case OpCode::Constant:
      if (!fullRange(type))
        return std::nullopt;
      return ValueRange{op.constant.intValue, op.constant.intValue};
    case OpCode::ProgramId: return ValueRange{0, programsAlong(op.axis) - 1};
    case OpCode::NumPrograms: {
      const int64_t n = programsAlong(op.axis);
      return ValueRange{programs_.at(static_cast<size_t>(op.axis)) > 0 ? n : 1, n};
    }
    case OpCode::Arange: return arangeRange_(op);
    case OpCode::Splat:
    case OpCode::Broadcast:
    case OpCode::ExpandDims:
    case OpCode::Reshape:
    case OpCode::Slice:
    case OpCode::Permute: return operand(0);
    case OpCode::Cast: return type.isBool() ? std::optional<ValueRange>{} : operand(0);
    default: break;
    }
    if (!ir::opTraits(op.code).elementwise || !fullRange(type))
      return std::nullopt;
    for (size_t i = op.code == OpCode::Select ? 1 : 0; i < op.operands.size(); ++i)
      if (!operand(i))
        return std::nullopt;
    const auto a = op.operands.empty() ? std::nullopt : operand(0);
    const auto b = op.operands.size() < 2 ? std::nullopt : operand(1);
    switch (op.code) {
    case OpCode::Add:
      return corners(*a, *b,
                     [](int64_t x, int64_t y, int64_t &r) { return !__builtin_add_overflow(x, y, &r); });
    case OpCode::Sub:
      return corners(*a, *b,
                     [](int64_t x, int64_t y, int64_t &r) { return !__builtin_sub_overflow(x, y, &r); });
    case OpCode::Mul:
      return corners(*a, *b,
                     [](int64_t x, int64_t y, int64_t &r) { return !__builtin_mul_overflow(x, y, &r); });
    case OpCode::Div:
      if (b->lo <= 0 && b->hi >= 0)
        return std::nullopt;
      return corners(*a, *b, [](int64_t x, int64_t y, int64_t &r) {
        if (x == kMin && y == -1)
          return false;
        r = x / y;
        return true;
      });
    case OpCode::Rem: return remainder(*a, *b);
    case OpCode::Min: return ValueRange{std::min(a->lo, b->lo), std::min(a->hi, b->hi)};
    case OpCode::Max: return ValueRange{std::max(a->lo, b->lo), std::max(a->hi, b->hi)};
    case OpCode::Neg:
      if (a->lo == kMin)
        return std::nullopt;
      return ValueRange{-a->hi, -a->lo};
    case OpCode::Cmp: return compare(op.predicate, *a, *b);
    case OpCode::And:
      if (!type.isBool())
        return std::nullopt;
      return ValueRange{std::min(a->lo, b->lo), std::min(a->hi, b->hi)};
    case OpCode::Or:
      if (!type.isBool())
        return std::nullopt;
      return ValueRange{std::max(a->lo, b->lo), std::max(a->hi, b->hi)};
    case OpCode::Not:
      if (!type.isBool())
        return std::nullopt;
      return ValueRange{1 - a->hi, 1 - a->lo};
    case OpCode::Select: {
      const auto cond = operand(0);
      if (cond && cond->lo == 1)
        return b;
      const auto c = operand(2);
      if (cond && cond->hi == 0)
        return c;
      return ValueRange{std::min(b->lo, c->lo), std::max(b->hi, c->hi)};
    }
    default: return std::nullopt;
    }
  }

  /// The grid the function is compiled for along `axis`, else Triton's limit.
  int64_t programsAlong(int axis) const {
    const int64_t known = programs_.at(static_cast<size_t>(axis));
    return known > 0 ? known : axis == 0 ? kMaxProgramsX : kMaxProgramsYZ;
  }

  const std::function<ValueRange(const ir::Op &)> &arangeRange_;
  std::array<int64_t, 3> programs_;
  std::vector<std::optional<ValueRange>> ranges_;
};

} // namespace

std::vector<std::optional<ValueRange>>
valueRanges(const ir::Function &function, const std::function<ValueRange(const ir::Op &)> &arangeRange,
            bool withinGrid) {
  return RangeAnalysis(function, arangeRange, withinGrid).take();
}

std::optional<int64_t> smallInt32Constant(const ir::Value *v) {
  const ir::Op *op = v->definingOp;
  while (op && (op->code == OpCode::Splat || op->code == OpCode::Broadcast || op->code == OpCode::ExpandDims))
    op = op->operands[0]->definingOp;
  if (!op || op->code != OpCode::Constant || op->result()->type.dtype != ir::DType::Int32)
    return std::nullopt;
  const int64_t k = op->constant.intValue;
  if (k < -(int64_t{1} << 16) || k > (int64_t{1} << 16))
    return std::nullopt;
  return k;
}

} // namespace npusim::transform
