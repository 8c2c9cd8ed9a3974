#pragma once
// Reading a scenario file's keys (internal to src/serving): both scenario forms,
// the tenants' (scenario.cpp) and the LLM's (llm_scenario.cpp), check every key
// through it, so an error names the file, the line and the key the same way.
#include "config/hardware.h"

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

namespace npusim::serving::detail {

class ScenarioReader {
public:
  explicit ScenarioReader(std::string file) : file_(std::move(file)) {}

  /// "FILE:LINE" of a node; `key`: the node's key, whose line an absent value is on.
  std::string where(const YAML::Node &node, const YAML::Node &key = YAML::Node()) const;
  [[noreturn]] void fail(const YAML::Node &node, const std::string &message) const;
  void expectMap(const YAML::Node &node, const std::string &what) const;
  /// The map's keys with their key nodes, each of which must be one of `allowed`.
  std::vector<std::pair<std::string, YAML::Node>> keyNodes(const YAML::Node &map,
                                                           std::initializer_list<const char *> allowed,
                                                           const std::string &what) const;
  /// The map's keys alone.
  std::vector<std::string> keys(const YAML::Node &map, std::initializer_list<const char *> allowed,
                                const std::string &what) const;

  template <class T> T scalar(const YAML::Node &node, const std::string &key, const char *kind) const {
    if (!node.IsScalar())
      fail(node, "key '" + key + "' must be " + kind);
    try {
      return node.as<T>();
    } catch (const YAML::Exception &) {
      fail(node, "key '" + key + "': '" + node.Scalar() + "' is not " + kind);
    }
  }
  std::string text(const YAML::Node &node, const std::string &key) const {
    return scalar<std::string>(node, key, "a word");
  }
  int64_t integer(const YAML::Node &node, const std::string &key) const {
    return scalar<int64_t>(node, key, "an integer");
  }
  double number(const YAML::Node &node, const std::string &key) const {
    return scalar<double>(node, key, "a number");
  }
  bool boolean(const YAML::Node &node, const std::string &key) const {
    return scalar<bool>(node, key, "true or false");
  }
  /// An integer of `key` in [low, high].
  int64_t integerIn(const YAML::Node &node, const std::string &key, int64_t low, int64_t high) const;
  /// A number of `key` in [low, high].
  double numberIn(const YAML::Node &node, const std::string &key, double low, double high) const;
  const std::string &file() const { return file_; }

private:
  std::string file_;
};

/// `machine:` is a preset name or a config file (relative to the scenario's
/// folder), or a map of config keys (with `base:`) parsed as a config file
/// would be: each key on the line it has in the scenario, so that the config's
/// errors name the scenario's lines (keys sharing a line, in a flow map, take
/// the lines after it).
config::HardwareConfig readMachine(const ScenarioReader &reader, const YAML::Node &node,
                                   const std::filesystem::path &folder);

} // namespace npusim::serving::detail
