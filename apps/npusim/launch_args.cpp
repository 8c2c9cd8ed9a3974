#include "launch_args.h"

#include "cli.h"
#include "core/npy.h"
#include "generator.h"
#include "runtime/kernels.h"

#include <algorithm>
#include <limits>

namespace npusim::cli {

namespace {

[[noreturn]] void fail(const std::string &message) {
  throw core::InputError(message);
}

std::string npyWithSize(core::DType dtype) {
  return std::string(core::numpyDescriptor(dtype)) + " (" + std::to_string(core::byteSize(dtype)) +
         "-byte elements)";
}

bool isNumelName(const std::string &name) {
  return name.size() >= 5 && name.compare(name.size() - 5, 5, "numel") == 0;
}

/// A scalar argument's text as the parameter's type, range-checked.
reference::Scalar parseScalar(const triton::ParameterSpec &p, const std::string &text) {
  reference::Scalar s;
  const std::string where = "--arg " + p.name + "=" + text + ": ";
  if (p.dtype == core::DType::Bool) {
    if (text == "True" || text == "true" || text == "1")
      s.intValue = 1;
    else if (text == "False" || text == "false" || text == "0")
      s.intValue = 0;
    else
      fail(where + p.name + " is " + p.typeString + "; give True or False");
    s.floatValue = static_cast<double>(s.intValue);
    return s;
  }
  if (core::isFloat(p.dtype)) {
    auto v = parseNumber(text);
    if (!v)
      fail(where + "'" + text + "' is not a number (" + p.name + " is " + p.typeString + ")");
    s.floatValue = *v;
    return s;
  }
  auto v = parseInteger(text);
  if (!v)
    fail(where + "'" + text + "' is not an integer (" + p.name + " is " + p.typeString + ")");
  const int bits = core::bitWidth(p.dtype);
  if (bits < 64) {
    const int64_t lo = core::isSigned(p.dtype) ? -(int64_t{1} << (bits - 1)) : 0;
    const int64_t hi = core::isSigned(p.dtype) ? (int64_t{1} << (bits - 1)) - 1 : (int64_t{1} << bits) - 1;
    if (*v < lo || *v > hi)
      fail(where + text + " does not fit " + p.name + "'s type " + p.typeString);
  } else if (!core::isSigned(p.dtype) && *v < 0) {
    fail(where + text + " does not fit " + p.name + "'s type " + p.typeString);
  }
  s.intValue = *v;
  s.floatValue = static_cast<double>(*v);
  return s;
}

std::unique_ptr<reference::Buffer> bufferFromFile(const triton::ParameterSpec &p, const std::string &path) {
  if (parseNumber(path))
    fail("--arg " + p.name + "=" + path + ": " + p.name + " is a pointer (" + p.typeString +
         "); give a .npy file, or leave it out to have npusim generate the buffer");
  core::NpyArray array;
  try {
    array = core::readNpy(path);
  } catch (const core::InputError &e) {
    fail("--arg " + p.name + ": " + e.what());
  }
  if (core::byteSize(array.dtype) != core::byteSize(p.dtype))
    fail("--arg " + p.name + "=" + path + ": the file holds " + npyWithSize(array.dtype) + " but " + p.name +
         " is " + p.typeString + " (" + std::to_string(core::byteSize(p.dtype)) +
         "-byte elements); the element sizes must match");
  auto buffer = std::make_unique<reference::Buffer>();
  buffer->name = p.name;
  buffer->dtype = p.dtype;
  buffer->bytes = std::move(array.bytes);
  if (p.dtype == core::DType::Bool)
    for (uint8_t &b : buffer->bytes)
      b = b != 0 ? 1 : 0;
  return buffer;
}

} // namespace

std::optional<int64_t> defaultBufferElements(const triton::KernelMetadata &metadata,
                                             const std::map<std::string, int64_t> &integerScalars) {
  const bool hasR0 = metadata.findParameter("r0_numel") != nullptr;
  std::optional<int64_t> product;
  for (const triton::ParameterSpec &p : metadata.parameters) {
    if (p.isConstexpr || p.isPointer || !isNumelName(p.name) || (hasR0 && p.name == "rnumel"))
      continue;
    auto it = integerScalars.find(p.name);
    if (it == integerScalars.end())
      continue;
    const int64_t n = std::max<int64_t>(it->second, 0);
    int64_t acc = product.value_or(1);
    if (n != 0 && acc > std::numeric_limits<int64_t>::max() / n)
      acc = std::numeric_limits<int64_t>::max();
    else
      acc *= n;
    product = acc;
  }
  return product;
}

LaunchArguments bindArguments(const triton::KernelMetadata &metadata, const ir::Function &function,
                              const std::vector<ArgOption> &args, const std::vector<SizeOption> &sizes,
                              uint64_t seed) {
  // Check the names first: every --arg and --size must name a run-time parameter, once.
  std::map<std::string, const ArgOption *> given;
  for (const ArgOption &a : args) {
    const triton::ParameterSpec *p = metadata.findParameter(a.name);
    if (!p)
      fail("--arg " + a.name + ": '" + metadata.kernelName + "' has no parameter '" + a.name + "'");
    if (p->isConstexpr)
      fail("--arg " + a.name + ": '" + a.name + "' is a constexpr; set it with --const " + a.name + "=VALUE");
    if (!given.emplace(a.name, &a).second)
      fail("--arg " + a.name + " is given more than once");
  }
  std::map<std::string, int64_t> sized;
  for (const SizeOption &s : sizes) {
    const triton::ParameterSpec *p = metadata.findParameter(s.name);
    if (!p || !p->isPointer)
      fail("--size " + s.name + ": '" + s.name + "' is not a pointer parameter of '" + metadata.kernelName +
           "'");
    if (given.count(s.name))
      fail("--size " + s.name + ": the buffer comes from --arg " + s.name + "; give one of the two");
    if (s.elements < 0 || s.elements > kMaxGeneratedElements)
      fail("--size " + s.name + "=" + std::to_string(s.elements) + ": the size must be in [0, " +
           std::to_string(kMaxGeneratedElements) + "]");
    if (!sized.emplace(s.name, s.elements).second)
      fail("--size " + s.name + " is given more than once");
  }

  LaunchArguments out;
  std::map<std::string, reference::Scalar> scalars;
  std::vector<std::string> missing;
  for (const triton::ParameterSpec &p : metadata.parameters) {
    if (p.isConstexpr || p.isPointer)
      continue;
    auto it = given.find(p.name);
    if (it == given.end()) {
      // A size the body re-binds to a literal is unused by the kernel: default to it.
      if (auto baked = metadata.bodyConstants.find(p.name); baked != metadata.bodyConstants.end()) {
        scalars[p.name].intValue = baked->second;
        scalars[p.name].floatValue = static_cast<double>(baked->second);
        out.integerScalars[p.name] = baked->second;
        continue;
      }
      missing.push_back(p.name);
      continue;
    }
    reference::Scalar s = parseScalar(p, it->second->value);
    scalars[p.name] = s;
    if (!core::isFloat(p.dtype))
      out.integerScalars[p.name] = s.intValue;
  }
  if (!missing.empty()) {
    std::string names;
    for (const std::string &n : missing)
      names += (names.empty() ? "" : ", ") + n;
    fail("missing scalar argument" + std::string(missing.size() > 1 ? "s " : " ") + names + " of '" +
         metadata.kernelName + "'; give " + (missing.size() > 1 ? "each as " : "it as ") + "--arg " +
         missing.front() + "=VALUE");
  }

  const std::optional<int64_t> defaultElements = defaultBufferElements(metadata, out.integerScalars);
  for (size_t index = 0; index < metadata.parameters.size(); ++index) {
    const triton::ParameterSpec &p = metadata.parameters[index];
    if (!p.isPointer || p.isConstexpr)
      continue;
    PointerArgument ptr;
    ptr.parameter = &p;
    if (auto it = given.find(p.name); it != given.end()) {
      ptr.buffer = bufferFromFile(p, it->second->value);
      ptr.source = BufferSource::File;
    } else {
      int64_t elements = 0;
      if (auto s = sized.find(p.name); s != sized.end()) {
        elements = s->second;
        ptr.source = BufferSource::SizeOption;
      } else if (defaultElements) {
        elements = *defaultElements;
        if (elements > kMaxGeneratedElements)
          fail("pointer argument " + p.name + " would get " + std::to_string(elements) +
               " elements (the product of the numel arguments), more than npusim generates (" +
               std::to_string(kMaxGeneratedElements) + "); give --arg " + p.name + "=FILE.npy or --size " +
               p.name + "=ELEMENTS");
        ptr.source = BufferSource::NumelRule;
      } else {
        fail("cannot size pointer argument " + p.name + ": '" + metadata.kernelName +
             "' has no numel arguments; give --arg " + p.name + "=FILE.npy or --size " + p.name +
             "=ELEMENTS");
      }
      ptr.buffer = std::make_unique<reference::Buffer>();
      ptr.buffer->name = p.name;
      ptr.buffer->dtype = p.dtype;
      ptr.buffer->bytes = generateElements(p.dtype, elements, seed, index);
    }
    out.pointers.push_back(std::move(ptr));
  }

  std::map<std::string, reference::Buffer *> buffers;
  for (const PointerArgument &ptr : out.pointers)
    buffers[ptr.parameter->name] = ptr.buffer.get();
  out.arguments = runtime::orderArguments(function, buffers, scalars);
  return out;
}

} // namespace npusim::cli
