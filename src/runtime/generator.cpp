#include "runtime/generator.h"

#include "reference/host_calls.h"

#include <cmath>
#include <cstring>

namespace npusim::runtime {

uint64_t generatorBits(uint64_t seed, uint64_t stream, uint64_t index) {
  return splitmix64(splitmix64(splitmix64(seed) + stream) + index);
}

double uniformValue(uint64_t h, double low, double high) {
  // Exact: h >> 11 has 53 bits, and scaling by a power of two rounds nothing
  // (what ldexp gives, without its call).
  const double u = static_cast<double>(h >> 11) * 0x1p-53;
  return low + (high - low) * u;
}

int64_t randintValue(uint64_t h, int64_t low, int64_t high) {
  // high - low and the sum are computed modulo 2^64: exact for every int64 pair.
  const uint64_t range = static_cast<uint64_t>(high) - static_cast<uint64_t>(low);
  return static_cast<int64_t>(static_cast<uint64_t>(low) + h % range);
}

void fillInput(reference::Buffer &storage, const InputInit &init, uint64_t seed) {
  const int64_t n = storage.numElements();
  const uint64_t key = splitmix64(splitmix64(seed) + init.stream);
  switch (init.kind) {
  case InitKind::Uniform:
    // fp32, the common case: the same conversion as storeElement's, without
    // its dispatch per element.
    if (storage.dtype == core::DType::Float32 &&
        storage.bytes.size() >= static_cast<size_t>(n) * sizeof(float)) {
      uint8_t *out = storage.bytes.data();
      for (int64_t i = 0; i < n; ++i) {
        const auto v =
            static_cast<float>(uniformValue(splitmix64(key + static_cast<uint64_t>(i)), init.low, init.high));
        std::memcpy(out + static_cast<size_t>(i) * sizeof(float), &v, sizeof v);
      }
      return;
    }
    for (int64_t i = 0; i < n; ++i)
      reference::storeElement(storage, i,
                              uniformValue(splitmix64(key + static_cast<uint64_t>(i)), init.low, init.high));
    return;
  case InitKind::Randint:
    for (int64_t i = 0; i < n; ++i)
      reference::storeIntegerElement(
          storage, i, randintValue(splitmix64(key + static_cast<uint64_t>(i)), init.intLow, init.intHigh));
    return;
  case InitKind::Constant:
    for (int64_t i = 0; i < n; ++i) {
      if (init.integerValue)
        reference::storeIntegerElement(storage, i, *init.integerValue);
      else
        reference::storeElement(storage, i, init.value);
    }
    return;
  }
}

} // namespace npusim::runtime
