// Reading a scenario file (docs/serving.md, "Scenario"). Every key is
// checked: an unknown one is an error naming the file and line, never ignored.
#include "serving/scenario.h"

#include "config/yaml_input.h"
#include "core/error.h"
#include "core/text_input.h"
#include "serving/policies.h"
#include "serving/scenario_reader_internal.h"

#include <yaml-cpp/yaml.h>

#include <filesystem>

namespace npusim::serving {
namespace {

namespace fs = std::filesystem;

using Reader = detail::ScenarioReader;
using detail::readMachine;

StreamSpec readStream(const Reader &reader, const YAML::Node &node) {
  reader.expectMap(node, "requests");
  StreamSpec spec;
  spec.where = reader.where(node);
  for (const std::string &key :
       reader.keys(node, {"arrival", "times_us", "rate_per_s", "seed", "count", "outstanding", "think_us"},
                   "requests")) {
    const YAML::Node value = node[key];
    if (key == "arrival") {
      spec.arrival = reader.text(value, key);
      continue;
    }
    spec.keys.push_back(key);
    for (const auto &entry : node)
      if (entry.first.Scalar() == key)
        spec.keyWhere[key] = reader.where(entry.first);
    if (key == "times_us") {
      if (!value.IsSequence())
        reader.fail(value, "key 'times_us' must be a list of microseconds");
      if (static_cast<int64_t>(value.size()) > kMaxRequests)
        reader.fail(value, "key 'times_us': " + std::to_string(value.size()) + " times, more than " +
                               std::to_string(kMaxRequests) + " requests");
      for (const auto &time : value)
        spec.timesUs.push_back(reader.number(time, key));
    } else if (key == "rate_per_s") {
      spec.ratePerSecond = reader.number(value, key);
    } else if (key == "seed") {
      const int64_t seed = reader.integer(value, key);
      if (seed < 0)
        reader.fail(value, "key 'seed' must be >= 0");
      spec.seed = static_cast<uint64_t>(seed);
    } else if (key == "count") {
      spec.count = reader.integerIn(value, key, 1, kMaxRequests);
    } else if (key == "outstanding") {
      spec.outstanding = reader.integerIn(value, key, 1, kMaxRequests);
    } else {
      spec.thinkUs = reader.number(value, key);
    }
  }
  return spec;
}

TenantSpec readTenant(const Reader &reader, const YAML::Node &node, const fs::path &folder) {
  reader.expectMap(node, "a tenant");
  TenantSpec tenant;
  tenant.where = reader.where(node);
  bool hasRequests = false;
  for (const std::string &key : reader.keys(node, {"name", "bundle", "priority", "requests"}, "tenant")) {
    const YAML::Node value = node[key];
    if (key == "name") {
      tenant.name = reader.text(value, key);
    } else if (key == "bundle") {
      const fs::path bundle(reader.text(value, key));
      tenant.bundle = (bundle.is_absolute() ? bundle : folder / bundle).lexically_normal().string();
    } else if (key == "priority") {
      tenant.priority = static_cast<int>(reader.integerIn(value, key, -1'000'000'000, 1'000'000'000));
    } else {
      tenant.requests = readStream(reader, value);
      hasRequests = true;
    }
  }
  if (tenant.name.empty() || tenant.bundle.empty() || !hasRequests)
    reader.fail(node, "a tenant needs name, bundle and requests");
  return tenant;
}

PlacementSpec readPlacement(const Reader &reader, const YAML::Node &node) {
  PlacementSpec spec;
  spec.where = reader.where(node);
  if (node.IsScalar()) {
    spec.name = node.Scalar();
    return spec;
  }
  reader.expectMap(node, "a placement");
  for (const std::string &key : reader.keys(node, {"name", "cores", "policy"}, "placement")) {
    const YAML::Node value = node[key];
    if (key == "name") {
      spec.name = reader.text(value, key);
    } else if (key == "policy") {
      spec.policy = reader.text(value, key);
    } else {
      reader.expectMap(value, "cores (tenant name: list of cores)");
      for (const auto &entry : value) {
        if (!entry.second.IsSequence())
          reader.fail(entry.second, "cores: " + entry.first.Scalar() + " must be a list of core numbers");
        std::vector<int> &list = spec.cores[entry.first.Scalar()];
        for (const auto &core : entry.second)
          list.push_back(static_cast<int>(reader.integerIn(core, "cores", 0, 1'000'000)));
      }
    }
  }
  return spec;
}

} // namespace

Scenario parseScenario(const std::string &yamlText, const std::string &path) {
  const Reader reader(path);
  const YAML::Node root = config::parseYamlDocument(yamlText, path);
  if (!root.IsMap())
    throw core::InputError(path + ": a scenario is a map of keys (machine, tenants, placement, ...)");
  const fs::path folder = fs::path(path).parent_path();
  Scenario scenario;
  scenario.path = path;
  bool hasMachine = false;
  for (const std::string &key :
       reader.keys(root, {"machine", "tenants", "placement", "values", "core_queue_depth"}, "scenario")) {
    const YAML::Node value = root[key];
    if (key == "machine") {
      scenario.machine = readMachine(reader, value, folder);
      hasMachine = true;
    } else if (key == "tenants") {
      if (!value.IsSequence() || value.size() == 0)
        reader.fail(value, "tenants must be a list of at least one tenant");
      std::set<std::string> names;
      for (const auto &tenant : value) {
        scenario.tenants.push_back(readTenant(reader, tenant, folder));
        if (!names.insert(scenario.tenants.back().name).second)
          reader.fail(tenant, "two tenants are named '" + scenario.tenants.back().name + "'");
      }
    } else if (key == "placement") {
      if (value.IsSequence()) {
        if (value.size() == 0)
          reader.fail(value, "placement: the list is empty (leave the key out for the default, partitioned)");
        for (const auto &placement : value)
          scenario.placements.push_back(readPlacement(reader, placement));
      } else {
        scenario.placements.push_back(readPlacement(reader, value));
      }
    } else if (key == "values") {
      scenario.values = reader.boolean(value, key);
    } else {
      const int64_t depth = reader.integer(value, key);
      if (depth < 1 || depth > 64)
        reader.fail(value, "core_queue_depth must be 1 .. 64");
      scenario.coreQueueDepth = static_cast<int>(depth);
    }
  }
  if (!hasMachine || scenario.tenants.empty())
    throw core::InputError(path + ": a scenario needs machine and tenants");
  if (scenario.placements.empty())
    scenario.placements.push_back(PlacementSpec{"partitioned", {}, "", path});
  // The streams and placements as the simulation builds them, so that their
  // errors come before any bundle runs.
  for (const TenantSpec &tenant : scenario.tenants)
    makeNamed<RequestStreams>(tenant.requests.where, "arrival", tenant.requests.arrival, tenant.requests);
  for (const PlacementSpec &placement : scenario.placements)
    resolvePlacement(scenario, placement);
  return scenario;
}

Scenario loadScenario(const std::string &path) {
  return parseScenario(core::readTextFile(path, "scenario"), path);
}

} // namespace npusim::serving
