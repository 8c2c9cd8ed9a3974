// npusim.run_bundle(): `npusim run BUNDLE` from Python, the report as a dict.
#include "bindings_internal.h"

#include "report/run_page.h"

#include "runtime/drift.h"
#include "runtime/loader.h"
#include "runtime/mapping_file.h"

#include "core/error.h"

#include <algorithm>
#include <cstring>

namespace npusim::python {

namespace {

/// The options every run takes: the mode, verification (which needs values) and the machine.
runtime::RunOptions runOptions(const std::string &mode, bool verify, const py::object &config) {
  runtime::RunOptions options;
  options.mode = modeFrom(mode);
  options.verify = verify;
  if (verify && options.mode == runtime::Mode::Timing)
    raise(exceptions().inputError,
          "verify needs values: use mode=\"full\" (values and cycles) or \"functional\"", py::none());
  options.machine = machineFrom(config);
  return options;
}

/// A Python dict of size names to integers as a binding (docs/bundle-format.md,
/// "Dynamic sizes"); None: the captured sizes.
runtime::SizeBinding sizeBindingFrom(const py::object &sizes) {
  const Exceptions &e = exceptions();
  runtime::SizeBinding binding;
  if (sizes.is_none())
    return binding;
  if (!py::isinstance<py::dict>(sizes))
    raise(e.inputError, "sizes expects a dict of size names to integers, e.g. {\"batch\": 8}", py::none());
  for (const auto &[key, value] : sizes.cast<py::dict>()) {
    if (!py::isinstance<py::str>(key) || !py::isinstance<py::int_>(value) || py::isinstance<py::bool_>(value))
      raise(e.inputError,
            "sizes: " + py::repr(key).cast<std::string>() + ": " + py::repr(value).cast<std::string>() +
                ": expected a name and an integer",
            py::none());
    binding[key.cast<std::string>()] = value.cast<int64_t>();
  }
  return binding;
}

py::object runBundle(const py::object &path, const py::object &config, const std::string &mode, bool verify,
                     const py::object &trace, const py::object &mapping, const std::string &mappingStrategy,
                     int threads, const py::object &sizes) {
  const std::string bundle = py::str(py::module_::import("os").attr("fspath")(path)).cast<std::string>();
  const Exceptions &e = exceptions();
  runtime::RunOptions options = runOptions(mode, verify, config);
  setTrace(options, trace);
  const std::vector<std::string> strategies = runtime::mappingStrategies();
  if (std::find(strategies.begin(), strategies.end(), mappingStrategy) == strategies.end())
    raise(e.inputError, "mapping_strategy: '" + mappingStrategy + "' is not a registered mapping strategy",
          py::none());
  options.mappingStrategy = mappingStrategy;
  if (threads < 0)
    raise(e.inputError, "threads expects 0 (the machine's cores) or a positive count", py::none());
  options.threads = std::min(threads, 1024);
  const runtime::SizeBinding binding = sizeBindingFrom(sizes);
  std::string reportText;
  std::string failure;
  bool diverged = false;
  try {
    if (!mapping.is_none())
      options.mapping = runtime::loadMapping(
          py::str(py::module_::import("os").attr("fspath")(mapping)).cast<std::string>());
    py::gil_scoped_release unlocked;
    runtime::Bundle loaded = runtime::loadBundle(bundle, binding);
    const runtime::RunReport report = runtime::runBundleAllowingDrift(loaded, options);
    // As `npusim run --report` writes it: the machine's summary and roofs on
    // the NPU modes.
    nlohmann::json doc = nlohmann::json::parse(runtime::reportJson(report, bundle));
    if (report.mode != runtime::Mode::Reference)
      doc["machine_config"] = report::machineJson(options.machine);
    reportText = doc.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
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

/// A storage's array as the runtime's buffer (its bytes copied: buffers own them).
std::unique_ptr<reference::Buffer> storageFrom(size_t index, const runtime::Storage &storage,
                                               const py::handle &value) {
  const std::string where = "storages[" + std::to_string(index) + "]: ";
  const HostArray array(value, where);
  const std::string expected(core::numpyDescriptor(storage.dtype));
  if (array.dtype() != expected || !array.contiguous() || array.elements() != storage.elements)
    throw core::InputError(where + "the graph declares " + std::to_string(storage.elements) +
                           " elements of " + std::string(core::tritonName(storage.dtype)) + " (numpy " +
                           expected + "), got " + std::to_string(array.elements()) + " of " + array.dtype() +
                           (array.contiguous() ? "" : ", not contiguous"));
  auto buffer = std::make_unique<reference::Buffer>();
  buffer->name = "storage " + std::to_string(index);
  buffer->dtype = storage.dtype;
  buffer->bytes.assign(array.data(), array.data() + array.bytes());
  return buffer;
}

py::object runGraph(const std::string &graph, const py::list &storages, const py::object &kernelsDir,
                    const py::object &config, const std::string &mode, bool verify, const py::object &trace,
                    const py::object &sizes) {
  const Exceptions &e = exceptions();
  const runtime::SizeBinding binding = sizeBindingFrom(sizes);
  runtime::RunOptions options = runOptions(mode, verify, config);
  setTrace(options, trace);
  const std::string dir =
      kernelsDir.is_none()
          ? std::string(".")
          : py::str(py::module_::import("os").attr("fspath")(kernelsDir)).cast<std::string>();
  std::string reportText, failure;
  bool diverged = false;
  try {
    const runtime::Bundle bundle = runtime::parseBundle(graph, dir, "<graph>", binding);
    if (storages.size() != bundle.storages.size())
      throw core::InputError("the graph declares " + std::to_string(bundle.storages.size()) +
                             " storages, got " + std::to_string(storages.size()) + " arrays");
    std::vector<std::unique_ptr<reference::Buffer>> buffers;
    for (size_t i = 0; i < bundle.storages.size(); ++i)
      buffers.push_back(storageFrom(i, bundle.storages[i], storages[i]));
    runtime::RunReport report;
    {
      py::gil_scoped_release unlocked;
      report = runtime::runBundle(bundle, options, buffers);
    }
    if (options.mode != runtime::Mode::Timing)
      for (size_t i = 0; i < buffers.size(); ++i) {
        const std::string where = "storages[" + std::to_string(i) + "]: ";
        HostArray array(storages[i], where);
        if (array.writeable())
          array.write(buffers[i]->bytes, where);
      }
    reportText = runtime::reportJson(report, "<graph>");
    failure = report.failure;
    diverged = report.completed ||
               (!report.steps.empty() && report.steps.back().result == runtime::Outcome::Diverged);
  } catch (...) {
    raiseCurrent("<graph>");
  }
  py::object report = jsonToPython(reportText);
  if (!failure.empty())
    raise(diverged ? e.verificationError : e.simulationError, "<graph>: error: " + failure, report);
  return report;
}

std::string bindSizes(const std::string &graph, const py::object &sizes) {
  const runtime::SizeBinding binding = sizeBindingFrom(sizes);
  std::string bound;
  try {
    bound = runtime::bindGraphSizes(graph, "<graph>", binding);
  } catch (...) {
    raiseCurrent("<graph>");
  }
  return bound;
}

} // namespace

void defineRunBundle(py::module_ &m) {
  m.def("run_bundle", &runBundle, py::arg("path"), py::arg("config") = std::string(config::kDefaultPreset),
        py::arg("mode") = "full", py::arg("verify") = false, py::arg("trace") = py::none(),
        py::arg("mapping") = py::none(), py::arg("mapping_strategy") = "search", py::arg("threads") = 0,
        py::arg("sizes") = py::none(), "Runs a bundle as `npusim run` does and returns its --report as a dict");
  m.def("run_graph", &runGraph, py::arg("graph"), py::arg("storages"), py::arg("kernels_dir") = py::none(),
        py::arg("config") = std::string(config::kDefaultPreset), py::arg("mode") = "full",
        py::arg("verify") = false, py::arg("trace") = py::none(), py::arg("sizes") = py::none(),
        "Runs the steps of a graph.json text on the given storages, in place; npusim.run_graph wraps it");
  m.def("bind_sizes", &bindSizes, py::arg("graph"), py::arg("sizes") = py::none(),
        "A graph.json text with its dynamic sizes bound: the text of a graph of static sizes");
}

} // namespace npusim::python
