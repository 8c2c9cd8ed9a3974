#pragma once
// The mapping of the GEMM-shaped kernels (internal): which tiles a GEMM or an
// implicit-GEMM convolution runs with on this machine, chosen by a registered
// mapping strategy (mapping_strategy.h; docs/library-kernels.md, "Mapping
// search" and "Mapping strategies"). This is the `mapping` stage of the
// compiler's pipeline (docs/compiler.md, "Stages"), which the planners run
// before the kernel source exists.
#include "library/library.h"

namespace npusim::library::detail {

struct ConvMapping {
  int64_t blockM = 16, blockN = 16, blockK = 16;
  int64_t steps = 1; // K blocks per loop iteration, each with its own accumulator
  double cycles = 0; // the cost model's estimate for the whole call
};

/// The product a mapping is for: [m, k] x [k, n], `groups` of them (separate
/// programs) with `element`-byte operands. `gathered`: the A operand is an
/// implicit-GEMM gather (index and mask tiles per K block, `padded` adding
/// the bounds tests). `bKContiguous`: B's contiguous axis is K (one DMA run
/// per column of B), else N (one per row). `biasLoad`: the epilogue loads a
/// tile (addmm's self), whose bytes are a dead operand tile's, so it waits
/// for the program's last dots and the next program's loads queue behind it.
struct GemmProblem {
  int64_t m = 1, n = 1, k = 1, groups = 1, element = 4;
  bool gathered = false, padded = false, bKContiguous = false, biasLoad = false;
};

/// The mapping of `problem`: an entry of `machine.mapping` for "M_N_K" (the
/// "external" strategy) when there is one, else the strategy named by
/// `machine.mappingStrategy`; when that finds no tiles that fit, the smallest
/// ones, for the caller's overflow retry to judge.
ConvMapping chooseMapping(const GemmProblem &problem, const MachineShape &machine);

/// The cost model's estimate for one mapping (cycles), and the scratchpad
/// bytes per lane its tiles need (docs/library-kernels.md, "Mapping search").
double mappingCycles(const ConvMapping &tiles, const GemmProblem &problem, const MachineShape &machine);
int64_t mappingBytesPerLane(const ConvMapping &tiles, const GemmProblem &problem,
                            const MachineShape &machine);
/// What a mapping's tiles may take per lane: half a lane's bank (the other
/// half double-buffers the next program).
int64_t mappingBudgetPerLane(const MachineShape &machine);

} // namespace npusim::library::detail
