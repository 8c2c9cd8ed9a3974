// Reading configurations: YAML text -> keys checked against the key table ->
// layers (a `base:` chain) merged -> HardwareConfig. Every error is a
// core::InputError "FILE:LINE: key 'KEY': message".
#include "config/embedded.h"
#include "config/hardware.h"
#include "config/keys.h"
#include "config/yaml_input.h"
#include "core/error.h"
#include "core/text_input.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace npusim::config {
namespace {

using detail::Field;
using detail::Value;
using detail::ValueKind;

namespace fs = std::filesystem;

/// A base chain deeper than this is a cycle or a mistake.
constexpr int kMaxBaseDepth = 16;

[[noreturn]] void fail(const std::string &file, int line, const std::string &message) {
  std::string where = file;
  if (line > 0)
    where += ":" + std::to_string(line);
  throw core::InputError(where + ": " + message);
}

int lineOf(const YAML::Node &node, const YAML::Node &key = YAML::Node()) {
  return yamlLine(node, key);
}

/// A map key as text; a list or map used as a key is an error, not a YAML exception.
std::string keyName(const YAML::Node &key, const std::string &file) {
  if (!key.IsScalar())
    fail(file, lineOf(key),
         "expected a key name, got a " + std::string(key.IsMap()        ? "map"
                                                     : key.IsSequence() ? "list"
                                                                        : "null"));
  return key.Scalar();
}

/// Edit distance, for "did you mean".
size_t distance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j)
    row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

/// " (did you mean 'X'?)" for the closest candidate, or "" when none is close.
std::string suggestion(std::string_view word, const std::vector<std::string> &candidates) {
  const std::string *best = nullptr;
  size_t bestDistance = std::max<size_t>(2, word.size() / 3) + 1;
  for (const std::string &c : candidates) {
    const size_t d = distance(word, c);
    if (d < bestDistance) {
      bestDistance = d;
      best = &c;
    }
  }
  return best ? " (did you mean '" + *best + "'?)" : "";
}

std::vector<std::string> allKeyNames() {
  std::vector<std::string> names{std::string(detail::kBaseKey), std::string(detail::kTimingKey)};
  for (const auto &f : detail::hardwareFields())
    names.emplace_back(f.key);
  for (const auto &f : detail::timingFields())
    names.push_back(std::string(detail::kTimingKey) + "." + std::string(f.key));
  return names;
}

std::vector<std::string> namesOf(std::span<const detail::EmbeddedFile> files) {
  std::vector<std::string> names;
  for (const auto &f : files)
    names.emplace_back(f.name);
  std::sort(names.begin(), names.end());
  return names;
}

const detail::EmbeddedFile *findEmbedded(std::span<const detail::EmbeddedFile> files, std::string_view name) {
  for (const auto &f : files)
    if (f.name == name)
      return &f;
  return nullptr;
}

YAML::Node parseYaml(std::string_view text, const std::string &file) {
  return parseYamlDocument(text, file);
}

/// A scalar of the field's kind, in range; errors name the file, line and key.
template <class T>
Value parseValue(const Field<T> &field, const YAML::Node &node, const YAML::Node &key,
                 const std::string &file, const std::string &keyName) {
  const std::string prefix = "key '" + keyName + "': ";
  if (!node.IsScalar())
    fail(file, lineOf(node, key),
         prefix + "expected a single value, got " +
             (node.IsMap()        ? "a map"
              : node.IsSequence() ? "a list"
                                  : "nothing"));
  const std::string &text = node.Scalar();
  Value value;
  // YAML allows a leading '+' on numbers; std::from_chars does not.
  const char *begin = text.data() + (text.starts_with('+') ? 1 : 0);
  const char *end = text.data() + text.size();
  if (field.kind == ValueKind::Integer) {
    int64_t n = 0;
    const auto r = std::from_chars(begin, end, n);
    if (r.ec != std::errc() || r.ptr != end || begin == end || text.starts_with("+-"))
      fail(file, lineOf(node), prefix + "expected an integer, got '" + text + "'");
    value = n;
    if (static_cast<double>(n) < field.min || static_cast<double>(n) > field.max)
      fail(file, lineOf(node), prefix + text + " is out of range (" + detail::rangeText(field) + ")");
  } else if (field.kind == ValueKind::Real) {
    double x = 0;
    const auto r = std::from_chars(begin, end, x);
    if (r.ec != std::errc() || r.ptr != end || begin == end || text.starts_with("+-") || !std::isfinite(x))
      fail(file, lineOf(node), prefix + "expected a number, got '" + text + "'");
    value = x;
    if (x < field.min || x > field.max)
      fail(file, lineOf(node), prefix + text + " is out of range (" + detail::rangeText(field) + ")");
  } else {
    if (text.empty())
      fail(file, lineOf(node), prefix + "expected a word, got nothing");
    value = text;
  }
  if (field.check) {
    const std::string problem = field.check(value);
    if (!problem.empty())
      fail(file, lineOf(node), prefix + "'" + text + "' " + problem);
  }
  return value;
}

/// One key's value and where it was written; `layer` orders a base chain
/// (a base's keys have lower layers than the file that names it).
struct Setting {
  Value value;
  std::string file;
  int line = 0;
  int layer = 0;
};

struct Layers {
  std::map<std::string, Setting, std::less<>> top;    // hardware keys
  std::map<std::string, Setting, std::less<>> timing; // dram_timing keys
  int nextLayer = 0;
};

template <class T> const Field<T> *findField(std::span<const Field<T>> fields, std::string_view key) {
  for (const Field<T> &f : fields)
    if (f.key == key)
      return &f;
  return nullptr;
}

void collect(std::string_view text, const std::string &file, int depth, Layers &layers);

/// `base: NAME_OR_PATH`: a preset, or a file relative to the one that names it.
void collectBase(const YAML::Node &node, const YAML::Node &key, const std::string &file, int depth,
                 Layers &layers) {
  if (!node.IsScalar() || node.Scalar().empty())
    fail(file, lineOf(node, key), "key 'base': expected a preset name or a file path");
  if (depth >= kMaxBaseDepth)
    fail(file, lineOf(node),
         "key 'base': more than " + std::to_string(kMaxBaseDepth) + " bases in a chain (a cycle?)");
  const std::string &name = node.Scalar();
  const bool isPath =
      name.find('/') != std::string::npos || name.ends_with(".yaml") || name.ends_with(".yml");
  if (!isPath) {
    const auto *preset = findEmbedded(detail::embeddedPresets(), name);
    if (!preset)
      fail(file, lineOf(node),
           "key 'base': unknown preset '" + name + "'" +
               suggestion(name, namesOf(detail::embeddedPresets())));
    collect(preset->text, "preset:" + name, depth + 1, layers);
    return;
  }
  fs::path path = name;
  if (path.is_relative() && !file.starts_with("preset:"))
    path = fs::path(file).parent_path() / path;
  std::string content;
  try {
    content = core::readTextFile(path.string(), "configuration file");
  } catch (const core::InputError &e) {
    fail(file, lineOf(node), "key 'base': " + std::string(e.what()));
  }
  collect(content, path.string(), depth + 1, layers);
}

void collect(std::string_view text, const std::string &file, int depth, Layers &layers) {
  const YAML::Node root = parseYaml(text, file);
  if (root.IsNull())
    return; // an empty file: nothing to override
  if (!root.IsMap())
    fail(file, lineOf(root), "expected a map of 'key: value' lines");
  std::set<std::string, std::less<>> seen;
  for (const auto &entry : root) {
    const std::string key = keyName(entry.first, file);
    if (!seen.insert(key).second)
      fail(file, lineOf(entry.first), "key '" + key + "' given twice");
  }
  // The base first, so that this file's keys override it wherever they appear.
  for (const auto &entry : root)
    if (entry.first.Scalar() == detail::kBaseKey)
      collectBase(entry.second, entry.first, file, depth, layers);
  const int layer = layers.nextLayer++;
  const auto hardware = detail::hardwareFields();
  const auto timing = detail::timingFields();
  for (const auto &entry : root) {
    const std::string key = keyName(entry.first, file);
    const int keyLine = lineOf(entry.first);
    if (key == detail::kBaseKey)
      continue;
    if (key == detail::kTimingKey) {
      const YAML::Node &map = entry.second;
      if (map.IsNull())
        continue;
      if (!map.IsMap())
        fail(file, lineOf(map, entry.first), "key 'dram_timing': expected a map of timing keys");
      std::set<std::string, std::less<>> seenTiming;
      for (const auto &sub : map) {
        const std::string subKey = keyName(sub.first, file);
        const std::string fullKey = std::string(detail::kTimingKey) + "." + subKey;
        if (!seenTiming.insert(subKey).second)
          fail(file, lineOf(sub.first), "key '" + fullKey + "' given twice");
        const Field<DramTiming> *f = findField(timing, subKey);
        if (!f)
          fail(file, lineOf(sub.first), "unknown key '" + fullKey + "'" + suggestion(fullKey, allKeyNames()));
        layers.timing[subKey] = {parseValue(*f, sub.second, sub.first, file, fullKey), file,
                                 lineOf(sub.first), layer};
      }
      continue;
    }
    const Field<HardwareConfig> *f = findField(hardware, key);
    if (!f) {
      // A timing key written at the top level suggests its dram_timing.* form.
      std::string hint = suggestion(key, allKeyNames());
      if (hint.empty() && findField(timing, key))
        hint = " (did you mean 'dram_timing." + key + "'?)";
      fail(file, keyLine, "unknown key '" + key + "'" + hint);
    }
    layers.top[key] = {parseValue(*f, entry.second, entry.first, file, key), file, keyLine, layer};
  }
}

/// A DRAM set file: every timing key, nothing else.
DramTiming parseDramSet(const detail::EmbeddedFile &set) {
  const std::string file = "dram:" + std::string(set.name);
  const YAML::Node root = parseYaml(set.text, file);
  if (!root.IsMap())
    fail(file, lineOf(root), "expected a map of timing keys");
  DramTiming timing;
  timing.name = std::string(set.name);
  std::set<std::string, std::less<>> seen;
  for (const auto &entry : root) {
    const std::string key = keyName(entry.first, file);
    const Field<DramTiming> *f = findField(detail::timingFields(), key);
    if (!f)
      fail(file, lineOf(entry.first), "unknown key '" + key + "'" + suggestion(key, allKeyNames()));
    if (!seen.insert(key).second)
      fail(file, lineOf(entry.first), "key '" + key + "' given twice");
    f->set(timing, parseValue(*f, entry.second, entry.first, file, key));
  }
  for (const Field<DramTiming> &f : detail::timingFields())
    if (!seen.contains(f.key))
      fail(file, 0, "missing key '" + std::string(f.key) + "' (a DRAM set gives every timing key)");
  return timing;
}

std::string defaultName(const std::string &sourceName) {
  if (sourceName.starts_with("preset:"))
    return sourceName.substr(7);
  return fs::path(sourceName).stem().string();
}

HardwareConfig resolve(const Layers &layers, const std::string &sourceName) {
  HardwareConfig config;
  config.name = defaultName(sourceName);
  config.source = sourceName;

  const auto setIt = layers.top.find(detail::kDramSetKey);
  const std::string setName = setIt == layers.top.end() ? std::string(detail::kDefaultDramSet)
                                                        : std::get<std::string>(setIt->second.value);
  const auto *set = findEmbedded(detail::embeddedDramSets(), setName);
  if (!set && setIt == layers.top.end())
    throw core::InputError("the default DRAM timing set '" + setName + "' is not built in");
  if (!set)
    fail(setIt->second.file, setIt->second.line,
         "key 'dram': unknown DRAM timing set '" + setName + "'" +
             suggestion(setName, namesOf(detail::embeddedDramSets())));
  config.dram.timing = parseDramSet(*set);

  for (const Field<HardwareConfig> &f : detail::hardwareFields()) {
    const auto it = layers.top.find(f.key);
    if (it != layers.top.end() && f.key != detail::kDramSetKey)
      f.set(config, it->second.value);
  }
  for (const Field<DramTiming> &f : detail::timingFields()) {
    const auto it = layers.timing.find(f.key);
    if (it != layers.timing.end())
      f.set(config.dram.timing, it->second.value);
  }

  // The DRAM clock: dram_freq_mhz and dram_timing.tck_ps say the same thing. The
  // later layer wins; in one layer they must agree.
  const auto freq = layers.top.find(detail::kDramFreqKey);
  const auto tck = layers.timing.find(detail::kTckKey);
  const bool haveFreq = freq != layers.top.end();
  const bool haveTck = tck != layers.timing.end();
  if (haveFreq && haveTck && freq->second.layer == tck->second.layer) {
    const double implied = 1e6 / config.dram.freqMhz;
    if (std::abs(implied - config.dram.timing.tckPs) > 1e-9 * implied)
      fail(tck->second.file, tck->second.line,
           "key 'dram_timing.tck_ps': " + detail::formatValue(tck->second.value) +
               " ps disagrees with dram_freq_mhz " + detail::formatValue(freq->second.value) + " (line " +
               std::to_string(freq->second.line) + ", 1e6 / MHz = " + detail::formatValue(implied) +
               " ps); give one of them");
  } else if (haveFreq && (!haveTck || freq->second.layer > tck->second.layer)) {
    config.dram.timing.tckPs = 1e6 / config.dram.freqMhz;
  } else {
    config.dram.freqMhz = 1e6 / config.dram.timing.tckPs;
  }
  return config;
}

} // namespace

std::vector<std::string> presetNames() {
  return namesOf(detail::embeddedPresets());
}

std::vector<std::string> dramTimingNames() {
  return namesOf(detail::embeddedDramSets());
}

std::vector<std::string> energyTableNames() {
  return namesOf(detail::embeddedEnergyTables());
}

std::string_view energyTableText(const std::string &name) {
  const auto *table = findEmbedded(detail::embeddedEnergyTables(), name);
  if (!table)
    throw core::InputError("unknown energy table '" + name + "'" +
                           suggestion(name, namesOf(detail::embeddedEnergyTables())));
  return table->text;
}

DramTiming dramTiming(const std::string &name) {
  const auto *set = findEmbedded(detail::embeddedDramSets(), name);
  if (!set)
    throw core::InputError("unknown DRAM timing set '" + name + "'" +
                           suggestion(name, namesOf(detail::embeddedDramSets())));
  return parseDramSet(*set);
}

HardwareConfig parseConfig(std::string_view yamlText, const std::string &sourceName) {
  Layers layers;
  collect(yamlText, sourceName, 0, layers);
  return resolve(layers, sourceName);
}

HardwareConfig loadConfig(const std::string &nameOrPath) {
  const bool isPath = nameOrPath.find('/') != std::string::npos || nameOrPath.ends_with(".yaml") ||
                      nameOrPath.ends_with(".yml");
  if (!isPath) {
    const auto *preset = findEmbedded(detail::embeddedPresets(), nameOrPath);
    if (!preset)
      throw core::InputError("unknown preset '" + nameOrPath + "'" + suggestion(nameOrPath, presetNames()) +
                             "; a file path needs a '/' or a .yaml ending");
    return parseConfig(preset->text, "preset:" + nameOrPath);
  }
  return parseConfig(core::readTextFile(nameOrPath, "configuration file"), nameOrPath);
}

HardwareConfig defaultConfig() {
  return loadConfig(std::string(kDefaultPreset));
}

} // namespace npusim::config
