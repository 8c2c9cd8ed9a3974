// Arithmetic, comparisons, casts and broadcasting with Triton's typing rules.
#include "core/float16.h"
#include "triton/lowering.h"

#include <cmath>
#include <limits>

namespace npusim::triton::lowering {

namespace {

using core::DType;

/// Triton's type kinds, ordered: a Python scalar of a kind no higher than its
/// tensor operand's does not take part in promotion.
int kindRank(DType d) {
  if (d == DType::Bool)
    return 0;
  if (core::isFloat(d))
    return 3;
  return core::isSigned(d) ? 2 : 1;
}

/// The type Triton's to_tensor gives a Python number.
DType naturalType(const SemaValue &v) {
  switch (v.kind) {
  case SemaValue::Kind::Bool: return DType::Bool;
  case SemaValue::Kind::Int:
    return (v.intValue >= INT32_MIN && v.intValue <= INT32_MAX) ? DType::Int32 : DType::Int64;
  default: {
    const double a = std::fabs(v.floatValue);
    const bool fitsFp32 = std::isinf(a) || a == 0.0 || std::isnan(v.floatValue) ||
                          (a >= 0x1p-126 && a <= static_cast<double>(std::numeric_limits<float>::max()));
    return fitsFp32 ? DType::Float32 : DType::Float64;
  }
  }
}

DType integerPromote(DType a, DType b) {
  const int wa = core::bitWidth(a), wb = core::bitWidth(b);
  const bool ua = !core::isSigned(a) && a != DType::Bool, ub = !core::isSigned(b) && b != DType::Bool;
  if (ua == ub)
    return wa > wb ? a : b;
  if (ua)
    return wa >= wb ? a : b;
  return wb >= wa ? b : a;
}

/// Value of a number converted to dtype, as a Cast would convert it.
struct ScalarBits {
  int64_t i = 0;
  double f = 0.0;
};

double roundFloat(double v, DType d) {
  switch (d) {
  case DType::Float32: return static_cast<double>(static_cast<float>(v));
  case DType::Float16: return core::roundToHalf(static_cast<float>(v));
  case DType::BFloat16: return core::roundToBFloat16(static_cast<float>(v));
  default: return v;
  }
}

int64_t wrapInt(int64_t v, DType d) {
  const int bits = core::bitWidth(d);
  if (d == DType::Bool)
    return v != 0;
  if (bits >= 64)
    return v;
  const uint64_t mask = (uint64_t{1} << bits) - 1;
  uint64_t u = static_cast<uint64_t>(v) & mask;
  if (core::isSigned(d) && (u >> (bits - 1)) & 1)
    u |= ~mask;
  return static_cast<int64_t>(u);
}

int64_t floatToInt(double v, DType d) {
  if (std::isnan(v))
    return 0;
  const double t = std::trunc(v);
  if (t >= 9.2233720368547758e18)
    return wrapInt(INT64_MAX, d);
  if (t <= -9.2233720368547758e18)
    return wrapInt(INT64_MIN, d);
  return wrapInt(static_cast<int64_t>(t), d);
}

} // namespace

ir::Value *Lowerer::constant(DType dtype, const SemaValue &number, ir::Shape shape, ast::Position pos) {
  if (!number.isNumber())
    fail(pos, "expected a number, got " + number.describe());
  // Go through the number's own Triton type first, as to_tensor + cast does.
  const DType natural = naturalType(number);
  double f = 0.0;
  int64_t i = 0;
  if (number.kind == SemaValue::Kind::Float) {
    f = roundFloat(number.floatValue, natural);
    if (core::isFloat(dtype))
      return builder_->constantFloat(dtype, roundFloat(f, dtype), std::move(shape));
    if (dtype == DType::Bool)
      return builder_->constantInt(dtype, f != 0.0, std::move(shape));
    return builder_->constantInt(dtype, floatToInt(f, dtype), std::move(shape));
  }
  i = number.kind == SemaValue::Kind::Bool ? (number.boolValue ? 1 : 0) : number.intValue;
  if (core::isFloat(dtype))
    return builder_->constantFloat(dtype, roundFloat(static_cast<double>(i), dtype), std::move(shape));
  return builder_->constantInt(dtype, wrapInt(i, dtype), std::move(shape));
}

ir::Value *Lowerer::toTensor(const SemaValue &v, ast::Position pos) {
  if (v.isTensor())
    return v.tensor;
  if (!v.isNumber())
    fail(pos, "expected a tensor or a number, got " + v.describe());
  return constant(naturalType(v), v, {}, pos);
}

ir::Value *Lowerer::castTo(ir::Value *v, DType to) { return builder_->cast(v, to); }

ir::Value *Lowerer::toBool(ir::Value *v) { return castTo(v, DType::Bool); }

ir::Shape Lowerer::broadcastShapes(const ir::Shape &a, const ir::Shape &b, ast::Position pos) {
  if (a.empty())
    return b;
  if (b.empty())
    return a;
  const size_t rank = std::max(a.size(), b.size());
  ir::Shape out(rank);
  for (size_t i = 0; i < rank; ++i) {
    // Shapes align on their last axis; missing leading axes count as 1.
    const int64_t da = i + a.size() >= rank ? a[i + a.size() - rank] : 1;
    const int64_t db = i + b.size() >= rank ? b[i + b.size() - rank] : 1;
    if (da != db && da != 1 && db != 1)
      fail(pos, "cannot broadcast shapes " + ir::shapeString(a) + " and " + ir::shapeString(b) +
                    ": axis " + std::to_string(i) + " is " + std::to_string(da) + " vs " + std::to_string(db));
    out[i] = da == 1 ? db : da;
  }
  return out;
}

ir::Value *Lowerer::broadcastTo(ir::Value *v, const ir::Shape &shape, ast::Position pos) {
  if (v->type.shape == shape)
    return v;
  if (shape.empty())
    fail(pos, "cannot turn " + v->type.str() + " into a scalar");
  if (v->type.isScalar())
    return builder_->splat(v, shape);
  if (v->type.shape.size() > shape.size())
    fail(pos, "cannot broadcast " + v->type.str() + " to " + ir::shapeString(shape));
  while (v->type.shape.size() < shape.size())
    v = builder_->expandDims(v, 0);
  for (size_t i = 0; i < shape.size(); ++i)
    if (v->type.shape[i] != shape[i] && v->type.shape[i] != 1)
      fail(pos, "cannot broadcast " + v->type.str() + " to " + ir::shapeString(shape));
  return v->type.shape == shape ? v : builder_->broadcast(v, shape);
}

std::pair<ir::Value *, ir::Value *> Lowerer::promote(const SemaValue &a, const SemaValue &b, bool divOrMod,
                                                     ast::Position pos) {
  const bool aScalar = !a.isTensor(), bScalar = !b.isTensor();
  if (aScalar && !a.isNumber())
    fail(pos, "expected a tensor or a number, got " + a.describe());
  if (bScalar && !b.isNumber())
    fail(pos, "expected a tensor or a number, got " + b.describe());
  if ((a.isTensor() && a.tensor->type.isPointer) || (b.isTensor() && b.tensor->type.isPointer)) {
    // Pointers meet only pointers of the same type (tl.where between pointers).
    if (!(a.isTensor() && b.isTensor() && a.tensor->type.isPointer && b.tensor->type.isPointer &&
          a.tensor->type.dtype == b.tensor->type.dtype))
      fail(pos, "cannot combine " + a.describe() + " with " + b.describe());
    const ir::Shape shape = broadcastShapes(a.tensor->type.shape, b.tensor->type.shape, pos);
    return {broadcastTo(a.tensor, shape, pos), broadcastTo(b.tensor, shape, pos)};
  }
  const DType ta = aScalar ? naturalType(a) : a.tensor->type.dtype;
  const DType tb = bScalar ? naturalType(b) : b.tensor->type.dtype;
  DType ct;
  bool decided = false;
  if (aScalar != bScalar) {
    const DType scalarTy = aScalar ? ta : tb, tensorTy = aScalar ? tb : ta;
    if (kindRank(scalarTy) <= kindRank(tensorTy)) {
      ct = (divOrMod && (tensorTy == DType::Float16 || tensorTy == DType::BFloat16)) ? DType::Float32 : tensorTy;
      decided = true;
    }
  }
  if (!decided) {
    if (ta == DType::Float64 || tb == DType::Float64)
      ct = DType::Float64;
    else if (ta == DType::Float32 || tb == DType::Float32)
      ct = DType::Float32;
    else if (ta == DType::Float16 || tb == DType::Float16)
      ct = divOrMod ? DType::Float32 : DType::Float16;
    else if (ta == DType::BFloat16 && tb == DType::BFloat16)
      ct = divOrMod ? DType::Float32 : DType::BFloat16;
    else if (ta == DType::BFloat16 || tb == DType::BFloat16)
      ct = DType::Float32;
    else {
      const bool sa = core::isSigned(ta) || ta == DType::Bool, sb = core::isSigned(tb) || tb == DType::Bool;
      if (divOrMod && sa != sb)
        fail(pos, "cannot use /, // or % between " + std::string(core::tritonName(ta)) + " and " +
                      std::string(core::tritonName(tb)) + ": they differ in signedness");
      ct = integerPromote(ta, tb);
    }
  }
  auto negativeScalar = [](const SemaValue &v) {
    return (v.kind == SemaValue::Kind::Int && v.intValue < 0) || (v.kind == SemaValue::Kind::Float && v.floatValue < 0);
  };
  if (core::isInteger(ct) && !core::isSigned(ct) && ct != DType::Bool &&
      ((aScalar && negativeScalar(a)) || (bScalar && negativeScalar(b))))
    fail(pos, "cannot combine an unsigned tensor with a negative number");
  ir::Value *va = aScalar ? constant(ct, a, {}, pos) : castTo(a.tensor, ct);
  ir::Value *vb = bScalar ? constant(ct, b, {}, pos) : castTo(b.tensor, ct);
  const ir::Shape shape = broadcastShapes(va->type.shape, vb->type.shape, pos);
  return {broadcastTo(va, shape, pos), broadcastTo(vb, shape, pos)};
}

SemaValue Lowerer::binary(ast::BinaryOperator op, const SemaValue &a, const SemaValue &b, ast::Position pos) {
  using Op = ast::BinaryOperator;
  const bool aPtr = a.isTensor() && a.tensor->type.isPointer, bPtr = b.isTensor() && b.tensor->type.isPointer;
  if (aPtr || bPtr) {
    if (aPtr && bPtr)
      fail(pos, std::string("operator '") + ast::spelling(op) + "' between two pointers is not supported");
    const SemaValue &ptr = aPtr ? a : b, &offset = aPtr ? b : a;
    if (!(op == Op::Add || (op == Op::Sub && aPtr)))
      fail(pos, std::string("operator '") + ast::spelling(op) + "' is not defined for pointers");
    ir::Value *off = toTensor(offset, pos);
    if (!off->type.isIntegerOrBool() || off->type.isBool())
      fail(pos, "a pointer offset must be an integer, got " + offset.describe());
    if (op == Op::Sub)
      off = builder_->binary(ir::OpCode::Sub, builder_->constantInt(off->type.dtype, 0, off->type.shape), off);
    const ir::Shape shape = broadcastShapes(ptr.tensor->type.shape, off->type.shape, pos);
    return SemaValue::ofTensor(builder_->binary(ir::OpCode::AddPtr, broadcastTo(ptr.tensor, shape, pos),
                                                broadcastTo(off, shape, pos)));
  }
  if (!a.isTensor() && !a.isNumber())
    fail(pos, std::string("unsupported operand for '") + ast::spelling(op) + "': " + a.describe());
  if (!b.isTensor() && !b.isNumber())
    fail(pos, std::string("unsupported operand for '") + ast::spelling(op) + "': " + b.describe());
  switch (op) {
  case Op::Add:
  case Op::Sub:
  case Op::Mul: {
    auto [x, y] = promote(a, b, false, pos);
    const ir::OpCode code = op == Op::Add ? ir::OpCode::Add : op == Op::Sub ? ir::OpCode::Sub : ir::OpCode::Mul;
    return SemaValue::ofTensor(builder_->binary(code, x, y));
  }
  case Op::Div: {
    auto [x, y] = promote(a, b, true, pos);
    if (!x->type.isFloat()) { // int / int is a float division in fp32
      x = castTo(x, DType::Float32);
      y = castTo(y, DType::Float32);
    }
    return SemaValue::ofTensor(builder_->binary(ir::OpCode::Div, x, y));
  }
  case Op::FloorDiv:
  case Op::Mod: {
    auto [x, y] = promote(a, b, true, pos);
    if (op == Op::FloorDiv && x->type.isFloat())
      fail(pos, "'//' needs integer operands, got " + x->type.str() + "; use libdevice.floor(a / b)");
    return SemaValue::ofTensor(builder_->binary(op == Op::FloorDiv ? ir::OpCode::Div : ir::OpCode::Rem, x, y));
  }
  case Op::BitAnd:
  case Op::BitOr:
  case Op::BitXor:
  case Op::LShift:
  case Op::RShift: {
    ir::Value *x = toTensor(a, pos), *y = toTensor(b, pos);
    if (!x->type.isIntegerOrBool() || !y->type.isIntegerOrBool())
      fail(pos, std::string("operator '") + ast::spelling(op) + "' needs integer operands, got " + x->type.str() +
                    " and " + y->type.str());
    const DType ct = integerPromote(x->type.dtype, y->type.dtype);
    x = castTo(x, ct);
    y = castTo(y, ct);
    const ir::Shape shape = broadcastShapes(x->type.shape, y->type.shape, pos);
    x = broadcastTo(x, shape, pos);
    y = broadcastTo(y, shape, pos);
    const ir::OpCode code = op == Op::BitAnd ? ir::OpCode::And
                            : op == Op::BitOr ? ir::OpCode::Or
                            : op == Op::BitXor ? ir::OpCode::Xor
                            : op == Op::LShift ? ir::OpCode::Shl
                                               : ir::OpCode::Shr;
    return SemaValue::ofTensor(builder_->binary(code, x, y));
  }
  case Op::Pow: fail(pos, "'**' is only supported on compile-time values; use libdevice.pow");
  case Op::MatMul: fail(pos, "'@' is not supported; use tl.dot");
  }
  fail(pos, "unsupported operator");
}

SemaValue Lowerer::compare(ast::CompareOperator op, const SemaValue &a, const SemaValue &b, ast::Position pos) {
  using C = ast::CompareOperator;
  if (op == C::Is || op == C::IsNot || op == C::In || op == C::NotIn)
    fail(pos, std::string("'") + ast::spelling(op) + "' is only supported on compile-time values");
  auto [x, y] = promote(a, b, false, pos);
  if (x->type.isPointer)
    fail(pos, "comparing pointers is not supported");
  const ir::CmpPredicate p = op == C::Eq ? ir::CmpPredicate::Eq
                             : op == C::NotEq ? ir::CmpPredicate::Ne
                             : op == C::Lt ? ir::CmpPredicate::Lt
                             : op == C::LtE ? ir::CmpPredicate::Le
                             : op == C::Gt ? ir::CmpPredicate::Gt
                                           : ir::CmpPredicate::Ge;
  return SemaValue::ofTensor(builder_->cmp(p, x, y));
}

SemaValue Lowerer::unary(ast::UnaryOperator op, const SemaValue &x, ast::Position pos) {
  if (!x.isTensor())
    fail(pos, std::string("bad operand for unary '") + ast::spelling(op) + "': " + x.describe());
  ir::Value *v = x.tensor;
  if (v->type.isPointer)
    fail(pos, std::string("unary '") + ast::spelling(op) + "' is not defined for pointers");
  switch (op) {
  case ast::UnaryOperator::Pos: return x;
  case ast::UnaryOperator::Neg: // Triton computes 0 - x
    return SemaValue::ofTensor(builder_->binary(ir::OpCode::Sub, constant(v->type.dtype, SemaValue::ofInt(0), v->type.shape, pos), v));
  case ast::UnaryOperator::Invert:
    if (!v->type.isIntegerOrBool())
      fail(pos, "'~' needs an integer operand, got " + v->type.str());
    return SemaValue::ofTensor(builder_->unary(ir::OpCode::Not, v));
  case ast::UnaryOperator::Not:
    return SemaValue::ofTensor(builder_->unary(ir::OpCode::Not, toBool(v)));
  }
  fail(pos, "unsupported unary operator");
}

SemaValue Lowerer::logical(ast::BoolOperator op, const SemaValue &a, const SemaValue &b, ast::Position pos) {
  ir::Value *x = toBool(toTensor(a, pos)), *y = toBool(toTensor(b, pos));
  const ir::Shape shape = broadcastShapes(x->type.shape, y->type.shape, pos);
  x = broadcastTo(x, shape, pos);
  y = broadcastTo(y, shape, pos);
  return SemaValue::ofTensor(builder_->binary(op == ast::BoolOperator::And ? ir::OpCode::And : ir::OpCode::Or, x, y));
}

ir::Value *Lowerer::select(const SemaValue &cond, const SemaValue &a, const SemaValue &b, ast::Position pos) {
  ir::Value *c = toBool(toTensor(cond, pos));
  auto [x, y] = promote(a, b, false, pos);
  const ir::Shape shape = broadcastShapes(c->type.shape, x->type.shape, pos);
  return builder_->select(broadcastTo(c, shape, pos), broadcastTo(x, shape, pos), broadcastTo(y, shape, pos));
}

} // namespace npusim::triton::lowering
