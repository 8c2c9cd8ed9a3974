#include "timing/memory_system.h"

#include "timing/dram_detailed.h"
#include "timing/dram_fixed.h"
#include "timing/noc.h"

namespace npusim::timing {

namespace {

std::unique_ptr<DramModel> makeDram(const config::DramConfig &dram, EventQueue &events) {
  switch (dram.model) {
  case config::DramModelKind::FixedLatency:
    return std::make_unique<FixedLatencyDram>(dram, events);
  case config::DramModelKind::Detailed:
    break;
  }
  return std::make_unique<DetailedDram>(dram, events);
}

} // namespace

std::unique_ptr<MemoryPort> makeMemorySystem(const config::HardwareConfig &hardware, EventQueue &events) {
  return std::make_unique<CrossbarNoc>(hardware, events, makeDram(hardware.dram, events));
}

} // namespace npusim::timing
