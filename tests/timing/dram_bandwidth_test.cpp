// Whole memory system (NoC + detailed DRAM) under streaming and random traffic
// from one core: achieved bandwidth against the configured peak, row-hit rates,
// scaling with channels, determinism, and the three parameter sets of
// Ramulator 2.1 (CMU-SAFARI/ramulator2; docs/config.md: HBM2 2000 Mbps,
// HBM3 6400 Mbps, DDR4-3200AA), written out here.
#include "timing/memory/dram_model.h"
#include "timing/memory/memory_system.h"

#include "timing/dram_test_traffic.h"

#include <gtest/gtest.h>

#include <cstdio>

namespace npusim::timing {
namespace {

using traffic::TrafficDriver;

/// tRFC and tREFI in cycles of a clock of `tckPs`: ns * 1000 / tCK.
int cyclesOf(double nanoseconds, double tckPs) { return static_cast<int>(nanoseconds * 1000.0 / tckPs + 0.5); }

config::HardwareConfig hbm2Machine() {
  config::HardwareConfig hardware;
  hardware.numCores = 1;
  hardware.coreFreqMhz = 940.0; // TPUv3-like: 16 ports x 32 B x 940 MHz = 481 GB/s into the core
  hardware.noc = {.latencyCycles = 10, .bytesPerCyclePerPort = 32, .portsPerCore = 16};
  config::DramConfig &dram = hardware.dram;
  dram.model = "detailed";
  dram.channels = 16;
  dram.freqMhz = 1000.0; // tCK 1000 ps
  config::DramTiming &t = dram.timing;
  t.name = "hbm2";
  t.tckPs = 1000.0;
  t.burstCycles = 2;
  t.nCL = 14, t.nRCDRead = 14, t.nRCDWrite = 12, t.nRP = 14, t.nRAS = 34, t.nRC = 48;
  t.nWR = 16, t.nRTP = 5, t.nCWL = 5;
  t.nCCDShort = 2, t.nCCDLong = 4, t.nRRDShort = 4, t.nRRDLong = 4, t.nFAW = 15;
  t.nRFC = cyclesOf(350, 1000), t.nREFI = cyclesOf(3900, 1000); // 350 ns, 3.9 us
  t.bankGroups = 4, t.banksPerGroup = 4, t.rows = 65536, t.columns = 128;
  t.busWidthBits = 64, t.prefetch = 4; // 32-byte accesses
  return hardware;
}

config::HardwareConfig hbm3Machine() {
  config::HardwareConfig hardware;
  hardware.numCores = 1;
  hardware.coreFreqMhz = 3502.0; // TPUv6e-like: 16 x 32 B x 3502 MHz = 1.79 TB/s into the core
  hardware.noc = {.latencyCycles = 10, .bytesPerCyclePerPort = 32, .portsPerCore = 16};
  config::DramConfig &dram = hardware.dram;
  dram.channels = 32;
  dram.freqMhz = 1600.0; // tCK 625 ps
  config::DramTiming &t = dram.timing;
  t.name = "hbm3";
  t.tckPs = 625.0;
  t.burstCycles = 2;
  t.nCL = 20, t.nRCDRead = 31, t.nRCDWrite = 15, t.nRP = 26, t.nRAS = 45, t.nRC = 72;
  t.nWR = 33, t.nRTP = 9, t.nCWL = 10;
  t.nCCDShort = 2, t.nCCDLong = 4, t.nRRDShort = 4, t.nRRDLong = 5, t.nFAW = 24;
  t.nRFC = cyclesOf(350, 625), t.nREFI = cyclesOf(3900, 625); // 560, 6240
  t.bankGroups = 4, t.banksPerGroup = 4, t.rows = 16384, t.columns = 256;
  t.busWidthBits = 32, t.prefetch = 8; // 32-byte accesses
  return hardware;
}

config::HardwareConfig ddr4Machine() {
  config::HardwareConfig hardware;
  hardware.numCores = 1;
  hardware.coreFreqMhz = 940.0;
  hardware.noc = {.latencyCycles = 10, .bytesPerCyclePerPort = 32, .portsPerCore = 16};
  config::DramConfig &dram = hardware.dram;
  dram.channels = 4;
  dram.freqMhz = 1600.0; // tCK 625 ps
  config::DramTiming &t = dram.timing;
  t.name = "ddr4";
  t.tckPs = 625.0;
  t.burstCycles = 4;
  t.nCL = 22, t.nRCDRead = 22, t.nRCDWrite = 22, t.nRP = 22, t.nRAS = 52, t.nRC = 74;
  t.nWR = 24, t.nRTP = 12, t.nCWL = 16;
  t.nCCDShort = 4, t.nCCDLong = 8, t.nRRDShort = 4, t.nRRDLong = 8, t.nFAW = 34;
  t.nRFC = cyclesOf(360, 625), t.nREFI = cyclesOf(7800, 625); // 576, 12480
  t.bankGroups = 4, t.banksPerGroup = 4, t.rows = 65536, t.columns = 1024;
  t.busWidthBits = 64, t.prefetch = 8; // 64-byte accesses
  return hardware;
}

struct Measured {
  double fractionOfPeak;
  double rowHitRate;
  TimePs time;
  MemoryStats stats;
};

Measured run(const config::HardwareConfig &hardware, const std::vector<MemoryRequest> &requests) {
  EventQueue events;
  std::unique_ptr<MemoryPort> memory = makeMemorySystem(hardware, events);
  TrafficDriver driver(events, *memory, requests);
  const TimePs time = driver.run();
  EXPECT_EQ(driver.completed(), requests.size());
  Measured result{};
  result.time = time;
  result.stats = memory->stats();
  const double bytes = static_cast<double>(result.stats.bytesRead + result.stats.bytesWritten);
  result.fractionOfPeak = bytes / (static_cast<double>(time) * 1e-12) / hardware.dram.peakBytesPerSecond();
  const auto accesses = static_cast<double>(result.stats.rowHits + result.stats.rowMisses + result.stats.rowConflicts);
  result.rowHitRate = static_cast<double>(result.stats.rowHits) / accesses;
  std::printf("  %s: %.1f%% of peak (%.1f GB/s), row hits %.1f%%, refreshes %lld, %.0f ns\n",
              hardware.dram.timing.name.c_str(), 100.0 * result.fractionOfPeak,
              bytes / (static_cast<double>(time) * 1e-3), 100.0 * result.rowHitRate,
              static_cast<long long>(result.stats.refreshes), static_cast<double>(time) * 1e-3);
  return result;
}

TEST(DramBandwidth, PeakIsChannelsTimesAccessOverBurst) {
  // HBM2: 16 channels * 32 B / (2 * 1 ns) = 256 GB/s.
  EXPECT_DOUBLE_EQ(hbm2Machine().dram.peakBytesPerSecond(), 256e9);
  // HBM3: 32 * 32 B / (2 * 0.625 ns) = 819.2 GB/s; DDR4: 4 * 64 B / (4 * 0.625 ns) = 102.4 GB/s.
  EXPECT_DOUBLE_EQ(hbm3Machine().dram.peakBytesPerSecond(), 819.2e9);
  EXPECT_DOUBLE_EQ(ddr4Machine().dram.peakBytesPerSecond(), 102.4e9);
}

// One core streams 4 MiB in 64-byte reads with no limit on outstanding requests
// (back-pressure alone): 16 channels * 8192 accesses * nBL 2 = 16,384 DRAM cycles
// at peak. All-bank refresh takes each channel away for at least nRP + nRFC =
// 364 of every nREFI = 3900 cycles (9.3%), so about 91% is the ceiling here.
TEST(DramBandwidth, Hbm2StreamReadReachesNinetyPercentOfPeak) {
  const Measured stream = run(hbm2Machine(), traffic::streamRequests(0, 4 << 20, 64));
  EXPECT_GE(stream.fractionOfPeak, 0.90);
  EXPECT_EQ(stream.stats.bytesRead, 4 << 20);
  EXPECT_GT(stream.stats.refreshes, 0);
}

TEST(DramBandwidth, StreamRowHitRateNearOneRandomLow) {
  // RoBaRaCoCh: a channel sees consecutive columns of one row, 128 columns /
  // prefetch 4 = 32 accesses per row, of which the first opens it: 31/32 = 96.9%
  // hits (a refresh closing a row costs one more miss per 3900 cycles).
  const Measured stream = run(hbm2Machine(), traffic::streamRequests(0, 2 << 20, 64));
  EXPECT_GE(stream.rowHitRate, 0.95);
  EXPECT_LE(stream.rowHitRate, 31.0 / 32.0 + 1e-9);
  // Random 64-byte reads over 1 GiB: 16 channels * 16 banks * 65536 rows hold
  // 2^24 rows; two queued requests sharing a row is rare.
  const Measured random = run(hbm2Machine(), traffic::randomRequests(20000, 1ull << 30, 64));
  EXPECT_LT(random.rowHitRate, 0.05);
  // Every random access opens a row: the four-activate window (4 ACTs per nFAW =
  // 15 cycles, each for one access, against 15 / nBL = 7.5 accesses at peak)
  // caps it near 4 / 7.5 = 53% of peak.
  EXPECT_LT(random.fractionOfPeak, 4.0 / 7.5);
  EXPECT_LT(random.fractionOfPeak, stream.fractionOfPeak);
}

TEST(DramBandwidth, RefreshCostsItsShareOfTheRefreshInterval) {
  config::HardwareConfig noRefresh = hbm2Machine();
  noRefresh.dram.timing.nREFI = 0; // never due
  const Measured without = run(noRefresh, traffic::streamRequests(0, 4 << 20, 64));
  const Measured with = run(hbm2Machine(), traffic::streamRequests(0, 4 << 20, 64));
  EXPECT_EQ(without.stats.refreshes, 0);
  EXPECT_GE(without.fractionOfPeak, 0.99);
  // Each refresh stops the data bus for at least nRFC (350) and at most
  // nRAS + 1 + nRP + nRFC + nRCD = 34 + 1 + 14 + 350 + 14 = 413 cycles per 3900.
  const double slowdown = static_cast<double>(with.time) / static_cast<double>(without.time) - 1.0;
  EXPECT_GE(slowdown, 350.0 / 3900.0);
  EXPECT_LE(slowdown, 413.0 / 3900.0);
}

TEST(DramBandwidth, Hbm3AndDdr4SetsStream) {
  // HBM3: 32 accesses per row as for HBM2 (256 columns / prefetch 8); refresh
  // nRP + nRFC = 586 of 6240 cycles (9.4%).
  const Measured hbm3 = run(hbm3Machine(), traffic::streamRequests(0, 4 << 20, 64));
  EXPECT_GE(hbm3.fractionOfPeak, 0.90);
  EXPECT_GE(hbm3.rowHitRate, 0.95);
  // DDR4 rows hold 1024 / 8 = 128 accesses: with RoBaRaCoCh a 64-entry queue
  // often holds one row only, one bank group, where nCCDLong = 8 = 2 nBL halves
  // the rate; 50% is the floor. Interleaving banks below the column (RoCoBaRaCh)
  // alternates bank groups: refresh (22 + 576 of 12480 cycles, 4.8%) is left.
  const Measured ddr4Default = run(ddr4Machine(), traffic::streamRequests(0, 2 << 20, 64));
  EXPECT_GE(ddr4Default.fractionOfPeak, 0.5);
  config::HardwareConfig interleaved = ddr4Machine();
  interleaved.dram.addressMapping = "RoCoBaRaCh";
  const Measured ddr4 = run(interleaved, traffic::streamRequests(0, 2 << 20, 64));
  EXPECT_GE(ddr4.fractionOfPeak, 0.90);
  EXPECT_GT(ddr4.fractionOfPeak, ddr4Default.fractionOfPeak);
}

TEST(DramBandwidth, DoublingChannelsNeverSlowsStreamOrRandom) {
  TimePs previousStream = 0, previousRandom = 0;
  for (int channels : {2, 4, 8, 16, 32}) {
    config::HardwareConfig hardware = hbm2Machine();
    hardware.dram.channels = channels;
    const TimePs stream = run(hardware, traffic::streamRequests(0, 1 << 20, 64)).time;
    const TimePs random = run(hardware, traffic::randomRequests(5000, 1ull << 30, 64)).time;
    if (previousStream > 0) {
      EXPECT_LE(stream, previousStream) << channels << " channels";
      EXPECT_LE(random, previousRandom) << channels << " channels";
    }
    previousStream = stream;
    previousRandom = random;
  }
}

TEST(DramBandwidth, TwoRunsGiveIdenticalTimes) {
  std::vector<MemoryRequest> requests = traffic::randomRequests(5000, 1ull << 28, 64);
  for (size_t i = 0; i < requests.size(); i += 3)
    requests[i].write = true;
  auto once = [&] {
    EventQueue events;
    std::unique_ptr<MemoryPort> memory = makeMemorySystem(hbm2Machine(), events);
    TrafficDriver driver(events, *memory, requests);
    driver.run();
    return driver.completions();
  };
  const std::vector<TimePs> first = once();
  EXPECT_EQ(first, once());
}

TEST(DramBandwidth, ShippedPresetsStream) {
  // The HBM2 presets (PyTorchSim's TPUv3 and TPUv4 sets: nRFC 329 of nREFI 3666,
  // 421 of 4682, about 9%) reach 90% like the Ramulator HBM2 set.
  for (const char *name : {"tpuv3-like", "tpuv4-like"}) {
    const Measured stream = run(config::loadConfig(name), traffic::streamRequests(0, 4 << 20, 64));
    EXPECT_GE(stream.fractionOfPeak, 0.90) << name;
  }
  // edge-8lane: one DDR4 channel under RoBaRaCoCh; the floor is one bank group
  // at a time (nBL / nCCDLong = 4 / 8) less refresh (22 + 576 of 12480 cycles).
  const config::HardwareConfig edge = config::loadConfig("edge-8lane");
  const config::DramTiming &t = edge.dram.timing;
  const double floor = static_cast<double>(t.burstCycles) / t.nCCDLong * (1.0 - (t.nRP + t.nRFC) / double(t.nREFI));
  EXPECT_GE(run(edge, traffic::streamRequests(0, 1 << 20, 64)).fractionOfPeak, floor);
}

TEST(DramBandwidth, OutstandingLimitBoundsBandwidthByLittlesLaw) {
  // A core with 64 outstanding 64-byte requests (the default DMA engine) keeps
  // at most 4 KiB in flight. The fastest a request can be is a row hit with idle
  // ports: NoC 2 * (10 + 1) core cycles of 1064 ps (940 MHz) = 23.4 ns, plus
  // nCL + nBL = 16 DRAM cycles of 1 ns: 39.4 ns. So at most 4096 B / 39.4 ns =
  // 104 GB/s, 41% of the 256 GB/s peak, whatever the DRAM does.
  const config::HardwareConfig hardware = hbm2Machine();
  EventQueue events;
  std::unique_ptr<MemoryPort> memory = makeMemorySystem(hardware, events);
  TrafficDriver driver(events, *memory, traffic::streamRequests(0, 2 << 20, 64), 64);
  const TimePs time = driver.run();
  const double bytesPerNs = static_cast<double>(2 << 20) / (static_cast<double>(time) * 1e-3);
  std::printf("  64 outstanding: %.1f GB/s\n", bytesPerNs);
  EXPECT_LE(bytesPerNs, 4096.0 / 39.4);
  // An unloaded 64-byte read: two 32-byte pieces in two channels, each ACT, RD
  // after nRCD 14, data after nCL + nBL 16: 30 DRAM cycles, plus the NoC's 23.4 ns
  // and rounding to clock edges (under one cycle of each clock per crossing).
  EventQueue single;
  std::unique_ptr<MemoryPort> one = makeMemorySystem(hardware, single);
  TrafficDriver lone(single, *one, traffic::streamRequests(0, 64, 64));
  const TimePs latency = lone.run();
  EXPECT_GE(latency, 23'408 + 30'000);
  EXPECT_LE(latency, 23'408 + 30'000 + 2 * 1064 + 1000);
}

TEST(DramBandwidth, CopyStreamMixesReadsAndWrites) {
  // Read 2 MiB at 0 and write it to 64 MiB, interleaved as a copy loop issues
  // them: everything completes (write drain and reads share the channels), and
  // the DRAM moves 4 MiB in all.
  std::vector<MemoryRequest> requests;
  for (uint64_t offset = 0; offset < (2u << 20); offset += 64) {
    requests.push_back(MemoryRequest{requests.size(), offset, 64, false, 0});
    requests.push_back(MemoryRequest{requests.size(), (64u << 20) + offset, 64, true, 0});
  }
  const Measured copy = run(hbm2Machine(), requests);
  EXPECT_EQ(copy.stats.bytesRead, 2 << 20);
  EXPECT_EQ(copy.stats.bytesWritten, 2 << 20);
  // Read-write turnarounds and refresh cost bandwidth; it cannot beat the peak.
  EXPECT_LT(copy.fractionOfPeak, 1.0);
}

TEST(DramBandwidth, FourCoresStreamingOneBankConflictMoreThanStaggered) {
  // Four cores stream 1 MiB each, their requests interleaved. With regions 1 MiB
  // apart, granule offsets differ by 32768 = 64 * 512: the same channel and bank
  // number, another row. The four streams then fight over one bank per channel
  // and each row switch costs PRE, nRP and nRCD with no other bank to overlap.
  // Staggering the regions by 8 KiB more (256 granules: half a bank step) spreads
  // them over banks, so FR-FCFS overlaps row switches with other banks' hits.
  auto stream = [](uint64_t stride) {
    config::HardwareConfig hardware = hbm2Machine();
    hardware.numCores = 4;
    std::vector<MemoryRequest> requests;
    for (uint64_t offset = 0; offset < (1u << 20); offset += 64)
      for (int core = 0; core < 4; ++core)
        requests.push_back(MemoryRequest{requests.size(), core * stride + offset, 64, false, core});
    return run(hardware, requests);
  };
  const Measured sameBank = stream(uint64_t{1} << 20);
  const Measured staggered = stream((uint64_t{1} << 20) + 8192);
  EXPECT_EQ(sameBank.stats.bytesRead, 4 << 20);
  EXPECT_EQ(staggered.stats.bytesRead, 4 << 20);
  EXPECT_GT(staggered.fractionOfPeak, sameBank.fractionOfPeak);
  EXPECT_GT(sameBank.stats.rowConflicts, staggered.stats.rowConflicts);
}

} // namespace
} // namespace npusim::timing
