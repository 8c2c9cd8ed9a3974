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
  std::string out = "task,model,bundle";
  for (const std::string &k : keys)
    out += "," + csvField(k);
  out += ",status,cycles,time_us";
  for (const char *u : kUnits) {
    std::string name = u;
    std::replace(name.begin(), name.end(), '-', '_');
    out += ",busy_" + name + "_percent";
  }
  out += ",dram_bytes,dram_gb_s,roofline_ratio,peak_tflop_s,peak_dram_gb_s,spad_bytes,energy_uj,average_w,"
         "gflop_s_per_w,tokens,energy_per_token_uj,wall_s,error\n";
  for (const ResultRow &r : rows) {
    out += r.key + "," + csvField(r.model) + "," + csvField(r.bundle);
    for (const auto &[k, v] : r.point)
      out += "," + csvField(v);
    out += "," + r.status + "," + std::to_string(r.cycles) + "," + number(r.timeUs, "%.3f");
    for (double b : r.busyPercent)
      out += "," + number(b, "%.2f");
    out += "," + std::to_string(r.dramBytes) + "," + number(r.dramGBs, "%.3f") + "," +
           number(r.rooflineRatio, "%.3f") + "," + number(r.peakFlops / 1e12, "%.3f") + "," +
           number(r.peakDramBytesPerSecond / 1e9, "%.3f") + "," + std::to_string(r.spadBytes) + "," +
           number(r.energyUj, "%.3f") + "," + number(r.averageWatts, "%.3f") + "," +
           number(r.gflopsPerWatt, "%.3f") + "," + (r.tokens ? std::to_string(*r.tokens) : "") + "," +
           (r.energyPerTokenUj ? number(*r.energyPerTokenUj, "%.3f") : "") + "," + number(r.wallSeconds, "%.3f") +
           "," + csvField(r.error) + "\n";
  }
  return out;
}

report::HtmlPage sweepPage(const std::string &title, const std::vector<std::string> &keys,
                           const std::vector<ResultRow> &rows) {
  report::HtmlPage page(title);
  std::vector<std::string> models;
  size_t ok = 0, failed = 0, pending = 0;
  for (const ResultRow &r : rows) {
    if (std::find(models.begin(), models.end(), r.model) == models.end())
      models.push_back(r.model);
    ok += r.status == "ok";
    failed += r.status == "failed";
    pending += r.status == "pending";
  }
  page.definitions(
      {{"tasks", std::to_string(rows.size()) + " (" + std::to_string(ok) + " ok, " + std::to_string(failed) +
                     " failed, " + std::to_string(pending) + " not run)"},
       {"models", std::to_string(models.size())},
       {"varied", std::to_string(keys.size()) + " keys"}});

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
    for (size_t i = 0; i < rows.size(); ++i)
      if (rows[i].status == "ok") {
        s.points.emplace_back(static_cast<double>(i), rows[i].busyPercent[u]);
        s.labels.push_back(rows[i].model + ": " + describe(rows[i].point));
      }
    busy.series.push_back(std::move(s));
  }
  page.raw(busy.svg());

  report::Table table;
  table.caption = "Every task (the columns of results.csv); click a heading to sort.";
  table.headings = {"row", "model"};
  for (const std::string &k : keys)
    table.headings.push_back(k);
  for (const char *h :
       {"status", "cycles", "time (us)", "DRAM GB/s", "x roofline", "peak TFLOP/s", "energy (uJ)", "average W",
        "GFLOP/s per W", "uJ per token", "wall (s)", "error"})
    table.headings.push_back(h);
  for (size_t i = 0; i < rows.size(); ++i) {
    const ResultRow &r = rows[i];
    std::vector<report::Table::Cell> cells = {report::Table::number(std::to_string(i), double(i)),
                                              report::Table::text(r.model)};
    for (const auto &[k, v] : r.point) {
      size_t used = 0;
      double d = 0.0;
      try {
        d = std::stod(v, &used);
      } catch (const std::exception &) {
        used = 0;
      }
      cells.push_back(used == v.size() ? report::Table::number(v, d) : report::Table::text(v));
    }
    cells.push_back(report::Table::text(r.status));
    cells.push_back(report::Table::number(std::to_string(r.cycles), double(r.cycles)));
    cells.push_back(report::Table::number(number(r.timeUs, "%.3f"), r.timeUs));
    cells.push_back(report::Table::number(number(r.dramGBs, "%.1f"), r.dramGBs));
    cells.push_back(report::Table::number(number(r.rooflineRatio, "%.2f"), r.rooflineRatio));
    cells.push_back(report::Table::number(number(r.peakFlops / 1e12, "%.1f"), r.peakFlops));
    cells.push_back(report::Table::number(number(r.energyUj, "%.3f"), r.energyUj));
    cells.push_back(report::Table::number(number(r.averageWatts, "%.2f"), r.averageWatts));
    cells.push_back(report::Table::number(number(r.gflopsPerWatt, "%.1f"), r.gflopsPerWatt));
    cells.push_back(r.energyPerTokenUj
                        ? report::Table::number(number(*r.energyPerTokenUj, "%.3f"), *r.energyPerTokenUj)
                        : report::Table::text(""));
    cells.push_back(report::Table::number(number(r.wallSeconds, "%.2f"), r.wallSeconds));
    cells.push_back(report::Table::text(r.error));
    table.rows.push_back(std::move(cells));
  }
  page.heading("Tasks");
  page.table(table);
  return page;
}

} // namespace npusim::sweep
