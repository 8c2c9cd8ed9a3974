// Reading a sweep file and expanding it into machines.
#include "sweep/sweep_file.h"

#include "config/hardware.h"
#include "core/error.h"
#include "core/random.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <numeric>
#include <sstream>

namespace npusim::sweep {

namespace {

namespace fs = std::filesystem;

[[noreturn]] void fail(const std::string &file, const YAML::Node &node, const std::string &message) {
  const int line = node.Mark().line >= 0 ? node.Mark().line + 1 : 0; // yaml-cpp counts from 0
  throw core::InputError(file + ":" + std::to_string(line) + ": " + message);
}

std::string scalar(const std::string &file, const YAML::Node &node, const std::string &field) {
  if (!node.IsScalar() || node.Scalar().empty())
    fail(file, node, "'" + field + "': expected a value");
  return node.Scalar();
}

double numberOf(const std::string &file, const YAML::Node &node, const std::string &field) {
  const std::string text = scalar(file, node, field);
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

std::vector<std::string> bundleList(const std::string &file, const YAML::Node &node) {
  std::vector<std::string> bundles;
  const fs::path folder = fs::path(file).parent_path();
  const auto add = [&](const YAML::Node &n) {
    fs::path p = scalar(file, n, "bundles");
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
    fail(file, node, "'bundles': the list is empty");
  return bundles;
}

KeyRange keyRange(const std::string &file, const std::string &key, const YAML::Node &node) {
  KeyRange r;
  r.key = key;
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
        const std::string s = scalar(file, field.second, key + ".scale");
        if (s != "linear" && s != "log")
          fail(file, field.second, "'" + key + ".scale': expected linear or log, got '" + s + "'");
        r.log = s == "log";
      } else if (name == "round") {
        const std::string s = scalar(file, field.second, key + ".round");
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
             "round: none|integer|pow2}");
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
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw core::InputError(path + ": cannot read the sweep file");
  std::ostringstream content;
  content << in.rdbuf();
  YAML::Node root;
  try {
    root = YAML::Load(content.str());
  } catch (const YAML::Exception &e) {
    throw core::InputError(path + ":" + std::to_string(e.mark.line + 1) + ": malformed YAML: " + e.msg);
  }
  if (!root.IsMap())
    throw core::InputError(path +
                           ": a sweep file is a map (bundles, base, mode, grid, ranges, samples, ...)");
  SweepFile s;
  s.path = path;
  bool hasBundles = false;
  for (const auto &field : root) {
    const std::string name = field.first.Scalar();
    const YAML::Node &value = field.second;
    if (name == "bundles") {
      s.bundles = bundleList(path, value);
      hasBundles = true;
    } else if (name == "base") {
      s.base = scalar(path, value, name);
    } else if (name == "mode") {
      s.mode = scalar(path, value, name);
      if (s.mode != "timing" && s.mode != "full")
        fail(path, value, "'mode': expected timing or full (a sweep measures cycles), got '" + s.mode + "'");
    } else if (name == "grid" || name == "ranges") {
      if (!value.IsMap())
        fail(path, value, "'" + name + "': expected a map of configuration keys");
      for (const auto &entry : value) {
        const std::string key = entry.first.Scalar();
        checkKey(path, entry.first, key);
        for (const auto &[k, v] : s.grid)
          if (k == key)
            fail(path, entry.first, "'" + key + "' is varied twice");
        for (const KeyRange &r : s.ranges)
          if (r.key == key)
            fail(path, entry.first, "'" + key + "' is varied twice");
        if (name == "ranges") {
          s.ranges.push_back(keyRange(path, key, entry.second));
          continue;
        }
        std::vector<std::string> values;
        if (entry.second.IsSequence())
          for (const YAML::Node &v : entry.second)
            values.push_back(scalar(path, v, key));
        else
          values.push_back(scalar(path, entry.second, key));
        if (values.empty())
          fail(path, entry.second, "'" + key + "': the list is empty");
        s.grid.emplace_back(key, std::move(values));
      }
    } else if (name == "samples") {
      const double n = numberOf(path, value, name);
      if (n < 1 || n > 1e6 || n != std::floor(n))
        fail(path, value, "'samples': expected an integer from 1 to 1000000");
      s.samples = static_cast<int>(n);
    } else if (name == "sampling") {
      s.sampling = scalar(path, value, name);
      if (s.sampling != "random" && s.sampling != "latin")
        fail(path, value, "'sampling': expected random or latin, got '" + s.sampling + "'");
    } else if (name == "seed") {
      const double n = numberOf(path, value, name);
      if (n < 0 || n != std::floor(n) || n > 9.007199254740992e15)
        fail(path, value, "'seed': expected a non-negative integer");
      s.seed = static_cast<uint64_t>(n);
    } else {
      fail(path, field.first,
           "unknown field '" + name + "' (bundles, base, mode, grid, ranges, samples, sampling, seed)");
    }
  }
  if (!hasBundles)
    throw core::InputError(path + ": no 'bundles'");
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
  for (const auto &[key, values] : sweep.grid)
    keys.push_back(key);
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
      grid.emplace_back(sweep.grid[k].first, sweep.grid[k].second[digit[k]]);
    for (const Point &sample : samples) {
      Point p = grid;
      p.insert(p.end(), sample.begin(), sample.end());
      points.push_back(std::move(p));
    }
    size_t k = sweep.grid.size();
    while (k > 0 && ++digit[k - 1] == sweep.grid[k - 1].second.size())
      digit[--k] = 0;
    if (k == 0)
      break;
  }
  return points;
}

std::string configText(const SweepFile &sweep, const Point &point) {
  std::string text = "base: " + sweep.base + "\n";
  std::string timing;
  for (const auto &[key, value] : point) {
    if (key.starts_with("dram_timing."))
      timing += "  " + key.substr(12) + ": " + value + "\n";
    else
      text += key + ": " + value + "\n";
  }
  if (!timing.empty())
    text += "dram_timing:\n" + timing;
  return text;
}

} // namespace npusim::sweep
