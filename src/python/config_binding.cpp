// npusim.presets(), npusim.load_config() and the Config class.
#include "bindings_internal.h"

#include "core/operator_call.h"

#include <filesystem>

namespace npusim::python {

namespace {

/// YAML text rather than a name or a path: it spans lines or holds "key:".
bool looksLikeYaml(const std::string &text) {
  return text.find('\n') != std::string::npos ||
         (text.find(": ") != std::string::npos && !std::filesystem::exists(text));
}

config::HardwareConfig load(const std::string &nameOrYaml) {
  try {
    if (looksLikeYaml(nameOrYaml))
      return config::parseConfig(nameOrYaml, "<yaml>");
    return config::loadConfig(nameOrYaml);
  } catch (...) {
    raiseCurrent("load_config");
  }
}

} // namespace

config::HardwareConfig machineFrom(const py::object &config) {
  if (py::isinstance<config::HardwareConfig>(config))
    return config.cast<config::HardwareConfig>();
  if (py::isinstance<py::str>(config) || py::hasattr(config, "__fspath__"))
    return load(py::str(py::module_::import("os").attr("fspath")(config)).cast<std::string>());
  raise(exceptions().inputError,
        "config expects a preset name, a YAML file or text, or a Config, got " +
            py::str(py::type::of(config).attr("__name__")).cast<std::string>(),
        py::none());
}

void defineConfig(py::module_ &m) {
  using config::HardwareConfig;
  py::class_<HardwareConfig>(m, "Config", "A resolved NPU configuration (docs/config.md)")
      .def_readonly("name", &HardwareConfig::name)
      .def_readonly("source", &HardwareConfig::source)
      .def_readonly("cores", &HardwareConfig::numCores)
      .def_readonly("core_freq_mhz", &HardwareConfig::coreFreqMhz)
      .def_readonly("lanes", &HardwareConfig::lanes)
      .def_readonly("vlen_bits", &HardwareConfig::vlenBits)
      .def_readonly("spad_kib_per_lane", &HardwareConfig::spadKibPerLane)
      .def_readonly("systolic_arrays_per_core", &HardwareConfig::systolicArraysPerCore)
      .def_property_readonly("peak_tflops",
                             [](const HardwareConfig &c) { return c.peakFlopsPerChip() / 1e12; })
      .def_property_readonly("peak_dram_gb_s",
                             [](const HardwareConfig &c) { return c.dram.peakBytesPerSecond() / 1e9; })
      .def("to_yaml", &config::toYaml, "The configuration with every key, as `npusim presets NAME` prints it")
      .def("__eq__", [](const HardwareConfig &a, const HardwareConfig &b) { return a == b; })
      .def("__repr__", [](const HardwareConfig &c) {
        return "<npusim.Config " + c.name + ": " + std::to_string(c.numCores) + " cores, " +
               std::to_string(c.lanes) + " lanes, from " + c.source + ">";
      });
  m.def("presets", &config::presetNames, "The names of the presets built into npusim");
  m.def(
      "library_operators",
      [] {
        std::vector<std::string> names;
        for (std::string_view op : core::schemaOperators())
          names.emplace_back(op);
        return names;
      },
      "The library calls npusim implements (docs/library-calls.md), by their bundle names (aten.mm, ...)");
  m.def("load_config", &load, py::arg("path_or_yaml"),
        "A preset name, a YAML file or YAML text -> Config; errors name the file, line and key");
}

} // namespace npusim::python
