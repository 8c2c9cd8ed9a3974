#pragma once
// The memory side of the timing simulator, built from the hardware config:
// a crossbar NoC in front of the DRAM model DramConfig::model names. The cores'
// DMA engines talk to the returned port only.
#include "config/hardware.h"
#include "timing/event_queue.h"
#include "timing/memory_port.h"

#include <memory>

namespace npusim::timing {

/// Throws core::InputError on an inconsistent NoC or DRAM configuration.
std::unique_ptr<MemoryPort> makeMemorySystem(const config::HardwareConfig &hardware, EventQueue &events);

} // namespace npusim::timing
