#pragma once
// The results of a sweep: one row per task from its records, DIR/results.csv
// and the plots of DIR/report.html (docs/sweeps.md lists the columns).
#include "report/html_page.h"
#include "sweep/tasks.h"

#include <optional>
#include <string>
#include <vector>

namespace npusim::sweep {

/// The units of `unit_busy_percent`, as the CSV's busy_* columns name them.
inline const char *const kUnits[] = {"scalar", "dma", "vector", "cross-lane", "systolic"};

/// An LLM scenario task's results, from `npusim serve --report`'s JSON
/// (docs/serving.md, "LLM serving"): latencies in microseconds.
struct LlmColumns {
  double ttftP50 = 0.0, ttftP90 = 0.0, ttftP99 = 0.0;
  double tpotP50 = 0.0, tpotP90 = 0.0, tpotP99 = 0.0;
  double e2eP50 = 0.0, e2eP90 = 0.0, e2eP99 = 0.0;
  double tokensPerSecond = 0.0, outputTokensPerSecond = 0.0, makespanUs = 0.0;
  int64_t requestsCompleted = 0, preemptions = 0, peakBatch = 0;
  double energyUj = 0.0, energyPerOutputTokenUj = 0.0; // the whole scenario's
};

struct ResultRow {
  std::string key, bundle, model; // model: the bundle folder's name, or the scenario file's stem
  /// A scenario task's scenario, rate and request count (empty and absent for a bundle task).
  std::string scenario;
  std::optional<double> ratePerSecond;
  std::optional<int64_t> count;
  std::optional<LlmColumns> llm; // a scenario task that finished ok
  Point point;
  std::string status = "pending"; // ok, failed, or pending (not run yet)
  int64_t cycles = 0;
  double timeUs = 0.0;
  double busyPercent[std::size(kUnits)] = {}; // time-weighted over the timed steps
  int64_t dramBytes = 0;
  double dramGBs = 0.0;       // DRAM bytes / simulated time
  double rooflineRatio = 0.0; // simulated time / the sum of the steps' roofline bounds
  double peakFlops = 0.0, peakDramBytesPerSecond = 0.0;
  int64_t spadBytes = 0;
  /// The run's energy (docs/energy.md): total, over the simulated time, and
  /// useful FLOPs (2 per MAC) per joule, GFLOP/s per W; 0 without energy.
  double energyUj = 0.0, averageWatts = 0.0, gflopsPerWatt = 0.0;
  /// A language model's energy per token and the tokens it divides by (the
  /// report's `energy.energy_per_token_uj`, docs/energy.md); absent for any
  /// other bundle, and the CSV cell is then empty, never a zero.
  std::optional<double> energyPerTokenUj;
  std::optional<int64_t> tokens;
  int64_t macs = 0;
  double wallSeconds = 0.0;
  std::string error;
};

/// The row of each task, in task order, from the records under `outDir`.
std::vector<ResultRow> collectResults(const std::vector<Task> &tasks, const std::vector<Point> &points,
                                      const std::string &outDir);

/// The CSV text: a header, then one line per row (RFC 4180 quoting). With a
/// scenario row, the scenario's columns (scenario, rate_per_s, count) follow
/// `bundle` and the LLM columns (ttft_p50_us, ...) come before `wall_s`; each
/// kind of row leaves the other kind's columns empty.
std::string resultsCsv(const std::vector<std::string> &keys, const std::vector<ResultRow> &rows);

/// Each varied key against time per model, the Pareto fronts of time against
/// peak FLOP/s, scratchpad bytes and energy, per-unit utilisation (for bundle
/// tasks); TPOT and TTFT against arrival rate, one line per machine (for
/// scenario tasks); and the table.
report::HtmlPage sweepPage(const std::string &title, const std::vector<std::string> &keys,
                           const std::vector<ResultRow> &rows);

} // namespace npusim::sweep
