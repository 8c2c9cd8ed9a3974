#pragma once
// Which block sizes of an Inductor template kernel (`@triton_heuristics.template`,
// a fixed grid, block sizes as body constexprs) may be re-tiled for the machine,
// from the kernel's syntax alone (docs/frontend.md, "Re-tiling templates").
#include "compiler/compiler.h"
#include "triton/frontend.h"

#include <string>
#include <vector>

namespace npusim::driver {

/// A template's block sizes that may be chosen, each with the extent it
/// covers; the choices keep that extent covered exactly once.
struct TemplateBlocks {
  /// mustDivide is always set: numel is the covered extent, which a chosen
  /// block divides.
  std::vector<compiler::BlockParameter> parameters;
  /// Per parameter: the grid axis its program_id tiles, or -1 for a reduction
  /// block (looped inside the program).
  std::vector<int> gridAxes;
  /// One line per block size that keeps the launch's value and why ("BLOCK_K:
  /// used as `tl.multiple_of(..., BLOCK_K)` at line 40"); empty when all may be chosen.
  std::vector<std::string> kept;
};

/// The block sizes of template `file` launched on `launchGrid` that may be
/// chosen. A block B is a tile axis when every use is
/// `tl.program_id(a)[.to(T)] * B + tl.arange(0, B)` (one axis a, whose
/// program_id appears nowhere else) or a shape (`(B, ...)`, `[B, ...]`): any
/// block dividing grid[a] * B covers the same rows with grid[a] * B / block
/// programs. B is a reduction block when every use is `tl.arange(0, B)`, a
/// shape, the step of `for k in range(0, C, B)`, `COUNT = (C + B - 1) // B`
/// at the top level or `(i % COUNT) * B`, with one integer C that the
/// launch's B divides: a block dividing C walks the same [0, C). Blocks named
/// in `pinned` are kept.
TemplateBlocks templateBlocks(const triton::KernelFile &file, const triton::GridSize &launchGrid,
                              const std::vector<std::string> &pinned);

} // namespace npusim::driver
