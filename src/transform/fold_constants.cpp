// Scalar constant folding (docs/compiler.md, "Folded constants"). A loop that
// `unroll-dots` unrolls fully leaves its induction variable a constant in
// every copy, and a convolution template derives the kernel position from it
// by `//` and `%` (`i = ijk // KERNEL_W`, `k = (ijk % 1) * BLOCK_K`). Folded,
// the copies whose positions agree compute equal ops, which `cse` then merges.
#include "transform/transform.h"

#include <limits>
#include <optional>

namespace npusim::transform {
namespace {

using ir::OpCode;

/// The range of a signed integer dtype, or nothing for the others.
std::optional<std::pair<int64_t, int64_t>> signedRange(ir::DType dtype) {
  switch (dtype) {
  case ir::DType::Int32:
    return std::pair<int64_t, int64_t>{std::numeric_limits<int32_t>::min(),
                                       std::numeric_limits<int32_t>::max()};
  case ir::DType::Int64:
    return std::pair<int64_t, int64_t>{std::numeric_limits<int64_t>::min(),
                                       std::numeric_limits<int64_t>::max()};
  default: return std::nullopt;
  }
}

std::optional<int64_t> scalarConstant(const ir::Value *v) {
  const ir::Op *op = v->definingOp;
  if (!op || op->code != OpCode::Constant || !v->type.isScalar() || !signedRange(v->type.dtype))
    return std::nullopt;
  return op->constant.intValue;
}

/// The value of `op` on constant operands, where it is exact: the result
/// fits its dtype (no wrapping to follow), and a division or remainder has a
/// positive divisor (C truncation, with no `MIN / -1` or division by zero).
std::optional<int64_t> folded(const ir::Op &op) {
  if (op.results.size() != 1 || !op.result()->type.isScalar() || op.result()->type.isPointer)
    return std::nullopt;
  const auto range = signedRange(op.result()->type.dtype);
  if (!range)
    return std::nullopt;
  std::vector<int64_t> x;
  for (const ir::Value *operand : op.operands) {
    const auto c = scalarConstant(operand);
    if (!c)
      return std::nullopt;
    x.push_back(*c);
  }
  int64_t r = 0;
  switch (op.code) {
  case OpCode::Cast:
    if (x.size() != 1)
      return std::nullopt;
    r = x[0];
    break;
  case OpCode::Add:
  case OpCode::Sub:
  case OpCode::Mul:
    if (x.size() != 2 || (op.code == OpCode::Add && __builtin_add_overflow(x[0], x[1], &r)) ||
        (op.code == OpCode::Sub && __builtin_sub_overflow(x[0], x[1], &r)) ||
        (op.code == OpCode::Mul && __builtin_mul_overflow(x[0], x[1], &r)))
      return std::nullopt;
    break;
  case OpCode::Div:
  case OpCode::Rem:
    if (x.size() != 2 || x[1] <= 0)
      return std::nullopt;
    r = op.code == OpCode::Div ? x[0] / x[1] : x[0] % x[1];
    break;
  default: return std::nullopt;
  }
  if (r < range->first || r > range->second)
    return std::nullopt;
  return r;
}

void foldBlock(ir::Block &block) {
  for (auto &op : block.ops) {
    for (auto &region : op->regions)
      foldBlock(*region);
    if (const auto value = folded(*op)) {
      // The op becomes the constant: its result keeps its id and uses.
      op->code = OpCode::Constant;
      op->operands.clear();
      op->constant = ir::ConstantValue{};
      op->constant.intValue = *value;
      op->constant.floatValue = static_cast<double>(*value);
    }
  }
}

} // namespace

void foldConstants(ir::Function &function) {
  foldBlock(function.body());
}

} // namespace npusim::transform
