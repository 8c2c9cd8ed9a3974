// Masks as clip boxes: a load, store or atomic whose mask is an `and` of
// bounds on single tile axes (`x < n`, `x <= n`, `x > n`, `x >= n`, either way
// round, with `x` an affine index of stride 1 along one axis and `n` uniform)
// clips its DMA to a box of scalar bounds instead of reading a mask tile
// (docs/compiler.md, "Masks as clip boxes"). The mask's vector arithmetic and
// its bytes then go unless something else reads it.
#include "compiler/lowering_internal.h"

#include <algorithm>

namespace npusim::compiler {

using Kind = ValueState::Kind;
using ir::OpCode;

namespace {

// Bounded: mask trees are a few ops deep; a deeper one keeps its tile.
constexpr int kMaxClipDepth = 16;

} // namespace

/// The uniform value of `v` (a scalar, or a lazy tile with every stride 0).
std::optional<Scalar> MemoryLowerer::uniformScalar(const ir::Value *v) {
  const ValueState &st = cx.state(v);
  if (st.kind == Kind::Scalar)
    return st.scalar;
  if (st.kind == Kind::Tile && st.lazy && st.lazy->uniform())
    return st.lazy->base;
  return std::nullopt;
}

bool MemoryLowerer::clipTerms(const ir::Value *mask, const std::vector<int> &axisOf, std::vector<ClipBound> &terms,
                              int depth) {
  const ir::Op *op = mask->definingOp;
  if (!op || depth > kMaxClipDepth)
    return false;
  switch (op->code) {
  case OpCode::And:
    return clipTerms(op->operands[0], axisOf, terms, depth + 1) &&
           clipTerms(op->operands[1], axisOf, terms, depth + 1);
  case OpCode::ExpandDims: {
    if (op->axis < 0 || op->axis >= static_cast<int>(axisOf.size()))
      return false;
    std::vector<int> inner = axisOf;
    inner.erase(inner.begin() + op->axis);
    return clipTerms(op->operands[0], inner, terms, depth + 1);
  }
  case OpCode::Broadcast: {
    // An axis stretched from one element: the operand is the same along it.
    std::vector<int> inner = axisOf;
    const ir::Shape &from = op->operands[0]->type.shape;
    if (from.size() != inner.size() || mask->type.shape.size() != inner.size())
      return false;
    for (size_t a = 0; a < inner.size(); ++a)
      if (from.at(a) == 1 && mask->type.shape.at(a) != 1)
        inner[a] = -1;
    return clipTerms(op->operands[0], inner, terms, depth + 1);
  }
  case OpCode::Cmp: {
    const ir::Value *lhs = op->operands[0], *rhs = op->operands[1];
    const DType type = lhs->type.dtype;
    if (type != DType::Int32 && type != DType::Int64)
      return false;
    core::CmpPredicate predicate = op->predicate;
    // The varying side on the left: n < x is x > n.
    if (!cx.isLazy(lhs) || cx.state(lhs).lazy->uniform()) {
      std::swap(lhs, rhs);
      switch (predicate) {
      case core::CmpPredicate::Lt: predicate = core::CmpPredicate::Gt; break;
      case core::CmpPredicate::Le: predicate = core::CmpPredicate::Ge; break;
      case core::CmpPredicate::Gt: predicate = core::CmpPredicate::Lt; break;
      case core::CmpPredicate::Ge: predicate = core::CmpPredicate::Le; break;
      default: return false;
      }
    }
    const std::optional<Scalar> n = uniformScalar(rhs);
    if (!n || !cx.isLazy(lhs))
      return false;
    const LazyTile &x = *cx.state(lhs).lazy;
    if (x.strides.size() != axisOf.size() || lhs->type.shape.size() != axisOf.size())
      return false;
    // Exactly one axis along which x varies, by 1 per element, and that
    // axis one of the data tile's.
    int varying = -1;
    for (size_t a = 0; a < x.strides.size(); ++a) {
      if (x.strides[a].isImmediateInt(0) || lhs->type.shape.at(a) == 1)
        continue;
      if (varying >= 0 || !x.strides[a].isImmediateInt(1) || axisOf.at(a) < 0)
        return false;
      varying = static_cast<int>(a);
    }
    if (varying < 0)
      return false;
    ClipBound term;
    term.axis = axisOf[static_cast<size_t>(varying)];
    term.n = *n;
    term.base = x.base;
    switch (predicate) {
    case core::CmpPredicate::Lt: term.upper = true; break;                      // i < n - b
    case core::CmpPredicate::Le: term.upper = true, term.adjust = 1; break;     // i < n - b + 1
    case core::CmpPredicate::Gt: term.upper = false, term.adjust = 1; break;    // i >= n - b + 1
    case core::CmpPredicate::Ge: term.upper = false; break;                     // i >= n - b
    default: return false;
    }
    terms.push_back(term);
    return true;
  }
  default:
    return false;
  }
}

bool MemoryLowerer::clipDma(npu::DmaDescriptor &dma, const ir::Value *mask, const ir::Shape &shape) {
  if (mask->type.isScalar() || mask->type.shape != shape)
    return false;
  std::vector<int> axisOf(shape.size());
  for (size_t a = 0; a < shape.size(); ++a)
    axisOf[a] = shape[a] == 1 ? -1 : static_cast<int>(a);
  std::vector<ClipBound> terms;
  if (!clipTerms(mask, axisOf, terms, 0))
    return false;
  // Exact i64 arithmetic: the bounds the mask's comparisons state, for
  // index values that do not wrap in their own type.
  const DType i64 = DType::Int64;
  std::vector<Scalar> low(shape.size(), cx.immediate(i64, 0)), high;
  for (int64_t extent : shape)
    high.push_back(cx.immediate(i64, extent));
  std::vector<bool> lowSet(shape.size(), false), highSet(shape.size(), false);
  for (const ClipBound &t : terms) {
    Scalar bound = cx.scalarArith(npu::ElementOp::Sub, cx.widen(t.n), cx.widen(t.base), i64);
    if (t.adjust)
      bound = cx.scalarArith(npu::ElementOp::Add, bound, cx.immediate(i64, t.adjust), i64);
    const size_t a = static_cast<size_t>(t.axis);
    Scalar &into = t.upper ? high[a] : low[a];
    std::vector<bool>::reference set = t.upper ? highSet[a] : lowSet[a];
    if (!set) {
      into = bound;
    } else if (into.isImmediate() && bound.isImmediate()) {
      into = cx.immediate(i64, t.upper ? std::min(into.operand.intValue, bound.operand.intValue)
                                       : std::max(into.operand.intValue, bound.operand.intValue));
    } else {
      into = cx.scalarArith(t.upper ? npu::ElementOp::Min : npu::ElementOp::Max, into, bound, i64);
    }
    set = true;
  }
  dma.clipLow.clear();
  dma.clipHigh.clear();
  for (size_t a = 0; a < shape.size(); ++a) {
    dma.clipLow.push_back(low[a].operand);
    dma.clipHigh.push_back(high[a].operand);
  }
  return true;
}

} // namespace npusim::compiler
