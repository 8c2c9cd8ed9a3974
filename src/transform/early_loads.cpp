// Early loads (docs/compiler.md, "Early loads"). The NPU issues in order, so a
// load placed after the previous step's arithmetic waits for it; in a loop
// body without stores, the ops that do not depend on the carried values (the
// offsets, masks, loads, and what is computed from loads alone) move ahead of
// those that do, keeping their order.
#include "transform/transform.h"

#include <set>

namespace npusim::transform {
namespace {

using ir::OpCode;

bool reorderable(const ir::Block &body) {
  for (const auto &op : body.ops) {
    if (!op->regions.empty())
      return false;
    const ir::MemoryEffect effect = ir::opTraits(op->code).memory;
    if (effect == ir::MemoryEffect::Write || effect == ir::MemoryEffect::ReadWrite ||
        op->code == OpCode::Assert || op->code == OpCode::Barrier)
      return false;
  }
  return true;
}

void hoistLoads(ir::Block &body) {
  std::set<const ir::Value *> carried(body.arguments.begin() + 1, body.arguments.end());
  std::vector<std::unique_ptr<ir::Op>> early, late;
  for (auto &op : body.ops) {
    bool dependent = op->code == OpCode::Yield;
    for (const ir::Value *v : op->operands)
      dependent = dependent || carried.count(v);
    if (dependent) {
      for (const ir::Value *r : op->results)
        carried.insert(r);
      late.push_back(std::move(op));
    } else {
      // What is computed from a loaded value waits for the load: it goes late.
      if (op->code == OpCode::Load)
        for (const ir::Value *r : op->results)
          carried.insert(r);
      early.push_back(std::move(op));
    }
  }
  body.ops = std::move(early);
  for (auto &op : late)
    body.ops.push_back(std::move(op));
}

void visit(ir::Block &block) {
  for (auto &op : block.ops) {
    for (auto &region : op->regions)
      visit(*region);
    if (op->code == OpCode::For && reorderable(op->region(0)))
      hoistLoads(op->region(0));
  }
}

} // namespace

void scheduleLoadsEarly(ir::Function &function) {
  visit(function.body());
}

} // namespace npusim::transform
