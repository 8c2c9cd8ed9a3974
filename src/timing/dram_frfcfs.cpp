// FR-FCFS (first ready, first come first served; Rixner et al., ISCA 2000),
// the detailed DRAM model's default scheduler ("frfcfs"), with a starvation
// limit. docs/dram.md describes the policy.
#include "timing/dram_scheduler.h"

#include <algorithm>
#include <limits>
#include <vector>

namespace npusim::timing {
namespace {

class FrFcfsScheduler final : public DramScheduler {
public:
  /// DRAM cycles the oldest request may wait before younger row hits to its
  /// bank stop passing it (and stop keeping the row open against it).
  static constexpr int64_t kStarvationCycles = 1024;

  explicit FrFcfsScheduler(const config::DramConfig &dram)
      : pendingHits_(static_cast<size_t>(dram.timing.banks()), 0) {}

  DramChoice choose(const DramChannelView &channel, int64_t cycle) override {
    const std::span<const DramQueueEntry> queue = channel.queue;
    const DramCommand column = channel.writes ? DramCommand::Write : DramCommand::Read;
    // A request starved by younger row hits to its bank (say a core rereading one
    // row) takes that bank back: younger hits there wait, and they no longer keep
    // the row open against it. Other banks go on as before.
    starvedBank_ = cycle - queue.front().arrivalCycle > kStarvationCycles ? queue.front().bankIndex : -1;
    // First ready: the oldest request whose row is open and whose column command may go now.
    std::fill(pendingHits_.begin(), pendingHits_.end(), 0);
    for (size_t i = 0; i < queue.size(); ++i) {
      const DramQueueEntry &entry = queue[i];
      if (channel.openRow[static_cast<size_t>(entry.bankIndex)] != entry.location.row ||
          (i > 0 && entry.bankIndex == starvedBank_))
        continue;
      int &hits = pendingHits_[static_cast<size_t>(entry.bankIndex)];
      // An older hit to this bank was not ready: the same command to the same bank is not either.
      if (hits == 0 && channel.timing.ready(column, entry.location.bankGroup, entry.location.bank, cycle))
        return {DramChoice::Kind::Column, i};
      ++hits;
    }
    // First come: the oldest request whose next row command may go now. A row that
    // queued requests still hit is not closed for an older request.
    for (size_t i = 0; i < queue.size(); ++i) {
      const DramQueueEntry &entry = queue[i];
      if (i > 0 && entry.bankIndex == starvedBank_)
        continue;
      const int64_t open = channel.openRow[static_cast<size_t>(entry.bankIndex)];
      const int group = entry.location.bankGroup, bankInGroup = entry.location.bank;
      if (open == entry.location.row)
        continue; // a row hit waiting for its column timing
      if (open == kNoOpenRow) {
        if (channel.timing.ready(DramCommand::Activate, group, bankInGroup, cycle))
          return {DramChoice::Kind::Activate, i};
      } else if (pendingHits_[static_cast<size_t>(entry.bankIndex)] == 0 &&
                 channel.timing.ready(DramCommand::Precharge, group, bankInGroup, cycle)) {
        return {DramChoice::Kind::Precharge, i};
      }
    }
    return {};
  }

  int64_t nextUsefulCycle(const DramChannelView &channel, int64_t cycle) const override {
    // Readiness only grows with time, and only an issued command or an arrival
    // (which wakes the controller) changes what is queued or open.
    int64_t next = std::numeric_limits<int64_t>::max();
    if (starvedBank_ < 0)
      next = channel.queue.front().arrivalCycle + kStarvationCycles + 1;
    const DramCommand column = channel.writes ? DramCommand::Write : DramCommand::Read;
    for (size_t i = 0; i < channel.queue.size(); ++i) {
      const DramQueueEntry &entry = channel.queue[i];
      if (i > 0 && entry.bankIndex == starvedBank_)
        continue;
      const auto bank = static_cast<size_t>(entry.bankIndex);
      const int group = entry.location.bankGroup, bankInGroup = entry.location.bank;
      if (channel.openRow[bank] == entry.location.row)
        next = std::min(next, channel.timing.earliest(column, group, bankInGroup));
      else if (channel.openRow[bank] == kNoOpenRow)
        next = std::min(next, channel.timing.earliest(DramCommand::Activate, group, bankInGroup));
      else if (pendingHits_[bank] == 0)
        next = std::min(next, channel.timing.earliest(DramCommand::Precharge, group, bankInGroup));
      // else: the row waits for its hits, which are in the minimum themselves
    }
    return std::max(next, cycle + 1);
  }

private:
  std::vector<int> pendingHits_; // per bank: queued requests hitting its open row, from choose()
  int starvedBank_ = -1;         // from choose()
};

[[maybe_unused]] const bool kRegistered = DramSchedulers::add<FrFcfsScheduler>("frfcfs");

} // namespace
} // namespace npusim::timing
