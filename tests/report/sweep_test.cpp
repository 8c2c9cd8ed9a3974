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
#include <sstream>

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

/// An LLM scenario (docs/serving.md, "LLM serving") over the test bundles, in
/// the test's folder, and a sweep of it.
class ScenarioSweepTest : public SweepFileTest {
protected:
  std::string writeScenario(const std::string &name, const std::string &requests) const {
    const std::string data = NPUSIM_TEST_DATA;
    std::ofstream(dir_ / name) << "machine: tpuv4-like\nllm:\n  prefill: {bundle: " << data
                               << "/bundles/llama_prefill, tokens: seq}\n  decode: {bundle: " << data
                               << "/bundles/llama_decode, past: past}\nrequests: " << requests
                               << "\nscheduler: {max_batch: 8, token_budget: 64, kv_blocks: 40}\n";
    return (dir_ / name).string();
  }
  const std::string poisson_ =
      "{arrival: poisson, rate_per_s: 20000, count: 50, prompt_tokens: [16, 96], output_tokens: [4, 32]}";
  std::string message(const std::string &text) const {
    try {
      loadSweepFile(write(text));
    } catch (const std::exception &e) {
      return e.what();
    }
    return "no error";
  }
};

TEST_F(ScenarioSweepTest, ReadsScenariosAndTheirRates) {
  writeScenario("llm.yaml", poisson_);
  const SweepFile s = loadSweepFile(write(
      "scenarios: [llm.yaml]\nrequests:\n  rate_per_s: [5000, 1e4]\n  count: 8\ngrid:\n  lanes: [64]\n"));
  EXPECT_TRUE(s.bundles.empty());
  ASSERT_EQ(s.scenarios.size(), 1u);
  EXPECT_EQ(s.scenarios[0].path, fs::weakly_canonical(dir_ / "llm.yaml").string());
  EXPECT_EQ(s.scenarios[0].line, 1);
  EXPECT_EQ(s.scenarios[0].ratePerSecond, 20000.0); // the scenario's own, read by the serving reader
  EXPECT_EQ(s.scenarios[0].count, 50);
  ASSERT_EQ(s.scenarios[0].bundles.size(), 2u);
  EXPECT_EQ(s.scenarios[0].bundles[0],
            fs::weakly_canonical(std::string(NPUSIM_TEST_DATA) + "/bundles/llama_prefill").string());
  EXPECT_EQ(s.rates, (std::vector<double>{5000.0, 10000.0}));
  EXPECT_EQ(s.counts, (std::vector<int64_t>{8}));
}

TEST_F(ScenarioSweepTest, ErrorsNameFileLineAndField) {
  writeScenario("llm.yaml", poisson_);
  const std::string file = (dir_ / "s.yaml").string();
  EXPECT_EQ(message("scenarios: [llm.yaml]\nrequests:\n  rate: [5]\n"),
            file + ":3: 'requests': unknown field 'rate' (rate_per_s, count)");
  EXPECT_EQ(message("scenarios: [llm.yaml]\nrequests:\n  rate_per_s:\n    - 100\n    - 0\n"),
            file + ":5: 'requests.rate_per_s': 0 is out of range (1e-06 .. 1e+12 requests per second)");
  EXPECT_EQ(message("scenarios: [llm.yaml]\nrequests:\n  rate_per_s: [2e12]\n"),
            file + ":3: 'requests.rate_per_s': 2e12 is out of range (1e-06 .. 1e+12 requests per second)");
  EXPECT_EQ(message("scenarios: [llm.yaml]\nrequests: {count: [8, 2.5]}\n"),
            file + ":2: 'requests.count': expected an integer from 1 to 1000000, got '2.5'");
  EXPECT_EQ(message("scenarios: [llm.yaml]\nrequests: {rate_per_s: []}\n"),
            file + ":2: 'requests.rate_per_s': the list is empty");
  EXPECT_EQ(message("bundles: [tiny]\nrequests: {rate_per_s: [5]}\n"),
            file + ":2: 'requests' without 'scenarios': the rates are those of LLM serving scenarios");
  EXPECT_EQ(message("scenarios: [nowhere.yaml]\n"),
            file + ":1: scenario 'nowhere.yaml': no file " + (dir_ / "nowhere.yaml").string());
  // A tenants scenario, and a CSV trace whose rate a sweep cannot vary.
  std::ofstream(dir_ / "tenants.yaml") << "machine: tpuv3-like\ntenants: []\n";
  EXPECT_EQ(message("bundles: [tiny]\nscenarios:\n  - tenants.yaml\n"),
            file + ":3: scenario 'tenants.yaml': not an LLM scenario (no top-level `llm:` key); a sweep "
                   "serves language models only");
  std::ofstream(dir_ / "trace.csv") << "arrival_us,prompt_tokens,output_tokens\n0,16,4\n";
  writeScenario("csv.yaml", "{arrival: csv, file: trace.csv}");
  EXPECT_NE(message("scenarios: [csv.yaml]\n").find(file + ":1: scenario 'csv.yaml': its requests come from"),
            std::string::npos);
  // The scenario's own error, by its file and line, after the sweep's.
  writeScenario("bad.yaml", "{arrival: poisson, rate_per_s: 5, count: 8, prompt_tokens: [16, 96]}");
  EXPECT_EQ(message("scenarios: [bad.yaml]\n"),
            file + ":1: scenario 'bad.yaml': " + (dir_ / "bad.yaml").string() +
                ":5: requests: arrival 'poisson' needs key 'output_tokens'"); // its line 5
  EXPECT_EQ(message("grid:\n  lanes: [64]\n"), file + ": no 'bundles' or 'scenarios': nothing to run");
}

TEST_F(ScenarioSweepTest, TaskKeysFollowScenarioRateCountAndMachine) {
  const std::string scenario = writeScenario("llm.yaml", poisson_);
  const auto tasksOf = [this](const std::string &text) {
    const SweepFile s = loadSweepFile(write(text));
    return makeTasks(s, expandPoints(s), "1.0");
  };
  const std::vector<Task> a =
      tasksOf("bundles: [tiny]\nscenarios: [llm.yaml]\nrequests: {rate_per_s: [5000, 10000, 5e3], count: 8}\n"
              "grid:\n  lanes: [64, 128]\n");
  // Per machine: the bundle, then the scenario at each rate.
  ASSERT_EQ(a.size(), 8u);
  EXPECT_EQ(a[0].bundle, fs::weakly_canonical(dir_ / "tiny").string());
  EXPECT_TRUE(a[0].scenario.empty());
  EXPECT_EQ(a[1].scenario, fs::weakly_canonical(scenario).string());
  EXPECT_TRUE(a[1].bundle.empty());
  EXPECT_EQ(a[1].ratePerSecond, 5000.0);
  EXPECT_EQ(a[2].ratePerSecond, 10000.0);
  EXPECT_EQ(a[1].count, 8);
  EXPECT_EQ(a[1].key, a[3].key); // 5000 and 5e3: one experiment
  EXPECT_NE(a[1].key, a[2].key); // another rate
  EXPECT_NE(a[1].key, a[5].key); // another machine
  EXPECT_NE(a[0].key, a[1].key);
  const std::vector<std::string> args = runArguments(a[2], "C.yaml", "R.json");
  EXPECT_EQ(args, (std::vector<std::string>{"serve", a[2].scenario, "--config", "C.yaml", "--rate-per-s",
                                            "10000", "--count", "8", "--report", "R.json", "--quiet"}));
  // Another count, and the scenario's own rate and count without `requests:`.
  EXPECT_NE(
      tasksOf("scenarios: [llm.yaml]\nrequests: {rate_per_s: 5000, count: 9}\ngrid:\n  lanes: [64]\n")[0].key,
      a[1].key);
  const std::vector<Task> own = tasksOf("scenarios: [llm.yaml]\ngrid:\n  lanes: [64]\n");
  ASSERT_EQ(own.size(), 1u);
  EXPECT_EQ(own[0].ratePerSecond, 20000.0);
  EXPECT_EQ(own[0].count, 50);
  // The same sweep again: the same keys; the scenario's text changed: others.
  const std::string same =
      "scenarios: [llm.yaml]\nrequests: {rate_per_s: 5000, count: 8}\ngrid:\n  lanes: [64]\n";
  const std::string before = tasksOf(same)[0].key;
  EXPECT_EQ(before, a[1].key);
  writeScenario("llm.yaml", poisson_ + " # another comment");
  EXPECT_NE(tasksOf(same)[0].key, before);
}

TEST_F(ScenarioSweepTest, LlmColumnsComeFromTheServeReport) {
  writeScenario("llm.yaml", poisson_);
  const SweepFile s = loadSweepFile(write("bundles: [tiny]\nscenarios: [llm.yaml]\nrequests: {rate_per_s: "
                                          "2500, count: 8}\ngrid:\n  lanes: [64]\n"));
  const std::vector<Point> p = expandPoints(s);
  const std::vector<Task> tasks = makeTasks(s, p, "1.0");
  ASSERT_EQ(tasks.size(), 2u);
  const std::string out = (dir_ / "out").string();
  fs::create_directories(taskFolder(out, tasks[1]));
  // The fields of `npusim serve --report` of an LLM scenario (src/serving/llm_report.cpp).
  std::ofstream(fs::path(taskFolder(out, tasks[1])) / "report.json")
      << R"({"kind": "llm", "requests_completed": 8, "makespan_us": 900.5, "preemptions": 3, "peak_batch": 5,
            "ttft_us": {"mean": 1, "p50": 11.5, "p90": 12.5, "p99": 13.5, "max": 14},
            "tpot_us": {"mean": 2, "p50": 21.25, "p90": 22.5, "p99": 23.75, "max": 24},
            "e2e_us": {"mean": 3, "p50": 31, "p90": 32, "p99": 33, "max": 34},
            "tokens_per_s": 1234.5, "output_tokens_per_s": 234.5,
            "energy": {"total_uj": 4567.25, "per_output_token_uj": 57.125}})";
  writeStatus(out, tasks[1], {"ok", 0, 0.5, ""});
  const std::vector<ResultRow> rows = collectResults(tasks, p, out);
  ASSERT_TRUE(rows[1].llm.has_value());
  EXPECT_FALSE(rows[0].llm.has_value());
  EXPECT_EQ(rows[1].model, "llm");
  const std::string csv = resultsCsv(variedKeys(s), rows);
  std::istringstream lines(csv);
  std::string header, bundleLine, scenarioLine;
  std::getline(lines, header);
  std::getline(lines, bundleLine);
  std::getline(lines, scenarioLine);
  const auto fields = [](const std::string &line) {
    std::vector<std::string> f;
    std::stringstream cells(line);
    for (std::string c; std::getline(cells, c, ',');)
      f.push_back(c);
    if (!line.empty() && line.back() == ',')
      f.push_back("");
    return f;
  };
  const std::vector<std::string> names = fields(header), scenarioRow = fields(scenarioLine),
                                 bundleRow = fields(bundleLine);
  ASSERT_EQ(scenarioRow.size(), names.size()) << csv;
  ASSERT_EQ(bundleRow.size(), names.size()) << csv;
  const auto column = [&](const std::vector<std::string> &row, const std::string &name) {
    const size_t i = static_cast<size_t>(std::find(names.begin(), names.end(), name) - names.begin());
    return i < row.size() ? row[i] : std::string("no column ") + name;
  };
  EXPECT_EQ(column(scenarioRow, "scenario"), tasks[1].scenario);
  EXPECT_EQ(column(scenarioRow, "rate_per_s"), "2500");
  EXPECT_EQ(column(scenarioRow, "count"), "8");
  EXPECT_EQ(column(scenarioRow, "ttft_p99_us"), "13.500");
  EXPECT_EQ(column(scenarioRow, "tpot_p50_us"), "21.250");
  EXPECT_EQ(column(scenarioRow, "tpot_p99_us"), "23.750");
  EXPECT_EQ(column(scenarioRow, "serving_energy_uj"), "4567.250");
  EXPECT_EQ(column(scenarioRow, "energy_per_output_token_uj"), "57.125");
  EXPECT_EQ(column(scenarioRow, "e2e_p50_us"), "31.000");
  EXPECT_EQ(column(scenarioRow, "tokens_per_s"), "1234.5");
  EXPECT_EQ(column(scenarioRow, "requests_completed"), "8");
  EXPECT_EQ(column(scenarioRow, "preemptions"), "3");
  EXPECT_EQ(column(scenarioRow, "cycles"), ""); // a bundle task's column
  EXPECT_EQ(column(scenarioRow, "bundle"), "");
  // The bundle task has not run: its LLM cells are empty.
  EXPECT_EQ(column(bundleRow, "tpot_p50_us"), "");
  EXPECT_EQ(column(bundleRow, "rate_per_s"), "");
  // The page: TPOT p50 and p99 and TTFT p99 against the rate, and the bundle charts.
  const std::string page = sweepPage("t", variedKeys(s), rows).str();
  EXPECT_NE(page.find("TPOT p50 against arrival rate"), std::string::npos);
  EXPECT_NE(page.find("TPOT p99 against arrival rate"), std::string::npos);
}

} // namespace
} // namespace npusim::sweep
