// Loop-invariant hoisting. Loops are visited outermost first, and a loop's
// body is scanned once, before the loops inside it: an op that an inner loop
// hoists into the outer body stays there even when it is invariant to the
// outer loop too. The compiler's pipeline relies on exactly this placement
// (docs/compiler.md, "Loop invariants").
#include "transform/transform.h"
#include "transform/transform_internal.h"

#include <set>

namespace npusim::transform {
namespace {

/// Moves the invariant ops of loop's body to `block` before position `at`;
/// returns how many moved.
size_t hoistFrom(ir::Op &loop, ir::Block &block, size_t at) {
  ir::Block &body = loop.region(0);
  std::set<const ir::Value *> inside;
  collectDefinitions(body, inside);
  std::vector<std::unique_ptr<ir::Op>> kept;
  std::vector<std::unique_ptr<ir::Op>> hoisted;
  for (auto &op : body.ops) {
    bool invariant = isPureOp(*op);
    for (const ir::Value *v : op->operands)
      invariant = invariant && !inside.count(v);
    if (!invariant) {
      kept.push_back(std::move(op));
      continue;
    }
    for (const ir::Value *r : op->results)
      inside.erase(r);
    hoisted.push_back(std::move(op));
  }
  body.ops = std::move(kept);
  const size_t n = hoisted.size();
  block.ops.insert(block.ops.begin() + static_cast<std::ptrdiff_t>(at),
                   std::make_move_iterator(hoisted.begin()), std::make_move_iterator(hoisted.end()));
  return n;
}

void hoistBlock(ir::Block &block) {
  for (size_t i = 0; i < block.ops.size(); ++i) {
    ir::Op *op = block.ops[i].get();
    if (op->code == ir::OpCode::For && op->regions.size() == 1)
      i += hoistFrom(*op, block, i); // i is the loop again
    if (op->code == ir::OpCode::For || op->code == ir::OpCode::If)
      for (auto &region : op->regions)
        hoistBlock(*region);
  }
}

} // namespace

void hoistLoopInvariants(ir::Function &function) {
  hoistBlock(function.body());
}

} // namespace npusim::transform
