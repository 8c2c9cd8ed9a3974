#include "timing/memory/dram_model.h"

#include "core/error.h"

#include <cmath>

namespace npusim::timing {

TimePs dramClockPeriodPs(const config::DramConfig &dram) { return dram.clockPeriodPs(); }


DramLocation DramModel::locate(const MemoryRequest &request) const {
  const uint64_t granule = mapper_.granuleBytes();
  if (request.bytes == 0 || request.bytes > granule ||
      request.address / granule != (request.address + request.bytes - 1) / granule)
    throw core::RuntimeError("DRAM request " + std::to_string(request.id) + " (address " +
                             std::to_string(request.address) + ", " + std::to_string(request.bytes) +
                             " bytes) must lie within one " + std::to_string(granule) +
                             "-byte access granule");
  return mapper_.decode(request.address);
}

void DramModel::notifyEntryFreed() {
  if (retryScheduled_ || !retry_)
    return;
  retryScheduled_ = true;
  events_.schedule(events_.now(), [this] {
    retryScheduled_ = false;
    retry_();
  });
}

void DramModel::notifyCompletion(const MemoryRequest &request, TimePs at) {
  events_.schedule(at, [this, request, at] {
    if (complete_)
      complete_(request, at);
  });
}

} // namespace npusim::timing
