// The table of passes: a new pass is one file plus one row here.
#include "transform/transform.h"

namespace npusim::transform {

const std::vector<Pass> &passes() {
  static const std::vector<Pass> kPasses = {
      {"hoist-invariants", "moves loop-invariant pure ops of a loop body before the loop",
       hoistLoopInvariants},
      {"cse", "removes pure ops equal to an earlier visible one", eliminateCommonSubexpressions},
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
