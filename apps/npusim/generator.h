#pragma once
// The deterministic input generator of `npusim kernel` (docs/cli.md, "Generated
// inputs"): element i of the buffer of parameter number `stream` is a function of
// (seed, stream, i) only, so a buffer's contents do not depend on the others.
#include "core/dtype.h"

#include <cstdint>
#include <vector>

namespace npusim::cli {

/// `count` elements of `dtype` as little-endian bytes, element i made from the
/// bits runtime::generatorBits(seed, stream, i): floats uniform in [-1, 1) on a
/// grid the dtype represents exactly, integers in [0, 100), bools 0, 1, 0, 1, ...
std::vector<uint8_t> generateElements(core::DType dtype, int64_t count, uint64_t seed, uint64_t stream);

} // namespace npusim::cli
