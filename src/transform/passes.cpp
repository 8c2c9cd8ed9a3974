// The TileIR passes in the order the compiler runs them: a new pass is one
// file plus one row here (docs/compiler.md, "TileIR passes").
//
// Order matters (docs/compiler.md, "Stages"): `shrink-dead-lanes` first, so
// that every later pass and the block-size estimate see the cut shapes;
// `skip-dead-instances` after `unwrap-rem` and before `unroll-dots`;
// `outer-product-dots` and `early-loads` after `unroll-dots`; `layout` after
// the passes that copy or rebuild ops and before `cse`, so that lane axes are
// chosen on the function as the front end made it; `cse` leaves to the
// lowering only the equal ops that TileIR cannot show
// (Lowering::reuseEqualOp). Hoisting is dropped on overflow: it keeps the
// invariants' tiles live through the loop, and computing them in every
// iteration may fit where that does not.
#include "transform/transform.h"

namespace npusim::transform {

namespace {

constexpr bool kDroppedOnOverflow = true;

} // namespace

const std::vector<Pass> &passes() {
  static const std::vector<Pass> kPasses = {
      {"shrink-dead-lanes",
       "cuts tile axes to the elements that stores and dots can observe, from the ranges of ids and masks",
       [](ir::Function &function, const config::HardwareConfig &) { shrinkDeadLanes(function); }},
      {"recombine-divisions",
       "replaces `c * (a % n) + c * n * (a / n)` in integer sums by `c * a`, the digits of a flat index summed back",
       [](ir::Function &function, const config::HardwareConfig &) { recombineDivisions(function); }},
      {"widen-index-casts",
       "rebuilds in i64, from casts of its leaves, an i32 -> i64 cast of index arithmetic that never wraps in i32",
       [](ir::Function &function, const config::HardwareConfig &) { widenIndexCasts(function); }},
      {"unwrap-rem",
       "versions the body on a run-time test that `(s + arange) % C` does not wrap, the copy without the `%`",
       [](ir::Function &function, const config::HardwareConfig &) { unwrapRemainders(function); },
       kDroppedOnOverflow},
      {"skip-dead-instances", "runs the body only in instances where the stores' masks may hold somewhere",
       [](ir::Function &function, const config::HardwareConfig &) { skipDeadInstances(function); }},
      {"fold-proven-masks",
       "replaces masks and comparisons that value ranges prove by their constant, dropping true masks",
       [](ir::Function &function, const config::HardwareConfig &) { foldProvenMasks(function); }},
      {"sink-broadcasts",
       "in loops, moves expand_dims and broadcasts through elementwise ops onto loop-invariant values",
       sinkBroadcasts, kDroppedOnOverflow},
      {"unroll-dots", "runs four iterations per body of a loop whose dot is narrower than the systolic array",
       unrollDotLoops, kDroppedOnOverflow},
      {"double-buffer-loops",
       "runs two copies per iteration of a loop that loads without dots, each copy's tiles its own",
       [](ir::Function &function, const config::HardwareConfig &) { doubleBufferLoops(function); },
       kDroppedOnOverflow},
      {"split-offsets",
       "splits a pointer offset into a tile and a splat of a scalar, the pointer advanced by each",
       [](ir::Function &function, const config::HardwareConfig &) { splitUniformOffsets(function); }},
      {"fold-constants", "replaces scalar integer arithmetic on constants by its value",
       [](ir::Function &function, const config::HardwareConfig &) { foldConstants(function); }},
      {"outer-product-dots", "turns a dot with one K term into a multiply and an add on the vector unit",
       [](ir::Function &function, const config::HardwareConfig &) { expandOuterProductDots(function); }},
      {"early-loads", "in loop bodies without stores, moves what does not depend on the carried values first",
       [](ir::Function &function, const config::HardwareConfig &) { scheduleLoadsEarly(function); },
       kDroppedOnOverflow},
      {"layout", "chooses the lane axis of every tile value for the machine (lane=N after its type)",
       chooseLaneAxes},
      {"cse", "removes pure ops equal to an earlier visible one",
       [](ir::Function &function, const config::HardwareConfig &) {
         eliminateCommonSubexpressions(function);
       }},
      {"hoist-invariants", "moves loop-invariant pure ops of a loop body before the loop",
       [](ir::Function &function, const config::HardwareConfig &) { hoistLoopInvariants(function); },
       kDroppedOnOverflow},
  };
  return kPasses;
}

const Pass *findPass(std::string_view name) {
  for (const Pass &pass : passes())
    if (pass.name == name)
      return &pass;
  return nullptr;
}

bool isPureOp(const ir::Op &op) {
  return ir::opTraits(op.code).pure && op.regions.empty() && !op.results.empty();
}

} // namespace npusim::transform
