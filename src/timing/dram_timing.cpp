#include "timing/dram_timing.h"

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
  for (auto &byRelation : distance_)
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
          distance_[static_cast<size_t>(rule.previous)][relation][static_cast<size_t>(rule.next)];
      if (covers[relation])
        distance = std::max(distance, static_cast<int64_t>(rule.cycles));
    }
  }
  const auto perGroup = static_cast<size_t>(banksPerGroup_);
  stretches_.resize(kDramCommandCount * banks_);
  for (size_t previous = 0; previous < static_cast<size_t>(kDramCommandCount); ++previous) {
    // The distance every bank gets, whichever relation it has (relations that no bank has do not count).
    Earliest floor{};
    for (size_t next = 0; next < static_cast<size_t>(kDramCommandCount); ++next) {
      const auto &distance = distance_[previous];
      floor[next] = distance[kSameBank][next];
      if (perGroup > 1)
        floor[next] = std::min(floor[next], distance[kSameGroup][next]);
      if (bankGroups_ > 1)
        floor[next] = std::min(floor[next], distance[kOtherGroup][next]);
      if (floor[next] != kUnbounded)
        floors_[previous].emplace_back(next, floor[next]);
    }
    for (size_t own = 0; own < banks_; ++own) {
      std::vector<Stretch> &list = stretches_[previous * banks_ + own];
      for (size_t next = 0; next < static_cast<size_t>(kDramCommandCount); ++next)
        for (size_t b = 0; b < banks_; ++b) {
          const Relation relation = b == own                         ? kSameBank
                                    : b / perGroup == own / perGroup ? kSameGroup
                                                                     : kOtherGroup;
          const int64_t distance = distance_[previous][relation][next];
          if (distance == kUnbounded || distance <= floor[next])
            continue;
          const auto at = static_cast<uint32_t>(next * banks_ + b);
          if (!list.empty() && list.back().last == at && list.back().distance == distance)
            ++list.back().last;
          else
            list.push_back(Stretch{at, at + 1, distance});
        }
    }
    for (size_t next = 0; next < static_cast<size_t>(kDramCommandCount); ++next) {
      const auto &distance = distance_[previous];
      // Only relations that name a bank count for the channel commands' bound.
      int64_t highest = distance[kSameBank][next];
      if (perGroup > 1)
        highest = std::max(highest, distance[kSameGroup][next]);
      if (bankGroups_ > 1)
        highest = std::max(highest, distance[kOtherGroup][next]);
      if (highest != kUnbounded)
        highest_[previous].emplace_back(next, highest);
    }
  }
}

void DramTimingState::issue(DramCommand command, int bankGroup, int bank, int64_t cycle) {
  // A channel command's distances are the same for every relation; its bank arguments mean nothing.
  const size_t own = isChannelCommand(command) ? 0 : static_cast<size_t>(bankGroup * banksPerGroup_ + bank);
  int64_t *bound = combined_.data();
  for (const Stretch &stretch : stretches_[static_cast<size_t>(command) * banks_ + own]) {
    const int64_t until = cycle + stretch.distance;
    for (uint32_t b = stretch.first; b < stretch.last; ++b)
      bound[b] = std::max(bound[b], until);
  }
  for (const auto &[next, distance] : floors_[static_cast<size_t>(command)])
    channelFloor_[next] = std::max(channelFloor_[next], cycle + distance);
  for (const auto &[next, distance] : highest_[static_cast<size_t>(command)])
    anyEarliest_[next] = std::max(anyEarliest_[next], cycle + distance);
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
