#include "generator.h"

#include "core/float16.h"
#include "runtime/generator.h"

#include <bit>
#include <cmath>
#include <cstring>

namespace npusim::cli {

static_assert(std::endian::native == std::endian::little,
              "buffers hold little-endian elements, as numpy writes them");

namespace {

/// Bits of precision of a float dtype (significand bits plus the implicit one).
int precisionBits(core::DType dtype) {
  switch (dtype) {
  case core::DType::Float16: return 11;
  case core::DType::BFloat16: return 8;
  case core::DType::Float32: return 24;
  default: return 53;
  }
}

template <typename T> void put(std::vector<uint8_t> &bytes, int64_t index, T value) {
  std::memcpy(bytes.data() + static_cast<size_t>(index) * sizeof(T), &value, sizeof(T));
}

} // namespace

std::vector<uint8_t> generateElements(core::DType dtype, int64_t count, uint64_t seed, uint64_t stream) {
  std::vector<uint8_t> bytes(static_cast<size_t>(count) * static_cast<size_t>(core::byteSize(dtype)));
  // Element i's bits are runtime::generatorBits(seed, stream, i), with the
  // stream's key computed once.
  using runtime::splitmix64;
  const uint64_t streamKey = splitmix64(splitmix64(seed) + stream);
  for (int64_t i = 0; i < count; ++i) {
    const uint64_t h = splitmix64(streamKey + static_cast<uint64_t>(i));
    if (dtype == core::DType::Bool) {
      put<uint8_t>(bytes, i, static_cast<uint8_t>(i % 2));
      continue;
    }
    if (core::isFloat(dtype)) {
      // k / 2^(p-1) - 1 for k in [0, 2^p): exact in a float of p bits of precision.
      const int p = precisionBits(dtype);
      const auto k = static_cast<double>(h >> (64 - p));
      const double value = k * std::ldexp(1.0, 1 - p) - 1.0;
      switch (dtype) {
      case core::DType::Float16: put<uint16_t>(bytes, i, core::floatToHalf(static_cast<float>(value))); break;
      case core::DType::BFloat16:
        put<uint16_t>(bytes, i, core::floatToBFloat16(static_cast<float>(value)));
        break;
      case core::DType::Float32: put<float>(bytes, i, static_cast<float>(value)); break;
      default: put<double>(bytes, i, value); break;
      }
      continue;
    }
    const uint64_t value = h % 100;
    switch (core::byteSize(dtype)) {
    case 1: put<uint8_t>(bytes, i, static_cast<uint8_t>(value)); break;
    case 2: put<uint16_t>(bytes, i, static_cast<uint16_t>(value)); break;
    case 4: put<uint32_t>(bytes, i, static_cast<uint32_t>(value)); break;
    default: put<uint64_t>(bytes, i, value); break;
    }
  }
  return bytes;
}

} // namespace npusim::cli
