#pragma once
// The element-level operations shared by TileIR and the NPU instruction set:
// comparison predicates, NaN handling, reduction and atomic kinds, dot input
// precisions and the math functions. Both the reference interpreter and the NPU
// simulators give them one meaning (docs/tileir.md, docs/npu.md).
#include <cstdint>
#include <optional>
#include <string_view>

namespace npusim::core {

enum class CmpPredicate : uint8_t { Eq, Ne, Lt, Le, Gt, Ge };

/// How Min/Max/reductions treat NaN: Ignore returns the other operand (maxnum),
/// Propagate returns NaN if either operand is NaN.
enum class NanMode : uint8_t { Ignore, Propagate };

enum class ReduceKind : uint8_t { Sum, Prod, Max, Min, And, Or, Xor, ArgMax, ArgMin, Combine };

/// Whether a reduction of this kind carries a NanMode (the comparing ones).
constexpr bool usesNanMode(ReduceKind k) {
  return k == ReduceKind::Max || k == ReduceKind::Min || k == ReduceKind::ArgMax || k == ReduceKind::ArgMin;
}

enum class AtomicKind : uint8_t { Add, Max, Min, And, Or, Xor, Exchange };

enum class InputPrecision : uint8_t { IEEE, TF32, TF32x3 };

enum class MathFn : uint8_t {
  // one operand
  Exp, Exp2, Log, Log2, Log10, Log1p, Expm1, Sqrt, Rsqrt, Sin, Cos, Tan, Asin, Acos, Atan,
  Sinh, Cosh, Tanh, Asinh, Acosh, Atanh, Erf, Erfc, Erfinv, Lgamma, Floor, Ceil, Trunc,
  Round,    // nearest, ties to even (rint)
  RoundAway, // nearest, ties away from zero (C round)
  Recip, Cbrt,
  IsNan, IsInf, IsFinite, Signbit, // produce i1
  // two operands
  Pow, Atan2, Fmod, Hypot, Copysign, NextAfter,
  // three operands
  Fma,
};

std::string_view name(CmpPredicate p);
std::string_view name(NanMode m);
std::string_view name(ReduceKind k);
std::string_view name(AtomicKind k);
std::string_view name(InputPrecision p);
std::string_view name(MathFn f);
/// Number of operands a math function takes.
int arity(MathFn f);
/// True for IsNan, IsInf, IsFinite, Signbit (result i1).
bool producesBool(MathFn f);
std::optional<MathFn> parseMathFn(std::string_view name);

} // namespace npusim::core
