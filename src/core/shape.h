#pragma once
// Shapes of tensors and tiles as lists of dimensions, and how messages print them.
#include <cstdint>
#include <span>
#include <string>

namespace npusim::core {

/// "[64, 128]"; "[]" for a scalar.
std::string shapeString(std::span<const int64_t> shape);

} // namespace npusim::core
