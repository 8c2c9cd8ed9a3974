// The "frfcfs" scheduler decides per bank; "frfcfs_reference"
// (dram_scheduler_reference_support.cpp) states FR-FCFS request by request.
// Random request streams must give both the same command log and the same
// completion time for every request: reads and writes, sequential, random and
// hot-row addresses (which starve older requests), one to four channels,
// queues small enough for write drain, refresh, and idle gaps after which
// refresh catches up.
#include "timing/memory/dram_detailed.h"

#include "timing/dram_test_traffic.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace npusim::timing {
namespace {

struct Workload {
  config::DramConfig dram;
  std::vector<std::vector<MemoryRequest>> phases; // each phase starts after the last ended, plus a gap
  std::vector<TimePs> gaps;
  int maxOutstanding;
  std::vector<uint64_t> starverIds; // a conflict behind many younger hits, in the last phase
};

Workload randomWorkload(uint32_t seed) {
  std::mt19937_64 random(seed);
  const auto pick = [&random](uint64_t low, uint64_t high) {
    return std::uniform_int_distribution<uint64_t>(low, high)(random);
  };
  Workload w;
  w.dram.channels = static_cast<int>(uint64_t{1} << pick(0, 2));
  w.dram.freqMhz = 1000.0;
  w.dram.queueEntries = static_cast<int>(pick(0, 2) == 0 ? pick(2, 8) : 64);
  w.dram.timing.nREFI = static_cast<int>(pick(0, 1) == 0 ? 3900 : pick(800, 2000));
  w.maxOutstanding = static_cast<int>(pick(0, 1) == 0 ? pick(1, 16) : 512);
  const uint32_t granule = static_cast<uint32_t>(w.dram.timing.accessBytes());
  const uint64_t hotRow = pick(0, 1000) * 16384 * static_cast<uint64_t>(w.dram.channels);
  uint64_t id = 0;
  for (int phase = 0; phase < 3; ++phase) {
    std::vector<MemoryRequest> requests;
    if (phase == 2 && pick(0, 1) == 0) {
      // One hit opens the hot row, an older conflict for another row of its bank
      // waits behind a long run of younger hits until the starvation limit.
      requests.push_back(MemoryRequest{id++, hotRow, granule, false, 0});
      requests.push_back(
          MemoryRequest{id++, hotRow + 16384 * static_cast<uint64_t>(w.dram.channels), granule, false, 0});
      for (int i = 0; i < 1200; ++i)
        requests.push_back(MemoryRequest{
            id++, hotRow + (i % 2) * static_cast<uint64_t>(w.dram.channels) * granule, granule, false, 0});
      w.starverIds.push_back(requests[1].id);
      w.phases.push_back(std::move(requests));
      w.gaps.push_back(0);
      continue;
    }
    uint64_t sequential = pick(0, 1 << 20) * granule;
    const double writeShare = static_cast<double>(pick(0, 10)) / 10.0;
    for (int i = 0; i < 1500; ++i) {
      uint64_t address = 0;
      switch (pick(0, 2)) {
      case 0: address = sequential += granule; break;
      case 1: address = pick(0, (uint64_t{1} << 30) / granule) * granule; break;
      default: address = hotRow + pick(0, 3) * granule; break;
      }
      const bool write = static_cast<double>(pick(0, 999)) < writeShare * 1000.0;
      requests.push_back(MemoryRequest{id++, address, granule, write, 0});
    }
    w.phases.push_back(std::move(requests));
    w.gaps.push_back(static_cast<TimePs>(pick(0, 1) == 0 ? 0 : pick(1, 20'000'000)));
  }
  return w;
}

struct Outcome {
  std::vector<TimePs> completions; // by request id
  std::vector<DramCommandRecord> commands;
};

Outcome runWith(const Workload &w, const std::string &scheduler) {
  config::DramConfig dram = w.dram;
  dram.scheduler = scheduler;
  EventQueue events;
  DetailedDram model(dram, events);
  model.recordCommands(true);
  Outcome outcome;
  TimePs start = 0;
  for (size_t phase = 0; phase < w.phases.size(); ++phase) {
    std::vector<MemoryRequest> requests = w.phases[phase];
    const uint64_t firstId = requests.front().id;
    for (MemoryRequest &request : requests)
      request.id -= firstId; // TrafficDriver records completions by id from 0
    traffic::TrafficDriver driver(events, model, requests, w.maxOutstanding);
    start = driver.run(start + w.gaps[phase]);
    outcome.completions.insert(outcome.completions.end(), driver.completions().begin(),
                               driver.completions().end());
  }
  for (int channel = 0; channel < dram.channels; ++channel)
    outcome.commands.insert(outcome.commands.end(), model.commandLog(channel).begin(),
                            model.commandLog(channel).end());
  return outcome;
}

TEST(DramScheduler, PerBankFrFcfsEqualsThePerRequestStatementOnRandomStreams) {
  int64_t smallQueues = 0, refreshes = 0, starvationsEnded = 0;
  for (uint32_t seed = 1; seed <= 40; ++seed) {
    const Workload w = randomWorkload(seed);
    const Outcome fast = runWith(w, "frfcfs");
    const Outcome reference = runWith(w, "frfcfs_reference");
    ASSERT_EQ(fast.completions, reference.completions) << "seed " << seed;
    ASSERT_EQ(fast.commands.size(), reference.commands.size()) << "seed " << seed;
    for (size_t i = 0; i < fast.commands.size(); ++i) {
      const DramCommandRecord &a = fast.commands[i], &b = reference.commands[i];
      ASSERT_TRUE(a.cycle == b.cycle && a.command == b.command && a.bankGroup == b.bankGroup &&
                  a.bank == b.bank && a.row == b.row && a.column == b.column)
          << "seed " << seed << ", command " << i << ": " << dramCommandName(a.command) << "@" << a.cycle
          << " vs " << dramCommandName(b.command) << "@" << b.cycle;
    }
    for (TimePs done : fast.completions)
      ASSERT_GT(done, 0) << "seed " << seed;
    for (const DramCommandRecord &record : fast.commands)
      refreshes += record.command == DramCommand::Refresh ? 1 : 0;
    smallQueues += w.dram.queueEntries < 64 ? 1 : 0;
    for (uint64_t starver : w.starverIds) // served before the hits that arrived after it ran out
      starvationsEnded += fast.completions[starver] < fast.completions.back() ? 1 : 0;
  }
  // The streams exercised refresh, and small queues as well as full-size ones.
  EXPECT_GT(refreshes, 100);
  EXPECT_GT(smallQueues, 5);
  EXPECT_LT(smallQueues, 35);
  EXPECT_GT(starvationsEnded, 3);
}

} // namespace
} // namespace npusim::timing
