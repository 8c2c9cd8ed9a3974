// LLM serving (docs/serving.md, "LLM serving"): the scheduler against
// closed forms computed here, from stand-in timings or from separate runtime
// runs of the bundles, never from the code under test.
#include "config/hardware.h"
#include "core/error.h"
#include "runtime/loader.h"
#include "runtime/runner.h"
#include "serving/llm.h"
#include "serving/policies.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace npusim::serving {
namespace {

const std::string kData = NPUSIM_TEST_DATA;
const std::string kMlp = kData + "/bundles/mlp_dynamic";

/// A scenario in code: the stand-in bundle names "P" and "D" (prefill, decode).
LlmScenario llmScenarioOf(int64_t maxBatch, int64_t budget, int64_t blockTokens, std::optional<int64_t> blocks) {
  LlmScenario scenario;
  scenario.path = "/tmp/s.yaml";
  scenario.machine = config::loadConfig("tpuv4-like");
  scenario.prefill = {"P", "seq", "", "", "/tmp/s.yaml:3"};
  scenario.decode = {"D", "", "batch", "past", "/tmp/s.yaml:4"};
  scenario.scheduler.maxBatch = maxBatch;
  scenario.scheduler.tokenBudget = budget;
  scenario.scheduler.blockTokens = blockTokens;
  scenario.scheduler.kvBlocks = blocks;
  return scenario;
}

/// Stand-in timings in cycles of a 1 GHz clock (1 cycle = 1000 ps): a prefill
/// of n tokens takes 100 + 10 n, a decode of batch b at past p 50 + 5 b + p.
IterationTimer::Timed standIn(const std::string &bundle, const runtime::SizeBinding &sizes) {
  int64_t cycles = 0;
  if (bundle == "P")
    cycles = 100 + 10 * sizes.at("seq");
  else
    cycles = 50 + 5 * sizes.at("batch") + sizes.at("past");
  return {cycles, cycles * 1000};
}

LlmRequest request(double arrivalUs, int64_t prompt, int64_t output) {
  return {psOfUs(arrivalUs), prompt, output};
}

const LlmModelBytes kBytes{1000.0, 64.0};

TEST(LlmServing, OneRequestAtATimeTakesOnePrefillAndItsDecodeSteps) {
  // Arrivals 1 ms apart, each done long before the next: TTFT is one prefill
  // of the prompt, and each later token one decode step of batch 1 at the
  // cached length P, P + 1, ...
  LlmScenario scenario = llmScenarioOf(8, 64, 16, 1000);
  IterationTimer timer(standIn);
  const std::vector<LlmRequest> requests = {request(0, 20, 5), request(1000, 7, 3)};
  const LlmResult result = simulateLlm(scenario, requests, kBytes, timer);
  ASSERT_EQ(result.requests.size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    const int64_t p = requests[i].promptTokens, o = requests[i].outputTokens;
    const double prefillUs = (100.0 + 10.0 * static_cast<double>(p)) / 1000.0;
    double decodeUs = 0;
    for (int64_t k = 0; k < o - 1; ++k)
      decodeUs += (50.0 + 5.0 + static_cast<double>(p + k)) / 1000.0;
    EXPECT_DOUBLE_EQ(result.requests[i].ttftUs(), prefillUs);
    EXPECT_NEAR(result.requests[i].tpotUs(), decodeUs / static_cast<double>(o - 1), 1e-9);
    EXPECT_NEAR(result.requests[i].e2eUs(), prefillUs + decodeUs, 1e-9);
  }
  EXPECT_EQ(result.preemptions, 0);
  EXPECT_EQ(result.outputTokens, 8);
}

TEST(LlmServing, DecodesOfDifferentLengthsAreTimedPerLength) {
  // Two requests arriving together: one iteration prefills both (one run per
  // chunk), then both decode together, one decode run per distinct cached length.
  LlmScenario scenario = llmScenarioOf(8, 64, 16, 1000);
  IterationTimer timer(standIn);
  const LlmResult result = simulateLlm(scenario, {request(0, 10, 2), request(0, 12, 2)}, kBytes, timer);
  ASSERT_EQ(result.iterations.size(), 2u);
  EXPECT_EQ(result.iterations[0].cycles, (100 + 10 * 10) + (100 + 10 * 12));
  EXPECT_EQ(result.iterations[0].prefillChunks, 2);
  EXPECT_EQ(result.iterations[1].decodes, 2);
  EXPECT_EQ(result.iterations[1].decodeRuns, 2);
  EXPECT_EQ(result.iterations[1].cycles, (50 + 5 + 10) + (50 + 5 + 12));
  // With a bucket of 4 both lengths round up to 12: one run of batch 2.
  scenario.scheduler.pastBucket = 4;
  IterationTimer bucketed(standIn);
  const LlmResult grouped = simulateLlm(scenario, {request(0, 10, 2), request(0, 12, 2)}, kBytes, bucketed);
  EXPECT_EQ(grouped.iterations[1].decodeRuns, 1);
  EXPECT_EQ(grouped.iterations[1].cycles, 50 + 5 * 2 + 12);
}

TEST(LlmServing, ChunkedPrefillKeepsToTheTokenBudget) {
  LlmScenario scenario = llmScenarioOf(4, 16, 8, 10000);
  IterationTimer timer(standIn);
  std::vector<LlmRequest> requests;
  for (int i = 0; i < 12; ++i)
    requests.push_back(request(i * 0.05, 10 + 9 * i, 3 + i % 5));
  const LlmResult result = simulateLlm(scenario, requests, kBytes, timer);
  ASSERT_EQ(result.requests.size(), requests.size());
  int64_t chunked = 0;
  for (const LlmIteration &it : result.iterations) {
    EXPECT_LE(it.prefillTokens + it.decodes, 16);
    EXPECT_LE(it.batch, 4);
    chunked += it.prefillTokens == 16 ? 1 : 0;
  }
  EXPECT_GT(chunked, 0);
  // A 10-token prompt under a 16-token budget, alone: one chunk; a 100-token
  // prompt alone: ceil(100 / 16) = 7 chunks, so TTFT is 7 prefill runs.
  IterationTimer alone(standIn);
  const LlmResult single = simulateLlm(scenario, {request(0, 100, 2)}, kBytes, alone);
  EXPECT_DOUBLE_EQ(single.requests[0].ttftUs(), (6 * (100.0 + 160.0) + (100.0 + 40.0)) / 1000.0);
}

TEST(LlmServing, ATinyCachePreemptsAndEveryRequestCompletes) {
  // 6 blocks of 4 tokens: three requests of 8-token prompts and 9 output
  // tokens (16 cached tokens at the end, 4 blocks each) cannot all stay.
  LlmScenario scenario = llmScenarioOf(8, 64, 4, 6);
  IterationTimer timer(standIn);
  std::vector<LlmRequest> requests = {request(0, 8, 9), request(0, 8, 9), request(0, 8, 9)};
  const LlmResult result = simulateLlm(scenario, requests, kBytes, timer);
  EXPECT_GT(result.preemptions, 0);
  ASSERT_EQ(result.requests.size(), 3u);
  int64_t preempted = 0;
  for (const LlmRequestResult &r : result.requests) {
    EXPECT_EQ(r.outputTokens, 9);
    EXPECT_GT(r.finish, r.firstToken);
    preempted += r.preemptions;
  }
  EXPECT_EQ(preempted, result.preemptions);
  EXPECT_EQ(result.outputTokens, 27);
  EXPECT_LE(result.peakBlocks, 6);
  for (const LlmIteration &it : result.iterations)
    EXPECT_LE(it.usedBlocks, 6);
  // The oldest request is never preempted: it finishes first.
  EXPECT_EQ(result.requests[0].preemptions, 0);
  EXPECT_LE(result.requests[0].finish, result.requests[1].finish);
  // Every output token comes from a decode step or from the end of a
  // prefill: one per admission, the three first ones and one per preemption
  // (its recompute); tokens generated before a preemption are kept.
  int64_t decoded = 0;
  for (const LlmIteration &it : result.iterations)
    decoded += it.decodes;
  EXPECT_EQ(decoded + 3 + result.preemptions, 27);
}

TEST(LlmServing, ARequestLargerThanTheCacheIsAnError) {
  LlmScenario scenario = llmScenarioOf(8, 64, 4, 2);
  IterationTimer timer(standIn);
  try {
    simulateLlm(scenario, {request(0, 8, 9)}, kBytes, timer);
    FAIL() << "no error";
  } catch (const core::InputError &error) {
    EXPECT_NE(std::string(error.what()).find("request 0"), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find("needs 4 KV blocks; the cache has 2"), std::string::npos)
        << error.what();
  }
}

TEST(LlmServing, ASeedReproducesARun) {
  LlmTraceSpec trace;
  trace.ratePerSecond = 5.0e6;
  trace.seed = 7;
  trace.count = 40;
  trace.promptMin = 4;
  trace.promptMax = 60;
  trace.outputMin = 1;
  trace.outputMax = 20;
  const std::vector<LlmRequest> a = makeLlmRequests(trace), b = makeLlmRequests(trace);
  trace.seed = 8;
  const std::vector<LlmRequest> c = makeLlmRequests(trace);
  ASSERT_EQ(a.size(), 40u);
  bool differs = false;
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].arrival, b[i].arrival);
    EXPECT_EQ(a[i].promptTokens, b[i].promptTokens);
    EXPECT_EQ(a[i].outputTokens, b[i].outputTokens);
    EXPECT_GE(a[i].promptTokens, 4);
    EXPECT_LE(a[i].promptTokens, 60);
    differs = differs || a[i].arrival != c[i].arrival;
  }
  EXPECT_TRUE(differs);
  LlmScenario scenario = llmScenarioOf(6, 32, 4, 25);
  IterationTimer t1(standIn), t2(standIn);
  const LlmResult r1 = simulateLlm(scenario, a, kBytes, t1), r2 = simulateLlm(scenario, b, kBytes, t2);
  ASSERT_EQ(r1.requests.size(), r2.requests.size());
  EXPECT_GT(r1.preemptions, 0);
  for (size_t i = 0; i < r1.requests.size(); ++i) {
    EXPECT_EQ(r1.requests[i].firstToken, r2.requests[i].firstToken);
    EXPECT_EQ(r1.requests[i].finish, r2.requests[i].finish);
  }
  EXPECT_EQ(r1.iterations.size(), r2.iterations.size());
}

TEST(LlmServing, TheTimerMemoisesPerBundleAndSizes) {
  int calls = 0;
  IterationTimer timer([&calls](const std::string &bundle, const runtime::SizeBinding &sizes) {
    ++calls;
    return standIn(bundle, sizes);
  });
  timer.time("D", {{"batch", 2}, {"past", 9}});
  timer.time("D", {{"batch", 2}, {"past", 9}});
  timer.time("D", {{"batch", 3}, {"past", 9}});
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(timer.runs(), 2);
  EXPECT_EQ(timer.lookups(), 3);
}

/// A timing run of the bundle at `sizes` through the runtime, as `npusim run
/// --mode timing --set` does it.
runtime::RunReport timingRun(const std::string &bundle, const runtime::SizeBinding &sizes) {
  runtime::RunOptions options;
  options.mode = runtime::Mode::Timing;
  options.machine = config::loadConfig("tpuv4-like");
  options.threads = 1;
  return runtime::runBundle(runtime::loadBundle(bundle, sizes), options);
}

TEST(LlmServing, ATimingRunFromAnIdleMachineRepeatsExactly) {
  // Why the memo is exact: two runs at the same sizes give the same cycles.
  const runtime::RunReport a = timingRun(kMlp, {{"batch", 5}}), b = timingRun(kMlp, {{"batch", 5}});
  ASSERT_TRUE(a.completed && b.completed);
  EXPECT_GT(a.totalCycles, 0);
  EXPECT_EQ(a.totalCycles, b.totalCycles);
  EXPECT_EQ(a.totalTimeUs, b.totalTimeUs);
}

TEST(LlmServing, AtLowLoadTtftIsOnePrefillRunAndTpotOneDecodeRun) {
  // The real runtime timer on a bundle with a dynamic size (the mlp stands in
  // for both graphs: prefill tokens and decode batch are its `batch`), and
  // the expected times from separate runtime runs.
  LlmScenario scenario = llmScenarioOf(8, 64, 16, 1000);
  scenario.prefill = {kMlp, "batch", "", "", ""};
  scenario.decode = {kMlp, "", "batch", "", ""};
  IterationTimer timer(scenario.machine);
  const LlmResult result = simulateLlm(scenario, {request(0, 12, 4), request(5000, 30, 2)}, kBytes, timer);
  ASSERT_EQ(result.requests.size(), 2u);
  // A batch of one decode is timed at the size's minimum, 2.
  const runtime::RunReport decode = timingRun(kMlp, {{"batch", 2}});
  for (const auto &[index, prompt] : {std::pair<size_t, int64_t>{0, 12}, {1, 30}}) {
    const runtime::RunReport prefill = timingRun(kMlp, {{"batch", prompt}});
    EXPECT_DOUBLE_EQ(result.requests[index].ttftUs(), static_cast<double>(psOfUs(prefill.totalTimeUs)) / 1e6);
    EXPECT_DOUBLE_EQ(result.requests[index].tpotUs(), static_cast<double>(psOfUs(decode.totalTimeUs)) / 1e6);
  }
  EXPECT_EQ(result.iterations.front().cycles, timingRun(kMlp, {{"batch", 12}}).totalCycles);
}

/// Stand-in energies: a prefill of n tokens 1000 + 7 n pJ, a decode of batch
/// b at past p 300 + 40 b + p pJ (times as standIn).
IterationTimer::Timed standInWithEnergy(const std::string &bundle, const runtime::SizeBinding &sizes) {
  IterationTimer::Timed t = standIn(bundle, sizes);
  t.energyPj = bundle == "P" ? 1000.0 + 7.0 * static_cast<double>(sizes.at("seq"))
                             : 300.0 + 40.0 * static_cast<double>(sizes.at("batch")) +
                                   static_cast<double>(sizes.at("past"));
  return t;
}

TEST(LlmServing, EnergyIsTheRunsSharedByTheirSequencesAndTheIdleTimeAtStaticPower) {
  // Two requests arriving together, prompts 10 and 12, two output tokens
  // each, a past bucket of 4: one iteration prefills both (one run each),
  // then one decode run of batch 2 at past 12 serves both.
  LlmScenario scenario = llmScenarioOf(8, 64, 16, 1000);
  scenario.scheduler.pastBucket = 4;
  IterationTimer timer(standInWithEnergy);
  const double watts = 2.5;
  // A third request arrives at 10 us, long after the first two finish (the
  // prefills take 0.2 + 0.22 us, the decode 0.072 us): prompt 4, one token.
  const LlmResult result =
      simulateLlm(scenario, {request(0, 10, 2), request(0, 12, 2), request(10, 4, 1)}, kBytes, timer, watts);
  ASSERT_EQ(result.requests.size(), 3u);
  const double prefill10 = 1000 + 7 * 10, prefill12 = 1000 + 7 * 12, prefill4 = 1000 + 7 * 4;
  const double decode = 300 + 40 * 2 + 12;
  EXPECT_NEAR(result.requests[0].energyUj, (prefill10 + decode / 2) * 1e-6, 1e-12);
  EXPECT_NEAR(result.requests[1].energyUj, (prefill12 + decode / 2) * 1e-6, 1e-12);
  EXPECT_NEAR(result.requests[2].energyUj, prefill4 * 1e-6, 1e-12);
  const double runs = prefill10 + prefill12 + decode + prefill4;
  EXPECT_NEAR(result.runsEnergyUj, runs * 1e-6, 1e-12);
  ASSERT_EQ(result.iterations.size(), 3u);
  EXPECT_NEAR(result.iterations[1].energyUj, decode * 1e-6, 1e-12);
  // Busy: 0.2 + 0.22 + 0.072 + 0.14 us of the 10.14 us makespan; idle the
  // rest, at 2.5 W = 2.5 pJ per ps.
  const double makespanPs = 10.0e6 + (100 + 10 * 4) * 1000.0;
  EXPECT_EQ(result.makespan, static_cast<TimePs>(makespanPs));
  const double busyPs = (200 + 220 + 72 + 140) * 1000.0;
  EXPECT_NEAR(result.idleEnergyUj, watts * (makespanPs - busyPs) * 1e-6, 1e-9);
  EXPECT_NEAR(result.energyUj, result.runsEnergyUj + result.idleEnergyUj, 1e-12);
  EXPECT_NEAR(result.energyPerOutputTokenUj, result.energyUj / 5.0, 1e-12);
  // Without a batch size the decode runs once per sequence: each pays its own.
  scenario.decode.batch = "";
  IterationTimer single([](const std::string &bundle, const runtime::SizeBinding &sizes) {
    runtime::SizeBinding withBatch = sizes;
    withBatch.emplace("batch", 1);
    return standInWithEnergy(bundle, withBatch);
  });
  const LlmResult alone = simulateLlm(scenario, {request(0, 10, 2), request(0, 12, 2)}, kBytes, single, watts);
  const double decodeOne = 300 + 40 * 1 + 12;
  EXPECT_NEAR(alone.requests[0].energyUj, (prefill10 + decodeOne) * 1e-6, 1e-12);
  EXPECT_NEAR(alone.requests[1].energyUj, (prefill12 + decodeOne) * 1e-6, 1e-12);
}

// The default timer prices each run by the machine's energy table: the
// iteration's energy is the separate run's report's.
TEST(LlmServing, TheRuntimeTimerPricesEachRunsEnergy) {
  LlmScenario scenario = llmScenarioOf(8, 64, 16, 1000);
  scenario.prefill = {kMlp, "batch", "", "", ""};
  scenario.decode = {kMlp, "", "batch", "", ""};
  IterationTimer timer(scenario.machine);
  const LlmResult result =
      simulateLlm(scenario, {request(0, 12, 1)}, kBytes, timer, idleWatts(scenario.machine));
  ASSERT_EQ(result.iterations.size(), 1u);
  const double expected = timingRun(kMlp, {{"batch", 12}}).totalEnergy.totalPj() * 1e-6;
  EXPECT_GT(expected, 0.0);
  EXPECT_DOUBLE_EQ(result.iterations[0].energyUj, expected);
  EXPECT_DOUBLE_EQ(result.requests[0].energyUj, expected);
  EXPECT_DOUBLE_EQ(result.idleEnergyUj, 0.0); // the run starts at 0 and ends the makespan
  EXPECT_GT(idleWatts(scenario.machine), 0.0);
}

std::string errorOf(const std::string &text) {
  try {
    parseLlmScenario(text, "/tmp/s.yaml");
  } catch (const core::InputError &error) {
    return error.what();
  }
  return "";
}

const char *const kScenario = R"(machine: tpuv4-like
llm:
  prefill: {bundle: ../p, tokens: seq}
  decode: {bundle: /abs/d, batch: batch, past: past}
requests: {arrival: poisson, rate_per_s: 10, seed: 3, count: 5, prompt_tokens: [8, 16], output_tokens: [2, 4]}
scheduler:
  max_batch: 4
  token_budget: 32
)";

TEST(LlmScenarioFile, ReadsEveryKey) {
  const LlmScenario scenario = parseLlmScenario(std::string(kScenario) + "  block_tokens: 8\n  kv_blocks: 99\n"
                                                                         "  past_bucket: 4\n",
                                                "/tmp/x/s.yaml");
  EXPECT_EQ(scenario.prefill.bundle, "/tmp/p");
  EXPECT_EQ(scenario.prefill.tokens, "seq");
  EXPECT_EQ(scenario.decode.bundle, "/abs/d");
  EXPECT_EQ(scenario.decode.past, "past");
  EXPECT_EQ(scenario.trace.count, 5);
  EXPECT_EQ(scenario.trace.promptMax, 16);
  EXPECT_EQ(scenario.trace.outputMin, 2);
  EXPECT_EQ(scenario.scheduler.maxBatch, 4);
  EXPECT_EQ(scenario.scheduler.tokenBudget, 32);
  EXPECT_EQ(scenario.scheduler.blockTokens, 8);
  EXPECT_EQ(*scenario.scheduler.kvBlocks, 99);
  EXPECT_EQ(scenario.scheduler.pastBucket, 4);
}

TEST(LlmScenarioFile, ABadKeyNamesTheFileLineAndKey) {
  EXPECT_EQ(errorOf(std::string(kScenario) + "  max_batchs: 3\n"),
            "/tmp/s.yaml:9: scheduler: unknown key 'max_batchs' (keys: max_batch, token_budget, block_tokens, "
            "kv_blocks, past_bucket)");
  EXPECT_EQ(errorOf(std::string(kScenario) + "  block_tokens: 0\n"),
            "/tmp/s.yaml:9: key 'block_tokens': 0 is out of range (1 .. 65536)");
  EXPECT_NE(errorOf(std::string(kScenario) + "tenants: []\n").find("/tmp/s.yaml:9: scenario: unknown key 'tenants'"),
            std::string::npos);
  std::string wrong = kScenario;
  wrong.replace(wrong.find("count: 5"), 8, "file: x.csv");
  EXPECT_EQ(errorOf(wrong), "/tmp/s.yaml:5: key 'file' does not apply to arrival 'poisson'");
  std::string small = kScenario;
  small.replace(small.find("token_budget: 32"), 16, "token_budget: 2");
  EXPECT_EQ(errorOf(small), "/tmp/s.yaml:7: token_budget 2 is below max_batch 4: a full batch of decodes would "
                            "not fit one iteration");
}

TEST(LlmScenarioFile, ReadsACsvTrace) {
  const auto dir = std::filesystem::temp_directory_path() / "npusim_llm_csv";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "t.csv") << "arrival_us,prompt_tokens,output_tokens\n5,10,3\n1.5,7,2\n";
  LlmTraceSpec trace;
  trace.arrival = "csv";
  trace.file = (dir / "t.csv").string();
  const std::vector<LlmRequest> requests = makeLlmRequests(trace);
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_EQ(requests[0].arrival, psOfUs(1.5));
  EXPECT_EQ(requests[0].promptTokens, 7);
  EXPECT_EQ(requests[1].outputTokens, 3);
  std::ofstream(dir / "t.csv") << "arrival_us,prompt_tokens,output_tokens\n5,10\n";
  try {
    makeLlmRequests(trace);
    FAIL() << "no error";
  } catch (const core::InputError &error) {
    EXPECT_NE(std::string(error.what()).find("t.csv:2: expected 3 fields"), std::string::npos) << error.what();
  }
}

} // namespace
} // namespace npusim::serving

namespace npusim::serving {
namespace {

const std::string kPrefill = kData + "/bundles/llama_prefill", kDecode = kData + "/bundles/llama_decode";

/// The 2-layer Llama (hidden 64, 4 heads, 2 KV heads of 16, intermediate 128,
/// vocab 256, fp32) captured with dynamic sizes by python -m npusim.dynamic_shapes
/// "llama_prefill,layers=2,hidden=64,heads=4,kv_heads=2,intermediate=128,vocab=256" --sizes seq=16
/// and "llama_decode,...,batch=1" --sizes past=24 (a decode of one sequence).
LlmScenario llamaScenario() {
  LlmScenario scenario = llmScenarioOf(8, 64, 16, 1000);
  scenario.prefill = {kPrefill, "seq", "", "", ""};
  scenario.decode = {kDecode, "", "", "past", ""};
  return scenario;
}

TEST(LlmLlama, TheModelsBytesComeFromTheDecodeBundle) {
  // Closed form: parameters 256 x 64 (embedding) + 2 x (2 x 64 norms + 64 x 64
  // q + 2 x 64 x 32 k, v + 64 x 64 o + 3 x 64 x 128 MLP) + 64 + 64 x 256 (LM
  // head) = 106,816 fp32, and the step's token id (int64: the batch is
  // static, so no size changes it); the cache per token: keys and values of 2
  // layers, 2 KV heads of 16, fp32.
  const LlmModelBytes bytes = modelBytes(llamaScenario());
  EXPECT_EQ(bytes.weights, 106816.0 * 4 + 8);
  EXPECT_EQ(bytes.kvPerToken, 2.0 * 2 * 2 * 16 * 4);
}

TEST(LlmLlama, AtLowLoadTtftIsOnePrefillAndTpotTheDecodeSteps) {
  LlmScenario scenario = llamaScenario();
  IterationTimer timer(scenario.machine);
  const int64_t prompt = 20, output = 4;
  const LlmResult result = simulateLlm(scenario, {request(0, prompt, output)}, modelBytes(scenario), timer);
  ASSERT_EQ(result.requests.size(), 1u);
  const runtime::RunReport prefill = timingRun(kPrefill, {{"seq", prompt}});
  EXPECT_DOUBLE_EQ(result.requests[0].ttftUs(), static_cast<double>(psOfUs(prefill.totalTimeUs)) / 1e6);
  // Decode steps at past = 20, 21, 22.
  TimePs decodes = 0;
  for (int64_t past = prompt; past < prompt + output - 1; ++past)
    decodes += psOfUs(timingRun(kDecode, {{"past", past}}).totalTimeUs);
  EXPECT_EQ(result.requests[0].finish - result.requests[0].firstToken, decodes);
  EXPECT_GT(result.iterations.back().cycles, 0);
  // The step grows with the cached length.
  EXPECT_LT(timingRun(kDecode, {{"past", 8}}).totalCycles, timingRun(kDecode, {{"past", 200}}).totalCycles);
}

TEST(LlmLlama, ADecodeWithoutABatchSizeRunsOncePerSequence) {
  // Two requests of the same prompt decode together at the same cached length:
  // a bundle of one sequence runs twice.
  LlmScenario scenario = llamaScenario();
  IterationTimer timer(scenario.machine);
  const LlmResult result =
      simulateLlm(scenario, {request(0, 10, 2), request(0, 10, 2)}, modelBytes(scenario), timer);
  ASSERT_EQ(result.iterations.size(), 2u);
  EXPECT_EQ(result.iterations[1].decodeRuns, 2);
  EXPECT_EQ(result.iterations[1].cycles, 2 * timingRun(kDecode, {{"past", 10}}).totalCycles);
}

} // namespace
} // namespace npusim::serving
