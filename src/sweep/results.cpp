// Sweep results: rows from the task records, the CSV and the page.
#include "sweep/results.h"

#include "report/svg_chart.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace npusim::sweep {

namespace {

namespace fs = std::filesystem;
using report::Chart;
using report::Series;

std::string csvField(const std::string &text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos)
    return text;
  std::string out = "\"";
  for (char c : text)
    out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string number(double v, const char *pattern = "%.6g") {
  char text[48];
  std::snprintf(text, sizeof text, pattern, v);
  return text;
}

void fillFromReport(const nlohmann::json &doc, ResultRow &row) {
  double busyTime[std::size(kUnits)] = {}, timed = 0.0, roofline = 0.0;
  for (const nlohmann::json &s : doc.value("steps", nlohmann::json::array())) {
    if (!s.contains("timing"))
      continue;
    const nlohmann::json &t = s["timing"];
    const double time = t.value("time_us", 0.0);
    timed += time;
    roofline += t.value("roofline_us", 0.0);
    row.dramBytes += t.value("dram_bytes_read", int64_t{0}) + t.value("dram_bytes_written", int64_t{0});
    row.macs += t.value("macs", int64_t{0});
    const nlohmann::json busy = t.value("unit_busy_percent", nlohmann::json::object());
    for (size_t u = 0; u < std::size(kUnits); ++u)
      busyTime[u] += time * busy.value(kUnits[u], 0.0);
  }
  const nlohmann::json totals = doc.value("totals", nlohmann::json::object());
  row.cycles = totals.value("cycles", int64_t{0});
  row.timeUs = totals.value("time_us", 0.0);
  for (size_t u = 0; u < std::size(kUnits); ++u)
    row.busyPercent[u] = timed > 0.0 ? busyTime[u] / timed : 0.0;
  row.dramGBs = row.timeUs > 0.0 ? static_cast<double>(row.dramBytes) / (row.timeUs * 1e3) : 0.0;
  row.rooflineRatio = roofline > 0.0 ? row.timeUs / roofline : 0.0;
  const nlohmann::json machine = doc.value("machine_config", nlohmann::json::object());
  row.peakFlops = machine.value("peak_flops_per_s", 0.0);
  row.peakDramBytesPerSecond = machine.value("peak_dram_bytes_per_s", 0.0);
  row.spadBytes = machine.value("spad_bytes", int64_t{0});
  const nlohmann::json energy = doc.value("energy", nlohmann::json::object());
  row.energyUj = energy.value("total_nj", 0.0) / 1000.0;
  row.averageWatts = energy.value("average_w", 0.0);
  if (energy.contains("energy_per_token_uj") && energy.contains("tokens")) {
    row.energyPerTokenUj = energy["energy_per_token_uj"].get<double>();
    row.tokens = energy["tokens"].get<int64_t>();
  }
  // FLOP per joule is FLOP/s per watt: 2 x MACs / (uJ x 1e-6) / 1e9.
  row.gflopsPerWatt = row.energyUj > 0.0 ? 2.0 * static_cast<double>(row.macs) / (row.energyUj * 1e3) : 0.0;
}

/// `npusim serve --report`'s JSON of an LLM scenario (src/serving/llm_report.cpp).
LlmColumns llmColumns(const nlohmann::json &doc) {
  const auto percentile = [&doc](const char *name, const char *which) {
    return doc.value(name, nlohmann::json::object()).value(which, 0.0);
  };
  LlmColumns c;
  c.ttftP50 = percentile("ttft_us", "p50");
  c.ttftP90 = percentile("ttft_us", "p90");
  c.ttftP99 = percentile("ttft_us", "p99");
  c.tpotP50 = percentile("tpot_us", "p50");
  c.tpotP90 = percentile("tpot_us", "p90");
  c.tpotP99 = percentile("tpot_us", "p99");
  c.e2eP50 = percentile("e2e_us", "p50");
  c.e2eP90 = percentile("e2e_us", "p90");
  c.e2eP99 = percentile("e2e_us", "p99");
  c.tokensPerSecond = doc.value("tokens_per_s", 0.0);
  c.outputTokensPerSecond = doc.value("output_tokens_per_s", 0.0);
  c.makespanUs = doc.value("makespan_us", 0.0);
  c.requestsCompleted = doc.value("requests_completed", int64_t{0});
  c.preemptions = doc.value("preemptions", int64_t{0});
  c.peakBatch = doc.value("peak_batch", int64_t{0});
  const nlohmann::json energy = doc.value("energy", nlohmann::json::object());
  c.energyUj = energy.value("total_uj", 0.0);
  c.energyPerOutputTokenUj = energy.value("per_output_token_uj", 0.0);
  return c;
}

/// The LLM columns of results.csv: name, and the value of a row's LlmColumns.
struct LlmColumn {
  const char *name;
  double (*value)(const LlmColumns &);
  const char *format;
};
const LlmColumn kLlmColumns[] = {
    {"ttft_p50_us", [](const LlmColumns &c) { return c.ttftP50; }, "%.3f"},
    {"ttft_p90_us", [](const LlmColumns &c) { return c.ttftP90; }, "%.3f"},
    {"ttft_p99_us", [](const LlmColumns &c) { return c.ttftP99; }, "%.3f"},
    {"tpot_p50_us", [](const LlmColumns &c) { return c.tpotP50; }, "%.3f"},
    {"tpot_p90_us", [](const LlmColumns &c) { return c.tpotP90; }, "%.3f"},
    {"tpot_p99_us", [](const LlmColumns &c) { return c.tpotP99; }, "%.3f"},
    {"e2e_p50_us", [](const LlmColumns &c) { return c.e2eP50; }, "%.3f"},
    {"e2e_p90_us", [](const LlmColumns &c) { return c.e2eP90; }, "%.3f"},
    {"e2e_p99_us", [](const LlmColumns &c) { return c.e2eP99; }, "%.3f"},
    {"tokens_per_s", [](const LlmColumns &c) { return c.tokensPerSecond; }, "%.1f"},
    {"output_tokens_per_s", [](const LlmColumns &c) { return c.outputTokensPerSecond; }, "%.1f"},
    {"makespan_us", [](const LlmColumns &c) { return c.makespanUs; }, "%.3f"},
    {"requests_completed", [](const LlmColumns &c) { return static_cast<double>(c.requestsCompleted); },
     "%.0f"},
    {"preemptions", [](const LlmColumns &c) { return static_cast<double>(c.preemptions); }, "%.0f"},
    {"peak_batch", [](const LlmColumns &c) { return static_cast<double>(c.peakBatch); }, "%.0f"},
    {"serving_energy_uj", [](const LlmColumns &c) { return c.energyUj; }, "%.3f"},
    {"energy_per_output_token_uj", [](const LlmColumns &c) { return c.energyPerOutputTokenUj; }, "%.3f"},
};

/// The points no other point beats in both (lower cost, lower time), by cost.
std::vector<std::pair<double, double>> paretoFront(std::vector<std::pair<double, double>> points) {
  std::sort(points.begin(), points.end());
  std::vector<std::pair<double, double>> front;
  for (const auto &p : points)
    if (front.empty() || p.second < front.back().second)
      front.push_back(p);
  return front;
}

/// A value of a varied key as a number for an axis. Words (dram: hbm2), and
/// numbers of a grid of a few values (lanes: 32, 64, 128), are categories:
/// their rank, numbers in numeric order; sampled numbers stay numbers.
struct KeyAxis {
  bool numeric = true;
  std::vector<std::string> words;
  bool categories() const { return !numeric || words.size() <= 8; }
  double operator()(const std::string &v) const {
    if (!categories())
      return std::stod(v);
    return static_cast<double>(std::find(words.begin(), words.end(), v) - words.begin());
  }
};

KeyAxis keyAxis(const std::vector<ResultRow> &rows, size_t k) {
  KeyAxis axis;
  std::set<std::string> seen;
  for (const ResultRow &r : rows) {
    const std::string &v = r.point[k].second;
    if (seen.insert(v).second)
      axis.words.push_back(v);
    size_t used = 0;
    try {
      std::stod(v, &used);
    } catch (const std::exception &) {
      used = 0;
    }
    axis.numeric = axis.numeric && used == v.size();
  }
  if (axis.numeric)
    std::sort(axis.words.begin(), axis.words.end(),
              [](const std::string &a, const std::string &b) { return std::stod(a) < std::stod(b); });
  return axis;
}

} // namespace

std::vector<ResultRow> collectResults(const std::vector<Task> &tasks, const std::vector<Point> &points,
                                      const std::string &outDir) {
  std::vector<ResultRow> rows;
  for (const Task &t : tasks) {
    ResultRow row;
    row.key = t.key;
    row.bundle = t.bundle;
    row.model = fs::path(t.bundle).filename().string();
    if (!t.scenario.empty()) {
      row.scenario = t.scenario;
      row.model = fs::path(t.scenario).stem().string();
      row.ratePerSecond = t.ratePerSecond;
      row.count = t.count;
    }
    row.point = points[t.point];
    if (const std::optional<TaskStatus> status = readStatus(outDir, t)) {
      row.status = status->status;
      row.wallSeconds = status->wallSeconds;
      row.error = status->error;
      const fs::path report = fs::path(taskFolder(outDir, t)) / "report.json";
      if (row.status == "ok") {
        std::ifstream in(report, std::ios::binary);
        std::ostringstream text;
        text << in.rdbuf();
        const nlohmann::json doc = nlohmann::json::parse(text.str(), nullptr, false);
        if (doc.is_discarded() || !doc.is_object()) {
          row.status = "failed";
          row.error = report.string() + ": not a valid report";
        } else if (!row.scenario.empty()) {
          row.llm = llmColumns(doc);
        } else {
          fillFromReport(doc, row);
        }
      }
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

std::string resultsCsv(const std::vector<std::string> &keys, const std::vector<ResultRow> &rows) {
  const bool scenarios =
      std::any_of(rows.begin(), rows.end(), [](const ResultRow &r) { return !r.scenario.empty(); });
  std::string out = "task,model,bundle";
  if (scenarios)
    out += ",scenario,rate_per_s,count";
  for (const std::string &k : keys)
    out += "," + csvField(k);
  out += ",status,cycles,time_us";
  for (const char *u : kUnits) {
    std::string name = u;
    std::replace(name.begin(), name.end(), '-', '_');
    out += ",busy_" + name + "_percent";
  }
  out += ",dram_bytes,dram_gb_s,roofline_ratio,peak_tflop_s,peak_dram_gb_s,spad_bytes,energy_uj,average_w,"
         "gflop_s_per_w,tokens,energy_per_token_uj";
  if (scenarios)
    for (const LlmColumn &c : kLlmColumns)
      out += std::string(",") + c.name;
  out += ",wall_s,error\n";
  // A bundle task's columns: empty for a scenario task, which has none of them.
  constexpr size_t kBundleColumns = 2 + std::size(kUnits) + 11;
  for (const ResultRow &r : rows) {
    const bool scenario = !r.scenario.empty();
    out += r.key + "," + csvField(r.model) + "," + csvField(r.bundle);
    if (scenarios)
      out += "," + csvField(r.scenario) + "," + (r.ratePerSecond ? rateText(*r.ratePerSecond) : "") + "," +
             (r.count ? std::to_string(*r.count) : "");
    for (const auto &[k, v] : r.point)
      out += "," + csvField(v);
    out += "," + r.status;
    if (scenario) {
      out += std::string(kBundleColumns, ',');
    } else {
      out += "," + std::to_string(r.cycles) + "," + number(r.timeUs, "%.3f");
      for (double b : r.busyPercent)
        out += "," + number(b, "%.2f");
      out += "," + std::to_string(r.dramBytes) + "," + number(r.dramGBs, "%.3f") + "," +
             number(r.rooflineRatio, "%.3f") + "," + number(r.peakFlops / 1e12, "%.3f") + "," +
             number(r.peakDramBytesPerSecond / 1e9, "%.3f") + "," + std::to_string(r.spadBytes) + "," +
             number(r.energyUj, "%.3f") + "," + number(r.averageWatts, "%.3f") + "," +
             number(r.gflopsPerWatt, "%.3f") + "," + (r.tokens ? std::to_string(*r.tokens) : "") + "," +
             (r.energyPerTokenUj ? number(*r.energyPerTokenUj, "%.3f") : "");
    }
    if (scenarios)
      for (const LlmColumn &c : kLlmColumns)
        out += "," + (r.llm ? number(c.value(*r.llm), c.format) : std::string());
    out += "," + number(r.wallSeconds, "%.3f") + "," + csvField(r.error) + "\n";
  }
  return out;
}

namespace {

/// The LLM serving charts: each latency against the arrival rate, one line
/// per machine (and per scenario and request count where the sweep has several).
void llmCharts(report::HtmlPage &page, const std::vector<ResultRow> &rows) {
  std::set<std::string> scenarios;
  std::set<int64_t> counts;
  double lowRate = 0.0, highRate = 0.0;
  for (const ResultRow &r : rows) {
    scenarios.insert(r.model);
    counts.insert(r.count.value_or(0));
    const double rate = r.ratePerSecond.value_or(0.0);
    lowRate = lowRate == 0.0 ? rate : std::min(lowRate, rate);
    highRate = std::max(highRate, rate);
  }
  const auto lineName = [&](const ResultRow &r) {
    std::string name = r.point.empty() ? std::string("the base machine") : describe(r.point);
    if (scenarios.size() > 1)
      name += " " + r.model;
    if (counts.size() > 1)
      name += " count=" + std::to_string(r.count.value_or(0));
    return name;
  };
  std::vector<std::string> lines;
  for (const ResultRow &r : rows)
    if (std::find(lines.begin(), lines.end(), lineName(r)) == lines.end())
      lines.push_back(lineName(r));
  const auto chart = [&](const std::string &title, const std::string &label, double LlmColumns::*field) {
    Chart c{title,
            {"arrival rate (requests/s)", lowRate > 0.0 && highRate >= 10.0 * lowRate},
            {label, false},
            {}};
    for (size_t i = 0; i < lines.size(); ++i) {
      Series points{lines[i], Series::Style::Points, {}, {}, static_cast<int>(i)};
      for (const ResultRow &r : rows)
        if (r.llm && lineName(r) == lines[i]) {
          points.points.emplace_back(*r.ratePerSecond, (*r.llm).*field);
          points.labels.push_back(lines[i] + ": " + rateText(*r.ratePerSecond) +
                                  " requests/s: " + number((*r.llm).*field, "%.3f") + " us");
        }
      std::vector<std::pair<double, double>> sorted = points.points;
      std::sort(sorted.begin(), sorted.end());
      c.series.push_back(std::move(points));
      c.series.push_back(Series{lines[i], Series::Style::Line, std::move(sorted), {}, static_cast<int>(i)});
    }
    page.raw(c.svg());
  };
  page.heading("LLM serving: latency against arrival rate");
  chart("TPOT p50 against arrival rate", "TPOT p50 (us per output token)", &LlmColumns::tpotP50);
  chart("TPOT p99 against arrival rate", "TPOT p99 (us per output token)", &LlmColumns::tpotP99);
  chart("TTFT p99 against arrival rate", "TTFT p99 (us)", &LlmColumns::ttftP99);
}

/// The bundle tasks' charts: each varied key against time, the Pareto
/// fronts and per-unit utilisation (x: the row of the task table).
void bundleCharts(report::HtmlPage &page, const std::vector<std::string> &keys,
                  const std::vector<ResultRow> &allRows, const std::vector<ResultRow> &rows,
                  const std::vector<std::string> &models) {
  // Each varied key against time, one series per model; the other keys'
  // values spread the points at one x (hover for the machine).
  page.heading("Each varied key against time");
  for (size_t k = 0; k < keys.size(); ++k) {
    const KeyAxis axis = keyAxis(rows, k);
    Chart chart{keys[k] + " against simulated time", {keys[k]}, {"simulated time (us)", true}, {}};
    if (axis.categories())
      chart.x.categories = axis.words;
    for (const std::string &m : models) {
      Series s{m, Series::Style::Points, {}, {}};
      for (const ResultRow &r : rows)
        if (r.model == m && r.status == "ok") {
          s.points.emplace_back(axis(r.point[k].second), r.timeUs);
          s.labels.push_back(m + ": " + describe(r.point) + ": " + number(r.timeUs, "%.3f") + " us");
        }
      chart.series.push_back(std::move(s));
    }
    page.raw(chart.svg());
  }

  // Pareto fronts: the machines no other beats in both cost and time.
  const auto front = [&](const char *name, const char *label, auto cost) {
    Chart chart{
        std::string("Pareto front: time against ") + name, {label, true}, {"simulated time (us)", true}, {}};
    for (size_t i = 0; i < models.size(); ++i) {
      const std::string &m = models[i];
      Series all{m, Series::Style::Points, {}, {}, static_cast<int>(i)};
      for (const ResultRow &r : rows)
        if (r.model == m && r.status == "ok") {
          all.points.emplace_back(cost(r), r.timeUs);
          all.labels.push_back(m + ": " + describe(r.point));
        }
      Series line{m + " front", Series::Style::Line, paretoFront(all.points), {}, static_cast<int>(i)};
      chart.series.push_back(std::move(all));
      chart.series.push_back(std::move(line));
    }
    page.raw(chart.svg());
  };
  page.heading("Pareto fronts");
  front("peak FLOP/s", "peak FLOP/s (systolic arrays, whole chip)",
        [](const ResultRow &r) { return r.peakFlops; });
  front("scratchpad bytes", "scratchpad bytes (whole chip)",
        [](const ResultRow &r) { return static_cast<double>(r.spadBytes); });
  // Time against energy: the front is the designs no other is both faster
  // and more frugal than; the faster machine need not be on it.
  front("energy", "energy per inference (uJ)", [](const ResultRow &r) { return r.energyUj; });

  // Per-unit utilisation of every task, in the table's order.
  page.heading("Unit utilisation");
  Chart busy{"Time-weighted busy share per unit, by task",
             {"task (row of the table below)"},
             {"busy (%)", false, 0.0, 100.0},
             {}};
  busy.width = 900;
  for (size_t u = 0; u < std::size(kUnits); ++u) {
    Series s{kUnits[u], Series::Style::Points, {}, {}};
    for (size_t i = 0; i < allRows.size(); ++i)
      if (allRows[i].status == "ok" && allRows[i].scenario.empty()) {
        s.points.emplace_back(static_cast<double>(i), allRows[i].busyPercent[u]);
        s.labels.push_back(allRows[i].model + ": " + describe(allRows[i].point));
      }
    busy.series.push_back(std::move(s));
  }
  page.raw(busy.svg());
}

/// Every task, the columns of results.csv that matter most; with `scenarios`,
/// the scenario tasks' rate, request count and latencies too.
void taskTable(report::HtmlPage &page, const std::vector<std::string> &keys,
               const std::vector<ResultRow> &rows, bool scenarios) {
  using report::Table;
  report::Table table;
  table.caption = "Every task (the columns of results.csv); click a heading to sort.";
  table.headings = {"row", "model"};
  if (scenarios)
    table.headings.insert(table.headings.end(), {"rate (requests/s)", "count"});
  for (const std::string &k : keys)
    table.headings.push_back(k);
  for (const char *h : {"status", "cycles", "time (us)", "DRAM GB/s", "x roofline", "peak TFLOP/s",
                        "energy (uJ)", "average W", "GFLOP/s per W", "uJ per token"})
    table.headings.push_back(h);
  if (scenarios)
    table.headings.insert(table.headings.end(),
                          {"TTFT p99 (us)", "TPOT p50 (us)", "TPOT p99 (us)", "tokens/s", "preemptions"});
  table.headings.insert(table.headings.end(), {"wall (s)", "error"});
  // A cell of a column that the row's kind of task has not is empty.
  const auto cell = [](bool has, double v, const char *format) {
    return has ? Table::number(number(v, format), v) : Table::text("");
  };
  for (size_t i = 0; i < rows.size(); ++i) {
    const ResultRow &r = rows[i];
    const bool bundle = r.scenario.empty();
    std::vector<Table::Cell> cells = {Table::number(std::to_string(i), double(i)), Table::text(r.model)};
    if (scenarios) {
      cells.push_back(r.ratePerSecond ? Table::number(rateText(*r.ratePerSecond), *r.ratePerSecond)
                                      : Table::text(""));
      cells.push_back(cell(r.count.has_value(), static_cast<double>(r.count.value_or(0)), "%.0f"));
    }
    for (const auto &[k, v] : r.point) {
      size_t used = 0;
      double d = 0.0;
      try {
        d = std::stod(v, &used);
      } catch (const std::exception &) {
        used = 0;
      }
      cells.push_back(used == v.size() ? Table::number(v, d) : Table::text(v));
    }
    cells.push_back(Table::text(r.status));
    cells.push_back(cell(bundle, static_cast<double>(r.cycles), "%.0f"));
    cells.push_back(cell(bundle, r.timeUs, "%.3f"));
    cells.push_back(cell(bundle, r.dramGBs, "%.1f"));
    cells.push_back(cell(bundle, r.rooflineRatio, "%.2f"));
    cells.push_back(cell(bundle, r.peakFlops / 1e12, "%.1f"));
    cells.push_back(cell(bundle, r.energyUj, "%.3f"));
    cells.push_back(cell(bundle, r.averageWatts, "%.2f"));
    cells.push_back(cell(bundle, r.gflopsPerWatt, "%.1f"));
    cells.push_back(cell(r.energyPerTokenUj.has_value(), r.energyPerTokenUj.value_or(0.0), "%.3f"));
    if (scenarios) {
      const LlmColumns llm = r.llm.value_or(LlmColumns{});
      cells.push_back(cell(r.llm.has_value(), llm.ttftP99, "%.3f"));
      cells.push_back(cell(r.llm.has_value(), llm.tpotP50, "%.3f"));
      cells.push_back(cell(r.llm.has_value(), llm.tpotP99, "%.3f"));
      cells.push_back(cell(r.llm.has_value(), llm.tokensPerSecond, "%.1f"));
      cells.push_back(cell(r.llm.has_value(), static_cast<double>(llm.preemptions), "%.0f"));
    }
    cells.push_back(Table::number(number(r.wallSeconds, "%.2f"), r.wallSeconds));
    cells.push_back(Table::text(r.error));
    table.rows.push_back(std::move(cells));
  }
  page.heading("Tasks");
  page.table(table);
}

} // namespace

report::HtmlPage sweepPage(const std::string &title, const std::vector<std::string> &keys,
                           const std::vector<ResultRow> &allRows) {
  report::HtmlPage page(title);
  size_t ok = 0, failed = 0, pending = 0;
  std::vector<std::string> allModels;
  // The bundle tasks' charts read cycles and utilisation, which a scenario task has not.
  std::vector<ResultRow> rows, scenarioRows;
  for (const ResultRow &r : allRows) {
    if (std::find(allModels.begin(), allModels.end(), r.model) == allModels.end())
      allModels.push_back(r.model);
    ok += r.status == "ok";
    failed += r.status == "failed";
    pending += r.status == "pending";
    (r.scenario.empty() ? rows : scenarioRows).push_back(r);
  }
  std::vector<std::string> models;
  for (const ResultRow &r : rows)
    if (std::find(models.begin(), models.end(), r.model) == models.end())
      models.push_back(r.model);
  page.definitions(
      {{"tasks", std::to_string(allRows.size()) + " (" + std::to_string(ok) + " ok, " +
                     std::to_string(failed) + " failed, " + std::to_string(pending) + " not run)"},
       {"models", std::to_string(allModels.size())},
       {"varied", std::to_string(keys.size()) + " keys"}});
  if (!scenarioRows.empty())
    llmCharts(page, scenarioRows);
  if (!rows.empty())
    bundleCharts(page, keys, allRows, rows, models);
  taskTable(page, keys, allRows, !scenarioRows.empty());
  return page;
}

} // namespace npusim::sweep
