// FR-FCFS stated request by request, as docs/dram.md words it, registered as
// "frfcfs_reference". The product's "frfcfs" (src/timing/dram_frfcfs.cpp)
// decides per bank; dram_scheduler_test.cpp checks that both give the same
// commands at the same cycles.
#include "timing/memory/dram_scheduler.h"

#include <algorithm>
#include <limits>
#include <vector>

namespace npusim::timing {
namespace {

class ReferenceFrFcfs final : public DramScheduler {
public:
  explicit ReferenceFrFcfs(const config::DramConfig &dram)
      : queuedHits_(static_cast<size_t>(dram.timing.banks())) {}

  DramChoice choose(const DramChannelView &channel, int64_t cycle) override {
    const auto &queue = channel.queue;
    const DramQueueEntry &oldest = queue.front();
    starved_ = cycle - oldest.arrivalCycle > 1024 ? oldest.bankIndex : -1;
    std::fill(queuedHits_.begin(), queuedHits_.end(), 0);
    // Pass 1, first ready: every request in age order; a hit whose column command is ready wins.
    for (size_t i = 0; i < queue.size(); ++i) {
      if (skipped(queue, i) || !hit(channel, queue[i]))
        continue;
      const DramLocation &at = queue[i].location;
      if (channel.timing.ready(columnCommand(channel), at.bankGroup, at.bank, cycle))
        return {DramChoice::Kind::Column, i};
      ++queuedHits_[static_cast<size_t>(queue[i].bankIndex)];
    }
    // Pass 2, first come: every request in age order; its row command, if ready, wins.
    for (size_t i = 0; i < queue.size(); ++i) {
      if (skipped(queue, i) || hit(channel, queue[i]))
        continue;
      const DramLocation &at = queue[i].location;
      const DramCommand command = rowCommand(channel, queue[i]);
      if (command == DramCommand::Precharge && queuedHits_[static_cast<size_t>(queue[i].bankIndex)] > 0)
        continue;
      if (channel.timing.ready(command, at.bankGroup, at.bank, cycle))
        return {command == DramCommand::Activate ? DramChoice::Kind::Activate : DramChoice::Kind::Precharge,
                i};
    }
    return {};
  }

  int64_t nextUsefulCycle(const DramChannelView &channel, int64_t cycle) const override {
    const auto &queue = channel.queue;
    int64_t next = starved_ < 0 ? queue.front().arrivalCycle + 1025 : std::numeric_limits<int64_t>::max();
    for (size_t i = 0; i < queue.size(); ++i) {
      if (skipped(queue, i))
        continue;
      const DramLocation &at = queue[i].location;
      if (hit(channel, queue[i])) {
        next = std::min(next, channel.timing.earliest(columnCommand(channel), at.bankGroup, at.bank));
        continue;
      }
      const DramCommand command = rowCommand(channel, queue[i]);
      if (command == DramCommand::Activate || queuedHits_[static_cast<size_t>(queue[i].bankIndex)] == 0)
        next = std::min(next, channel.timing.earliest(command, at.bankGroup, at.bank));
    }
    return std::max(next, cycle + 1);
  }

private:
  bool skipped(std::span<const DramQueueEntry> queue, size_t i) const {
    return i > 0 && queue[i].bankIndex == starved_;
  }
  static bool hit(const DramChannelView &channel, const DramQueueEntry &entry) {
    return channel.openRow[static_cast<size_t>(entry.bankIndex)] == entry.location.row;
  }
  static DramCommand columnCommand(const DramChannelView &channel) {
    return channel.writes ? DramCommand::Write : DramCommand::Read;
  }
  static DramCommand rowCommand(const DramChannelView &channel, const DramQueueEntry &entry) {
    return channel.openRow[static_cast<size_t>(entry.bankIndex)] == kNoOpenRow ? DramCommand::Activate
                                                                               : DramCommand::Precharge;
  }

  std::vector<int> queuedHits_; // per bank, from the last choose()
  int starved_ = -1;
};

[[maybe_unused]] const bool kReferenceFrFcfsRegistered = DramSchedulers::add<ReferenceFrFcfs>("frfcfs_reference");

} // namespace
} // namespace npusim::timing
