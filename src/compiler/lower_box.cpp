// Box accesses: a gathered pointer whose offset is Inductor's index arithmetic
// (`(x // a) % b * s1 + (x // c) * s2 + k` over blocked aranges) is a strided
// access over the tile's axes split into digits (docs/compiler.md "DMA forms",
// "Box accesses"). The DMA then walks DRAM in runs instead of gathering.
#include "compiler/lowering_internal.h"

#include <algorithm>
#include <numeric>
#include <set>
#include <vector>

namespace npusim::compiler {

using Kind = ValueState::Kind;

namespace {

/// A known non-negative base divisible by `c`: an immediate, or a register
/// whose known positive multiple `multiple` is.
bool divisible(const Scalar &base, int64_t multiple, int64_t c) {
  if (base.isImmediate())
    return base.operand.intValue >= 0 && base.operand.intValue % c == 0;
  return multiple > 0 && multiple % c == 0;
}

} // namespace

BoxLowerer::BoxIndex BoxLowerer::combine(const BoxIndex &a, const BoxIndex &b, int64_t sign, const Scalar &base) {
  BoxIndex sum = a;
  sum.base = base;
  // A sum of non-negative parts is a multiple of their gcd (a zero part: of
  // the other); the multiple matters only where the base is a register.
  auto multiple = [](const BoxIndex &x) -> int64_t {
    if (x.base.isImmediate())
      return x.base.operand.intValue >= 0 ? x.base.operand.intValue : -1;
    return x.multiple > 0 ? x.multiple : -1;
  };
  const int64_t ma = multiple(a), mb = multiple(b);
  sum.multiple = sign < 0 || ma < 0 || mb < 0 ? 0 : ma == 0 ? mb : mb == 0 ? ma : std::gcd(ma, mb);
  for (BoxTerm t : b.terms) {
    t.coefficient *= sign;
    sum.terms.push_back(t);
  }
  return sum;
}

std::optional<BoxLowerer::BoxIndex> BoxLowerer::sumOfBoxes(const std::vector<const ir::Value *> &offsets,
                                                             bool emitting) {
  auto arith = [&](npu::ElementOp e, const Scalar &x, const Scalar &y) {
    if (emitting || (x.isImmediate() && y.isImmediate()))
      return cx.scalarArith(e, x, y, DType::Int64);
    return x.isImmediate() ? y : x;
  };
  std::optional<BoxIndex> sum;
  for (const ir::Value *offset : offsets) {
    std::optional<BoxIndex> box = boxIndex(offset, 0, emitting);
    if (!box)
      return std::nullopt;
    // An axis of extent 1 in the offset's own shape has index 0 there: its
    // digits are 0 wherever the broadcast stretches it.
    const ir::Shape &own = offset->type.shape;
    std::erase_if(box->terms, [&](const BoxTerm &t) { return own[static_cast<size_t>(t.axis)] == 1; });
    sum = sum ? combine(*sum, *box, 1, arith(npu::ElementOp::Add, sum->base, box->base)) : *box;
  }
  return sum;
}

std::optional<BoxLowerer::BoxIndex> BoxLowerer::boxIndex(const ir::Value *v, int depth, bool emitting) {
  if (depth > 16)
    return std::nullopt;
  // Without `emitting` nothing is emitted: a register base stands for itself in
  // the checks, which read only whether it is an immediate and its multiple.
  auto arith = [&](npu::ElementOp e, const Scalar &x, const Scalar &y) {
    if (emitting || (x.isImmediate() && y.isImmediate()))
      return cx.scalarArith(e, x, y, DType::Int64);
    return x.isImmediate() ? y : x;
  };
  if (cx.isLazy(v)) {
    const LazyTile &lazy = *cx.state(v).lazy;
    BoxIndex box;
    box.base = emitting ? cx.widen(lazy.base) : lazy.base;
    box.multiple = lazy.base.isImmediate() ? 0 : knownMultiple(*cx.out, lazy.base.operand);
    for (size_t a = 0; a < lazy.strides.size(); ++a) {
      if (!lazy.strides[a].isImmediate())
        return std::nullopt;
      if (const int64_t stride = lazy.strides[a].operand.intValue; stride != 0)
        box.terms.push_back({static_cast<int>(a), 1, 0, stride});
    }
    return box;
  }
  const ir::Op *op = v->definingOp;
  if (!op || v->type.isScalar())
    return std::nullopt;
  // A stretched size-1 axis repeats its one index: the terms stay.
  if (op->code == ir::OpCode::Broadcast && op->operands.size() == 1 &&
      op->operands[0]->type.shape.size() == v->type.shape.size())
    return boxIndex(op->operands[0], depth + 1, emitting);
  // A signed integer widened keeps its value (an i32 arange promoted to i64 by
  // a dynamic size's i64 scalar): the terms stay.
  if (op->code == ir::OpCode::Cast && op->operands.size() == 1) {
    const DType from = op->operands[0]->type.dtype, to = v->type.dtype;
    if (core::isInteger(from) && core::isInteger(to) && from != DType::Bool && core::isSigned(from) &&
        core::isSigned(to) && core::bitWidth(to) >= core::bitWidth(from))
      return boxIndex(op->operands[0], depth + 1, emitting);
    return std::nullopt;
  }
  if (op->operands.size() != 2)
    return std::nullopt;
  const ir::OpCode code = op->code;
  if (code != ir::OpCode::Add && code != ir::OpCode::Sub && code != ir::OpCode::Mul &&
      code != ir::OpCode::Rem && code != ir::OpCode::Div)
    return std::nullopt;
  auto a = boxIndex(op->operands[0], depth + 1, emitting);
  auto b = boxIndex(op->operands[1], depth + 1, emitting);
  if (!a || !b)
    return std::nullopt;
  auto constant = [](const BoxIndex &x) -> std::optional<int64_t> {
    if (!x.terms.empty() || !x.base.isImmediate())
      return std::nullopt;
    return x.base.operand.intValue;
  };
  if (code == ir::OpCode::Add || code == ir::OpCode::Sub)
    return combine(*a, *b, code == ir::OpCode::Add ? 1 : -1,
                   arith(code == ir::OpCode::Add ? npu::ElementOp::Add : npu::ElementOp::Sub, a->base, b->base));
  if (code == ir::OpCode::Mul) {
    const auto ka = constant(*a), kb = constant(*b);
    if (!ka && !kb)
      return std::nullopt;
    const int64_t k = kb ? *kb : *ka;
    BoxIndex scaled = kb ? *a : *b;
    scaled.base = arith(npu::ElementOp::Mul, scaled.base, cx.immediate(DType::Int64, k));
    scaled.multiple =
        k > 0 && scaled.multiple > 0 && scaled.multiple < (int64_t{1} << 30) ? scaled.multiple * k : 0;
    for (BoxTerm &t : scaled.terms)
      t.coefficient *= k;
    return scaled;
  }
  // `(base + i / d) % C` and `// C` with base a non-negative multiple of C:
  // the digit (i / d) % C, or base / C plus the digit i / (d C).
  const auto c = constant(*b);
  if (!c || *c <= 0 || a->terms.size() != 1 || a->terms[0].modulus != 0 || a->terms[0].coefficient != 1 ||
      !divisible(a->base, a->multiple, *c))
    return std::nullopt;
  BoxIndex result;
  result.terms = a->terms;
  if (code == ir::OpCode::Rem) {
    result.base = cx.immediate(DType::Int64, 0);
    result.terms[0].modulus = *c;
    return result;
  }
  result.terms[0].divisor *= *c;
  if (a->base.isImmediate()) {
    result.base = cx.immediate(DType::Int64, a->base.operand.intValue / *c);
  } else {
    npu::ElementFunction fn;
    fn.op = npu::ElementOp::Div;
    fn.operandType = fn.resultType = DType::Int64;
    result.base =
        emitting ? cx.scalarOp(fn, {a->base, cx.immediate(DType::Int64, *c)}, cx.nameOf(v)) : a->base;
    result.multiple = a->multiple / *c;
  }
  return result;
}

std::optional<BoxLowerer::BoxAccess> BoxLowerer::boxAccess(const ir::Value *pointer, const ir::Value *mask,
                                                           const ir::Shape &shape, int laneAxis) {
  // mask: the access's mask when it is not uniformly true, else null.
  const ValueState &ps = cx.state(pointer);
  if (ps.kind != Kind::Tile || ps.lazy || ps.broadcastOf || ps.tile < 0)
    return std::nullopt;
  // The pointer is a uniform pointer plus offsets: one addition
  // (`in_ptr0 + offset`) or a chain of them (`base + rows + columns`, a
  // part hoisted out of a loop), each offset of the access's rank with every
  // axis its extent or 1 (a size-1 axis repeats its index).
  std::vector<const ir::Value *> offsets;
  const ir::Value *uniform = pointer;
  while (!(cx.isLazy(uniform) && cx.state(uniform).lazy->uniform())) {
    const ir::Op *add = uniform->definingOp;
    if (!add || add->code != ir::OpCode::AddPtr || offsets.size() > 8)
      return std::nullopt;
    const ir::Shape &offsetShape = add->operands[1]->type.shape;
    if (offsetShape.size() != shape.size())
      return std::nullopt;
    for (size_t a = 0; a < shape.size(); ++a)
      if (offsetShape[a] != shape[a] && offsetShape[a] != 1)
        return std::nullopt;
    offsets.push_back(add->operands[1]);
    uniform = add->operands[0];
    // The pointer side may have been broadcast to the access's shape.
    while (uniform->definingOp && uniform->definingOp->code == ir::OpCode::Broadcast &&
           uniform->definingOp->operands.size() == 1 &&
           uniform->definingOp->operands[0]->type.shape.size() == shape.size() && !cx.isLazy(uniform))
      uniform = uniform->definingOp->operands[0];
  }
  if (offsets.empty())
    return std::nullopt;
  // Checked first without emitting anything, then built.
  const std::optional<BoxIndex> box = sumOfBoxes(offsets, false);
  if (!box || std::none_of(box->terms.begin(), box->terms.end(),
                           [](const BoxTerm &t) { return t.divisor > 1 || t.modulus > 0; }))
    return std::nullopt;
  const int rank = static_cast<int>(shape.size());
  const int64_t lanes = std::max(1, cx.machine.lanes);
  // Each axis is cut where a term's digit starts or ends; the cuts must
  // divide each other and the extent (the block is a multiple of the periods).
  // The lane axis is cut at the lane count too, and nowhere below it, so that
  // the split tile is the same bytes (slot = i[lane axis] / lanes * rest + ...).
  BoxAccess access;
  std::vector<std::vector<int64_t>> cuts(rank); // per axis, descending, from the extent to 1
  for (int a = 0; a < rank; ++a) {
    std::set<int64_t> at{1, shape[a]};
    for (const BoxTerm &t : box->terms)
      if (t.axis == a) {
        at.insert(std::min(t.divisor, shape[a]));
        if (t.modulus > 0)
          at.insert(std::min(t.divisor * t.modulus, shape[a]));
      }
    if (a == laneAxis) {
      if (at.size() > 2 && shape[a] % lanes != 0)
        return std::nullopt;
      if (shape[a] % lanes == 0)
        at.insert(lanes);
      for (int64_t c : at)
        if (c != 1 && c % lanes != 0)
          return std::nullopt;
      // Digits above the lanes are the slot's outermost part: a view only
      // while no axis before the lane axis has more than one element.
      for (int b = 0; b < a && shape[a] > lanes; ++b)
        if (shape[b] > 1)
          return std::nullopt;
    }
    int64_t previous = 1;
    for (int64_t c : at) {
      if (c % previous != 0)
        return std::nullopt;
      previous = c;
    }
    cuts[a].assign(at.rbegin(), at.rend());
  }
  std::vector<npu::ScalarOperand> strides;
  for (int a = 0; a < rank; ++a) {
    for (size_t d = 1; d < cuts[a].size(); ++d) {
      const int64_t hi = cuts[a][d - 1], lo = cuts[a][d];
      if (a == laneAxis && lo == 1)
        access.laneAxis = static_cast<int>(access.shape.size());
      access.shape.push_back(hi / lo);
      int64_t stride = 0;
      for (const BoxTerm &t : box->terms) {
        const int64_t top = t.modulus > 0 ? t.divisor * t.modulus : INT64_MAX;
        if (t.axis == a && lo >= t.divisor && hi <= top)
          stride += t.coefficient * (lo / t.divisor);
      }
      strides.push_back(ScalarOperand::immediate(stride));
    }
    if (cuts[a].size() == 1) { // an extent of 1
      if (a == laneAxis)
        access.laneAxis = static_cast<int>(access.shape.size());
      access.shape.push_back(1);
      strides.push_back(ScalarOperand::immediate(0));
    }
  }
  access.dma.argument = ps.argument;
  const Scalar base = sumOfBoxes(offsets, true)->base;
  access.dma.base =
      cx.scalarArith(npu::ElementOp::Add, cx.widen(cx.state(uniform).lazy->base), base, DType::Int64).operand;
  access.dma.strides = std::move(strides);
  if (mask) {
    const int m = cx.tileOf(mask, laneAxis);
    if (cx.tiles.at(m).layout.shape != shape)
      return std::nullopt;
    access.dma.maskTile = cx.aliasTile(m, access.shape, access.laneAxis, cx.tiles.at(m).name);
  }
  return access;
}

} // namespace npusim::compiler
