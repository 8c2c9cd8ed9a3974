// FR-FCFS (first ready, first come first served; Rixner et al., ISCA 2000),
// the detailed DRAM model's default scheduler ("frfcfs"), with a starvation
// limit. docs/dram.md describes the policy.
//
// The policy is stated per request, but every request of one bank that needs
// the same command is ready exactly when the first of them is, so all that a
// decision needs is, per bank, its oldest row hit and its oldest other
// request. The scheduler keeps that summary for both queues up to date from
// the controller's notifications (an arrival, a removal, a row opened or
// closed), so a decision costs one pass over the banks that have requests
// (one when streaming), not over the queue;
// the starved bank's summary is its one eligible request, the oldest.
// tests/timing/dram_scheduler_test.cpp checks this against the per-request
// statement on random request streams.
#include "timing/memory/dram_scheduler.h"

#include "core/error.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace npusim::timing {
namespace {

class FrFcfsScheduler final : public DramScheduler {
public:
  explicit FrFcfsScheduler(const config::DramConfig &dram)
      : banks_(static_cast<size_t>(dram.timing.banks())) {
    if (banks_ * kDramCommandCount > std::numeric_limits<uint16_t>::max())
      throw core::InputError("DRAM scheduler frfcfs: " + std::to_string(banks_) +
                             " banks per channel, at most " +
                             std::to_string(std::numeric_limits<uint16_t>::max() / kDramCommandCount));
    for (std::vector<Bank> &queue : summary_)
      queue.resize(static_cast<size_t>(dram.timing.banks()));
    for (std::vector<uint64_t> &queue : queuedBanks_)
      queue.resize((static_cast<size_t>(dram.timing.banks()) + 63) / 64);
  }

  DramChoice choose(const DramChannelView &channel, int64_t cycle) override {
    const DramQueueEntry &oldest = channel.queue.front();
    // A request starved by younger row hits to its bank (say a core rereading one
    // row) takes that bank back: younger hits there wait, and they no longer keep
    // the row open against it. Other banks go on as before.
    starvedBank_ = cycle - oldest.arrivalCycle > kStarvationCycles ? oldest.bankIndex : -1;
    std::vector<Bank> &summary = summary_[channel.writes];
    // The starved bank's summary stands in for its own during the pass.
    Bank starvedSaved;
    if (starvedBank_ >= 0) {
      Bank &starved = summary[static_cast<size_t>(starvedBank_)];
      starvedSaved = starved;
      const Position front = base_[channel.writes];
      starved = isHit(channel, oldest) ? Bank{front, kNone} : Bank{kNone, front};
      derive(starved, channel.openRow[static_cast<size_t>(oldest.bankIndex)] == kNoOpenRow, channel.writes,
             static_cast<size_t>(starvedBank_));
    }
    // One pass over the banks with requests, deciding without branching on the
    // data (the banks' states are as good as random, and a mispredicted branch
    // costs more than the work).
    const int64_t *earliest = channel.timing.earliestOfBanks();
    const int64_t *floors = channel.timing.channelFloors();
    Position bestHit = kNone, bestOther = kNone;
    bool otherCloses = false;
    int64_t soonest = kNever;
    forEachQueuedBank(channel.writes, [&](size_t b) {
      const Bank &bank = summary[b];
      const int64_t ready = std::max(earliest[bank.readyIndex], floors[static_cast<size_t>(bank.command)]);
      soonest = std::min(soonest, ready);
      const bool now = ready <= cycle;
      // First ready: the oldest row hit whose column command may go now.
      bestHit = now & bank.hit & (bank.candidate < bestHit) ? bank.candidate : bestHit;
      // First come: the oldest request whose bank's row command may go now.
      const bool betterOther = now & !bank.hit & (bank.candidate < bestOther);
      bestOther = betterOther ? bank.candidate : bestOther;
      otherCloses = betterOther ? bank.command == DramCommand::Precharge : otherCloses;
    });
    if (starvedBank_ >= 0)
      summary[static_cast<size_t>(starvedBank_)] = starvedSaved;
    soonest_ = soonest;
    const Position base = base_[channel.writes];
    if (bestHit != kNone)
      return {DramChoice::Kind::Column, bestHit - base};
    if (bestOther != kNone)
      return {otherCloses ? DramChoice::Kind::Precharge : DramChoice::Kind::Activate, bestOther - base};
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
    if (index >= kMaxQueued)
      throw core::InputError("DRAM scheduler frfcfs: more than " + std::to_string(kMaxQueued) +
                             " queued requests");
    const DramQueueEntry &entry = channel.queue[index];
    Bank &bank = summary_[channel.writes][static_cast<size_t>(entry.bankIndex)];
    Position &first = isHit(channel, entry) ? bank.firstHit : bank.firstOther;
    if (first == kNone)
      first = static_cast<Position>(index) + base_[channel.writes];
    derive(bank, channel.openRow[static_cast<size_t>(entry.bankIndex)] == kNoOpenRow, channel.writes,
           static_cast<size_t>(entry.bankIndex));
    queuedBanks_[channel.writes][static_cast<size_t>(entry.bankIndex) / 64] |= uint64_t{1}
                                                                               << (entry.bankIndex % 64);
  }

  void removed(const DramChannelView &channel, size_t removedIndex, int bankIndex) override {
    Position &base = base_[channel.writes];
    const Position index = static_cast<Position>(removedIndex) + base;
    std::vector<Bank> &summary = summary_[channel.writes];
    if (removedIndex == 0) {
      // Every request moved down by one: the positions stay, their base moves.
      ++base;
    } else {
      forEachQueuedBank(channel.writes, [&](size_t b) {
        Bank &each = summary[b];
        each.firstHit -= each.firstHit != kNone && each.firstHit > index ? 1 : 0;
        each.firstOther -= each.firstOther != kNone && each.firstOther > index ? 1 : 0;
        each.candidate -= each.candidate > index ? 1 : 0; // a bank with requests has a candidate
      });
    }
    // The removed request was its bank's first of its kind; the next one of that
    // kind is younger, so at or after `index` now.
    Bank &bank = summary_[channel.writes][static_cast<size_t>(bankIndex)];
    if (bank.firstHit == index)
      bank.firstHit = findFrom(channel, removedIndex, bankIndex, true);
    if (bank.firstOther == index)
      bank.firstOther = findFrom(channel, removedIndex, bankIndex, false);
    derive(bank, channel.openRow[static_cast<size_t>(bankIndex)] == kNoOpenRow, channel.writes,
           static_cast<size_t>(bankIndex));
    if (bank.firstHit == kNone && bank.firstOther == kNone)
      queuedBanks_[channel.writes][static_cast<size_t>(bankIndex) / 64] &= ~(uint64_t{1} << (bankIndex % 64));
    if (base >= kRebaseAt)
      rebase(channel.writes);
  }

  void rowChanged(const DramChannelView &reads, const DramChannelView &writes, int bankIndex) override {
    for (const DramChannelView *channel : {&reads, &writes}) {
      Bank &bank = summary_[channel->writes][static_cast<size_t>(bankIndex)];
      const bool isClosed = channel->openRow[static_cast<size_t>(bankIndex)] == kNoOpenRow;
      if (isClosed) {
        bank = closed(bank);
      } else {
        bank.firstHit = findFrom(*channel, 0, bankIndex, true);
        bank.firstOther = findFrom(*channel, 0, bankIndex, false);
      }
      derive(bank, isClosed, channel->writes, static_cast<size_t>(bankIndex));
    }
  }

  void allRowsClosed() override {
    for (size_t writes = 0; writes < 2; ++writes)
      for (size_t b = 0; b < banks_; ++b) {
        Bank &bank = summary_[writes][b];
        bank = closed(bank);
        derive(bank, true, writes == 1, b);
      }
  }

private:
  // Queue positions as 32 bits keep a bank's summary in 16 bytes: the
  // decision's pass over the banks is bound by loading them.
  // A position is the request's queue index plus its queue's base (base_):
  // removing the oldest request, as streaming does, moves the base instead of
  // every bank's positions.
  using Position = uint32_t;
  static constexpr Position kNone = std::numeric_limits<Position>::max();
  static constexpr Position kMaxQueued = Position{1} << 30;
  // Often enough that the random-stream tests move bases back, rarely enough
  // to cost nothing (one pass over the banks per 1024 removals).
  static constexpr Position kRebaseAt = 1024;
  static_assert(kRebaseAt + kMaxQueued < kNone);
  static constexpr int64_t kNever = std::numeric_limits<int64_t>::max();
  struct Bank {
    Position firstHit = kNone;   // oldest request hitting the open row
    Position firstOther = kNone; // oldest request needing ACT or PRE
    // The bank's one candidate command, from the two: the column command of
    // its oldest row hit; without hits, the ACT or PRE of its oldest other
    // request (a row that queued requests still hit is not closed for an
    // older request; a closed row has no hits). Meaningless without requests.
    Position candidate = kNone;
    // Of the candidate command's bound in DramTimingState::earliestOfBanks().
    uint16_t readyIndex = 0;
    DramCommand command = DramCommand::Activate;
    bool hit = false;
  };
  static_assert(sizeof(Bank) == 16);

  static bool isHit(const DramChannelView &channel, const DramQueueEntry &entry) {
    return channel.openRow[static_cast<size_t>(entry.bankIndex)] == entry.location.row;
  }
  /// With its row closed every request of a bank needs an ACT.
  static Bank closed(const Bank &bank) { return Bank{kNone, std::min(bank.firstHit, bank.firstOther)}; }
  void derive(Bank &bank, bool rowClosed, bool writes, size_t bankIndex) const {
    bank.hit = bank.firstHit != kNone;
    bank.candidate = bank.hit ? bank.firstHit : bank.firstOther;
    bank.command = bank.hit ? (writes ? DramCommand::Write : DramCommand::Read)
                            : (rowClosed ? DramCommand::Activate : DramCommand::Precharge);
    bank.readyIndex = static_cast<uint16_t>(static_cast<size_t>(bank.command) * banks_ + bankIndex);
  }
  /// The position of the oldest request of `bankIndex` at or after queue index
  /// `from` that hits (or misses) its open row.
  Position findFrom(const DramChannelView &channel, size_t from, int bankIndex, bool hit) const {
    for (size_t i = from; i < channel.queue.size(); ++i) {
      const DramQueueEntry &entry = channel.queue[i];
      if (entry.bankIndex == bankIndex && isHit(channel, entry) == hit)
        return static_cast<Position>(i) + base_[channel.writes];
    }
    return kNone;
  }
  /// Moves one queue's base back to zero (positions keep their order).
  void rebase(bool writes) {
    const Position base = base_[writes];
    for (Bank &bank : summary_[writes]) {
      bank.firstHit -= bank.firstHit != kNone ? base : 0;
      bank.firstOther -= bank.firstOther != kNone ? base : 0;
      bank.candidate -= bank.candidate != kNone ? base : 0;
    }
    base_[writes] = 0;
  }
  /// Calls f(bank index) for every bank with a request in the read (writes
  /// false) or write queue: the streaming case has one.
  template <class F> void forEachQueuedBank(bool writes, F &&f) const {
    const std::vector<uint64_t> &words = queuedBanks_[writes];
    for (size_t w = 0; w < words.size(); ++w)
      for (uint64_t bits = words[w]; bits != 0; bits &= bits - 1)
        f(w * 64 + static_cast<size_t>(std::countr_zero(bits)));
  }

  size_t banks_;
  std::array<std::vector<Bank>, 2> summary_; // [writes][bank index]
  std::array<Position, 2> base_{};           // [writes]
  std::array<std::vector<uint64_t>, 2>
      queuedBanks_;          // [writes]: bit b of word b / 64 when bank b has requests
  int64_t soonest_ = kNever; // from the last choose(): its banks' soonest candidate command
  int starvedBank_ = -1;     // from the last choose()
};

[[maybe_unused]] const bool kFrFcfsRegistered = DramSchedulers::add<FrFcfsScheduler>("frfcfs");

} // namespace
} // namespace npusim::timing
