#pragma once
// A DRAM standard's timing rules as data: a table of (previous command, next
// command, scope, minimum distance in tCK), built from config::DramTiming, and
// the state that tracks, per bank, bank group and channel, the earliest cycle
// each command may issue. docs/dram.md lists the table.
#include "config/hardware.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <string_view>
#include <vector>

namespace npusim::timing {

enum class DramCommand : uint8_t {
  Activate,     // ACT: open a row in one bank
  Precharge,    // PRE: close one bank's row
  PrechargeAll, // PREA: close every bank of the channel
  Read,         // RD: one access granule from the open row
  Write,        // WR: one access granule to the open row
  Refresh,      // REF: all-bank refresh, every bank precharged
};
inline constexpr int kDramCommandCount = 6;
std::string_view dramCommandName(DramCommand command);
/// Whether a command addresses the whole channel rather than one bank.
inline bool isChannelCommand(DramCommand command) {
  return command == DramCommand::PrechargeAll || command == DramCommand::Refresh;
}

/// Which banks a rule constrains, seen from the bank of the previous command.
enum class TimingScope : uint8_t {
  SameBank,
  SameBankGroup,   // every bank of the previous command's bank group
  OtherBankGroups, // every bank outside it
  Channel,         // every bank of the channel
};
std::string_view timingScopeName(TimingScope scope);

struct TimingConstraint {
  DramCommand previous;
  DramCommand next;
  TimingScope scope;
  int cycles; // next may issue at previous + cycles, not before
  /// The rule counts from the window-th most recent `previous` (nFAW: the fourth
  /// most recent ACT). Windows above 1 are for Channel scope only.
  int window = 1;
};

/// The rules of docs/dram.md's table for one timing set.
std::vector<TimingConstraint> buildTimingTable(const config::DramTiming &timing);

/// Earliest issue cycles implied by the commands issued so far.
class DramTimingState {
public:
  DramTimingState(int bankGroups, int banksPerGroup, std::vector<TimingConstraint> table);

  /// Earliest cycle `command` may issue to (bankGroup, bank); for channel
  /// commands the bank arguments are ignored and every bank counts.
  int64_t earliest(DramCommand command, int bankGroup, int bank) const {
    const auto index = static_cast<size_t>(command);
    if (isChannelCommand(command))
      return anyEarliest_[index];
    return std::max(combined_[index * banks_ + static_cast<size_t>(bankGroup * banksPerGroup_ + bank)],
                    channelFloor_[index]);
  }
  /// earliest() of a bank command by bank index (bankGroup * banksPerGroup + bank).
  int64_t earliestOfBank(DramCommand command, size_t bankIndex) const {
    const auto index = static_cast<size_t>(command);
    return std::max(combined_[index * banks_ + bankIndex], channelFloor_[index]);
  }
  /// The bounds of every bank, by command * banks + bank index: a contiguous
  /// array, without the bound that holds for every bank (channelFloors());
  /// earliestOfBank() is the larger of the two.
  const int64_t *earliestOfBanks() const { return combined_.data(); }
  /// By command: a bound that holds for every bank.
  const int64_t *channelFloors() const { return channelFloor_.data(); }
  bool ready(DramCommand command, int bankGroup, int bank, int64_t cycle) const {
    return cycle >= earliest(command, bankGroup, bank);
  }
  /// Records `command` issued at `cycle` (the caller checked ready()).
  void issue(DramCommand command, int bankGroup, int bank, int64_t cycle);
  const std::vector<TimingConstraint> &table() const { return table_; }

private:
  using Earliest = std::array<int64_t, kDramCommandCount>;
  /// No rule: a distance so negative that the bound it gives never counts.
  static constexpr int64_t kUnbounded = std::numeric_limits<int64_t>::min() / 4;
  /// bound[b] = max(bound[b], cycle + distance) for b in [first, last), unless distance is kUnbounded.
  static void raiseRange(int64_t *bound, size_t first, size_t last, int64_t cycle, int64_t distance);
  /// Where a bank lies from the bank of the previous command.
  enum Relation : size_t { kSameBank, kSameGroup, kOtherGroup, kRelations };

  int bankGroups_, banksPerGroup_;
  std::vector<TimingConstraint> table_;
  // Per previous command: the part of each next command's distance that every
  // bank gets (the smallest over the relations that some bank has) is the next
  // command's channel floor (floors_); bankRaises_ keeps only the distances
  // above it, so that issuing raises a floor and the few banks whose bound
  // exceeds it (a RD: the WR bound and the nBL between any two RDs are floors;
  // its own group's nCCD_L and its bank's nRTP are bank bounds). The lists are
  // kept in the state itself (no list a pointer away), and issuing visits only
  // the next commands it raises.
  struct BankRaise {
    size_t next;
    std::array<int64_t, kRelations> distance; // kUnbounded where the floor covers the relation
  };
  struct NextDistance {
    size_t next;
    int64_t distance;
  };
  template <class T> struct FixedList {
    std::array<T, kDramCommandCount> items{};
    size_t count = 0;
    void push_back(const T &item) { items[count++] = item; }
    const T *begin() const { return items.data(); }
    const T *end() const { return items.data() + count; }
  };
  std::array<FixedList<BankRaise>, kDramCommandCount> bankRaises_; // [previous]
  std::array<FixedList<NextDistance>, kDramCommandCount> floors_;  // [previous]
  Earliest channelFloor_{};                                        // [next]
  /// The channel commands' bound: the highest distance of a relation that names a bank.
  std::array<FixedList<NextDistance>, kDramCommandCount> highest_;        // [previous]
  std::array<std::vector<size_t>, kDramCommandCount> windowedByPrevious_; // indices into table_
  // A rule raises the bound of every bank it covers above the floor, so that
  // a query, made for every candidate of every scheduling decision, is two loads.
  size_t banks_;
  std::vector<int64_t> combined_; // [command * banks_ + bankGroup * banksPerGroup + bank]
  Earliest anyEarliest_{};        // the highest bound of each command over all banks: channel commands
  /// The last `window` issue cycles of one windowed rule, oldest at `next`
  /// once full: a ring, so an issue allocates nothing.
  struct RecentIssues {
    std::vector<int64_t> cycles;
    size_t next = 0, count = 0;
  };
  std::vector<RecentIssues> history_; // [rule index]: recent issue cycles of windowed rules
};

} // namespace npusim::timing
