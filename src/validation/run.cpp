// Timing a suite's bundles and stating the errors.
#include "validation/validation.h"

#include "runtime/loader.h"
#include "runtime/runner.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <sstream>

namespace npusim::validation {

Result runSuite(const Suite &suite, const config::HardwareConfig &machine, const Options &options) {
  Result result;
  result.suite = suite;
  result.machine = machine.name;
  runtime::RunOptions run;
  run.mode = runtime::Mode::Timing;
  run.machine = machine;
  run.threads = options.threads;
  for (size_t i = 0; i < suite.workloads.size(); ++i) {
    const Workload &w = suite.workloads[i];
    if (options.onWorkload)
      options.onWorkload(i, suite.workloads.size(), w.name);
    Row row;
    row.workload = w;
    const auto start = std::chrono::steady_clock::now();
    try {
      const runtime::RunReport report = runtime::runBundle(runtime::loadBundle(w.bundle), run);
      if (!report.failure.empty())
        row.failure = report.failure;
      else if (report.totalCycles <= 0)
        row.failure = "the run took no cycles";
      else {
        row.ran = true;
        row.cycles = report.totalCycles;
        row.errorPercent = 100.0 * static_cast<double>(row.cycles - w.siliconCycles) /
                           static_cast<double>(w.siliconCycles);
      }
    } catch (const std::exception &e) {
      row.failure = e.what();
    }
    row.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    result.rows.push_back(std::move(row));
  }
  summarise(result);
  return result;
}

void summarise(Result &result) {
  result.ran = result.failed = 0;
  result.maePercent = result.maxAbsErrorPercent = 0.0;
  double sum = 0.0;
  for (const Row &row : result.rows) {
    if (!row.ran) {
      ++result.failed;
      continue;
    }
    ++result.ran;
    sum += std::fabs(row.errorPercent);
    result.maxAbsErrorPercent = std::max(result.maxAbsErrorPercent, std::fabs(row.errorPercent));
  }
  if (result.ran > 0)
    result.maePercent = sum / result.ran;
}

namespace {

std::string format(const char *pattern, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, pattern, value);
  return buffer;
}

std::string grouped(int64_t value) {
  std::string digits = std::to_string(value < 0 ? -value : value), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0)
      out += ',';
    out += digits[i];
  }
  return (value < 0 ? "-" : "") + out;
}

} // namespace

std::string table(const Result &result) {
  std::ostringstream out;
  size_t width = 8;
  for (const Row &row : result.rows)
    width = std::max(width, row.workload.name.size());
  char line[512];
  std::snprintf(line, sizeof line, "%-*s %14s %14s %9s\n", static_cast<int>(width), "workload", "silicon",
                "npusim", "error");
  out << line;
  for (const Row &row : result.rows) {
    const std::string simulated = row.ran ? grouped(row.cycles) : "failed";
    const std::string error = row.ran ? format("%+.1f%%", row.errorPercent) : "";
    std::snprintf(line, sizeof line, "%-*s %14s %14s %9s\n", static_cast<int>(width), row.workload.name.c_str(),
                  grouped(row.workload.siliconCycles).c_str(), simulated.c_str(), error.c_str());
    out << line;
  }
  out << "MAE " << format("%.1f%%", result.maePercent) << " over " << result.ran << " of " << result.rows.size()
      << " workloads (largest " << format("%.1f%%", result.maxAbsErrorPercent) << "; limit "
      << format("%.1f%%", result.suite.maxMaePercent) << ") on " << result.machine << "\n";
  for (const Row &row : result.rows)
    if (!row.ran)
      out << row.workload.name << " (" << row.workload.bundle << "): error: " << row.failure << "\n";
  return out.str();
}

std::string reportJson(const Result &result) {
  nlohmann::json doc;
  doc["suite"] = {{"path", result.suite.path},
                  {"title", result.suite.title},
                  {"source", result.suite.source},
                  {"max_mae_percent", result.suite.maxMaePercent}};
  doc["machine"] = result.machine;
  doc["mae_percent"] = result.maePercent;
  doc["max_abs_error_percent"] = result.maxAbsErrorPercent;
  doc["ran"] = result.ran;
  doc["failed"] = result.failed;
  doc["within_limit"] = result.withinLimit();
  nlohmann::json rows = nlohmann::json::array();
  for (const Row &row : result.rows) {
    nlohmann::json r = {{"name", row.workload.name},
                        {"bundle", row.workload.bundle},
                        {"silicon_cycles", row.workload.siliconCycles},
                        {"ran", row.ran},
                        {"wall_s", row.wallSeconds}};
    if (row.ran) {
      r["cycles"] = row.cycles;
      r["error_percent"] = row.errorPercent;
    } else {
      r["failure"] = row.failure;
    }
    rows.push_back(std::move(r));
  }
  doc["workloads"] = std::move(rows);
  return doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

} // namespace npusim::validation
