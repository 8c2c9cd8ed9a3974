// The compiler driver (docs/compiler.md): TileIR passes (layout included),
// lowering, scratchpad plan.
#include "compiler/compiler_internal.h"
#include "transform/transform.h"

#include <iterator>

namespace npusim::compiler {

namespace {

/// The TileIR -> TileIR passes run before lowering, in order.
struct Stage {
  std::string_view pass;
  /// Left out when the plan overflows the scratchpad: hoisting keeps the
  /// invariants' tiles live through the loop, computing them in every
  /// iteration may fit where that does not.
  bool droppedOnOverflow = false;
};
// `layout` runs first: the lane axes are chosen on the function as the front
// end made it (chosen after `cse`, they differ in 4 of the 518 corpus programs
// on tpuv3-like and 21 on edge-8lane), and the other passes move or remove ops
// without touching their values' lane axes. `cse` leaves to the lowering only
// the equal ops that TileIR cannot show (Lowering::reuseEqualOp).
constexpr Stage kPipeline[] = {
    {"layout"},
    {"cse"},
    {"hoist-invariants", true},
};

/// The function after the pipeline's passes (all, or those kept on overflow).
std::unique_ptr<ir::Function> runPasses(const ir::Function &function, const config::HardwareConfig &machine,
                                        bool all) {
  auto transformed = ir::clone(function);
  for (const Stage &stage : kPipeline) {
    if (!all && stage.droppedOnOverflow)
      continue;
    const transform::Pass *pass = transform::findPass(stage.pass);
    if (!pass)
      fail(function, {}, "internal: no TileIR pass named " + std::string(stage.pass));
    pass->run(*transformed, machine);
  }
  return transformed;
}

npu::Program compileOnce(const ir::Function &function, const config::HardwareConfig &machine) {
  if (machine.lanes <= 0 || machine.spadKibPerLane <= 0)
    fail(function, {}, "the machine has no lanes or no scratchpad");
  const core::SourceLocation where =
      function.body().ops.empty() ? core::SourceLocation{} : function.body().ops.front()->loc;
  for (bool allPasses : {true, false}) {
    const auto transformed = runPasses(function, machine, allPasses);
    Lowering lowering(*transformed, machine);
    std::vector<int> storageRoot;
    npu::Program program = lowering.run(storageRoot);
    try {
      planScratchpad(program, storageRoot, machine.vlenBits / 8, where);
    } catch (const ScratchpadOverflow &) {
      if (allPasses)
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
