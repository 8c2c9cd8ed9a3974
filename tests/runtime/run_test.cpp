// Running bundles: the tiny bundle verifies (in-process and through the built
// `npusim run`), a copy with one fingerprint value changed fails with the step,
// op, buffer, sample and error, and an unimplemented op names itself and its step.
#include "runtime/loader.h"
#include "runtime/runner.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <sys/wait.h>

namespace npusim::runtime {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const fs::path kRunTiny = fs::path(NPUSIM_TEST_DATA) / "bundles" / "tiny";

std::string quote(const std::string &s) {
  std::string q = "'";
  for (char c : s)
    q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string slurp(const fs::path &p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

struct Result {
  int exitCode = -1;
  std::string out, err;
};

class RunTest : public ::testing::Test {
protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "npusim-run-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  Result npusim(const std::vector<std::string> &args) const {
    std::string command = quote(NPUSIM_BINARY);
    for (const std::string &a : args)
      command += " " + quote(a);
    command += " > " + quote((dir_ / "stdout.txt").string()) + " 2> " + quote((dir_ / "stderr.txt").string());
    const int status = std::system(command.c_str());
    Result r;
    r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    r.out = slurp(dir_ / "stdout.txt");
    r.err = slurp(dir_ / "stderr.txt");
    return r;
  }

  /// A copy of the tiny bundle with its graph changed by `mutate`.
  fs::path mutatedCopy(const std::function<void(json &)> &mutate) const {
    const fs::path copy = dir_ / "bundle";
    fs::copy(kRunTiny, copy, fs::copy_options::recursive);
    std::ifstream in(copy / "graph.json");
    json g = json::parse(in);
    in.close();
    mutate(g);
    std::ofstream(copy / "graph.json") << g.dump(1);
    return copy;
  }

  fs::path dir_;
};

TEST_F(RunTest, TinyBundleVerifiesInProcess) {
  const Bundle bundle = loadBundle(kRunTiny);
  RunOptions options;
  options.verify = true;
  const RunReport r = runBundle(bundle, options);
  EXPECT_TRUE(r.verified) << r.failure;
  EXPECT_EQ(r.failure, "");
  EXPECT_EQ(r.launches, 1);
  EXPECT_EQ(r.calls, 2);
  EXPECT_EQ(r.kernels, 1);
  EXPECT_EQ(r.fingerprintsCompared, 3);
  ASSERT_EQ(r.steps.size(), 3u);
  EXPECT_EQ(r.steps[0].programs, 8);
  for (const StepResult &s : r.steps)
    EXPECT_EQ(s.result, Outcome::Verified) << s.name << ": " << s.message;
  ASSERT_EQ(r.outputs.size(), 2u);
  for (const OutputResult &o : r.outputs)
    EXPECT_EQ(o.result, Outcome::Verified) << o.name << ": " << o.message;
  EXPECT_GT(r.peakRssKiB, 0);
}

TEST_F(RunTest, TinyBundleVerifiesThroughTheCommandLine) {
  const std::string report = (dir_ / "report.json").string();
  const Result r = npusim({"run", kRunTiny.string(), "--mode", "reference", "--verify", "--report", report});
  EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("3 of 3 steps ran (1 launches, 2 calls), 1 kernels (1 compiled)"), std::string::npos)
      << r.out;
  EXPECT_NE(
      r.out.find(
          "verification: passed (3 fingerprints compared, 0 skipped as unspecified; 2 of 2 outputs match)"),
      std::string::npos)
      << r.out;
  const json doc = json::parse(slurp(report));
  EXPECT_EQ(doc["result"], "verified");
  EXPECT_EQ(doc["totals"]["launches"], 1);
  EXPECT_EQ(doc["totals"]["calls"], 2);
  ASSERT_EQ(doc["steps"].size(), 3u);
  EXPECT_EQ(doc["steps"][1]["name"], "aten.addmm");
  EXPECT_EQ(doc["steps"][1]["kind"], "call");
  EXPECT_EQ(doc["steps"][2]["result"], "verified");
  EXPECT_TRUE(doc["steps"][0]["wall_ms"].is_number());
  EXPECT_GT(doc["peak_rss_kib"].get<int64_t>(), 0);
}

TEST_F(RunTest, WithoutVerifyTheRunStillSucceeds) {
  const Result r = npusim({"run", kRunTiny.string()});
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("verification: off"), std::string::npos) << r.out;
}

TEST_F(RunTest, CorruptedFingerprintFailsAtItsStep) {
  // One sample of the addmm's output fingerprint moved by 0.5.
  const fs::path bundle = mutatedCopy([](json &g) {
    json &sample = g["steps"][1]["fingerprints"][0]["samples"][5];
    sample[1] = sample[1].get<double>() + 0.5;
  });
  const Result r = npusim({"run", bundle.string(), "--mode", "reference", "--verify"});
  EXPECT_EQ(r.exitCode, 1) << r.out << r.err;
  EXPECT_NE(
      r.err.find("error: step 1 (call aten.addmm): out[0] diverges from the fingerprint "
                 "(steps[1].fingerprints[0]): 1 of 64 samples over tolerance, first at element 32 (got "),
      std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("max error 0.5"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("2 of 3 steps ran"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("verification: FAILED"), std::string::npos) << r.out;
}

TEST_F(RunTest, CorruptedKernelFingerprintNamesTheArgument) {
  const fs::path bundle = mutatedCopy([](json &g) { g["steps"][0]["fingerprints"][0]["sum"] = 1e6; });
  const Result r = npusim({"run", bundle.string(), "--verify"});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(
      r.err.find(
          "step 0 (launch triton_poi_fused_add_relu_0): out_ptr0 (args[2]) diverges from the fingerprint"),
      std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find(", expected 1000000 (allowed difference"), std::string::npos) << r.err;
}

TEST_F(RunTest, OutputMismatchFailsAtTheEnd) {
  const fs::path bundle =
      mutatedCopy([](json &g) { g["outputs"][0]["fingerprint"]["samples"][0][1] = 123.0; });
  const Result r = npusim({"run", bundle.string(), "--verify"});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(
      r.err.find("output output_0 diverges against its fingerprint: 1 of 64 samples over tolerance, first at "
                 "element 0"),
      std::string::npos)
      << r.err;
}

TEST_F(RunTest, UnimplementedOperatorIsRejectedBeforeAnyStepRuns) {
  const fs::path bundle = mutatedCopy([](json &g) { g["steps"][1]["op"] = "aten.nonzero"; });
  const Result r = npusim({"run", bundle.string()});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("steps: 1 library call not implemented by npusim: aten.nonzero (step 1)"),
            std::string::npos)
      << r.err;
  // Step 0 (a launch) would have printed its line had anything run.
  EXPECT_EQ(r.out.find("triton_poi_fused_add_relu_0"), std::string::npos) << r.out;
}

TEST_F(RunTest, GroupedMmCallRunsOnTheNpuAndMatchesTheReference) {
  // transformers.grouped_mm_fallback over 8 rows, offs = [5, 5] (a constant
  // input): rows 0-4 use expert 0, expert 1 has none, rows 5-7 are 0.
  const fs::path bundle = mutatedCopy([](json &g) {
    const auto view = [](int storage, std::vector<int64_t> shape, std::vector<int64_t> stride) {
      return json{{"storage", storage}, {"offset", 0}, {"shape", shape}, {"stride", stride}};
    };
    g["storages"].push_back({{"id", 9}, {"dtype", "fp32"}, {"elements", 32}});
    g["storages"].push_back({{"id", 10}, {"dtype", "fp32"}, {"elements", 24}});
    g["storages"].push_back({{"id", 11}, {"dtype", "i32"}, {"elements", 2}});
    g["storages"].push_back({{"id", 12}, {"dtype", "fp32"}, {"elements", 24}});
    g["inputs"].push_back({{"name", "tokens"},
                           {"tensor", view(9, {8, 4}, {4, 1})},
                           {"init", {{"kind", "uniform"}, {"low", -1.0}, {"high", 1.0}, {"stream", 100}}}});
    g["inputs"].push_back({{"name", "experts"},
                           {"tensor", view(10, {2, 4, 3}, {12, 3, 1})},
                           {"init", {{"kind", "uniform"}, {"low", -1.0}, {"high", 1.0}, {"stream", 101}}}});
    g["inputs"].push_back(
        {{"name", "offs"}, {"tensor", view(11, {2}, {1})}, {"init", {{"kind", "constant"}, {"value", 5}}}});
    g["steps"].push_back({{"kind", "call"},
                          {"op", "transformers.grouped_mm_fallback"},
                          {"args",
                           {{{"tensor", view(9, {8, 4}, {4, 1})}},
                            {{"tensor", view(10, {2, 4, 3}, {12, 3, 1})}},
                            {{"tensor", view(11, {2}, {1})}}}},
                          {"out", {{{"tensor", view(12, {8, 3}, {3, 1})}}}}});
  });
  const Result r = npusim({"run", bundle.string(), "--verify"});
  EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("4 of 4 steps ran (1 launches, 3 calls)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("host_calls=0"), std::string::npos) << "a call fell back to the host:\n" << r.out;
  EXPECT_NE(r.out.find("verification: passed"), std::string::npos) << r.out;
}

/// Appends to the tiny bundle a call of aten.randint.low_out into a new i64
/// storage of 3 elements, with recorded values `data` and a fingerprint of
/// [5, -7, 1234567890123] written by hand.
void addRandomCall(json &g, const json &data) {
  const json view = {{"storage", 9}, {"offset", 0}, {"shape", {3}}, {"stride", {1}}};
  g["storages"].push_back({{"id", 9}, {"dtype", "i64"}, {"elements", 3}});
  g["steps"].push_back(
      {{"kind", "call"},
       {"op", "aten.randint.low_out"},
       {"args", {std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max(), {3}}},
       {"out", {{{"tensor", view}}}},
       {"values", {{{"out", 0}, {"data", data}}}},
       {"fingerprints",
        {{{"out", 0},
          {"elements", 3},
          {"sum", 5 - 7 + 1234567890123},
          {"abs_sum", 5 + 7 + 1234567890123},
          {"nan", 0},
          {"inf", 0},
          {"samples", {{0, 5}, {1, -7}, {2, 1234567890123}}}}}}});
}

TEST_F(RunTest, RandomCallWritesTheRecordedValues) {
  // npusim has no aten.randint: the step is run by writing what the capture drew.
  const fs::path bundle = mutatedCopy([](json &g) { addRandomCall(g, {5, -7, 1234567890123}); });
  RunOptions options;
  options.verify = true;
  const RunReport r = runBundle(loadBundle(bundle), options);
  EXPECT_TRUE(r.verified) << r.failure;
  ASSERT_EQ(r.steps.size(), 4u);
  EXPECT_EQ(r.steps[3].result, Outcome::Verified) << r.steps[3].message;
}

TEST_F(RunTest, RandomCallWithOtherValuesFailsItsFingerprint) {
  const fs::path bundle = mutatedCopy([](json &g) { addRandomCall(g, {5, -8, 1234567890123}); });
  RunOptions options;
  options.verify = true;
  const RunReport r = runBundle(loadBundle(bundle), options);
  EXPECT_FALSE(r.verified);
  ASSERT_EQ(r.steps.size(), 4u);
  EXPECT_EQ(r.steps[3].result, Outcome::Diverged) << r.steps[3].message;
}

TEST_F(RunTest, RandomCallWithTooFewValuesIsRejected) {
  const fs::path bundle = mutatedCopy([](json &g) { addRandomCall(g, {5, -7}); });
  try {
    loadBundle(bundle);
    ADD_FAILURE() << "the bundle was accepted";
  } catch (const core::InputError &e) {
    EXPECT_NE(std::string(e.what()).find("steps[3].values[0].data: 2 values for out[0] of 3 elements"),
              std::string::npos)
        << e.what();
  }
}

TEST_F(RunTest, GpuLaunchConfigurationIsAcceptedAndIgnored) {
  const fs::path bundle = mutatedCopy([](json &g) {
    g["steps"][0]["num_warps"] = 8;
    g["steps"][0]["num_stages"] = 1;
  });
  RunOptions options;
  options.verify = true;
  const RunReport r = runBundle(loadBundle(bundle), options);
  EXPECT_TRUE(r.verified) << r.failure;
}

TEST_F(RunTest, LaunchWithASpecialisedConstantArgument) {
  // out[0] = 2 * x[0], x[0] = fp32(-1 + 2 * u(h(7, 0, 0))) = 0.21878905594348907 (worked out in Python).
  const fs::path bundle = mutatedCopy([](json &g) {
    g["storages"].push_back({{"id", 9}, {"dtype", "fp32"}, {"elements", 1}});
    json in = {{"storage", 0}, {"offset", 0}, {"shape", {1}}, {"stride", {1}}};
    json out = {{"storage", 9}, {"offset", 0}, {"shape", {1}}, {"stride", {1}}};
    json fingerprint = {
        {"arg", 1}, {"elements", 1}, {"sum", 0.43757811188697815},           {"abs_sum", 0.43757811188697815},
        {"nan", 0}, {"inf", 0},      {"samples", {{0, 0.43757811188697815}}}};
    g["steps"].push_back({{"kind", "launch"},
                          {"kernel", "triton_poi_fused_mul_9"},
                          {"grid", {1, 1, 1}},
                          {"constexprs", {{"XBLOCK", 1}}},
                          {"args", {{{"tensor", in}}, {{"tensor", out}}, {{"value", 1}}}},
                          {"writes", {1}},
                          {"fingerprints", {fingerprint}}});
  });
  std::ofstream(bundle / "kernels" / "triton_poi_fused_mul_9.py") << R"(import triton
import triton.language as tl
from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.hints import DeviceProperties

@triton_heuristics.pointwise(
    size_hints={'x': 1},
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'constexpr', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0), 'constants': {'xnumel': 1}, 'configs': []},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_poi_fused_mul_9', 'mutated_arg_names': []},
)
@triton.jit
def triton_poi_fused_mul_9(in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 1
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    tmp0 = tl.load(in_ptr0 + (xindex), xmask)
    tl.store(out_ptr0 + (xindex), tmp0 * 2.0, xmask)
)";
  const Result r = npusim({"run", bundle.string(), "--verify"});
  EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("4 of 4 steps ran (2 launches, 2 calls), 2 kernels (2 compiled)"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("verification: passed (4 fingerprints compared"), std::string::npos) << r.out;
}

TEST_F(RunTest, StoragesLargerThanMemoryAreRefused) {
  // 2^38 fp32 elements: 1 TiB, more than any machine npusim is tested on.
  const fs::path bundle = mutatedCopy([](json &g) { g["storages"][8]["elements"] = int64_t{1} << 38; });
  const Result r = npusim({"run", bundle.string()});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("error: the bundle's storages need"), std::string::npos) << r.err;
}

// Cycles come from an event-driven simulation with deterministic tie-breaking:
// two runs of the same bundle give the same cycles, step by step, and the
// report carries what a design study reads (units, DRAM, roofline).
TEST_F(RunTest, FullModeCyclesAreReproducibleAndReported) {
  std::vector<json> reports;
  for (const char *name : {"a.json", "b.json"}) {
    const fs::path report = dir_ / name;
    const Result r =
        npusim({"run", kRunTiny.string(), "--mode", "full", "--verify", "--report", report.string()});
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    std::ifstream in(report);
    reports.push_back(json::parse(in));
  }
  const json &a = reports[0], &b = reports[1];
  EXPECT_EQ(a["mode"], "full");
  EXPECT_EQ(a["machine"], "tpuv3-like");
  EXPECT_GT(a["totals"]["cycles"].get<int64_t>(), 0);
  EXPECT_EQ(a["totals"]["cycles"], b["totals"]["cycles"]);
  ASSERT_EQ(a["steps"].size(), b["steps"].size());
  int64_t sum = 0;
  for (size_t i = 0; i < a["steps"].size(); ++i) {
    const json &step = a["steps"][i];
    EXPECT_EQ(step["executed_on"], "npu");
    EXPECT_EQ(step["reference_check"], "matches the reference");
    const json &t = step["timing"];
    EXPECT_EQ(t["cycles"], b["steps"][i]["timing"]["cycles"]) << "step " << i;
    // No schedule beats the roofline bound.
    EXPECT_GE(t["time_over_roofline"].get<double>(), 1.0) << "step " << i;
    EXPECT_TRUE(t["unit_busy_percent"].contains("dma")) << t;
    EXPECT_GT(t["dram_bytes_read"].get<int64_t>(), 0);
    sum += t["cycles"].get<int64_t>();
  }
  EXPECT_EQ(sum, a["totals"]["cycles"].get<int64_t>());
}

// Instructions the streamed timing appended late are a count in the report:
// on every step that had some, and added up in the totals (0 when none).
TEST(RunReportJson, LateInstructionsAreCountedPerStepAndInTotal) {
  RunReport report;
  report.mode = Mode::Timing;
  report.machine = "tpuv3-like";
  for (int64_t late : {0, 7, 5}) {
    StepResult step;
    step.index = report.steps.size();
    step.name = "k" + std::to_string(step.index);
    step.timed = true;
    step.timing.cycles = 100;
    step.timing.lateInstructions = late;
    report.steps.push_back(step);
    report.lateInstructions += late;
  }
  const json doc = json::parse(reportJson(report, "b"));
  EXPECT_FALSE(doc["steps"][0]["timing"].contains("late_instructions")) << doc["steps"][0];
  EXPECT_EQ(doc["steps"][1]["timing"]["late_instructions"], 7);
  EXPECT_EQ(doc["steps"][2]["timing"]["late_instructions"], 5);
  EXPECT_EQ(doc["totals"]["late_instructions"], 12); // 7 + 5
  report.steps.clear();
  report.lateInstructions = 0;
  EXPECT_EQ(json::parse(reportJson(report, "b"))["totals"]["late_instructions"], 0);
}

// A step that launches an already-compiled kernel with the same constexprs
// and scalars reuses its program: the tiny bundle with its launch repeated
// compiles one kernel, and the repeat (same inputs, so the same values and
// work) verifies and takes exactly the cycles of the first launch, which
// compiled it, and of the original bundle's launch.
TEST_F(RunTest, RepeatedLaunchReusesItsProgramWithIdenticalCyclesAndValues) {
  const fs::path bundle = mutatedCopy([](json &g) {
    json &steps = g["steps"];
    steps.insert(steps.begin() + 1, steps[0]);
  });
  const fs::path once = dir_ / "once.json", twice = dir_ / "twice.json";
  const Result a = npusim({"run", kRunTiny.string(), "--mode", "full", "--verify", "--report", once.string()});
  ASSERT_EQ(a.exitCode, 0) << a.out << a.err;
  const Result b = npusim({"run", bundle.string(), "--mode", "full", "--verify", "--report", twice.string()});
  ASSERT_EQ(b.exitCode, 0) << b.out << b.err;
  EXPECT_NE(b.out.find("4 of 4 steps ran (2 launches, 2 calls), 1 kernels (1 compiled)"), std::string::npos)
      << b.out;
  EXPECT_NE(b.out.find("verification: passed"), std::string::npos) << b.out;
  std::ifstream inOnce(once), inTwice(twice);
  const json r1 = json::parse(inOnce), r2 = json::parse(inTwice);
  const json &first = r2["steps"][0], &repeat = r2["steps"][1];
  EXPECT_EQ(repeat["reference_check"], "matches the reference");
  EXPECT_EQ(first["block_sizes"], repeat["block_sizes"]);
  EXPECT_GT(first["timing"]["cycles"].get<int64_t>(), 0);
  EXPECT_EQ(first["timing"]["cycles"], repeat["timing"]["cycles"]);
  EXPECT_EQ(first["timing"]["cycles"], r1["steps"][0]["timing"]["cycles"]);
}

// --top N lists the N costliest timed steps, each with a bound named in
// docs/cli.md; the report gives every timed step the same bound.
TEST_F(RunTest, TopStepsNameTheirBound) {
  const std::vector<std::string> bounds = {"DRAM bandwidth", "DMA issue/latency", "systolic fill/drain",
                                           "vector",         "cross-lane",        "scalar"};
  const fs::path report = dir_ / "r.json";
  const Result r =
      npusim({"run", kRunTiny.string(), "--mode", "timing", "--top", "2", "--report", report.string()});
  ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
  const size_t at = r.out.find("top 2 steps by cycles:\n");
  ASSERT_NE(at, std::string::npos) << r.out;
  std::istringstream lines(r.out.substr(at));
  std::string line;
  std::getline(lines, line);
  int listed = 0;
  int64_t previous = INT64_MAX;
  while (std::getline(lines, line) && line.rfind("  ", 0) == 0) {
    ++listed;
    std::istringstream fields(line);
    int64_t index = 0, cycles = 0;
    fields >> index >> cycles;
    EXPECT_LE(cycles, previous) << line; // costliest first
    previous = cycles;
    EXPECT_TRUE(std::any_of(bounds.begin(), bounds.end(), [&](const std::string &b) {
      return line.find("  " + b + "  ") != std::string::npos;
    })) << line;
  }
  EXPECT_EQ(listed, 2);
  std::ifstream in(report);
  const json doc = json::parse(in);
  for (const json &step : doc["steps"])
    EXPECT_NE(std::find(bounds.begin(), bounds.end(), step["timing"]["bound"].get<std::string>()),
              bounds.end());
  EXPECT_EQ(npusim({"run", kRunTiny.string(), "--mode", "timing", "--top", "0"}).exitCode, 2);
  EXPECT_EQ(npusim({"run", kRunTiny.string(), "--mode", "reference", "--top", "3"}).exitCode, 2);
}

TEST_F(RunTest, MalformedBundleAndCommandLineErrors) {
  const fs::path bundle = mutatedCopy([](json &g) { g["steps"][1]["args"][3] = json::array({1}); });
  Result r = npusim({"run", bundle.string(), "--verify"});
  EXPECT_EQ(r.exitCode, 1) << r.err; // the list reaches addmm's beta
  EXPECT_NE(r.err.find("aten.addmm: argument 3 (beta): expected a number, got a list"), std::string::npos)
      << r.err;

  r = npusim({"run", (dir_ / "nowhere").string()});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("not a bundle directory"), std::string::npos) << r.err;

  r = npusim({"run", kRunTiny.string(), "--mode", "timing", "--verify"});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("--verify needs values"), std::string::npos) << r.err;
  r = npusim({"run", kRunTiny.string(), "--mode", "functional", "--trace", (dir_ / "t.json").string()});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("--trace needs cycles"), std::string::npos) << r.err;
  r = npusim({"run", kRunTiny.string(), "--config", "tpuv9-like"});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("tpuv9-like"), std::string::npos) << r.err;
  r = npusim({"run", kRunTiny.string(), "--mode", "fast"});
  EXPECT_EQ(r.exitCode, 2);
  r = npusim({"run"});
  EXPECT_EQ(r.exitCode, 2);
  r = npusim({"run", kRunTiny.string(), "--bogus"});
  EXPECT_EQ(r.exitCode, 2);
  for (const char *threads : {"0", "-1", "2x"}) {
    r = npusim({"run", kRunTiny.string(), "--threads", threads});
    EXPECT_EQ(r.exitCode, 2) << threads;
    EXPECT_NE(r.err.find("--threads expects a positive integer"), std::string::npos) << r.err;
  }
  r = npusim({"run", kRunTiny.string(), "--mode", "full", "--threads", "2"});
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find(" threads=2 "), std::string::npos) << r.out;
}

} // namespace
} // namespace npusim::runtime
