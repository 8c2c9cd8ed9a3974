#pragma once
// Pieces the extension's files share: the Python exceptions that carry the
// command line's messages, and reading the config and mode arguments.
#include "config/hardware.h"
#include "runtime/runner.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h> // in every file: one set of type casters for the module

#include <cstdint>
#include <string>
#include <vector>

namespace npusim::python {

namespace py = pybind11;

/// The exception classes of the npusim package (created in module.cpp):
/// Error, the base of CompileError (a kernel source npusim does not take),
/// InputError (a file, argument or configuration), SimulationError (a fault
/// while running: out-of-bounds access, failed assert) and VerificationError
/// (a result that diverged from the reference).
struct Exceptions {
  py::object error, compileError, inputError, simulationError, verificationError;
};
const Exceptions &exceptions();
void setExceptions(const Exceptions *created);

/// Raises the Python exception of the C++ exception being handled, with the
/// message the command line prints for it ("FILE:LINE:COL: error: ..." for a
/// compile error, "WHAT: error: ..." otherwise; `what` is the kernel file or
/// bundle the command line would name). Must be called inside a catch block.
[[noreturn]] void raiseCurrent(const std::string &what);

/// Raises `type` with `message` and sets the exception's `report` attribute
/// (a dict) when `report` is not None.
[[noreturn]] void raise(const py::object &type, const std::string &message, const py::object &report);

/// The `config` argument: a preset name, a YAML file, YAML text or a Config
/// object (load_config's result).
config::HardwareConfig machineFrom(const py::object &config);

/// The `mode` argument; raises InputError naming the accepted ones.
runtime::Mode modeFrom(const std::string &mode);

/// options.tracePath from a `trace` argument (a path or None); raises
/// InputError when options.mode has no cycles.
void setTrace(runtime::RunOptions &options, const py::object &trace);

/// A numpy array's memory through the Python buffer protocol (PEP 3118), which
/// is the same in every numpy and pybind11 version: pybind11's py::array reads
/// numpy's structs, whose layout numpy 2 changed. `dtype` is numpy's `dtype.str`.
class HostArray {
public:
  /// Raises InputError (as `where` + message) for an object that is not a
  /// numpy array or does not export its memory.
  HostArray(const py::handle &value, const std::string &where);
  ~HostArray();
  HostArray(const HostArray &) = delete;
  HostArray &operator=(const HostArray &) = delete;

  const std::string &dtype() const { return dtype_; }
  int64_t elements() const { return elements_; }
  size_t bytes() const { return static_cast<size_t>(view_.len); }
  bool contiguous() const { return contiguous_; }
  bool writeable() const { return !view_.readonly; }
  const uint8_t *data() const { return static_cast<const uint8_t *>(view_.buf); }
  /// Copies `bytes` back into the array; raises InputError when it is
  /// read-only or the sizes differ.
  void write(const std::vector<uint8_t> &bytes, const std::string &where);

private:
  Py_buffer view_{};
  std::string dtype_;
  int64_t elements_ = 0;
  bool contiguous_ = false;
};

/// Whether `value` is a numpy array (or exposes __array_interface__).
bool isArray(const py::handle &value);

/// The runtime's JSON text as a Python dict (through the json module).
py::object jsonToPython(const std::string &text);

void defineConfig(py::module_ &m);
void defineRunBundle(py::module_ &m);
void defineRunKernel(py::module_ &m);

} // namespace npusim::python
