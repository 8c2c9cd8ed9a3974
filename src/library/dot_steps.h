#pragma once
// The K loop of the GEMM-shaped kernels (internal): `steps` K blocks per
// iteration, each with its own operands and its own fp32 accumulator. All
// loads of an iteration come before its dots, so the compiler's in-order DMA
// queue fetches block s + 1 while the arrays multiply block s, and the dots,
// writing different accumulators, go to different systolic arrays.
#include <string>
#include <string_view>

namespace npusim::library::detail {

struct DotSteps {
  std::string init;  // the accumulators, before the loop (4 spaces of indent)
  std::string loads; // the operands of every step, in the loop body
  std::string dots;  // acc{S} += tl.dot(a{S}, b{S}) per step, in the loop body
  std::string sum;   // `acc = ...` after the loop
};

/// `stepSource` is one step's operand code with {{S}} (the step's suffix) and
/// {{OFFSET}} (its index in the iteration) and the keys of `casts` ({{X_CAST}}
/// and the like, replaced by the same text); it must define `{a}{S}` and
/// `{b}{S}`, the dot's operands.
DotSteps dotSteps(std::string_view stepSource, int steps, std::string_view a, std::string_view b,
                  std::string_view aCastKey, std::string_view bCastKey, const std::string &cast);

} // namespace npusim::library::detail
