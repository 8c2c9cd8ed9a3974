// FR-FCFS (first ready, first come first served; Rixner et al., ISCA 2000),
// the detailed DRAM model's default scheduler ("frfcfs"), with a starvation
// limit. docs/dram.md describes the policy.
//
// The policy is stated per request, but every request of one bank that needs
// the same command is ready exactly when the first of them is, so all that a
// decision needs is, per bank, its oldest row hit and its oldest other
// request. The scheduler keeps that summary for both queues up to date from
// the controller's notifications (an arrival, a removal, a row opened or
// closed), so a decision costs one pass over the banks, not over the queue;
// the starved bank's summary is its one eligible request, the oldest.
// tests/timing/dram_scheduler_test.cpp checks this against the per-request
// statement on random request streams.
#include "timing/dram_scheduler.h"

#include <algorithm>
#include <array>
#include <limits>
#include <vector>

namespace npusim::timing {
namespace {

class FrFcfsScheduler final : public DramScheduler {
public:
  /// DRAM cycles the oldest request may wait before younger row hits to its
  /// bank stop passing it (and stop keeping the row open against it).
  static constexpr int64_t kStarvationCycles = 1024;

  explicit FrFcfsScheduler(const config::DramConfig &dram) {
    for (std::vector<Bank> &queue : summary_)
      queue.resize(static_cast<size_t>(dram.timing.banks()));
  }

  DramChoice choose(const DramChannelView &channel, int64_t cycle) override {
    const DramQueueEntry &oldest = channel.queue.front();
    // A request starved by younger row hits to its bank (say a core rereading one
    // row) takes that bank back: younger hits there wait, and they no longer keep
    // the row open against it. Other banks go on as before.
    starvedBank_ = cycle - oldest.arrivalCycle > kStarvationCycles ? oldest.bankIndex : -1;
    const auto starved = static_cast<size_t>(starvedBank_); // no bank when -1
    const Bank starvedSummary = isHit(channel, oldest) ? Bank{0, kNone} : Bank{kNone, 0};
    const std::vector<Bank> &summary = summary_[channel.writes];
    const int64_t *column =
        channel.timing.earliestOfBanks(channel.writes ? DramCommand::Write : DramCommand::Read);
    const int64_t *activate = channel.timing.earliestOfBanks(DramCommand::Activate);
    const int64_t *precharge = channel.timing.earliestOfBanks(DramCommand::Precharge);
    const int64_t *openRow = channel.openRow.data();
    // One pass, deciding without branching on the data (the banks' states are
    // as good as random, and a mispredicted branch costs more than the work).
    // A bank's one candidate command: the column command of its oldest row
    // hit; without hits, the ACT or PRE of its oldest other request (a row that
    // queued requests still hit is not closed for an older request; a closed
    // row has no hits).
    size_t bestHit = kNone, bestOther = kNone;
    bool otherCloses = false;
    int64_t soonest = kNever;
    for (size_t b = 0; b < summary.size(); ++b) {
      const Bank bank = b == starved ? starvedSummary : summary[b];
      const bool closed = openRow[b] == kNoOpenRow;
      const bool hits = bank.firstHit != kNone;
      const int64_t rowReady = closed ? activate[b] : precharge[b];
      const int64_t ready = hits ? column[b] : bank.firstOther != kNone ? rowReady : kNever;
      soonest = std::min(soonest, ready);
      const bool now = ready <= cycle;
      // First ready: the oldest row hit whose column command may go now.
      bestHit = now & hits & (bank.firstHit < bestHit) ? bank.firstHit : bestHit;
      // First come: the oldest request whose bank's row command may go now.
      const bool betterOther = now & !hits & (bank.firstOther < bestOther);
      bestOther = betterOther ? bank.firstOther : bestOther;
      otherCloses = betterOther ? !closed : otherCloses;
    }
    soonest_ = soonest;
    if (bestHit != kNone)
      return {DramChoice::Kind::Column, bestHit};
    if (bestOther != kNone)
      return {otherCloses ? DramChoice::Kind::Precharge : DramChoice::Kind::Activate, bestOther};
    return {};
  }

  int64_t nextUsefulCycle(const DramChannelView &channel, int64_t cycle) const override {
    // Readiness only grows with time, and only an issued command or an arrival
    // (which wakes the controller) changes what is queued or open; choose()
    // found the soonest candidate command of every bank.
    int64_t next = soonest_;
    if (starvedBank_ < 0)
      next = std::min(next, channel.queue.front().arrivalCycle + kStarvationCycles + 1);
    return std::max(next, cycle + 1);
  }

  void queued(const DramChannelView &channel, size_t index) override {
    const DramQueueEntry &entry = channel.queue[index];
    Bank &bank = summary_[channel.writes][static_cast<size_t>(entry.bankIndex)];
    size_t &first = isHit(channel, entry) ? bank.firstHit : bank.firstOther;
    if (first == kNone)
      first = index;
  }

  void removed(const DramChannelView &channel, size_t index, int bankIndex) override {
    for (Bank &bank : summary_[channel.writes]) {
      bank.firstHit -= bank.firstHit != kNone && bank.firstHit > index ? 1 : 0;
      bank.firstOther -= bank.firstOther != kNone && bank.firstOther > index ? 1 : 0;
    }
    // The removed request was its bank's first of its kind; the next one of that
    // kind is younger, so at or after `index` now.
    Bank &bank = summary_[channel.writes][static_cast<size_t>(bankIndex)];
    if (bank.firstHit == index)
      bank.firstHit = findFrom(channel, index, bankIndex, true);
    if (bank.firstOther == index)
      bank.firstOther = findFrom(channel, index, bankIndex, false);
  }

  void rowChanged(const DramChannelView &reads, const DramChannelView &writes, int bankIndex) override {
    for (const DramChannelView *channel : {&reads, &writes}) {
      Bank &bank = summary_[channel->writes][static_cast<size_t>(bankIndex)];
      if (channel->openRow[static_cast<size_t>(bankIndex)] == kNoOpenRow) {
        bank = closed(bank);
      } else {
        bank.firstHit = findFrom(*channel, 0, bankIndex, true);
        bank.firstOther = findFrom(*channel, 0, bankIndex, false);
      }
    }
  }

  void allRowsClosed() override {
    for (std::vector<Bank> &queue : summary_)
      for (Bank &bank : queue)
        bank = closed(bank);
  }

private:
  static constexpr size_t kNone = std::numeric_limits<size_t>::max();
  static constexpr int64_t kNever = std::numeric_limits<int64_t>::max();
  struct Bank {
    size_t firstHit = kNone;   // oldest request hitting the open row
    size_t firstOther = kNone; // oldest request needing ACT or PRE
  };

  static bool isHit(const DramChannelView &channel, const DramQueueEntry &entry) {
    return channel.openRow[static_cast<size_t>(entry.bankIndex)] == entry.location.row;
  }
  /// With its row closed every request of a bank needs an ACT.
  static Bank closed(const Bank &bank) { return Bank{kNone, std::min(bank.firstHit, bank.firstOther)}; }
  /// The oldest request of `bankIndex` at or after `from` that hits (or misses) its open row.
  static size_t findFrom(const DramChannelView &channel, size_t from, int bankIndex, bool hit) {
    for (size_t i = from; i < channel.queue.size(); ++i) {
      const DramQueueEntry &entry = channel.queue[i];
      if (entry.bankIndex == bankIndex && isHit(channel, entry) == hit)
        return i;
    }
    return kNone;
  }
  std::array<std::vector<Bank>, 2> summary_; // [writes][bank index]
  int64_t soonest_ = kNever;                 // from the last choose(): its banks' soonest candidate command
  int starvedBank_ = -1;                     // from the last choose()
};

[[maybe_unused]] const bool kRegistered = DramSchedulers::add<FrFcfsScheduler>("frfcfs");

} // namespace
} // namespace npusim::timing
