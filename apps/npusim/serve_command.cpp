// npusim serve SCENARIO.yaml: several bundles served together on one NPU,
// each placement of the scenario simulated on one timing simulation
// (docs/serving.md).
#include "cli.h"
#include "outputs.h"
#include "progress.h"

#include "config/hardware.h"
#include "core/error.h"
#include "serving/llm.h"
#include "serving/scenario.h"
#include "serving/serving.h"

#include <cstdio>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace npusim::cli {

const char *const kServeUsage =
    R"(usage: npusim serve SCENARIO.yaml [--report OUT.json] [--trace OUT.json]
                    [--html OUT.html] [--config CFG] [--rate-per-s X] [--count N]

Serves the scenario's tenants (each a bundle with a request stream: fixed
arrival times, Poisson arrivals or a closed loop) together on one NPU
(docs/serving.md). Each bundle runs once to record what a request executes
(with `values: true` in full mode, verified); then each placement of the
scenario (cores partitioned among the tenants, or shared under a policy:
fifo, round_robin, priority) is simulated on one timing simulation in which
the tenants' programs share the NoC and DRAM. Prints per tenant latency
percentiles, throughput and DRAM bandwidth, and per core utilisation.

A scenario with an `llm:` key serves one language model (docs/serving.md,
"LLM serving"): requests of their own prompt and output lengths (Poisson or
a CSV file) under a vLLM-style scheduler (continuous batching, chunked
prefill, a paged KV cache, preemption by recompute), each iteration timed by
running the prefill and decode bundles at its sizes. Prints TTFT, TPOT and
end-to-end percentiles and tokens/s.

options:
  --report OUT.json   every request's arrival, start, finish and latency; per tenant
                      p50/p95/p99 latency, throughput and DRAM bandwidth over time;
                      per core utilisation; for every placement
  --trace OUT.json    a Perfetto trace: per placement and core one track per tenant,
                      the requests, and each tenant's DRAM bandwidth
  --html OUT.html     a self-contained page: the scenario and machine, per placement a
                      sortable tenant table, core utilisation, each tenant's DRAM
                      bandwidth over time and every request's latency (docs/reports.md)
  --config CFG        an LLM scenario only: serve on this machine (a preset, or a
                      configuration file) instead of the scenario's `machine:`
  --rate-per-s X      an LLM scenario of Poisson arrivals only: X requests per second
                      instead of its `requests.rate_per_s` (1e-06 .. 1e+12)
  --count N           an LLM scenario of Poisson arrivals only: N requests instead of
                      its `requests.count` (1 .. 1000000)
  --quiet             no progress line (it shows only when stderr is a terminal)
  --help              show this help
)";

namespace {

constexpr OptionSpec kServeOptions[] = {{"--report", true, false}, {"--trace", true, false},
                                   {"--html", true, false},   {"--quiet", false, false},
                                   {"--config", true, false}, {"--rate-per-s", true, false},
                                   {"--count", true, false}};

/// What the command line replaces in an LLM scenario (`npusim sweep` runs
/// each of its LLM tasks so: its machine, its rate, its request count).
struct LlmOverrides {
  std::optional<std::string> machine;
  std::optional<double> ratePerSecond;
  std::optional<int64_t> count;
  bool any() const { return machine || ratePerSecond || count; }
};

LlmOverrides llmOverrides(const ParsedOptions &options) {
  LlmOverrides o;
  o.machine = options.get("--config");
  if (const std::optional<std::string> text = options.get("--rate-per-s")) {
    const std::optional<double> rate = parseNumber(*text);
    if (!rate || !(*rate >= serving::kMinLlmRatePerSecond && *rate <= serving::kMaxLlmRatePerSecond))
      throw UsageError("--rate-per-s expects a number from 1e-06 to 1e+12 (requests per second), got '" +
                       *text + "'");
    o.ratePerSecond = rate;
  }
  if (const std::optional<std::string> text = options.get("--count")) {
    const std::optional<int64_t> count = parseInteger(*text);
    if (!count || *count < 1 || *count > serving::kMaxRequests)
      throw UsageError("--count expects an integer from 1 to 1000000 (requests), got '" + *text + "'");
    o.count = count;
  }
  return o;
}

/// The scenario with the command line's replacements; an error where one
/// does not apply (a request trace read from a CSV file has no rate or count).
void applyOverrides(serving::LlmScenario &scenario, const LlmOverrides &overrides) {
  if (overrides.machine)
    scenario.machine = config::loadConfig(*overrides.machine);
  if ((overrides.ratePerSecond || overrides.count) && scenario.trace.arrival != "poisson")
    throw core::InputError(scenario.trace.where +
                           ": --rate-per-s and --count replace the keys of Poisson "
                           "arrivals; these requests come from " +
                           scenario.trace.file);
  if (overrides.ratePerSecond)
    scenario.trace.ratePerSecond = *overrides.ratePerSecond;
  if (overrides.count)
    scenario.trace.count = *overrides.count;
}

std::string fixed(double value, int digits) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", digits, value);
  return text;
}

void printPlacement(const serving::PlacementResult &result, std::ostream &out) {
  out << "placement " << result.placement << (result.policy.empty() ? "" : " (" + result.policy + ")")
      << ": makespan " << fixed(result.makespan / 1.0e6, 1) << " us\n";
  // GB/s while the tenant had a request in flight; its share of all DRAM
  // bytes, and of the bytes moved while two tenants or more moved bytes.
  out << "  tenant          cores  requests   p50 us   p95 us   p99 us    req/s  GB/s running  share  "
         "contended\n";
  for (const serving::TenantResult &tenant : result.tenants) {
    std::string cores;
    for (int core : tenant.cores)
      cores += (cores.empty() ? "" : ",") + std::to_string(core);
    char line[256];
    std::snprintf(line, sizeof line, "  %-15s %-6s %8lld %8.1f %8.1f %8.1f %8.1f %13.2f %5.1f%% %9.1f%%\n",
                  tenant.name.c_str(), cores.c_str(), static_cast<long long>(tenant.requests), tenant.p50Us,
                  tenant.p95Us, tenant.p99Us, tenant.throughputPerSecond, tenant.dramGBsInFlight,
                  100.0 * tenant.dramShare, 100.0 * tenant.dramShareContended);
    out << line;
  }
  for (const serving::CoreResult &core : result.cores)
    out << "  core " << core.core << ": busy " << fixed(core.busyPercent, 1) << "%\n";
  if (const int64_t rows = result.rowHits + result.rowMisses + result.rowConflicts; rows > 0)
    out << "  DRAM rows: "
        << fixed(100.0 * static_cast<double>(result.rowHits) / static_cast<double>(rows), 1) << "% hits, "
        << result.rowConflicts << " conflicts\n";
  // docs/serving.md, "Energy": the machine's energy, each tenant's share per request.
  out << "  energy: " << fixed(result.energy.totalPj() * 1e-6, 3) << " uJ, "
      << fixed(result.energy.averageWatts(), 3) << " W average; per request:";
  for (const serving::TenantResult &tenant : result.tenants)
    out << " " << tenant.name << " " << fixed(tenant.energyPerRequestUj, 3) << " uJ";
  std::string perToken;
  for (const serving::TenantResult &tenant : result.tenants)
    if (tenant.energyPerTokenUj)
      perToken += " " + tenant.name + " " + fixed(*tenant.energyPerTokenUj, 6) + " uJ";
  if (!perToken.empty())
    out << "; per token:" << perToken;
  out << "\n";
}

void printLlm(const serving::LlmScenario &scenario, const serving::LlmResult &result, std::ostream &out) {
  out << "machine " << scenario.machine.name << ", " << scenario.machine.numCores << " cores; KV cache "
      << result.kvBlocks << " blocks of " << result.blockTokens << " tokens\n";
  out << "requests " << result.requests.size() << ", iterations " << result.iterations.size() << ", makespan "
      << fixed(result.makespan / 1.0e6, 1) << " us, preemptions " << result.preemptions << ", peak batch "
      << result.peakBatch << ", peak KV blocks " << result.peakBlocks << "\n";
  auto line = [&out](const char *name, const serving::Percentiles &p) {
    out << "  " << name << " us: mean " << fixed(p.mean, 3) << ", p50 " << fixed(p.p50, 3) << ", p90 "
        << fixed(p.p90, 3) << ", p99 " << fixed(p.p99, 3) << "\n";
  };
  line("TTFT", result.ttftUs);
  line("TPOT", result.tpotUs);
  line("e2e ", result.e2eUs);
  out << "  throughput: " << fixed(result.outputTokensPerSecond, 1) << " output tokens/s, "
      << fixed(result.tokensPerSecond, 1) << " tokens/s; " << result.distinctShapes << " shapes timed for "
      << result.timingLookups << " lookups\n";
  out << "  energy: " << fixed(result.energyUj, 1) << " uJ (" << fixed(result.idleEnergyUj, 1)
      << " idle), per output token " << fixed(result.energyPerOutputTokenUj, 3) << " uJ, per request p50 "
      << fixed(result.energyPerRequestUj.p50, 3) << " uJ; table " << scenario.machine.energy << "\n";
}

/// `npusim serve` of an LLM scenario (docs/serving.md, "LLM serving").
void serveLlm(const std::string &path, const LlmOverrides &overrides, OutputFiles &files, std::ostream &out,
              std::ostream &err) {
  serving::LlmScenario scenario = serving::loadLlmScenario(path);
  applyOverrides(scenario, overrides);
  const std::vector<serving::LlmRequest> requests = serving::makeLlmRequests(scenario.trace);
  const serving::LlmModelBytes bytes = serving::modelBytes(scenario);
  serving::IterationTimer timer(scenario.machine);
  const serving::LlmResult result =
      serving::simulateLlm(scenario, requests, bytes, timer, serving::idleWatts(scenario.machine));
  printLlm(scenario, result, out);
  files.write("--report", [&](const std::string &file) { serving::writeLlmReport(scenario, result, file); }, path,
              err);
  files.write("--trace", [&](const std::string &file) { serving::writeLlmTrace(scenario, result, file); }, path,
              err);
  files.write("--html", [&](const std::string &file) { serving::writeLlmPage(scenario, result, file); }, path,
              err);
}

} // namespace

int runServe(std::span<const std::string> args, std::ostream &out, std::ostream &err) {
  const ParsedOptions options = parseOptions(args, kServeOptions, "serve");
  if (options.help) {
    out << kServeUsage;
    return kExitOk;
  }
  if (options.positionals.size() != 1)
    throw UsageError(options.positionals.empty() ? "serve needs a scenario file"
                                                 : "serve takes one scenario file");
  const std::string path = options.positionals.front();
  const LlmOverrides overrides = llmOverrides(options);
  OutputFiles outputs;
  for (const char *option : {"--report", "--trace", "--html"})
    outputs.add(options, option);
  if (!outputs.check(path, err))
    return kExitError;
  try {
    if (serving::isLlmScenario(path)) {
      serveLlm(path, overrides, outputs, out, err);
      return outputs.failed() ? kExitError : kExitOk;
    }
    if (overrides.any())
      throw core::InputError(
          "--config, --rate-per-s and --count apply to an LLM scenario (a top-level `llm:` "
          "key); a tenants scenario names its machine and its streams' rates itself");
    const serving::Scenario scenario = serving::loadScenario(path);
    ProgressLine progress(err, !options.has("--quiet"));
    std::vector<serving::Workload> workloads;
    for (const serving::TenantSpec &tenant : scenario.tenants)
      workloads.push_back(serving::captureBundle(
          tenant.bundle, scenario.machine, scenario.values,
          [&progress, &tenant](size_t step, size_t steps, const std::string &name) {
            progress.update(step, steps, tenant.name + ": step " + std::to_string(step) + " " + name);
          }));
    progress.clear();
    std::vector<const serving::Workload *> pointers;
    for (const serving::Workload &workload : workloads)
      pointers.push_back(&workload);
    out << "machine " << scenario.machine.name << ", " << scenario.machine.numCores
        << " cores; values: " << (scenario.values ? "computed and verified" : "cycles only") << "\n";
    std::vector<serving::PlacementResult> results;
    for (size_t p = 0; p < scenario.placements.size(); ++p) {
      const serving::PlacementSpec &placement = scenario.placements[p];
      progress.update(p, scenario.placements.size(),
                      "placement " + placement.name +
                          (placement.policy.empty() ? "" : " (" + placement.policy + ")"));
      results.push_back(serving::simulate(scenario, placement, pointers));
      progress.clear();
      printPlacement(results.back(), out);
    }
    outputs.write(
        "--report",
        [&](const std::string &file) { serving::writeReport(scenario, workloads, results, file); }, path,
        err);
    outputs.write(
        "--trace", [&](const std::string &file) { serving::writeTrace(scenario, workloads, results, file); },
        path, err);
    outputs.write(
        "--html", [&](const std::string &file) { serving::writePage(scenario, workloads, results, file); },
        path, err);
    return outputs.failed() ? kExitError : kExitOk;
  } catch (const std::exception &e) {
    err << path << ": error: " << e.what() << "\n";
  } catch (...) {
    err << path << ": error: internal error (unknown exception)\n";
  }
  return kExitError;
}

} // namespace npusim::cli
