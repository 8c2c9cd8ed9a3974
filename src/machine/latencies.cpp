#include "machine/latencies.h"

namespace npusim::machine {

double dramRoundTripCycles(const config::HardwareConfig &machine) {
  const config::DramTiming &t = machine.dram.timing;
  const double dramPs =
      static_cast<double>(t.nRCDRead + t.nCL + t.burstCycles) * static_cast<double>(machine.dram.clockPeriodPs());
  return 2.0 * machine.noc.latencyCycles + dramPs * 1e-6 * machine.coreFreqMhz;
}

} // namespace npusim::machine
