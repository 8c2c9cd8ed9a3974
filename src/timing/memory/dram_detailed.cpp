#include "timing/memory/dram_detailed.h"

#include <algorithm>

namespace npusim::timing {

DetailedDram::DetailedDram(const config::DramConfig &dram, EventQueue &events)
    : DramModel(dram, events), clockPs_(dramClockPeriodPs(dram)), logs_(static_cast<size_t>(dram.channels)) {
  DramController::Callbacks callbacks{
      [this](const MemoryRequest &request, TimePs at) { notifyCompletion(request, at); },
      [this] { notifyEntryFreed(); }};
  for (int channel = 0; channel < dram.channels; ++channel)
    controllers_.push_back(std::make_unique<DramController>(dram, events, clockPs_, callbacks));
}

bool DetailedDram::canAccept(const MemoryRequest &request) const {
  return controllers_[static_cast<size_t>(locate(request).channel)]->freeEntries(request.write) > 0;
}

void DetailedDram::accept(const MemoryRequest &request) {
  const DramLocation location = locate(request);
  controllers_[static_cast<size_t>(location.channel)]->enqueue(request, location);
}

int DetailedDram::freeEntries(int channel, bool write) const {
  return controllers_.at(static_cast<size_t>(channel))->freeEntries(write);
}

MemoryStats DetailedDram::stats() const {
  MemoryStats total;
  for (const auto &controller : controllers_) {
    const MemoryStats &each = controller->stats();
    total.addCounts(each);
    total.busyUntil = std::max(total.busyUntil, each.busyUntil);
  }
  return total;
}

void DetailedDram::recordCommands(bool on) {
  for (size_t channel = 0; channel < controllers_.size(); ++channel)
    controllers_[channel]->recordCommands(on ? &logs_[channel] : nullptr);
}

const std::vector<DramCommandRecord> &DetailedDram::commandLog(int channel) const {
  return logs_.at(static_cast<size_t>(channel));
}

namespace {
[[maybe_unused]] const bool kDetailedRegistered = DramModels::add<DetailedDram>("detailed");
} // namespace

} // namespace npusim::timing
