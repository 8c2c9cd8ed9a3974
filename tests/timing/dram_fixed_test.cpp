// The fixed-latency DRAM model and the memory-system factory around it.
#include "timing/memory/memory_system.h"
#include "timing/memory/noc.h"

#include "core/error.h"
#include "timing/dram_test_traffic.h"

#include <gtest/gtest.h>

namespace npusim::timing {
namespace {

using traffic::TrafficDriver;

config::DramConfig fixedDram(int channels, int latency) {
  config::DramConfig dram;
  dram.model = "fixed_latency";
  dram.channels = channels;
  dram.freqMhz = 1000.0; // tCK = 1000 ps
  dram.fixedLatencyCycles = latency;
  dram.timing.burstCycles = 2;
  return dram;
}

TEST(DramFixedLatency, OneRequestTakesExactlyTheLatency) {
  EventQueue events;
  std::unique_ptr<DramModel> made = makeDramModel(fixedDram(1, 100), events);
  DramModel &dram = *made;
  TrafficDriver driver(events, dram, traffic::streamRequests(0, 32, 32));
  // Accepted at cycle 0, complete at cycle 100 = 100,000 ps.
  EXPECT_EQ(driver.run(), 100'000);
}

TEST(DramFixedLatency, BurstToOneChannelIsLatencyPlusSerialization) {
  EventQueue events;
  std::unique_ptr<DramModel> made = makeDramModel(fixedDram(1, 100), events);
  DramModel &dram = *made;
  TrafficDriver driver(events, dram, traffic::streamRequests(0, 10 * 32, 32));
  driver.run();
  // Ten 32-byte accesses to one channel at cycle 0: the data bus returns one
  // access per nBL = 2 cycles, so request i completes at 100 + 2 i cycles and the
  // last at 100 + 9 * 2 = 118 cycles.
  for (size_t i = 0; i < 10; ++i)
    EXPECT_EQ(driver.completion(i), static_cast<TimePs>(100 + 2 * i) * 1000) << "request " << i;
}

TEST(DramFixedLatency, ChannelsServeInParallel) {
  EventQueue events;
  std::unique_ptr<DramModel> made = makeDramModel(fixedDram(4, 100), events);
  DramModel &dram = *made;
  // Channel bits sit just above the 32-byte granule (RoBaRaCoCh): eight granules
  // go to channels 0,1,2,3,0,1,2,3; each channel returns two, at 100 and 102 cycles.
  TrafficDriver driver(events, dram, traffic::streamRequests(0, 8 * 32, 32));
  EXPECT_EQ(driver.run(), 102'000);
}

TEST(DramFixedLatency, FullQueueRefusesAndRetries) {
  EventQueue events;
  config::DramConfig config = fixedDram(1, 100);
  config.queueEntries = 2;
  std::unique_ptr<DramModel> made = makeDramModel(config, events);
  DramModel &dram = *made;
  TrafficDriver driver(events, dram, traffic::streamRequests(0, 3 * 32, 32));
  driver.run();
  // Two requests fit the queue at cycle 0 and complete at 100 and 102; the third
  // enters when the first leaves (cycle 100) and completes at 100 + 100 = 200.
  EXPECT_EQ(driver.completion(1), 102'000);
  EXPECT_EQ(driver.completion(2), 200'000);
}

TEST(DramFixedLatency, RejectsRequestsCrossingAGranule) {
  EventQueue events;
  std::unique_ptr<DramModel> made = makeDramModel(fixedDram(1, 100), events);
  DramModel &dram = *made;
  EXPECT_THROW(dram.accept(MemoryRequest{0, 16, 32, false, 0}), core::RuntimeError);
  EXPECT_THROW(dram.accept(MemoryRequest{0, 0, 0, false, 0}), core::RuntimeError);
}

TEST(DramFixedLatency, StatisticsCountRequestsAndBytes) {
  EventQueue events;
  std::unique_ptr<DramModel> made = makeDramModel(fixedDram(2, 10), events);
  DramModel &dram = *made;
  std::vector<MemoryRequest> requests = traffic::streamRequests(0, 4 * 32, 32);
  requests[3].write = true;
  TrafficDriver driver(events, dram, requests);
  driver.run();
  const MemoryStats stats = dram.stats();
  EXPECT_EQ(stats.reads, 3);
  EXPECT_EQ(stats.writes, 1);
  EXPECT_EQ(stats.bytesRead, 96);
  EXPECT_EQ(stats.bytesWritten, 32);
  EXPECT_EQ(stats.rowHits + stats.rowMisses + stats.rowConflicts, 0); // no rows in this model
  // Two per channel: the second on each completes at 10 + 2 = 12 cycles.
  EXPECT_EQ(stats.busyUntil, 12'000);
}

TEST(DramFixedLatency, FactoryBuildsFixedLatencyBehindTheNoc) {
  config::HardwareConfig hardware = traffic::oneGigahertzMachine(1);
  hardware.dram = fixedDram(1, 100);
  EventQueue events;
  std::unique_ptr<MemoryPort> memory = makeMemorySystem(hardware, events);
  TrafficDriver driver(events, *memory, traffic::streamRequests(0, 32, 32));
  // NoC latency 10 core cycles each way plus one cycle of port serialization
  // each way (a read request carries no payload but takes one cycle; the 32-byte
  // response takes 32 / 32 = 1 cycle): 11 + 100 + 11 = 122 cycles of 1000 ps.
  EXPECT_EQ(driver.run(), 122'000);
  EXPECT_EQ(memory->stats().reads, 1);
}

TEST(DramFixedLatency, RejectsBadAddressMapping) {
  config::DramConfig config = fixedDram(1, 100);
  EventQueue events;
  config.addressMapping = "RoBaCoCh"; // no rank
  EXPECT_THROW(makeDramModel(config, events), core::InputError);
  config.addressMapping = "RoBaRaCoCoCh";
  EXPECT_THROW(makeDramModel(config, events), core::InputError);
  config.addressMapping = "RoBaRaCoXx";
  EXPECT_THROW(makeDramModel(config, events), core::InputError);
}

} // namespace
} // namespace npusim::timing
