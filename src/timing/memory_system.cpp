#include "timing/memory_system.h"

#include "timing/dram_fixed.h"
#include "timing/noc.h"

namespace npusim::timing {

namespace {

std::unique_ptr<DramModel> makeDram(const config::DramConfig &dram, EventQueue &events) {
  switch (dram.model) {
  case config::DramModelKind::FixedLatency:
  case config::DramModelKind::Detailed: // the detailed model replaces this once it lands
    return std::make_unique<FixedLatencyDram>(dram, events);
  }
  return std::make_unique<FixedLatencyDram>(dram, events);
}

} // namespace

std::unique_ptr<MemoryPort> makeMemorySystem(const config::HardwareConfig &hardware, EventQueue &events) {
  return std::make_unique<CrossbarNoc>(hardware, events, makeDram(hardware.dram, events));
}

} // namespace npusim::timing
