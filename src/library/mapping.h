#pragma once
// The mapping search of the GEMM-shaped kernels (internal): which tiles a
// GEMM or an implicit-GEMM convolution runs with on this machine
// (docs/library-kernels.md, "Mapping search").
#include "library/library.h"

namespace npusim::library::detail {

struct ConvMapping {
  int64_t blockM = 16, blockN = 16, blockK = 16;
  int64_t steps = 1; // K blocks per loop iteration, each with its own accumulator
  double cycles = 0; // the cost model's estimate for the whole call
};

/// The cheapest mapping of an [m, k] x [k, n] product (`groups` of them, as
/// separate programs) with `element`-byte operands, by the cost model; an
/// entry of `machine.mapping` for "M_N_K" wins when its tiles fit.
/// `gathered`: the A operand is an implicit-GEMM gather (index and mask tiles
/// per K block, `padded` adding the bounds tests). `bKContiguous`: B's
/// contiguous axis is K (one DMA run per column of B), else N (one per row).
ConvMapping chooseMapping(int64_t m, int64_t n, int64_t k, int64_t groups, int64_t element, bool gathered,
                          bool padded, bool bKContiguous, const MachineShape &machine);

/// The cost model's estimate for one mapping (cycles), and the scratchpad
/// bytes per lane its tiles need; exposed for the tests.
double mappingCycles(const ConvMapping &tiles, int64_t m, int64_t n, int64_t k, int64_t groups,
                     int64_t element, bool gathered, bool padded, bool bKContiguous, const MachineShape &machine);
int64_t mappingBytesPerLane(const ConvMapping &tiles, int64_t element, bool gathered,
                            const MachineShape &machine);

} // namespace npusim::library::detail
