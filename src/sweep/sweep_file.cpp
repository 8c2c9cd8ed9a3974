// Reading a sweep file and expanding it into machines.
#include "sweep/sweep_file.h"

#include "config/hardware.h"
#include "config/yaml_input.h"
#include "core/error.h"
#include "core/random.h"
#include "core/text_input.h"
#include "serving/llm.h"
#include "serving/scenario.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <numeric>
#include <sstream>

namespace npusim::sweep {

namespace {

namespace fs = std::filesystem;

/// `key`: the node's key, whose line an absent value (`lanes:`) is reported at.
[[noreturn]] void fail(const std::string &file, const YAML::Node &node, const std::string &message,
                       const YAML::Node &key = YAML::Node()) {
  throw core::InputError(file + ":" + std::to_string(config::yamlLine(node, key)) + ": " + message);
}

std::string scalar(const std::string &file, const YAML::Node &node, const std::string &field,
                   const YAML::Node &key = YAML::Node()) {
  if (!node.IsScalar() || node.Scalar().empty())
    fail(file, node, "'" + field + "': expected a value", key);
  return node.Scalar();
}

double numberOf(const std::string &file, const YAML::Node &node, const std::string &field,
                const YAML::Node &key = YAML::Node()) {
  const std::string text = scalar(file, node, field, key);
  size_t used = 0;
  double v = 0.0;
  try {
    v = std::stod(text, &used);
  } catch (const std::exception &) {
    used = 0;
  }
  if (used != text.size() || !std::isfinite(v))
    fail(file, node, "'" + field + "': expected a number, got '" + text + "'");
  return v;
}

void checkKey(const std::string &file, const YAML::Node &node, const std::string &key) {
  static const std::vector<std::string> known = [] {
    std::vector<std::string> names;
    for (const config::KeyInfo &k : config::configKeys())
      if (k.type != "map" && k.key != "base" && k.key != "name")
        names.push_back(k.key);
    return names;
  }();
  if (std::find(known.begin(), known.end(), key) == known.end())
    fail(file, node,
         "'" + key + "' is not a hardware configuration key that a sweep can vary (docs/config.md)");
}

std::vector<std::string> bundleList(const std::string &file, const YAML::Node &node, const YAML::Node &key) {
  std::vector<std::string> bundles;
  const fs::path folder = fs::path(file).parent_path();
  const auto add = [&](const YAML::Node &n) {
    fs::path p = scalar(file, n, "bundles", key);
    if (p.is_relative())
      p = folder / p;
    if (!fs::exists(p / "graph.json"))
      fail(file, n, "bundle '" + n.Scalar() + "': no " + (p / "graph.json").string());
    bundles.push_back(fs::weakly_canonical(p).string());
  };
  if (node.IsSequence()) {
    for (const YAML::Node &n : node)
      add(n);
  } else {
    add(node);
  }
  if (bundles.empty())
    fail(file, node, "'bundles': the list is empty", key);
  return bundles;
}

/// A scalar or a list of scalars, each with its node.
std::vector<YAML::Node> listOf(const YAML::Node &node) {
  std::vector<YAML::Node> items;
  if (node.IsSequence())
    for (const YAML::Node &n : node)
      items.push_back(n);
  else
    items.push_back(node);
  return items;
}

/// `scenarios:`: LLM serving scenarios, read by the serving module's own
/// reader, so that a sweep accepts exactly what `npusim serve` does.
std::vector<ScenarioSpec> scenarioList(const std::string &file, const YAML::Node &node,
                                       const YAML::Node &key) {
  std::vector<ScenarioSpec> scenarios;
  const fs::path folder = fs::path(file).parent_path();
  for (const YAML::Node &n : listOf(node)) {
    const std::string name = scalar(file, n, "scenarios", key);
    fs::path p = name;
    if (p.is_relative())
      p = folder / p;
    if (!fs::is_regular_file(p))
      fail(file, n, "scenario '" + name + "': no file " + p.string());
    ScenarioSpec spec;
    spec.path = fs::weakly_canonical(p).string();
    spec.line = config::yamlLine(n, key);
    serving::LlmScenario scenario;
    try {
      if (!serving::isLlmScenario(spec.path))
        fail(file, n,
             "scenario '" + name +
                 "': not an LLM scenario (no top-level `llm:` key); a sweep serves language models only");
      scenario = serving::loadLlmScenario(spec.path);
    } catch (const core::InputError &e) {
      const std::string message = e.what();
      if (message.starts_with(file + ":"))
        throw;
      fail(file, n, "scenario '" + name + "': " + message);
    }
    if (scenario.trace.arrival != "poisson")
      fail(file, n,
           "scenario '" + name + "': its requests come from " + scenario.trace.file + " (" +
               scenario.trace.where + "); a sweep varies the rate of Poisson arrivals");
    for (const serving::LlmBundleSpec *b : {&scenario.prefill, &scenario.decode}) {
      if (!fs::exists(fs::path(b->bundle) / "graph.json"))
        fail(file, n, "scenario '" + name + "': bundle " + b->bundle + " (" + b->where + "): no graph.json");
      spec.bundles.push_back(fs::weakly_canonical(b->bundle).string());
    }
    spec.ratePerSecond = scenario.trace.ratePerSecond;
    spec.count = scenario.trace.count;
    scenarios.push_back(std::move(spec));
  }
  if (scenarios.empty())
    fail(file, node, "'scenarios': the list is empty", key);
  return scenarios;
}

/// `requests:`: the rates and request counts at which every scenario runs.
void requestGrid(const std::string &file, const YAML::Node &node, const YAML::Node &key, SweepFile &s) {
  if (!node.IsMap())
    fail(file, node, "'requests': expected a map (rate_per_s, count)", key);
  for (const auto &field : node) {
    const std::string name = field.first.Scalar();
    const std::string where = "requests." + name;
    if (name != "rate_per_s" && name != "count")
      fail(file, field.first, "'requests': unknown field '" + name + "' (rate_per_s, count)");
    const std::vector<YAML::Node> items = listOf(field.second);
    if (items.empty())
      fail(file, field.second, "'" + where + "': the list is empty", field.first);
    for (const YAML::Node &n : items) {
      const double v = numberOf(file, n, where, field.first);
      if (name == "rate_per_s") {
        if (!(v >= serving::kMinLlmRatePerSecond && v <= serving::kMaxLlmRatePerSecond))
          fail(file, n,
               "'" + where + "': " + n.Scalar() + " is out of range (1e-06 .. 1e+12 requests per second)");
        s.rates.push_back(v);
      } else {
        if (v < 1 || v > static_cast<double>(serving::kMaxRequests) || v != std::floor(v))
          fail(file, n, "'" + where + "': expected an integer from 1 to 1000000, got '" + n.Scalar() + "'");
        s.counts.push_back(static_cast<int64_t>(v));
      }
    }
  }
}

KeyRange keyRange(const std::string &file, const std::string &key, const YAML::Node &node,
                  const YAML::Node &keyNode) {
  KeyRange r;
  r.key = key;
  r.line = config::yamlLine(node, keyNode);
  YAML::Node low, high;
  if (node.IsSequence() && node.size() == 2) {
    low = node[0];
    high = node[1];
  } else if (node.IsMap()) {
    for (const auto &field : node) {
      const std::string name = field.first.Scalar();
      if (name == "min")
        low = field.second;
      else if (name == "max")
        high = field.second;
      else if (name == "scale") {
        const std::string s = scalar(file, field.second, key + ".scale", field.first);
        if (s != "linear" && s != "log")
          fail(file, field.second, "'" + key + ".scale': expected linear or log, got '" + s + "'");
        r.log = s == "log";
      } else if (name == "round") {
        const std::string s = scalar(file, field.second, key + ".round", field.first);
        if (s == "integer")
          r.rounding = KeyRange::Rounding::Integer;
        else if (s == "pow2")
          r.rounding = KeyRange::Rounding::PowerOfTwo;
        else if (s != "none")
          fail(file, field.second, "'" + key + ".round': expected none, integer or pow2, got '" + s + "'");
      } else {
        fail(file, field.first, "'" + key + "': unknown field '" + name + "' (min, max, scale, round)");
      }
    }
  }
  if (!low || !high)
    fail(file, node,
         "'" + key +
             "': a range is [MIN, MAX] or {min: MIN, max: MAX, scale: linear|log, "
             "round: none|integer|pow2}",
         keyNode);
  r.min = numberOf(file, low, key + " min");
  r.max = numberOf(file, high, key + " max");
  if (!(r.min <= r.max) || (r.log && r.min <= 0.0))
    fail(file, node,
         "'" + key + "': needs min <= max" + std::string(r.log ? " and min > 0 on a log scale" : ""));
  // A key whose values are integers in docs/config.md is rounded unless told otherwise.
  if (r.rounding == KeyRange::Rounding::None)
    for (const config::KeyInfo &k : config::configKeys())
      if (k.key == key && k.type == "integer")
        r.rounding = KeyRange::Rounding::Integer;
  return r;
}

/// A stream of well-mixed 64-bit values from one seed (SplitMix64).
struct Random {
  core::SplitMix64Stream bits;
  uint64_t next() { return bits.next(); }
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; } // [0, 1)
};

std::string valueText(const KeyRange &r, double u) {
  double v = r.log ? std::exp(std::log(r.min) + u * (std::log(r.max) - std::log(r.min)))
                   : r.min + u * (r.max - r.min);
  std::ostringstream text;
  switch (r.rounding) {
  case KeyRange::Rounding::PowerOfTwo:
    text << static_cast<long long>(std::exp2(std::round(std::log2(std::max(v, 1.0)))));
    break;
  case KeyRange::Rounding::Integer: text << static_cast<long long>(std::llround(v)); break;
  case KeyRange::Rounding::None:
    text.precision(6);
    text << v;
    break;
  }
  return text.str();
}

} // namespace

SweepFile loadSweepFile(const std::string &path) {
  const YAML::Node root = config::parseYamlDocument(core::readTextFile(path, "sweep file"), path);
  if (!root.IsMap())
    throw core::InputError(
        path +
        ": a sweep file is a map (bundles, scenarios, requests, base, mode, grid, ranges, samples, ...)");
  SweepFile s;
  s.path = path;
  bool hasBundles = false;
  int requestsLine = 0;
  for (const auto &field : root) {
    const std::string name = field.first.Scalar();
    const YAML::Node &value = field.second;
    if (name == "bundles") {
      s.bundles = bundleList(path, value, field.first);
      hasBundles = true;
    } else if (name == "scenarios") {
      s.scenarios = scenarioList(path, value, field.first);
    } else if (name == "requests") {
      requestGrid(path, value, field.first, s);
      requestsLine = config::yamlLine(value, field.first);
    } else if (name == "base") {
      s.base = scalar(path, value, name, field.first);
      s.baseLine = config::yamlLine(value, field.first);
    } else if (name == "mode") {
      s.mode = scalar(path, value, name, field.first);
      if (s.mode != "timing" && s.mode != "full")
        fail(path, value, "'mode': expected timing or full (a sweep measures cycles), got '" + s.mode + "'");
    } else if (name == "grid" || name == "ranges") {
      if (!value.IsMap())
        fail(path, value, "'" + name + "': expected a map of configuration keys", field.first);
      for (const auto &entry : value) {
        const std::string key = entry.first.Scalar();
        checkKey(path, entry.first, key);
        for (const GridKey &g : s.grid)
          if (g.key == key)
            fail(path, entry.first, "'" + key + "' is varied twice");
        for (const KeyRange &r : s.ranges)
          if (r.key == key)
            fail(path, entry.first, "'" + key + "' is varied twice");
        if (name == "ranges") {
          s.ranges.push_back(keyRange(path, key, entry.second, entry.first));
          continue;
        }
        GridKey grid{key, {}, {}};
        const auto add = [&](const YAML::Node &v) {
          grid.values.push_back(scalar(path, v, key, entry.first));
          grid.lines.push_back(config::yamlLine(v, entry.first));
        };
        if (entry.second.IsSequence())
          for (const YAML::Node &v : entry.second)
            add(v);
        else
          add(entry.second);
        if (grid.values.empty())
          fail(path, entry.second, "'" + key + "': the list is empty", entry.first);
        s.grid.push_back(std::move(grid));
      }
    } else if (name == "samples") {
      const double n = numberOf(path, value, name, field.first);
      if (n < 1 || n > 1e6 || n != std::floor(n))
        fail(path, value, "'samples': expected an integer from 1 to 1000000");
      s.samples = static_cast<int>(n);
    } else if (name == "sampling") {
      s.sampling = scalar(path, value, name, field.first);
      if (s.sampling != "random" && s.sampling != "latin")
        fail(path, value, "'sampling': expected random or latin, got '" + s.sampling + "'");
    } else if (name == "seed") {
      const double n = numberOf(path, value, name, field.first);
      if (n < 0 || n != std::floor(n) || n > 9.007199254740992e15)
        fail(path, value, "'seed': expected a non-negative integer");
      s.seed = static_cast<uint64_t>(n);
    } else {
      fail(path, field.first,
           "unknown field '" + name +
               "' (bundles, scenarios, requests, base, mode, grid, ranges, samples, sampling, seed)");
    }
  }
  if (!hasBundles && s.scenarios.empty())
    throw core::InputError(path + ": no 'bundles' or 'scenarios': nothing to run");
  if (requestsLine > 0 && s.scenarios.empty())
    throw core::InputError(path + ":" + std::to_string(requestsLine) +
                           ": 'requests' without 'scenarios': the rates are those of LLM serving scenarios");
  if (!s.ranges.empty() && s.samples == 0)
    throw core::InputError(path + ": 'ranges' need 'samples': how many machines to draw");
  if (s.ranges.empty() && s.samples > 0)
    throw core::InputError(path + ": 'samples' without 'ranges': nothing to sample");
  return s;
}

std::string describe(const Point &point) {
  std::string text;
  for (const auto &[key, value] : point)
    text += (text.empty() ? "" : " ") + key + "=" + value;
  return text;
}

std::vector<std::string> variedKeys(const SweepFile &sweep) {
  std::vector<std::string> keys;
  for (const GridKey &g : sweep.grid)
    keys.push_back(g.key);
  for (const KeyRange &r : sweep.ranges)
    keys.push_back(r.key);
  return keys;
}

std::vector<Point> expandPoints(const SweepFile &sweep) {
  // The samples first: each range key gets one value per sample.
  std::vector<Point> samples(static_cast<size_t>(std::max(sweep.samples, 1)));
  Random random{{sweep.seed}};
  const size_t n = static_cast<size_t>(sweep.samples);
  for (const KeyRange &r : sweep.ranges) {
    // Latin hypercube: each key's range cut in n strata, each stratum used
    // once, the strata shuffled per key (Fisher-Yates).
    std::vector<size_t> strata(n);
    std::iota(strata.begin(), strata.end(), size_t{0});
    if (sweep.sampling == "latin")
      for (size_t i = n; i > 1; --i)
        std::swap(strata[i - 1], strata[random.next() % i]);
    for (size_t i = 0; i < n; ++i) {
      const double u = sweep.sampling == "latin"
                           ? (static_cast<double>(strata[i]) + random.uniform()) / double(n)
                           : random.uniform();
      samples[i].emplace_back(r.key, valueText(r, u));
    }
  }
  std::vector<Point> points;
  std::vector<size_t> digit(sweep.grid.size(), 0);
  while (true) {
    Point grid;
    for (size_t k = 0; k < sweep.grid.size(); ++k)
      grid.emplace_back(sweep.grid[k].key, sweep.grid[k].values[digit[k]]);
    for (const Point &sample : samples) {
      Point p = grid;
      p.insert(p.end(), sample.begin(), sample.end());
      points.push_back(std::move(p));
    }
    size_t k = sweep.grid.size();
    while (k > 0 && ++digit[k - 1] == sweep.grid[k - 1].values.size())
      digit[--k] = 0;
    if (k == 0)
      break;
  }
  return points;
}

std::string configText(const SweepFile &sweep, const Point &point, std::vector<int> *sweepLines) {
  // The sweep file's line of a point's value: the grid value's or the range's.
  const auto lineOf = [&sweep](const std::string &key, const std::string &value) {
    for (const GridKey &g : sweep.grid)
      if (g.key == key)
        for (size_t i = 0; i < g.values.size(); ++i)
          if (g.values[i] == value)
            return g.lines[i];
    for (const KeyRange &r : sweep.ranges)
      if (r.key == key)
        return r.line;
    return 0;
  };
  std::vector<int> lines{sweep.baseLine};
  std::vector<int> timingLines;
  std::string text = "base: " + sweep.base + "\n";
  std::string timing;
  for (const auto &[key, value] : point) {
    if (key.starts_with("dram_timing.")) {
      timing += "  " + key.substr(12) + ": " + value + "\n";
      timingLines.push_back(lineOf(key, value));
    } else {
      text += key + ": " + value + "\n";
      lines.push_back(lineOf(key, value));
    }
  }
  if (!timing.empty()) {
    text += "dram_timing:\n" + timing;
    lines.push_back(0);
    lines.insert(lines.end(), timingLines.begin(), timingLines.end());
  }
  if (sweepLines)
    *sweepLines = std::move(lines);
  return text;
}

config::HardwareConfig pointMachine(const SweepFile &sweep, const Point &point) {
  std::vector<int> lines;
  const std::string text = configText(sweep, point, &lines);
  try {
    return config::parseConfig(text, sweep.path);
  } catch (const core::InputError &e) {
    // The configuration's errors name its own lines ("FILE:LINE: ..." and
    // "(line N, ..."): those of the sweep file are meant.
    const auto sweepLine = [&lines](const std::string &number) {
      const size_t n = std::stoul(number);
      return n >= 1 && n <= lines.size() && lines[n - 1] > 0 ? std::to_string(lines[n - 1]) : number;
    };
    std::string message = e.what();
    const std::string prefix = sweep.path + ":";
    if (message.starts_with(prefix)) {
      const size_t digits = message.find_first_not_of("0123456789", prefix.size());
      if (digits != std::string::npos && digits > prefix.size() && message[digits] == ':')
        message = prefix + sweepLine(message.substr(prefix.size(), digits - prefix.size())) +
                  message.substr(digits);
    }
    const std::string lineWord = "(line ";
    for (size_t at = message.find(lineWord); at != std::string::npos; at = message.find(lineWord, at + 1)) {
      const size_t from = at + lineWord.size();
      const size_t to = message.find_first_not_of("0123456789", from);
      if (to != std::string::npos && to > from && message[to] == ',')
        message.replace(from, to - from, sweepLine(message.substr(from, to - from)));
    }
    throw core::InputError(message);
  }
}

} // namespace npusim::sweep
