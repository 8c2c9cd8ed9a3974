#pragma once
// Triton's numeric semantics on single values, shared by the reference
// interpreter and the NPU simulators so that both give bit-identical elements.
//
// Values are handled in 64-bit slots: floats as double, integers,
// bools and pointers as int64. After each operation a result is normalized to its
// dtype: fp32 is rounded through float, fp16/bf16 through their 16-bit formats,
// integers are wrapped to their width (signed ones sign-extended, unsigned ones
// zero-extended; u64 keeps its bit pattern), bools are 0 or 1. With that
// invariant, fp16/bf16/fp32 +, -, *, / and sqrt computed in double and then
// rounded are correctly rounded (double has more than 2p+2 bits for each).
#include "core/dtype.h"
#include "core/float16.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

namespace npusim::core {

/// An error inside an element operation (integer division by zero where it
/// faults, an operation undefined on a dtype). Callers add the kernel, the
/// program instance and the source location and rethrow a core::RuntimeError.
class ElementFault : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

template <DType D> struct DTypeTag { static constexpr DType value = D; };

constexpr bool isFloatType(DType d) {
  return d == DType::Float16 || d == DType::BFloat16 || d == DType::Float32 || d == DType::Float64;
}
constexpr bool isUnsignedType(DType d) {
  return d == DType::Bool || d == DType::UInt8 || d == DType::UInt16 || d == DType::UInt32 ||
         d == DType::UInt64;
}
constexpr int bitsOf(DType d) {
  switch (d) {
  case DType::Bool: return 1;
  case DType::Int8:
  case DType::UInt8: return 8;
  case DType::Int16:
  case DType::UInt16:
  case DType::Float16:
  case DType::BFloat16: return 16;
  case DType::Int32:
  case DType::UInt32:
  case DType::Float32: return 32;
  case DType::Int64:
  case DType::UInt64:
  case DType::Float64: return 64;
  }
  return 64;
}

/// Calls fn(DTypeTag<D>{}) for an integer (or bool) dtype D; the switch happens
/// once, outside the caller's element loop.
template <class Fn> void visitInt(DType d, Fn &&fn) {
  switch (d) {
  case DType::Bool: fn(DTypeTag<DType::Bool>{}); return;
  case DType::Int8: fn(DTypeTag<DType::Int8>{}); return;
  case DType::Int16: fn(DTypeTag<DType::Int16>{}); return;
  case DType::Int32: fn(DTypeTag<DType::Int32>{}); return;
  case DType::Int64: fn(DTypeTag<DType::Int64>{}); return;
  case DType::UInt8: fn(DTypeTag<DType::UInt8>{}); return;
  case DType::UInt16: fn(DTypeTag<DType::UInt16>{}); return;
  case DType::UInt32: fn(DTypeTag<DType::UInt32>{}); return;
  case DType::UInt64: fn(DTypeTag<DType::UInt64>{}); return;
  default: throw ElementFault("internal: " + std::string(tritonName(d)) + " is not an integer type");
  }
}

template <class Fn> void visitFloat(DType d, Fn &&fn) {
  switch (d) {
  case DType::Float16: fn(DTypeTag<DType::Float16>{}); return;
  case DType::BFloat16: fn(DTypeTag<DType::BFloat16>{}); return;
  case DType::Float32: fn(DTypeTag<DType::Float32>{}); return;
  case DType::Float64: fn(DTypeTag<DType::Float64>{}); return;
  default: throw ElementFault("internal: " + std::string(tritonName(d)) + " is not a float type");
  }
}

/// Wraps a two's-complement bit pattern to dtype D's width and extends it back to
/// 64 bits (sign extension for signed types, zero extension otherwise).
template <DType D> constexpr int64_t wrapInt(uint64_t x) {
  if constexpr (D == DType::Bool)
    return static_cast<int64_t>(x & 1u);
  else if constexpr (D == DType::Int8)
    return static_cast<int8_t>(x);
  else if constexpr (D == DType::Int16)
    return static_cast<int16_t>(x);
  else if constexpr (D == DType::Int32)
    return static_cast<int32_t>(x);
  else if constexpr (D == DType::UInt8)
    return static_cast<int64_t>(x & 0xFFu);
  else if constexpr (D == DType::UInt16)
    return static_cast<int64_t>(x & 0xFFFFu);
  else if constexpr (D == DType::UInt32)
    return static_cast<int64_t>(x & 0xFFFFFFFFu);
  else
    return static_cast<int64_t>(x);
}

int64_t wrapIntTo(DType d, uint64_t x);

/// Rounds x to fp16 / bf16 once (ties to even) and widens it again.
inline double roundHalf(double x) { return halfToFloat(doubleToHalf(x)); }
inline double roundBFloat16(double x) { return bfloat16ToFloat(doubleToBFloat16(x)); }

/// Rounds x to float dtype D (nearest, ties to even) and widens it again.
template <DType D> inline double roundFloat(double x) {
  if constexpr (D == DType::Float32)
    return static_cast<double>(static_cast<float>(x));
  else if constexpr (D == DType::Float16)
    return roundHalf(x);
  else if constexpr (D == DType::BFloat16)
    return roundBFloat16(x);
  else
    return x;
}

double roundFloatTo(DType d, double x);

/// A float result of float dtype D computed in fp32 (math functions on fp16 and
/// bf16 compute in fp32 and round once, as libdevice does).
template <DType D> inline double fromFloat32(float x) {
  if constexpr (D == DType::Float16)
    return halfToFloat(floatToHalf(x));
  else if constexpr (D == DType::BFloat16)
    return bfloat16ToFloat(floatToBFloat16(x));
  else
    return static_cast<double>(x);
}

/// An integer converted to the nearest double with ties to odd when inexact
/// (|v| > 2^53), so that a later rounding to fp16/bf16 is a single rounding.
double intToDoubleRoundOdd(int64_t v, bool isUnsigned);

/// Integer value (slot of integer dtype `from`) to float dtype `to`, rounded once.
double intToFloat(int64_t v, DType from, DType to);

/// Float value to integer dtype D: truncates toward zero. NaN gives 0 and values
/// outside D's range saturate to its minimum or maximum (what PTX cvt.rzi does);
/// there is no undefined behaviour. Bool is x != 0.
template <DType D> inline int64_t floatToInt(double v) {
  if constexpr (D == DType::Bool) {
    return v != 0.0 ? 1 : 0;
  } else {
    if (v != v)
      return 0;
    const double t = std::trunc(v);
    constexpr int w = bitsOf(D);
    if constexpr (isUnsignedType(D)) {
      if (t <= 0.0)
        return 0;
      if (t >= std::ldexp(1.0, w))
        return wrapInt<D>(~uint64_t{0});
      return wrapInt<D>(static_cast<uint64_t>(t));
    } else {
      const double limit = std::ldexp(1.0, w - 1);
      if (t < -limit)
        return wrapInt<D>(uint64_t{1} << (w - 1));
      if (t >= limit)
        return wrapInt<D>((uint64_t{1} << (w - 1)) - 1);
      return static_cast<int64_t>(t);
    }
  }
}

/// The raw bits of a slot value of dtype d (low bitsOf(d) bits), and back.
uint64_t toBits(DType d, double f, int64_t i);
void fromBits(DType d, uint64_t bits, double &f, int64_t &i);

/// fp32 rounded to tf32 (10 explicit mantissa bits), nearest, ties to even.
inline float roundToTF32(float x) {
  uint32_t b = std::bit_cast<uint32_t>(x);
  if ((b & 0x7F800000u) == 0x7F800000u)
    return x; // inf and NaN unchanged
  b += 0xFFFu + ((b >> 13) & 1u);
  b &= ~0x1FFFu;
  return std::bit_cast<float>(b);
}

/// Min/max of floats. Propagate: NaN if either is NaN. Ignore: the non-NaN
/// operand (fmin/fmax). Equal operands (-0 and +0 included) give b, as
/// Inductor's triton_helpers.maximum/minimum (`where(a > b, a, b)`) do.
inline double floatMin(double a, double b, bool propagate) {
  if (a != a)
    return propagate ? a : b;
  if (b != b)
    return propagate ? b : a;
  return a < b ? a : b;
}
inline double floatMax(double a, double b, bool propagate) {
  if (a != a)
    return propagate ? a : b;
  if (b != b)
    return propagate ? b : a;
  return a > b ? a : b;
}

/// Integer less-than for dtype D (unsigned dtypes compare unsigned).
template <DType D> constexpr bool intLess(int64_t a, int64_t b) {
  if constexpr (isUnsignedType(D))
    return static_cast<uint64_t>(a) < static_cast<uint64_t>(b);
  else
    return a < b;
}

/// Inverse error function in double: Giles' approximation refined by Newton steps.
double erfinv(double x);

/// nextafter in the format of float dtype d (fp16/bf16 step their own ulps).
double nextAfterIn(DType d, double x, double toward);

} // namespace npusim::core
