// The crossbar NoC: latency, per-port bandwidth, request splitting, credits.
#include "timing/memory/noc.h"

#include "core/error.h"
#include "timing/dram_test_traffic.h"
#include "timing/memory/memory_system.h"

#include <gtest/gtest.h>

namespace npusim::timing {
namespace {

using traffic::TrafficDriver;

// Core and DRAM clocks both 1000 MHz, so every cycle below is 1000 ps.
config::HardwareConfig machine(int channels, int portsPerCore, int dramLatency) {
  config::HardwareConfig hardware = traffic::oneGigahertzMachine(channels);
  hardware.noc.latencyCycles = 10;
  hardware.noc.bytesPerCyclePerPort = 32;
  hardware.noc.portsPerCore = portsPerCore;
  hardware.dram.model = "fixed_latency";
  hardware.dram.fixedLatencyCycles = dramLatency;
  return hardware;
}

CrossbarNoc makeNoc(const config::HardwareConfig &hardware, EventQueue &events) {
  return CrossbarNoc(hardware, events, makeDramModel(hardware.dram, events));
}

TEST(Noc, WriteLatencyCountsPayloadSerialization) {
  config::HardwareConfig hardware = machine(1, 1, 0);
  hardware.noc.bytesPerCyclePerPort = 8;
  EventQueue events;
  CrossbarNoc noc = makeNoc(hardware, events);
  TrafficDriver driver(events, noc, traffic::streamRequests(0, 32, 32, /*write=*/true));
  // A 32-byte write on 8-byte ports: 4 cycles of serialization, cut-through, so it
  // arrives at 10 + 4 = 14; the DRAM takes 0 cycles; the acknowledgement takes one
  // cycle of each port: 10 + 1 = 11 more. Total 25 cycles.
  EXPECT_EQ(driver.run(), 25'000);
}

TEST(Noc, OneCorePortSerializesPiecesToManyChannels) {
  EventQueue events;
  CrossbarNoc noc = makeNoc(machine(16, 1, 0), events);
  // Sixteen 32-byte writes to channels 0..15 through one core port: write i leaves
  // the port at cycle i (one cycle each), arrives at i + 11, is done in the DRAM at
  // once, and its acknowledgement is back at i + 11 + 11. The last: 15 + 22 = 37.
  TrafficDriver driver(events, noc, traffic::streamRequests(0, 16 * 32, 32, /*write=*/true));
  EXPECT_EQ(driver.run(), 37'000);
}

TEST(Noc, SixteenCorePortsSendInParallel) {
  EventQueue events;
  CrossbarNoc noc = makeNoc(machine(16, 16, 0), events);
  // Channel c uses core port c % 16: all sixteen writes leave at cycle 0 and are
  // back at 0 + 11 + 11 = 22.
  TrafficDriver driver(events, noc, traffic::streamRequests(0, 16 * 32, 32, /*write=*/true));
  EXPECT_EQ(driver.run(), 22'000);
}

TEST(Noc, ChannelPortLimitsReadResponses) {
  EventQueue events;
  config::HardwareConfig hardware = machine(1, 1, 0);
  hardware.noc.bytesPerCyclePerPort = 16;
  hardware.dram.timing.burstCycles = 1;
  CrossbarNoc noc = makeNoc(hardware, events);
  // Four 32-byte reads to one channel: requests leave one per cycle (no payload),
  // arrive at 11, 12, 13, 14; the DRAM (latency 0, one access per cycle) is done
  // at the same cycles; each 32-byte response takes 32 / 16 = 2 cycles of the
  // channel port, so they leave at 11, 13, 15, 17 and are back 10 + 2 later:
  // the last at 17 + 12 = 29.
  TrafficDriver driver(events, noc, traffic::streamRequests(0, 4 * 32, 32));
  EXPECT_EQ(driver.run(), 29'000);
}

TEST(Noc, SplitsRequestsAtGranules) {
  EventQueue events;
  CrossbarNoc noc = makeNoc(machine(4, 16, 100), events);
  // A 64-byte read at byte 16 touches granules 0, 1 and 2 (channels 0, 1, 2):
  // three 16/32/16-byte pieces; the request completes when the last is back.
  TrafficDriver driver(events, noc, {MemoryRequest{0, 16, 64, false, 0}});
  // Each piece: 11 there, 100 in the DRAM, 11 back (a piece of up to 32 bytes
  // takes one cycle of a port) = 122.
  EXPECT_EQ(driver.run(), 122'000);
  EXPECT_EQ(noc.dram().stats().reads, 3);
  EXPECT_EQ(noc.stats().reads, 1);
  EXPECT_EQ(noc.stats().bytesRead, 64);
}

TEST(Noc, CreditsPassBackPressureThrough) {
  config::HardwareConfig hardware = machine(1, 1, 100);
  hardware.dram.queueEntries = 2;
  EventQueue events;
  CrossbarNoc noc = makeNoc(hardware, events);
  MemoryRequest third{2, 64, 32, false, 0};
  TrafficDriver driver(events, noc, traffic::streamRequests(0, 3 * 32, 32));
  // Two reads take both queue entries while still in the NoC, so the third is
  // refused at once, although the DRAM queue itself is still empty.
  events.schedule(0, [&] { EXPECT_TRUE(noc.canAccept(third)) << "nothing sent yet"; });
  driver.run();
  // Reads 0 and 1 leave the core at 0 and 1, reach the DRAM at 11 and 12, are
  // done at 111 and 113 (bus: one access per 2 cycles). Read 0 frees its entry at
  // 111; read 2 leaves at 111, reaches the DRAM at 122, done at 222, back at 233.
  EXPECT_EQ(driver.completion(0), 122'000);
  EXPECT_EQ(driver.completion(2), 233'000);
}

TEST(Noc, TwoCoresShareAChannelPort) {
  config::HardwareConfig hardware = machine(1, 1, 0);
  hardware.numCores = 2;
  EventQueue events;
  CrossbarNoc noc = makeNoc(hardware, events);
  std::vector<TimePs> done(2, -1);
  noc.setCompletionCallback([&](const MemoryRequest &request, TimePs at) { done.at(request.id) = at; });
  events.schedule(0, [&] {
    noc.accept(MemoryRequest{0, 0, 32, true, 0});
    noc.accept(MemoryRequest{1, 32, 32, true, 1});
  });
  events.run();
  // Both writes leave their own core port at 0 and reach channel 0's port at 10.
  // Core 0's takes it for cycle 10 and arrives at 11; core 1's waits: 11, arrives
  // 12. The DRAM (latency 0, nBL 2) is done at 11 and max(12, 11 + 2) = 13. The
  // acknowledgements leave the channel port at 11 and 13, and are back at 22 and 24.
  EXPECT_EQ(done[0], 22'000);
  EXPECT_EQ(done[1], 24'000);
}

TEST(Noc, RejectsRequestsLargerThanAChannelQueue) {
  config::HardwareConfig hardware = machine(1, 1, 10);
  hardware.dram.queueEntries = 1;
  EventQueue events;
  CrossbarNoc noc = makeNoc(hardware, events);
  // One channel, 32-byte granules: a 64-byte read needs two entries of a
  // one-entry queue and could never be accepted.
  EXPECT_THROW((void)noc.canAccept(MemoryRequest{0, 0, 64, false, 0}), core::RuntimeError);
  EXPECT_TRUE(noc.canAccept(MemoryRequest{0, 0, 32, false, 0}));
}

config::HardwareConfig twoChannelsOfThreeEntries() {
  config::HardwareConfig hardware = machine(2, 1, 10);
  hardware.dram.queueEntries = 3;
  return hardware;
}

TEST(Noc, CreditsCountPiecesPerChannel) {
  EventQueue events;
  CrossbarNoc noc = makeNoc(twoChannelsOfThreeEntries(), events);
  // Two channels, 32-byte granules alternating between them: 256 bytes are 8
  // pieces, 4 per channel, more than a 3-entry queue; 192 bytes are 3 per
  // channel (6 in all), which fit.
  EXPECT_THROW((void)noc.canAccept(MemoryRequest{0, 0, 256, false, 0}), core::RuntimeError);
  const MemoryRequest six{1, 0, 192, false, 0};
  const MemoryRequest one{2, 1024, 32, false, 0};
  EXPECT_TRUE(noc.canAccept(one)) << "the counts of the refused request are gone";
  EXPECT_TRUE(noc.canAccept(six));
  events.schedule(0, [&] {
    noc.accept(six);
    // Three credits of each channel are taken by pieces still in the NoC.
    EXPECT_FALSE(noc.canAccept(one));
  });
  events.run();
  EXPECT_EQ(noc.dram().stats().reads, 6);
}

// accept() trusts a yes of canAccept() only for the request it was given and
// only until the next accept.
TEST(Noc, AcceptChecksCreditsUnlessCanAcceptJustSaidYesToTheSameRequest) {
  EventQueue events;
  CrossbarNoc noc = makeNoc(twoChannelsOfThreeEntries(), events);
  // As above: 192 bytes are 3 pieces per channel, all of a 3-entry queue; the
  // 32 bytes at 1024 (granule 32, even) go to channel 0.
  const MemoryRequest six{1, 0, 192, false, 0};
  const MemoryRequest one{2, 1024, 32, false, 0};
  events.schedule(0, [&] {
    EXPECT_TRUE(noc.canAccept(one));
    noc.accept(six); // a yes for `one` says nothing about `six`, which fits
    EXPECT_THROW(noc.accept(one), core::RuntimeError) << "the yes for one was before six took the credits";
    EXPECT_THROW(noc.accept(six), core::RuntimeError) << "no credits left for a second six";
  });
  events.run();
  EXPECT_EQ(noc.dram().stats().reads, 6);
}

TEST(Noc, RejectsUnknownCores) {
  EventQueue events;
  CrossbarNoc noc = makeNoc(machine(1, 1, 10), events);
  EXPECT_THROW((void)noc.canAccept(MemoryRequest{0, 0, 32, false, 3}), core::RuntimeError);
  EXPECT_THROW((void)noc.canAccept(MemoryRequest{0, 0, 0, false, 0}), core::RuntimeError);
}

TEST(Noc, TwoRunsGiveIdenticalTimes) {
  auto runOnce = [] {
    EventQueue events;
    CrossbarNoc noc = makeNoc(machine(8, 4, 50), events);
    TrafficDriver driver(events, noc, traffic::randomRequests(2000, 1 << 20, 64));
    driver.run();
    return driver.completions();
  };
  EXPECT_EQ(runOnce(), runOnce());
}

} // namespace
} // namespace npusim::timing
