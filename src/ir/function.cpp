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

int Function::numOps() const { return countOps(body_); }

} // namespace npusim::ir
