// The built-in presets and DRAM timing sets: each loads with the values that
// docs/architecture.md and docs/config.md give (after PyTorchSim's and
// Ramulator's published sets), and the peak
// numbers match arithmetic done by hand in the comments.
#include "config/hardware.h"
#include "core/error.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace npusim::config {
namespace {

TEST(Presets, TheThreePresetsAndFiveDramSetsAreBuiltIn) {
  std::vector<std::string> presets = presetNames();
  std::sort(presets.begin(), presets.end());
  EXPECT_EQ(presets, (std::vector<std::string>{"edge-8lane", "tpuv3-like", "tpuv4-like"}));
  std::vector<std::string> sets = dramTimingNames();
  std::sort(sets.begin(), sets.end());
  EXPECT_EQ(sets, (std::vector<std::string>{"ddr4", "hbm2", "hbm2-tpuv3", "hbm2-tpuv4", "hbm3"}));
}

TEST(Presets, Tpuv3LikeIsTheArchitectureDocumentsDefault) {
  const HardwareConfig c = loadConfig("tpuv3-like");
  EXPECT_EQ(c.name, "tpuv3-like");
  EXPECT_EQ(c.source, "preset:tpuv3-like");
  EXPECT_EQ(c.numCores, 1);
  EXPECT_EQ(c.coreFreqMhz, 940.0);
  EXPECT_EQ(c.lanes, 128);
  EXPECT_EQ(c.vlenBits, 256);
  EXPECT_EQ(c.spadKibPerLane, 128);
  EXPECT_EQ(c.spadBytesPerLane(), 131072); // 128 * 1024
  EXPECT_EQ(c.systolicArraysPerCore, 2);
  EXPECT_EQ(c.noc.latencyCycles, 10);
  EXPECT_EQ(c.dram.model, "detailed");
  EXPECT_EQ(c.dram.scheduler, "frfcfs");
  EXPECT_EQ(c.noc.model, "crossbar");
  EXPECT_EQ(c.dram.channels, 16);
  EXPECT_EQ(c.dram.freqMhz, 940.0);
  EXPECT_EQ(c.dram.timing.name, "hbm2-tpuv3");
  // PyTorchSim's TPUv3 HBM2 set (docs/config.md): nCL 13, nRCD 13/11, nRP 13,
  // nRAS 31, nRC 44, nWR 15, nFAW 15, nRFC 329, nREFI 3666.
  EXPECT_EQ(c.dram.timing.nCL, 13);
  EXPECT_EQ(c.dram.timing.nRCDRead, 13);
  EXPECT_EQ(c.dram.timing.nRCDWrite, 11);
  EXPECT_EQ(c.dram.timing.nRP, 13);
  EXPECT_EQ(c.dram.timing.nRAS, 31);
  EXPECT_EQ(c.dram.timing.nRC, 44);
  EXPECT_EQ(c.dram.timing.nWR, 15);
  EXPECT_EQ(c.dram.timing.nFAW, 15);
  EXPECT_EQ(c.dram.timing.nRFC, 329);
  EXPECT_EQ(c.dram.timing.nREFI, 3666);
  // dram_freq_mhz 940 sets the clock period: 1e6 / 940 = 1063.83 ps (the set says 1064).
  EXPECT_NEAR(c.dram.timing.tckPs, 1063.83, 0.005);
  EXPECT_EQ(c.elementsPerLaneVector(4), 8); // 256 bits / 32-bit elements
  EXPECT_EQ(defaultConfig(), c);
}

TEST(Presets, Tpuv3LikePeakNumbers) {
  const HardwareConfig c = loadConfig("tpuv3-like");
  // 2 arrays * 128*128 MACs * 2 FLOP * 940e6 Hz = 65536 * 940e6 = 61.60384e12 FLOP/s.
  EXPECT_DOUBLE_EQ(c.peakFlopsPerCore(), 61.60384e12);
  EXPECT_DOUBLE_EQ(c.peakFlopsPerChip(), 61.60384e12); // one core
  // One channel is a 128-bit legacy-mode HBM2 channel: 4 * 128 / 8 = 64 bytes per
  // access, an access every 2 cycles (nBL) of 940 MHz as the simulator steps it,
  // round(1e6 / 940) = 1064 ps: 64 / 2.128e-9 = 30.075e9 B/s; 16 channels
  // 481.203e9 B/s, PyTorchSim's ~481 GB/s (16 * 32 B * 940e6 = 481.28e9 nominal).
  EXPECT_EQ(c.dram.timing.accessBytes(), 64);
  EXPECT_EQ(c.dram.clockPeriodPs(), 1064);
  EXPECT_NEAR(c.dram.peakBytesPerSecond(), 16 * 64 / 2.128e-9, 1e3);
  HardwareConfig twice = c;
  twice.dram.channels = 32;
  EXPECT_NEAR(twice.dram.peakBytesPerSecond() / 1e9, 32 * 64 / 2.128, 1e-6);
}

TEST(Presets, Tpuv4Like) {
  const HardwareConfig c = loadConfig("tpuv4-like");
  EXPECT_EQ(c.numCores, 1);
  EXPECT_EQ(c.coreFreqMhz, 1050.0);
  EXPECT_EQ(c.lanes, 128);
  EXPECT_EQ(c.systolicArraysPerCore, 4);
  EXPECT_EQ(c.spadKibPerLane, 128);
  EXPECT_EQ(c.dram.channels, 16);
  EXPECT_EQ(c.dram.freqMhz, 1200.0);
  EXPECT_EQ(c.dram.timing.name, "hbm2-tpuv4");
  // PyTorchSim's TPUv4 set: nCL 17, nRCD 17/14, nRP 17, nRAS 40, nRC 57, nFAW 19,
  // nRFC 421, nREFI 4682; tCK 833 ps (1e6 / 1200 = 833.33 once the clock is set).
  EXPECT_EQ(c.dram.timing.nCL, 17);
  EXPECT_EQ(c.dram.timing.nRCDWrite, 14);
  EXPECT_EQ(c.dram.timing.nRC, 57);
  EXPECT_EQ(c.dram.timing.nFAW, 19);
  EXPECT_EQ(c.dram.timing.nRFC, 421);
  EXPECT_EQ(c.dram.timing.nREFI, 4682);
  EXPECT_NEAR(c.dram.timing.tckPs, 833.33, 0.005);
  // 4 * 16384 MACs * 2 * 1050e6 = 137.6256e12 (PyTorchSim's TPUv4-like: 137.6).
  EXPECT_DOUBLE_EQ(c.peakFlopsPerCore(), 137.6256e12);
  // 16 channels * 64 B per 2 cycles of round(1e6 / 1200) = 833 ps:
  // 1024 / 1.666e-9 = 614.65e9 B/s (PyTorchSim's TPUv4-like: ~614 GB/s, 614.4e9 at an exact 1200 MHz).
  EXPECT_EQ(c.dram.clockPeriodPs(), 833);
  EXPECT_NEAR(c.dram.peakBytesPerSecond(), 16 * 64 / 1.666e-9, 1e3);
}

TEST(Presets, Edge8Lane) {
  const HardwareConfig c = loadConfig("edge-8lane");
  EXPECT_EQ(c.lanes, 8);
  EXPECT_EQ(c.spadKibPerLane, 32);
  EXPECT_EQ(c.systolicArraysPerCore, 1);
  EXPECT_EQ(c.coreFreqMhz, 800.0);
  EXPECT_EQ(c.dram.timing.name, "ddr4");
  EXPECT_EQ(c.dram.channels, 1);
  EXPECT_EQ(c.dram.freqMhz, 1600.0);
  EXPECT_EQ(c.dram.timing.tckPs, 625.0); // 1e6 / 1600
  // 1 * 8*8 MACs * 2 * 800e6 = 102.4e9 FLOP/s.
  EXPECT_DOUBLE_EQ(c.peakFlopsPerCore(), 102.4e9);
  // DDR4: 8 * 64 / 8 = 64 B per access, every 4 cycles of 625 ps: 64 / 2.5 ns = 25.6e9 B/s
  // (DDR4-3200 on a 64-bit channel: 3200e6 transfers * 8 bytes).
  EXPECT_EQ(c.dram.timing.accessBytes(), 64);
  EXPECT_NEAR(c.dram.peakBytesPerSecond(), 25.6e9, 1e3);
}

TEST(DramSets, RamulatorNumbers) {
  // Ramulator 2.1's table (docs/config.md).
  const DramTiming ddr4 = dramTiming("ddr4");
  EXPECT_EQ(ddr4.tckPs, 625.0);
  EXPECT_EQ(ddr4.burstCycles, 4);
  EXPECT_EQ(ddr4.nCL, 22);
  EXPECT_EQ(ddr4.nRAS, 52);
  EXPECT_EQ(ddr4.nRC, 74);
  EXPECT_EQ(ddr4.nFAW, 34);
  EXPECT_EQ(ddr4.nRFC, 576);    // 360 ns / 0.625 ns
  EXPECT_EQ(ddr4.nREFI, 12480); // 7.8 us / 0.625 ns
  EXPECT_EQ(ddr4.columns, 1024);
  const DramTiming hbm3 = dramTiming("hbm3");
  EXPECT_EQ(hbm3.tckPs, 625.0);
  EXPECT_EQ(hbm3.nRCDRead, 31);
  EXPECT_EQ(hbm3.nRCDWrite, 15);
  EXPECT_EQ(hbm3.nWR, 33);
  EXPECT_EQ(hbm3.nRRDLong, 5);
  EXPECT_EQ(hbm3.nRFC, 560); // 350 ns / 0.625 ns
  EXPECT_EQ(hbm3.rows, 16384);
  EXPECT_EQ(hbm3.accessBytes(), 32); // 8 * 32 bits
  const DramTiming hbm2 = dramTiming("hbm2");
  EXPECT_EQ(hbm2.tckPs, 1000.0);
  EXPECT_EQ(hbm2.nCL, 14);
  EXPECT_EQ(hbm2.nRFC, 350);
  EXPECT_EQ(hbm2.nREFI, 3900);
}

TEST(DramSets, TheStructDefaultsAreTheHbm2Set) {
  // A configuration that names no DRAM set gets hbm2, and the key table documents
  // DramTiming's defaults as that set's: they must be the same numbers.
  DramTiming defaults;
  defaults.name = "hbm2";
  EXPECT_EQ(dramTiming("hbm2"), defaults);
  EXPECT_THROW(dramTiming("hbm4"), core::InputError);
}

} // namespace
} // namespace npusim::config
