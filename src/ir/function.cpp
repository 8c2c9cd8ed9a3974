#include "ir/ir.h"

namespace npusim::ir {

Function::Function(std::string name) : name_(std::move(name)) {}

Value *Function::newValue(Type type, std::string nameHint) {
  auto value = std::make_unique<Value>();
  value->id = static_cast<int>(values_.size());
  value->type = std::move(type);
  value->nameHint = std::move(nameHint);
  values_.push_back(std::move(value));
  return values_.back().get();
}

Value *Function::addParameter(std::string name, Type type) {
  Value *v = newValue(type, name);
  v->ownerBlock = &body_;
  v->index = static_cast<int>(body_.arguments.size());
  body_.arguments.push_back(v);
  parameters_.push_back(Parameter{std::move(name), std::move(type), v});
  return v;
}

namespace {
int countOps(const Block &block) {
  int n = 0;
  for (const auto &op : block.ops) {
    ++n;
    for (const auto &region : op->regions)
      n += countOps(*region);
  }
  return n;
}
} // namespace

int Function::numOps() const {
  return countOps(body_);
}

namespace {

void copyBlock(const Block &from, Block &to, const std::vector<Value *> &copyOf) {
  for (const Value *argument : from.arguments) {
    Value *v = copyOf[argument->id];
    v->ownerBlock = &to;
    v->index = argument->index;
    to.arguments.push_back(v);
  }
  for (const auto &op : from.ops) {
    auto copy = std::make_unique<Op>(Op{op->code,
                                        {},
                                        {},
                                        {},
                                        op->loc,
                                        op->axis,
                                        op->start,
                                        op->end,
                                        op->constant,
                                        op->order,
                                        op->predicate,
                                        op->nanMode,
                                        op->reduceKind,
                                        op->atomicKind,
                                        op->inputPrecision,
                                        op->mathFn,
                                        op->reverse,
                                        op->descending,
                                        op->stable,
                                        op->message});
    for (const Value *operand : op->operands)
      copy->operands.push_back(copyOf[operand->id]);
    for (const Value *result : op->results) {
      Value *v = copyOf[result->id];
      v->definingOp = copy.get();
      v->index = result->index;
      copy->results.push_back(v);
    }
    for (const auto &region : op->regions) {
      auto block = std::make_unique<Block>();
      block->parentOp = copy.get();
      copyBlock(*region, *block, copyOf);
      copy->regions.push_back(std::move(block));
    }
    to.ops.push_back(std::move(copy));
  }
}

} // namespace

std::unique_ptr<Function> clone(const Function &function) {
  auto copy = std::make_unique<Function>(function.name());
  std::vector<Value *> copyOf;
  for (const auto &v : function.values()) {
    const bool parameter = v->ownerBlock == &function.body() && !v->definingOp;
    copyOf.push_back(parameter ? copy->addParameter(function.parameters().at(v->index).name, v->type)
                               : copy->newValue(v->type, v->nameHint));
    copyOf.back()->nameHint = v->nameHint;
    copyOf.back()->laneAxis = v->laneAxis;
  }
  Block &body = copy->body();
  body.arguments.clear(); // addParameter made them; copyBlock sets them in order
  copyBlock(function.body(), body, copyOf);
  copy->setPrograms(function.programs());
  return copy;
}

} // namespace npusim::ir
