// MachineShape from a hardware description: the one place the library's
// estimates learn the machine's sizes and latencies (src/machine).
#include "library/library.h"
#include "machine/latencies.h"

#include <algorithm>

namespace npusim::library {

namespace {

// The default preset's DRAM round trip, read once.
double defaultDramLatencyCycles() {
  static const double cycles = machine::dramRoundTripCycles(config::defaultConfig());
  return cycles;
}

} // namespace

MachineShape::MachineShape(int lanes_, int64_t spadBytesPerLane_, int vlenBits_)
    : lanes(lanes_), spadBytesPerLane(spadBytesPerLane_), vlenBits(vlenBits_),
      dramLatencyCycles(defaultDramLatencyCycles()), dmaRequestBytes(config::defaultConfig().dmaRequestBytes) {}

double MachineShape::arrayPassOverheadCycles() const {
  return static_cast<double>(machine::arrayPassOverheadCycles(lanes));
}

MachineShape machineShapeOf(const config::HardwareConfig &machine) {
  MachineShape shape{machine.lanes, machine.spadBytesPerLane(), machine.vlenBits};
  shape.systolicArrays = machine.systolicArraysPerCore;
  shape.cores = std::max(1, machine.numCores);
  shape.dramBytesPerCycle =
      machine.dram.peakBytesPerSecond() / std::max(1, machine.numCores) / (machine.coreFreqMhz * 1e6);
  shape.dramLatencyCycles = machine::dramRoundTripCycles(machine);
  shape.dmaRequestBytes = machine.dmaRequestBytes;
  return shape;
}

} // namespace npusim::library
