// Arrays handed to the runtime through the buffer protocol: its struct and
// flags are part of CPython's stable interface, so the extension works with
// every numpy it meets (1.x and 2.x) whatever pybind11 it was built with.
#include "bindings_internal.h"

#include "core/error.h"

#include <cstring>

namespace npusim::python {

bool isArray(const py::handle &value) {
  return py::hasattr(value, "__array_interface__");
}

HostArray::HostArray(const py::handle &value, const std::string &where) {
  const std::string type = py::str(py::type::of(value).attr("__name__")).cast<std::string>();
  if (!isArray(value) || !py::hasattr(value, "dtype"))
    throw core::InputError(where + "expected a numpy array, got " + type);
  dtype_ = py::str(value.attr("dtype").attr("str")).cast<std::string>();
  if (PyObject_GetBuffer(value.ptr(), &view_, PyBUF_RECORDS_RO) != 0) {
    PyErr_Clear();
    throw core::InputError(where + "the " + type + " does not export its memory (buffer protocol)");
  }
  elements_ = view_.itemsize > 0 ? view_.len / view_.itemsize : 0;
  contiguous_ = PyBuffer_IsContiguous(&view_, 'C') != 0;
}

HostArray::~HostArray() {
  PyBuffer_Release(&view_);
}

void HostArray::write(const std::vector<uint8_t> &bytes, const std::string &where) {
  if (view_.readonly)
    throw core::InputError(where + "the array is read-only");
  if (bytes.size() != this->bytes())
    throw core::InputError(where + "the result has " + std::to_string(bytes.size()) + " bytes, the array " +
                           std::to_string(this->bytes()));
  std::memcpy(view_.buf, bytes.data(), bytes.size());
}

} // namespace npusim::python
