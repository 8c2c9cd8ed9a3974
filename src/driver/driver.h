#pragma once
// The driver between the runtime and the compiler (docs/architecture.md): how
// one Triton kernel becomes an NPU program for a machine. It decides which
// block sizes may be chosen (Inductor's pointwise and reduction kernels, whose
// grid follows from them; a block whose launch value divided its numel keeps
// dividing it unless every access along its axis is proven masked; a
// template's blocks whose every use keeps the covered rows), runs the
// compiler's block-size search over their candidates with the front end
// lowering each, and falls back to the launch's own values. The runtime and
// the compile and kernel commands compile through it.
#include "compiler/tiling.h"
#include "config/hardware.h"
#include "npu/program.h"
#include "triton/frontend.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace npusim::driver {

/// One kernel compiled for a machine.
struct NpuKernel {
  triton::ConstexprBindings constexprs; // the values the program was compiled with
  std::unique_ptr<ir::Function> function;
  npu::Program program;
  /// True when the block sizes were chosen for the machine (Inductor pointwise
  /// and reduction kernels, whose grid follows from them, and templates
  /// re-tiled on their launch's grid); false when the launch's own values were
  /// kept (fixed grids, templates with no block that may change).
  bool blocksChosen = false;
  /// The grid of a re-tiled template (docs/frontend.md, "Re-tiling
  /// templates"): the launch's grid with each tiled axis scaled by the ratio
  /// of the launch's block to the chosen one.
  std::optional<triton::GridSize> grid;
  /// Why block sizes kept the launch's values ("BLOCK_K: ..."), one per block.
  std::vector<std::string> keptBlocks;
  /// The cost model's estimate of the chosen tiling (when blocksChosen).
  compiler::ProgramCost cost;
  /// One line per candidate that did not fit, for messages and reports.
  std::vector<std::string> rejected;
  /// The search's other near-ties (compiler::TilingChoice::nearTies), each
  /// compiled as this one is, with its own constexprs, cost and grid: the
  /// runtime times them on a launch against this kernel and runs the fastest
  /// (docs/compiler.md, "Timed near-ties"). Empty when the estimate had no
  /// near-tie; each one's own list is empty.
  std::vector<std::unique_ptr<NpuKernel>> nearTies;
};

/// Compiles `file` for `machine`. Inductor pointwise and reduction kernels get
/// the block sizes compiler::searchBlockSizes finds cheapest (a block the
/// launch's value divided its numel with keeps dividing it), else the launch's
/// own values; other kernels keep `launchConstexprs`. `scalarArguments` holds the launch's integer scalars
/// (xnumel, a dynamic size's ks0, ...): the program is compiled for those values, each scalar
/// parameter's uses replaced by its value, so a caller keeps one kernel per set of values
/// (docs/compiler.md, "Launch scalars"). Throws core::CompileError naming the kernel; when nothing
/// fits, the message gives each candidate's bytes per lane and the bank size.
/// Block sizes named in `pinned` keep their launch value (a user's --const).
/// The search compiles its candidates on up to `threads` threads. A template
/// kernel given its `launchGrid` gets the block sizes its syntax proves may
/// change (driver/template_blocks_internal.h) chosen the same way, the rest
/// kept with the reason in keptBlocks.
std::unique_ptr<NpuKernel> compileForNpu(const triton::KernelFile &file,
                                         const triton::ConstexprBindings &launchConstexprs,
                                         const std::map<std::string, int64_t> &scalarArguments,
                                         const config::HardwareConfig &machine,
                                         const std::vector<std::string> &pinned = {}, int threads = 1,
                                         const std::optional<triton::GridSize> &launchGrid = std::nullopt);

/// The grid of a launch of `kernel`: a re-tiled template's grid, Inductor's
/// rule for its grid type with the chosen block sizes when they were chosen,
/// else `launchGrid`.
triton::GridSize npuGrid(const triton::KernelFile &file, const NpuKernel &kernel,
                         const std::map<std::string, int64_t> &scalarArguments,
                         const triton::GridSize &launchGrid);

} // namespace npusim::driver
