#include "core/float16.h"

#include <bit>
#include <cmath>
#include <limits>

namespace npusim::core {

float halfToFloat(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t exponent = (h >> 10) & 0x1Fu;
  uint32_t mantissa = h & 0x3FFu;
  uint32_t bits;
  if (exponent == 0x1F) {
    bits = sign | 0x7F800000u | (mantissa << 13);
  } else if (exponent != 0) {
    bits = sign | ((exponent + 112) << 23) | (mantissa << 13);
  } else if (mantissa == 0) {
    bits = sign;
  } else {
    // Subnormal half: value = mantissa * 2^-24, exactly representable in fp32.
    const float magnitude = std::ldexp(static_cast<float>(mantissa), -24);
    return sign ? -magnitude : magnitude;
  }
  return std::bit_cast<float>(bits);
}

uint16_t floatToHalf(float value) {
  const uint32_t bits = std::bit_cast<uint32_t>(value);
  const uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
  const uint32_t absBits = bits & 0x7FFFFFFFu;
  if (absBits > 0x7F800000u) // NaN: keep it quiet
    return static_cast<uint16_t>(sign | 0x7E00u | ((absBits >> 13) & 0x3FFu));
  if (absBits >= 0x477FF000u) // rounds to >= 65520: infinity
    return static_cast<uint16_t>(sign | 0x7C00u);
  if (absBits < 0x38800000u) { // below the smallest normal half (2^-14)
    // Scale so that one half subnormal ulp (2^-24) is one integer unit; the
    // conversion to int rounds to nearest even via nearbyint.
    const float scaled = std::bit_cast<float>(absBits) * 16777216.0f; // 2^24
    const auto units = static_cast<uint16_t>(std::nearbyint(scaled));
    return static_cast<uint16_t>(sign | units);
  }
  // Normal: rebias the exponent and round the 13 dropped mantissa bits to even.
  const uint32_t rebiased = absBits - (112u << 23);
  const uint32_t lsb = (rebiased >> 13) & 1u;
  const uint32_t rounded = (rebiased + 0xFFFu + lsb) >> 13;
  return static_cast<uint16_t>(sign | rounded);
}

float bfloat16ToFloat(uint16_t bits) {
  return std::bit_cast<float>(static_cast<uint32_t>(bits) << 16);
}

uint16_t floatToBFloat16(float value) {
  const uint32_t bits = std::bit_cast<uint32_t>(value);
  if ((bits & 0x7FFFFFFFu) > 0x7F800000u)
    return static_cast<uint16_t>((bits >> 16) | 0x0040u);
  const uint32_t lsb = (bits >> 16) & 1u;
  return static_cast<uint16_t>((bits + 0x7FFFu + lsb) >> 16);
}

namespace {

/// Rounds a double to float with round-to-odd: an inexact result gets its last
/// bit set. With 24 bits of float precision, rounding that to the 11 bits of
/// fp16 or the 8 of bf16 (ties to even) equals rounding the double directly.
float roundToOddFloat(double x) {
  float f = static_cast<float>(x);
  const double back = static_cast<double>(f);
  if (back != x && x == x && (std::bit_cast<uint32_t>(f) & 1u) == 0)
    f = std::nextafter(f, x > back ? std::numeric_limits<float>::infinity()
                                   : -std::numeric_limits<float>::infinity());
  return f;
}

} // namespace

uint16_t doubleToHalf(double value) { return floatToHalf(roundToOddFloat(value)); }
uint16_t doubleToBFloat16(double value) { return floatToBFloat16(roundToOddFloat(value)); }

} // namespace npusim::core
