// Division recombination (docs/compiler.md, "Recombined divisions"). Inductor
// writes a flat index as digits, `x0 = x % n`, `x1 = x // n`, and a view that
// keeps the digits in order sums them back with strides: `x0 + n * x1`. The
// lowering sees a remainder and a division per element (vector work) and an
// offset that is no box (a gather). Whatever the sign of `x` and however the
// arithmetic wraps, C division gives `x == (x / n) * n + x % n`, so
// `c * (x % n) + (c * n) * (x / n)` is `c * x` in the integers modulo 2^bits:
// this pass finds such pairs among the terms of a sum and rebuilds the sum
// without them, over and over, until none is left.
#include "transform/transform.h"
#include "transform/transform_internal.h"

#include "ir/builder.h"

#include <map>
#include <set>
#include <string>

namespace npusim::transform {
namespace {

using ir::OpCode;

/// The integer every element of `v` holds: a constant, or a splat, broadcast
/// or expand_dims of one.
std::optional<int64_t> uniformConstant(const ir::Value *v) {
  while (v->definingOp && v->definingOp->operands.size() == 1 &&
         (v->definingOp->code == OpCode::Splat || v->definingOp->code == OpCode::Broadcast ||
          v->definingOp->code == OpCode::ExpandDims))
    v = v->definingOp->operands[0];
  const ir::Op *op = v->definingOp;
  if (op && op->code == OpCode::Constant && !v->type.isPointer &&
      (v->type.dtype == ir::DType::Int32 || v->type.dtype == ir::DType::Int64))
    return op->constant.intValue; // a tile constant holds its value in every element
  return constantInt(v);
}

/// Products in the integers modulo 2^64, which every narrower width's
/// arithmetic is a quotient of.
int64_t wrappingProduct(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
}

/// `coefficient` in the value's own width, sign-extended: equal coefficients
/// compare equal whatever their multiples of 2^bits.
int64_t inWidth(int64_t coefficient, ir::DType dtype) {
  return dtype == ir::DType::Int32 ? static_cast<int64_t>(static_cast<int32_t>(coefficient)) : coefficient;
}

/// Value numbers: pure ops of equal opcode, attributes and numbered operands
/// (two casts of one index that the front end made apart) get one number.
class ValueNumbers {
public:
  explicit ValueNumbers(const ir::Function &function) { number(function.body()); }
  int of(const ir::Value *v) const {
    auto it = numbers_.find(v);
    return it == numbers_.end() ? v->id : it->second;
  }

private:
  void number(const ir::Block &block) {
    for (const auto &op : block.ops) {
      for (const auto &region : op->regions)
        number(*region);
      if (!isPureOp(*op) || op->results.size() != 1)
        continue;
      const std::string key = equalityKey(*op, [this](const ir::Value *v) { return of(v); });
      auto [it, fresh] = first_.emplace(key, of(op->result()));
      if (!fresh)
        numbers_[op->result()] = it->second;
    }
  }
  std::map<const ir::Value *, int> numbers_;
  std::map<std::string, int> first_;
};

/// Whether every use of each value is index arithmetic (sums, products,
/// divisions, remainders, casts, splats, broadcasts, pointer offsets). A
/// digit that a mask or a select also reads stays a digit: the lowering's box
/// form then clips the load on that digit's axis, which a flat offset would
/// turn into a mask per element (a rotary embedding's `x % 32 < 16` halves).
class IndexOnlyUses {
public:
  explicit IndexOnlyUses(const ir::Function &function) {
    std::vector<const ir::Op *> ops;
    visit(function.body(), ops);
    // A cast, splat, broadcast or expand_dims passes its value on unchanged:
    // what reads its result reads its operand (uses follow definitions, so
    // one backward sweep carries them).
    for (auto it = ops.rbegin(); it != ops.rend(); ++it)
      if (isCopy(**it) && other_.count((*it)->result()))
        other_.insert((*it)->operands[0]);
  }
  bool indexOnly(const ir::Value *v) const { return !other_.count(v); }

private:
  static bool isCopy(const ir::Op &op) {
    return (op.code == OpCode::Cast || op.code == OpCode::Splat || op.code == OpCode::Broadcast ||
            op.code == OpCode::ExpandDims) &&
           op.operands.size() == 1 && op.results.size() == 1;
  }
  void visit(const ir::Block &block, std::vector<const ir::Op *> &ops) {
    for (const auto &op : block.ops) {
      ops.push_back(op.get());
      const bool index = op->code == OpCode::Add || op->code == OpCode::Sub || op->code == OpCode::Mul ||
                         op->code == OpCode::Div || op->code == OpCode::Rem || isCopy(*op) ||
                         op->code == OpCode::AddPtr;
      if (!index)
        other_.insert(op->operands.begin(), op->operands.end());
      for (const auto &region : op->regions)
        visit(*region, ops);
    }
  }
  std::set<const ir::Value *> other_;
};

struct Term {
  ir::Value *atom = nullptr;
  int64_t coefficient = 1;
};

/// `v` times `coefficient` as a sum of terms: sums, differences and products
/// with a constant are opened, anything else is an atom.
void collectTerms(ir::Value *v, int64_t coefficient, std::vector<Term> &terms, int depth) {
  const ir::Op *op = v->definingOp;
  if (op && depth < 64 && op->operands.size() == 2) {
    if (op->code == OpCode::Add || op->code == OpCode::Sub) {
      collectTerms(op->operands[0], coefficient, terms, depth + 1);
      collectTerms(op->operands[1], op->code == OpCode::Sub ? wrappingProduct(coefficient, -1) : coefficient, terms,
                   depth + 1);
      return;
    }
    if (op->code == OpCode::Mul)
      for (int side = 0; side < 2; ++side)
        if (const auto factor = uniformConstant(op->operands[static_cast<size_t>(side)])) {
          collectTerms(op->operands[static_cast<size_t>(1 - side)], wrappingProduct(coefficient, *factor), terms,
                       depth + 1);
          return;
        }
  }
  terms.push_back({v, coefficient});
}

/// `a` and the constant `n` of `a % n` or `a / n` (`code`), n nonzero.
std::optional<std::pair<ir::Value *, int64_t>> digitOf(const ir::Value *v, OpCode code) {
  const ir::Op *op = v->definingOp;
  if (!op || op->code != code || op->operands.size() != 2)
    return std::nullopt;
  const auto n = uniformConstant(op->operands[1]);
  if (!n || *n == 0)
    return std::nullopt;
  return std::make_pair(op->operands[0], *n);
}

/// Rewrites `terms` while a remainder and its division pair up; whether any did.
bool recombine(std::vector<Term> &terms, ir::DType dtype, const ValueNumbers &numbers, const IndexOnlyUses &uses) {
  bool changed = false;
  for (bool again = true; again;) {
    again = false;
    // (a % n) % n is a % n: C's remainder is already smaller than n.
    for (Term &t : terms)
      while (const auto rem = digitOf(t.atom, OpCode::Rem)) {
        const auto inner = digitOf(rem->first, OpCode::Rem);
        if (!inner || inner->second != rem->second)
          break;
        t.atom = rem->first;
      }
    for (size_t i = 0; i < terms.size() && !again; ++i) {
      const auto rem = digitOf(terms[i].atom, OpCode::Rem);
      if (!rem || !uses.indexOnly(terms[i].atom))
        continue;
      for (size_t j = 0; j < terms.size(); ++j) {
        const auto div = digitOf(terms[j].atom, OpCode::Div);
        if (!div || !uses.indexOnly(terms[j].atom) || numbers.of(div->first) != numbers.of(rem->first) || div->second != rem->second ||
            inWidth(terms[j].coefficient, dtype) !=
                inWidth(wrappingProduct(terms[i].coefficient, rem->second), dtype))
          continue;
        terms[i].atom = rem->first;
        terms.erase(terms.begin() + static_cast<std::ptrdiff_t>(j));
        again = changed = true;
        break;
      }
    }
    // Equal atoms merge, so that a recombined digit meets its next one.
    for (size_t i = 0; i < terms.size(); ++i)
      for (size_t j = terms.size(); j-- > i + 1;)
        if (numbers.of(terms[j].atom) == numbers.of(terms[i].atom)) {
          terms[i].coefficient = static_cast<int64_t>(static_cast<uint64_t>(terms[i].coefficient) +
                                                      static_cast<uint64_t>(terms[j].coefficient));
          terms.erase(terms.begin() + static_cast<std::ptrdiff_t>(j));
        }
    std::erase_if(terms, [&](const Term &t) { return inWidth(t.coefficient, dtype) == 0; });
  }
  return changed;
}

bool isIntegerSum(const ir::Op &op) {
  if ((op.code != OpCode::Add && op.code != OpCode::Sub) || op.results.size() != 1 || op.operands.size() != 2)
    return false;
  const ir::Type &type = op.result()->type;
  return !type.isPointer && (type.dtype == ir::DType::Int32 || type.dtype == ir::DType::Int64);
}

void recombineBlock(ir::Function &function, ir::Block &block, const ValueNumbers &numbers,
                    const IndexOnlyUses &uses, std::map<const ir::Value *, ir::Value *> &replacement) {
  for (size_t i = 0; i < block.ops.size(); ++i) {
    ir::Op &op = *block.ops[i];
    for (auto &region : op.regions)
      recombineBlock(function, *region, numbers, uses, replacement);
    if (!isIntegerSum(op))
      continue;
    std::vector<Term> terms;
    collectTerms(op.result(), 1, terms, 0);
    const ir::Type type = op.result()->type;
    if (!recombine(terms, type.dtype, numbers, uses) || terms.empty())
      continue;
    // The sum rebuilt just before the op it replaces, where every atom is defined.
    ir::Block built;
    ir::Builder b(function);
    b.setInsertionBlock(&built);
    b.setLocation(op.loc);
    ir::Value *sum = nullptr;
    for (const Term &t : terms) {
      ir::Value *term = t.atom;
      if (inWidth(t.coefficient, type.dtype) != 1)
        term = b.binary(OpCode::Mul, term, b.constantInt(type.dtype, inWidth(t.coefficient, type.dtype), type.shape));
      sum = sum ? b.binary(OpCode::Add, sum, term) : term;
    }
    replacement[op.result()] = sum;
    i += spliceBefore(block, i, built);
  }
}

} // namespace

void recombineDivisions(ir::Function &function) {
  std::map<const ir::Value *, ir::Value *> replacement;
  const ValueNumbers numbers(function);
  const IndexOnlyUses uses(function);
  recombineBlock(function, function.body(), numbers, uses, replacement);
  if (replacement.empty())
    return;
  replaceUses(function.body(), replacement);
}

} // namespace npusim::transform
