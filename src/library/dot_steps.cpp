// The unrolled K loop of the GEMM-shaped kernels (dot_steps.h).
#include "library/dot_steps.h"

#include "library/plan_support.h"

namespace npusim::library::detail {

DotSteps dotSteps(std::string_view stepSource, int steps, std::string_view a, std::string_view b,
                  std::string_view aCastKey, std::string_view bCastKey, const std::string &cast) {
  DotSteps out;
  std::string terms;
  for (int i = 0; i < steps; ++i) {
    const std::string suffix = "_" + std::to_string(i);
    out.init += "    acc" + suffix + " = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)\n";
    out.loads += instantiate(
        stepSource, {{"S", suffix}, {"OFFSET", std::to_string(i)}, {aCastKey, cast}, {bCastKey, cast}});
    out.dots += "        acc" + suffix + " += tl.dot(" + std::string(a) + suffix + ", " + std::string(b) +
                suffix + ", allow_tf32=False, out_dtype=tl.float32)\n";
    terms += (i ? " + acc" : "acc") + suffix;
  }
  out.sum = "    acc = " + terms + "\n";
  return out;
}

} // namespace npusim::library::detail
