// The sweep module: sweep files, the machines they expand to, task keys and
// the results CSV.
#include "sweep/results.h"
#include "sweep/sweep_file.h"
#include "sweep/tasks.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>

namespace npusim::sweep {
namespace {

namespace fs = std::filesystem;

class SweepFileTest : public ::testing::Test {
protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "npusim-sweep-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
    fs::copy(std::string(NPUSIM_TEST_DATA) + "/bundles/tiny", dir_ / "tiny", fs::copy_options::recursive);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  std::string write(const std::string &text) const {
    const fs::path p = dir_ / "s.yaml";
    std::ofstream(p) << text;
    return p.string();
  }
  fs::path dir_;
};

TEST_F(SweepFileTest, GridExpandsLastKeyFastest) {
  const SweepFile s =
      loadSweepFile(write("bundles: [tiny]\ngrid:\n  lanes: [32, 64]\n  dram: [hbm2, hbm3, ddr4]\n"));
  EXPECT_EQ(s.bundles.front(), fs::weakly_canonical(dir_ / "tiny").string());
  const std::vector<Point> p = expandPoints(s);
  ASSERT_EQ(p.size(), 6u); // 2 x 3
  EXPECT_EQ(p[0], (Point{{"lanes", "32"}, {"dram", "hbm2"}}));
  EXPECT_EQ(p[1], (Point{{"lanes", "32"}, {"dram", "hbm3"}}));
  EXPECT_EQ(p[5], (Point{{"lanes", "64"}, {"dram", "ddr4"}}));
  EXPECT_EQ(configText(s, p[0]), "base: tpuv3-like\nlanes: 32\ndram: hbm2\n");
}

TEST_F(SweepFileTest, LatinHypercubeUsesEveryStratumOnce) {
  const SweepFile s = loadSweepFile(
      write("bundles: tiny\nsamples: 8\nseed: 3\nranges:\n  core_freq_mhz: [100, 900]\n  "
            "dram_timing.n_cl: [10, 50]\n  lanes: {min: 8, max: 256, scale: log, round: pow2}\n"));
  const std::vector<Point> p = expandPoints(s);
  ASSERT_EQ(p.size(), 8u);
  std::set<int> strata;
  for (const Point &point : p) {
    const double f = std::stod(point[0].second);
    strata.insert(static_cast<int>((f - 100.0) / 100.0)); // 8 strata of 100 MHz each
    const int lanes = std::stoi(point[2].second);
    EXPECT_EQ(lanes & (lanes - 1), 0) << lanes; // a power of two
    EXPECT_GE(lanes, 8);
    EXPECT_LE(lanes, 256);
    EXPECT_EQ(point[1].second, std::to_string(std::stoi(point[1].second))); // an integer key, rounded
  }
  EXPECT_EQ(strata.size(), 8u);
  EXPECT_EQ(expandPoints(s), p); // the seed alone decides
  EXPECT_NE(configText(s, p[0]).find("dram_timing:\n  n_cl: "), std::string::npos);
}

TEST_F(SweepFileTest, ErrorsNameFileLineAndField) {
  const auto message = [&](const std::string &text) {
    try {
      loadSweepFile(write(text));
    } catch (const std::exception &e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message("bundles: [tiny]\ngrid:\n  lane: [1]\n").find("s.yaml:3: 'lane' is not a hardware"),
            std::string::npos);
  EXPECT_NE(message("bundles: [tiny]\nmodes: timing\n").find("s.yaml:2: unknown field 'modes'"),
            std::string::npos);
  EXPECT_NE(message("bundles: [nowhere]\n").find("bundle 'nowhere'"), std::string::npos);
  EXPECT_NE(message("bundles: [tiny]\nmode: functional\n").find("expected timing or full"),
            std::string::npos);
  EXPECT_NE(message("bundles: [tiny]\nranges:\n  lanes: [1, 2]\n").find("need 'samples'"), std::string::npos);
  EXPECT_NE(message("bundles: [tiny]\nsamples: 2\nranges:\n  lanes: [4, 2]\n").find("min <= max"),
            std::string::npos);
}

TEST_F(SweepFileTest, TaskKeysFollowConfigBundleAndVersion) {
  const SweepFile s = loadSweepFile(write("bundles: [tiny]\ngrid:\n  lanes: [64, 96, 64]\n"));
  const std::vector<Point> p = expandPoints(s);
  const std::vector<Task> a = makeTasks(s, p, "1.0");
  ASSERT_EQ(a.size(), 3u);
  EXPECT_EQ(a[0].key, a[2].key); // the same machine and bundle: one experiment
  EXPECT_NE(a[0].key, a[1].key);
  EXPECT_NE(a[1].configError.find("power of two"), std::string::npos) << a[1].configError;
  EXPECT_NE(a[0].config.find("lanes: 64"), std::string::npos);
  EXPECT_NE(makeTasks(s, p, "1.1")[0].key, a[0].key);
  std::ofstream(dir_ / "tiny" / "graph.json", std::ios::app) << " ";
  EXPECT_NE(makeTasks(s, p, "1.0")[0].key, a[0].key); // the bundle changed
}

TEST_F(SweepFileTest, ErrorsNameTheLineOfTheValueAtFault) {
  const auto message = [this](const std::string &text) {
    try {
      loadSweepFile(write(text));
    } catch (const std::exception &e) {
      return std::string(e.what());
    }
    return std::string();
  };
  const std::string file = (dir_ / "s.yaml").string();
  for (int padding = 0; padding < 4; ++padding) {
    const std::string blank(static_cast<size_t>(padding), '\n');
    // A point that is not a valid machine: a failed task whose error names
    // the sweep file's line of the value, not the line of the generated file.
    const SweepFile s = loadSweepFile(write("bundles: [tiny]\nmode: timing\n" + blank +
                                            "grid:\n  num_cores: [1]\n\n  lanes:\n    - 64\n    - 96\n"));
    const std::vector<Task> tasks = makeTasks(s, expandPoints(s), "1.0");
    ASSERT_EQ(tasks.size(), 2u);
    EXPECT_EQ(tasks[0].configError, "");
    EXPECT_EQ(tasks[1].configError,
              file + ":" + std::to_string(8 + padding) + ": key 'lanes': '96' must be a power of two");
    const SweepFile ranged = loadSweepFile(
        write("bundles: [tiny]\n" + blank + "samples: 1\nranges:\n  dram_timing.n_cl: [0, 0]\n"));
    const std::vector<Task> rangedTasks = makeTasks(ranged, expandPoints(ranged), "1.0");
    EXPECT_EQ(rangedTasks[0].configError.find(file + ":" + std::to_string(4 + padding) +
                                              ": key 'dram_timing.n_cl': 0 is out of range"),
              0u)
        << rangedTasks[0].configError;
    // Errors in the file itself, an absent value at its key's line.
    const std::string at = file + ":" + std::to_string(2 + padding) + ": ";
    EXPECT_EQ(message("bundles: [tiny]\n" + blank + "mode:\n\n\nseed: 1\n"), at + "'mode': expected a value");
    EXPECT_EQ(message("bundles: [tiny]\n" + blank + "grid:\n  lanes:\n\n  dram: [hbm2]\n"),
              file + ":" + std::to_string(3 + padding) + ": 'lanes': expected a value");
    EXPECT_EQ(message("bundles: [tiny]\n" + blank + "grid:\n  lanes: [32]\n---\ngrid:\n  lanes: [64]\n"),
              file + ":" + std::to_string(4 + padding) +
                  ": a second YAML document (after '---'); the file must hold one document");
    EXPECT_EQ(message("bundles: [tiny]\n" + blank + "base: caf\xE9\n"),
              at + "invalid UTF-8 (byte 0xE9 at column 10); the file must be UTF-8 text");
  }
}

TEST_F(SweepFileTest, CsvQuotesAndReadsRecords) {
  const SweepFile s = loadSweepFile(write("bundles: [tiny]\ngrid:\n  lanes: [64]\n"));
  const std::vector<Point> p = expandPoints(s);
  const std::vector<Task> tasks = makeTasks(s, p, "1.0");
  const std::string out = (dir_ / "out").string();
  std::vector<ResultRow> rows = collectResults(tasks, p, out);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].status, "pending");
  fs::create_directories(taskFolder(out, tasks[0]));
  writeStatus(out, tasks[0], {"failed", 1, 0.5, "bad, \"very\""});
  rows = collectResults(tasks, p, out);
  EXPECT_EQ(rows[0].status, "failed");
  const std::string csv = resultsCsv(variedKeys(s), rows);
  EXPECT_EQ(
      csv.substr(0, csv.find('\n')).find("task,model,bundle,lanes,status,cycles,time_us,busy_scalar_percent"),
      0u);
  EXPECT_NE(csv.find(",\"bad, \"\"very\"\"\"\n"), std::string::npos) << csv;
}

TEST_F(SweepFileTest, EnergyColumnsComeFromTheReport) {
  const SweepFile s = loadSweepFile(write("bundles: [tiny]\ngrid:\n  lanes: [64]\n"));
  const std::vector<Point> p = expandPoints(s);
  const std::vector<Task> tasks = makeTasks(s, p, "1.0");
  const std::string out = (dir_ / "out").string();
  fs::create_directories(taskFolder(out, tasks[0]));
  // Two timed steps of 1,000,000 and 500,000 MACs; the run's energy 3,000 nJ
  // (docs/energy.md, "Report") over 2 us: 1.5 W.
  std::ofstream(fs::path(taskFolder(out, tasks[0])) / "report.json")
      << R"({"steps": [{"timing": {"time_us": 1.5, "macs": 1000000}}, {"timing": {"time_us": 0.5, "macs": 500000}}],
            "totals": {"cycles": 2000, "time_us": 2.0},
            "energy": {"total_nj": 3000.0, "average_w": 1.5}})";
  writeStatus(out, tasks[0], {"ok", 1, 0.5, ""});
  const std::vector<ResultRow> rows = collectResults(tasks, p, out);
  ASSERT_EQ(rows[0].status, "ok");
  EXPECT_DOUBLE_EQ(rows[0].energyUj, 3.0);
  EXPECT_DOUBLE_EQ(rows[0].averageWatts, 1.5);
  // 2 x 1,500,000 MACs = 3e6 FLOP over 3e-6 J = 1e12 FLOP/J = 1000 GFLOP/s per W.
  EXPECT_DOUBLE_EQ(rows[0].gflopsPerWatt, 1000.0);
  const std::string csv = resultsCsv(variedKeys(s), rows);
  EXPECT_NE(csv.find(",energy_uj,average_w,gflop_s_per_w,tokens,energy_per_token_uj,wall_s,"), std::string::npos)
      << csv;
  // Not a language model: no tokens, and the per-token cells stay empty.
  EXPECT_FALSE(rows[0].energyPerTokenUj.has_value());
  EXPECT_NE(csv.find(",3.000,1.500,1000.000,,,0.500,"), std::string::npos) << csv;
}

TEST_F(SweepFileTest, EnergyPerTokenComesFromALanguageModelsReport) {
  const SweepFile s = loadSweepFile(write("bundles: [tiny]\ngrid:\n  lanes: [64]\n"));
  const std::vector<Point> p = expandPoints(s);
  const std::vector<Task> tasks = makeTasks(s, p, "1.0");
  const std::string out = (dir_ / "out").string();
  fs::create_directories(taskFolder(out, tasks[0]));
  // 3,000 nJ over 4 tokens: 0.75 uJ per token (docs/energy.md, "Energy per token").
  std::ofstream(fs::path(taskFolder(out, tasks[0])) / "report.json")
      << R"({"steps": [{"timing": {"time_us": 2.0, "macs": 1000}}], "totals": {"cycles": 2000, "time_us": 2.0},
            "energy": {"total_nj": 3000.0, "average_w": 1.5, "tokens": 4, "energy_per_token_uj": 0.75}})";
  writeStatus(out, tasks[0], {"ok", 1, 0.5, ""});
  const std::vector<ResultRow> rows = collectResults(tasks, p, out);
  ASSERT_TRUE(rows[0].energyPerTokenUj.has_value());
  EXPECT_DOUBLE_EQ(*rows[0].energyPerTokenUj, 0.75);
  EXPECT_EQ(rows[0].tokens, 4);
  const std::string csv = resultsCsv(variedKeys(s), rows);
  EXPECT_NE(csv.find(",4,0.750,0.500,"), std::string::npos) << csv;
}

} // namespace
} // namespace npusim::sweep
