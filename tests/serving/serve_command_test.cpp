// npusim serve on the small example scenario: the report and the trace say
// what the scenario asked for, and a bad scenario fails naming file and line.
#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

namespace npusim::serving {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

json readJson(const fs::path &path) {
  std::ifstream in(path);
  return json::parse(in);
}

int runServe(const std::string &arguments, std::string *output = nullptr) {
  const fs::path log = fs::temp_directory_path() / "npusim_serve_test.log";
  const int status = std::system(
      (std::string(NPUSIM_BINARY) + " serve " + arguments + " > " + log.string() + " 2>&1").c_str());
  if (output) {
    std::ifstream in(log);
    *output = std::string(std::istreambuf_iterator<char>(in), {});
  }
  return WEXITSTATUS(status);
}

TEST(ServeCommand, ReportAndTraceOfTheSmallExample) {
  const fs::path dir = fs::temp_directory_path() / "npusim_serve_test";
  fs::create_directories(dir);
  ASSERT_EQ(runServe(std::string(NPUSIM_SOURCE_DIR) + "/examples/serving/mlp-tiny.yaml --report " +
                     (dir / "r.json").string() + " --trace " + (dir / "t.json").string()),
            0);
  const json report = readJson(dir / "r.json");
  ASSERT_EQ(report["placements"].size(), 3u); // partitioned, shared round_robin, shared priority
  EXPECT_EQ(report["tenants"][0]["values"], "verified");
  for (const json &placement : report["placements"]) {
    int mlp = 0, tiny = 0;
    for (const json &request : placement["requests"]) {
      const double arrival = request["arrival_us"], start = request["start_us"],
                   finish = request["finish_us"];
      EXPECT_LE(arrival, start);
      EXPECT_LT(start, finish);
      EXPECT_NEAR(request["latency_us"].get<double>(), finish - arrival, 1e-9);
      if (request["tenant"] == "mlp")
        EXPECT_EQ(arrival, 5.0 * mlp++); // times_us: [0, 5, 10]
      else
        ++tiny;
    }
    EXPECT_EQ(mlp, 3);
    EXPECT_EQ(tiny, 5);
    // The detailed DRAM counts every access as a row hit, miss or conflict.
    const json &rows = placement["dram_rows"];
    const double accesses =
        rows["hits"].get<double>() + rows["misses"].get<double>() + rows["conflicts"].get<double>();
    EXPECT_GT(accesses, 0.0);
    EXPECT_NEAR(rows["hit_rate"].get<double>(), rows["hits"].get<double>() / accesses, 1e-12);
    for (const json &tenant : placement["tenants"]) {
      const json &latency = tenant["latency_us"];
      EXPECT_LE(latency["p50"].get<double>(), latency["p95"].get<double>());
      EXPECT_LE(latency["p95"].get<double>(), latency["p99"].get<double>());
      EXPECT_LE(latency["p99"].get<double>(), latency["max"].get<double>());
    }
  }
  // Partitioned: mlp on core 0 only, tiny on core 1 only.
  const json &partitioned = report["placements"][0]["cores"];
  EXPECT_GT(partitioned[0]["tenant_busy_percent"]["mlp"].get<double>(), 0.0);
  EXPECT_EQ(partitioned[0]["tenant_busy_percent"]["tiny"].get<double>(), 0.0);
  EXPECT_EQ(partitioned[1]["tenant_busy_percent"]["mlp"].get<double>(), 0.0);

  // The trace: per placement two core processes (pid 4p, 4p + 1), each with
  // one track per tenant; instance slices only on the tracks of tenants the
  // placement puts there.
  const json trace = readJson(dir / "t.json");
  std::set<std::pair<int, int>> tracks;
  for (const json &event : trace["traceEvents"])
    if (event["ph"] == "X")
      tracks.emplace(event["pid"].get<int>(), event["tid"].get<int>());
  EXPECT_EQ(tracks, (std::set<std::pair<int, int>>{
                        {0, 0}, {1, 1}, {4, 0}, {4, 1}, {5, 0}, {5, 1}, {8, 0}, {8, 1}, {9, 0}, {9, 1}}));
  fs::remove_all(dir);
}

TEST(ServeCommand, ABadScenarioNamesFileAndLine) {
  const fs::path file = fs::temp_directory_path() / "npusim_serve_bad.yaml";
  std::ofstream(file)
      << "machine: tpuv3-like\ntenants:\n  - {name: a, bundle: b, requests: {arrival: fixed}}\n"
         "placement: {name: partitioned, policy: fifo, core: [0]}\n";
  std::string output;
  EXPECT_EQ(runServe(file.string(), &output), 1);
  EXPECT_NE(output.find(file.string() + ":4: placement: unknown key 'core'"), std::string::npos) << output;
  fs::remove(file);
}

} // namespace
} // namespace npusim::serving
