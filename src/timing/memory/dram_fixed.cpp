// The fixed-latency DRAM: no banks, no rows. A request completes
// fixedLatencyCycles DRAM cycles after it is accepted, and each channel's data
// bus returns at most one access granule per nBL cycles, so a burst of N
// requests to one channel ends at latency + (N - 1) * nBL. Useful to separate
// what the cores do from what the DRAM does.
// Registered as "fixed_latency".
#include "timing/memory/dram_model.h"

#include "core/error.h"

#include <algorithm>
#include <vector>

namespace npusim::timing {
namespace {

class FixedLatencyDram final : public DramModel {
public:
  FixedLatencyDram(const config::DramConfig &dram, EventQueue &events);

  bool canAccept(const MemoryRequest &request) const override;
  void accept(const MemoryRequest &request) override;
  MemoryStats stats() const override { return stats_; }
  int freeEntries(int channel, bool write) const override;

private:
  struct Channel {
    int outstandingReads = 0, outstandingWrites = 0;
    int64_t lastCompletionCycle = -1; // the data bus is busy for nBL cycles before each completion
  };
  TimePs clockPs_;
  int latencyCycles_, burstCycles_, queueEntries_;
  std::vector<Channel> channels_;
  MemoryStats stats_;
};

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

  stats_.countCompleted(request, completion);
  events_.schedule(completion, [this, request, completion] {
    Channel &done = channels_[static_cast<size_t>(mapper_.decode(request.address).channel)];
    --(request.write ? done.outstandingWrites : done.outstandingReads);
    notifyEntryFreed();
    notifyCompletion(request, completion);
  });
}

[[maybe_unused]] const bool kFixedLatencyRegistered = DramModels::add<FixedLatencyDram>("fixed_latency");

} // namespace
} // namespace npusim::timing
