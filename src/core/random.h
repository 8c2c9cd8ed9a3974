#pragma once
// SplitMix64 (Steele, Lea and Flood; Vigna's splitmix64.c), the one mixing
// function behind every reproducible stream of numbers in npusim: the inputs
// of bundles (runtime/generator.h, docs/bundle-format.md "Inputs") and the
// Latin-hypercube draws of sweeps (docs/sweeps.md).
#include <cstdint>

namespace npusim::core {

/// The golden-ratio increment of SplitMix64.
constexpr uint64_t kSplitMix64Gamma = 0x9e3779b97f4a7c15ULL;

/// The SplitMix64 finaliser: z += 0x9e3779b97f4a7c15, then two
/// xor-shift-multiply rounds and a final xor-shift, all modulo 2^64.
constexpr uint64_t splitmix64(uint64_t z) {
  z += kSplitMix64Gamma;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/// The SplitMix64 generator seeded with `state`: its k-th value (from 0) is
/// splitmix64(seed + k * 0x9e3779b97f4a7c15), as splitmix64.c's next().
struct SplitMix64Stream {
  uint64_t state = 0;
  uint64_t next() {
    const uint64_t z = state;
    state += kSplitMix64Gamma;
    return splitmix64(z);
  }
};

} // namespace npusim::core
