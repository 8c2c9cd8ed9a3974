#pragma once
// Fixed latencies of the machine in core cycles, as closed forms of the
// hardware description: the one place the estimators (the compiler's cost
// model, the library's mapping search) read them, and the same formulas the
// timing simulator's units and memory model follow (docs/timing.md, "Unit
// costs"; docs/dram.md, "Timing").
#include "config/hardware.h"

#include <cstdint>

namespace npusim::machine {

/// Cycles a weight load occupies its systolic array: one row of weights per
/// lane enters per cycle.
inline int64_t weightLoadCycles(int lanes) { return lanes; }

/// Cycles the last row of a matmul needs, after it enters the array, to cross
/// the array's rows and columns (2 lanes - 2 hops).
inline int64_t fillDrainCycles(int lanes) { return 2 * int64_t{lanes} - 2; }

/// What one pass over the arrays costs beyond its rows: the weight load and
/// the fill and drain, 3 lanes - 2.
inline int64_t arrayPassOverheadCycles(int lanes) { return weightLoadCycles(lanes) + fillDrainCycles(lanes); }

/// Core cycles of one DRAM read with nothing queued: the NoC both ways, a row
/// activation (nRCD), the column access (nCL) and the burst (nBL), at the DRAM
/// clock the simulator steps (DramConfig::clockPeriodPs).
double dramRoundTripCycles(const config::HardwareConfig &machine);

} // namespace npusim::machine
