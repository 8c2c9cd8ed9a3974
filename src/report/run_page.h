#pragma once
// Pages and terminal tables made from `npusim run --report` JSON (docs/cli.md,
// "run"): the run page of `npusim run --html` and the comparison of two
// reports of `npusim compare`. docs/reports.md describes what each shows.
#include "config/hardware.h"
#include "report/html_page.h"

#include <nlohmann/json.hpp>

#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

namespace npusim::report {

/// The report's "machine_config" object: the keys a reader of a report needs
/// (cores, lanes, arrays, clocks, scratchpad, DRAM) and the two roofs,
/// peak_flops_per_s and peak_dram_bytes_per_s.
nlohmann::json machineJson(const config::HardwareConfig &machine);
/// The name/value lines of a page's machine summary (cores, lanes, arrays,
/// scratchpad, DRAM, peaks) from a machineJson object.
std::vector<std::pair<std::string, std::string>> machineDefinitions(const nlohmann::json &machineConfig);

/// Reads a report written by `npusim run --report`; throws core::InputError
/// naming the file for a missing, unreadable or malformed one.
nlohmann::json readReport(const std::string &path);

/// The page of one run: model and machine summary, a sortable step table,
/// the roofline chart, unit utilisation and DRAM bandwidth over time, and the
/// verification result.
HtmlPage runPage(const nlohmann::json &report);

/// Per step and in total, which of two runs of one bundle is faster and by how
/// much. Steps are paired by index; a pair whose names differ is an error
/// (core::InputError) naming the step, as the runs are then not comparable.
struct StepComparison {
  size_t index = 0;
  std::string name;
  double timeA = 0.0, timeB = 0.0; // microseconds
  int64_t cyclesA = 0, cyclesB = 0;
  std::string boundA, boundB;
};
struct Comparison {
  std::string nameA, nameB; // "BUNDLE on MACHINE"
  std::vector<StepComparison> steps;
  double totalA = 0.0, totalB = 0.0; // microseconds
  int64_t cyclesA = 0, cyclesB = 0;
};
Comparison compareReports(const nlohmann::json &a, const nlohmann::json &b);
/// "B is 1.42x faster than A" / "A and B take the same time" for times a, b.
std::string verdict(double a, double b, const std::string &nameA, const std::string &nameB);
/// The terminal form: the total, then the `rows` steps with the largest
/// difference in time (all with rows = 0).
void printComparison(const Comparison &c, size_t rows, std::ostream &out);
HtmlPage comparePage(const Comparison &c);

} // namespace npusim::report
