// The detailed DRAM's channel controller, observed through its command log:
// when each command goes out, FR-FCFS order, write drain, refresh. One channel,
// tCK = 1000 ps, the HBM2 set of config::DramTiming's defaults: nRCD 14 (read)
// / 12 (write), nCL 14, nCWL 5, nBL 2, nRP 14, nRAS 34, nRTP 5, nCCD 2 / 4.
// With one channel and RoBaRaCoCh, a 32-byte granule g sits in column g % 32,
// bank number (g / 32) % 16 (bank group = number % 4, bank = number / 4), row
// g / 512: byte 0 and 32 share bank 0's row 0, byte 1024 is bank group 1, byte
// 16384 is row 1 of bank 0.
#include "timing/memory/dram_detailed.h"

#include <gtest/gtest.h>

#include <string>

namespace npusim::timing {
namespace {

config::DramConfig oneChannel() {
  config::DramConfig dram;
  dram.channels = 1;
  dram.freqMhz = 1000.0;
  return dram;
}

/// The channel's commands as "ACT@0 RD@14 ...".
std::string commands(const DetailedDram &dram) {
  std::string text;
  for (const DramCommandRecord &record : dram.commandLog(0))
    text += (text.empty() ? "" : " ") + std::string(dramCommandName(record.command)) + "@" +
            std::to_string(record.cycle);
  return text;
}

/// Drives a DetailedDram directly: requests sent at given cycles, completions recorded by id.
struct Bench {
  EventQueue events;
  DetailedDram dram;
  std::vector<TimePs> done = std::vector<TimePs>(64, -1);

  explicit Bench(const config::DramConfig &config) : dram(config, events) {
    dram.recordCommands(true);
    dram.setCompletionCallback([this](const MemoryRequest &request, TimePs at) { done.at(request.id) = at; });
  }
  void sendAt(int64_t cycle, uint64_t id, uint64_t address, bool write = false) {
    events.schedule(cycle * 1000, [this, id, address, write] {
      MemoryRequest request{id, address, 32, write, 0};
      ASSERT_TRUE(dram.canAccept(request));
      dram.accept(request);
    });
  }
};

TEST(DramController, ReadOfClosedRowWaitsForRowToColumnDelay) {
  Bench bench(oneChannel());
  bench.sendAt(0, 0, 0);
  bench.events.run();
  // The controller tries every cycle; RD goes at ACT + nRCD = 14, not at 13.
  EXPECT_EQ(commands(bench.dram), "ACT@0 RD@14");
  // Data back at RD + nCL + nBL = 14 + 14 + 2 = 30 cycles.
  EXPECT_EQ(bench.done[0], 30'000);
  EXPECT_EQ(bench.dram.stats().rowMisses, 1);
}

TEST(DramController, RowHitWaitsOnlyForColumnToColumnDelay) {
  Bench bench(oneChannel());
  bench.sendAt(0, 0, 0);
  bench.sendAt(0, 1, 32);
  bench.events.run();
  // Same bank: nCCDLong = 4 after RD@14. Done at 18 + 16 = 34.
  EXPECT_EQ(commands(bench.dram), "ACT@0 RD@14 RD@18");
  EXPECT_EQ(bench.done[1], 34'000);
  EXPECT_EQ(bench.dram.stats().rowHits, 1);
  EXPECT_EQ(bench.dram.stats().rowMisses, 1);
}

TEST(DramController, RowConflictPrechargesAfterRasAndReactivatesAfterRp) {
  Bench bench(oneChannel());
  bench.sendAt(0, 0, 0);
  bench.sendAt(0, 1, 16384); // row 1 of the same bank
  bench.events.run();
  // PRE at max(ACT + nRAS, RD + nRTP) = max(34, 19) = 34; ACT at 34 + nRP = 48
  // (= ACT + nRC = 48); RD at 48 + 14 = 62; data at 62 + 16 = 78.
  EXPECT_EQ(commands(bench.dram), "ACT@0 RD@14 PRE@34 ACT@48 RD@62");
  EXPECT_EQ(bench.done[1], 78'000);
  EXPECT_EQ(bench.dram.stats().rowConflicts, 1);
}

TEST(DramController, FrFcfsServesYoungerRowHitBeforeOlderMiss) {
  Bench bench(oneChannel());
  bench.sendAt(0, 0, 0);      // opens bank 0's row 0
  bench.sendAt(20, 1, 16384); // older: row 1 of bank 0, a conflict
  bench.sendAt(20, 2, 64);    // younger: row 0 of bank 0, a hit
  bench.events.run();
  // At 20 the hit's RD is ready (RD@14 + nCCDL 4 = 18) and goes first: data at
  // 20 + 16 = 36. The older request then precharges at ACT + nRAS = 34,
  // activates at 48, reads at 62, data at 78. First come first served would have
  // closed row 0 for the older request and made the hit a conflict.
  EXPECT_EQ(commands(bench.dram), "ACT@0 RD@14 RD@20 PRE@34 ACT@48 RD@62");
  EXPECT_EQ(bench.done[2], 36'000);
  EXPECT_EQ(bench.done[1], 78'000);
  EXPECT_LT(bench.done[2], bench.done[1]);
}

TEST(DramController, RowHitsPassAnOlderMissOnlyUntilTheStarvationLimit) {
  config::DramConfig config = oneChannel();
  config.timing.nREFI = 0; // no refresh, to keep the arithmetic plain
  EventQueue events;
  DetailedDram dram(config, events);
  TimePs missDone = -1, lastHitDone = 0;
  dram.setCompletionCallback([&](const MemoryRequest &request, TimePs at) {
    if (request.id == 0)
      missDone = at;
    else
      lastHitDone = std::max(lastHitDone, at);
  });
  // A core rereads bank 0's row 0 (byte 0) 3000 times as fast as the queue
  // allows; from cycle 20 one read of row 1 of the same bank takes the first free
  // entry (cycle 22: the queue is full and a hit leaves every 4 cycles from 14).
  uint64_t sent = 0;
  bool missSent = false;
  std::function<void()> pump = [&] {
    const MemoryRequest miss{0, 16384, 32, false, 0};
    if (!missSent && events.now() >= 20'000 && dram.canAccept(miss)) {
      dram.accept(miss);
      missSent = true;
    }
    while (sent < 3000 && dram.canAccept(MemoryRequest{sent + 1, 0, 32, false, 0})) {
      dram.accept(MemoryRequest{sent + 1, 0, 32, false, 0});
      ++sent;
    }
  };
  dram.setRetryCallback(pump);
  events.schedule(0, pump);
  events.schedule(20'000, pump);
  events.run();
  // Hits go every nCCDLong = 4 cycles: 3000 of them take 12,000 cycles, and pure
  // FR-FCFS would hold the miss behind all of them. Once it is the oldest (the 64
  // hits ahead of it leave by 22 + 64 * 4 = 278) and has waited 1024 cycles
  // (22 + 1024 = 1046), it is served first come first served: PRE at most a few
  // cycles later (nRTP = 5 after the last hit), ACT nRP = 14 later, RD nRCD = 14
  // later, data nCL + nBL = 16 later: done by 1047 + 5 + 14 + 14 + 16 = 1096.
  EXPECT_GT(missDone, 1046'000);
  EXPECT_LE(missDone, 1096'000);
  EXPECT_GT(lastHitDone, missDone);
}

TEST(DramController, WriteIsDoneAfterWriteLatencyAndBurst) {
  Bench bench(oneChannel());
  bench.sendAt(0, 0, 0, /*write=*/true);
  bench.events.run();
  // WR at ACT + nRCDWrite = 12; done at 12 + nCWL 5 + nBL 2 = 19.
  EXPECT_EQ(commands(bench.dram), "ACT@0 WR@12");
  EXPECT_EQ(bench.done[0], 19'000);
  EXPECT_EQ(bench.dram.stats().writes, 1);
  EXPECT_EQ(bench.dram.stats().bytesWritten, 32);
}

TEST(DramController, WritesWaitForHighWatermarkThenDrainToLowWatermark) {
  config::DramConfig config = oneChannel();
  config.queueEntries = 10; // high watermark 10 * 4 / 5 = 8, low 10 / 5 = 2
  Bench bench(config);
  ASSERT_EQ(bench.dram.controller(0).writeHighWatermark(), 8);
  ASSERT_EQ(bench.dram.controller(0).writeLowWatermark(), 2);
  // Eight writes to bank 0's row 0 and three reads to bank group 1's row 0, all at 0.
  for (uint64_t i = 0; i < 8; ++i)
    bench.sendAt(0, i, 32 * i, /*write=*/true);
  for (uint64_t i = 0; i < 3; ++i)
    bench.sendAt(0, 8 + i, 1024 + 32 * i);
  bench.events.run();
  // Eight writes reach the high watermark: six drain (8 -> 2), then the three
  // reads, then the last two writes once no read is left.
  std::string order;
  for (const DramCommandRecord &record : bench.dram.commandLog(0))
    if (record.command == DramCommand::Read || record.command == DramCommand::Write)
      order += record.command == DramCommand::Read ? 'R' : 'W';
  EXPECT_EQ(order, "WWWWWWRRRWW");
}

TEST(DramController, ReadsGoBeforeWritesBelowHighWatermark) {
  Bench bench(oneChannel()); // 64 entries: high watermark 51
  for (uint64_t i = 0; i < 3; ++i)
    bench.sendAt(0, i, 32 * i, /*write=*/true);
  for (uint64_t i = 0; i < 3; ++i)
    bench.sendAt(0, 3 + i, 1024 + 32 * i);
  bench.events.run();
  std::string order;
  for (const DramCommandRecord &record : bench.dram.commandLog(0))
    if (record.command == DramCommand::Read || record.command == DramCommand::Write)
      order += record.command == DramCommand::Read ? 'R' : 'W';
  EXPECT_EQ(order, "RRRWWW");
}

TEST(DramController, AWriteBelowTheWatermarkWaitsForReadsOnlyUntilTheStarvationLimit) {
  config::DramConfig config = oneChannel();
  config.timing.nREFI = 0; // no refresh, to keep the arithmetic plain
  EventQueue events;
  DetailedDram dram(config, events);
  TimePs writeDone = -1, lastReadDone = 0;
  dram.setCompletionCallback([&](const MemoryRequest &request, TimePs at) {
    if (request.id == 0)
      writeDone = at;
    else
      lastReadDone = std::max(lastReadDone, at);
  });
  // A core streams 3000 reads of bank 0's row 0 as fast as the queue allows
  // (a hit every nCCDLong = 4 cycles: 12,000 cycles); at cycle 20 one write to
  // bank group 1 arrives, one entry of a write queue whose drain starts at 51.
  uint64_t sent = 0;
  bool writeSent = false;
  std::function<void()> pump = [&] {
    const MemoryRequest write{0, 1024, 32, true, 0};
    if (!writeSent && events.now() >= 20'000 && dram.canAccept(write)) {
      dram.accept(write);
      writeSent = true;
    }
    while (sent < 3000 && dram.canAccept(MemoryRequest{sent + 1, 0, 32, false, 0})) {
      dram.accept(MemoryRequest{sent + 1, 0, 32, false, 0});
      ++sent;
    }
  };
  dram.setRetryCallback(pump);
  events.schedule(0, pump);
  events.schedule(20'000, pump);
  events.run();
  // Below the watermark and with reads always queued, the write would wait for
  // the last read. Once it has waited 1024 cycles (20 + 1024 = 1044) it starts
  // the drain: ACT of its closed bank from cycle 1045, WR nRCDWrite = 12 later,
  // done nCWL + nBL = 7 after that (1064 at the earliest), allowing a few cycles
  // for the read burst on the bus to finish: by 1100.
  EXPECT_GT(writeDone, 1044'000);
  EXPECT_LE(writeDone, 1100'000);
  EXPECT_GT(lastReadDone, writeDone);
}

TEST(DramController, RefreshCatchesUpAfterIdleAndHoldsTheChannelForRfc) {
  config::DramConfig config = oneChannel();
  config.timing.nREFI = 200;
  config.timing.nRFC = 50;
  Bench bench(config);
  bench.sendAt(0, 0, 0);
  bench.sendAt(410, 1, 32);
  bench.events.run();
  // The controller sleeps from 15 to 410. Waking, it performs the refreshes due
  // at 200 and 400 where they would have gone: bank 0 is open, so PREA at 200,
  // REF at 200 + nRP = 214; at 400 the banks are closed: REF at 400. The next
  // ACT waits for 400 + nRFC = 450; RD at 464; data at 464 + 16 = 480.
  EXPECT_EQ(commands(bench.dram), "ACT@0 RD@14 PREA@200 REF@214 REF@400 ACT@450 RD@464");
  EXPECT_EQ(bench.done[1], 480'000);
  EXPECT_EQ(bench.dram.stats().refreshes, 2);
}

TEST(DramController, RefreshEveryRefreshIntervalDuringTraffic) {
  config::DramConfig config = oneChannel(); // nREFI 3900, nRFC 350
  EventQueue events;
  DetailedDram dram(config, events);
  dram.recordCommands(true);
  // 5000 reads in address order keep the channel busy past 2 * 3900 cycles
  // (each takes at least nBL = 2 cycles of the data bus: >= 10,000 cycles).
  uint64_t next = 0;
  std::function<void()> pump = [&] {
    while (next < 5000 && dram.canAccept(MemoryRequest{next, next * 32, 32, false, 0})) {
      dram.accept(MemoryRequest{next, next * 32, 32, false, 0});
      ++next;
    }
  };
  dram.setRetryCallback(pump);
  events.schedule(0, pump);
  events.run();
  std::vector<int64_t> refreshes;
  const auto &log = dram.commandLog(0);
  for (const DramCommandRecord &record : log)
    if (record.command == DramCommand::Refresh)
      refreshes.push_back(record.cycle);
  ASSERT_GE(refreshes.size(), 2u);
  for (size_t k = 0; k < refreshes.size(); ++k) {
    const int64_t due = static_cast<int64_t>(k + 1) * 3900;
    // Due at k * nREFI; at most nRAS (34, for a row opened just before) plus
    // nRP (14) plus the PREA's own cycle later: 49.
    EXPECT_GE(refreshes[k], due) << "refresh " << k;
    EXPECT_LE(refreshes[k], due + 49) << "refresh " << k;
    // Nothing but the refresh sequence from the due time, no ACT for nRFC after it.
    for (const DramCommandRecord &record : log) {
      if (record.cycle >= due && record.cycle < refreshes[k]) {
        EXPECT_TRUE(record.command == DramCommand::PrechargeAll) << "cycle " << record.cycle;
      }
      if (record.command == DramCommand::Activate) {
        EXPECT_FALSE(record.cycle > refreshes[k] && record.cycle < refreshes[k] + 350) << "ACT at " << record.cycle;
      }
    }
  }
  EXPECT_EQ(dram.stats().refreshes, static_cast<int64_t>(refreshes.size()));
  EXPECT_EQ(dram.stats().reads, 5000);
}

} // namespace
} // namespace npusim::timing
