// Elementwise operations: constants, arithmetic, comparisons, select, casts.
#include "reference/kernels.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace npusim::reference {
namespace {

using ir::OpCode;

core::BinaryOp binaryOf(OpCode code) {
  switch (code) {
  case OpCode::Add: return core::BinaryOp::Add;
  case OpCode::Sub: return core::BinaryOp::Sub;
  case OpCode::Mul: return core::BinaryOp::Mul;
  case OpCode::Div: return core::BinaryOp::Div;
  case OpCode::Rem: return core::BinaryOp::Rem;
  case OpCode::And: return core::BinaryOp::And;
  case OpCode::Or: return core::BinaryOp::Or;
  case OpCode::Xor: return core::BinaryOp::Xor;
  case OpCode::Shl: return core::BinaryOp::Shl;
  case OpCode::Shr: return core::BinaryOp::Shr;
  case OpCode::Min: return core::BinaryOp::Min;
  case OpCode::Max: return core::BinaryOp::Max;
  default: throw Fault("internal: " + std::string(ir::name(code)) + " is not a binary operation");
  }
}

core::UnaryOp unaryOf(OpCode code) {
  switch (code) {
  case OpCode::Neg: return core::UnaryOp::Neg;
  case OpCode::Not: return core::UnaryOp::Not;
  case OpCode::Abs: return core::UnaryOp::Abs;
  default: throw Fault("internal: " + std::string(ir::name(code)) + " is not a unary operation");
  }
}

core::ConstSlots slotsOf(const Tile &t) { return {t.f(), t.i()}; }
core::Slots slotsOf(Tile &t) { return {t.f(), t.i()}; }

} // namespace

void fillConstant(const ir::Type &type, const ir::ConstantValue &value, Tile &r, int64_t n) {
  if (storageOf(type) == Storage::Float) {
    const double v = roundFloatTo(type.dtype, value.floatValue);
    double *out = r.f();
    for (int64_t k = 0; k < n; ++k)
      out[k] = v;
    return;
  }
  int64_t v = value.intValue;
  if (!type.isPointer)
    v = type.dtype == DType::Bool ? (v != 0 ? 1 : 0) : wrapIntTo(type.dtype, static_cast<uint64_t>(v));
  int64_t *out = r.i();
  for (int64_t k = 0; k < n; ++k)
    out[k] = v;
}

void binaryOp(OpCode code, ir::NanMode nanMode, DType dt, const Tile &a, const Tile &b, Tile &r, int64_t n,
              bool divisionByZeroFaults) {
  if (isFloatType(dt))
    core::binaryFloat(binaryOf(code), nanMode, dt, a.f(), b.f(), r.f(), n);
  else
    core::binaryInt(binaryOf(code), dt, a.i(), b.i(), r.i(), n, divisionByZeroFaults);
}

void unaryOp(OpCode code, DType dt, const Tile &a, Tile &r, int64_t n) {
  if (isFloatType(dt))
    core::unaryFloat(unaryOf(code), dt, a.f(), r.f(), n);
  else
    core::unaryInt(unaryOf(code), dt, a.i(), r.i(), n);
}

void compareOp(ir::CmpPredicate p, const ir::Type &t, const Tile &a, const Tile &b, Tile &r, int64_t n) {
  if (storageOf(t) == Storage::Float)
    core::compareFloat(p, a.f(), b.f(), r.i(), n);
  else // pointers compare their encodings, signed
    core::compareInt(p, !t.isPointer && isUnsignedType(t.dtype), a.i(), b.i(), r.i(), n);
}

void selectOp(const Tile &cond, const Tile &a, const Tile &b, Tile &r, int64_t n) {
  const int64_t *c = cond.i();
  if (r.storage() == Storage::Float) {
    const double *x = a.f(), *y = b.f();
    double *out = r.f();
    for (int64_t k = 0; k < n; ++k)
      out[k] = c[k] ? x[k] : y[k];
  } else {
    const int64_t *x = a.i(), *y = b.i();
    int64_t *out = r.i();
    for (int64_t k = 0; k < n; ++k)
      out[k] = c[k] ? x[k] : y[k];
  }
}

void castOp(DType from, DType to, const Tile &a, Tile &r, int64_t n) {
  core::castValues(from, to, slotsOf(a), slotsOf(r), n);
}

void bitcastOp(const ir::Type &from, const ir::Type &to, const Tile &a, Tile &r, int64_t n) {
  if (storageOf(from) == Storage::Int && storageOf(to) == Storage::Int &&
      (from.isPointer || to.isPointer || bitsOf(from.dtype) == 64)) {
    // pointer <-> pointer / int64 / uint64: the encoding is the value.
    std::copy(a.i(), a.i() + n, r.i());
    return;
  }
  core::bitcastValues(from.dtype, to.dtype, slotsOf(a), slotsOf(r), n);
}

} // namespace npusim::reference
