// FR-FCFS (first ready, first come first served; Rixner et al., ISCA 2000),
// the detailed DRAM model's default scheduler ("frfcfs"), with a starvation
// limit. docs/dram.md describes the policy.
//
// The policy is stated per request, but every request of one bank that needs
// the same command is ready exactly when the first of them is, so one pass
// over the queue finds, per bank, its oldest eligible row hit and its oldest
// eligible other request; the choice and the wake-up cycle are then decided
// per bank. tests/timing/dram_scheduler_test.cpp checks this against the
// per-request statement on random request streams.
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
      : banks_(static_cast<size_t>(dram.timing.banks())) {}

  DramChoice choose(const DramChannelView &channel, int64_t cycle) override {
    const std::span<const DramQueueEntry> queue = channel.queue;
    const DramCommand column = channel.writes ? DramCommand::Write : DramCommand::Read;
    // A request starved by younger row hits to its bank (say a core rereading one
    // row) takes that bank back: younger hits there wait, and they no longer keep
    // the row open against it. Other banks go on as before.
    starvedBank_ = cycle - queue.front().arrivalCycle > kStarvationCycles ? queue.front().bankIndex : -1;
    for (Bank &bank : banks_)
      bank = Bank{};
    for (size_t i = 0; i < queue.size(); ++i) {
      const DramQueueEntry &entry = queue[i];
      if (i > 0 && entry.bankIndex == starvedBank_)
        continue;
      Bank &bank = banks_[static_cast<size_t>(entry.bankIndex)];
      if (channel.openRow[static_cast<size_t>(entry.bankIndex)] == entry.location.row) {
        // First ready: the oldest hit of a bank whose column command may go now
        // is the oldest such hit of all.
        if (bank.firstHit == kNone) {
          bank.firstHit = i;
          if (channel.timing.ready(column, entry.location.bankGroup, entry.location.bank, cycle))
            return {DramChoice::Kind::Column, i};
        }
      } else if (bank.firstOther == kNone) {
        bank.firstOther = i;
      }
    }
    // First come: the oldest request whose bank's next row command may go now.
    // A row that queued requests still hit is not closed for an older request.
    DramChoice best;
    size_t bestIndex = kNone;
    for (size_t b = 0; b < banks_.size(); ++b) {
      const Bank &bank = banks_[b];
      if (bank.firstOther == kNone || bank.firstOther > bestIndex)
        continue;
      const DramLocation &location = queue[bank.firstOther].location;
      const bool closed = channel.openRow[b] == kNoOpenRow;
      if (closed ? channel.timing.ready(DramCommand::Activate, location.bankGroup, location.bank, cycle)
                 : bank.firstHit == kNone && channel.timing.ready(DramCommand::Precharge, location.bankGroup,
                                                                  location.bank, cycle)) {
        bestIndex = bank.firstOther;
        best = {closed ? DramChoice::Kind::Activate : DramChoice::Kind::Precharge, bestIndex};
      }
    }
    return best;
  }

  int64_t nextUsefulCycle(const DramChannelView &channel, int64_t cycle) const override {
    // Readiness only grows with time, and only an issued command or an arrival
    // (which wakes the controller) changes what is queued or open.
    int64_t next = std::numeric_limits<int64_t>::max();
    if (starvedBank_ < 0)
      next = channel.queue.front().arrivalCycle + kStarvationCycles + 1;
    const DramCommand column = channel.writes ? DramCommand::Write : DramCommand::Read;
    for (size_t b = 0; b < banks_.size(); ++b) {
      const Bank &bank = banks_[b];
      const size_t any = std::min(bank.firstHit, bank.firstOther);
      if (any == kNone)
        continue;
      const DramLocation &location = channel.queue[any].location;
      const int group = location.bankGroup, bankInGroup = location.bank;
      if (bank.firstHit != kNone)
        next = std::min(next, channel.timing.earliest(column, group, bankInGroup));
      else if (channel.openRow[b] == kNoOpenRow)
        next = std::min(next, channel.timing.earliest(DramCommand::Activate, group, bankInGroup));
      else
        next = std::min(next, channel.timing.earliest(DramCommand::Precharge, group, bankInGroup));
      // A conflict whose row still has hits waits for them, which are in the minimum.
    }
    return std::max(next, cycle + 1);
  }

private:
  static constexpr size_t kNone = std::numeric_limits<size_t>::max();
  struct Bank {
    size_t firstHit = kNone;   // oldest eligible request hitting the open row
    size_t firstOther = kNone; // oldest eligible request needing ACT or PRE
  };
  std::vector<Bank> banks_; // from the last choose()
  int starvedBank_ = -1;    // from the last choose()
};

[[maybe_unused]] const bool kRegistered = DramSchedulers::add<FrFcfsScheduler>("frfcfs");

} // namespace
} // namespace npusim::timing
