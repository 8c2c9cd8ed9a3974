// Reading an energy table: every key required, none unknown, every value a
// non-negative number, so that a typo can never price a unit at zero.
#include "energy/table.h"

#include "config/hardware.h"
#include "config/yaml_input.h"
#include "core/error.h"

#include <cmath>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>
#include <utility>
#include <vector>

namespace npusim::energy {
namespace {

struct Reader {
  const std::string &source;

  [[noreturn]] void fail(const YAML::Node &node, const std::string &message) const {
    throw core::InputError(source + ":" + std::to_string(config::yamlLine(node)) + ": " + message);
  }

  double number(const YAML::Node &value, const std::string &key) const {
    if (!value.IsScalar())
      fail(value, "key '" + key + "': expected a number");
    double result = 0;
    try {
      result = value.as<double>();
    } catch (const YAML::Exception &) {
      fail(value, "key '" + key + "': '" + value.Scalar() + "' is not a number");
    }
    if (!std::isfinite(result) || result < 0)
      fail(value, "key '" + key + "': " + value.Scalar() + " must be a non-negative number");
    return result;
  }

  /// Reads every key of `keys` from the map `node` (all required) and rejects any other.
  void map(const YAML::Node &node, const std::string &where,
           const std::vector<std::pair<std::string, std::function<void(const YAML::Node &)>>> &keys,
           const std::set<std::string> &optional = {}) const {
    if (!node.IsMap())
      fail(node, (where.empty() ? std::string("the table") : "key '" + where + "'") + ": expected a map");
    std::set<std::string> seen;
    for (const auto &entry : node) {
      const std::string key = entry.first.as<std::string>();
      bool known = false;
      for (const auto &[name, read] : keys)
        if (name == key) {
          known = true;
          read(entry.second);
        }
      if (!known) {
        std::string names;
        for (const auto &k : keys)
          names += (names.empty() ? "" : ", ") + k.first;
        fail(entry.first, "unknown key '" + (where.empty() ? key : where + "." + key) + "' (known: " + names + ")");
      }
      if (!seen.insert(key).second)
        fail(entry.first, "key '" + key + "' given twice");
    }
    for (const auto &k : keys)
      if (!seen.contains(k.first) && !optional.contains(k.first))
        fail(node, "missing key '" + (where.empty() ? k.first : where + "." + k.first) + "'");
  }
};

} // namespace

Table parseTable(std::string_view yamlText, const std::string &source, const std::string &name) {
  const YAML::Node root = config::parseYamlDocument(yamlText, source);
  const Reader r{source};
  Table t;
  t.name = name;
  t.source = source;
  auto value = [&r](double &into, const std::string &key) {
    return std::pair<std::string, std::function<void(const YAML::Node &)>>(
        key, [&r, &into, key](const YAML::Node &node) { into = r.number(node, key); });
  };
  // A MAC table names the dtypes it prices; the rest stay unpriced.
  auto macs = [&r, &t](const YAML::Node &node) {
    if (!node.IsMap())
      r.fail(node, "key 'mac_pj': expected a map of dtype: pJ");
    for (const auto &entry : node) {
      const std::string dtype = entry.first.as<std::string>();
      const std::optional<core::DType> parsed = core::parseDType(dtype);
      if (!parsed)
        r.fail(entry.first, "key 'mac_pj." + dtype + "': unknown dtype (fp32, bf16, fp16, int8, int32, ...)");
      t.macPj[static_cast<size_t>(*parsed)] = r.number(entry.second, "mac_pj." + dtype);
    }
  };
  auto vector = [&](const YAML::Node &node) {
    r.map(node, "vector_op_pj",
          {value(t.vectorOpPj[0], "simple"), value(t.vectorOpPj[1], "multiply"), value(t.vectorOpPj[2], "divide"),
           value(t.vectorOpPj[3], "transcendental")});
  };
  StaticPower &s = t.staticMw;
  auto statics = [&](const YAML::Node &node) {
    r.map(node, "static_mw",
          {value(s.core, "core"), value(s.scalar, "scalar"), value(s.dma, "dma"),
           value(s.vectorPerLane, "vector_per_lane"), value(s.crossLanePerLane, "cross_lane_per_lane"),
           value(s.systolicPerPe, "systolic_per_pe"), value(s.spadPerMib, "spad_per_mib"),
           value(s.nocPerPort, "noc_per_port"), value(s.dramPerChannel, "dram_per_channel")});
  };
  YAML::Node gated;
  r.map(root, "",
        {{"mac_pj", macs},
         {"vector_op_pj", vector},
         value(t.crossLaneOpPj, "cross_lane_op_pj"),
         value(t.scalarInstructionPj, "scalar_instruction_pj"),
         value(t.spadReadPjPerByte, "spad_read_pj_per_byte"),
         value(t.spadWritePjPerByte, "spad_write_pj_per_byte"),
         value(t.dmaDescriptorPj, "dma_descriptor_pj"),
         value(t.nocFlitHopPj, "noc_flit_hop_pj"),
         value(t.dramActivatePj, "dram_activate_pj"),
         value(t.dramReadPjPerBit, "dram_read_pj_per_bit"),
         value(t.dramWritePjPerBit, "dram_write_pj_per_bit"),
         value(t.dramRefreshPj, "dram_refresh_pj"),
         {"static_mw", statics},
         {"gated_idle_fraction", [&](const YAML::Node &node) {
            gated = node;
            t.gatedIdleFraction = r.number(node, "gated_idle_fraction");
          }}});
  if (t.gatedIdleFraction > 1.0)
    r.fail(gated, "key 'gated_idle_fraction': must be at most 1");
  return t;
}

Table loadTable(const std::string &nameOrPath) {
  const bool isPath = nameOrPath.find('/') != std::string::npos || nameOrPath.ends_with(".yaml") ||
                      nameOrPath.ends_with(".yml");
  if (!isPath)
    return parseTable(config::energyTableText(nameOrPath), "configs/energy/" + nameOrPath + ".yaml", nameOrPath);
  std::ifstream in(nameOrPath, std::ios::binary);
  if (!in)
    throw core::InputError(nameOrPath + ": cannot read the energy table");
  std::ostringstream text;
  text << in.rdbuf();
  return parseTable(text.str(), nameOrPath, nameOrPath);
}

} // namespace npusim::energy
