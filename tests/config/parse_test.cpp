// Configuration files: base + overrides, the DRAM clock, round trips through
// toYaml, and every kind of error with the file, the line and the key.
#include "config/hardware.h"
#include "core/error.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace npusim::config {
namespace {

namespace fs = std::filesystem;

/// The message of the core::InputError that parsing `text` throws ("" if none).
std::string parseErrorOf(const std::string &text, const std::string &source = "cfg.yaml") {
  try {
    parseConfig(text, source);
  } catch (const core::InputError &e) {
    return e.what();
  }
  return "";
}

TEST(Parse, BaseAndOverrides) {
  const HardwareConfig c = parseConfig("base: tpuv3-like\n"
                                       "lanes: 64\n"
                                       "num_cores: 2\n"
                                       "dram_timing:\n"
                                       "  n_cl: 20\n",
                                       "dir/my-npu.yaml");
  EXPECT_EQ(c.name, "my-npu"); // the file stem
  EXPECT_EQ(c.source, "dir/my-npu.yaml");
  EXPECT_EQ(c.lanes, 64);
  EXPECT_EQ(c.numCores, 2);
  EXPECT_EQ(c.systolicArraysPerCore, 2);       // from the base
  EXPECT_EQ(c.dram.timing.name, "hbm2-tpuv3"); // from the base
  EXPECT_EQ(c.dram.timing.nCL, 20);            // overridden
  EXPECT_EQ(c.dram.timing.nRCDRead, 13);       // the set's
  EXPECT_EQ(c.dram.freqMhz, 940.0);
  // 2 cores * 2 arrays * 64*64 MACs * 2 * 940e6 = 32768 * 940e6 = 30.80192e12.
  EXPECT_DOUBLE_EQ(c.peakFlopsPerChip(), 30.80192e12);
}

TEST(Parse, NoBaseTakesTheDefaultsAndTheDramSetsOwnClock) {
  const HardwareConfig c = parseConfig("dram: ddr4\ndram_model: fixed_latency\n", "x.yaml");
  EXPECT_EQ(c.lanes, 128);
  EXPECT_EQ(c.dram.model, "fixed_latency");
  EXPECT_EQ(c.dram.timing.tckPs, 625.0);
  EXPECT_EQ(c.dram.freqMhz, 1600.0); // 1e6 / 625
  const HardwareConfig empty = parseConfig("", "empty.yaml");
  EXPECT_EQ(empty.dram.timing.name, "hbm2");
  EXPECT_EQ(empty.dram.freqMhz, 1000.0); // 1e6 / 1000 ps
}

TEST(Parse, DramClockFromEitherKeyAndTheLaterLayerWins) {
  // The base says 940 MHz; this file's tck_ps is later, so it wins: 1e6 / 800 ps = 1250 MHz.
  const HardwareConfig c = parseConfig("base: tpuv3-like\ndram_timing:\n  tck_ps: 800\n", "a.yaml");
  EXPECT_EQ(c.dram.timing.tckPs, 800.0);
  EXPECT_EQ(c.dram.freqMhz, 1250.0);
  const HardwareConfig d = parseConfig("dram: hbm3\ndram_freq_mhz: 2000\n", "b.yaml");
  EXPECT_EQ(d.dram.timing.tckPs, 500.0); // 1e6 / 2000
  // Both in one file must agree: 1e6 / 1000 = 1000 ps, not 999.
  const std::string e = parseErrorOf("dram_freq_mhz: 1000\ndram_timing:\n  tck_ps: 999\n");
  EXPECT_NE(e.find("cfg.yaml:3:"), std::string::npos) << e;
  EXPECT_NE(e.find("disagrees"), std::string::npos) << e;
}

TEST(Parse, BaseFileRelativeToTheFileThatNamesIt) {
  std::string pattern = (fs::temp_directory_path() / "npusim-config-XXXXXX").string();
  ASSERT_NE(mkdtemp(pattern.data()), nullptr);
  const fs::path dir = pattern;
  fs::create_directories(dir / "sub");
  std::ofstream(dir / "sub" / "small.yaml") << "base: edge-8lane\nspad_kib_per_lane: 16\n";
  std::ofstream(dir / "top.yaml") << "base: sub/small.yaml\nname: tiny\ndram_channels: 2\n";
  std::ofstream(dir / "loop.yaml") << "base: loop.yaml\n";
  const HardwareConfig c = loadConfig((dir / "top.yaml").string());
  EXPECT_EQ(c.name, "tiny");
  EXPECT_EQ(c.lanes, 8);           // edge-8lane
  EXPECT_EQ(c.spadKibPerLane, 16); // sub/small.yaml
  EXPECT_EQ(c.dram.channels, 2);   // top.yaml
  // 2 DDR4 channels at 1600 MHz: 2 * 64 B / (4 * 0.625 ns) = 51.2e9 B/s.
  EXPECT_NEAR(c.dram.peakBytesPerSecond(), 51.2e9, 1e3);
  std::string loop;
  try {
    loadConfig((dir / "loop.yaml").string());
  } catch (const core::InputError &e) {
    loop = e.what();
  }
  EXPECT_NE(loop.find("cycle"), std::string::npos) << loop;
  fs::remove_all(dir);
}

TEST(Parse, RoundTripThroughToYamlIsIdentical) {
  for (const std::string &name : presetNames()) {
    const HardwareConfig c = loadConfig(name);
    const HardwareConfig back = parseConfig(toYaml(c), c.source);
    EXPECT_EQ(back, c) << name << "\n" << toYaml(c);
  }
  // A clock given only as an odd tCK, and every kind of value changed.
  const HardwareConfig odd = parseConfig("base: edge-8lane\n"
                                         "dram_model: fixed_latency\n"
                                         "dram_scheduler: oldest_first\n"
                                         "noc_model: mesh_2d\n"
                                         "dram_address_mapping: RoCoBaRaCh\n"
                                         "core_freq_mhz: 812.345\n"
                                         "vector_latency_divide: 20\n"
                                         "dram_timing: {tck_ps: 1234.567, rows: 32768}\n",
                                         "odd.yaml");
  EXPECT_EQ(odd.dram.freqMhz, 1e6 / 1234.567);
  EXPECT_EQ(parseConfig(toYaml(odd), "odd.yaml"), odd) << toYaml(odd);
}

TEST(Errors, UnknownKeyWithSuggestion) {
  const std::string e = parseErrorOf("lanes: 8\nsystolic_array_per_core: 2\n");
  EXPECT_NE(e.find("cfg.yaml:2:"), std::string::npos) << e;
  EXPECT_NE(e.find("unknown key 'systolic_array_per_core'"), std::string::npos) << e;
  EXPECT_NE(e.find("did you mean 'systolic_arrays_per_core'"), std::string::npos) << e;
  const std::string timing = parseErrorOf("dram_timing:\n  n_cll: 3\n");
  EXPECT_NE(timing.find("cfg.yaml:2:"), std::string::npos) << timing;
  EXPECT_NE(timing.find("did you mean 'dram_timing.n_cl'"), std::string::npos) << timing;
  const std::string flat = parseErrorOf("n_refi: 3900\n");
  EXPECT_NE(flat.find("did you mean 'dram_timing.n_refi'"), std::string::npos) << flat;
}

TEST(Errors, WrongType) {
  const std::string e = parseErrorOf("# a comment\nlanes: many\n");
  EXPECT_NE(e.find("cfg.yaml:2: key 'lanes': expected an integer, got 'many'"), std::string::npos) << e;
  const std::string real = parseErrorOf("core_freq_mhz: fast\n");
  EXPECT_NE(real.find("cfg.yaml:1: key 'core_freq_mhz': expected a number"), std::string::npos) << real;
  const std::string list = parseErrorOf("lanes: [1, 2]\n");
  EXPECT_NE(list.find("cfg.yaml:1: key 'lanes': expected a single value, got a list"), std::string::npos)
      << list;
  EXPECT_NE(parseErrorOf("lanes: 8.5\n").find("expected an integer"), std::string::npos);
  EXPECT_NE(parseErrorOf("dram_timing: 5\n").find("expected a map"), std::string::npos);
  EXPECT_NE(parseErrorOf("- lanes\n").find("cfg.yaml:1: expected a map"), std::string::npos);
}

TEST(Errors, OutOfRange) {
  const std::string e = parseErrorOf("\n\nlanes: 0\n");
  EXPECT_NE(e.find("cfg.yaml:3: key 'lanes': 0 is out of range (1 .. 4096"), std::string::npos) << e;
  EXPECT_NE(parseErrorOf("lanes: 96\n").find("power of two"), std::string::npos);
  EXPECT_NE(parseErrorOf("vlen_bits: 96\n").find("multiple of 64"), std::string::npos);
  // Which names exist is the timing module's business (tests/timing/registry_test.cpp);
  // the config rejects what cannot be a name.
  EXPECT_NE(parseErrorOf("dram_model: Fixed-Latency\n").find("lower-case letters, digits and '_'"),
            std::string::npos);
  EXPECT_NE(parseErrorOf("noc_model: 2d mesh\n").find("lower-case letters"), std::string::npos);
  EXPECT_NE(parseErrorOf("dram_scheduler: FCFS\n").find("lower-case letters"), std::string::npos);
  EXPECT_NE(parseErrorOf("dram_address_mapping: RoRoRaCoCh\n").find("each once"), std::string::npos);
  EXPECT_NE(parseErrorOf("dram_address_mapping: RoBaRaCoChXy\n").find("unknown field 'Xy'"), std::string::npos);
  // A separate bank-group digit is a mapping the DRAM model decodes
  // (docs/dram.md, "Address mapping"), so the key takes it too.
  EXPECT_EQ(parseConfig("dram_address_mapping: RoBaRaCoBgCh\n", "cfg.yaml").dram.addressMapping, "RoBaRaCoBgCh");
  const std::string t = parseErrorOf("dram_timing:\n  n_cl: 0\n");
  EXPECT_NE(t.find("cfg.yaml:2: key 'dram_timing.n_cl': 0 is out of range"), std::string::npos) << t;
  EXPECT_NE(parseErrorOf("core_freq_mhz: nan\n").find("expected a number"), std::string::npos);
  EXPECT_NE(parseErrorOf("lanes: 99999999999999999999\n").find("expected an integer"), std::string::npos);
}

TEST(Errors, UnknownPresetAndDramSet) {
  const std::string base = parseErrorOf("lanes: 8\nbase: tpuv3-lke\n");
  EXPECT_NE(base.find("cfg.yaml:2: key 'base': unknown preset 'tpuv3-lke' (did you mean 'tpuv3-like'?)"),
            std::string::npos)
      << base;
  const std::string set = parseErrorOf("base: tpuv3-like\n\ndram: hbm5\n");
  EXPECT_NE(set.find("cfg.yaml:3: key 'dram': unknown DRAM timing set 'hbm5'"), std::string::npos) << set;
  EXPECT_NE(set.find("did you mean"), std::string::npos) << set;
  try {
    loadConfig("tpuv4-lik");
    FAIL();
  } catch (const core::InputError &e) {
    EXPECT_NE(std::string(e.what()).find("did you mean 'tpuv4-like'"), std::string::npos) << e.what();
  }
  EXPECT_THROW(loadConfig("/nonexistent/npu.yaml"), core::InputError);
}

TEST(Errors, MalformedYamlAndDuplicates) {
  const std::string e = parseErrorOf("lanes: 8\nnum_cores: [1, 2\n");
  EXPECT_NE(e.find("cfg.yaml:"), std::string::npos) << e;
  EXPECT_NE(e.find("malformed YAML"), std::string::npos) << e;
  const std::string tab = parseErrorOf("lanes: 8\n  vlen_bits: 256\n");
  EXPECT_NE(tab.find("cfg.yaml:2: malformed YAML"), std::string::npos) << tab;
  const std::string dup = parseErrorOf("lanes: 8\nnum_cores: 1\nlanes: 16\n");
  EXPECT_NE(dup.find("cfg.yaml:3: key 'lanes' given twice"), std::string::npos) << dup;
}

TEST(Errors, OddYamlIsAnInputErrorNotACrash) {
  EXPECT_NE(parseErrorOf("[a, b]: 1\n").find("cfg.yaml:1: expected a key name, got a list"), std::string::npos);
  EXPECT_NE(parseErrorOf("dram_timing:\n  {x: 1}: 2\n").find("cfg.yaml:2: expected a key name"),
            std::string::npos);
  // yaml-cpp recurses per nesting level; a very deep document must not exhaust the stack.
  EXPECT_NE(parseErrorOf("lanes: " + std::string(100000, '[') + "\n").find("cfg.yaml"), std::string::npos);
  EXPECT_NE(parseErrorOf("lanes: +-8\n").find("expected an integer"), std::string::npos);
  EXPECT_EQ(parseConfig("lanes: +8\n", "p.yaml").lanes, 8); // YAML allows the sign
}

} // namespace
} // namespace npusim::config
