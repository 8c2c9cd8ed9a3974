// npusim.run_bundle(): `npusim run BUNDLE` from Python, the report as a dict.
#include "bindings_internal.h"

#include "runtime/loader.h"
#include "runtime/mapping_file.h"

#include <algorithm>

namespace npusim::python {

namespace {

py::object runBundle(const py::object &path, const py::object &config, const std::string &mode, bool verify,
                     const py::object &trace, const py::object &mapping, const std::string &mappingStrategy,
                     int threads) {
  const std::string bundle = py::str(py::module_::import("os").attr("fspath")(path)).cast<std::string>();
  const Exceptions &e = exceptions();
  runtime::RunOptions options;
  options.mode = modeFrom(mode);
  options.verify = verify;
  if (verify && options.mode == runtime::Mode::Timing)
    raise(e.inputError, "verify needs values: use mode=\"full\" (values and cycles) or \"functional\"",
          py::none());
  if (!trace.is_none()) {
    if (options.mode != runtime::Mode::Timing && options.mode != runtime::Mode::Full)
      raise(e.inputError, "trace needs cycles: use mode=\"full\" or \"timing\"", py::none());
    options.tracePath = py::str(py::module_::import("os").attr("fspath")(trace)).cast<std::string>();
  }
  const std::vector<std::string> strategies = runtime::mappingStrategies();
  if (std::find(strategies.begin(), strategies.end(), mappingStrategy) == strategies.end())
    raise(e.inputError, "mapping_strategy: '" + mappingStrategy + "' is not a registered mapping strategy",
          py::none());
  options.mappingStrategy = mappingStrategy;
  if (threads < 0)
    raise(e.inputError, "threads expects 0 (the machine's cores) or a positive count", py::none());
  options.threads = std::min(threads, 1024);
  options.machine = machineFrom(config);
  std::string reportText;
  std::string failure;
  bool diverged = false;
  try {
    if (!mapping.is_none())
      options.mapping = runtime::loadMapping(
          py::str(py::module_::import("os").attr("fspath")(mapping)).cast<std::string>());
    py::gil_scoped_release unlocked;
    const runtime::Bundle loaded = runtime::loadBundle(bundle);
    const runtime::RunReport report = runtime::runBundle(loaded, options);
    reportText = runtime::reportJson(report, bundle);
    failure = report.failure;
    diverged = report.completed ||
               (!report.steps.empty() && report.steps.back().result == runtime::Outcome::Diverged);
  } catch (...) {
    raiseCurrent(bundle);
  }
  py::object report = jsonToPython(reportText);
  if (!failure.empty())
    raise(diverged ? e.verificationError : e.simulationError, bundle + ": error: " + failure, report);
  return report;
}

} // namespace

void defineRunBundle(py::module_ &m) {
  m.def("run_bundle", &runBundle, py::arg("path"), py::arg("config") = "tpuv3-like", py::arg("mode") = "full",
        py::arg("verify") = false, py::arg("trace") = py::none(), py::arg("mapping") = py::none(),
        py::arg("mapping_strategy") = "search", py::arg("threads") = 0,
        "Runs a bundle as `npusim run` does and returns its --report as a dict");
}

} // namespace npusim::python
