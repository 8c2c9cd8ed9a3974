// The JSON report of `npusim run --report`.
#include "core/error.h"
#include "runtime/runner.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>

namespace npusim::runtime {

namespace {

/// Milliseconds rounded to microseconds, so the report stays readable.
double ms(double v) {
  return std::round(v * 1000.0) / 1000.0;
}

} // namespace

void writeReport(const RunReport &report, const std::string &bundleName, const std::string &path) {
  using nlohmann::json;
  json steps = json::array();
  for (const StepResult &s : report.steps) {
    json step = {{"index", s.index},
                 {"kind", s.kind},
                 {"name", s.name},
                 {"wall_ms", ms(s.wallMs)},
                 {"result", s.result}};
    if (s.kind == "launch")
      step["programs"] = s.programs;
    if (report.verify) {
      step["fingerprints_compared"] = s.fingerprintsCompared;
      step["fingerprints_skipped"] = s.fingerprintsSkipped;
    }
    if (!s.message.empty())
      step["message"] = s.message;
    steps.push_back(std::move(step));
  }
  json outputs = json::array();
  for (const OutputResult &o : report.outputs) {
    json out = {{"name", o.name}, {"result", o.result}};
    if (!o.message.empty())
      out["message"] = o.message;
    outputs.push_back(std::move(out));
  }
  std::string result = "ran";
  if (!report.failure.empty())
    result = report.steps.empty() || report.steps.back().result != "diverged" ? "error" : "diverged";
  if (!report.failure.empty() && report.completed)
    result = "diverged"; // an output differs
  if (report.verified)
    result = "verified";
  json doc = {
      {"bundle", bundleName},
      {"mode", "reference"},
      {"verify", report.verify},
      {"result", result},
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
        {"lower_ms", ms(report.lowerMs)}}},
      {"peak_rss_kib", report.peakRssKiB},
  };
  if (!report.failure.empty())
    doc["failure"] = report.failure;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out)
    throw core::InputError("--report " + path + ": cannot write the file");
  out << doc.dump(2) << "\n";
  if (!out)
    throw core::InputError("--report " + path + ": cannot write the file");
}

} // namespace npusim::runtime
