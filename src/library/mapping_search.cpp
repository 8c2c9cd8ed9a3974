// The "search" mapping strategy (the default): every candidate tiling that
// fits half a lane's bank, ranked by the cost model (docs/library-kernels.md,
// "Mapping search").
#include "library/mapping_strategy.h"

#include "library/plan_support.h"

#include <algorithm>

namespace npusim::library::detail {

namespace {

class MappingSearch final : public MappingStrategy {
public:
  std::optional<ConvMapping> choose(const GemmProblem &p, const MachineShape &machine) const override {
    const int64_t lane = laneBlock(machine), budget = mappingBudgetPerLane(machine);
    // K blocks of one array's rows or several (longer DMA runs, fewer
    // steps): a GEMM's up to all of K, the budget permitting; a convolution's
    // gather up to four arrays' rows. N blocks likewise (a GEMM's up to eight
    // arrays' columns): fewer programs, each reading A once for more columns.
    const int64_t widest = p.gathered ? 4 * lane : int64_t{1} << 30;
    std::vector<int64_t> blockKs = {blockFor(p.k, 16, lane)};
    for (int64_t b = 2 * lane; b <= widest && b <= nextPowerOfTwo(p.k); b *= 2)
      blockKs.push_back(b);
    std::vector<int64_t> blockNs = {blockFor(p.n, 16, lane)};
    for (int64_t b = 2 * lane; b <= std::min(widest, 8 * lane) && p.n > b / 2; b *= 2)
      blockNs.push_back(b);
    const int64_t cap = std::min<int64_t>(blockFor(p.m, 16, int64_t{1} << 20), 4096);
    std::optional<ConvMapping> best;
    // Steps per iteration divide the K blocks: a last iteration with a step
    // past K would multiply a block of zeros and make every step's K mask
    // a test that can fail.
    for (int64_t blockK : blockKs)
      for (int64_t steps : {int64_t{1}, int64_t{2}, int64_t{3}}) {
        if (steps > 1 && (ceilDiv(p.k, blockK) < steps || ceilDiv(p.k, blockK) % steps != 0))
          continue;
        for (int64_t blockN : blockNs)
          for (int64_t blockM = 16; blockM <= cap; blockM *= 2) {
            ConvMapping t{blockM, blockN, blockK, steps, 0};
            if (mappingBytesPerLane(t, p, machine) > budget)
              continue;
            t.cycles = mappingCycles(t, p, machine);
            // Cheaper first; among equals the earlier candidate.
            if (!best || t.cycles < best->cycles * (1 - 1e-9))
              best = t;
          }
      }
    return best;
  }
};

const bool kSearchRegistered = MappingStrategies::add<MappingSearch>("search");

} // namespace

} // namespace npusim::library::detail
