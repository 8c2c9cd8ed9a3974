// The JSON report of `npusim run --report`.
#include "core/error.h"
#include "core/output_file.h"
#include "runtime/runner.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace npusim::runtime {

namespace {

/// Milliseconds rounded to microseconds, so the report stays readable.
double ms(double v) {
  return std::round(v * 1000.0) / 1000.0;
}

} // namespace

std::string stepBound(const StepTiming &timing) {
  // The unit busy longest bounds the step. A busy DMA queue is bounded by DRAM
  // bandwidth when the step's bytes at peak take at least half its time, else
  // by issuing requests and waiting for their round trips.
  std::string bound = "scalar";
  double busiest = -1.0;
  for (const auto &[unit, percent] : timing.unitBusyPercent)
    if (percent > busiest) {
      busiest = percent;
      bound = unit;
    }
  const double dramPercent = timing.timeUs > 0.0 ? 100.0 * timing.memoryUs / timing.timeUs : 0.0;
  if (dramPercent >= busiest)
    return "DRAM bandwidth";
  if (bound == "dma")
    return dramPercent >= 50.0 ? "DRAM bandwidth" : "DMA issue/latency";
  if (bound == "systolic")
    return "systolic fill/drain";
  return bound;
}

namespace {

/// Nanojoules, to the picojoule.
double nj(double pj) {
  return std::round(pj) / 1000.0;
}

/// The "energy" object of a timed step, and of the whole run (docs/energy.md, "Report").
nlohmann::json energyObject(const energy::Energy &e) {
  nlohmann::json parts = nlohmann::json::object();
  for (int k = 0; k < energy::kNumParts; ++k) {
    const auto part = static_cast<energy::Part>(k);
    parts[std::string(energy::partName(part))] = {{"dynamic_nj", nj(e.dynamicPj[static_cast<size_t>(k)])},
                                                  {"static_nj", nj(e.staticPj[static_cast<size_t>(k)])}};
  }
  nlohmann::json o = {{"total_nj", nj(e.totalPj())},
                      {"dynamic_nj", nj(e.dynamicTotalPj())},
                      {"static_nj", nj(e.staticTotalPj())},
                      {"average_w", std::round(e.averageWatts() * 1000.0) / 1000.0},
                      {"parts", std::move(parts)},
                      {"dram_nj",
                       {{"activate", nj(e.dramActivatePj)},
                        {"transfer", nj(e.dramTransferPj)},
                        {"refresh", nj(e.dramRefreshPj)}}},
                      {"unpriced_macs", e.unpricedMacs},
                      {"dram_requests_without_row_statistics", e.requestsWithoutRowStatistics}};
  return o;
}

/// A timed step's "timing" object of the report.
nlohmann::json timingObject(const StepTiming &t) {
  nlohmann::json busy = nlohmann::json::object();
  for (const auto &[unit, percent] : t.unitBusyPercent)
    busy[unit] = std::round(percent * 100.0) / 100.0;
  nlohmann::json o = {
      {"cycles", t.cycles},
      {"time_us", ms(t.timeUs)},
      {"unit_busy_percent", std::move(busy)},
      {"dram_bytes_read", t.dramBytesRead},
      {"dram_bytes_written", t.dramBytesWritten},
      {"dram_achieved_gb_s", std::round(t.achievedGBs * 1000.0) / 1000.0},
      {"dram_row_hit_rate", std::round(t.rowHitRate * 10000.0) / 10000.0},
      {"macs", t.macs},
      {"compulsory_bytes", t.compulsoryBytes},
      {"traffic_over_compulsory", t.compulsoryBytes > 0
                                      ? std::round(static_cast<double>(t.dramBytesRead + t.dramBytesWritten) /
                                                   static_cast<double>(t.compulsoryBytes) * 1000.0) /
                                            1000.0
                                      : 0.0},
      {"roofline_us", ms(t.rooflineUs)},
      {"time_over_roofline", std::round(t.boundRatio * 1000.0) / 1000.0},
      {"bound", stepBound(t)},
      {"energy", energyObject(t.energy)}};
  if (t.lateInstructions > 0)
    o["late_instructions"] = t.lateInstructions;
  return o;
}

} // namespace

std::string timingJson(const StepTiming &timing) {
  return timingObject(timing).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string reportJson(const RunReport &report, const std::string &bundleName) {
  using nlohmann::json;
  json steps = json::array();
  for (const StepResult &s : report.steps) {
    json step = {{"index", s.index},
                 {"kind", s.kind == Step::Kind::Launch ? "launch" : "call"},
                 {"name", s.name},
                 {"wall_ms", ms(s.wallMs)},
                 {"result", name(s.result)}};
    if (s.kind == Step::Kind::Launch)
      step["programs"] = s.programs;
    if (report.verify) {
      step["fingerprints_compared"] = s.fingerprintsCompared;
      step["fingerprints_skipped"] = s.fingerprintsSkipped;
    }
    if (!s.message.empty())
      step["message"] = s.message;
    if (!s.executedOn.empty()) {
      step["executed_on"] = s.executedOn;
      if (!s.blockSizes.empty())
        step["block_sizes"] = s.blockSizes;
      step["npu_launches"] = s.npuLaunches;
      step["values_computed"] = s.valuesComputed;
      if (!s.valuesReason.empty())
        step["values_reason"] = s.valuesReason;
      if (!s.npuCheck.empty())
        step["reference_check"] = s.npuCheck;
    }
    if (s.timed) {
      step["timing"] = timingObject(s.timing);
    }
    steps.push_back(std::move(step));
  }
  json outputs = json::array();
  for (const OutputResult &o : report.outputs) {
    json out = {{"name", o.name}, {"result", name(o.result)}};
    if (!o.message.empty())
      out["message"] = o.message;
    outputs.push_back(std::move(out));
  }
  std::string result = "ran";
  if (!report.failure.empty())
    result = name(report.steps.empty() || report.steps.back().result != Outcome::Diverged ? Outcome::Error
                                                                                          : Outcome::Diverged);
  if (!report.failure.empty() && report.completed)
    result = name(Outcome::Diverged); // an output differs
  if (report.verified)
    result = name(Outcome::Verified);
  json doc = {
      {"bundle", bundleName},
      {"mode", name(report.mode)},
      {"verify", report.verify},
      {"fingerprint_source", report.fingerprintSource},
      {"result", result},
      {"steps_within_drift", report.stepsWithinDrift},
      {"npu_chain_left_device", report.npuChainLeftDevice ? json{{"step", *report.npuChainLeftDevice},
                                                                 {"divergence", report.npuChainNote}}
                                                          : json(nullptr)},
      {"steps", std::move(steps)},
      {"outputs", std::move(outputs)},
      {"totals",
       {{"steps", report.totalSteps},
        {"steps_run", report.steps.size()},
        {"launches", report.launches},
        {"calls", report.calls},
        {"kernels", report.kernels},
        {"compiled_kernels", report.compiledKernels},
        {"fingerprints_compared", report.fingerprintsCompared},
        {"fingerprints_skipped", report.fingerprintsSkipped},
        {"wall_ms", ms(report.wallMs)},
        {"launch_ms", ms(report.launchMs)},
        {"call_ms", ms(report.callMs)},
        {"lower_ms", ms(report.lowerMs)},
        {"npu_compile_ms", ms(report.compileMs)},
        {"near_tie_launches", report.nearTieLaunches},
        {"near_tie_timings", report.nearTieTimings},
        {"kernel_rankings", report.kernelRankings},
        {"timing_ms", ms(report.timingMs)},
        {"threads", report.threads},
        {"reference_check_ms", ms(report.npuCheckMs)},
        {"buffers_compared_with_reference", report.buffersCompared},
        {"cycles", report.totalCycles},
        {"late_instructions", report.lateInstructions},
        {"time_us", ms(report.totalTimeUs)}}},
      {"peak_rss_kib", report.peakRssKiB},
      {"storage_bytes", report.storageBytes},
      {"held_storage_bytes", report.heldStorageBytes},
  };
  if (!report.sizes.symbols.empty()) {
    // docs/bundle-format.md, "Dynamic sizes".
    json symbols = json::object();
    for (const SizeSymbol &sym : report.sizes.symbols)
      symbols[sym.name] = {{"value", sym.value}, {"captured", sym.captured}};
    doc["sizes"] = {{"symbols", std::move(symbols)},
                    {"at_captured", report.sizes.atCaptured},
                    {"recorded", report.sizes.recorded},
                    {"guards_checked", report.sizes.guardsChecked},
                    {"guards_not_checked", report.sizes.guardsNotChecked}};
  }
  if (!report.failure.empty())
    doc["failure"] = report.failure;
  if (const OptimizerBoundReport &b = report.optimizerBound; !b.optimizer.empty()) {
    json parameters = json::array();
    for (const OptimizerBoundReport::Parameter &p : b.parameters)
      parameters.push_back({{"name", p.name},
                            {"elements", p.elements},
                            {"measured", p.measured},
                            {"within_rounding", p.withinRounding},
                            {"within_rounding_indices", p.withinRoundingIndices},
                            {"eps_regime", p.epsRegime}});
    doc["optimizer_bound"] = {{"optimizer", b.optimizer},
                              {"elements_within_rounding", b.withinRounding()},
                              {"parameters_within_rounding", b.parametersWithinRounding()},
                              {"eps_regime_elements", b.epsRegime()},
                              {"parameters", std::move(parameters)},
                              {"not_covered", b.notCovered}};
  }
  if (!report.derivedBounds.empty()) {
    json uses = json::array();
    for (const DerivedBoundUse &u : report.derivedBounds)
      uses.push_back({{"step", u.step},
                      {"op", u.op},
                      {"bound", u.what},
                      {"rows", u.rows},
                      {"constant_rows", u.constantRows},
                      {"samples_within_allowance", u.samplesWithinAllowance}});
    doc["derived_bounds"] = std::move(uses);
  }
  if (report.mode != Mode::Reference)
    doc["machine"] = report.machine;
  if (report.mode == Mode::Timing || report.mode == Mode::Full) {
    json e = energyObject(report.totalEnergy);
    e["table"] = report.energyTable;
    e["clock_gating"] = report.energyClockGating;
    // A bundle is one inference (or one training step): the run's energy is its energy.
    e["per_inference_nj"] = e["total_nj"];
    e["peak_step_w"] = std::round(report.peakStepWatts * 1000.0) / 1000.0;
    e["peak_step"] = report.peakPowerStep;
    // A language model only; absent, never zero, for any other bundle (docs/energy.md).
    if (report.tokens && report.energyPerTokenUj) {
      e["tokens"] = *report.tokens;
      e["energy_per_token_uj"] = *report.energyPerTokenUj;
      e["tokens_trained"] = report.tokensTrained;
    } else if (!report.tokensAbsent.empty()) {
      e["energy_per_token_absent"] = report.tokensAbsent;
    }
    doc["energy"] = std::move(e);
  }
  return doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

void writeReport(const RunReport &report, const std::string &bundleName, const std::string &path) {
  core::writeFileAtomically(path, reportJson(report, bundleName), "--report " + path);
}

} // namespace npusim::runtime
