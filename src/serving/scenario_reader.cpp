#include "serving/scenario_reader_internal.h"

#include "config/yaml_input.h"
#include "core/error.h"

#include <set>
#include <sstream>

namespace npusim::serving::detail {

std::string ScenarioReader::where(const YAML::Node &node, const YAML::Node &key) const {
  return file_ + ":" + std::to_string(config::yamlLine(node, key));
}

void ScenarioReader::fail(const YAML::Node &node, const std::string &message) const {
  throw core::InputError(where(node) + ": " + message);
}

void ScenarioReader::expectMap(const YAML::Node &node, const std::string &what) const {
  if (!node.IsMap())
    fail(node, what + " must be a map of keys");
}

std::vector<std::pair<std::string, YAML::Node>> ScenarioReader::keyNodes(const YAML::Node &map,
                                                                         std::initializer_list<const char *> allowed,
                                                                         const std::string &what) const {
  const std::set<std::string> known(allowed.begin(), allowed.end());
  std::vector<std::pair<std::string, YAML::Node>> out;
  for (const auto &entry : map) {
    if (!entry.first.IsScalar())
      fail(entry.first, what + ": expected a key name");
    const std::string key = entry.first.Scalar();
    if (known.count(key) == 0) {
      std::string list;
      for (const char *k : allowed)
        list += (list.empty() ? "" : ", ") + std::string(k);
      fail(entry.first, what + ": unknown key '" + key + "' (keys: " + list + ")");
    }
    out.emplace_back(key, entry.first);
  }
  return out;
}

std::vector<std::string> ScenarioReader::keys(const YAML::Node &map, std::initializer_list<const char *> allowed,
                                              const std::string &what) const {
  std::vector<std::string> names;
  for (auto &[key, node] : keyNodes(map, allowed, what))
    names.push_back(key);
  return names;
}

int64_t ScenarioReader::integerIn(const YAML::Node &node, const std::string &key, int64_t low, int64_t high) const {
  const int64_t n = integer(node, key);
  if (n < low || n > high)
    fail(node, "key '" + key + "': " + std::to_string(n) + " is out of range (" + std::to_string(low) + " .. " +
                   std::to_string(high) + ")");
  return n;
}

double ScenarioReader::numberIn(const YAML::Node &node, const std::string &key, double low, double high) const {
  const double x = number(node, key);
  if (!(x >= low && x <= high)) {
    std::ostringstream text;
    text << "key '" << key << "': " << x << " is out of range (" << low << " .. " << high << ")";
    fail(node, text.str());
  }
  return x;
}

config::HardwareConfig readMachine(const ScenarioReader &reader, const YAML::Node &node,
                                   const std::filesystem::path &folder) {
  if (node.IsScalar()) {
    const std::string name = node.Scalar();
    if (name.find('/') != std::string::npos || name.ends_with(".yaml"))
      return config::loadConfig((folder / name).string());
    return config::loadConfig(name);
  }
  reader.expectMap(node, "machine");
  std::string text;
  int lines = 0;
  for (const auto &entry : node) {
    for (; lines + 1 < entry.first.Mark().line + 1; ++lines)
      text += "\n";
    YAML::Emitter key, value;
    key << YAML::Flow << entry.first;
    value << YAML::Flow << entry.second;
    text += std::string(key.c_str()) + ": " + value.c_str() + "\n";
    ++lines;
  }
  return config::parseConfig(text, reader.file());
}

} // namespace npusim::serving::detail
