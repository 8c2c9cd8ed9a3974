#pragma once
// The energy model: joules from the timing simulator's counts. A launch's
// energy is a pure function of what its units did (timing::Activity, DRAM and
// NoC statistics), how long they were busy, the machine and an energy table;
// it adds up over launches and steps. docs/energy.md gives every formula.
#include "config/hardware.h"
#include "energy/table.h"
#include "timing/simulator.h"

#include <array>
#include <cstdint>
#include <string_view>

namespace npusim::energy {

/// Where energy goes. The first five are the units of machine::UnitKind;
/// Core is what a powered core draws besides them (clocks, control).
enum class Part : uint8_t { Scalar, Dma, Vector, CrossLane, Systolic, Scratchpad, Noc, Dram, Core };
inline constexpr int kNumParts = 9;
std::string_view partName(Part part);

struct Energy {
  std::array<double, kNumParts> dynamicPj{}; // Part order
  std::array<double, kNumParts> staticPj{};
  /// The DRAM's dynamic energy in its three terms (their sum is dynamicPj[Dram]).
  double dramActivatePj = 0, dramTransferPj = 0, dramRefreshPj = 0;
  timing::TimePs timePs = 0;
  /// MACs of dtypes the table has no figure for: charged nothing, reported.
  int64_t unpricedMacs = 0;
  /// DRAM requests served by a model without row statistics (fixed_latency):
  /// their activations are not charged, and the report says so.
  int64_t requestsWithoutRowStatistics = 0;

  double dynamicTotalPj() const;
  double staticTotalPj() const;
  double totalPj() const { return dynamicTotalPj() + staticTotalPj(); }
  double partPj(Part part) const {
    return dynamicPj[static_cast<size_t>(part)] + staticPj[static_cast<size_t>(part)];
  }
  /// Average power over timePs, watts (pJ / ps = W); 0 for no time.
  double averageWatts() const;
  /// Adds another launch's (or step's) energy and time: the two ran one after the other.
  void add(const Energy &other);
};

/// The energy of one launch on `config` priced by `table`.
/// Dynamic: each count times its table entry. Static: each unit's power over
/// the launch's time; with config.energyClockGating, an idle unit (scalar,
/// DMA, vector, cross-lane, systolic) draws table.gatedIdleFraction of it.
Energy estimate(const timing::LaunchTiming &launch, const config::HardwareConfig &config, const Table &table);

} // namespace npusim::energy
