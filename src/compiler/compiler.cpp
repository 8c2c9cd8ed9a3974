// The compiler driver: layout, lowering, scratchpad plan (docs/compiler.md).
#include "compiler/compiler_internal.h"

namespace npusim::compiler {

namespace {

npu::Program compileOnce(const ir::Function &function, const config::HardwareConfig &machine) {
  if (machine.lanes <= 0 || machine.spadKibPerLane <= 0)
    fail(function, {}, "the machine has no lanes or no scratchpad");
  const LayoutPlan plan = chooseLayouts(function, machine);
  const core::SourceLocation where =
      function.body().ops.empty() ? core::SourceLocation{} : function.body().ops.front()->loc;
  // Hoisting loop invariants keeps their tiles live through the loop; when
  // that does not fit, they are computed in every iteration instead.
  for (bool hoist : {true, false}) {
    Lowering lowering(function, machine, plan);
    lowering.hoistInvariants = hoist;
    std::vector<int> storageRoot;
    npu::Program program = lowering.run(storageRoot);
    try {
      planScratchpad(program, storageRoot, where);
    } catch (const ScratchpadOverflow &) {
      if (hoist)
        continue;
      throw;
    }
    return program;
  }
  fail(function, where, "internal: no scratchpad plan");
}

} // namespace

npu::Program compile(const ir::Function &function, const config::HardwareConfig &machine) {
  try {
    return compileOnce(function, machine);
  } catch (const core::CompileError &) {
    throw;
  } catch (const std::exception &e) {
    // A bug of the compiler, reported like any other failure to compile.
    fail(function, {}, std::string("internal compiler error: ") + e.what());
  }
}

} // namespace npusim::compiler
