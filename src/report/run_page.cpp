// The page of one `npusim run`, from its JSON report.
#include "report/run_page.h"

#include "core/error.h"
#include "core/text_format.h"
#include "report/energy_section.h"
#include "report/json_fields_internal.h"
#include "report/svg_chart.h"

#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>

namespace npusim::report {

namespace {

using nlohmann::json;

std::string text(const json &object, const char *key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

/// The machine summary lines, from "machine_config" when the report has it.
std::vector<std::pair<std::string, std::string>> machineLines(const json &report) {
  const auto it = report.find("machine_config");
  if (it == report.end())
    return {{"machine", text(report, "machine").empty() ? "-" : text(report, "machine")}};
  return machineDefinitions(*it);
}

std::string verificationLine(const json &report) {
  const std::string result = text(report, "result");
  std::string line = "result: " + result;
  if (!report.value("verify", false))
    line += " (run without --verify: values were not compared)";
  else
    line +=
        " (" + std::to_string(report["totals"].value("fingerprints_compared", 0)) + " fingerprints compared)";
  if (report.contains("failure"))
    line += "; failure: " + text(report, "failure");
  return line;
}

/// Busy percentage of each unit and DRAM bandwidth, step after step on one
/// time axis (the steps run one after another on the machine).
void overTime(const json &steps, HtmlPage &page) {
  std::map<std::string, Series> units;
  Series bandwidth{"DRAM GB/s", Series::Style::Line, {}, {}};
  double t = 0.0;
  for (const json &s : steps) {
    if (!s.contains("timing"))
      continue;
    const json &timing = s["timing"];
    const double end = t + numberField(timing, "time_us");
    for (const auto &[unit, busy] : timing["unit_busy_percent"].items()) {
      Series &series = units.try_emplace(unit, Series{unit, Series::Style::Line, {}, {}}).first->second;
      series.points.emplace_back(t, busy.get<double>());
      series.points.emplace_back(end, busy.get<double>());
    }
    const double gbs = numberField(timing, "dram_achieved_gb_s");
    bandwidth.points.emplace_back(t, gbs);
    bandwidth.points.emplace_back(end, gbs);
    t = end;
  }
  Chart utilisation{
      "Unit utilisation over time", {"simulated time (us)"}, {"busy (%)", false, 0.0, 100.0}, {}};
  utilisation.width = 900;
  for (auto &[name, series] : units)
    utilisation.series.push_back(std::move(series));
  page.heading("Unit utilisation over time");
  page.raw(utilisation.svg());
  page.paragraph("Each step's average busy share of each unit, steps laid end to end in simulated time.");
  Chart dram{"DRAM bandwidth over time", {"simulated time (us)"}, {"achieved GB/s"}, {std::move(bandwidth)}};
  dram.width = 900;
  page.heading("DRAM bandwidth over time");
  page.raw(dram.svg());
}

void roofline(const json &report, HtmlPage &page) {
  Series steps{"steps", Series::Style::Points, {}, {}};
  size_t withoutMacs = 0;
  double lowIntensity = 1e300, highIntensity = 0.0;
  for (const json &s : report["steps"]) {
    if (!s.contains("timing"))
      continue;
    const json &timing = s["timing"];
    const double flops = 2.0 * numberField(timing, "macs");
    // Intensity against the bytes the step cannot avoid (what the program
    // moved where a report predates them): a mapping that re-reads its
    // operands shows as a point below its roof, not as a lower intensity.
    const double compulsory = numberField(timing, "compulsory_bytes");
    const double bytes =
        compulsory > 0.0 ? compulsory : numberField(timing, "dram_bytes_read") + numberField(timing, "dram_bytes_written");
    const double seconds = numberField(timing, "time_us") * 1e-6;
    if (flops <= 0.0 || bytes <= 0.0 || seconds <= 0.0) {
      ++withoutMacs;
      continue;
    }
    const double intensity = flops / bytes;
    lowIntensity = std::min(lowIntensity, intensity);
    highIntensity = std::max(highIntensity, intensity);
    steps.points.emplace_back(intensity, flops / seconds);
    steps.labels.push_back("step " + std::to_string(s.value("index", 0)) + " " + text(s, "name") + ": " +
                           shortNumber(intensity) + " FLOP/B, " + shortNumber(flops / seconds) + " FLOP/s, " +
                           text(timing, "bound"));
  }
  Chart chart{"Roofline", {"arithmetic intensity (FLOP per DRAM byte)", true}, {"achieved FLOP/s", true}, {}};
  chart.width = 900;
  chart.height = 420;
  const json machine = report.value("machine_config", json::object());
  const double peak = numberField(machine, "peak_flops_per_s"),
               bandwidth = numberField(machine, "peak_dram_bytes_per_s");
  if (peak > 0.0 && bandwidth > 0.0 && !steps.points.empty()) {
    // The roofs span the points and the ridge, a decade either side.
    const double ridge = peak / bandwidth;
    const double lo = std::min(lowIntensity, ridge) / 10.0, hi = std::max(highIntensity, ridge) * 10.0;
    chart.series.push_back({"DRAM roof", Series::Style::Line, {{lo, lo * bandwidth}, {ridge, peak}}, {}});
    chart.series.push_back({"compute roof", Series::Style::Line, {{ridge, peak}, {hi, peak}}, {}});
  }
  chart.series.insert(chart.series.begin(), std::move(steps));
  page.heading("Roofline");
  page.raw(chart.svg());
  page.paragraph("One point per step with systolic-array work: FLOP = 2 x MACs, bytes = its compulsory DRAM "
                 "bytes (every input element read once, every output element written once). The roofs are the machine's systolic peak and DRAM peak bandwidth." +
                 (withoutMacs > 0
                      ? " " + std::to_string(withoutMacs) +
                            " timed steps without MACs (vector and cross-lane work) are not drawn."
                      : std::string()));
}

} // namespace

std::vector<std::pair<std::string, std::string>> machineDefinitions(const json &m) {
  std::vector<std::pair<std::string, std::string>> lines;
  lines.emplace_back("machine", text(m, "name"));
  lines.emplace_back("cores", shortNumber(numberField(m, "num_cores")) + " at " +
                                  shortNumber(numberField(m, "core_freq_mhz")) + " MHz");
  lines.emplace_back("lanes, arrays", shortNumber(numberField(m, "lanes")) + " lanes, " +
                                          shortNumber(numberField(m, "systolic_arrays_per_core")) +
                                          " systolic arrays per core");
  lines.emplace_back("scratchpad", shortNumber(numberField(m, "spad_kib_per_lane")) + " KiB per lane, " +
                                       shortNumber(numberField(m, "spad_bytes") / 1048576.0) + " MiB in all");
  lines.emplace_back("DRAM", text(m, "dram") + ", " + shortNumber(numberField(m, "dram_channels")) +
                                 " channels at " + shortNumber(numberField(m, "dram_freq_mhz")) + " MHz");
  lines.emplace_back("peaks", core::printfDouble("%.1f TFLOP/s", numberField(m, "peak_flops_per_s") / 1e12) + ", " +
                                  core::printfDouble("%.1f GB/s", numberField(m, "peak_dram_bytes_per_s") / 1e9));
  return lines;
}

json machineJson(const config::HardwareConfig &m) {
  return {{"name", m.name},
          {"num_cores", m.numCores},
          {"core_freq_mhz", m.coreFreqMhz},
          {"lanes", m.lanes},
          {"systolic_arrays_per_core", m.systolicArraysPerCore},
          {"spad_kib_per_lane", m.spadKibPerLane},
          {"spad_bytes", m.spadBytesPerLane() * m.lanes * m.numCores},
          {"dram", m.dram.timing.name},
          {"dram_channels", m.dram.channels},
          {"dram_freq_mhz", m.dram.freqMhz},
          {"peak_flops_per_s", m.peakFlopsPerChip()},
          {"peak_dram_bytes_per_s", m.dram.peakBytesPerSecond()}};
}

json readReport(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw core::InputError(path + ": cannot read the file");
  std::ostringstream content;
  content << in.rdbuf();
  json doc = json::parse(content.str(), nullptr, false);
  if (doc.is_discarded())
    throw core::InputError(path + ": not valid JSON");
  if (!doc.is_object() || !doc.contains("steps") || !doc["steps"].is_array() || !doc.contains("totals") ||
      !doc["totals"].is_object())
    throw core::InputError(path + ": not an npusim run report (no 'steps' array or 'totals' object)");
  for (size_t i = 0; i < doc["steps"].size(); ++i) {
    const json &s = doc["steps"][i];
    if (!s.is_object() || !s.contains("name") || !s["name"].is_string())
      throw core::InputError(path + ": steps[" + std::to_string(i) + "]: no 'name'");
    if (s.contains("timing") &&
        (!s["timing"].is_object() || !s["timing"].contains("time_us") ||
         !s["timing"]["time_us"].is_number() || !s["timing"].value("unit_busy_percent", json()).is_object()))
      throw core::InputError(path + ": steps[" + std::to_string(i) +
                             "].timing: needs a number 'time_us' and an object 'unit_busy_percent'");
  }
  return doc;
}

HtmlPage runPage(const json &report) {
  HtmlPage page("npusim run: " + text(report, "bundle"));
  const json &totals = report["totals"];
  std::vector<std::pair<std::string, std::string>> summary = {
      {"bundle", text(report, "bundle")},
      {"mode", text(report, "mode")},
      {"steps", std::to_string(report["steps"].size()) + " of " + std::to_string(totals.value("steps", 0)) +
                    " ran (" + std::to_string(totals.value("launches", 0)) + " launches, " +
                    std::to_string(totals.value("calls", 0)) + " library calls)"},
      {"simulated", text(report, "mode") == "timing" || text(report, "mode") == "full"
                        ? std::to_string(totals.value("cycles", int64_t{0})) + " cycles, " +
                              core::printfDouble("%.3f us", numberField(totals, "time_us"))
                        : std::string("no cycles (") + text(report, "mode") + " mode)"},
      {"wall time", core::printfDouble("%.1f ms", numberField(totals, "wall_ms"))}};
  for (auto &line : machineLines(report))
    summary.push_back(std::move(line));
  page.heading("Model and machine");
  page.definitions(summary);
  page.heading("Verification");
  page.paragraph(verificationLine(report));

  const double total = numberField(totals, "time_us");
  Table steps;
  steps.caption = "Every step; click a heading to sort.";
  steps.headings = {"step",       "kind",       "name",    "cycles", "share", "time (us)",
                    "x roofline", "x bytes",    "bound",   "result"};
  for (const json &s : report["steps"]) {
    const json timing = s.value("timing", json::object());
    const double time = numberField(timing, "time_us");
    const double share = total > 0.0 ? 100.0 * time / total : 0.0;
    const bool timed = s.contains("timing");
    steps.rows.push_back(
        {Table::number(std::to_string(s.value("index", 0)), s.value("index", 0)),
         Table::text(text(s, "kind")), Table::text(text(s, "name")),
         Table::number(timed ? std::to_string(timing.value("cycles", 0)) : "-", numberField(timing, "cycles")),
         Table::number(timed ? core::printfDouble("%.1f%%", share) : "-", share),
         Table::number(timed ? core::printfDouble("%.3f", time) : "-", time),
         Table::number(timed ? core::printfDouble("%.2f", numberField(timing, "time_over_roofline")) : "-",
                       numberField(timing, "time_over_roofline")),
         Table::number(timed && numberField(timing, "traffic_over_compulsory") > 0.0
                           ? core::printfDouble("%.2f", numberField(timing, "traffic_over_compulsory"))
                           : "-",
                       numberField(timing, "traffic_over_compulsory")),
         Table::text(timed ? text(timing, "bound") : "-"), Table::text(text(s, "result"))});
  }
  page.heading("Steps");
  page.table(steps);
  roofline(report, page);
  overTime(report["steps"], page);
  energySection(report, page);
  return page;
}

} // namespace npusim::report
