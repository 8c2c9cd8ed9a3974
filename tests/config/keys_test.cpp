// The key table: every field has a documented key, docs/config.md carries the
// generated table, and every key of the table reaches its field.
#include "config/hardware.h"

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>

namespace npusim::config {
namespace {

std::string docsConfig() {
  std::ifstream in(std::string(NPUSIM_TEST_DATA) + "/../../docs/config.md");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(Keys, DocsListEveryKeyAndCarryTheGeneratedTable) {
  const std::string docs = docsConfig();
  ASSERT_FALSE(docs.empty());
  for (const KeyInfo &k : configKeys())
    EXPECT_NE(docs.find("| `" + k.key + "` |"), std::string::npos) << k.key;
  EXPECT_NE(docs.find(keyTableMarkdown()), std::string::npos)
      << "docs/config.md's key table is stale; `npusim presets --keys` prints the current one";
}

TEST(Keys, EveryKeyHasUnitOrTypeRangeAndDescription) {
  std::set<std::string> seen;
  for (const KeyInfo &k : configKeys()) {
    EXPECT_TRUE(seen.insert(k.key).second) << "duplicate " << k.key;
    EXPECT_FALSE(k.description.empty()) << k.key;
    EXPECT_FALSE(k.range.empty()) << k.key;
    EXPECT_FALSE(k.defaultValue.empty()) << k.key;
  }
  // The keys configs/*.yaml and python/npusim/npuconfig.py use stay.
  for (const char *key :
       {"num_cores", "core_freq_mhz", "lanes", "vlen_bits", "spad_kib_per_lane", "systolic_arrays_per_core",
        "dram", "dram_channels", "dram_freq_mhz", "noc_latency_cycles"})
    EXPECT_TRUE(seen.contains(key)) << key;
  // HardwareConfig has 14 fields besides `source` and its structs (name, numCores,
  // coreFreqMhz, lanes, vlenBits, spadKibPerLane, systolicArraysPerCore, two DMA, two
  // latencies, reduceMinorAcrossLanes, energy, energyClockGating), VectorLatencies 4,
  // NocConfig 4 (model, latency, bytes, ports), DramConfig 8 of its own (model,
  // scheduler, channels, capacityGiB, freqMhz, queueEntries, fixedLatencyCycles,
  // addressMapping) plus the timing set's name (`dram`), DramTiming 26 besides its
  // name (tckPs, burstCycles, 18 constraints, 6 of organisation); and `base`,
  // `dram_timing`: 14 + 4 + 4 + 9 + 26 + 2 = 59.
  EXPECT_EQ(configKeys().size(), 59u);
}

TEST(Keys, EveryKeyReachesItsField) {
  // Each numeric key set to a value different from the default must change the
  // configuration, and the change must survive toYaml.
  const HardwareConfig base = parseConfig("", "k.yaml");
  for (const KeyInfo &k : configKeys()) {
    if (k.type != "integer" && k.type != "number")
      continue;
    std::string text;
    const std::string value = k.key == "dram_timing.tck_ps" ? "1500" : k.key == "lanes" ? "64" : "4096";
    if (k.key.starts_with("dram_timing."))
      text = "dram_timing:\n  " + k.key.substr(12) + ": " + value + "\n";
    else
      text = k.key + ": " + (k.key == "vlen_bits" ? std::string("512") : value) + "\n";
    HardwareConfig changed;
    try {
      changed = parseConfig(text, "k.yaml");
    } catch (const std::exception &e) {
      // 4096 is out of range for a few keys; their maximum then.
      const std::string range = k.range.substr(k.range.find(".. ") + 3);
      text = text.substr(0, text.rfind(' ') + 1) + range.substr(0, range.find(',')) + "\n";
      changed = parseConfig(text, "k.yaml");
    }
    EXPECT_NE(changed, base) << text;
    EXPECT_EQ(parseConfig(toYaml(changed), "k.yaml"), changed) << text;
  }
}

// A name holding YAML's own syntax (": ", " #", quotes, a backslash) or UTF-8
// writes back quoted and reads back the same; a plain name stays plain. (A
// loaded name has no control characters: the loader refuses them.)
TEST(Keys, NamesSurviveToYaml) {
  for (const std::string &name : {std::string("tpuv3-like"), std::string("a: b # not a comment"),
                                 std::string("it's \"quoted\""), std::string("back\\slash"),
                                 std::string("- dash"), std::string("caf\xc3\xa9 'x' core_freq_mhz: 800")}) {
    HardwareConfig config = parseConfig("", "k.yaml");
    config.name = name;
    const std::string yaml = toYaml(config);
    HardwareConfig back;
    ASSERT_NO_THROW(back = parseConfig(yaml, "k.yaml")) << yaml;
    EXPECT_EQ(back.name, name) << yaml;
    EXPECT_EQ(back, config) << yaml;
  }
  HardwareConfig plain = parseConfig("", "k.yaml");
  plain.name = "tpuv3-like";
  EXPECT_NE(toYaml(plain).find("name: tpuv3-like "), std::string::npos) << toYaml(plain);
}

} // namespace
} // namespace npusim::config
