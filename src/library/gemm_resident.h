#pragma once
// The resident-B GEMM (internal): one program per batch keeps all of B in the
// scratchpad (weights stationary there, read from DRAM once) and streams A
// through it in BLOCK_M-row tiles, the next tile's load issued while the
// arrays multiply the current one (docs/library-kernels.md, "Resident B").
#include "library/plan_support.h"

#include <optional>
#include <string>
#include <string_view>

namespace npusim::library::detail {

/// The parameters both GEMM kernels start with: the four pointers ({{A}},
/// {{B}}, {{BIAS}}, {{C}} their element types), alpha, beta, the sizes and
/// every stride, as constexprs (each address affine in the aranges).
constexpr std::string_view kGemmParameters =
    R"TRITON(a_ptr: "*{{A}}", b_ptr: "*{{B}}", bias_ptr: "*{{BIAS}}", c_ptr: "*{{C}}",
             alpha: "fp32", beta: "fp32",
             M: tl.constexpr, N: tl.constexpr, K: tl.constexpr,
             STRIDE_AB: tl.constexpr, STRIDE_AM: tl.constexpr, STRIDE_AK: tl.constexpr,
             STRIDE_BB: tl.constexpr, STRIDE_BK: tl.constexpr, STRIDE_BN: tl.constexpr,
             STRIDE_BIASB: tl.constexpr, STRIDE_BIASM: tl.constexpr, STRIDE_BIASN: tl.constexpr,
             STRIDE_CB: tl.constexpr, STRIDE_CM: tl.constexpr, STRIDE_CN: tl.constexpr,)TRITON";

struct ResidentTiles {
  int64_t blockM = 128, blockK = 128, panel = 128;
  int64_t panels = 1;     // B's columns in `panel`-wide tiles, one dot each per A tile
  int64_t firstTiles = 2; // A tiles of the first step, loaded in turn with B's first panels
  double cycles = 0;      // the estimate compared with the tiled kernel's (residentCycles)
};

/// What the generated kernel must handle (only the masks and epilogue
/// terms a call needs are generated).
struct ResidentKernel {
  bool mRagged = false;      // M is not a multiple of BLOCK_M: row masks
  bool aMContiguous = false; // A column-major: loaded [BLOCK_K, BLOCK_M] and turned
  bool bKContiguous = false; // B's contiguous axis is K: panels loaded [PANEL, BLOCK_K] and turned
  bool nRagged = false, kRagged = false;
  bool scaleProduct = false, hasBias = false, scaleBias = false;
  std::string aType, bType, biasType, cType; // Triton element types
};

/// The kernel text (docs/library-kernels.md, "Resident B"); `tiles` = ceil(M
/// / BLOCK_M) row tiles of A, at least 2.
std::string residentGemmSource(const std::string &name, const ResidentKernel &kernel, const ResidentTiles &t,
                               int64_t tiles);
/// A name suffix telling the generated variants apart.
std::string residentVariant(const ResidentKernel &kernel, const ResidentTiles &t, int64_t tiles);

/// Resident-B tiles for a batched [m, k] x [k, n] product of `element`-byte
/// operands, or nothing when B does not fit half a lane's bank beside two A
/// tiles and the accumulators, or when A has fewer than two tiles of rows (no
/// reuse to gain). `aTurned`, `bTurned`: the operand is loaded with its
/// contiguous axis last and transposed on chip.
std::optional<ResidentTiles> chooseResidentTiles(int64_t m, int64_t n, int64_t k, int64_t element,
                                                 bool aTurned, bool bTurned, const MachineShape &machine);

/// The cost model's estimate of a resident-B GEMM (cycles, per batch): the
/// DRAM time of A, B and C once against the arrays' folds, plus the start
/// (the first A tile and B panel) and the last tile's store.
double residentCycles(const ResidentTiles &tiles, int64_t m, int64_t n, int64_t k, int64_t element,
                      const MachineShape &machine);

} // namespace npusim::library::detail
