#include "timing/dram_fixed.h"

#include "core/error.h"

#include <algorithm>

namespace npusim::timing {

FixedLatencyDram::FixedLatencyDram(const config::DramConfig &dram, EventQueue &events)
    : DramModel(dram, events), clockPs_(dramClockPeriodPs(dram)), latencyCycles_(dram.fixedLatencyCycles),
      burstCycles_(dram.timing.burstCycles), queueEntries_(dram.queueEntries),
      channels_(static_cast<size_t>(dram.channels)) {
  if (latencyCycles_ < 0 || burstCycles_ <= 0 || queueEntries_ <= 0)
    throw core::InputError("dram: fixedLatencyCycles must not be negative, burst cycles and "
                           "queueEntries must be positive");
}

int FixedLatencyDram::freeEntries(int channel, bool write) const {
  const Channel &state = channels_.at(static_cast<size_t>(channel));
  return queueEntries_ - (write ? state.outstandingWrites : state.outstandingReads);
}

bool FixedLatencyDram::canAccept(const MemoryRequest &request) const {
  return freeEntries(locate(request).channel, request.write) > 0;
}

void FixedLatencyDram::accept(const MemoryRequest &request) {
  const DramLocation location = locate(request);
  Channel &channel = channels_[static_cast<size_t>(location.channel)];
  int &outstanding = request.write ? channel.outstandingWrites : channel.outstandingReads;
  if (outstanding >= queueEntries_)
    throw core::RuntimeError("fixed-latency DRAM: request " + std::to_string(request.id) +
                             " sent to a full queue (check canAccept first)");
  ++outstanding;
  // Accepted on the next DRAM clock edge (or this one).
  const int64_t acceptCycle = (events_.now() + clockPs_ - 1) / clockPs_;
  const int64_t completionCycle =
      std::max(acceptCycle + latencyCycles_, channel.lastCompletionCycle + burstCycles_);
  channel.lastCompletionCycle = completionCycle;
  const TimePs completion = completionCycle * clockPs_;

  if (request.write) {
    ++stats_.writes;
    stats_.bytesWritten += request.bytes;
  } else {
    ++stats_.reads;
    stats_.bytesRead += request.bytes;
  }
  stats_.busyUntil = std::max(stats_.busyUntil, completion);
  events_.schedule(completion, [this, request, completion] {
    Channel &done = channels_[static_cast<size_t>(mapper_.decode(request.address).channel)];
    --(request.write ? done.outstandingWrites : done.outstandingReads);
    notifyEntryFreed();
    notifyCompletion(request, completion);
  });
}

} // namespace npusim::timing
