#pragma once
// A design-study sweep file (docs/sweeps.md): bundles, a base machine, the
// hardware keys to vary as a grid of lists and/or ranges sampled at random or
// by Latin hypercube, and the run mode.
#include "config/hardware.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace npusim::sweep {

/// One key varied over a range: `count` samples (SweepFile::samples) between
/// min and max, on a linear or log scale, rounded to integers or powers of two.
struct KeyRange {
  std::string key;
  int line = 0; // of the range in the sweep file
  double min = 0.0, max = 0.0;
  bool log = false;
  enum class Rounding { None, Integer, PowerOfTwo } rounding = Rounding::None;
};

/// One key of the grid: its values as YAML scalars and the line of each.
struct GridKey {
  std::string key;
  std::vector<std::string> values;
  std::vector<int> lines;
};

/// An LLM serving scenario of the sweep (a scenario file with a top-level
/// `llm:` key and Poisson arrivals; docs/sweeps.md, "LLM serving").
struct ScenarioSpec {
  std::string path; // absolute (a relative one starts from the sweep file's folder)
  int line = 0;     // of its entry in the sweep file
  /// Its prefill and decode bundles (absolute): their content is part of a task's key.
  std::vector<std::string> bundles;
  double ratePerSecond = 0.0; // its own requests.rate_per_s and requests.count, used
  int64_t count = 0;          // where the sweep's `requests:` does not vary them
};

struct SweepFile {
  std::string path;
  std::vector<std::string> bundles;         // absolute paths (relative ones start from the file's folder)
  std::vector<ScenarioSpec> scenarios;      // run by `npusim serve` on every machine
  /// `requests: {rate_per_s: [...], count: [...]}`: every scenario runs at each
  /// (rate, count), the last varying fastest; empty: the scenario's own.
  std::vector<double> rates;
  std::vector<int64_t> counts;
  std::string base{config::kDefaultPreset}; // a preset or a file (relative to the file's folder)
  int baseLine = 0;                         // 0: not given
  std::string mode = "timing";              // timing or full (cycles are what a sweep is for)
  /// Grid keys in file order: every combination runs.
  std::vector<GridKey> grid;
  std::vector<KeyRange> ranges;
  std::string sampling = "latin"; // "random" or "latin"
  int samples = 0;
  uint64_t seed = 0;
};

/// Reads and checks a sweep file: throws core::InputError naming the file, the
/// line and the field (unknown field, a key that is not a configuration key,
/// an empty list, a bad range, a missing bundle, a scenario that is not an
/// LLM scenario of Poisson arrivals, a rate or count out of range).
SweepFile loadSweepFile(const std::string &path);

/// One machine of the sweep: each varied key with its value as YAML text, in
/// the order of variedKeys().
using Point = std::vector<std::pair<std::string, std::string>>;

/// "KEY=VALUE KEY=VALUE", for messages and hover titles.
std::string describe(const Point &point);

/// The grid keys, then the range keys.
std::vector<std::string> variedKeys(const SweepFile &sweep);

/// The grid's combinations (the last key varying fastest), each combined with
/// every sample of the ranges. Samples depend only on the seed, the ranges and
/// their order: the same file gives the same points on every machine.
std::vector<Point> expandPoints(const SweepFile &sweep);

/// The configuration file of one point: `base:` and the point's keys
/// (`dram_timing.KEY` under a `dram_timing:` map). `sweepLines`, when given,
/// gets for each of its lines the sweep file's line it comes from (0: none).
std::string configText(const SweepFile &sweep, const Point &point, std::vector<int> *sweepLines = nullptr);

/// The machine of one point: configText resolved and checked as any
/// configuration. Throws core::InputError naming the sweep file and the line
/// of the value at fault (`s.yaml:5: key 'lanes': '96' must be a power of
/// two`); an error in the base's own file names that file.
config::HardwareConfig pointMachine(const SweepFile &sweep, const Point &point);

} // namespace npusim::sweep
