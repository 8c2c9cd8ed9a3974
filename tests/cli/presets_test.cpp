// npusim presets, run as a user runs it: the built binary from a temporary
// directory (the presets are built in, no configs/ next to it), checking the
// listing against hand arithmetic, the YAML of one preset, and the errors.
#include "cli_fixture.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <vector>

namespace npusim::cli {
namespace {

namespace fs = std::filesystem;

class PresetsCli : public CommandTest {};

std::string lineWith(const std::string &text, const std::string &start) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (line.starts_with(start))
      return line;
  return "";
}

TEST_F(PresetsCli, ListsEveryPresetWithItsPeaks) {
  const Result r = run({"presets"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.err, "");
  // Three presets, one line each, sorted by name.
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 3) << r.out;
  // tpuv3-like: 2 * 128^2 * 2 * 940e6 = 61.6e12 FLOP/s; 16 * 64 B / (2 * 1064 ps) = 481.2e9 B/s.
  const std::string v3 = lineWith(r.out, "tpuv3-like ");
  EXPECT_NE(v3.find(" 1 core "), std::string::npos) << v3;
  EXPECT_NE(v3.find("128 lanes"), std::string::npos) << v3;
  EXPECT_NE(v3.find(" 2 arrays"), std::string::npos) << v3;
  EXPECT_NE(v3.find("940 MHz"), std::string::npos) << v3;
  EXPECT_NE(v3.find("61.6 TFLOP/s"), std::string::npos) << v3;
  EXPECT_NE(v3.find("481.2 GB/s"), std::string::npos) << v3;
  EXPECT_NE(v3.find("(default)"), std::string::npos) << v3;
  // tpuv4-like: 4 * 128^2 * 2 * 1050e6 = 137.6e12; 16 * 64 B / (2 * 833 ps) = 614.6e9.
  const std::string v4 = lineWith(r.out, "tpuv4-like ");
  EXPECT_NE(v4.find("137.6 TFLOP/s"), std::string::npos) << v4;
  EXPECT_NE(v4.find("614.6 GB/s"), std::string::npos) << v4;
  EXPECT_EQ(v4.find("(default)"), std::string::npos) << v4;
  // edge-8lane: 1 * 8^2 * 2 * 800e6 = 0.1e12; 1 * 64 B * 1600e6 / 4 = 25.6e9.
  const std::string edge = lineWith(r.out, "edge-8lane ");
  EXPECT_NE(edge.find("8 lanes"), std::string::npos) << edge;
  EXPECT_NE(edge.find(" 1 array "), std::string::npos) << edge;
  EXPECT_NE(edge.find("25.6 GB/s"), std::string::npos) << edge;
  EXPECT_NE(edge.find("ddr4, 1 channel at 1600 MHz"), std::string::npos) << edge;
}

TEST_F(PresetsCli, PrintsOnePresetResolved) {
  const Result r = run({"presets", "tpuv4-like"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(lineWith(r.out, "core_freq_mhz: 1050 ").size() > 0) << r.out;
  EXPECT_TRUE(lineWith(r.out, "systolic_arrays_per_core: 4 ").size() > 0) << r.out;
  EXPECT_TRUE(lineWith(r.out, "dram: hbm2-tpuv4 ").size() > 0) << r.out;
  EXPECT_TRUE(lineWith(r.out, "  n_cl: 17 ").size() > 0) << r.out;
  // The printed YAML is a configuration file: edited (lanes 128 -> 64) it loads back.
  std::string text = r.out;
  const size_t at = text.find("\nlanes: 128 ");
  ASSERT_NE(at, std::string::npos) << text;
  text.replace(at + 8, 3, "64 ");
  std::ofstream(dir_ / "mine.yaml") << text;
  const Result mine = run({"presets", "./mine.yaml"});
  ASSERT_EQ(mine.exitCode, 0) << mine.err;
  EXPECT_TRUE(lineWith(mine.out, "lanes: 64 ").size() > 0) << mine.out;
  EXPECT_TRUE(lineWith(mine.out, "name: tpuv4-like ").size() > 0) << mine.out;
}

TEST_F(PresetsCli, Errors) {
  const Result unknown = run({"presets", "tpuv4-lik"});
  EXPECT_EQ(unknown.exitCode, 1);
  EXPECT_NE(
      unknown.err.find("npusim presets: error: unknown preset 'tpuv4-lik' (did you mean 'tpuv4-like'?)"),
      std::string::npos)
      << unknown.err;
  std::ofstream(dir_ / "bad.yaml") << "base: tpuv3-like\nlanes: 100\n";
  const Result bad = run({"presets", "bad.yaml"});
  EXPECT_EQ(bad.exitCode, 1);
  EXPECT_NE(bad.err.find("bad.yaml:2: key 'lanes': '100' must be a power of two"), std::string::npos)
      << bad.err;
  const Result two = run({"presets", "a", "b"});
  EXPECT_EQ(two.exitCode, 2);
  EXPECT_NE(two.err.find("usage: npusim presets"), std::string::npos) << two.err;
  EXPECT_EQ(run({"presets", "--bogus"}).exitCode, 2);
}

TEST_F(PresetsCli, KeysTableAndHelp) {
  const Result keys = run({"presets", "--keys"});
  ASSERT_EQ(keys.exitCode, 0) << keys.err;
  EXPECT_TRUE(keys.out.starts_with("| key | type | unit | default | range | description |\n"));
  EXPECT_NE(keys.out.find("| `dram_timing.n_refi` |"), std::string::npos);
  const Result help = run({"presets", "--help"});
  EXPECT_EQ(help.exitCode, 0);
  EXPECT_TRUE(help.out.starts_with("usage: npusim presets"));
}

} // namespace
} // namespace npusim::cli
