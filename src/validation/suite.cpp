// Reading a validation suite file (docs/validation.md, "Suite file").
#include "validation/validation.h"

#include "config/yaml_input.h"
#include "core/error.h"
#include "core/text_input.h"

#include <yaml-cpp/yaml.h>

#include <filesystem>

namespace npusim::validation {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void fail(const std::string &file, const YAML::Node &node, const std::string &message) {
  const int line = node.Mark().line >= 0 ? node.Mark().line + 1 : 0; // yaml-cpp counts from 0
  throw core::InputError(file + ":" + std::to_string(line) + ": " + message);
}

std::string text(const std::string &file, const YAML::Node &node, const std::string &key) {
  if (!node.IsScalar() || node.Scalar().empty())
    fail(file, node, "'" + key + "': expected a value");
  return node.Scalar();
}

double number(const std::string &file, const YAML::Node &node, const std::string &key, double low) {
  const std::string s = text(file, node, key);
  size_t used = 0;
  double v = 0.0;
  try {
    v = std::stod(s, &used);
  } catch (const std::exception &) {
    used = 0;
  }
  if (used != s.size() || !(v >= low) || v > 1e15)
    fail(file, node, "'" + key + "': expected a number of at least " + std::to_string(low) + ", got '" + s + "'");
  return v;
}

Workload workloadOf(const std::string &file, const fs::path &dir, const YAML::Node &node) {
  if (!node.IsMap())
    fail(file, node, "a workload is {name: ..., bundle: ..., silicon_cycles: ...}");
  Workload w;
  w.line = node.Mark().line + 1;
  bool haveName = false, haveBundle = false, haveCycles = false;
  for (const auto &field : node) {
    const std::string key = field.first.as<std::string>();
    if (key == "name") {
      w.name = text(file, field.second, key);
      haveName = true;
    } else if (key == "bundle") {
      w.bundle = (dir / text(file, field.second, key)).lexically_normal().string();
      haveBundle = true;
    } else if (key == "silicon_cycles") {
      const double v = number(file, field.second, key, 1.0);
      if (v != static_cast<double>(static_cast<int64_t>(v)))
        fail(file, field.second, "'silicon_cycles': expected a whole number of cycles");
      w.siliconCycles = static_cast<int64_t>(v);
      haveCycles = true;
    } else {
      fail(file, field.first, "unknown key '" + key + "' in a workload (name, bundle, silicon_cycles)");
    }
  }
  if (!haveName || !haveBundle || !haveCycles)
    fail(file, node, std::string("a workload needs ") + (!haveName ? "'name'" : !haveBundle ? "'bundle'" : "'silicon_cycles'"));
  return w;
}

} // namespace

Suite loadSuite(const std::string &path) {
  fs::path file = path;
  std::error_code ec;
  if (fs::is_directory(file, ec))
    file /= "suite.yaml";
  const std::string name = file.string();
  // One UTF-8 document, as every YAML input (config/yaml_input.h): YAML::LoadAll
  // never ends on some malformed texts.
  const YAML::Node root = config::parseYamlDocument(core::readTextFile(name, "suite file"), name);
  if (!root.IsMap())
    throw core::InputError(name + ": a suite file is one YAML mapping (title, machine, source, max_mae_percent, "
                                  "workloads)");
  Suite suite;
  suite.path = name;
  const fs::path dir = file.parent_path();
  bool haveWorkloads = false, haveLimit = false;
  for (const auto &field : root) {
    const std::string key = field.first.as<std::string>();
    const YAML::Node &value = field.second;
    if (key == "title")
      suite.title = text(name, value, key);
    else if (key == "machine")
      suite.machine = text(name, value, key);
    else if (key == "source")
      suite.source = text(name, value, key);
    else if (key == "max_mae_percent") {
      suite.maxMaePercent = number(name, value, key, 0.0);
      haveLimit = true;
    } else if (key == "workloads") {
      if (!value.IsSequence() || value.size() == 0)
        fail(name, value, "'workloads': expected a list of workloads");
      for (const YAML::Node &w : value)
        suite.workloads.push_back(workloadOf(name, dir, w));
      haveWorkloads = true;
    } else {
      fail(name, field.first,
           "unknown key '" + key + "' (title, machine, source, max_mae_percent, workloads)");
    }
  }
  if (!haveWorkloads)
    throw core::InputError(name + ": the suite has no 'workloads'");
  if (!haveLimit)
    throw core::InputError(name + ": the suite has no 'max_mae_percent'");
  if (suite.machine.empty())
    throw core::InputError(name + ": the suite has no 'machine'");
  if (suite.source.empty())
    throw core::InputError(name + ": the suite has no 'source': say where the silicon cycles come from");
  return suite;
}

} // namespace npusim::validation
