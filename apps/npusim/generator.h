#pragma once
// The deterministic input generator of `npusim kernel` (docs/cli.md, "Generated
// inputs"): element i of the buffer of parameter number `stream` is a function of
// (seed, stream, i) only, so a buffer's contents do not depend on the others.
#include "core/dtype.h"

#include <cstdint>
#include <vector>

namespace npusim::cli {

/// The SplitMix64 finaliser (Steele, Lea, Flood 2014), as in java.util.SplittableRandom.
uint64_t splitmix64(uint64_t z);

/// The 64 random bits of element `index`:
/// splitmix64(splitmix64(splitmix64(seed) + stream) + index), sums modulo 2^64.
uint64_t generatorBits(uint64_t seed, uint64_t stream, uint64_t index);

/// `count` elements of `dtype` as little-endian bytes: floats uniform in [-1, 1)
/// on a grid the dtype represents exactly, integers in [0, 100), bools 0, 1, 0, 1, ...
std::vector<uint8_t> generateElements(core::DType dtype, int64_t count, uint64_t seed, uint64_t stream);

} // namespace npusim::cli
