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
#include <vector>

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
      // A tenant's requests' energies are shares of its energy: they add up to it.
      double requestsUj = 0.0;
      for (const json &request : placement["requests"])
        if (request["tenant"] == tenant["name"]) {
          EXPECT_GT(request["energy_uj"].get<double>(), 0.0);
          requestsUj += request["energy_uj"].get<double>();
        }
      EXPECT_NEAR(requestsUj, tenant["energy_uj"].get<double>(), 1e-9 * tenant["energy_uj"].get<double>());
      // Neither mlp nor tiny is a language model: no per-token figure.
      EXPECT_FALSE(tenant.contains("energy_per_token_uj")) << tenant["name"];
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

// Occurrences of `needle` in `text`.
size_t count(const std::string &text, const std::string &needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + needle.size()))
    ++n;
  return n;
}

TEST(ServeCommand, PageOfTheSmallExample) {
  const fs::path dir = fs::temp_directory_path() / "npusim_serve_page_test";
  fs::create_directories(dir);
  ASSERT_EQ(runServe(std::string(NPUSIM_SOURCE_DIR) + "/examples/serving/mlp-tiny.yaml --report " +
                     (dir / "r.json").string() + " --html " + (dir / "p.html").string()),
            0);
  const json report = readJson(dir / "r.json");
  std::ifstream in(dir / "p.html");
  const std::string page(std::istreambuf_iterator<char>(in), {});
  ASSERT_EQ(page.rfind("<!DOCTYPE html>", 0), 0u);
  for (const json &tenant : report["tenants"])
    EXPECT_NE(page.find(tenant["name"].get<std::string>()), std::string::npos) << tenant["name"];
  // The page's placement sections, in report order; each is checked against
  // the report's own counts.
  const json &placements = report["placements"];
  std::vector<size_t> starts;
  for (const json &placement : placements) {
    std::string heading = "<h2>Placement " + placement["placement"].get<std::string>();
    if (const std::string policy = placement.value("policy", ""); !policy.empty())
      heading += " (" + policy + ")";
    const size_t at = page.find(heading + "</h2>", starts.empty() ? 0 : starts.back() + 1);
    ASSERT_NE(at, std::string::npos) << heading;
    starts.push_back(at);
  }
  starts.push_back(page.size());
  for (size_t p = 0; p < placements.size(); ++p) {
    const std::string section = page.substr(starts[p], starts[p + 1] - starts[p]);
    const json &placement = placements[p];
    // Three charts: bandwidth (a line per tenant with buckets), latency and
    // energy (a point per request each); two tables: tenants and cores.
    EXPECT_EQ(count(section, "<svg class=\"chart\""), 3u) << p;
    EXPECT_EQ(count(section, "<table"), 2u) << p;
    EXPECT_EQ(count(section, "<circle class=\"point\""), 2 * placement["requests"].size()) << p;
    size_t lines = 0;
    for (const json &tenant : placement["tenants"]) {
      lines += tenant["dram_gbs_over_time"].empty() ? 0 : 1;
      // One legend entry and series group per chart.
      EXPECT_EQ(count(section, "data-name=\"" + tenant["name"].get<std::string>() + "\""), 3u) << p;
    }
    EXPECT_GT(lines, 0u) << p;
    EXPECT_EQ(count(section, "<polyline class=\"series\""), lines) << p;
    // The two heading rows, a row per tenant and a row per core.
    EXPECT_EQ(count(section, "<tr>"), 2 + placement["tenants"].size() + placement["cores"].size()) << p;
  }
  fs::remove_all(dir);
}

TEST(ServeCommand, ALanguageModelTenantGetsEnergyPerToken) {
  // examples/mistral processes 1 x 32 = 32 tokens per request (input_ids [1, 32],
  // logits [1, 32, 512]); examples/mlp is no language model.
  const fs::path dir = fs::temp_directory_path() / "npusim_serve_tokens_test";
  fs::create_directories(dir);
  const std::string examples = std::string(NPUSIM_SOURCE_DIR) + "/examples/";
  std::ofstream(dir / "lm.yaml") << "machine:\n  base: tpuv3-like\n  num_cores: 2\ntenants:\n"
                                 << "  - name: lm\n    bundle: " << examples << "mistral\n"
                                 << "    requests: {arrival: fixed, times_us: [0, 1]}\n"
                                 << "  - name: mlp\n    bundle: " << examples << "mlp\n"
                                 << "    requests: {arrival: fixed, times_us: [0]}\n"
                                 << "placement:\n  - partitioned\nvalues: false\n";
  std::string output;
  ASSERT_EQ(runServe((dir / "lm.yaml").string() + " --report " + (dir / "r.json").string(), &output), 0) << output;
  const json report = readJson(dir / "r.json");
  EXPECT_EQ(report["tenants"][0]["tokens_per_request"], 32);
  EXPECT_FALSE(report["tenants"][1].contains("tokens_per_request"));
  const json &lm = report["placements"][0]["tenants"][0];
  const json &mlp = report["placements"][0]["tenants"][1];
  ASSERT_GT(lm["energy_per_request_uj"].get<double>(), 0.0);
  EXPECT_DOUBLE_EQ(lm["energy_per_token_uj"].get<double>(), lm["energy_per_request_uj"].get<double>() / 32.0);
  EXPECT_FALSE(mlp.contains("energy_per_token_uj"));
  EXPECT_NE(output.find("; per token: lm "), std::string::npos) << output;
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
