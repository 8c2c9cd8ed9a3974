#pragma once
// Serving a large language model on one NPU (docs/serving.md, "LLM serving"):
// a vLLM-style iteration-level scheduler (continuous batching, chunked
// prefill under a token budget, a paged KV cache, preemption by recompute)
// whose every iteration is timed on the NPU at its real shapes: the decode
// bundle at the running batch and cached length, the prefill bundle at each
// chunk's tokens, both captured with dynamic sizes.
#include "config/hardware.h"
#include "runtime/sizes.h"
#include "timing/event_queue.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace npusim::serving {

using timing::TimePs;

/// A bundle of the model and the names of its dynamic sizes.
struct LlmBundleSpec {
  std::string bundle; // a bundle directory, resolved against the scenario's folder
  std::string tokens; // prefill: the size of a chunk's tokens
  std::string batch;  // decode: the size of the running batch
  std::string past;   // decode: the cached length (empty: the step does not depend on it)
  std::string where;
};

/// The request trace: Poisson arrivals with uniform prompt and output
/// lengths, or a CSV file of arrival_us, prompt_tokens, output_tokens.
/// The range of a Poisson trace's `rate_per_s` (the scenario's key, `npusim
/// serve --rate-per-s`, a sweep's `requests.rate_per_s`).
inline constexpr double kMinLlmRatePerSecond = 1e-6, kMaxLlmRatePerSecond = 1e12;

struct LlmTraceSpec {
  std::string arrival = "poisson"; // "poisson" or "csv"
  double ratePerSecond = 0.0;
  uint64_t seed = 1;
  int64_t count = 0;
  int64_t promptMin = 0, promptMax = 0, outputMin = 0, outputMax = 0;
  std::string file; // csv: resolved against the scenario's folder
  std::string where;
};

struct LlmSchedulerSpec {
  int64_t maxBatch = 16;      // running requests at most
  int64_t tokenBudget = 512;  // tokens per iteration (decodes count one each)
  int64_t blockTokens = 16;   // tokens per KV block
  std::optional<int64_t> kvBlocks; // the cache's blocks; absent: from the DRAM capacity
  int64_t pastBucket = 1;     // a decode's cached length is timed rounded up to a multiple of this
  std::string where;
};

struct LlmScenario {
  std::string path;
  config::HardwareConfig machine;
  LlmBundleSpec prefill, decode;
  std::optional<double> weightsBytes;      // absent: the decode bundle's inputs that no size changes
  std::optional<double> kvBytesPerToken;   // absent: from the decode bundle's growth with `past`
  LlmTraceSpec trace;
  LlmSchedulerSpec scheduler;
};

/// Whether the scenario file is of the LLM form (a top-level `llm:` key).
bool isLlmScenario(const std::string &path);
/// Reads and checks an LLM scenario; throws core::InputError "FILE:LINE:
/// message" (an unknown key names it), before any bundle runs.
LlmScenario loadLlmScenario(const std::string &path);
LlmScenario parseLlmScenario(const std::string &yamlText, const std::string &path);

/// One request of the trace.
struct LlmRequest {
  TimePs arrival = 0;
  int64_t promptTokens = 0, outputTokens = 0;
};
/// The trace's requests in arrival order (a CSV's rows sorted stably by
/// arrival). Throws core::InputError naming the file and line.
std::vector<LlmRequest> makeLlmRequests(const LlmTraceSpec &trace);

/// Times a bundle at bound sizes, memoised per (bundle, sizes): a timing run
/// from an idle machine is deterministic, so the reuse is exact.
class IterationTimer {
public:
  struct Timed {
    int64_t cycles = 0;
    TimePs time = 0;
    /// The run's energy, static included, by the machine's energy table
    /// (runtime::RunReport::totalEnergy), pJ.
    double energyPj = 0;
  };
  using Runner = std::function<Timed(const std::string &bundle, const runtime::SizeBinding &sizes)>;
  /// The default runner: runtime::loadBundle at the sizes and runtime::runBundle
  /// in timing mode on `machine`.
  explicit IterationTimer(config::HardwareConfig machine);
  explicit IterationTimer(Runner runner) : runner_(std::move(runner)) {}
  Timed time(const std::string &bundle, const runtime::SizeBinding &sizes);
  int64_t runs() const { return runs_; }
  int64_t lookups() const { return lookups_; }

private:
  Runner runner_;
  std::map<std::pair<std::string, runtime::SizeBinding>, Timed> memo_;
  int64_t runs_ = 0, lookups_ = 0;
};

struct LlmRequestResult {
  int64_t index = 0;
  TimePs arrival = 0, firstToken = 0, finish = 0;
  int64_t promptTokens = 0, outputTokens = 0;
  int64_t preemptions = 0;
  double ttftUs() const { return static_cast<double>(firstToken - arrival) / 1.0e6; }
  /// (finish - first token) / (output tokens - 1); 0 for one output token.
  double tpotUs() const {
    return outputTokens > 1 ? static_cast<double>(finish - firstToken) / 1.0e6 / static_cast<double>(outputTokens - 1)
                            : 0.0;
  }
  double e2eUs() const { return static_cast<double>(finish - arrival) / 1.0e6; }
  /// Its share of the runs of the iterations it was in: a prefill chunk's
  /// run whole, a decode run split evenly among the sequences it decoded.
  double energyUj = 0;
};

struct LlmIteration {
  TimePs start = 0, end = 0;
  int64_t decodes = 0;        // sequences that generated one token by a decode step
  int64_t prefillTokens = 0;  // prompt (or recomputed) tokens prefilled
  int64_t prefillChunks = 0;
  int64_t batch = 0;          // requests scheduled (decodes + chunks)
  int64_t running = 0;        // requests holding KV blocks after the iteration
  int64_t usedBlocks = 0;     // after the iteration
  int64_t preempted = 0;      // requests preempted while scheduling it
  int64_t cycles = 0;         // NPU cycles of its runs
  int64_t decodeRuns = 0;     // decode bundle runs (one per distinct cached length)
  double energyUj = 0;        // its runs' energy
};

struct Percentiles {
  double mean = 0, p50 = 0, p90 = 0, p99 = 0, max = 0;
};

struct LlmResult {
  std::vector<LlmRequestResult> requests; // in arrival order
  std::vector<LlmIteration> iterations;
  Percentiles ttftUs, tpotUs, e2eUs;
  TimePs makespan = 0;
  int64_t outputTokens = 0, promptTokens = 0;
  double outputTokensPerSecond = 0, tokensPerSecond = 0, requestsPerSecond = 0;
  int64_t kvBlocks = 0, blockTokens = 0;
  double kvBytesPerToken = 0, weightsBytes = 0, capacityBytes = 0;
  int64_t preemptions = 0, peakBlocks = 0, peakBatch = 0;
  int64_t distinctShapes = 0, timingLookups = 0;
  /// Energy over [0, makespan]: the iterations' runs, and the machine's
  /// static power over the time between them (idleWatts); per output token
  /// the whole over the output tokens; per request the requests' shares
  /// (docs/serving.md, "Energy of LLM serving").
  double energyUj = 0, runsEnergyUj = 0, idleEnergyUj = 0, energyPerOutputTokenUj = 0;
  Percentiles energyPerRequestUj;
};

/// The model's bytes in DRAM: its weights, and the KV cache's bytes per
/// token; the scenario's keys where given, else from the decode bundle
/// (docs/serving.md, "LLM serving").
struct LlmModelBytes {
  double weights = 0, kvPerToken = 0;
};
LlmModelBytes modelBytes(const LlmScenario &scenario);

/// The machine's power with every unit idle (static power; idle units
/// clock gated where the machine asks for it), watts.
double idleWatts(const config::HardwareConfig &machine);

/// Serves the requests with the scenario's scheduler, each iteration timed by
/// `timer`, from an idle machine at time 0; `idlePowerWatts` prices the time
/// between iterations.
LlmResult simulateLlm(const LlmScenario &scenario, const std::vector<LlmRequest> &requests,
                      const LlmModelBytes &bytes, IterationTimer &timer, double idlePowerWatts = 0);

/// The report JSON, the Perfetto trace and the HTML page (docs/serving.md,
/// "LLM serving"); each throws core::InputError naming the file when it
/// cannot be written.
void writeLlmReport(const LlmScenario &scenario, const LlmResult &result, const std::string &path);
void writeLlmTrace(const LlmScenario &scenario, const LlmResult &result, const std::string &path);
void writeLlmPage(const LlmScenario &scenario, const LlmResult &result, const std::string &path);

} // namespace npusim::serving
