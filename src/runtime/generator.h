#pragma once
// The input generator of bundles (docs/bundle-format.md, "Inputs"): element i
// of an input's storage is a function of (seed, stream, i) only, identical in
// the Python capture tool and here.
#include "core/random.h"
#include "reference/interpreter.h"
#include "runtime/bundle.h"

#include <cstdint>

namespace npusim::runtime {

using core::splitmix64;

/// h(seed, stream, i) = splitmix64(splitmix64(splitmix64(seed) + stream) + i).
uint64_t generatorBits(uint64_t seed, uint64_t stream, uint64_t index);

/// uniform: low + (high - low) * u with u = (h >> 11) * 2^-53, in double
/// (before rounding to the storage's dtype).
double uniformValue(uint64_t h, double low, double high);

/// randint: low + (h mod (high - low)), high > low.
int64_t randintValue(uint64_t h, int64_t low, int64_t high);

/// Fills every element of `storage` as `init` says. Floats are rounded once,
/// to nearest even, from the double; integer dtypes wrap to their width and
/// bools are value != 0.
void fillInput(reference::Buffer &storage, const InputInit &init, uint64_t seed);

} // namespace npusim::runtime
