// Remainder versioning (docs/compiler.md, "Unwrapped remainders"). Triton's
// GEMM templates index their operand rows with `(pid * BLOCK + arange) % M`,
// so that the last instance reads rows that exist; the `%` makes the offset
// non-affine and every load in the K loop a gather. The remainder wraps in at
// most one instance: where `s >= 0` and `s % C <= C - B`, `(s + i) % C` is
// `s % C + i` for every i in [0, B). The pass tests that once per instance
// and runs, when it holds, a copy of the rest of the body with the remainders
// replaced by that affine form; the original body is the else branch.
#include "transform/transform.h"
#include "transform/transform_internal.h"

#include "ir/builder.h"

#include <limits>
#include <map>
#include <set>

namespace npusim::transform {
namespace {

/// `(s + arange(0, B)) % C` on the body's top level, rank 1, i32, with
/// `0 < B <= C`: the candidate and its parts.
struct WrappingRem {
  size_t position = 0; // in the body
  ir::Op *rem = nullptr;
  ir::Value *start = nullptr; // s, a scalar i32
  int64_t block = 0;          // B
  int64_t modulus = 0;        // C
};

const ir::Op *definer(const ir::Value *v) {
  return v ? v->definingOp : nullptr;
}

/// The immediate of a constant, or of a splat of one.
std::optional<int64_t> constantOf(const ir::Value *v) {
  const ir::Op *op = definer(v);
  if (op && op->code == ir::OpCode::Splat)
    op = definer(op->operands[0]);
  if (!op || op->code != ir::OpCode::Constant)
    return std::nullopt;
  return op->constant.intValue;
}

std::optional<WrappingRem> wrappingRem(ir::Op &op, size_t position) {
  if (op.code != ir::OpCode::Rem || op.operands.size() != 2)
    return std::nullopt;
  const ir::Type &type = op.result()->type;
  if (type.rank() != 1 || type.isPointer || type.dtype != ir::DType::Int32)
    return std::nullopt;
  const ir::Op *add = definer(op.operands[0]);
  const std::optional<int64_t> modulus = constantOf(op.operands[1]);
  if (!add || add->code != ir::OpCode::Add || !modulus)
    return std::nullopt;
  for (int side = 0; side < 2; ++side) {
    const ir::Op *splat = definer(add->operands[side]);
    const ir::Op *arange = definer(add->operands[1 - side]);
    if (!splat || splat->code != ir::OpCode::Splat || !arange || arange->code != ir::OpCode::Arange ||
        arange->start != 0)
      continue;
    const int64_t block = arange->end;
    if (block > *modulus)
      return std::nullopt;
    return WrappingRem{position, &op, splat->operands[0], block, *modulus};
  }
  return std::nullopt;
}

/// Whether a load or store inside a loop reads a value derived from `from`:
/// only there does the gather repeat, so only there is the copy worth it.
bool feedsLoopAccess(const ir::Block &body, const ir::Value *from) {
  std::set<const ir::Value *> derived{from};
  bool found = false;
  auto visit = [&](auto &self, const ir::Block &block, bool inLoop) -> void {
    for (const auto &op : block.ops) {
      bool uses = false;
      for (const ir::Value *operand : op->operands)
        uses = uses || derived.count(operand);
      if (uses) {
        derived.insert(op->results.begin(), op->results.end());
        if (inLoop && (op->code == ir::OpCode::Load || op->code == ir::OpCode::Store))
          found = true;
      }
      for (const auto &region : op->regions)
        self(self, *region, inLoop || op->code == ir::OpCode::For);
    }
  };
  visit(visit, body, false);
  return found;
}

} // namespace

void unwrapRemainders(ir::Function &function) {
  ir::Block &body = function.body();
  std::vector<WrappingRem> found;
  for (size_t i = 0; i < body.ops.size(); ++i)
    if (auto rem = wrappingRem(*body.ops[i], i); rem && feedsLoopAccess(body, rem->rem->result()))
      found.push_back(*rem);
  if (found.empty())
    return;
  // The test goes where the first remainder is; a start defined later is not
  // known there.
  const size_t split = found.front().position;
  std::set<const ir::Value *> before;
  for (size_t i = 0; i < split; ++i)
    before.insert(body.ops[i]->results.begin(), body.ops[i]->results.end());
  before.insert(body.arguments.begin(), body.arguments.end());
  std::erase_if(found, [&](const WrappingRem &r) { return !before.count(r.start); });
  if (found.empty())
    return;

  std::vector<std::unique_ptr<ir::Op>> rest;
  for (size_t i = split; i < body.ops.size(); ++i)
    rest.push_back(std::move(body.ops[i]));
  body.ops.resize(split);

  ir::Builder b(function);
  b.setLocation(rest.front()->loc);
  const ir::DType i32 = ir::DType::Int32;
  ir::Value *holds = nullptr;
  std::map<const ir::Op *, ir::Value *> unwrappedStart; // s % C per remainder
  for (const WrappingRem &r : found) {
    // s >= 0, s + B - 1 does not overflow, and s % C <= C - B.
    // One op per statement, so that the ops' order is the program's.
    ir::Value *rem = b.binary(ir::OpCode::Rem, r.start, b.constantInt(i32, r.modulus));
    ir::Value *nonNegative = b.cmp(ir::CmpPredicate::Ge, r.start, b.constantInt(i32, 0));
    ir::Value *noOverflow = b.cmp(ir::CmpPredicate::Le, r.start,
                                  b.constantInt(i32, std::numeric_limits<int32_t>::max() - (r.block - 1)));
    ir::Value *noWrap = b.cmp(ir::CmpPredicate::Le, rem, b.constantInt(i32, r.modulus - r.block));
    ir::Value *ok = b.binary(ir::OpCode::And, nonNegative, noOverflow);
    ok = b.binary(ir::OpCode::And, ok, noWrap);
    holds = holds ? b.binary(ir::OpCode::And, holds, ok) : ok;
    unwrappedStart[r.rem] = rem;
  }
  ir::Op *branch = b.create(ir::OpCode::If, {holds}, {});
  ir::Block *unwrapped = b.addRegion(branch, {});
  ir::Block *original = b.addRegion(branch, {});

  // The copy: each remainder becomes splat(s % C) + arange(0, B), computed
  // where the remainder was.
  std::map<const ir::Value *, ir::Value *> renamed;
  for (const auto &op : rest) {
    if (auto it = unwrappedStart.find(op.get()); it != unwrappedStart.end()) {
      b.setInsertionBlock(unwrapped);
      b.setLocation(op->loc);
      const int64_t block = op->result()->type.shape[0];
      ir::Value *start = b.splat(it->second, {block});
      ir::Value *affine = b.binary(ir::OpCode::Add, start, b.arange(0, block));
      affine->nameHint = op->result()->nameHint;
      renamed[op->result()] = affine;
      continue;
    }
    copyOps(function, {op.get()}, *unwrapped, renamed);
  }
  b.setInsertionBlock(unwrapped);
  b.yield({});
  for (auto &op : rest)
    original->ops.push_back(std::move(op));
  b.setInsertionBlock(original);
  b.yield({});
}

} // namespace npusim::transform
