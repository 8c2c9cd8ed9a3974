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

namespace {

// The implicit-GEMM convolution's estimate: every K block's tiles counted
// whole, K blocks back to back and each program on its own.
double gatheredMappingCycles(const ConvMapping &t, const GemmProblem &p, const MachineShape &machine) {
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
  const double fill = machine.arrayPassOverheadCycles();
  const double bytes = static_cast<double>(issued) *
                           static_cast<double>(t.blockM * t.blockK + t.blockK * t.blockN) *
                           static_cast<double>(element) +
                       static_cast<double>(t.blockM * t.blockN * 4);
  // Every DMA run (a tile row along its operand's contiguous axis) costs
  // kDmaRunCycles beyond its bytes. A's rows are one run per lane block of K
  // (a gather's at least that).
  const double aRuns = static_cast<double>(t.blockM * ceilDiv(t.blockK, machine.lanes));
  const double bRuns = static_cast<double>(bKContiguous ? t.blockN : t.blockK);
  const double dma =
      bytes / std::max(1.0, machine.dramBytesPerCycle) +
      kDmaRunCycles * (static_cast<double>(issued) * (aRuns + bRuns) + static_cast<double>(t.blockM));
  // The gather's index and mask tiles: about 4 int32 operations per element
  // of A, 12 with the bounds tests of padding; the accumulators' sum and the
  // store's conversion in fp32.
  const double vectorWidth = lanes * machine.vlenBits / 32.0;
  const double perElement = gathered ? (padded ? 12.0 : 4.0) : 0.0;
  const double vector = (static_cast<double>(issued) * static_cast<double>(t.blockM * t.blockK) * perElement +
                         static_cast<double>(t.steps + 1) * static_cast<double>(t.blockM * t.blockN)) /
                        vectorWidth;
  const double perProgram =
      t.steps > 1 ? std::max({array, dma, vector}) + fill + machine.dramLatencyCycles
                  : array + dma + vector + fill + machine.dramLatencyCycles * static_cast<double>(issued);
  return static_cast<double>(programs) * perProgram;
}

// The GEMM kernel's estimate (measured against the timing simulator on
// tpuv3-like for gpt2's, llama's, bert's, mlp's and resnet18's products,
// docs/library-kernels.md, "Mapping search"). Masked rows and columns are
// not read, so a ragged last block costs its real bytes; with one step a
// block's loads wait for the dots of the block before (its tiles' bytes),
// with several the loads run ahead; and when two programs' tiles fit half a
// lane's bank, the next program's first loads run beside this program's last
// dots, epilogue and store (not behind a bias load, GemmProblem::biasLoad).
double gemmMappingCycles(const ConvMapping &t, const GemmProblem &p, const MachineShape &machine) {
  const double lanes = machine.lanes, bandwidth = std::max(1.0, machine.dramBytesPerCycle);
  const int64_t rowBlocks = ceilDiv(p.m, t.blockM), columnBlocks = ceilDiv(p.n, t.blockN);
  const int64_t programs = rowBlocks * columnBlocks * p.groups;
  const int64_t issued = ceilDiv(ceilDiv(p.k, t.blockK), t.steps) * t.steps;
  // An average program's real rows, columns and K per issued block.
  const double rows = static_cast<double>(p.m) / static_cast<double>(rowBlocks);
  const double columns = static_cast<double>(p.n) / static_cast<double>(columnBlocks);
  const double depth = static_cast<double>(p.k) / static_cast<double>(issued);
  const double element = static_cast<double>(p.element);
  const double dot =
      static_cast<double>(ceilDiv(t.blockN, machine.lanes) * ceilDiv(t.blockK, machine.lanes)) *
      std::max<double>(static_cast<double>(t.blockM), lanes);
  const double parallel =
      static_cast<double>(std::min<int64_t>(std::max(1, machine.systolicArrays), t.steps));
  // A's rows are one run per lane block of K; B's one per column when its
  // contiguous axis is K, else one per row of K.
  const double aRuns = rows * static_cast<double>(ceilDiv(std::min(t.blockK, p.k), machine.lanes));
  const double bRuns = p.bKContiguous ? columns : depth;
  const double load = (rows + columns) * depth * element / bandwidth + kDmaRunCycles * (aRuns + bRuns);
  const double store = rows * columns * 4 / bandwidth; // the store queue's runs overlap the loads
  const double fill = machine.arrayPassOverheadCycles();
  const double vectorWidth = lanes * machine.vlenBits / 32.0;
  const double vector =
      static_cast<double>(t.steps + 1) * static_cast<double>(t.blockM * t.blockN) / vectorWidth;
  const double blocks = static_cast<double>(issued);
  // Tiles of more than a quarter of the bank: with the kernel's masks and
  // temporaries they no longer all get bytes of their own (docs/compiler.md,
  // "Scratchpad"), so from the second iteration on a step's loads wait for
  // the dots reading the bytes they take.
  const bool twoFit = 2 * mappingBytesPerLane(t, p, machine) <= mappingBudgetPerLane(machine);
  const bool loadsRunAhead = t.steps > 1 && (twoFit || issued == t.steps);
  // Running ahead, the loads still come first: the last block's dots follow
  // its loads.
  const double loop = loadsRunAhead
                          ? std::max(blocks * load, blocks * dot / parallel) + dot + machine.dramLatencyCycles
                      : t.steps > 1 ? blocks * (load + dot / parallel) + machine.dramLatencyCycles
                                    : blocks * (load + machine.dramLatencyCycles + dot);
  const double lastDots = static_cast<double>(t.steps) * dot / parallel;
  const double perProgram = loop + fill + vector + store;
  const double overlap = twoFit && !p.biasLoad
                             ? std::min(static_cast<double>(t.steps) * load + machine.dramLatencyCycles,
                                        lastDots + fill + vector + store)
                             : 0.0;
  return static_cast<double>(programs) * perProgram - static_cast<double>(programs - 1) * overlap;
}

} // namespace

double mappingCycles(const ConvMapping &t, const GemmProblem &p, const MachineShape &machine) {
  return p.gathered ? gatheredMappingCycles(t, p, machine) : gemmMappingCycles(t, p, machine);
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
