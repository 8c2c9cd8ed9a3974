// The DRAM timing rules, probed from both sides on the timing state alone:
// a command is not ready one cycle before its rule allows it, and is ready on
// that cycle. Numbers are the HBM2 set of config::DramTiming's defaults (the
// Ramulator 2.1 HBM2 2000 Mbps preset) unless a test says otherwise.
#include "timing/memory/dram_timing.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace npusim::timing {
namespace {

using C = DramCommand;

DramTimingState stateFor(const config::DramTiming &timing) {
  return DramTimingState(timing.bankGroups, timing.banksPerGroup, buildTimingTable(timing));
}

TEST(DramTimingRules, TableHoldsTheRulesOfTheTimingSet) {
  const config::DramTiming hbm2; // nRCD 14/12, nRAS 34, nRTP 5, nCWL 5, nBL 2, nWR 16, nFAW 15
  const std::vector<TimingConstraint> table = buildTimingTable(hbm2);
  auto find = [&](C previous, C next, TimingScope scope) {
    for (const TimingConstraint &rule : table)
      if (rule.previous == previous && rule.next == next && rule.scope == scope)
        return rule.cycles;
    return -1;
  };
  EXPECT_EQ(find(C::Activate, C::Read, TimingScope::SameBank), 14);
  EXPECT_EQ(find(C::Activate, C::Write, TimingScope::SameBank), 12);
  EXPECT_EQ(find(C::Activate, C::Precharge, TimingScope::SameBank), 34);
  EXPECT_EQ(find(C::Read, C::Precharge, TimingScope::SameBank), 5);
  EXPECT_EQ(find(C::Write, C::Precharge, TimingScope::SameBank), 5 + 2 + 16);  // nCWL + nBL + nWR
  EXPECT_EQ(find(C::Read, C::Write, TimingScope::Channel), 14 + 2 + 2 - 5);    // nCL + nBL + 2 - nCWL
  EXPECT_EQ(find(C::Write, C::Read, TimingScope::SameBankGroup), 5 + 2 + 8);   // nCWL + nBL + nWTRL
  EXPECT_EQ(find(C::Write, C::Read, TimingScope::OtherBankGroups), 5 + 2 + 6); // nCWL + nBL + nWTRS
  EXPECT_EQ(find(C::Activate, C::Activate, TimingScope::Channel), 15);         // nFAW
}

TEST(DramTimingRules, ReadWaitsForRowToColumnDelay) {
  DramTimingState state = stateFor(config::DramTiming{});
  state.issue(C::Activate, 1, 2, 100);
  // nRCDRead = 14: not at 100 + 13, at 100 + 14.
  EXPECT_FALSE(state.ready(C::Read, 1, 2, 113));
  EXPECT_TRUE(state.ready(C::Read, 1, 2, 114));
  // nRCDWrite = 12.
  EXPECT_FALSE(state.ready(C::Write, 1, 2, 111));
  EXPECT_TRUE(state.ready(C::Write, 1, 2, 112));
  // Another bank is not held by this activate's nRCD.
  EXPECT_TRUE(state.ready(C::Read, 1, 3, 101));
}

TEST(DramTimingRules, PrechargeWaitsForRowActiveTime) {
  DramTimingState state = stateFor(config::DramTiming{});
  state.issue(C::Activate, 0, 0, 0);
  // nRAS = 34.
  EXPECT_FALSE(state.ready(C::Precharge, 0, 0, 33));
  EXPECT_TRUE(state.ready(C::Precharge, 0, 0, 34));
  EXPECT_FALSE(state.ready(C::PrechargeAll, 0, 0, 33));
  EXPECT_TRUE(state.ready(C::PrechargeAll, 0, 0, 34));
}

TEST(DramTimingRules, ActivateWaitsForPrechargeTime) {
  DramTimingState state = stateFor(config::DramTiming{});
  state.issue(C::Activate, 0, 0, 0);
  state.issue(C::Precharge, 0, 0, 100);
  // nRP = 14 after PRE at 100 (nRC = 48 after the ACT at 0 has long passed).
  EXPECT_FALSE(state.ready(C::Activate, 0, 0, 113));
  EXPECT_TRUE(state.ready(C::Activate, 0, 0, 114));
}

TEST(DramTimingRules, ActivateToActivateSameBankWaitsForRowCycle) {
  config::DramTiming timing;
  timing.nRC = 60; // above nRAS + nRP = 34 + 14 = 48, so that nRC binds
  DramTimingState state = stateFor(timing);
  state.issue(C::Activate, 0, 0, 0);
  state.issue(C::Precharge, 0, 0, 34);
  // nRP alone would allow the ACT at 34 + 14 = 48; nRC holds it until 60.
  EXPECT_FALSE(state.ready(C::Activate, 0, 0, 59));
  EXPECT_TRUE(state.ready(C::Activate, 0, 0, 60));
}

TEST(DramTimingRules, ColumnToColumnShortAcrossGroupsLongWithin) {
  DramTimingState state = stateFor(config::DramTiming{});
  state.issue(C::Read, 0, 0, 200);
  // nCCDLong = 4 within bank group 0 (another bank of it too).
  EXPECT_FALSE(state.ready(C::Read, 0, 1, 203));
  EXPECT_TRUE(state.ready(C::Read, 0, 1, 204));
  // nCCDShort = 2 (= nBL, the data bus) to bank group 1.
  EXPECT_FALSE(state.ready(C::Read, 1, 0, 201));
  EXPECT_TRUE(state.ready(C::Read, 1, 0, 202));
  state.issue(C::Write, 2, 0, 300);
  EXPECT_FALSE(state.ready(C::Write, 2, 3, 303));
  EXPECT_TRUE(state.ready(C::Write, 2, 3, 304));
  EXPECT_FALSE(state.ready(C::Write, 3, 0, 301));
  EXPECT_TRUE(state.ready(C::Write, 3, 0, 302));
}

TEST(DramTimingRules, ReadWriteTurnarounds) {
  DramTimingState state = stateFor(config::DramTiming{});
  state.issue(C::Read, 0, 0, 0);
  // RD -> WR: nCL + nBL + 2 - nCWL = 14 + 2 + 2 - 5 = 13, any bank.
  EXPECT_FALSE(state.ready(C::Write, 3, 3, 12));
  EXPECT_TRUE(state.ready(C::Write, 3, 3, 13));
  state.issue(C::Write, 0, 0, 100);
  // WR -> RD: nCWL + nBL + nWTRLong = 5 + 2 + 8 = 15 in the group, + nWTRShort = 13 outside.
  EXPECT_FALSE(state.ready(C::Read, 0, 1, 114));
  EXPECT_TRUE(state.ready(C::Read, 0, 1, 115));
  EXPECT_FALSE(state.ready(C::Read, 1, 0, 112));
  EXPECT_TRUE(state.ready(C::Read, 1, 0, 113));
  // WR -> PRE same bank: nCWL + nBL + nWR = 5 + 2 + 16 = 23.
  EXPECT_FALSE(state.ready(C::Precharge, 0, 0, 122));
  EXPECT_TRUE(state.ready(C::Precharge, 0, 0, 123));
}

TEST(DramTimingRules, ReadToPrechargeWaitsForReadToPrechargeTime) {
  DramTimingState state = stateFor(config::DramTiming{});
  state.issue(C::Activate, 0, 0, 0);
  state.issue(C::Read, 0, 0, 40);
  // nRAS is met at 34; nRTP = 5 after RD at 40.
  EXPECT_FALSE(state.ready(C::Precharge, 0, 0, 44));
  EXPECT_TRUE(state.ready(C::Precharge, 0, 0, 45));
}

TEST(DramTimingRules, ActivateToActivateShortAcrossGroupsLongWithin) {
  config::DramTiming ddr4; // the Ramulator 2.1 DDR4-3200AA set: nRRD 4 / 8
  ddr4.nRRDShort = 4;
  ddr4.nRRDLong = 8;
  ddr4.nFAW = 34;
  DramTimingState state = stateFor(ddr4);
  state.issue(C::Activate, 0, 0, 0);
  EXPECT_FALSE(state.ready(C::Activate, 0, 1, 7)); // same group: nRRDLong = 8
  EXPECT_TRUE(state.ready(C::Activate, 0, 1, 8));
  EXPECT_FALSE(state.ready(C::Activate, 1, 0, 3)); // other group: nRRDShort = 4
  EXPECT_TRUE(state.ready(C::Activate, 1, 0, 4));
}

TEST(DramTimingRules, FifthActivateWaitsForFourActivateWindow) {
  config::DramTiming timing;
  timing.nRRDShort = timing.nRRDLong = 2; // so that nFAW = 15 is what binds
  DramTimingState state = stateFor(timing);
  // Four ACTs at 0, 2, 4, 6 in four bank groups.
  for (int i = 0; i < 4; ++i) {
    ASSERT_TRUE(state.ready(C::Activate, i, 0, 2 * i));
    state.issue(C::Activate, i, 0, 2 * i);
  }
  // nRRD alone would allow a fifth at 8; the window allows it at 0 + nFAW = 15.
  EXPECT_FALSE(state.ready(C::Activate, 0, 1, 14));
  EXPECT_TRUE(state.ready(C::Activate, 0, 1, 15));
  state.issue(C::Activate, 0, 1, 15);
  // The window slides: the sixth waits for the second ACT (2) + 15 = 17.
  EXPECT_FALSE(state.ready(C::Activate, 1, 1, 16));
  EXPECT_TRUE(state.ready(C::Activate, 1, 1, 17));
}

TEST(DramTimingRules, RefreshNeedsPrechargedBanksAndHoldsTheChannel) {
  DramTimingState state = stateFor(config::DramTiming{});
  state.issue(C::Activate, 2, 1, 0);
  // PREA waits for nRAS of any bank: 34.
  EXPECT_FALSE(state.ready(C::PrechargeAll, 0, 0, 33));
  state.issue(C::PrechargeAll, -1, -1, 34);
  // REF after PREA: nRP = 14 -> 48 (nRC from the ACT at 0 also gives 48).
  EXPECT_FALSE(state.ready(C::Refresh, 0, 0, 47));
  EXPECT_TRUE(state.ready(C::Refresh, 0, 0, 48));
  state.issue(C::Refresh, -1, -1, 48);
  // nRFC = 350: no bank may activate before 398.
  EXPECT_FALSE(state.ready(C::Activate, 3, 3, 397));
  EXPECT_TRUE(state.ready(C::Activate, 3, 3, 398));
}

// The timing state folds the table into per-relation distances; here the
// table is applied as written, over the whole history: a command may issue to
// a bank once the rules of every earlier command that cover the bank allow it
// (for a windowed rule, the window-th most recent command of its kind).
struct Issued {
  C command;
  int group, bank;
  int64_t cycle;
};

int64_t earliestByTheTable(const std::vector<TimingConstraint> &table, const std::vector<Issued> &history,
                           C next, int group, int bank) {
  int64_t earliest = 0;
  for (const TimingConstraint &rule : table) {
    if (rule.next != next)
      continue;
    int seen = 0;
    for (auto it = history.rbegin(); it != history.rend(); ++it) {
      if (it->command != rule.previous)
        continue;
      if (rule.window > 1) { // channel-wide: every command of its kind counts
        if (++seen == rule.window) {
          earliest = std::max(earliest, it->cycle + rule.cycles);
          break;
        }
        continue;
      }
      // A channel command, issued or asked about, spans every bank.
      const bool all =
          isChannelCommand(it->command) || isChannelCommand(next) || rule.scope == TimingScope::Channel;
      const bool sameGroup = it->group == group, sameBank = sameGroup && it->bank == bank;
      if (all || (rule.scope == TimingScope::SameBank && sameBank) ||
          (rule.scope == TimingScope::SameBankGroup && sameGroup) ||
          (rule.scope == TimingScope::OtherBankGroups && !sameGroup))
        earliest = std::max(earliest, it->cycle + rule.cycles);
    }
  }
  return earliest;
}

TEST(DramTimingRules, FoldedStateEqualsTheTableAppliedToTheWholeHistory) {
  std::mt19937 random(7);
  const auto pick = [&random](int low, int high) {
    return std::uniform_int_distribution<int>(low, high)(random);
  };
  for (int trial = 0; trial < 12; ++trial) {
    config::DramTiming timing; // HBM2 defaults, then random organisation and distances
    timing.bankGroups = pick(1, 4);
    timing.banksPerGroup = pick(1, 4);
    timing.nCCDShort = pick(1, 4);
    timing.nCCDLong = pick(1, 8);
    timing.nRRDShort = pick(1, 6);
    timing.nRRDLong = pick(1, 8);
    timing.nWTRShort = pick(0, 8);
    timing.nWTRLong = pick(0, 10);
    timing.nFAW = pick(0, 30);
    const std::vector<TimingConstraint> table = buildTimingTable(timing);
    DramTimingState state(timing.bankGroups, timing.banksPerGroup, table);
    std::vector<Issued> history;
    int64_t cycle = 0;
    for (int step = 0; step < 200; ++step) {
      // Any command at any bank, at or after the cycle it is allowed (the state
      // only needs the caller to respect readiness).
      const auto command = static_cast<C>(pick(0, kDramCommandCount - 1));
      const int group = isChannelCommand(command) ? -1 : pick(0, timing.bankGroups - 1);
      const int bank = isChannelCommand(command) ? -1 : pick(0, timing.banksPerGroup - 1);
      cycle = std::max(cycle + pick(0, 3), state.earliest(command, group, bank));
      state.issue(command, group, bank, cycle);
      history.push_back(Issued{command, group, bank, cycle});
      for (int c = 0; c < kDramCommandCount; ++c)
        for (int g = 0; g < timing.bankGroups; ++g)
          for (int b = 0; b < timing.banksPerGroup; ++b) {
            const auto next = static_cast<C>(c);
            ASSERT_EQ(state.earliest(next, g, b), earliestByTheTable(table, history, next, g, b))
                << "trial " << trial << ", step " << step << ": " << dramCommandName(next)
                << " at bank group " << g << " bank " << b;
          }
    }
  }
}

} // namespace
} // namespace npusim::timing
