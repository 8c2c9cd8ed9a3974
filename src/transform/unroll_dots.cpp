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
  const auto trips = constantTrips(loop);
  if (!trips || trips->trips < kUnroll)
    return false;
  UnrollPlan plan{trips->lo, trips->step, trips->trips, kUnroll,
                  trips->trips <= kFullUnrollTrips && onlyOuterProductDots(body), dotAccumulators(body)};
  unrollLoop(function, parent, position, plan);
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
