#include "core/shape.h"

#include <algorithm>
#include <bit>

namespace npusim::core {

std::string shapeString(std::span<const int64_t> shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i)
      s += ", ";
    s += std::to_string(shape[i]);
  }
  return s + "]";
}

int64_t nextPowerOfTwo(int64_t v) {
  return static_cast<int64_t>(std::bit_ceil(static_cast<uint64_t>(std::clamp<int64_t>(v, 1, int64_t{1} << 40))));
}

} // namespace npusim::core
