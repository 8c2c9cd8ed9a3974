// npusim.run_kernel(): one launch of one Triton kernel, as `npusim kernel`
// does, with numpy arrays for the pointer arguments. The runtime's buffers own
// their bytes, so each array is read once into one; after the launch the
// results are written back into the caller's arrays, as a Triton launch
// writes into its tensors.
#include "bindings_internal.h"

#include "core/error.h"
#include "driver/driver.h"
#include "runtime/kernels.h"

#include <chrono>
#include <cstring>

namespace npusim::python {

namespace {

[[noreturn]] void fail(const std::string &message) {
  throw core::InputError(message);
}

std::string typeName(const py::handle &value) {
  return py::str(py::type::of(value).attr("__name__")).cast<std::string>();
}

/// A Python int, float, bool or None as a constexpr value.
triton::ConstexprValue constexprFrom(const std::string &name, const py::handle &value) {
  if (value.is_none())
    return std::monostate{};
  if (py::isinstance<py::bool_>(value))
    return value.cast<bool>();
  if (py::isinstance<py::int_>(value))
    return value.cast<int64_t>();
  if (py::isinstance<py::float_>(value))
    return value.cast<double>();
  fail("consts['" + name + "']: expected an int, a float, a bool or None, got " + typeName(value));
}

triton::ConstexprBindings bindConstexprs(const triton::KernelMetadata &meta, const py::dict &consts,
                                         std::vector<std::string> &given) {
  triton::ConstexprBindings bindings = triton::defaultConstexprs(meta);
  for (const auto &[key, value] : consts) {
    const std::string name = py::str(key).cast<std::string>();
    const triton::ParameterSpec *p = meta.findParameter(name);
    if (!p || !p->isConstexpr) {
      std::string known;
      for (const triton::ParameterSpec &q : meta.parameters)
        if (q.isConstexpr)
          known += (known.empty() ? "" : ", ") + q.name;
      fail("consts['" + name + "']: '" + name + "' is not a constexpr parameter of '" + meta.kernelName +
           "'" + (known.empty() ? std::string(" (it has none)") : " (its constexprs: " + known + ")"));
    }
    bindings[name] = constexprFrom(name, value);
    given.push_back(name);
  }
  return bindings;
}

/// A scalar argument as the parameter's type, range-checked.
reference::Scalar scalarFrom(const triton::ParameterSpec &p, const py::handle &value) {
  const std::string where = "args['" + p.name + "']: ";
  reference::Scalar s;
  if (isArray(value))
    fail(where + p.name + " is a scalar (" + p.typeString + "), got an array");
  if (core::isFloat(p.dtype)) {
    if (!py::isinstance<py::float_>(value) && !py::isinstance<py::int_>(value))
      fail(where + p.name + " is " + p.typeString + "; expected a number, got " + typeName(value));
    s.floatValue = value.cast<double>();
    return s;
  }
  if (!py::isinstance<py::int_>(value))
    fail(where + p.name + " is " + p.typeString + "; expected an int, got " + typeName(value));
  int64_t v = 0;
  try {
    v = value.cast<int64_t>();
  } catch (const py::cast_error &) {
    fail(where + py::str(value).cast<std::string>() + " does not fit " + p.name + "'s type " + p.typeString);
  }
  const int bits = core::bitWidth(p.dtype);
  const bool fits = bits >= 64 ? (core::isSigned(p.dtype) || v >= 0)
                               : (core::isSigned(p.dtype)
                                      ? v >= -(int64_t{1} << (bits - 1)) && v < (int64_t{1} << (bits - 1))
                                      : v >= 0 && v < (int64_t{1} << bits));
  if (!fits)
    fail(where + std::to_string(v) + " does not fit " + p.name + "'s type " + p.typeString);
  s.intValue = v;
  s.floatValue = static_cast<double>(v);
  return s;
}

/// A pointer argument: a C-contiguous array of exactly the signature's dtype.
std::unique_ptr<reference::Buffer> bufferFrom(const triton::ParameterSpec &p, const py::handle &value) {
  const std::string where = "args['" + p.name + "']: ";
  if (!isArray(value))
    fail(where + p.name + " is a pointer (" + p.typeString + "); expected a numpy array or a tensor, got " +
         typeName(value));
  const HostArray array(value, where);
  const std::string expected(core::numpyDescriptor(p.dtype));
  if (array.dtype() != expected)
    fail(where + "the array holds " + array.dtype() + " elements but " + p.name + " is " + p.typeString +
         " (numpy " + expected + ")");
  if (!array.contiguous())
    fail(where + "the array is not contiguous; pass numpy.ascontiguousarray(...) (npusim.run_kernel does)");
  auto buffer = std::make_unique<reference::Buffer>();
  buffer->name = p.name;
  buffer->dtype = p.dtype;
  buffer->bytes.assign(array.data(), array.data() + array.bytes());
  if (p.dtype == core::DType::Bool)
    for (uint8_t &b : buffer->bytes)
      b = b != 0 ? 1 : 0;
  return buffer;
}

struct BoundArguments {
  std::vector<std::pair<const triton::ParameterSpec *, std::unique_ptr<reference::Buffer>>> pointers;
  std::vector<reference::Argument> arguments;    // one per ir::Function parameter
  std::map<std::string, int64_t> integerScalars; // for the grid and the block-size search
};

BoundArguments bindArguments(const triton::KernelMetadata &meta, const ir::Function &function,
                             const py::dict &args) {
  for (const auto &[key, value] : args) {
    const std::string name = py::str(key).cast<std::string>();
    const triton::ParameterSpec *p = meta.findParameter(name);
    if (!p)
      fail("args['" + name + "']: '" + meta.kernelName + "' has no parameter '" + name + "'");
    if (p->isConstexpr)
      fail("args['" + name + "']: '" + name + "' is a constexpr; give it in consts");
  }
  BoundArguments out;
  std::map<std::string, reference::Scalar> scalars;
  std::vector<std::string> missing;
  for (const triton::ParameterSpec &p : meta.parameters) {
    if (p.isConstexpr)
      continue;
    if (!args.contains(p.name.c_str())) {
      auto baked = meta.bodyConstants.find(p.name);
      if (!p.isPointer && baked != meta.bodyConstants.end()) {
        scalars[p.name] = reference::Scalar{baked->second, static_cast<double>(baked->second)};
        out.integerScalars[p.name] = baked->second;
      } else {
        missing.push_back(p.name);
      }
      continue;
    }
    const py::handle value = args[p.name.c_str()];
    if (p.isPointer) {
      out.pointers.emplace_back(&p, bufferFrom(p, value));
      continue;
    }
    scalars[p.name] = scalarFrom(p, value);
    if (!core::isFloat(p.dtype))
      out.integerScalars[p.name] = scalars[p.name].intValue;
  }
  if (!missing.empty()) {
    std::string names;
    for (const std::string &n : missing)
      names += (names.empty() ? "" : ", ") + n;
    fail("missing argument" + std::string(missing.size() > 1 ? "s " : " ") + names + " of '" +
         meta.kernelName + "'");
  }
  std::map<std::string, reference::Buffer *> buffers;
  for (auto &[spec, buffer] : out.pointers)
    buffers[spec->name] = buffer.get();
  out.arguments = runtime::orderArguments(function, buffers, scalars);
  return out;
}

triton::GridSize gridFrom(const py::object &grid) {
  triton::GridSize g;
  if (grid.is_none())
    return g;
  std::vector<int64_t> dims;
  if (py::isinstance<py::int_>(grid))
    dims.push_back(grid.cast<int64_t>());
  else if (py::isinstance<py::tuple>(grid) || py::isinstance<py::list>(grid))
    for (const py::handle d : grid) {
      if (!py::isinstance<py::int_>(d))
        fail("grid expects up to three positive ints, got a " + typeName(d));
      dims.push_back(d.cast<int64_t>());
    }
  else
    fail("grid expects an int or a tuple of up to three positive ints, got " + typeName(grid));
  if (dims.empty() || dims.size() > 3)
    fail("grid expects one to three dimensions, got " + std::to_string(dims.size()));
  int64_t *axes[] = {&g.x, &g.y, &g.z};
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] < 1)
      fail("grid expects positive ints, got " + std::to_string(dims[i]));
    *axes[i] = dims[i];
  }
  return g;
}

py::dict constexprDict(const triton::KernelMetadata &meta, const triton::ConstexprBindings &bindings) {
  py::dict out;
  for (const triton::ParameterSpec &p : meta.parameters) {
    if (!p.isConstexpr)
      continue;
    std::optional<triton::ConstexprValue> v;
    if (auto it = bindings.find(p.name); it != bindings.end())
      v = it->second;
    else if (p.defaultValue)
      v = p.defaultValue;
    if (!v)
      continue;
    std::visit(
        [&](const auto &x) {
          if constexpr (std::is_same_v<std::decay_t<decltype(x)>, std::monostate>)
            out[p.name.c_str()] = py::none();
          else
            out[p.name.c_str()] = x;
        },
        *v);
  }
  return out;
}

/// What one launch gave, before the arrays are written back.
struct Launch {
  triton::GridSize grid;
  triton::ConstexprBindings constexprs;
  int64_t programs = 0;
  std::optional<runtime::StepTiming> timing;
  double compileMs = 0.0, wallMs = 0.0;
  std::string machine;
};

Launch launch(const triton::KernelFile &kernel, const triton::ConstexprBindings &bindings,
              const std::vector<std::string> &given, const py::object &gridArg, BoundArguments &bound,
              const runtime::RunOptions &options) {
  const triton::KernelMetadata &meta = kernel.metadata;
  Launch out;
  out.constexprs = bindings;
  std::unique_ptr<driver::NpuKernel> compiled;
  if (options.mode != runtime::Mode::Reference) {
    const std::vector<std::string> pinned = gridArg.is_none() ? given : meta.freeConstexprs();
    const auto start = std::chrono::steady_clock::now();
    compiled = driver::compileForNpu(kernel, bindings, bound.integerScalars, options.machine, pinned);
    out.compileMs =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    out.constexprs = compiled->constexprs;
    out.machine = options.machine.name;
  }
  if (gridArg.is_none()) {
    auto inferred = triton::inferGrid(meta, out.constexprs, bound.integerScalars);
    if (!inferred)
      fail("kernel has grid type " + (meta.gridType.empty() ? std::string("(none)") : meta.gridType) +
           "; give grid=");
    out.grid = *inferred;
  } else {
    out.grid = gridFrom(gridArg);
  }
  py::gil_scoped_release unlocked;
  if (compiled) {
    // The search's near-ties timed on this launch, as a bundle's steps are
    // (part of compiling).
    const auto start = std::chrono::steady_clock::now();
    const runtime::TimedTiling tiling = runtime::fastestTiling(kernel, *compiled, bound.integerScalars, out.grid,
                                                               bound.arguments, options);
    out.compileMs +=
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    out.constexprs = tiling.kernel->constexprs;
    out.grid = driver::npuGrid(kernel, *tiling.kernel, bound.integerScalars, out.grid);
    const runtime::KernelRun run =
        runtime::runOnNpu(*tiling.kernel, out.grid, bound.arguments, options, meta.kernelName);
    out.programs = run.programs;
    out.wallMs = run.wallMs;
    if (run.timed)
      out.timing = run.timing;
    return out;
  }
  const std::unique_ptr<ir::Function> function = triton::lowerKernel(kernel, bindings);
  const auto start = std::chrono::steady_clock::now();
  out.programs =
      reference::runLaunch(*function, reference::Grid{out.grid.x, out.grid.y, out.grid.z}, bound.arguments)
          .programs;
  out.wallMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return out;
}

py::tuple runKernel(const std::string &source, const std::string &fileName, const py::object &grid,
                    const py::dict &args, const py::dict &consts, const py::object &config,
                    const std::string &mode, const py::object &trace) {
  runtime::RunOptions options;
  options.mode = modeFrom(mode);
  setTrace(options, trace);
  if (options.mode != runtime::Mode::Reference)
    options.machine = machineFrom(config);
  try {
    const triton::KernelFile kernel = triton::loadKernel(source, fileName);
    const triton::KernelMetadata &meta = kernel.metadata;
    std::vector<std::string> given;
    const triton::ConstexprBindings bindings = bindConstexprs(meta, consts, given);
    // Lowered here for the parameters' order; the NPU modes lower again with
    // the block sizes they choose.
    const std::unique_ptr<ir::Function> function = triton::lowerKernel(kernel, bindings);
    BoundArguments bound = bindArguments(meta, *function, args);
    const Launch result = launch(kernel, bindings, given, grid, bound, options);

    py::dict outputs;
    if (options.mode != runtime::Mode::Timing)
      for (auto &[spec, buffer] : bound.pointers) {
        const py::handle value = args[spec->name.c_str()];
        const std::string where = "args['" + spec->name + "']: ";
        HostArray array(value, where);
        if (array.writeable())
          array.write(buffer->bytes, where);
        outputs[spec->name.c_str()] = value;
      }
    py::dict report;
    report["kernel"] = meta.kernelName;
    report["mode"] = runtime::name(options.mode);
    if (!result.machine.empty())
      report["machine"] = result.machine;
    report["grid"] = py::make_tuple(result.grid.x, result.grid.y, result.grid.z);
    report["constexprs"] = constexprDict(meta, result.constexprs);
    report["programs"] = result.programs;
    report["compile_ms"] = result.compileMs;
    report["wall_ms"] = result.wallMs;
    if (result.timing) {
      report["timing"] = jsonToPython(runtime::timingJson(*result.timing));
      report["cycles"] = result.timing->cycles;
    }
    return py::make_tuple(outputs, report);
  } catch (...) {
    raiseCurrent(fileName);
  }
}

} // namespace

void defineRunKernel(py::module_ &m) {
  m.def("run_kernel", &runKernel, py::arg("source"), py::arg("file_name"), py::arg("grid") = py::none(),
        py::arg("args") = py::dict(), py::arg("consts") = py::dict(),
        py::arg("config") = std::string(config::kDefaultPreset), py::arg("mode") = "full",
        py::arg("trace") = py::none(),
        "One launch of a Triton kernel's source; npusim.run_kernel wraps it (docs/python.md)");
}

} // namespace npusim::python
