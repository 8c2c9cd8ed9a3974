// Copies of ops, and the values a block defines, for the passes that
// rewrite ops into new ones.
#include "transform/transform_internal.h"

namespace npusim::transform {

std::unique_ptr<ir::Op> copyOpShell(const ir::Op &op) {
  auto copy = std::make_unique<ir::Op>();
  copy->code = op.code;
  copy->loc = op.loc;
  copy->axis = op.axis;
  copy->start = op.start;
  copy->end = op.end;
  copy->constant = op.constant;
  copy->order = op.order;
  copy->predicate = op.predicate;
  copy->nanMode = op.nanMode;
  copy->reduceKind = op.reduceKind;
  copy->atomicKind = op.atomicKind;
  copy->inputPrecision = op.inputPrecision;
  copy->mathFn = op.mathFn;
  copy->reverse = op.reverse;
  copy->descending = op.descending;
  copy->stable = op.stable;
  copy->message = op.message;
  return copy;
}

void collectDefinitions(const ir::Block &block, std::set<const ir::Value *> &defined) {
  defined.insert(block.arguments.begin(), block.arguments.end());
  for (const auto &op : block.ops) {
    defined.insert(op->results.begin(), op->results.end());
    for (const auto &region : op->regions)
      collectDefinitions(*region, defined);
  }
}

void copyOps(ir::Function &function, const std::vector<const ir::Op *> &from, ir::Block &to,
             std::map<const ir::Value *, ir::Value *> &renamed) {
  auto name = [&](ir::Value *v) {
    auto it = renamed.find(v);
    return it == renamed.end() ? v : it->second;
  };
  for (const ir::Op *op : from) {
    std::unique_ptr<ir::Op> copy = copyOpShell(*op);
    for (ir::Value *operand : op->operands)
      copy->operands.push_back(name(operand));
    // A fresh value for `old`, its copy from now on.
    auto fresh = [&](const ir::Value *old) {
      ir::Value *v = function.newValue(old->type, old->nameHint);
      v->index = old->index;
      renamed[old] = v;
      return v;
    };
    for (const ir::Value *result : op->results) {
      copy->results.push_back(fresh(result));
      copy->results.back()->definingOp = copy.get();
    }
    for (const auto &region : op->regions) {
      auto block = std::make_unique<ir::Block>();
      block->parentOp = copy.get();
      for (const ir::Value *argument : region->arguments) {
        block->arguments.push_back(fresh(argument));
        block->arguments.back()->ownerBlock = block.get();
      }
      std::vector<const ir::Op *> inner;
      for (const auto &innerOp : region->ops)
        inner.push_back(innerOp.get());
      copyOps(function, inner, *block, renamed);
      copy->regions.push_back(std::move(block));
    }
    to.ops.push_back(std::move(copy));
  }
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

} // namespace npusim::transform
