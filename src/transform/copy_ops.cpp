// Copies of ops for the passes that rewrite ops into new ones.
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
    for (const ir::Value *result : op->results) {
      ir::Value *v = function.newValue(result->type, result->nameHint);
      v->definingOp = copy.get();
      v->index = result->index;
      renamed[result] = v;
      copy->results.push_back(v);
    }
    for (const auto &region : op->regions) {
      auto block = std::make_unique<ir::Block>();
      block->parentOp = copy.get();
      for (const ir::Value *argument : region->arguments) {
        ir::Value *v = function.newValue(argument->type, argument->nameHint);
        v->ownerBlock = block.get();
        v->index = argument->index;
        renamed[argument] = v;
        block->arguments.push_back(v);
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

} // namespace npusim::transform
