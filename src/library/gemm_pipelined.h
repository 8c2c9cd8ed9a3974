#pragma once
// The pipelined GEMM (internal): each program computes a [BLOCK_M, 2 BLOCK_N]
// tile of C (or [2 BLOCK_M, BLOCK_N]) as two halves, one per systolic array,
// over K blocks loaded into two alternating buffers, so that the DMA queue
// fetches block k + 1 while both arrays multiply block k
// (docs/library-kernels.md, "Pipelined GEMM").
#include "library/gemm_text.h"
#include "library/plan_support.h"

#include <optional>
#include <string>

namespace npusim::library::detail {

struct PipelinedTiles {
  int64_t blockM = 128, blockN = 128, blockK = 128; // one half's tile, and the K block
  bool splitM = false; // the halves are row blocks sharing B's tile (else column blocks sharing A's)
  double cycles = 0;   // the estimate for the whole call (pipelinedCycles)
};

/// The rows and columns one program covers.
inline int64_t programRows(const PipelinedTiles &t) { return t.splitM ? 2 * t.blockM : t.blockM; }
inline int64_t programColumns(const PipelinedTiles &t) { return t.splitM ? t.blockN : 2 * t.blockN; }

/// The kernel text for a K of `k` elements.
std::string pipelinedGemmSource(const std::string &name, const GemmKernelFlags &kernel, const PipelinedTiles &t,
                                int64_t k);
/// A name suffix telling the generated variants apart.
std::string pipelinedVariant(const GemmKernelFlags &kernel, const PipelinedTiles &t, int64_t k);

/// The cheapest pipelined tiles by pipelinedCycles for `batches` products
/// [m, k] x [k, n] of `element`-byte operands, among those whose buffers fit
/// half a lane's bank; nothing when none fits or the machine has one array.
/// K blocks of one or two arrays' widths, or with `deepK` (the "deep-k"
/// kernel) of four or eight, at least two blocks of them.
std::optional<PipelinedTiles> choosePipelinedTiles(int64_t m, int64_t n, int64_t k, int64_t batches,
                                                   int64_t element, bool aTurned, bool bTurned, bool hasBias,
                                                   bool deepK, const MachineShape &machine);

/// The cost model's estimate of a pipelined GEMM (cycles, all batches).
double pipelinedCycles(const PipelinedTiles &t, int64_t m, int64_t n, int64_t k, int64_t batches, int64_t element,
                       bool bTurned, bool hasBias, const MachineShape &machine);

/// Scratchpad bytes per lane of the kernel's tiles: both buffers of both
/// operands (x2 for a turned operand's copy), both accumulators and the
/// epilogue's product.
int64_t pipelinedBytesPerLane(const PipelinedTiles &t, int64_t element, bool aTurned, bool bTurned,
                              const MachineShape &machine);

} // namespace npusim::library::detail
