// The outputs of an LLM serving run (docs/serving.md, "LLM serving"): the
// report JSON, the Perfetto trace (iterations as slices, KV-cache occupancy
// and batch size as counters) and the HTML page with its charts.
#include "core/output_file.h"
#include "core/text_format.h"
#include "report/html_page.h"
#include "report/run_page.h"
#include "report/svg_chart.h"
#include "serving/llm.h"

#include <nlohmann/json.hpp>

#include <cstdio>

namespace npusim::serving {
namespace {

using nlohmann::json;

json percentilesJson(const Percentiles &p) {
  return {{"mean", p.mean}, {"p50", p.p50}, {"p90", p.p90}, {"p99", p.p99}, {"max", p.max}};
}

double occupancy(const LlmResult &result, const LlmIteration &it) {
  return result.kvBlocks > 0 ? static_cast<double>(it.usedBlocks) / static_cast<double>(result.kvBlocks) : 0.0;
}

std::string traceText(const LlmTraceSpec &trace) {
  if (trace.arrival == "csv")
    return "csv " + trace.file;
  return "poisson, " + report::shortNumber(trace.ratePerSecond) + " per s, seed " + std::to_string(trace.seed) +
         ", " + std::to_string(trace.count) + " requests, prompts " + std::to_string(trace.promptMin) + ".." +
         std::to_string(trace.promptMax) + ", outputs " + std::to_string(trace.outputMin) + ".." +
         std::to_string(trace.outputMax);
}

} // namespace

void writeLlmReport(const LlmScenario &scenario, const LlmResult &result, const std::string &path) {
  const LlmSchedulerSpec &s = scenario.scheduler;
  json requests = json::array();
  for (const LlmRequestResult &r : result.requests)
    requests.push_back({{"index", r.index},
                        {"arrival_us", timing::microseconds(r.arrival)},
                        {"first_token_us", timing::microseconds(r.firstToken)},
                        {"finish_us", timing::microseconds(r.finish)},
                        {"prompt_tokens", r.promptTokens},
                        {"output_tokens", r.outputTokens},
                        {"ttft_us", r.ttftUs()},
                        {"tpot_us", r.tpotUs()},
                        {"e2e_us", r.e2eUs()},
                        {"preemptions", r.preemptions},
                        {"energy_uj", r.energyUj}});
  json iterations = json::array();
  for (const LlmIteration &it : result.iterations)
    iterations.push_back({{"start_us", timing::microseconds(it.start)},
                          {"end_us", timing::microseconds(it.end)},
                          {"cycles", it.cycles},
                          {"batch", it.batch},
                          {"decodes", it.decodes},
                          {"decode_runs", it.decodeRuns},
                          {"prefill_chunks", it.prefillChunks},
                          {"prefill_tokens", it.prefillTokens},
                          {"running", it.running},
                          {"kv_blocks_used", it.usedBlocks},
                          {"kv_occupancy", occupancy(result, it)},
                          {"preempted", it.preempted},
                          {"energy_uj", it.energyUj}});
  const json document = {
      {"scenario", scenario.path},
      {"kind", "llm"},
      {"machine", scenario.machine.name},
      {"model",
       {{"prefill", scenario.prefill.bundle},
        {"decode", scenario.decode.bundle},
        {"weights_bytes", result.weightsBytes},
        {"kv_bytes_per_token", result.kvBytesPerToken}}},
      {"trace", traceText(scenario.trace)},
      {"scheduler",
       {{"max_batch", s.maxBatch},
        {"token_budget", s.tokenBudget},
        {"block_tokens", s.blockTokens},
        {"past_bucket", s.pastBucket}}},
      {"kv_cache",
       {{"capacity_bytes", result.capacityBytes},
        {"blocks", result.kvBlocks},
        {"block_tokens", result.blockTokens},
        {"peak_blocks", result.peakBlocks}}},
      {"requests_completed", result.requests.size()},
      {"makespan_us", timing::microseconds(result.makespan)},
      {"ttft_us", percentilesJson(result.ttftUs)},
      {"tpot_us", percentilesJson(result.tpotUs)},
      {"e2e_us", percentilesJson(result.e2eUs)},
      {"output_tokens", result.outputTokens},
      {"prompt_tokens", result.promptTokens},
      {"output_tokens_per_s", result.outputTokensPerSecond},
      {"tokens_per_s", result.tokensPerSecond},
      {"requests_per_s", result.requestsPerSecond},
      {"preemptions", result.preemptions},
      {"peak_batch", result.peakBatch},
      {"energy",
       {{"table", scenario.machine.energy},
        {"total_uj", result.energyUj},
        {"runs_uj", result.runsEnergyUj},
        {"idle_uj", result.idleEnergyUj},
        {"per_output_token_uj", result.energyPerOutputTokenUj},
        {"per_request_uj", percentilesJson(result.energyPerRequestUj)}}},
      {"distinct_shapes_timed", result.distinctShapes},
      {"timing_lookups", result.timingLookups},
      {"iterations", iterations},
      {"requests", requests}};
  core::writeFileAtomically(path, document.dump(1, ' ', false, json::error_handler_t::replace) + "\n",
                            "--report " + path);
}

void writeLlmTrace(const LlmScenario &scenario, const LlmResult &result, const std::string &path) {
  json events = json::array();
  auto meta = [&events](const char *kind, int pid, int tid, const std::string &name) {
    events.push_back({{"ph", "M"}, {"name", kind}, {"pid", pid}, {"tid", tid}, {"args", {{"name", name}}}});
  };
  meta("process_name", 0, 0, "NPU (" + scenario.machine.name + ")");
  meta("thread_name", 0, 0, "iterations");
  meta("process_name", 1, 0, "requests");
  meta("process_name", 2, 0, "scheduler");
  for (size_t i = 0; i < result.iterations.size(); ++i) {
    const LlmIteration &it = result.iterations[i];
    events.push_back({{"ph", "X"},
                      {"name", std::to_string(it.decodes) + " decodes, " + std::to_string(it.prefillTokens) +
                                   " prefill tokens"},
                      {"pid", 0},
                      {"tid", 0},
                      {"ts", timing::microseconds(it.start)},
                      {"dur", timing::microseconds(it.end - it.start)},
                      {"args",
                       {{"iteration", i},
                        {"cycles", it.cycles},
                        {"batch", it.batch},
                        {"decodes", it.decodes},
                        {"prefill_chunks", it.prefillChunks},
                        {"prefill_tokens", it.prefillTokens},
                        {"preempted", it.preempted}}}});
    events.push_back({{"ph", "C"},
                      {"name", "KV cache occupancy"},
                      {"pid", 2},
                      {"ts", timing::microseconds(it.end)},
                      {"args", {{"blocks used", it.usedBlocks}}}});
    events.push_back(
        {{"ph", "C"}, {"name", "batch"}, {"pid", 2}, {"ts", timing::microseconds(it.start)}, {"args", {{"requests", it.batch}}}});
  }
  for (const LlmRequestResult &r : result.requests) {
    const std::string name = "request " + std::to_string(r.index);
    events.push_back({{"ph", "b"}, {"cat", "request"}, {"name", name}, {"id", r.index}, {"pid", 1}, {"tid", 0},
                      {"ts", timing::microseconds(r.arrival)}, {"args", {{"prompt_tokens", r.promptTokens}, {"output_tokens", r.outputTokens}}}});
    events.push_back({{"ph", "n"}, {"cat", "request"}, {"name", "first token"}, {"id", r.index}, {"pid", 1},
                      {"tid", 0}, {"ts", timing::microseconds(r.firstToken)}});
    events.push_back({{"ph", "e"}, {"cat", "request"}, {"name", name}, {"id", r.index}, {"pid", 1}, {"tid", 0},
                      {"ts", timing::microseconds(r.finish)}});
  }
  const json document = {{"traceEvents", events}, {"displayTimeUnit", "ns"}};
  core::writeFileAtomically(path, document.dump(0, ' ', false, json::error_handler_t::replace) + "\n",
                            "--trace " + path);
}

void writeLlmPage(const LlmScenario &scenario, const LlmResult &result, const std::string &path) {
  using report::Chart;
  using report::Series;
  using report::Table;
  report::HtmlPage page("npusim serve: " + scenario.path);
  page.heading("LLM serving: scenario and machine");
  std::vector<std::pair<std::string, std::string>> lines = {
      {"scenario", scenario.path},
      {"prefill bundle", scenario.prefill.bundle + " (tokens: " + scenario.prefill.tokens + ")"},
      {"decode bundle", scenario.decode.bundle + " (batch: " + scenario.decode.batch +
                            (scenario.decode.past.empty() ? "" : ", past: " + scenario.decode.past) + ")"},
      {"requests", traceText(scenario.trace)},
      {"scheduler", "max batch " + std::to_string(scenario.scheduler.maxBatch) + ", token budget " +
                        std::to_string(scenario.scheduler.tokenBudget) + ", blocks of " +
                        std::to_string(scenario.scheduler.blockTokens) + " tokens, past bucket " +
                        std::to_string(scenario.scheduler.pastBucket)},
      {"KV cache", std::to_string(result.kvBlocks) + " blocks (" + report::shortNumber(result.kvBytesPerToken) +
                       " bytes per token; weights " + report::shortNumber(result.weightsBytes) + " bytes)"}};
  for (auto &line : report::machineDefinitions(report::machineJson(scenario.machine)))
    lines.push_back(std::move(line));
  page.definitions(lines);

  page.heading("Results");
  page.definitions({{"requests", std::to_string(result.requests.size())},
                    {"makespan", core::fixedDigits(timing::microseconds(result.makespan), 3) + " us"},
                    {"throughput", core::fixedDigits(result.outputTokensPerSecond, 1) + " output tokens/s, " +
                                       core::fixedDigits(result.tokensPerSecond, 1) + " tokens/s, " +
                                       core::fixedDigits(result.requestsPerSecond, 2) + " requests/s"},
                    {"iterations", std::to_string(result.iterations.size())},
                    {"preemptions", std::to_string(result.preemptions)},
                    {"peak", std::to_string(result.peakBlocks) + " KV blocks, batch " +
                                 std::to_string(result.peakBatch)},
                    {"shapes timed", std::to_string(result.distinctShapes) + " distinct of " +
                                         std::to_string(result.timingLookups) + " lookups"},
                    {"energy", core::fixedDigits(result.energyUj, 1) + " uJ (" + core::fixedDigits(result.idleEnergyUj, 1) +
                                   " idle; table " + scenario.machine.energy + "), " +
                                   core::fixedDigits(result.energyPerOutputTokenUj, 3) + " uJ per output token"},
                    {"energy per request", "p50 " + core::fixedDigits(result.energyPerRequestUj.p50, 3) + ", p90 " +
                                               core::fixedDigits(result.energyPerRequestUj.p90, 3) + ", p99 " +
                                               core::fixedDigits(result.energyPerRequestUj.p99, 3) + " uJ"}});
  Table latency;
  latency.caption = "Latency percentiles (nearest rank), microseconds.";
  latency.headings = {"metric", "mean", "p50", "p90", "p99", "max"};
  for (const auto &[name, p] : {std::pair<const char *, const Percentiles *>{"TTFT", &result.ttftUs},
                                {"TPOT", &result.tpotUs},
                                {"end to end", &result.e2eUs}})
    latency.rows.push_back({Table::text(name), Table::number(core::fixedDigits(p->mean, 3), p->mean),
                            Table::number(core::fixedDigits(p->p50, 3), p->p50), Table::number(core::fixedDigits(p->p90, 3), p->p90),
                            Table::number(core::fixedDigits(p->p99, 3), p->p99), Table::number(core::fixedDigits(p->max, 3), p->max)});
  page.table(latency);

  Series blocks{"KV cache occupancy (fraction of blocks)", Series::Style::Line, {}, {}};
  Series batch{"batch (requests per iteration)", Series::Style::Line, {}, {}};
  for (const LlmIteration &it : result.iterations) {
    blocks.points.emplace_back(timing::microseconds(it.end), occupancy(result, it));
    batch.points.emplace_back(timing::microseconds(it.start), static_cast<double>(it.batch));
    batch.points.emplace_back(timing::microseconds(it.end), static_cast<double>(it.batch));
  }
  Chart occupancyOnly{"KV cache occupancy over time", {"simulated time (us)"}, {"fraction of blocks"}, {}};
  occupancyOnly.width = 900;
  occupancyOnly.y.min = 0.0;
  occupancyOnly.y.max = 1.0;
  occupancyOnly.series.push_back(std::move(blocks));
  Chart batchOnly{"Batch size over time", {"simulated time (us)"}, {"requests in the iteration"}, {}};
  batchOnly.width = 900;
  batchOnly.y.min = 0.0;
  batchOnly.series.push_back(std::move(batch));
  page.raw(occupancyOnly.svg());
  page.paragraph("The KV cache's used blocks over its capacity at the end of each iteration.");
  page.raw(batchOnly.svg());
  page.paragraph("Requests scheduled in each iteration (decodes and prefill chunks).");

  Chart ttft{"Time to first token against arrival", {"arrival (us)"}, {"TTFT (us)"}, {}};
  ttft.width = 900;
  Chart tpot{"Time per output token against arrival", {"arrival (us)"}, {"TPOT (us)"}, {}};
  tpot.width = 900;
  Series ttftPoints{"TTFT", Series::Style::Points, {}, {}}, tpotPoints{"TPOT", Series::Style::Points, {}, {}};
  for (const LlmRequestResult &r : result.requests) {
    const std::string label = "request " + std::to_string(r.index) + ": " + std::to_string(r.promptTokens) +
                              " prompt, " + std::to_string(r.outputTokens) + " output tokens, TTFT " +
                              core::fixedDigits(r.ttftUs(), 3) + " us, TPOT " + core::fixedDigits(r.tpotUs(), 3) + " us, " +
                              std::to_string(r.preemptions) + " preemptions";
    ttftPoints.points.emplace_back(timing::microseconds(r.arrival), r.ttftUs());
    ttftPoints.labels.push_back(label);
    if (r.outputTokens > 1) {
      tpotPoints.points.emplace_back(timing::microseconds(r.arrival), r.tpotUs());
      tpotPoints.labels.push_back(label);
    }
  }
  ttft.series.push_back(std::move(ttftPoints));
  tpot.series.push_back(std::move(tpotPoints));
  page.raw(ttft.svg());
  page.raw(tpot.svg());
  page.paragraph("One point per request; hover a point for its numbers.");
  page.write(path, "--html " + path);
}

} // namespace npusim::serving
