// The cost model of the GEMM-shaped kernels' mappings (the machine's systolic
// arrays, DMA and vector unit) and the choice among the registered mapping
// strategies (docs/library-kernels.md, "Mapping search").
#include "library/mapping.h"

#include "library/mapping_strategy.h"

#include "library/plan_support.h"

#include <algorithm>
#include <cmath>

namespace npusim::library::detail {

namespace {

// A DRAM round trip in core cycles (HBM2 row miss plus the crossbar), paid
// once per program when its K steps overlap, else once per K block.
constexpr double kDramLatencyCycles = 200;
constexpr double kRunCycles = 4;

} // namespace

int64_t mappingBytesPerLane(const ConvMapping &t, const GemmProblem &p, const MachineShape &machine) {
  const int64_t element = p.element;
  const bool gathered = p.gathered;
  const int64_t lanes = machine.lanes;
  const int64_t kSlots = ceilDiv(t.blockK, lanes), nSlots = ceilDiv(t.blockN, lanes);
  // Per K step: A [BLOCK_M, BLOCK_K] and B [BLOCK_K, BLOCK_N] with K on the
  // lanes, each loaded and turned (two copies); a gather adds its int32 index
  // and bounds tiles (three) and the mask; per step an fp32 accumulator with
  // N on the lanes, and the epilogue's sum and bias beside the last one.
  const int64_t aBytes = kSlots * t.blockM * element * 2 + (gathered ? kSlots * t.blockM * (3 * 4 + 1) : 0);
  const int64_t bBytes = kSlots * t.blockN * element * 2;
  const int64_t accBytes = nSlots * t.blockM * 4;
  return t.steps * (aBytes + bBytes + accBytes) + 2 * accBytes;
}

double mappingCycles(const ConvMapping &t, const GemmProblem &p, const MachineShape &machine) {
  const int64_t m = p.m, n = p.n, k = p.k, groups = p.groups, element = p.element;
  const bool gathered = p.gathered, padded = p.padded, bKContiguous = p.bKContiguous;
  const double lanes = machine.lanes;
  const int64_t programs = ceilDiv(m, t.blockM) * ceilDiv(n, t.blockN) * groups;
  const int64_t kBlocks = ceilDiv(k, t.blockK);
  const int64_t issued = ceilDiv(kBlocks, t.steps) * t.steps;
  const int64_t folds = ceilDiv(t.blockN, machine.lanes) * ceilDiv(t.blockK, machine.lanes);
  // Weight-stationary folds: back to back each takes max(rows, lanes) cycles
  // (the next weights load behind the streaming rows); the steps'
  // accumulators are independent, so up to `steps` arrays work at once; the
  // last fold's fill and drain (2 lanes - 2) and the first weight load once.
  const double parallel =
      static_cast<double>(std::min<int64_t>(std::max(1, machine.systolicArrays), t.steps));
  const double array = static_cast<double>(issued * folds) * std::max<double>(t.blockM, lanes) / parallel;
  const double fill = 3 * lanes - 2;
  const double bytes = static_cast<double>(issued) *
                           static_cast<double>(t.blockM * t.blockK + t.blockK * t.blockN) *
                           static_cast<double>(element) +
                       static_cast<double>(t.blockM * t.blockN * 4);
  // Every DMA run (a tile row along its operand's contiguous axis) costs
  // about kRunCycles beyond its bytes (a DRAM row opened in its channels;
  // measured: a 3x3 512 -> 512 convolution's weights take 94 k cycles in runs
  // of 512 bytes and 55 k in runs of 1 KB, 18.4 k of it bandwidth). A's rows
  // are one run per lane block of K (a gather's at least that).
  const double aRuns = static_cast<double>(t.blockM * ceilDiv(t.blockK, machine.lanes));
  const double bRuns = static_cast<double>(bKContiguous ? t.blockN : t.blockK);
  const double dma =
      bytes / std::max(1.0, machine.dramBytesPerCycle) +
      kRunCycles * (static_cast<double>(issued) * (aRuns + bRuns) + static_cast<double>(t.blockM));
  // The gather's index and mask tiles: about 4 int32 operations per element
  // of A, 12 with the bounds tests of padding; the accumulators' sum and the
  // store's conversion in fp32.
  const double vectorWidth = lanes * machine.vlenBits / 32.0;
  const double perElement = gathered ? (padded ? 12.0 : 4.0) : 0.0;
  const double vector = (static_cast<double>(issued) * static_cast<double>(t.blockM * t.blockK) * perElement +
                         static_cast<double>(t.steps + 1) * static_cast<double>(t.blockM * t.blockN)) /
                        vectorWidth;
  const double perProgram =
      t.steps > 1 ? std::max({array, dma, vector}) + fill + kDramLatencyCycles
                  : array + dma + vector + fill + kDramLatencyCycles * static_cast<double>(issued);
  return static_cast<double>(programs) * perProgram;
}

int64_t mappingBudgetPerLane(const MachineShape &machine) {
  return tileBudgetBytes(machine) / machine.lanes;
}

ConvMapping chooseMapping(const GemmProblem &p, const MachineShape &machine) {
  if (auto tiles = MappingStrategies::make("mapping strategy", "external")->choose(p, machine))
    return *tiles;
  if (auto tiles = MappingStrategies::make("mapping strategy", machine.mappingStrategy)->choose(p, machine))
    return *tiles;
  // Nothing fits: the smallest tiles, for the caller's overflow retry to judge.
  ConvMapping t{16, blockFor(p.n, 16, laneBlock(machine)), blockFor(p.k, 16, laneBlock(machine)), 1, 0};
  t.cycles = mappingCycles(t, p, machine);
  return t;
}

} // namespace npusim::library::detail
