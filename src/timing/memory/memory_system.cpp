#include "timing/memory/memory_system.h"

namespace npusim::timing {

std::unique_ptr<DramModel> makeDramModel(const config::DramConfig &dram, EventQueue &events) {
  return DramModels::make("dram_model", dram.model, dram, events);
}

std::unique_ptr<MemoryPort> makeMemorySystem(const config::HardwareConfig &hardware, EventQueue &events) {
  return NocModels::make("noc_model", hardware.noc.model, hardware, events,
                         makeDramModel(hardware.dram, events));
}

} // namespace npusim::timing
