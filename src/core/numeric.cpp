#include "core/numeric.h"

#include <bit>
#include <cmath>
#include <numbers>

namespace npusim::core {

int64_t wrapIntTo(DType d, uint64_t x) {
  int64_t r = 0;
  visitInt(d, [&](auto tag) { r = wrapInt<decltype(tag)::value>(x); });
  return r;
}

double roundFloatTo(DType d, double x) {
  double r = 0.0;
  visitFloat(d, [&](auto tag) { r = roundFloat<decltype(tag)::value>(x); });
  return r;
}

double intToDoubleRoundOdd(int64_t v, bool isUnsigned) {
  const bool negative = !isUnsigned && v < 0;
  uint64_t magnitude = negative ? uint64_t{0} - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  const int length = 64 - std::countl_zero(magnitude);
  if (length > 53) {
    // Keep 53 significant bits and fold the dropped ones into a sticky last bit.
    const int shift = length - 53;
    const uint64_t dropped = magnitude & ((uint64_t{1} << shift) - 1);
    uint64_t kept = magnitude >> shift;
    if (dropped != 0)
      kept |= 1u;
    const double d = std::ldexp(static_cast<double>(kept), shift);
    return negative ? -d : d;
  }
  const double d = static_cast<double>(magnitude);
  return negative ? -d : d;
}

double intToFloat(int64_t v, DType from, DType to) {
  const bool isUnsigned = isUnsignedType(from);
  switch (to) {
  case DType::Float64:
    return isUnsigned ? static_cast<double>(static_cast<uint64_t>(v)) : static_cast<double>(v);
  case DType::Float32:
    return isUnsigned ? static_cast<double>(static_cast<float>(static_cast<uint64_t>(v)))
                      : static_cast<double>(static_cast<float>(v));
  case DType::Float16: return roundHalf(intToDoubleRoundOdd(v, isUnsigned));
  case DType::BFloat16: return roundBFloat16(intToDoubleRoundOdd(v, isUnsigned));
  default: throw ElementFault("internal: intToFloat to a non-float type");
  }
}

uint64_t toBits(DType d, double f, int64_t i) {
  switch (d) {
  case DType::Float16: return floatToHalf(static_cast<float>(f));
  case DType::BFloat16: return floatToBFloat16(static_cast<float>(f));
  case DType::Float32: return std::bit_cast<uint32_t>(static_cast<float>(f));
  case DType::Float64: return std::bit_cast<uint64_t>(f);
  default: {
    const int w = bitsOf(d);
    const uint64_t u = static_cast<uint64_t>(i);
    return w == 64 ? u : (u & ((uint64_t{1} << w) - 1));
  }
  }
}

void fromBits(DType d, uint64_t bits, double &f, int64_t &i) {
  switch (d) {
  case DType::Float16: f = halfToFloat(static_cast<uint16_t>(bits)); return;
  case DType::BFloat16: f = bfloat16ToFloat(static_cast<uint16_t>(bits)); return;
  case DType::Float32: f = std::bit_cast<float>(static_cast<uint32_t>(bits)); return;
  case DType::Float64: f = std::bit_cast<double>(bits); return;
  default: i = wrapIntTo(d, bits); return;
  }
}

double erfinv(double x) {
  if (x != x || x < -1.0 || x > 1.0)
    return std::numeric_limits<double>::quiet_NaN();
  if (x == 1.0)
    return std::numeric_limits<double>::infinity();
  if (x == -1.0)
    return -std::numeric_limits<double>::infinity();
  if (x == 0.0)
    return x; // keeps the sign of zero
  // M. Giles, "Approximating the erfinv function" (GPU Gems), single precision
  // version, as the starting point.
  double w = -std::log((1.0 - x) * (1.0 + x));
  double p;
  if (w < 5.0) {
    w -= 2.5;
    p = 2.81022636e-08;
    p = 3.43273939e-07 + p * w;
    p = -3.5233877e-06 + p * w;
    p = -4.39150654e-06 + p * w;
    p = 0.00021858087 + p * w;
    p = -0.00125372503 + p * w;
    p = -0.00417768164 + p * w;
    p = 0.246640727 + p * w;
    p = 1.50140941 + p * w;
  } else {
    w = std::sqrt(w) - 3.0;
    p = -0.000200214257;
    p = 0.000100950558 + p * w;
    p = 0.00134934322 + p * w;
    p = -0.00367342844 + p * w;
    p = 0.00573950773 + p * w;
    p = -0.0076224613 + p * w;
    p = 0.00943887047 + p * w;
    p = 1.00167406 + p * w;
    p = 2.83297682 + p * w;
  }
  double r = p * x;
  // Newton steps on erf(r) = x. For |x| >= 0.5 the residual is taken from erfc,
  // against 1 - |x| (exact there), which keeps precision in the tails.
  const double twoOverSqrtPi = 2.0 / std::sqrt(std::numbers::pi);
  const double ax = std::fabs(x);
  const double sign = x < 0 ? -1.0 : 1.0;
  double ar = std::fabs(r);
  for (int step = 0; step < 4; ++step) {
    const double residual = ax >= 0.5 ? (1.0 - ax) - std::erfc(ar) : std::erf(ar) - ax;
    const double slope = twoOverSqrtPi * std::exp(-ar * ar);
    if (slope == 0.0)
      break;
    const double next = ar - residual / slope;
    if (!(next == next) || next == ar)
      break;
    ar = next;
  }
  return sign * ar;
}

namespace {
// Steps a finite value's magnitude by one ulp in a 16-bit format, on the bits.
template <uint64_t (*ToBits)(float), float (*FromBits)(uint16_t)> double step16(double x, double toward) {
  if (x != x || toward != toward)
    return x + toward; // NaN
  if (x == toward)
    return toward;
  uint16_t bits = static_cast<uint16_t>(ToBits(static_cast<float>(x)));
  if (x == 0.0) {
    bits = 1; // smallest subnormal, signed toward the target
    const double tiny = FromBits(bits);
    return toward > 0 ? tiny : -tiny;
  }
  const bool up = toward > x;
  const bool positive = x > 0;
  bits = static_cast<uint16_t>(up == positive ? bits + 1 : bits - 1);
  return FromBits(bits);
}
uint64_t halfBits(float v) {
  return floatToHalf(v);
}
uint64_t bf16Bits(float v) {
  return floatToBFloat16(v);
}
} // namespace

double nextAfterIn(DType d, double x, double toward) {
  switch (d) {
  case DType::Float16: return step16<halfBits, halfToFloat>(x, toward);
  case DType::BFloat16: return step16<bf16Bits, bfloat16ToFloat>(x, toward);
  case DType::Float32: return std::nextafter(static_cast<float>(x), static_cast<float>(toward));
  default: return std::nextafter(x, toward);
  }
}

} // namespace npusim::core
