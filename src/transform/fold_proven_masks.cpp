// Masks that value ranges prove (docs/compiler.md, "Proven masks"). Inductor
// masks every access of a looped reduction with `r0_index < r0_numel`,
// computed in every iteration from the induction variable; where the block
// divides the row, the mask holds everywhere. Computed on the vector unit, it
// makes each iteration's load wait behind the previous iteration's
// arithmetic, which the unit issues in order: loads and compute never
// overlap. A comparison or boolean op whose every element the ranges prove
// becomes that constant; `and` with a true operand becomes the other one; a
// load, store or atomic whose mask is true everywhere loses it. What is left
// of the mask (the rows' `xmask`) is loop-invariant, and hoisting takes it out.
//
// Only bodies of loops without dots are rewritten. A dot loop is a GEMM or
// convolution whose library kernel or template orders its own phases; there
// the in-loop mask delays each instance's loads until its predecessor's
// stores have drained, and without it the reads and writes of neighbouring
// instances meet on the DRAM (Llama's LM head, 32 x 256 x 32000 tiled:
// 121,483 -> 168,182 cycles, its stores 3.5x slower).
#include "transform/transform.h"
#include "transform/transform_internal.h"

namespace npusim::transform {
namespace {

using ir::OpCode;

/// Whether `v` is a constant true (a constant, or a splat, broadcast or
/// expand_dims of one).
bool isConstantTrue(const ir::Value *v) {
  const ir::Op *op = v->definingOp;
  while (op && (op->code == OpCode::Splat || op->code == OpCode::Broadcast || op->code == OpCode::ExpandDims))
    op = op->operands[0]->definingOp;
  return op && op->code == OpCode::Constant && op->result()->type.isBool() && op->constant.intValue != 0;
}

/// Whether `block` or a block nested in it has a dot.
bool hasDot(const ir::Block &block) {
  for (const auto &op : block.ops) {
    if (op->code == OpCode::Dot)
      return true;
    for (const auto &region : op->regions)
      if (hasDot(*region))
        return true;
  }
  return false;
}

/// Whether the ops of `op`'s regions are rewritten: `op` is a loop without
/// dots, or inside one (`inside`).
bool rewritesInside(const ir::Op &op, bool inside) {
  return inside || (op.code == OpCode::For && !hasDot(op.region(0)));
}

/// Makes every non-constant bool op whose elements the ranges prove equal
/// the constant it is (the result keeps its id, type and uses).
void foldProvenBools(ir::Block &block, const std::vector<std::optional<ValueRange>> &ranges, bool inside) {
  for (auto &op : block.ops) {
    for (auto &region : op->regions)
      foldProvenBools(*region, ranges, rewritesInside(*op, inside));
    if (!inside || op->results.size() != 1 || !op->regions.empty() || op->code == OpCode::Constant ||
        !op->result()->type.isBool() || !isPureOp(*op))
      continue;
    const auto &range = ranges[static_cast<size_t>(op->result()->id)];
    if (!range || range->lo != range->hi)
      continue;
    const int64_t value = range->lo;
    op->code = OpCode::Constant;
    op->operands.clear();
    op->constant = ir::ConstantValue{};
    op->constant.intValue = value;
    op->constant.floatValue = static_cast<double>(value);
  }
}

/// `and(true, x)` (either order, same type) is `x`: its uses take `x`.
void collectTrivialAnds(const ir::Block &block, std::map<const ir::Value *, ir::Value *> &replacement,
                        bool inside) {
  for (const auto &op : block.ops) {
    for (const auto &region : op->regions)
      collectTrivialAnds(*region, replacement, rewritesInside(*op, inside));
    if (!inside || op->code != OpCode::And || op->operands.size() != 2 || !op->result()->type.isBool())
      continue;
    auto resolve = [&](ir::Value *v) {
      for (auto it = replacement.find(v); it != replacement.end(); it = replacement.find(v))
        v = it->second;
      return v;
    };
    ir::Value *a = resolve(op->operands[0]), *b = resolve(op->operands[1]);
    if (isConstantTrue(a) && b->type == op->result()->type)
      replacement[op->result()] = b;
    else if (isConstantTrue(b) && a->type == op->result()->type)
      replacement[op->result()] = a;
  }
}

/// Drops the mask (and a load's `other`) of accesses masked by a constant true.
void dropTrueMasks(ir::Block &block, bool inside) {
  for (auto &op : block.ops) {
    for (auto &region : op->regions)
      dropTrueMasks(*region, rewritesInside(*op, inside));
    const bool access =
        inside && (op->code == OpCode::Load || op->code == OpCode::Store || op->code == OpCode::AtomicRMW);
    const size_t maskIndex = op->code == OpCode::Load ? 1 : 2;
    if (access && op->operands.size() > maskIndex && isConstantTrue(op->operands[maskIndex]))
      op->operands.resize(maskIndex);
  }
}

} // namespace

void foldProvenMasks(ir::Function &function) {
  const auto ranges = valueRanges(function, [](const ir::Op &arange) {
    return ValueRange{arange.start, arange.end - 1};
  });
  foldProvenBools(function.body(), ranges, false);
  std::map<const ir::Value *, ir::Value *> replacement;
  collectTrivialAnds(function.body(), replacement, false);
  replaceUses(function.body(), replacement);
  dropTrueMasks(function.body(), false);
}

} // namespace npusim::transform
