// The run page's energy: where the joules went and the power step by step.
#include "report/energy_section.h"

#include "core/text_format.h"
#include "report/json_fields_internal.h"
#include "report/svg_chart.h"

#include <algorithm>
#include <cstdio>
#include <string>

namespace npusim::report {
namespace {

using nlohmann::json;

} // namespace

void energySection(const json &report, HtmlPage &page) {
  page.heading("Energy and power");
  const auto found = report.find("energy");
  if (found == report.end() || !found->is_object()) {
    page.paragraph("No energy: the report has none (reference or functional mode, or an older report).");
    return;
  }
  const json &e = *found;
  const double totalNj = numberField(e, "total_nj");
  std::vector<std::pair<std::string, std::string>> lines = {
      {"table", e.value("table", std::string("?")) + (e.value("clock_gating", false) ? ", idle units clock-gated" : "")},
      {"energy", core::printfDouble("%.3f uJ", totalNj / 1000.0) + " (dynamic " + core::printfDouble("%.3f", numberField(e, "dynamic_nj") / 1000.0) +
                     ", static " + core::printfDouble("%.3f uJ)", numberField(e, "static_nj") / 1000.0)},
      {"average power", core::printfDouble("%.3f W", numberField(e, "average_w"))},
      {"peak step power", core::printfDouble("%.3f W", numberField(e, "peak_step_w")) + " (step " +
                              std::to_string(e.value("peak_step", 0)) + ")"},
  };
  // A language model's only (docs/energy.md, "Energy per token").
  if (const auto perToken = e.find("energy_per_token_uj"); perToken != e.end() && perToken->is_number())
    lines.emplace_back("energy per token", core::printfDouble("%.6f uJ", perToken->get<double>()) + " (" +
                                               std::to_string(e.value("tokens", int64_t{0})) +
                                               (e.value("tokens_trained", false) ? " tokens trained on)" : " tokens)"));
  page.definitions(lines);
  if (const auto absent = e.find("energy_per_token_absent"); absent != e.end() && absent->is_string())
    page.paragraph("No energy per token: " + absent->get<std::string>() + ".");
  if (e.value("unpriced_macs", int64_t{0}) > 0)
    page.paragraph("Not charged: " + std::to_string(e.value("unpriced_macs", int64_t{0})) +
                   " MACs of dtypes the table has no figure for.");
  if (e.value("dram_requests_without_row_statistics", int64_t{0}) > 0)
    page.paragraph("Not charged: the row activations of " +
                   std::to_string(e.value("dram_requests_without_row_statistics", int64_t{0})) +
                   " DRAM requests served by a model without row statistics.");

  Table parts;
  parts.caption = "Energy by part of the machine; click a heading to sort.";
  parts.headings = {"part", "dynamic (uJ)", "static (uJ)", "total (uJ)", "share"};
  const json partsOf = e.value("parts", json::object());
  for (const auto &[name, part] : partsOf.items()) {
    const double dynamic = numberField(part, "dynamic_nj") / 1000.0, stat = numberField(part, "static_nj") / 1000.0;
    const double share = totalNj > 0 ? 100.0 * (dynamic + stat) * 1000.0 / totalNj : 0.0;
    parts.rows.push_back({Table::text(name), Table::number(core::printfDouble("%.3f", dynamic), dynamic),
                          Table::number(core::printfDouble("%.3f", stat), stat),
                          Table::number(core::printfDouble("%.3f", dynamic + stat), dynamic + stat),
                          Table::number(core::printfDouble("%.1f%%", share), share)});
  }
  page.table(parts);

  // Power over time: each step's average power over its simulated time,
  // steps laid end to end as the machine runs them.
  Series power{"step power (W)", Series::Style::Line, {}, {}};
  Series average{"run average (W)", Series::Style::Line, {}, {}};
  Table steps;
  steps.caption = "Energy of every timed step; click a heading to sort.";
  steps.headings = {"step", "name", "energy (uJ)", "dynamic (uJ)", "static (uJ)", "power (W)"};
  double t = 0.0;
  const json stepsOf = report.value("steps", json::array());
  for (const json &s : stepsOf) {
    const auto timing = s.find("timing");
    if (timing == s.end() || !timing->contains("energy"))
      continue;
    const json &se = (*timing)["energy"];
    const double end = t + numberField(*timing, "time_us");
    const double watts = numberField(se, "average_w");
    power.points.emplace_back(t, watts);
    power.points.emplace_back(end, watts);
    t = end;
    const double energy = numberField(se, "total_nj") / 1000.0;
    steps.rows.push_back({Table::number(std::to_string(s.value("index", 0)), s.value("index", 0)),
                          Table::text(s.value("name", std::string())), Table::number(core::printfDouble("%.3f", energy), energy),
                          Table::number(core::printfDouble("%.3f", numberField(se, "dynamic_nj") / 1000.0), numberField(se, "dynamic_nj")),
                          Table::number(core::printfDouble("%.3f", numberField(se, "static_nj") / 1000.0), numberField(se, "static_nj")),
                          Table::number(core::printfDouble("%.3f", watts), watts)});
  }
  average.points = {{0.0, numberField(e, "average_w")}, {t, numberField(e, "average_w")}};
  Chart chart{"Power over time", {"simulated time (us)"}, {"power (W)", false, 0.0, 0.0}, {power, average}};
  chart.width = 900;
  page.raw(chart.svg());
  page.paragraph("Each step's energy over its simulated time; the peak is the highest step average.");
  page.table(steps);
}

} // namespace npusim::report
