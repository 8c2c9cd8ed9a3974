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
  for (size_t i = 0; i < table_.size(); ++i) {
    const TimingConstraint &rule = table_[i];
    if (rule.window < 1 || (rule.window > 1 && rule.scope != TimingScope::Channel))
      throw core::InputError("DRAM timing rule " + std::string(dramCommandName(rule.previous)) + " -> " +
                             std::string(dramCommandName(rule.next)) +
                             ": a window above 1 needs channel scope");
    rulesByPrevious_[static_cast<size_t>(rule.previous)].push_back(i);
  }
}

void DramTimingState::raise(size_t first, size_t count, DramCommand next, int64_t cycle) {
  const auto index = static_cast<size_t>(next);
  int64_t *bound = combined_.data() + index * banks_ + first;
  for (size_t b = 0; b < count; ++b)
    bound[b] = std::max(bound[b], cycle);
  anyEarliest_[index] = std::max(anyEarliest_[index], cycle);
}

void DramTimingState::apply(const TimingConstraint &rule, size_t ruleIndex, int bankGroup, int bank,
                            bool allBanks, int64_t cycle) {
  const size_t banks = banks_;
  const auto perGroup = static_cast<size_t>(banksPerGroup_);
  if (rule.window > 1) {
    std::deque<int64_t> &recent = history_[ruleIndex];
    recent.push_back(cycle);
    if (recent.size() > static_cast<size_t>(rule.window))
      recent.pop_front();
    if (recent.size() == static_cast<size_t>(rule.window))
      raise(0, banks, rule.next, recent.front() + rule.cycles);
    return;
  }
  const int64_t until = cycle + rule.cycles;
  switch (rule.scope) {
  case TimingScope::SameBank:
    if (allBanks)
      raise(0, banks, rule.next, until);
    else
      raise(static_cast<size_t>(bankGroup * banksPerGroup_ + bank), 1, rule.next, until);
    break;
  case TimingScope::SameBankGroup:
  case TimingScope::OtherBankGroups:
    for (int group = 0; group < bankGroups_; ++group) {
      const bool same = group == bankGroup;
      if (allBanks || same == (rule.scope == TimingScope::SameBankGroup))
        raise(static_cast<size_t>(group) * perGroup, perGroup, rule.next, until);
    }
    break;
  case TimingScope::Channel: raise(0, banks, rule.next, until); break;
  }
}

void DramTimingState::issue(DramCommand command, int bankGroup, int bank, int64_t cycle) {
  const bool allBanks = isChannelCommand(command);
  for (size_t index : rulesByPrevious_[static_cast<size_t>(command)])
    apply(table_[index], index, bankGroup, bank, allBanks, cycle);
}

} // namespace npusim::timing
