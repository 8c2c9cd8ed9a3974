#pragma once
// The fixed-latency DRAM: no banks, no rows. A request completes
// fixedLatencyCycles DRAM cycles after it is accepted, and each channel's data
// bus returns at most one access granule per nBL cycles, so a burst of N
// requests to one channel ends at latency + (N - 1) * nBL. Useful to separate
// what the cores do from what the DRAM does.
#include "timing/dram_model.h"

#include <vector>

namespace npusim::timing {

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

} // namespace npusim::timing
