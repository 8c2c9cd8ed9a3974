// npusim._native: the C++ runtime as a Python extension (docs/python.md). The
// package npusim wraps it; this file creates the module, its exceptions and
// the functions every part uses.
#include "bindings_internal.h"

#include "core/error.h"

#include <exception>

namespace npusim::python {

namespace {

const Exceptions *classes = nullptr;

} // namespace

const Exceptions &exceptions() {
  return *classes;
}
void setExceptions(const Exceptions *created) {
  classes = created;
}

void raise(const py::object &type, const std::string &message, const py::object &report) {
  py::object exception = type(message);
  if (!report.is_none())
    exception.attr("report") = report;
  PyErr_SetObject(type.ptr(), exception.ptr());
  throw py::error_already_set();
}

void raiseCurrent(const std::string &what) {
  const Exceptions &e = exceptions();
  try {
    throw;
  } catch (const py::error_already_set &) {
    throw;
  } catch (const core::CompileError &error) {
    raise(e.compileError, error.what(), py::none());
  } catch (const core::InputError &error) {
    raise(e.inputError, what + ": error: " + error.what(), py::none());
  } catch (const core::RuntimeError &error) {
    raise(e.simulationError, what + ": error: " + error.what(), py::none());
  } catch (const std::exception &error) {
    raise(e.error, what + ": error: " + error.what(), py::none());
  }
}

runtime::Mode modeFrom(const std::string &mode) {
  if (auto parsed = runtime::parseMode(mode))
    return *parsed;
  raise(exceptions().inputError, "mode expects full, timing, functional or reference, got '" + mode + "'",
        py::none());
}

void setTrace(runtime::RunOptions &options, const py::object &trace) {
  if (trace.is_none())
    return;
  if (options.mode != runtime::Mode::Timing && options.mode != runtime::Mode::Full)
    raise(exceptions().inputError, "trace needs cycles: use mode=\"full\" or \"timing\"", py::none());
  options.tracePath = py::str(py::module_::import("os").attr("fspath")(trace)).cast<std::string>();
}

py::object jsonToPython(const std::string &text) {
  return py::module_::import("json").attr("loads")(text);
}

} // namespace npusim::python

PYBIND11_MODULE(_native, m) {
  namespace py = pybind11;
  using namespace npusim::python;
  m.doc() = "npusim's C++ runtime: bundles and Triton kernels on the simulated NPU (docs/python.md)";
  // Kept for the life of the process: Python objects must not be released by a
  // static destructor after the interpreter is gone.
  auto *created = new Exceptions;
  created->error = py::exception<std::exception>(m, "Error", PyExc_RuntimeError);
  created->compileError = py::exception<std::exception>(m, "CompileError", created->error.ptr());
  created->inputError = py::exception<std::exception>(m, "InputError", created->error.ptr());
  created->simulationError = py::exception<std::exception>(m, "SimulationError", created->error.ptr());
  created->verificationError = py::exception<std::exception>(m, "VerificationError", created->error.ptr());
  setExceptions(created);
  defineConfig(m);
  defineRunBundle(m);
  defineRunKernel(m);
}
