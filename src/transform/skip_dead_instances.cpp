// Dead instances (docs/compiler.md, "Dead instances"). Inductor's grouped
// and depthwise convolution templates launch `cdiv(OUT_C, BLOCK_N)` instances
// along y although each group has `GROUP_OUT_C` output channels: the store
// mask `pid_y * BLOCK_N + arange < GROUP_OUT_C` is false everywhere in every
// instance but the first, which still runs the whole K loop. The pass bounds
// each integer operand of each store's mask comparisons by scalars of the
// instance (the least and greatest element, from program ids and arguments)
// and runs the body only where some store may write.
#include "transform/transform.h"
#include "transform/transform_internal.h"

#include "ir/builder.h"

#include <limits>
#include <map>
#include <set>

namespace npusim::transform {
namespace {

using ir::OpCode;

/// Scalar values bounding every element of an integer tile, and the interval
/// those scalars themselves lie in (from the value ranges), which proves that
/// the scalar arithmetic building them does not wrap.
struct Bounds {
  ir::Value *lo = nullptr, *hi = nullptr;
  ValueRange range;
};

bool fitsInt32(ValueRange r) {
  return r.lo >= kInt32Min && r.hi <= kInt32Max;
}

class GuardBuilder {
public:
  GuardBuilder(ir::Function &function, ir::Block &scratch)
      : body_(function.body()), b_(function), ranges_(valueRanges(function, [](const ir::Op &op) {
          return ValueRange{op.start, op.end - 1};
        })) {
    b_.setInsertionBlock(&scratch);
    for (const auto &op : body_.ops)
      topLevel_.insert(op.get());
  }

  void setLocation(const core::SourceLocation &loc) { b_.setLocation(loc); }

  /// The top-level ops the built scalars read, directly or through others.
  const std::set<const ir::Op *> &needed() const { return needed_; }

  /// A scalar i1 that is true wherever `mask` is true somewhere, or null.
  ir::Value *someTrue(const ir::Value *mask) {
    const ir::Op *op = mask->definingOp;
    if (!op)
      return nullptr;
    switch (op->code) {
    case OpCode::And: {
      ir::Value *a = someTrue(op->operands[0]);
      ir::Value *c = someTrue(op->operands[1]);
      if (a && c)
        return b_.binary(OpCode::And, a, c);
      return a ? a : c; // one conjunct alone is still necessary
    }
    case OpCode::ExpandDims:
    case OpCode::Broadcast: return someTrue(op->operands[0]);
    case OpCode::Splat: return hoistable(op->operands[0]) ? op->operands[0] : nullptr;
    case OpCode::Cmp: return comparable(*op);
    default: return nullptr;
    }
  }

private:
  /// `x p y` holds for some element pair only if it holds for the bounds
  /// that favour it.
  ir::Value *comparable(const ir::Op &cmp) {
    const auto x = bounds(cmp.operands[0]);
    if (!x)
      return nullptr;
    const auto y = bounds(cmp.operands[1]);
    if (!y)
      return nullptr;
    switch (cmp.predicate) {
    case ir::CmpPredicate::Lt:
    case ir::CmpPredicate::Le: return b_.cmp(cmp.predicate, x->lo, y->hi);
    case ir::CmpPredicate::Gt:
    case ir::CmpPredicate::Ge: return b_.cmp(cmp.predicate, x->hi, y->lo);
    case ir::CmpPredicate::Eq:
      return b_.binary(OpCode::And, b_.cmp(ir::CmpPredicate::Le, x->lo, y->hi),
                       b_.cmp(ir::CmpPredicate::Le, y->lo, x->hi));
    case ir::CmpPredicate::Ne: return nullptr;
    }
    return nullptr;
  }

  /// Bounds of an i32 value's elements, from splats of instance scalars,
  /// constants and aranges through adds, subtractions, multiplications by a
  /// constant and shape ops whose ranges fit i32.
  std::optional<Bounds> bounds(const ir::Value *v) {
    if (auto it = known_.find(v); it != known_.end())
      return it->second;
    std::optional<Bounds> found = newBounds(v);
    if (found)
      known_[v] = *found;
    return found;
  }

  std::optional<Bounds> newBounds(const ir::Value *v) {
    if (v->type.isPointer || v->type.dtype != ir::DType::Int32)
      return std::nullopt;
    const auto range = ranges_[static_cast<size_t>(v->id)];
    if (!range || range->lo <= kInt32Min || range->hi >= kInt32Max) // unknown, or may have wrapped
      return std::nullopt;
    if (v->type.rank() == 0 && hoistable(v)) {
      ir::Value *s = const_cast<ir::Value *>(v);
      return Bounds{s, s, *range};
    }
    const ir::Op *op = v->definingOp;
    if (!op)
      return std::nullopt;
    switch (op->code) {
    case OpCode::Splat:
    case OpCode::ExpandDims:
    case OpCode::Broadcast: return bounds(op->operands[0]);
    case OpCode::Constant: {
      ir::Value *c = b_.constantInt(ir::DType::Int32, op->constant.intValue);
      return Bounds{c, c, *range};
    }
    case OpCode::Arange:
      return Bounds{b_.constantInt(ir::DType::Int32, op->start),
                    b_.constantInt(ir::DType::Int32, op->end - 1), *range};
    case OpCode::Add:
    case OpCode::Sub: return sum(*op);
    case OpCode::Mul: return product(*op);
    default: return std::nullopt;
    }
  }

  std::optional<Bounds> sum(const ir::Op &op) {
    const auto x = bounds(op.operands[0]);
    if (!x)
      return std::nullopt;
    const auto y = bounds(op.operands[1]);
    if (!y)
      return std::nullopt;
    if (op.code == OpCode::Add) {
      const ValueRange r{x->range.lo + y->range.lo, x->range.hi + y->range.hi};
      if (!fitsInt32(r))
        return std::nullopt;
      return Bounds{b_.binary(OpCode::Add, x->lo, y->lo), b_.binary(OpCode::Add, x->hi, y->hi), r};
    }
    const ValueRange r{x->range.lo - y->range.hi, x->range.hi - y->range.lo};
    if (!fitsInt32(r))
      return std::nullopt;
    return Bounds{b_.binary(OpCode::Sub, x->lo, y->hi), b_.binary(OpCode::Sub, x->hi, y->lo), r};
  }

  std::optional<Bounds> product(const ir::Op &op) {
    for (int side = 0; side < 2; ++side) {
      const auto k = smallInt32Constant(op.operands[1 - side]);
      if (!k)
        continue;
      const auto x = bounds(op.operands[side]);
      if (!x)
        return std::nullopt;
      const ValueRange r{std::min(x->range.lo * *k, x->range.hi * *k),
                         std::max(x->range.lo * *k, x->range.hi * *k)};
      if (!fitsInt32(r))
        return std::nullopt;
      ir::Value *factor = b_.constantInt(ir::DType::Int32, *k);
      ir::Value *lo = b_.binary(OpCode::Mul, *k >= 0 ? x->lo : x->hi, factor);
      ir::Value *hi = b_.binary(OpCode::Mul, *k >= 0 ? x->hi : x->lo, factor);
      return Bounds{lo, hi, r};
    }
    return std::nullopt;
  }

  /// A scalar the instance knows before its body runs: an argument, or a
  /// top-level pure op (program ids, constants, arithmetic) of such scalars.
  bool hoistable(const ir::Value *v) {
    if (v->type.rank() != 0)
      return false;
    const ir::Op *op = v->definingOp;
    if (!op)
      return v->ownerBlock == &body_;
    if (needed_.count(op))
      return true;
    if (!topLevel_.count(op) || !isPureOp(*op))
      return false;
    for (const ir::Value *operand : op->operands)
      if (!hoistable(operand))
        return false;
    needed_.insert(op);
    return true;
  }

  ir::Block &body_;
  ir::Builder b_;
  std::vector<std::optional<ValueRange>> ranges_;
  std::set<const ir::Op *> topLevel_;
  std::set<const ir::Op *> needed_;
  std::map<const ir::Value *, Bounds> known_;
};

/// Drops the ops of `block` that `root` does not read, directly or through
/// others (the bounds built for the side of a comparison that decides nothing).
void keepOnlyWhatFeeds(ir::Block &block, const ir::Value *root) {
  std::set<const ir::Value *> used{root};
  std::vector<std::unique_ptr<ir::Op>> kept;
  for (auto it = block.ops.rbegin(); it != block.ops.rend(); ++it) {
    if (!used.count((*it)->result()))
      continue;
    used.insert((*it)->operands.begin(), (*it)->operands.end());
    kept.push_back(std::move(*it));
  }
  block.ops.assign(std::make_move_iterator(kept.rbegin()), std::make_move_iterator(kept.rend()));
}

/// The stores of `block` and its regions, or nothing when an op other than a
/// store has an effect that skipping it would lose (atomics, asserts,
/// barriers): only then is an instance without stores dead.
bool collectStores(const ir::Block &block, std::vector<const ir::Op *> &stores, bool &hasLoop) {
  for (const auto &op : block.ops) {
    if (op->code == OpCode::Store)
      stores.push_back(op.get());
    else if (op->code == OpCode::AtomicRMW || op->code == OpCode::Assert || op->code == OpCode::Barrier)
      return false;
    hasLoop = hasLoop || op->code == OpCode::For;
    for (const auto &region : op->regions)
      if (!collectStores(*region, stores, hasLoop))
        return false;
  }
  return true;
}

/// The value of the scalar test `v` in the instance whose program id is 1
/// along `axis` and 0 along the others, from constants and program ids
/// through integer arithmetic, comparisons and logic; nothing where it
/// depends on anything else (an argument).
std::optional<int64_t> valueNextToFirst(const ir::Value *v, int axis) {
  const ir::Op *op = v->definingOp;
  if (!op || !v->type.isScalar())
    return std::nullopt;
  if (op->code == OpCode::Constant)
    return op->constant.intValue;
  if (op->code == OpCode::ProgramId)
    return op->axis == axis ? 1 : 0;
  if (op->operands.size() != 2)
    return std::nullopt;
  const auto a = valueNextToFirst(op->operands[0], axis);
  const auto c = a ? valueNextToFirst(op->operands[1], axis) : std::nullopt;
  if (!c)
    return std::nullopt;
  switch (op->code) {
  case OpCode::Add: return *a + *c;
  case OpCode::Sub: return *a - *c;
  case OpCode::Mul: return *a * *c;
  case OpCode::And: return *a & *c;
  case OpCode::Or: return *a | *c;
  case OpCode::Cmp:
    switch (op->predicate) {
    case ir::CmpPredicate::Lt: return *a < *c;
    case ir::CmpPredicate::Le: return *a <= *c;
    case ir::CmpPredicate::Gt: return *a > *c;
    case ir::CmpPredicate::Ge: return *a >= *c;
    case ir::CmpPredicate::Eq: return *a == *c;
    case ir::CmpPredicate::Ne: return *a != *c;
    }
    return std::nullopt;
  default: return std::nullopt;
  }
}

} // namespace

void skipDeadInstances(ir::Function &function) {
  ir::Block &body = function.body();
  std::vector<const ir::Op *> stores;
  bool hasLoop = false;
  // Only a body with a loop does enough work to pay for the test; a store
  // without a mask writes in every instance.
  if (!collectStores(body, stores, hasLoop) || !hasLoop || stores.empty())
    return;
  ir::Block scratch;
  GuardBuilder guard(function, scratch);
  ir::Builder b(function);
  b.setInsertionBlock(&scratch);
  ir::Value *live = nullptr;
  for (const ir::Op *store : stores) {
    guard.setLocation(store->loc);
    ir::Value *writes = store->operands.size() == 3 ? guard.someTrue(store->operands[2]) : nullptr;
    if (!writes)
      return; // the ops built so far are dropped with `scratch`
    b.setLocation(store->loc);
    live = live ? b.binary(OpCode::Or, live, writes) : writes;
  }

  // The test pays where an instance next to the first along some axis is
  // already dead (a grouped convolution's second column block); where every
  // such instance may write (a GEMM's `pid * BLOCK < N`), the grid is likely
  // all live and the test would only cost.
  bool deadNextToFirst = false;
  for (int axis = 0; axis < 3; ++axis)
    deadNextToFirst = deadNextToFirst || valueNextToFirst(live, axis) == 0;
  if (!deadNextToFirst)
    return;

  // The scalars the test reads first (in their order), then the test, then
  // the rest of the body inside `if`.
  std::vector<std::unique_ptr<ir::Op>> first, rest;
  for (auto &op : body.ops)
    (guard.needed().count(op.get()) ? first : rest).push_back(std::move(op));
  keepOnlyWhatFeeds(scratch, live);
  body.ops = std::move(first);
  for (auto &op : scratch.ops)
    body.ops.push_back(std::move(op));
  b.setInsertionBlock(&body);
  b.setLocation(rest.empty() ? core::SourceLocation{} : rest.front()->loc);
  ir::Op *branch = b.create(OpCode::If, {live}, {});
  ir::Block *taken = b.addRegion(branch, {});
  ir::Block *skipped = b.addRegion(branch, {});
  for (auto &op : rest)
    taken->ops.push_back(std::move(op));
  b.setInsertionBlock(taken);
  b.yield({});
  b.setInsertionBlock(skipped);
  b.yield({});
}

} // namespace npusim::transform
