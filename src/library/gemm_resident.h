#pragma once
// The resident-B GEMM (internal): one program per batch keeps all of B (or
// per column block of B, where all of it does not fit) in the scratchpad
// (weights stationary there, read from DRAM once) and streams A through it
// in BLOCK_M-row tiles, the next tile's load issued while the
// arrays multiply the current one (docs/library-kernels.md, "Resident B").
#include "library/gemm_text.h"
#include "library/plan_support.h"

#include <optional>
#include <vector>
#include <string>
#include <string_view>

namespace npusim::library::detail {

struct ResidentTiles {
  int64_t blockM = 128, blockK = 128, panel = 128;
  int64_t panels = 1;     // B's columns in `panel`-wide tiles, one dot each per A tile
  /// Programs along N (grid y), each keeping `panels` panels of B resident
  /// and streaming all of A through them: 1 when all of B fits.
  int64_t columnBlocks = 1;
  int64_t firstTiles = 2; // A tiles of the first step, loaded in turn with B's first panels
  double cycles = 0;      // the estimate compared with the tiled kernel's (residentCycles)
  /// K in pieces, each a power of two (arange's extent) and all but a short
  /// K's one a multiple of the lanes, their sum the least lane multiple at
  /// least K: 768 is 512 + 256 and 544 is 512 + 128, where one power-of-two
  /// block (1024) would hold a third or more of padding in every tile. A
  /// product is the chain of one dot per piece. blockK is the sum.
  std::vector<int64_t> kPieces{128};
};

/// The kernel text (docs/library-kernels.md, "Resident B"); `tiles` = ceil(M
/// / BLOCK_M) row tiles of A, at least 2.
std::string residentGemmSource(const std::string &name, const GemmKernelFlags &kernel, const ResidentTiles &t,
                               int64_t tiles);
/// A name suffix telling the generated variants apart.
std::string residentVariant(const GemmKernelFlags &kernel, const ResidentTiles &t, int64_t tiles);

/// Resident-B tiles for a batched [m, k] x [k, n] product of `element`-byte
/// operands: all of B, or where it does not fit half a lane's bank beside two
/// A tiles and the accumulators, the fewest column blocks of B that do (A then
/// streams once per block); nothing when not even one panel fits, or when A
/// has fewer than two tiles of rows (no reuse to gain). `aTurned`, `bTurned`: the operand is loaded with its
/// contiguous axis last and transposed on chip.
std::optional<ResidentTiles> chooseResidentTiles(int64_t m, int64_t n, int64_t k, int64_t element,
                                                 bool aTurned, bool bTurned, const MachineShape &machine);

/// The cost model's estimate of a resident-B GEMM (cycles, per batch): the
/// DRAM time of A, B and C once against the arrays' folds, plus the start
/// (the first A tile and B panel) and the last tile's store.
double residentCycles(const ResidentTiles &tiles, int64_t m, int64_t n, int64_t k, int64_t element,
                      const MachineShape &machine);

} // namespace npusim::library::detail
