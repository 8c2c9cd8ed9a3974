// Dot-loop unrolling (docs/compiler.md, "Re-tiled dot loops"). A template's
// K loop with GPU-sized blocks (a dot narrower than the systolic array in K or
// N) runs load, load, dot per iteration, each waiting for the last: the next
// iteration's loads overwrite the tiles the current dot reads. With four
// iterations per body, each copy's loads go to tiles of their own and run
// while the earlier copies' dots multiply. The even copies' dots form one
// chain `acc + dot + dot`, the odd copies' a second one into an accumulator of
// their own, which the lowering accumulates in place on the other array
// (lower_dot.cpp); the two are added after the loop.
#include "transform/transform.h"
#include "transform/transform_internal.h"

#include <algorithm>
#include <optional>

namespace npusim::transform {
namespace {

constexpr int64_t kUnroll = 4;
// A loop of outer-product dots (one K term) of at most this many trips
// becomes straight-line copies: every copy's loads have tiles of their own and
// go out together (a 3 x 3 depthwise template's 9 taps: 6,106,204 -> 4,221,875
// cycles for mobilenet_v2's `..._hardtanh_15`, against 4 copies per body).
constexpr int64_t kFullUnrollTrips = 16;

/// The value of a scalar integer computed from constants alone.
std::optional<int64_t> constantInt(const ir::Value *v, int depth = 0) {
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

/// A dot of the body (not of nested blocks) narrower than the array in K or N.
bool hasNarrowDot(const ir::Block &body, int64_t lanes) {
  for (const auto &op : body.ops)
    if (op->code == ir::OpCode::Dot && op->operands[0]->type.rank() == 2 &&
        (op->operands[0]->type.shape[1] < lanes || op->operands[1]->type.shape[1] < lanes))
      return true;
  return false;
}

/// Whether every dot of `body` has one K term: `outer-product-dots` makes
/// each a multiply and an add on the vector unit, so the copies keep no
/// accumulation chain on an array and a short loop may unroll fully.
bool onlyOuterProductDots(const ir::Block &body) {
  for (const auto &op : body.ops)
    if (op->code == ir::OpCode::Dot && op->operands[0]->type.shape.back() != 1)
      return false;
  return true;
}

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

void replaceUses(ir::Block &block, const std::map<const ir::Value *, ir::Value *> &replacement) {
  for (auto &op : block.ops) {
    for (ir::Value *&operand : op->operands)
      if (auto it = replacement.find(operand); it != replacement.end())
        operand = it->second;
    for (auto &region : op->regions)
      replaceUses(*region, replacement);
  }
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

/// The carried values that only accumulate a dot, `acc = acc + dot(...)` (the
/// body's use of `acc` is that add, and the add's only use the yield), by
/// their position among the carried values.
std::vector<size_t> dotAccumulators(const ir::Block &body) {
  const ir::Op &yield = *body.ops.back();
  std::vector<size_t> found;
  for (size_t i = 0; i < yield.operands.size(); ++i) {
    const ir::Value *sum = yield.operands[i];
    const ir::Value *acc = body.arguments[i + 1];
    const ir::Op *add = sum->definingOp;
    if (!add || add->code != ir::OpCode::Add || add->operands.size() != 2 || sum->type.isScalar() ||
        countUses(body, acc) != 1 || countUses(body, sum) != 1)
      continue;
    const ir::Value *other = add->operands[0] == acc ? add->operands[1] : add->operands[0];
    if ((add->operands[0] == acc || add->operands[1] == acc) && other->definingOp &&
        other->definingOp->code == ir::OpCode::Dot && other->type == sum->type)
      found.push_back(i);
  }
  return found;
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

/// The loop `for iv = lo to bound step kUnroll * step` over kUnroll copies of
/// `loop`'s body, from `inits` (the loop's own, then one zero per dot
/// accumulator for the odd copies); its results are the same values.
std::unique_ptr<ir::Op> mainLoop(ir::Function &function, const ir::Op &loop, BodyCopier &copier,
                                 const std::vector<size_t> &accumulators, ir::Value *bound, ir::Value *step,
                                 const std::vector<ir::Value *> &inits, int64_t stepValue) {
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
  for (int64_t copy = 0; copy < kUnroll; ++copy) {
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

/// Unrolls `loop` (at `position` of `parent`) by kUnroll when its trip count
/// is a known n >= kUnroll: a loop over the first n - n % kUnroll iterations
/// with kUnroll copies of the body, then n % kUnroll copies after it; the
/// original loop goes. A loop of at most kFullUnrollTrips trips whose dots all
/// have one K term becomes n straight-line copies instead. Returns whether it
/// did. A body that already carries two or more dot accumulators (a library
/// convolution's kernel-row loop, one per row block) is left alone: its dots
/// already form independent chains with tiles of their own, one per array,
/// and the straight-line copies after the loop would not accumulate in place
/// (the stem convolution of ResNet-18 took 76.0 k cycles unrolled, 37.6 k
/// not).
bool unroll(ir::Function &function, ir::Block &parent, size_t position, int64_t lanes) {
  ir::Op &loop = *parent.ops[position];
  ir::Block &body = loop.region(0);
  if (loop.operands.size() < 3 || body.ops.empty() || !hasNarrowDot(body, lanes) ||
      dotAccumulators(body).size() >= 2)
    return false;
  const auto lo = constantInt(loop.operands[0]), hi = constantInt(loop.operands[1]),
             step = constantInt(loop.operands[2]);
  if (!lo || !hi || !step || *step == 0)
    return false;
  const int64_t trips = *step > 0 ? (*hi > *lo ? (*hi - *lo + *step - 1) / *step : 0)
                                  : (*lo > *hi ? (*lo - *hi - *step - 1) / -*step : 0);
  if (trips < kUnroll)
    return false;
  const bool full = trips <= kFullUnrollTrips && onlyOuterProductDots(body);
  const int64_t mainTrips = full ? 0 : trips - trips % kUnroll;
  const ir::Type ivType = body.arguments[0]->type;
  const core::SourceLocation &loc = loop.loc;

  // Before the loop: the unrolled loop's bound and step (no loop when it
  // unrolls fully).
  ir::Block prologue;
  ir::Value *mainUpper =
      full ? nullptr : newConstant(function, prologue, ivType, *lo + mainTrips * *step, loc);
  ir::Value *mainStep = full ? nullptr : newConstant(function, prologue, ivType, kUnroll * *step, loc);

  // Each dot accumulator gets a second one, starting at zero, that the odd
  // copies add to: two chains, which the lowering puts on two arrays
  // (lower_dot.cpp), summed after the loop.
  const std::vector<size_t> accumulators = dotAccumulators(body);
  std::vector<ir::Value *> oddInits;
  for (size_t j : accumulators)
    oddInits.push_back(newConstant(function, prologue, body.arguments[j + 1]->type, 0, loc));

  BodyCopier copier(function, body, accumulators);
  std::unique_ptr<ir::Op> unrolled;
  std::vector<ir::Value *> carried(loop.operands.begin() + 3, loop.operands.end());
  carried.insert(carried.end(), oddInits.begin(), oddInits.end());
  if (mainTrips > 0) {
    unrolled = mainLoop(function, loop, copier, accumulators, mainUpper, mainStep, carried, *step);
    carried = unrolled->results;
  }

  // The iterations left (fewer than kUnroll) follow the loop as straight-line
  // copies, alternating between the accumulators likewise.
  ir::Block rest;
  for (int64_t copy = mainTrips; copy < trips; ++copy)
    copier.copy(rest, copy, newConstant(function, rest, ivType, *lo + copy * *step, loc), carried);
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
  return true;
}

void visit(ir::Function &function, ir::Block &block, int64_t lanes) {
  for (size_t i = 0; i < block.ops.size(); ++i) {
    ir::Op *op = block.ops[i].get();
    for (auto &region : op->regions)
      visit(function, *region, lanes);
    if (op->code == ir::OpCode::For && op->regions.size() == 1) {
      const size_t before = block.ops.size();
      if (unroll(function, block, i, lanes))
        i += block.ops.size() - before; // past what was inserted
    }
  }
}

} // namespace

void unrollDotLoops(ir::Function &function, const config::HardwareConfig &machine) {
  visit(function, function.body(), machine.lanes);
}

} // namespace npusim::transform
