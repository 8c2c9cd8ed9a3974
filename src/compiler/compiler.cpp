// The compiler driver: layout, lowering, scratchpad plan (docs/compiler.md).
#include "compiler/compiler_internal.h"

namespace npusim::compiler {

npu::Program compile(const ir::Function &function, const config::HardwareConfig &machine) {
  if (machine.lanes <= 0 || machine.spadKibPerLane <= 0)
    fail(function, {}, "the machine has no lanes or no scratchpad");
  const LayoutPlan plan = chooseLayouts(function, machine);
  Lowering lowering(function, machine, plan);
  std::vector<int> storageRoot;
  npu::Program program = lowering.run(storageRoot);
  const core::SourceLocation where =
      function.body().ops.empty() ? core::SourceLocation{} : function.body().ops.front()->loc;
  planScratchpad(program, storageRoot, where);
  return program;
}

} // namespace npusim::compiler
