// The energy model's formulas, docs/energy.md ("Model") in code.
#include "energy/energy.h"

#include <algorithm>
#include <numeric>

namespace npusim::energy {

std::string_view partName(Part part) {
  switch (part) {
  case Part::Scalar: return "scalar";
  case Part::Dma: return "dma";
  case Part::Vector: return "vector";
  case Part::CrossLane: return "cross-lane";
  case Part::Systolic: return "systolic";
  case Part::Scratchpad: return "scratchpad";
  case Part::Noc: return "noc";
  case Part::Dram: return "dram";
  case Part::Core: return "core";
  }
  return "?";
}

double Energy::dynamicTotalPj() const { return std::accumulate(dynamicPj.begin(), dynamicPj.end(), 0.0); }
double Energy::staticTotalPj() const { return std::accumulate(staticPj.begin(), staticPj.end(), 0.0); }

double Energy::averageWatts() const {
  return timePs > 0 ? totalPj() / static_cast<double>(timePs) : 0.0;
}

void Energy::add(const Energy &other) {
  for (size_t i = 0; i < dynamicPj.size(); ++i) {
    dynamicPj[i] += other.dynamicPj[i];
    staticPj[i] += other.staticPj[i];
  }
  dramActivatePj += other.dramActivatePj;
  dramTransferPj += other.dramTransferPj;
  dramRefreshPj += other.dramRefreshPj;
  timePs += other.timePs;
  unpricedMacs += other.unpricedMacs;
  requestsWithoutRowStatistics += other.requestsWithoutRowStatistics;
}

Energy estimate(const timing::LaunchTiming &launch, const config::HardwareConfig &config, const Table &table) {
  Energy e;
  e.timePs = launch.timePs;
  const timing::Activity &a = launch.activity;
  auto dynamic = [&e](Part part) -> double & { return e.dynamicPj[static_cast<size_t>(part)]; };
  auto count = [](int64_t n) { return static_cast<double>(n); };

  for (size_t dtype = 0; dtype < a.macsByDtype.size(); ++dtype) {
    if (a.macsByDtype[dtype] == 0)
      continue;
    if (table.macPj[dtype])
      dynamic(Part::Systolic) += count(a.macsByDtype[dtype]) * *table.macPj[dtype];
    else
      e.unpricedMacs += a.macsByDtype[dtype];
  }
  for (size_t cls = 0; cls < a.vectorOpsByClass.size(); ++cls)
    dynamic(Part::Vector) += count(a.vectorOpsByClass[cls]) * table.vectorOpPj[cls];
  dynamic(Part::CrossLane) = count(a.crossLaneOps) * table.crossLaneOpPj;
  dynamic(Part::Scalar) = count(a.scalarInstructions) * table.scalarInstructionPj;
  dynamic(Part::Scratchpad) =
      count(a.spadBytesRead) * table.spadReadPjPerByte + count(a.spadBytesWritten) * table.spadWritePjPerByte;
  dynamic(Part::Dma) = count(a.dmaDescriptors) * table.dmaDescriptorPj;
  dynamic(Part::Noc) = count(launch.memory.nocFlitHops) * table.nocFlitHopPj;

  const timing::MemoryStats &m = launch.memory;
  const int64_t rowAccesses = m.rowHits + m.rowMisses + m.rowConflicts;
  if (rowAccesses == 0)
    e.requestsWithoutRowStatistics = m.reads + m.writes;
  // A miss opens a row in a precharged bank, a conflict closes one and opens
  // another: one activation each.
  e.dramActivatePj = count(m.rowMisses + m.rowConflicts) * table.dramActivatePj;
  e.dramTransferPj =
      count(m.bytesRead) * 8.0 * table.dramReadPjPerBit + count(m.bytesWritten) * 8.0 * table.dramWritePjPerBit;
  e.dramRefreshPj = count(m.refreshes) * table.dramRefreshPj;
  dynamic(Part::Dram) = e.dramActivatePj + e.dramTransferPj + e.dramRefreshPj;

  // Static: mW x ps = 1e-15 J = 1e-3 pJ.
  const double time = static_cast<double>(launch.timePs);
  const double cores = config.numCores;
  const double lanes = config.lanes;
  const double gated = config.energyClockGating != 0 ? table.gatedIdleFraction : 1.0;
  const StaticPower &p = table.staticMw;
  auto unit = [&](Part part, machine::UnitKind kind, double milliwatts) {
    const double busy = launch.busy(kind) / 100.0; // of the launch, averaged over cores (and arrays)
    e.staticPj[static_cast<size_t>(part)] = milliwatts * time * 1e-3 * (busy + (1.0 - busy) * gated);
  };
  unit(Part::Scalar, machine::UnitKind::Scalar, p.scalar * cores);
  unit(Part::Dma, machine::UnitKind::Dma, p.dma * cores);
  unit(Part::Vector, machine::UnitKind::Vector, p.vectorPerLane * lanes * cores);
  unit(Part::CrossLane, machine::UnitKind::CrossLane, p.crossLanePerLane * lanes * cores);
  unit(Part::Systolic, machine::UnitKind::Systolic,
       p.systolicPerPe * lanes * lanes * std::max(1, config.systolicArraysPerCore) * cores);
  auto always = [&](Part part, double milliwatts) {
    e.staticPj[static_cast<size_t>(part)] = milliwatts * time * 1e-3;
  };
  const double spadMib = static_cast<double>(config.spadBytesPerLane()) * lanes / (1024.0 * 1024.0);
  always(Part::Scratchpad, p.spadPerMib * spadMib * cores);
  always(Part::Noc, p.nocPerPort * (cores * config.noc.portsPerCore + config.dram.channels));
  always(Part::Dram, p.dramPerChannel * config.dram.channels);
  always(Part::Core, p.core * cores);
  return e;
}

} // namespace npusim::energy
