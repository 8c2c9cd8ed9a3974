// The mapping search of the GEMM-shaped kernels: candidates ranked by a cost
// model of the machine's systolic arrays, DMA and vector unit
// (docs/library-kernels.md, "Mapping search").
#include "library/mapping.h"

#include "library/plan_support.h"

#include <algorithm>
#include <cmath>

namespace npusim::library::detail {

namespace {

// A DRAM round trip in core cycles (HBM2 row miss plus the crossbar), paid
// once per program when its K steps overlap, else once per K block.
constexpr double kDramLatencyCycles = 200;
constexpr double kRunCycles = 4;

bool powerOfTwo(int64_t v) {
  return v > 0 && (v & (v - 1)) == 0;
}

} // namespace

int64_t mappingBytesPerLane(const ConvMapping &t, int64_t element, bool gathered,
                            const MachineShape &machine) {
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

double mappingCycles(const ConvMapping &t, int64_t m, int64_t n, int64_t k, int64_t groups, int64_t element,
                     bool gathered, bool padded, bool bKContiguous, const MachineShape &machine) {
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
  const double dma = bytes / std::max(1.0, machine.dramBytesPerCycle) +
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

ConvMapping chooseMapping(int64_t m, int64_t n, int64_t k, int64_t groups, int64_t element, bool gathered,
                          bool padded, bool bKContiguous, const MachineShape &machine) {
  const int64_t lane = laneBlock(machine);
  const int64_t budget = tileBudgetBytes(machine) / machine.lanes; // half a lane's bank
  const std::string key = std::to_string(m) + "_" + std::to_string(n) + "_" + std::to_string(k);
  if (auto it = machine.mapping.find(key); it != machine.mapping.end()) {
    const GemmTiles &e = it->second;
    for (const auto &[value, field] :
         {std::pair{e.tileM, "TILE_M"}, {e.tileN, "TILE_N"}, {e.tileK, "TILE_K"}})
      if (!powerOfTwo(value) || value < 16)
        throw core::InputError(e.where + "." + field + ": " + std::to_string(value) +
                               " is not a power of two of at least 16 (Triton blocks are)");
    ConvMapping t{e.tileM, e.tileN, e.tileK, ceilDiv(k, e.tileK) > 1 ? 2 : 1, 0};
    const int64_t need = mappingBytesPerLane(t, element, gathered, machine);
    if (need > budget)
      throw core::InputError(e.where + ": tiles " + std::to_string(e.tileM) + " x " +
                             std::to_string(e.tileN) + " x " + std::to_string(e.tileK) + " need " +
                             std::to_string(need) +
                             " scratchpad bytes per lane, more than half a lane's bank (" +
                             std::to_string(budget) + ", the other half double-buffers)");
    t.cycles = mappingCycles(t, m, n, k, groups, element, gathered, padded, bKContiguous, machine);
    return t;
  }
  // K blocks of one, two or four arrays' rows (longer DMA runs, fewer steps).
  std::vector<int64_t> blockKs = {blockFor(k, 16, lane)};
  for (int64_t b = 2 * lane; b <= 4 * lane && b <= nextPowerOfTwo(k); b *= 2)
    blockKs.push_back(b);
  std::vector<int64_t> blockNs = {blockFor(n, 16, lane)};
  if (n > lane)
    blockNs.push_back(2 * lane);
  const int64_t cap = std::min<int64_t>(blockFor(m, 16, int64_t{1} << 20), 4096);
  ConvMapping best;
  bool found = false;
  for (int64_t blockK : blockKs)
  for (int64_t steps : {int64_t{1}, int64_t{2}}) {
    if (steps > 1 && ceilDiv(k, blockK) < 2)
      continue;
    for (int64_t blockN : blockNs)
      for (int64_t blockM = 16; blockM <= cap; blockM *= 2) {
        ConvMapping t{blockM, blockN, blockK, steps, 0};
        if (mappingBytesPerLane(t, element, gathered, machine) > budget)
          continue;
        t.cycles = mappingCycles(t, m, n, k, groups, element, gathered, padded, bKContiguous, machine);
        // Cheaper first; among equals the larger tile (fewer programs).
        if (!found || t.cycles < best.cycles * (1 - 1e-9)) {
          best = t;
          found = true;
        }
      }
  }
  if (!found) // nothing fits: the smallest tiles, for the caller's overflow retry to judge
    best = ConvMapping{16, blockNs[0], blockKs[0], 1,
                       mappingCycles(ConvMapping{16, blockNs[0], blockKs[0], 1, 0}, m, n, k, groups, element,
                                     gathered, padded, bKContiguous, machine)};
  return best;
}

} // namespace npusim::library::detail
