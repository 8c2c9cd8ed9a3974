#pragma once
// Silicon validation (docs/validation.md): a suite file lists bundles and the
// cycles one real chip took on each; runSuite times every bundle on a machine
// configuration and states each workload's error and the mean absolute error.
#include "config/hardware.h"
#include "report/html_page.h"
#include "report/png_image.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace npusim::validation {

struct Workload {
  std::string name;         // "GEMM 1024^3"
  std::string bundle;       // the bundle directory, resolved against the suite's directory
  int64_t siliconCycles = 0;
  int line = 0;             // the suite file's line of its entry
};

struct Suite {
  std::string path;          // the suite file
  std::string title;         // "TPUv3 calibration set"
  std::string machine;       // the configuration the silicon is modelled by ("tpuv3-like")
  std::string source;        // where the silicon cycles come from
  double maxMaePercent = 0;  // runSuite's result fails a check above this
  std::vector<Workload> workloads;
};

/// Reads SUITE.yaml, or DIR/suite.yaml when given a directory. Throws
/// core::InputError naming the file and line of what is wrong.
Suite loadSuite(const std::string &path);

struct Row {
  Workload workload;
  bool ran = false;
  int64_t cycles = 0;         // simulated
  double errorPercent = 0.0;  // (cycles - silicon) / silicon * 100
  double wallSeconds = 0.0;
  std::string failure;        // when it did not run
};

struct Result {
  Suite suite;
  std::string machine;        // the configuration's name
  std::vector<Row> rows;
  int ran = 0, failed = 0;
  double maePercent = 0.0;    // mean |error| over the rows that ran
  double maxAbsErrorPercent = 0.0;
  /// Every workload ran and the MAE is at most the suite's limit.
  bool withinLimit() const { return failed == 0 && maePercent <= suite.maxMaePercent; }
};

struct Options {
  int threads = 0; // as runtime::RunOptions::threads
  /// Called before each workload with its index and the count.
  std::function<void(size_t index, size_t count, const std::string &name)> onWorkload;
};

/// Times every workload of the suite in timing mode on `machine`. A workload
/// that fails is a row with its failure; the others still run.
Result runSuite(const Suite &suite, const config::HardwareConfig &machine, const Options &options = {});

/// Derives ran, failed, the MAE and the largest error from the rows.
void summarise(Result &result);

/// The text table: workload, silicon cycles, simulated cycles, error; then
/// the MAE line.
std::string table(const Result &result);
/// The result as JSON (docs/validation.md, "Report").
std::string reportJson(const Result &result);
/// A page with the error chart, the simulated-against-silicon chart and the table.
report::HtmlPage page(const Result &result);
/// The error per workload as horizontal bars, with the +-20% band and the MAE.
report::RasterImage plot(const Result &result);

} // namespace npusim::validation
