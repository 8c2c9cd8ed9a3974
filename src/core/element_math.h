#pragma once
// Element operations on arrays of 64-bit slots (core/numeric.h): arithmetic,
// comparisons, casts, bitcasts, math functions and the combining steps of the
// builtin reductions and scans. The reference interpreter runs them on its tile
// slots; the functional NPU simulator widens scratchpad bytes into slots, runs
// the same functions and narrows the results back, so both give bit-identical
// elements. Each function switches on the dtype once, outside its element loop.
#include "core/element_ops.h"
#include "core/numeric.h"

#include <cstdint>

namespace npusim::core {

/// Two-operand arithmetic and logic (TileIR's Add..Max).
enum class BinaryOp : uint8_t { Add, Sub, Mul, Div, Rem, And, Or, Xor, Shl, Shr, Min, Max };
enum class UnaryOp : uint8_t { Neg, Not, Abs };

std::string_view name(BinaryOp op);
std::string_view name(UnaryOp op);

/// Float slots of dtype dt: r = a op b rounded to dt (Min/Max follow nanMode;
/// And..Shr are not defined on floats and throw an ElementFault).
void binaryFloat(BinaryOp op, NanMode nanMode, DType dt, const double *a, const double *b, double *r,
                 int64_t n);
/// Integer slots of dtype dt, wrapped to its width. Division and remainder by
/// zero throw an ElementFault when divisionByZeroFaults, else give all bits set
/// (x / 0) and x (x % 0), as RISC-V does.
void binaryInt(BinaryOp op, DType dt, const int64_t *a, const int64_t *b, int64_t *r, int64_t n,
               bool divisionByZeroFaults);
void unaryFloat(UnaryOp op, DType dt, const double *x, double *r, int64_t n);
void unaryInt(UnaryOp op, DType dt, const int64_t *x, int64_t *r, int64_t n);

/// r[k] = 1 if a[k] p b[k] else 0. Ordered: every predicate but Ne is false on NaN.
void compareFloat(CmpPredicate p, const double *a, const double *b, int64_t *r, int64_t n);
/// Integer slots; isUnsigned compares them as unsigned 64-bit values.
void compareInt(CmpPredicate p, bool isUnsigned, const int64_t *a, const int64_t *b, int64_t *r, int64_t n);

/// Slots of one value array: floats use f, integers and bools use i.
struct ConstSlots {
  const double *f = nullptr;
  const int64_t *i = nullptr;
};
struct Slots {
  double *f = nullptr;
  int64_t *i = nullptr;
};

/// TileIR Cast: float -> float rounds once, float -> int truncates and
/// saturates (NaN gives 0), int -> float rounds once, int -> int wraps, any ->
/// bool is != 0.
void castValues(DType from, DType to, ConstSlots x, Slots r, int64_t n);
/// Reinterprets the bits of dtype `from` as dtype `to` (same width).
void bitcastValues(DType from, DType to, ConstSlots x, Slots r, int64_t n);

/// A math function on float dtype dt: fp32 uses the float C library functions,
/// fp64 the double ones, fp16 and bf16 compute in fp32 and round once. x, y, z
/// are the operands (as many as arity(fn)); producesBool(fn) writes boolOut,
/// the others out.
void mathValues(MathFn fn, DType dt, const double *x, const double *y, const double *z, double *out,
                int64_t *boolOut, int64_t n);

/// The value an atomic read-modify-write stores: old (+) value (TileIR
/// atomic_rmw). Float add rounds to dt, float max/min ignore NaN; integer add
/// wraps, max/min compare by dt's signedness; Exchange stores value.
double atomicFloat(AtomicKind kind, DType dt, double old, double value);
int64_t atomicInt(AtomicKind kind, DType dt, int64_t old, int64_t value);

// ------------------------------------------------------- reduction steps

/// Calls run(step) with step(acc, x) of a builtin reduction kind (Sum, Prod,
/// Max, Min) on float dtype D; each step is rounded to D.
template <DType D, class Run> void floatReduceStep(ReduceKind kind, NanMode nanMode, Run run) {
  const bool propagate = nanMode == NanMode::Propagate;
  switch (kind) {
  case ReduceKind::Sum: run([](double a, double b) { return roundFloat<D>(a + b); }); return;
  case ReduceKind::Prod: run([](double a, double b) { return roundFloat<D>(a * b); }); return;
  case ReduceKind::Max: run([propagate](double a, double b) { return floatMax(a, b, propagate); }); return;
  case ReduceKind::Min: run([propagate](double a, double b) { return floatMin(a, b, propagate); }); return;
  default: throw ElementFault("internal: reduction " + std::string(name(kind)) + " on a float type");
  }
}

/// As floatReduceStep for integer dtype D (Sum, Prod, Max, Min, And, Or, Xor).
template <DType D, class Run> void intReduceStep(ReduceKind kind, Run run) {
  using U = uint64_t;
  switch (kind) {
  case ReduceKind::Sum: run([](int64_t a, int64_t b) { return wrapInt<D>(U(a) + U(b)); }); return;
  case ReduceKind::Prod: run([](int64_t a, int64_t b) { return wrapInt<D>(U(a) * U(b)); }); return;
  case ReduceKind::Max: run([](int64_t a, int64_t b) { return intLess<D>(a, b) ? b : a; }); return;
  case ReduceKind::Min: run([](int64_t a, int64_t b) { return intLess<D>(b, a) ? b : a; }); return;
  case ReduceKind::And: run([](int64_t a, int64_t b) { return a & b; }); return;
  case ReduceKind::Or: run([](int64_t a, int64_t b) { return a | b; }); return;
  case ReduceKind::Xor: run([](int64_t a, int64_t b) { return a ^ b; }); return;
  default: throw ElementFault("internal: reduction " + std::string(name(kind)) + " on an integer type");
  }
}

/// ArgMax/ArgMin: whether candidate (v, i) replaces the accumulator (best, bi):
/// strictly better, or equal with a smaller index. NaN: with Propagate a NaN
/// wins over every number (in both argmax and argmin, as torch.argmax/argmin
/// return the first NaN); with Ignore a NaN loses to every number.
inline bool argFloatBetter(bool isMax, bool propagate, double v, int64_t i, double best, int64_t bi) {
  const bool vNan = v != v, bNan = best != best;
  if (vNan || bNan) {
    if (vNan && bNan)
      return i < bi;
    return propagate ? vNan : bNan;
  }
  if (v == best)
    return i < bi;
  return isMax ? v > best : v < best;
}
template <DType D> bool argIntBetter(bool isMax, int64_t v, int64_t i, int64_t best, int64_t bi) {
  if (v == best)
    return i < bi;
  return isMax ? intLess<D>(best, v) : intLess<D>(v, best);
}

/// Sort order of float keys: strict "a sorts before b" ascending; NaN sorts
/// after every number (a descending sort swaps the operands, so NaN goes first,
/// as torch.sort does).
inline bool floatKeyLess(double a, double b) { return a == a && (b != b || a < b); }

} // namespace npusim::core
