// Common-subexpression elimination over structured regions: an op sees the ops
// before it in its block and in the blocks that enclose it, never those of a
// sibling region or of a region it follows. Only for and if regions are
// entered; a reduce or scan combine region is left as written (the compiler
// lowers it step by step into a combine program).
#include "transform/transform.h"

#include <bit>
#include <cstring>
#include <string>
#include <unordered_map>

namespace npusim::transform {
namespace {

class Eliminator {
public:
  void block(ir::Block &b) {
    std::vector<std::string> added;
    std::vector<std::unique_ptr<ir::Op>> kept;
    for (auto &opPtr : b.ops) {
      ir::Op &op = *opPtr;
      for (ir::Value *&operand : op.operands)
        if (auto it = replacement_.find(operand); it != replacement_.end())
          operand = it->second;
      if (op.code == ir::OpCode::For || op.code == ir::OpCode::If)
        for (auto &region : op.regions)
          block(*region);
      else
        for (auto &region : op.regions)
          renameUses(*region);
      if (isPureOp(op)) {
        const std::string key = equalityKey(op, [](const ir::Value *v) { return v->id; });
        auto [it, inserted] = available_.emplace(key, &op);
        if (!inserted) {
          for (size_t i = 0; i < op.results.size(); ++i) {
            replacement_[op.results[i]] = it->second->results[i];
            op.results[i]->definingOp = nullptr; // the id stays unused
          }
          continue; // the op is dropped
        }
        added.push_back(key);
      }
      kept.push_back(std::move(opPtr));
    }
    b.ops = std::move(kept);
    for (const std::string &key : added)
      available_.erase(key);
  }

private:
  /// A region not searched for equal ops still uses the replacements.
  void renameUses(ir::Block &b) {
    for (auto &op : b.ops) {
      for (ir::Value *&operand : op->operands)
        if (auto it = replacement_.find(operand); it != replacement_.end())
          operand = it->second;
      for (auto &region : op->regions)
        renameUses(*region);
    }
  }

  // Looked up once per op and operand, never walked in order.
  std::unordered_map<std::string, const ir::Op *> available_;
  std::unordered_map<const ir::Value *, ir::Value *> replacement_;
};

} // namespace

namespace {

void appendWord(std::string &key, int64_t word) {
  char bytes[sizeof word];
  std::memcpy(bytes, &word, sizeof word);
  key.append(bytes, sizeof word);
}

} // namespace

std::string equalityKey(const ir::Op &op, const std::function<int(const ir::Value *)> &operandId) {
  // Fixed-width words with a count before each list, so that equal keys mean
  // equal ops; compared, never shown (the passes build one per pure op).
  std::string key;
  size_t words = 16 + op.order.size() + op.operands.size();
  for (const ir::Value *r : op.results)
    words += 4 + r->type.shape.size();
  key.reserve(words * sizeof(int64_t));
  const auto floatBits = std::bit_cast<int64_t>(op.constant.floatValue);
  for (int64_t part :
       {int64_t{static_cast<int>(op.code)}, int64_t{op.axis}, op.start, op.end, op.constant.intValue,
        floatBits, int64_t{static_cast<int>(op.predicate)}, int64_t{static_cast<int>(op.nanMode)},
        int64_t{static_cast<int>(op.reduceKind)}, int64_t{static_cast<int>(op.inputPrecision)},
        int64_t{static_cast<int>(op.mathFn)}, int64_t{op.reverse}, int64_t{op.descending}})
    appendWord(key, part);
  appendWord(key, static_cast<int64_t>(op.order.size()));
  for (int o : op.order)
    appendWord(key, o);
  appendWord(key, static_cast<int64_t>(op.operands.size()));
  for (const ir::Value *v : op.operands)
    appendWord(key, operandId(v));
  appendWord(key, static_cast<int64_t>(op.results.size()));
  for (const ir::Value *r : op.results) {
    appendWord(key, static_cast<int64_t>(r->type.dtype));
    appendWord(key, r->type.isPointer);
    appendWord(key, static_cast<int64_t>(r->type.shape.size()));
    for (int64_t extent : r->type.shape)
      appendWord(key, extent);
  }
  return key;
}

void eliminateCommonSubexpressions(ir::Function &function) {
  Eliminator().block(function.body());
}

} // namespace npusim::transform
