#pragma once
// Shapes of tensors and tiles as lists of dimensions, and how messages print them.
#include <cstdint>
#include <span>
#include <string>

namespace npusim::core {

/// "[64, 128]"; "[]" for a scalar.
std::string shapeString(std::span<const int64_t> shape);

/// The smallest power of two >= v, within [1, 2^40] (block sizes and tile
/// extents; the bound keeps absurd sizes from overflowing).
int64_t nextPowerOfTwo(int64_t v);

} // namespace npusim::core
