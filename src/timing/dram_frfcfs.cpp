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
    eligible_.resize(static_cast<size_t>(dram.timing.banks()));
  }

  DramChoice choose(const DramChannelView &channel, int64_t cycle) override {
    const std::span<const DramQueueEntry> queue = channel.queue;
    // A request starved by younger row hits to its bank (say a core rereading one
    // row) takes that bank back: younger hits there wait, and they no longer keep
    // the row open against it. Other banks go on as before.
    starvedBank_ = cycle - queue.front().arrivalCycle > kStarvationCycles ? queue.front().bankIndex : -1;
    const Bank *banks = eligible(channel);
    const size_t count = eligible_.size();
    // The loops decide without branching on the data: the banks' states are
    // as good as random, and a mispredicted branch costs more than the work.
    // First ready: the oldest row hit whose column command may go now.
    const int64_t *column =
        channel.timing.earliestOfBanks(channel.writes ? DramCommand::Write : DramCommand::Read);
    size_t bestHit = kNone;
    for (size_t b = 0; b < count; ++b) {
      const bool better = banks[b].firstHit < bestHit && column[b] <= cycle;
      bestHit = better ? banks[b].firstHit : bestHit;
    }
    if (bestHit != kNone)
      return {DramChoice::Kind::Column, bestHit};
    // First come: the oldest request whose bank's next row command may go now.
    // A row that queued requests still hit is not closed for an older request.
    const int64_t *activate = channel.timing.earliestOfBanks(DramCommand::Activate);
    const int64_t *precharge = channel.timing.earliestOfBanks(DramCommand::Precharge);
    const int64_t *openRow = channel.openRow.data();
    size_t bestIndex = kNone;
    bool bestCloses = false;
    for (size_t b = 0; b < count; ++b) {
      const bool closed = openRow[b] == kNoOpenRow;
      const bool ready =
          closed ? activate[b] <= cycle : (banks[b].firstHit == kNone) & (precharge[b] <= cycle);
      const bool better = ready & (banks[b].firstOther < bestIndex);
      bestIndex = better ? banks[b].firstOther : bestIndex;
      bestCloses = better ? !closed : bestCloses;
    }
    if (bestIndex == kNone)
      return {};
    return {bestCloses ? DramChoice::Kind::Precharge : DramChoice::Kind::Activate, bestIndex};
  }

  int64_t nextUsefulCycle(const DramChannelView &channel, int64_t cycle) const override {
    // Readiness only grows with time, and only an issued command or an arrival
    // (which wakes the controller) changes what is queued or open.
    int64_t next = std::numeric_limits<int64_t>::max();
    if (starvedBank_ < 0)
      next = channel.queue.front().arrivalCycle + kStarvationCycles + 1;
    const Bank *banks = eligible_.data();
    const int64_t *column =
        channel.timing.earliestOfBanks(channel.writes ? DramCommand::Write : DramCommand::Read);
    const int64_t *activate = channel.timing.earliestOfBanks(DramCommand::Activate);
    const int64_t *precharge = channel.timing.earliestOfBanks(DramCommand::Precharge);
    const int64_t *openRow = channel.openRow.data();
    for (size_t b = 0; b < eligible_.size(); ++b) {
      // A conflict whose row still has hits waits for them, which are in the minimum.
      const int64_t rowCommand = openRow[b] == kNoOpenRow ? activate[b] : precharge[b];
      const int64_t other = banks[b].firstOther != kNone ? rowCommand : std::numeric_limits<int64_t>::max();
      next = std::min(next, banks[b].firstHit != kNone ? column[b] : other);
    }
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
  /// The summaries of the banks over the requests that may be scheduled: for
  /// the starved bank only the oldest request. Valid until the next call.
  const Bank *eligible(const DramChannelView &channel) {
    const std::vector<Bank> &summary = summary_[channel.writes];
    std::copy(summary.begin(), summary.end(), eligible_.begin());
    if (starvedBank_ >= 0)
      eligible_[static_cast<size_t>(starvedBank_)] =
          isHit(channel, channel.queue.front()) ? Bank{0, kNone} : Bank{kNone, 0};
    return eligible_.data();
  }

  std::array<std::vector<Bank>, 2> summary_; // [writes][bank index]
  std::vector<Bank> eligible_;               // from the last choose()
  int starvedBank_ = -1;                     // from the last choose()
};

[[maybe_unused]] const bool kRegistered = DramSchedulers::add<FrFcfsScheduler>("frfcfs");

} // namespace
} // namespace npusim::timing
