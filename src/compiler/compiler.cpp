// The compiler driver (docs/compiler.md, "Stages"): the one list of every
// stage from a library call's mapping and a kernel's block sizes to its NPU
// program, and compile, which runs the stages after the block sizes.
#include "compiler/compiler_internal.h"
#include "transform/transform.h"

namespace npusim::compiler {

namespace {

using Kind = Stage::Kind;

// `layout` runs first among the TileIR passes: the lane axes are chosen on
// the function as the front end made it (chosen after `cse`, they differ in 4
// of the 518 corpus programs on tpuv3-like and 21 on edge-8lane), and the
// other passes move or remove ops without touching their values' lane axes.
// `cse` leaves to the lowering only the equal ops that TileIR cannot show
// (Lowering::reuseEqualOp). Hoisting is dropped on overflow: it keeps the
// invariants' tiles live through the loop, and computing them in every
// iteration may fit where that does not.
constexpr Stage kPipeline[] = {
    {"mapping", Kind::Mapping, "library", false,
     "library calls only: the tiles of the GEMM-shaped kernels, by the mapping strategy the run names "
     "(registered by name, library/mapping*.cpp); library::planCall bakes them into the kernel source as "
     "constexprs, so they precede the front end, and the block-size search keeps them"},
    {"block-sizes", Kind::BlockSizes, "compiler", false,
     "searchBlockSizes (tiling.cpp, cost_model.cpp): block sizes are constexprs of the Triton kernel, so the "
     "caller's front end lowers the kernel once per candidate and the search runs the stages below on each, "
     "keeping the cheapest estimate that fits the scratchpad"},
    {"shrink-dead-lanes", Kind::TileIRPass, "transform", false,
     "cuts tile axes whose later elements no store or dot observes (transform/shrink_dead_lanes.cpp)"},
    {"unwrap-rem", Kind::TileIRPass, "transform", true,
     "versions the body where `(s + arange) % C` does not wrap (transform/unwrap_rem.cpp)"},
    {"skip-dead-instances", Kind::TileIRPass, "transform", false,
     "the body behind a test that some store may write (transform/skip_dead_instances.cpp)"},
    {"sink-broadcasts", Kind::TileIRPass, "transform", true,
     "moves a loop's expand_dims and broadcasts onto its invariant values (transform/sink_broadcasts.cpp)"},
    {"unroll-dots", Kind::TileIRPass, "transform", true,
     "four iterations per body of a loop whose dot is narrower than the arrays (transform/unroll_dots.cpp)"},
    {"split-offsets", Kind::TileIRPass, "transform", false,
     "a pointer offset as a tile plus a splat, added one after the other (transform/split_offsets.cpp)"},
    {"fold-constants", Kind::TileIRPass, "transform", false,
     "scalar integer arithmetic on constants replaced by its value (transform/fold_constants.cpp)"},
    {"outer-product-dots", Kind::TileIRPass, "transform", false,
     "a dot with one K term as a multiply and an add (transform/outer_product_dots.cpp)"},
    {"early-loads", Kind::TileIRPass, "transform", true,
     "a loop body's loads and offsets ahead of its carried arithmetic (transform/early_loads.cpp)"},
    {"layout", Kind::TileIRPass, "transform", false,
     "the lane axis of every tile value (transform/layout.cpp)"},
    {"cse", Kind::TileIRPass, "transform", false,
     "removes pure ops equal to an earlier visible one (transform/cse.cpp)"},
    {"hoist-invariants", Kind::TileIRPass, "transform", true,
     "moves loop-invariant pure ops before their loop (transform/hoist.cpp)"},
    {"lowering", Kind::Lowering, "compiler", false,
     "TileIR ops -> NPU instructions, scalar registers and unplaced tiles (class Lowering: lower_*.cpp, "
     "carried_forms.cpp, emit.cpp)"},
    {"schedule", Kind::Schedule, "compiler", false,
     "moves every DMA load and what it depends on as early as its dependencies allow, within each "
     "straight-line run (scheduleDmaLoads, schedule.cpp); kept only where the scratchpad plan fits"},
    {"scratchpad", Kind::ScratchpadPlan, "compiler", false,
     "tile lifetimes and bank offsets (scratchpad.cpp); on overflow the stages from the first TileIR pass "
     "run again without those dropped on overflow, and then the overflow is the caller's (the block-size "
     "search rejects the candidate)"},
};

/// Plans the scratchpad of the scheduled program, or of the lowering's order
/// (`lowered`, empty when the schedule moved nothing) where that one alone
/// fits or alone keeps two instances in flight: hoisted loads keep their
/// tiles live longer, and losing the second instance's bank costs more than
/// the overlap within one instance gains.
void planScheduled(npu::Program &program, std::vector<npu::Instruction> lowered,
                   const std::vector<int> &storageRoot, const config::HardwareConfig &machine,
                   const core::SourceLocation &where) {
  const int64_t alignment = machine.vlenBits / 8;
  if (lowered.empty()) {
    planScratchpad(program, storageRoot, alignment, where);
    return;
  }
  bool fits = true;
  try {
    planScratchpad(program, storageRoot, alignment, where);
  } catch (const ScratchpadOverflow &) {
    fits = false;
  }
  if (fits && program.instanceBankStride > 0)
    return;
  npu::Program unscheduled = program;
  unscheduled.body = std::move(lowered);
  if (!fits) {
    planScratchpad(unscheduled, storageRoot, alignment, where);
    program = std::move(unscheduled);
    return;
  }
  try {
    planScratchpad(unscheduled, storageRoot, alignment, where);
  } catch (const ScratchpadOverflow &) {
    return;
  }
  if (unscheduled.instanceBankStride > 0)
    program = std::move(unscheduled);
}

npu::Program compileOnce(const ir::Function &function, const config::HardwareConfig &machine) {
  if (machine.lanes <= 0 || machine.spadKibPerLane <= 0)
    fail(function, {}, "the machine has no lanes or no scratchpad");
  const core::SourceLocation where =
      function.body().ops.empty() ? core::SourceLocation{} : function.body().ops.front()->loc;
  for (bool allPasses : {true, false}) {
    const auto transformed = ir::clone(function);
    npu::Program program;
    std::vector<int> storageRoot;
    std::vector<npu::Instruction> lowered; // the body before scheduling, when it moved
    bool overflowed = false;
    for (const Stage &stage : kPipeline) {
      switch (stage.kind) {
      case Kind::Mapping:    // the library's, before the kernel source exists
      case Kind::BlockSizes: // the caller's, before the function exists
        break;
      case Kind::TileIRPass: {
        if (!allPasses && stage.droppedOnOverflow)
          break;
        const transform::Pass *pass = transform::findPass(stage.name);
        if (!pass)
          fail(function, {}, "internal: no TileIR pass named " + std::string(stage.name));
        pass->run(*transformed, machine);
        break;
      }
      case Kind::Lowering: program = Lowering(*transformed, machine).run(storageRoot); break;
      case Kind::Schedule: {
        std::vector<npu::Instruction> before = program.body;
        if (scheduleDmaLoads(program.body, storageRoot))
          lowered = std::move(before);
        break;
      }
      case Kind::ScratchpadPlan:
        try {
          planScheduled(program, std::move(lowered), storageRoot, machine, where);
        } catch (const ScratchpadOverflow &) {
          if (!allPasses)
            throw;
          overflowed = true;
        }
        break;
      }
      if (overflowed)
        break;
    }
    if (!overflowed)
      return program;
  }
  fail(function, where, "internal: no scratchpad plan");
}

} // namespace

std::span<const Stage> pipeline() {
  return kPipeline;
}

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
