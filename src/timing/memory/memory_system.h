#pragma once
// The memory side of the timing simulator, built from the hardware config:
// the NoC model NocConfig::model names in front of the DRAM model
// DramConfig::model names. The cores' DMA engines talk to the returned port only.
#include "config/hardware.h"
#include "timing/event_queue.h"
#include "timing/memory/dram_model.h"
#include "timing/memory_port.h"
#include "timing/registry.h"

#include <memory>

namespace npusim::timing {

/// A NoC model is a MemoryPort towards the cores, built around the DRAM model
/// it owns. Adding one is one .cpp file and the line
///   const bool kRegistered = NocModels::add<MyNoc>("my_noc");
using NocModels =
    Registry<MemoryPort, const config::HardwareConfig &, EventQueue &, std::unique_ptr<DramModel>>;

/// Throws core::InputError on an inconsistent NoC or DRAM configuration or a
/// model name nobody registered.
std::unique_ptr<MemoryPort> makeMemorySystem(const config::HardwareConfig &hardware, EventQueue &events);
/// The DRAM model DramConfig::model names, alone (for tests and benchmarks).
std::unique_ptr<DramModel> makeDramModel(const config::DramConfig &dram, EventQueue &events);

} // namespace npusim::timing
