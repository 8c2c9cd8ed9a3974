// Dot-loop unrolling (docs/compiler.md, "Re-tiled dot loops"). A template's
// K loop with GPU-sized blocks (a dot narrower than the systolic array in K or
// N) runs load, load, dot per iteration, each waiting for the last: the next
// iteration's loads overwrite the tiles the current dot reads. With four
// iterations per body, each copy's loads go to tiles of their own and run
// while the earlier copies' dots multiply; the dots form one chain
// `acc + dot + dot + ...`, which the lowering accumulates in place on one
// array (lower_dot.cpp). The order of the sum is the loop's.
#include "transform/transform.h"
#include "transform/transform_internal.h"

#include <optional>

namespace npusim::transform {
namespace {

constexpr int64_t kUnroll = 4;

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

/// Unrolls `loop` (at `position` of `parent`) by kUnroll when its trip count
/// is a known n >= kUnroll: a loop over the first n - n % kUnroll iterations
/// with kUnroll copies of the body, then the original loop for the rest (or,
/// without a rest, nothing). Returns whether it did.
bool unroll(ir::Function &function, ir::Block &parent, size_t position, int64_t lanes) {
  ir::Op &loop = *parent.ops[position];
  ir::Block &body = loop.region(0);
  if (loop.operands.size() < 3 || body.ops.empty() || !hasNarrowDot(body, lanes))
    return false;
  const auto lo = constantInt(loop.operands[0]), hi = constantInt(loop.operands[1]),
             step = constantInt(loop.operands[2]);
  if (!lo || !hi || !step || *step == 0)
    return false;
  const int64_t trips = *step > 0 ? (*hi > *lo ? (*hi - *lo + *step - 1) / *step : 0)
                                  : (*lo > *hi ? (*lo - *hi - *step - 1) / -*step : 0);
  if (trips < kUnroll)
    return false;
  const int64_t mainTrips = trips - trips % kUnroll;
  const ir::Type ivType = body.arguments[0]->type;
  const core::SourceLocation &loc = loop.loc;

  // Before the loop: the unrolled loop's bound and step.
  ir::Block prologue;
  ir::Value *mainUpper = newConstant(function, prologue, ivType, *lo + mainTrips * *step, loc);
  ir::Value *mainStep = newConstant(function, prologue, ivType, kUnroll * *step, loc);

  auto unrolled = copyOpShell(loop);
  unrolled->operands = {loop.operands[0], mainUpper, mainStep};
  for (size_t i = 3; i < loop.operands.size(); ++i)
    unrolled->operands.push_back(loop.operands[i]);
  for (const ir::Value *r : loop.results) {
    ir::Value *v = function.newValue(r->type, r->nameHint);
    v->definingOp = unrolled.get();
    v->index = r->index;
    unrolled->results.push_back(v);
  }
  auto block = std::make_unique<ir::Block>();
  block->parentOp = unrolled.get();
  for (const ir::Value *argument : body.arguments) {
    ir::Value *v = function.newValue(argument->type, argument->nameHint);
    v->ownerBlock = block.get();
    v->index = argument->index;
    block->arguments.push_back(v);
  }
  std::vector<const ir::Op *> ops;
  for (size_t i = 0; i + 1 < body.ops.size(); ++i)
    ops.push_back(body.ops[i].get());
  const ir::Op &yield = *body.ops.back();
  std::map<const ir::Value *, ir::Value *> renamed;
  std::vector<ir::Value *> carried(block->arguments.begin() + 1, block->arguments.end());
  for (int64_t copy = 0; copy < kUnroll; ++copy) {
    ir::Value *iv = block->arguments[0];
    if (copy > 0) {
      // iv + copy * step
      ir::Value *offset = newConstant(function, *block, ivType, copy * *step, loc);
      auto add = std::make_unique<ir::Op>();
      add->code = ir::OpCode::Add;
      add->loc = loc;
      add->operands = {block->arguments[0], offset};
      iv = function.newValue(ivType, body.arguments[0]->nameHint);
      iv->definingOp = add.get();
      add->results = {iv};
      block->ops.push_back(std::move(add));
    }
    renamed[body.arguments[0]] = iv;
    for (size_t i = 0; i < carried.size(); ++i)
      renamed[body.arguments[i + 1]] = carried[i];
    copyOps(function, ops, *block, renamed);
    for (size_t i = 0; i < carried.size(); ++i) {
      auto it = renamed.find(yield.operands[i]);
      carried[i] = it == renamed.end() ? yield.operands[i] : it->second;
    }
  }
  auto end = copyOpShell(yield);
  end->operands = carried;
  block->ops.push_back(std::move(end));
  unrolled->regions.push_back(std::move(block));

  std::vector<ir::Value *> mainResults = unrolled->results;
  std::vector<std::unique_ptr<ir::Op>> inserted;
  for (auto &op : prologue.ops)
    inserted.push_back(std::move(op));
  inserted.push_back(std::move(unrolled));
  if (mainTrips == trips) {
    // No iteration left: the original loop's results are the unrolled one's.
    std::map<const ir::Value *, ir::Value *> replacement;
    for (size_t i = 0; i < loop.results.size(); ++i)
      replacement[loop.results[i]] = mainResults[i];
    parent.ops.erase(parent.ops.begin() + static_cast<std::ptrdiff_t>(position));
    parent.ops.insert(parent.ops.begin() + static_cast<std::ptrdiff_t>(position),
                      std::make_move_iterator(inserted.begin()), std::make_move_iterator(inserted.end()));
    replaceUses(function.body(), replacement);
    return true;
  }
  // The rest: the original loop from where the unrolled one stopped.
  loop.operands[0] = mainUpper;
  for (size_t i = 0; i < mainResults.size(); ++i)
    loop.operands[3 + i] = mainResults[i];
  parent.ops.insert(parent.ops.begin() + static_cast<std::ptrdiff_t>(position),
                    std::make_move_iterator(inserted.begin()), std::make_move_iterator(inserted.end()));
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
