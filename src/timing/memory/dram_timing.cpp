#include "timing/memory/dram_timing.h"

#include "core/error.h"

#include <algorithm>

namespace npusim::timing {

std::string_view dramCommandName(DramCommand command) {
  switch (command) {
  case DramCommand::Activate: return "ACT";
  case DramCommand::Precharge: return "PRE";
  case DramCommand::PrechargeAll: return "PREA";
  case DramCommand::Read: return "RD";
  case DramCommand::Write: return "WR";
  case DramCommand::Refresh: return "REF";
  }
  return "?";
}

std::string_view timingScopeName(TimingScope scope) {
  switch (scope) {
  case TimingScope::SameBank: return "same bank";
  case TimingScope::SameBankGroup: return "same bank group";
  case TimingScope::OtherBankGroups: return "other bank groups";
  case TimingScope::Channel: return "channel";
  }
  return "?";
}

std::vector<TimingConstraint> buildTimingTable(const config::DramTiming &t) {
  using C = DramCommand;
  using S = TimingScope;
  const int nBL = t.burstCycles;
  const int writeRecovery = t.nCWL + nBL + t.nWR; // write data in, then nWR before the row may close
  const std::vector<TimingConstraint> all = {
      // One bank's row cycle.
      {C::Activate, C::Read, S::SameBank, t.nRCDRead},
      {C::Activate, C::Write, S::SameBank, t.nRCDWrite},
      {C::Activate, C::Precharge, S::SameBank, t.nRAS},
      {C::Activate, C::PrechargeAll, S::SameBank, t.nRAS},
      {C::Activate, C::Activate, S::SameBank, t.nRC},
      {C::Activate, C::Refresh, S::SameBank, t.nRC},
      {C::Precharge, C::Activate, S::SameBank, t.nRP},
      {C::Precharge, C::Refresh, S::SameBank, t.nRP},
      {C::PrechargeAll, C::Activate, S::Channel, t.nRP},
      {C::PrechargeAll, C::Refresh, S::Channel, t.nRP},
      {C::Read, C::Precharge, S::SameBank, t.nRTP},
      {C::Read, C::PrechargeAll, S::SameBank, t.nRTP},
      {C::Write, C::Precharge, S::SameBank, writeRecovery},
      {C::Write, C::PrechargeAll, S::SameBank, writeRecovery},
      // Activates across banks: row-to-row delay and the four-activate window.
      {C::Activate, C::Activate, S::SameBankGroup, t.nRRDLong},
      {C::Activate, C::Activate, S::OtherBankGroups, t.nRRDShort},
      {C::Activate, C::Activate, S::Channel, t.nFAW, 4},
      // Column commands: bank-group I/O (nCCD), the data bus (nBL) and turnarounds.
      {C::Read, C::Read, S::SameBankGroup, t.nCCDLong},
      {C::Read, C::Read, S::OtherBankGroups, t.nCCDShort},
      {C::Read, C::Read, S::Channel, nBL},
      {C::Write, C::Write, S::SameBankGroup, t.nCCDLong},
      {C::Write, C::Write, S::OtherBankGroups, t.nCCDShort},
      {C::Write, C::Write, S::Channel, nBL},
      {C::Read, C::Write, S::Channel, t.nCL + nBL + 2 - t.nCWL},
      {C::Write, C::Read, S::SameBankGroup, t.nCWL + nBL + t.nWTRLong},
      {C::Write, C::Read, S::OtherBankGroups, t.nCWL + nBL + t.nWTRShort},
      // Refresh keeps the channel for nRFC.
      {C::Refresh, C::Activate, S::Channel, t.nRFC},
      {C::Refresh, C::PrechargeAll, S::Channel, t.nRFC},
      {C::Refresh, C::Refresh, S::Channel, t.nRFC},
  };
  std::vector<TimingConstraint> table;
  for (const TimingConstraint &rule : all)
    if (rule.cycles > 0) // a distance of zero or less constrains nothing
      table.push_back(rule);
  return table;
}

DramTimingState::DramTimingState(int bankGroups, int banksPerGroup, std::vector<TimingConstraint> table)
    : bankGroups_(bankGroups), banksPerGroup_(banksPerGroup), table_(std::move(table)),
      banks_(static_cast<size_t>(bankGroups * banksPerGroup)), combined_(banks_ * kDramCommandCount, 0),
      history_(table_.size()) {
  // [previous][relation][next]: the rules with a window of one folded, per
  // previous command and relation, into one distance per next command (the largest).
  std::array<std::array<Earliest, kRelations>, kDramCommandCount> distances;
  for (auto &byRelation : distances)
    for (Earliest &next : byRelation)
      next.fill(kUnbounded);
  for (size_t i = 0; i < table_.size(); ++i) {
    const TimingConstraint &rule = table_[i];
    if (rule.window < 1 || (rule.window > 1 && rule.scope != TimingScope::Channel))
      throw core::InputError("DRAM timing rule " + std::string(dramCommandName(rule.previous)) + " -> " +
                             std::string(dramCommandName(rule.next)) +
                             ": a window above 1 needs channel scope");
    if (rule.window > 1) {
      windowedByPrevious_[static_cast<size_t>(rule.previous)].push_back(i);
      history_[i].cycles.assign(static_cast<size_t>(rule.window), 0);
      continue;
    }
    // A channel command constrains every bank under every scope.
    const bool all = isChannelCommand(rule.previous) || rule.scope == TimingScope::Channel;
    const bool covers[kRelations] = {
        all || rule.scope == TimingScope::SameBank || rule.scope == TimingScope::SameBankGroup,
        all || rule.scope == TimingScope::SameBankGroup, all || rule.scope == TimingScope::OtherBankGroups};
    for (size_t relation = 0; relation < kRelations; ++relation) {
      int64_t &distance =
          distances[static_cast<size_t>(rule.previous)][relation][static_cast<size_t>(rule.next)];
      if (covers[relation])
        distance = std::max(distance, static_cast<int64_t>(rule.cycles));
    }
  }
  const auto perGroup = static_cast<size_t>(banksPerGroup_);
  for (size_t previous = 0; previous < static_cast<size_t>(kDramCommandCount); ++previous) {
    auto &distance = distances[previous];
    for (size_t next = 0; next < static_cast<size_t>(kDramCommandCount); ++next) {
      // Relations that no bank has count for neither bound.
      int64_t floor = distance[kSameBank][next], highest = floor;
      if (perGroup > 1) {
        floor = std::min(floor, distance[kSameGroup][next]);
        highest = std::max(highest, distance[kSameGroup][next]);
      }
      if (bankGroups_ > 1) {
        floor = std::min(floor, distance[kOtherGroup][next]);
        highest = std::max(highest, distance[kOtherGroup][next]);
      }
      if (highest != kUnbounded)
        highest_[previous].push_back({next, highest});
      if (floor != kUnbounded) {
        floors_[previous].push_back({next, floor});
        for (size_t relation = 0; relation < kRelations; ++relation)
          if (distance[relation][next] <= floor)
            distance[relation][next] = kUnbounded;
      }
      if (distance[kSameBank][next] != kUnbounded || distance[kSameGroup][next] != kUnbounded ||
          distance[kOtherGroup][next] != kUnbounded)
        bankRaises_[previous].push_back(
            {next, {distance[kSameBank][next], distance[kSameGroup][next], distance[kOtherGroup][next]}});
    }
  }
}

void DramTimingState::raiseRange(int64_t *bound, size_t first, size_t last, int64_t cycle, int64_t distance) {
  if (distance == kUnbounded)
    return;
  const int64_t until = cycle + distance;
  for (size_t b = first; b < last; ++b)
    bound[b] = std::max(bound[b], until);
}

void DramTimingState::issue(DramCommand command, int bankGroup, int bank, int64_t cycle) {
  const auto perGroup = static_cast<size_t>(banksPerGroup_);
  // A channel command's distances are the same for every relation; its bank arguments mean nothing.
  const bool channel = isChannelCommand(command);
  const size_t ownGroup = channel ? 0 : static_cast<size_t>(bankGroup);
  const size_t ownBank = channel ? 0 : static_cast<size_t>(bank);
  const size_t groupStart = ownGroup * perGroup, groupEnd = groupStart + perGroup;
  for (const BankRaise &raise : bankRaises_[static_cast<size_t>(command)]) {
    const int64_t same = raise.distance[kSameBank], group = raise.distance[kSameGroup],
                  other = raise.distance[kOtherGroup];
    int64_t *bound = combined_.data() + raise.next * banks_;
    raiseRange(bound, 0, groupStart, cycle, other);
    raiseRange(bound, groupStart, groupStart + ownBank, cycle, group);
    raiseRange(bound, groupStart + ownBank, groupStart + ownBank + 1, cycle, same);
    raiseRange(bound, groupStart + ownBank + 1, groupEnd, cycle, group);
    raiseRange(bound, groupEnd, banks_, cycle, other);
  }
  for (const NextDistance &floor : floors_[static_cast<size_t>(command)])
    channelFloor_[floor.next] = std::max(channelFloor_[floor.next], cycle + floor.distance);
  for (const NextDistance &highest : highest_[static_cast<size_t>(command)])
    anyEarliest_[highest.next] = std::max(anyEarliest_[highest.next], cycle + highest.distance);
  for (size_t index : windowedByPrevious_[static_cast<size_t>(command)]) {
    const TimingConstraint &rule = table_[index];
    RecentIssues &recent = history_[index];
    const size_t window = recent.cycles.size();
    recent.cycles[recent.next] = cycle;
    recent.next = recent.next + 1 == window ? 0 : recent.next + 1;
    recent.count = std::min(recent.count + 1, window);
    if (recent.count == window) {
      const int64_t until = recent.cycles[recent.next] + rule.cycles;
      const auto next = static_cast<size_t>(rule.next);
      channelFloor_[next] = std::max(channelFloor_[next], until);
      anyEarliest_[next] = std::max(anyEarliest_[next], until);
    }
  }
}

} // namespace npusim::timing
