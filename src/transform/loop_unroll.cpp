// Loop unrolling for the passes that want copies of a loop body
// (`unroll-dots`, `double-buffer-loops`): each copy's values are its own, so
// its tiles get bytes of their own and its loads need not wait for an
// earlier copy's readers.
#include "transform/transform_internal.h"

#include <algorithm>
#include <iterator>

namespace npusim::transform {
namespace {

ir::Value *newConstant(ir::Function &function, ir::Block &block, const ir::Type &type, int64_t value,
                       const core::SourceLocation &loc) {
  auto op = std::make_unique<ir::Op>();
  op->code = ir::OpCode::Constant;
  op->loc = loc;
  op->constant.intValue = value;
  op->constant.floatValue = static_cast<double>(value);
  ir::Value *v = function.newValue(type);
  v->definingOp = op.get();
  op->results = {v};
  block.ops.push_back(std::move(op));
  return v;
}

ir::Value *newAdd(ir::Function &function, std::vector<std::unique_ptr<ir::Op>> &ops, ir::Value *a,
                  ir::Value *b, const core::SourceLocation &loc) {
  auto add = std::make_unique<ir::Op>();
  add->code = ir::OpCode::Add;
  add->loc = loc;
  add->operands = {a, b};
  ir::Value *v = function.newValue(a->type, a->nameHint);
  v->definingOp = add.get();
  add->results = {v};
  ops.push_back(std::move(add));
  return v;
}

/// Copies of a loop body (without its yield) into other blocks, each from
/// the values carried into it, renaming as it goes. An odd copy adds to the
/// second accumulators (carried after the loop's own values): they are
/// swapped in and back.
class BodyCopier {
public:
  BodyCopier(ir::Function &function, const ir::Block &body, const std::vector<size_t> &accumulators)
      : function_(function), body_(body), accumulators_(accumulators), yield_(*body.ops.back()),
        numCarried_(yield_.operands.size()) {
    for (size_t i = 0; i + 1 < body.ops.size(); ++i)
      ops_.push_back(body.ops[i].get());
  }

  const ir::Op &yield() const { return yield_; }

  /// Copy `copy` into `into` with induction variable `iv`; `carried` becomes
  /// what the copy yields.
  void copy(ir::Block &into, int64_t copy, ir::Value *iv, std::vector<ir::Value *> &carried) {
    auto swapAccumulators = [&] {
      for (size_t a = 0; a < accumulators_.size() && copy % 2 == 1; ++a)
        std::swap(carried[accumulators_[a]], carried[numCarried_ + a]);
    };
    swapAccumulators();
    renamed_[body_.arguments[0]] = iv;
    for (size_t i = 0; i < numCarried_; ++i)
      renamed_[body_.arguments[i + 1]] = carried[i];
    copyOps(function_, ops_, into, renamed_);
    for (size_t i = 0; i < numCarried_; ++i) {
      auto it = renamed_.find(yield_.operands[i]);
      carried[i] = it == renamed_.end() ? yield_.operands[i] : it->second;
    }
    swapAccumulators();
  }

private:
  ir::Function &function_;
  const ir::Block &body_;
  const std::vector<size_t> &accumulators_;
  const ir::Op &yield_;
  const size_t numCarried_;
  std::vector<const ir::Op *> ops_;
  std::map<const ir::Value *, ir::Value *> renamed_;
};

/// The loop `for iv = lo to bound step factor * step` over `factor` copies of
/// `loop`'s body, from `inits` (the loop's own, then one zero per dot
/// accumulator for the odd copies); its results are the same values.
std::unique_ptr<ir::Op> mainLoop(ir::Function &function, const ir::Op &loop, BodyCopier &copier,
                                 const std::vector<size_t> &accumulators, ir::Value *bound, ir::Value *step,
                                 const std::vector<ir::Value *> &inits, int64_t stepValue, int64_t factor) {
  const ir::Block &body = loop.region(0);
  auto unrolled = copyOpShell(loop);
  unrolled->operands = {loop.operands[0], bound, step};
  unrolled->operands.insert(unrolled->operands.end(), inits.begin(), inits.end());
  std::vector<const ir::Value *> resultShapes(loop.results.begin(), loop.results.end());
  for (size_t j : accumulators)
    resultShapes.push_back(loop.results[j]);
  for (const ir::Value *r : resultShapes) {
    ir::Value *v = function.newValue(r->type, r->nameHint);
    v->definingOp = unrolled.get();
    v->index = static_cast<int>(unrolled->results.size());
    unrolled->results.push_back(v);
  }
  auto block = std::make_unique<ir::Block>();
  block->parentOp = unrolled.get();
  std::vector<const ir::Value *> argumentShapes(body.arguments.begin(), body.arguments.end());
  for (size_t j : accumulators)
    argumentShapes.push_back(body.arguments[j + 1]);
  for (const ir::Value *argument : argumentShapes) {
    ir::Value *v = function.newValue(argument->type, argument->nameHint);
    v->ownerBlock = block.get();
    v->index = static_cast<int>(block->arguments.size());
    block->arguments.push_back(v);
  }
  const ir::Type &ivType = body.arguments[0]->type;
  std::vector<ir::Value *> carried(block->arguments.begin() + 1, block->arguments.end());
  for (int64_t copy = 0; copy < factor; ++copy) {
    ir::Value *iv = block->arguments[0];
    if (copy > 0) {
      // iv + copy * step
      ir::Value *offset = newConstant(function, *block, ivType, copy * stepValue, loop.loc);
      auto add = std::make_unique<ir::Op>();
      add->code = ir::OpCode::Add;
      add->loc = loop.loc;
      add->operands = {block->arguments[0], offset};
      iv = function.newValue(ivType, body.arguments[0]->nameHint);
      iv->definingOp = add.get();
      add->results = {iv};
      block->ops.push_back(std::move(add));
    }
    copier.copy(*block, copy, iv, carried);
  }
  auto end = copyOpShell(copier.yield());
  end->operands = carried;
  block->ops.push_back(std::move(end));
  unrolled->regions.push_back(std::move(block));
  return unrolled;
}

} // namespace

/// The value of a scalar integer computed from constants alone.
std::optional<int64_t> constantInt(const ir::Value *v, int depth) {
  const ir::Op *op = v->definingOp;
  if (!op || depth > 16 || !v->type.isScalar() || !v->type.isIntegerOrBool() || v->type.isBool())
    return std::nullopt;
  if (op->code == ir::OpCode::Constant)
    return op->constant.intValue;
  if (op->code == ir::OpCode::Cast && op->operands.size() == 1 && op->operands[0]->type.isIntegerOrBool())
    return constantInt(op->operands[0], depth + 1);
  if (op->operands.size() != 2)
    return std::nullopt;
  const auto a = constantInt(op->operands[0], depth + 1), b = constantInt(op->operands[1], depth + 1);
  if (!a || !b)
    return std::nullopt;
  switch (op->code) {
  case ir::OpCode::Add: return *a + *b;
  case ir::OpCode::Sub: return *a - *b;
  case ir::OpCode::Mul: return *a * *b;
  case ir::OpCode::Div: return *b == 0 ? std::nullopt : std::optional<int64_t>(*a / *b);
  case ir::OpCode::Rem: return *b == 0 ? std::nullopt : std::optional<int64_t>(*a % *b);
  case ir::OpCode::Min: return std::min(*a, *b);
  case ir::OpCode::Max: return std::max(*a, *b);
  default: return std::nullopt;
  }
}

std::optional<LoopTrips> constantTrips(const ir::Op &loop) {
  if (loop.code != ir::OpCode::For || loop.operands.size() < 3 || loop.regions.size() != 1)
    return std::nullopt;
  const auto lo = constantInt(loop.operands[0]), hi = constantInt(loop.operands[1]),
             step = constantInt(loop.operands[2]);
  if (!lo || !hi || !step || *step == 0)
    return std::nullopt;
  const int64_t trips = *step > 0 ? (*hi > *lo ? (*hi - *lo + *step - 1) / *step : 0)
                                  : (*lo > *hi ? (*lo - *hi - *step - 1) / -*step : 0);
  return LoopTrips{*lo, *step, trips};
}

size_t spliceBefore(ir::Block &block, size_t position, ir::Block &built) {
  const size_t moved = built.ops.size();
  block.ops.insert(block.ops.begin() + static_cast<std::ptrdiff_t>(position),
                   std::make_move_iterator(built.ops.begin()), std::make_move_iterator(built.ops.end()));
  built.ops.clear();
  return moved;
}

int countUses(const ir::Block &block, const ir::Value *v) {
  int uses = 0;
  for (const auto &op : block.ops) {
    uses += static_cast<int>(std::count(op->operands.begin(), op->operands.end(), v));
    for (const auto &region : op->regions)
      uses += countUses(*region, v);
  }
  return uses;
}

void unrollLoop(ir::Function &function, ir::Block &parent, size_t position, const UnrollPlan &plan) {
  ir::Op &loop = *parent.ops[position];
  ir::Block &body = loop.region(0);
  const int64_t mainTrips = plan.full ? 0 : plan.trips - plan.trips % plan.factor;
  const ir::Type ivType = body.arguments[0]->type;
  const core::SourceLocation &loc = loop.loc;

  // Before the loop: the unrolled loop's bound and step (no loop when it
  // unrolls fully).
  ir::Block prologue;
  ir::Value *mainUpper =
      plan.full ? nullptr : newConstant(function, prologue, ivType, plan.lo + mainTrips * plan.step, loc);
  ir::Value *mainStep = plan.full ? nullptr : newConstant(function, prologue, ivType, plan.factor * plan.step, loc);

  // Each dot accumulator gets a second one, starting at zero, that the odd
  // copies add to: two chains, which the lowering puts on two arrays
  // (lower_dot.cpp), summed after the loop.
  const std::vector<size_t> &accumulators = plan.accumulators;
  std::vector<ir::Value *> oddInits;
  for (size_t j : accumulators)
    oddInits.push_back(newConstant(function, prologue, body.arguments[j + 1]->type, 0, loc));

  BodyCopier copier(function, body, accumulators);
  std::unique_ptr<ir::Op> unrolled;
  std::vector<ir::Value *> carried(loop.operands.begin() + 3, loop.operands.end());
  carried.insert(carried.end(), oddInits.begin(), oddInits.end());
  if (mainTrips > 0) {
    unrolled = mainLoop(function, loop, copier, accumulators, mainUpper, mainStep, carried, plan.step, plan.factor);
    carried = unrolled->results;
  }

  // The iterations left (fewer than `factor`) follow the loop as straight-line
  // copies, alternating between the accumulators likewise.
  ir::Block rest;
  for (int64_t copy = mainTrips; copy < plan.trips; ++copy)
    copier.copy(rest, copy, newConstant(function, rest, ivType, plan.lo + copy * plan.step, loc), carried);
  std::vector<std::unique_ptr<ir::Op>> inserted;
  for (auto &op : prologue.ops)
    inserted.push_back(std::move(op));
  if (unrolled)
    inserted.push_back(std::move(unrolled));
  for (auto &op : rest.ops)
    inserted.push_back(std::move(op));
  std::map<const ir::Value *, ir::Value *> replacement;
  for (size_t i = 0; i < loop.results.size(); ++i)
    replacement[loop.results[i]] = carried[i];
  for (size_t a = 0; a < accumulators.size(); ++a)
    replacement[loop.results[accumulators[a]]] =
        newAdd(function, inserted, carried[accumulators[a]], carried[loop.results.size() + a], loc);
  parent.ops.erase(parent.ops.begin() + static_cast<std::ptrdiff_t>(position));
  parent.ops.insert(parent.ops.begin() + static_cast<std::ptrdiff_t>(position),
                    std::make_move_iterator(inserted.begin()), std::make_move_iterator(inserted.end()));
  replaceUses(function.body(), replacement);
}

} // namespace npusim::transform
