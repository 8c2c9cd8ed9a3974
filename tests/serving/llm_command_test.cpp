// npusim serve on an LLM scenario: the report, the trace and the page agree
// with each other, and a bad key fails naming the file, line and key.
#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace npusim::serving {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

int serve(const std::string &arguments, std::string *output) {
  const fs::path log = fs::temp_directory_path() / "npusim_llm_serve_test.log";
  const int status = std::system(
      (std::string(NPUSIM_BINARY) + " serve " + arguments + " > " + log.string() + " 2>&1").c_str());
  std::ifstream in(log);
  *output = std::string(std::istreambuf_iterator<char>(in), {});
  return WEXITSTATUS(status);
}

/// A scenario serving the dynamic mlp as both graphs (its `batch` stands for
/// a chunk's tokens and for the decode batch).
fs::path writeScenario(const fs::path &dir, const std::string &scheduler) {
  fs::create_directories(dir);
  const std::string bundle = std::string(NPUSIM_TEST_DATA) + "/bundles/mlp_dynamic";
  std::ofstream(dir / "s.yaml") << "machine: tpuv4-like\n"
                                   "llm:\n"
                                   "  prefill: {bundle: " << bundle << ", tokens: batch}\n"
                                   "  decode: {bundle: " << bundle << ", batch: batch}\n"
                                   "  kv_bytes_per_token: 4096\n"
                                   "requests: {arrival: poisson, rate_per_s: 400000, seed: 3, count: 24, "
                                   "prompt_tokens: [4, 40], output_tokens: [1, 12]}\n"
                                << scheduler;
  return dir / "s.yaml";
}

TEST(LlmServeCommand, ReportTraceAndPageAgree) {
  const fs::path dir = fs::temp_directory_path() / "npusim_llm_serve";
  const fs::path scenario =
      writeScenario(dir, "scheduler: {max_batch: 4, token_budget: 24, block_tokens: 4, kv_blocks: 24}\n");
  std::string output;
  ASSERT_EQ(serve(scenario.string() + " --report " + (dir / "r.json").string() + " --trace " +
                      (dir / "t.json").string() + " --html " + (dir / "p.html").string(),
                  &output),
            0)
      << output;
  EXPECT_NE(output.find("TTFT us: mean"), std::string::npos) << output;
  std::ifstream reportFile(dir / "r.json");
  const json report = json::parse(reportFile);
  EXPECT_EQ(report["kind"], "llm");
  EXPECT_EQ(report["requests"].size(), 24u);
  EXPECT_EQ(report["kv_cache"]["blocks"], 24);
  int64_t outputs = 0;
  for (const json &r : report["requests"]) {
    EXPECT_LE(r["arrival_us"].get<double>(), r["first_token_us"].get<double>());
    EXPECT_LE(r["first_token_us"].get<double>(), r["finish_us"].get<double>());
    EXPECT_NEAR(r["e2e_us"].get<double>(), r["finish_us"].get<double>() - r["arrival_us"].get<double>(), 1e-6);
    outputs += r["output_tokens"].get<int64_t>();
  }
  EXPECT_EQ(report["output_tokens"], outputs);
  for (const char *metric : {"ttft_us", "tpot_us", "e2e_us"}) {
    EXPECT_LE(report[metric]["p50"].get<double>(), report[metric]["p90"].get<double>());
    EXPECT_LE(report[metric]["p90"].get<double>(), report[metric]["p99"].get<double>());
  }
  int64_t generated = 0;
  for (const json &it : report["iterations"]) {
    EXPECT_LE(it["prefill_tokens"].get<int64_t>() + it["decodes"].get<int64_t>(), 24);
    EXPECT_LE(it["kv_blocks_used"].get<int64_t>(), 24);
    generated += it["decodes"].get<int64_t>();
  }
  EXPECT_GT(generated, 0);
  std::ifstream traceFile(dir / "t.json");
  const json trace = json::parse(traceFile);
  size_t slices = 0, occupancy = 0;
  for (const json &event : trace["traceEvents"]) {
    slices += event["ph"] == "X" ? 1 : 0;
    occupancy += event["ph"] == "C" && event["name"] == "KV cache occupancy" ? 1 : 0;
  }
  EXPECT_EQ(slices, report["iterations"].size());
  EXPECT_EQ(occupancy, report["iterations"].size());
  std::ifstream pageFile(dir / "p.html");
  const std::string page(std::istreambuf_iterator<char>(pageFile), {});
  EXPECT_NE(page.find("KV cache occupancy over time"), std::string::npos);
  EXPECT_NE(page.find("Batch size over time"), std::string::npos);
}

TEST(LlmServeCommand, ABadKeyNamesTheFileLineAndKey) {
  const fs::path dir = fs::temp_directory_path() / "npusim_llm_serve_bad";
  const fs::path scenario = writeScenario(dir, "scheduler:\n  max_batch: 4\n  kv_block: 3\n");
  std::string output;
  EXPECT_EQ(serve(scenario.string(), &output), 1);
  EXPECT_NE(output.find(scenario.string() + ":9: scheduler: unknown key 'kv_block'"), std::string::npos) << output;
}

} // namespace
} // namespace npusim::serving
