// The "external" mapping strategy: the tiles an external mapping file gives
// for the problem's "M_N_K" (`npusim run --mapping FILE.json`, as PyTorchSim
// accepts from tools like Timeloop); nothing for shapes the file does not name.
#include "library/mapping_strategy.h"

#include "library/plan_support.h"

#include <bit>

namespace npusim::library::detail {

namespace {

class ExternalMapping final : public MappingStrategy {
public:
  std::optional<ConvMapping> choose(const GemmProblem &p, const MachineShape &machine) const override {
    const std::string key = std::to_string(p.m) + "_" + std::to_string(p.n) + "_" + std::to_string(p.k);
    const auto it = machine.mapping.find(key);
    if (it == machine.mapping.end())
      return std::nullopt;
    const GemmTiles &e = it->second;
    for (const auto &[value, field] :
         {std::pair{e.tileM, "TILE_M"}, {e.tileN, "TILE_N"}, {e.tileK, "TILE_K"}})
      if (value < 16 || !std::has_single_bit(static_cast<uint64_t>(value)))
        throw core::InputError(e.where + "." + field + ": " + std::to_string(value) +
                               " is not a power of two of at least 16 (Triton blocks are)");
    ConvMapping t{e.tileM, e.tileN, e.tileK, ceilDiv(p.k, e.tileK) > 1 ? 2 : 1, 0};
    const int64_t budget = mappingBudgetPerLane(machine);
    const int64_t need = mappingBytesPerLane(t, p, machine);
    if (need > budget)
      throw core::InputError(e.where + ": tiles " + std::to_string(e.tileM) + " x " +
                             std::to_string(e.tileN) + " x " + std::to_string(e.tileK) + " need " +
                             std::to_string(need) +
                             " scratchpad bytes per lane, more than half a lane's bank (" +
                             std::to_string(budget) + ", the other half double-buffers)");
    t.cycles = mappingCycles(t, p, machine);
    return t;
  }
};

const bool kExternalRegistered = MappingStrategies::add<ExternalMapping>("external");

} // namespace

} // namespace npusim::library::detail
