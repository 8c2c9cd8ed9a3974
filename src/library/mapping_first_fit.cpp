// The "first_fit" mapping strategy: no cost model, Gemmini's rule of thumb
// (tiled_matmul_auto): K and N blocks of the array's width, and the largest
// power-of-two BLOCK_M that fits half a lane's bank with two K steps (one
// when K has a single block). A baseline for comparing the search against.
#include "library/mapping_strategy.h"

#include "library/plan_support.h"

#include <algorithm>

namespace npusim::library::detail {

namespace {

class FirstFitMapping final : public MappingStrategy {
public:
  std::optional<ConvMapping> choose(const GemmProblem &p, const MachineShape &machine) const override {
    ConvMapping t{16, blockFor(p.n, 16, laneBlock(machine)), blockFor(p.k, 16, laneBlock(machine)), 1, 0};
    t.steps = ceilDiv(p.k, t.blockK) > 1 ? 2 : 1;
    if (mappingBytesPerLane(t, p, machine) > mappingBudgetPerLane(machine))
      return std::nullopt;
    // Double BLOCK_M while the doubled tiles fit, up to next_pow2(M) and 4096.
    const int64_t cap = std::min<int64_t>(blockFor(p.m, 16, int64_t{1} << 20), 4096);
    for (ConvMapping wider = t; wider.blockM * 2 <= cap; t = wider) {
      wider.blockM *= 2;
      if (mappingBytesPerLane(wider, p, machine) > mappingBudgetPerLane(machine))
        break;
    }
    t.cycles = mappingCycles(t, p, machine);
    return t;
  }
};

const bool kFirstFitRegistered = MappingStrategies::add<FirstFitMapping>("first_fit");

} // namespace

} // namespace npusim::library::detail
