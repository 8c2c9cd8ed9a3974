#pragma once
// Conversions between fp32 and the 16-bit float formats, round to nearest even,
// as GPUs convert (NaN stays NaN, overflow goes to infinity).
#include <cstdint>

namespace npusim::core {

float halfToFloat(uint16_t bits);
uint16_t floatToHalf(float value);
float bfloat16ToFloat(uint16_t bits);
uint16_t floatToBFloat16(float value);

/// Round a double to fp16 / bf16 once (nearest, ties to even), without the
/// double rounding that a double -> float -> half chain can do.
uint16_t doubleToHalf(double value);
uint16_t doubleToBFloat16(double value);

/// Round a value to the nearest fp16 / bf16 and return it widened again.
inline float roundToHalf(float v) { return halfToFloat(floatToHalf(v)); }
inline float roundToBFloat16(float v) { return bfloat16ToFloat(floatToBFloat16(v)); }

} // namespace npusim::core
