// aten.randint.low_out(low, high, size) -> out: integers in [low, high).
// No GPU generator is reproduced: a bundle records what its capture drew (the
// call's `values`, which every run mode writes instead of calling this), so
// this host call only serves calls without recorded values (torch.compile's
// npusim backend). Element i is low + SplitMix64(key + i) mod (high - low),
// the key SplitMix64 of low and high, the sums modulo 2^64 as the input
// generator's randint (docs/bundle-format.md, "Inputs"): the same call draws
// the same numbers on every run.
#include "core/random.h"
#include "reference/host_calls_internal.h"

namespace npusim::reference::host {

std::vector<bool> callRandint(const CallArgs &c) {
  const int64_t low = c.integer(0, "low"), high = c.integer(1, "high");
  if (low >= high)
    c.fail(1, "high", "must be larger than low (" + std::to_string(low) + " >= " + std::to_string(high) + ")");
  const TensorView &out = c.out(0);
  checkView(out, std::string(c.op()) + ": out");
  expectShape(out, c.integers(2, "size"), c.op(), "out");
  if (core::isFloat(out.dtype()) || out.dtype() == core::DType::Bool)
    c.fail(0, "out", "must be an integer tensor");
  const uint64_t range = static_cast<uint64_t>(high) - static_cast<uint64_t>(low);
  const uint64_t key = core::splitmix64(static_cast<uint64_t>(low) ^ core::splitmix64(static_cast<uint64_t>(high)));
  std::vector<int64_t> values(static_cast<size_t>(out.numel()));
  for (size_t i = 0; i < values.size(); ++i)
    values[i] = static_cast<int64_t>(static_cast<uint64_t>(low) + core::splitmix64(key + i) % range);
  writeIntegers(out, values);
  return {true};
}

} // namespace npusim::reference::host
