// Double-buffered loops (docs/compiler.md, "Double-buffered loops"). Each
// unit issues its instructions in order, and a loop body's loaded tile has
// one home in the scratchpad: iteration i + 1's load into it waits until
// iteration i's last reader of it has run, so a looped reduction loads,
// computes, loads, computes, with the DMA and the vector unit taking turns.
// With two copies of the body per iteration, each copy's loads go to tiles of
// their own, and one copy's loads run while the other copy computes.
#include "transform/transform.h"
#include "transform/transform_internal.h"

namespace npusim::transform {
namespace {

constexpr int64_t kCopies = 2;

/// A body of straight-line ops that loads from memory and has no dot (a loop
/// with dots is `unroll-dots`' or a library kernel's, which keep their own
/// accumulation chains).
bool loadsWithoutDots(const ir::Block &body) {
  bool loads = false;
  for (const auto &op : body.ops) {
    if (!op->regions.empty() || op->code == ir::OpCode::Dot)
      return false;
    loads = loads || op->code == ir::OpCode::Load;
  }
  return loads;
}

bool doubleBuffer(ir::Function &function, ir::Block &parent, size_t position) {
  ir::Op &loop = *parent.ops[position];
  if (loop.code != ir::OpCode::For || loop.regions.size() != 1 || loop.region(0).ops.empty() ||
      !loadsWithoutDots(loop.region(0)))
    return false;
  const auto trips = constantTrips(loop);
  if (!trips || trips->trips < kCopies)
    return false;
  // Two iterations become two straight-line copies; a longer loop keeps a
  // loop of two copies per iteration and one copy after it when odd.
  unrollLoop(function, parent, position,
             UnrollPlan{trips->lo, trips->step, trips->trips, kCopies, trips->trips == kCopies, {}});
  return true;
}

void doubleBufferBlock(ir::Function &function, ir::Block &block) {
  for (size_t i = 0; i < block.ops.size(); ++i) {
    for (auto &region : block.ops[i]->regions)
      doubleBufferBlock(function, *region);
    const size_t before = block.ops.size();
    if (doubleBuffer(function, block, i))
      i += block.ops.size() - before; // past what was inserted
  }
}

} // namespace

void doubleBufferLoops(ir::Function &function) {
  doubleBufferBlock(function, function.body());
}

} // namespace npusim::transform
