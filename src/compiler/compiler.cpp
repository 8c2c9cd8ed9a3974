// The compiler driver (docs/compiler.md, "Stages"): every stage from a library
// call's mapping and a kernel's block sizes to its NPU program, the TileIR
// passes among them as transform::passes() lists them, and compile, which
// runs the stages after the block sizes.
#include "compiler/compiler_internal.h"
#include "transform/transform.h"

#include <iterator>
#include <vector>

namespace npusim::compiler {

namespace {

using StageKind = Stage::Kind;

// The compiler's own stages around the TileIR passes, whose order and names
// are transform::passes()'s (the one list of them).
constexpr Stage kBeforeTileIR[] = {
    {"mapping", StageKind::Mapping, "library", false,
     "library calls only: the tiles of the GEMM-shaped kernels, by the mapping strategy the run names "
     "(registered by name, library/mapping*.cpp); library::planCall bakes them into the kernel source as "
     "constexprs, so they precede the front end, and the block-size search keeps them"},
    {"block-sizes", StageKind::BlockSizes, "compiler", false,
     "searchBlockSizes (tiling.cpp, cost_model.cpp): block sizes are constexprs of the Triton kernel, so the "
     "caller's front end lowers the kernel once per candidate and the search runs the stages below on each, "
     "keeping the cheapest estimate that fits the scratchpad"},
};

constexpr Stage kAfterTileIR[] = {
    {"lowering", StageKind::Lowering, "compiler", false,
     "TileIR ops -> NPU instructions, scalar registers and unplaced tiles (class Lowering: lower_*.cpp, "
     "carried_forms.cpp, emit.cpp)"},
    {"schedule", StageKind::Schedule, "compiler", false,
     "moves every DMA load and what it depends on as early as its dependencies allow, within each "
     "straight-line run (scheduleDmaLoads, schedule.cpp); kept only where the scratchpad plan fits"},
    {"scratchpad", StageKind::ScratchpadPlan, "compiler", false,
     "tile lifetimes and bank offsets (scratchpad.cpp); on overflow the stages from the first TileIR pass "
     "run again without those dropped on overflow, and then the overflow is the caller's (the block-size "
     "search rejects the candidate)"},
};

std::vector<Stage> buildPipeline() {
  std::vector<Stage> stages(std::begin(kBeforeTileIR), std::end(kBeforeTileIR));
  for (const transform::Pass &pass : transform::passes())
    stages.push_back({pass.name, StageKind::TileIRPass, "transform", pass.droppedOnOverflow, pass.summary});
  stages.insert(stages.end(), std::begin(kAfterTileIR), std::end(kAfterTileIR));
  return stages;
}

/// Plans the scratchpad of the scheduled program, or of the lowering's order
/// (`lowered`, empty when the schedule moved nothing) where that one alone
/// fits or alone keeps two instances in flight: hoisted loads keep their
/// tiles live longer, and losing the second instance's bank costs more than
/// the overlap within one instance gains.
void planScheduled(npu::Program &program, std::vector<npu::Instruction> lowered, const TileStorage &storage,
                   const config::HardwareConfig &machine, const core::SourceLocation &where) {
  const int64_t alignment = machine.vlenBits / 8;
  if (lowered.empty()) {
    planScratchpad(program, storage, alignment, where);
    return;
  }
  bool fits = true;
  try {
    planScratchpad(program, storage, alignment, where);
  } catch (const ScratchpadOverflow &) {
    fits = false;
  }
  if (fits && program.instanceBankStride > 0)
    return;
  npu::Program unscheduled = program;
  unscheduled.body = std::move(lowered);
  if (!fits) {
    planScratchpad(unscheduled, storage, alignment, where);
    program = std::move(unscheduled);
    return;
  }
  try {
    planScratchpad(unscheduled, storage, alignment, where);
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
    TileStorage storage;
    std::vector<npu::Instruction> lowered; // the body before scheduling, when it moved
    bool overflowed = false;
    for (const Stage &stage : pipeline()) {
      switch (stage.kind) {
      case StageKind::Mapping:    // the library's, before the kernel source exists
      case StageKind::BlockSizes: // the caller's, before the function exists
        break;
      case StageKind::TileIRPass: {
        if (!allPasses && stage.droppedOnOverflow)
          break;
        const transform::Pass *pass = transform::findPass(stage.name);
        if (!pass)
          fail(function, {}, "internal: no TileIR pass named " + std::string(stage.name));
        pass->run(*transformed, machine);
        break;
      }
      case StageKind::Lowering: program = lower(*transformed, machine, storage); break;
      case StageKind::Schedule: {
        std::vector<npu::Instruction> before = program.body;
        if (scheduleDmaLoads(program.body, storage.root))
          lowered = std::move(before);
        break;
      }
      case StageKind::ScratchpadPlan: try { planScheduled(program, std::move(lowered), storage, machine, where);
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
  static const std::vector<Stage> kPipeline = buildPipeline();
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
