// Loading the steps of a bundle: kernel launches (checked against the kernel
// file's signature) and library calls.
#include "runtime/loader_internal.h"

#include <set>
#include <variant>

namespace npusim::runtime::detail {

namespace {

CallValue parseCallValue(const json::Node &node, const std::vector<Storage> &storages) {
  CallValue v;
  const json::Json &raw = node.raw();
  if (raw.is_null()) {
    v.kind = CallValue::Kind::None;
  } else if (raw.is_boolean()) {
    v.kind = CallValue::Kind::Bool;
    v.boolValue = node.boolean();
  } else if (raw.is_number_integer()) {
    v.kind = CallValue::Kind::Int;
    v.intValue = node.integer();
  } else if (raw.is_number()) {
    v.kind = CallValue::Kind::Float;
    v.floatValue = node.number();
  } else if (raw.is_string()) {
    v.kind = CallValue::Kind::String;
    v.stringValue = node.string();
  } else if (raw.is_array()) {
    v.kind = CallValue::Kind::List;
    for (size_t i = 0; i < node.size(); ++i)
      v.list.push_back(parseCallValue(node[i], storages));
  } else {
    node.allowKeys({"tensor"});
    v.kind = CallValue::Kind::Tensor;
    v.tensor = parseTensorRef(node.at("tensor"), storages);
  }
  return v;
}

const triton::KernelFile &loadKernel(const json::Node &node, Bundle &bundle) {
  const std::string &name = node.string();
  if (!isPlainFileName(name))
    node.fail("a kernel name is a file name in kernels/, got '" + name + "'");
  auto it = bundle.kernels.find(name);
  if (it != bundle.kernels.end())
    return *it->second;
  const std::filesystem::path file = bundle.dir / "kernels" / (name + ".py");
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec))
    node.fail("the kernel file " + file.string() + " is missing");
  try {
    auto kernel = std::make_unique<triton::KernelFile>(triton::loadKernelFile(file.string()));
    return *bundle.kernels.emplace(name, std::move(kernel)).first->second;
  } catch (const core::CompileError &e) {
    node.fail(e.what());
  }
}

/// An integer scalar range-checked against the parameter's type.
int64_t scalarInteger(const json::Node &value, const triton::ParameterSpec &p) {
  if (p.dtype == core::DType::Bool) {
    if (value.raw().is_boolean())
      return value.boolean() ? 1 : 0;
    const int64_t v = value.integer();
    if (v != 0 && v != 1)
      value.fail(p.name + " is i1; expected 0, 1, true or false");
    return v;
  }
  const int64_t v = value.integer();
  const int bits = core::bitWidth(p.dtype);
  if (bits < 64) {
    const int64_t lo = core::isSigned(p.dtype) ? -(int64_t{1} << (bits - 1)) : 0;
    const int64_t hi = core::isSigned(p.dtype) ? (int64_t{1} << (bits - 1)) - 1 : (int64_t{1} << bits) - 1;
    if (v < lo || v > hi)
      value.fail(std::to_string(v) + " does not fit " + p.name + "'s type " + p.typeString);
  } else if (!core::isSigned(p.dtype) && v < 0) {
    value.fail(std::to_string(v) + " does not fit " + p.name + "'s type " + p.typeString);
  }
  return v;
}

void parseLaunch(const json::Node &node, Bundle &bundle, Step &step) {
  // num_warps and num_stages (the GPU's launch configuration) do not apply to the NPU.
  node.allowKeys(
      {"kind", "kernel", "grid", "constexprs", "args", "writes", "fingerprints", "num_warps", "num_stages"});
  const triton::KernelFile &kernel = loadKernel(node.at("kernel"), bundle);
  const triton::KernelMetadata &meta = kernel.metadata;
  step.kernel = &kernel;
  step.name = node.at("kernel").string();

  const json::Node grid = node.at("grid");
  if (grid.size() < 1 || grid.size() > 3)
    grid.fail("a grid has 1 to 3 entries, got " + std::to_string(grid.size()));
  for (size_t i = 0; i < grid.size(); ++i)
    step.grid[i] = grid[i].integerAtLeast(0);

  const json::Node constexprs = node.at("constexprs");
  constexprs.expectObject();
  for (auto it = constexprs.raw().begin(); it != constexprs.raw().end(); ++it) {
    const json::Node value = *constexprs.find(it.key());
    const triton::ParameterSpec *p = meta.findParameter(it.key());
    if (!p || !p->isConstexpr)
      value.fail("'" + it.key() + "' is not a constexpr parameter of " + meta.kernelName);
    const json::Json &raw = value.raw();
    if (raw.is_null())
      step.constexprs[it.key()] = std::monostate{};
    else if (raw.is_boolean())
      step.constexprs[it.key()] = value.boolean();
    else if (raw.is_number_integer())
      step.constexprs[it.key()] = value.integer();
    else
      step.constexprs[it.key()] = value.number();
  }
  for (const std::string &free : meta.freeConstexprs())
    if (!step.constexprs.count(free))
      constexprs.fail("the kernel's constexpr " + free +
                      " has no value (constexprs gives the launcher's choice)");

  // args are the run-time parameters in def order. Triton specialises some
  // integer parameters (xnumel = 1) into constexprs listed in triton_meta's
  // constants; the launcher still passes them, so a bundle may list them too,
  // with their constant value.
  const std::vector<const triton::ParameterSpec *> params = runtimeParameters(meta);
  std::vector<const triton::ParameterSpec *> withConstants;
  for (const triton::ParameterSpec &p : meta.parameters)
    if (!p.isConstexpr || (meta.constants.count(p.name) && !step.constexprs.count(p.name)))
      withConstants.push_back(&p);
  const json::Node args = node.at("args");
  const bool listsConstants = args.size() != params.size() && args.size() == withConstants.size();
  if (args.size() != params.size() && !listsConstants)
    args.fail(std::to_string(args.size()) + " arguments, but " + meta.kernelName + " has " +
              std::to_string(params.size()) + " run-time parameters" +
              (withConstants.size() != params.size()
                   ? " (" + std::to_string(withConstants.size()) + " with its specialised constants)"
                   : std::string()));
  const std::vector<const triton::ParameterSpec *> &listed = listsConstants ? withConstants : params;
  for (size_t i = 0; i < listed.size(); ++i) {
    const triton::ParameterSpec &p = *listed[i];
    const json::Node arg = args[i];
    step.argNames.push_back(p.name);
    if (p.isConstexpr) { // a specialised constant: its value must be the constant's
      arg.allowKeys({"value"});
      const json::Node value = arg.at("value");
      const triton::ConstexprValue &constant = meta.constants.at(p.name);
      bool same = false;
      if (const int64_t *iv = std::get_if<int64_t>(&constant))
        same = value.isInteger() && value.integer() == *iv;
      else if (const bool *bv = std::get_if<bool>(&constant))
        same =
            value.raw().is_boolean() ? value.boolean() == *bv : value.isInteger() && value.integer() == *bv;
      else if (const double *dv = std::get_if<double>(&constant))
        same = value.raw().is_number() && value.number() == *dv;
      else
        same = value.isNull();
      if (!same)
        value.fail(p.name + " is specialised to the constant " + triton::toString(constant) +
                   " in the kernel, got " + value.describe());
      LaunchArg a;
      a.isConstant = true;
      step.args.push_back(std::move(a));
      continue;
    }
    LaunchArg a;
    if (p.isPointer) {
      arg.allowKeys({"tensor"});
      a.isTensor = true;
      a.tensor = parseTensorRef(arg.at("tensor"), bundle.storages);
      const core::DType dtype = bundle.storages[static_cast<size_t>(a.tensor.storage)].dtype;
      if (core::byteSize(dtype) != core::byteSize(p.dtype))
        arg.at("tensor").at("storage").fail("storage " + std::to_string(a.tensor.storage) + " holds " +
                                            std::string(core::tritonName(dtype)) + " but " + p.name + " is " +
                                            p.typeString + "; the element sizes must match");
    } else {
      arg.allowKeys({"value"});
      const json::Node value = arg.at("value");
      if (core::isFloat(p.dtype)) {
        a.floatValue = value.number();
      } else {
        a.isInteger = true;
        a.intValue = scalarInteger(value, p);
        a.floatValue = static_cast<double>(a.intValue);
      }
    }
    step.args.push_back(std::move(a));
  }

  const json::Node writes = node.at("writes");
  writes.expectArray();
  std::set<int64_t> seen;
  for (size_t i = 0; i < writes.size(); ++i) {
    const int64_t w = writes[i].integerAtLeast(0);
    if (w >= static_cast<int64_t>(step.args.size()) || !step.args[static_cast<size_t>(w)].isTensor)
      writes[i].fail("argument " + std::to_string(w) + " is not a pointer argument");
    if (!seen.insert(w).second)
      writes[i].fail("argument " + std::to_string(w) + " is listed twice");
    step.writes.push_back(w);
  }

  if (auto fingerprints = node.find("fingerprints")) {
    fingerprints->expectArray();
    for (size_t i = 0; i < fingerprints->size(); ++i) {
      const json::Node fp = (*fingerprints)[i];
      fp.expectObject();
      if (auto arg = fp.find("arg"); arg && arg->isInteger() && !seen.count(arg->integer()) &&
                                     arg->integer() >= 0 &&
                                     arg->integer() < static_cast<int64_t>(step.args.size()) &&
                                     step.args[static_cast<size_t>(arg->integer())].isTensor)
        arg->fail("argument " + std::to_string(arg->integer()) + " is not in writes");
      step.fingerprints.push_back(parseFingerprint(
          fp, "arg", static_cast<int64_t>(step.args.size()),
          [&](int64_t k) {
            return step.args[static_cast<size_t>(k)].isTensor ? &step.args[static_cast<size_t>(k)].tensor
                                                              : nullptr;
          },
          bundle.storages));
    }
  }
}

/// `values` of a call: [{"out": k, "data": [...]}], one number per element of out[k].
void parseRecordedValues(const json::Node &values, const Bundle &bundle, Step &step) {
  values.expectArray();
  for (size_t i = 0; i < values.size(); ++i) {
    const json::Node v = values[i];
    v.expectObject();
    v.allowKeys({"out", "data"});
    const json::Node out = v.at("out");
    const int64_t k = out.integerAtLeast(0);
    if (k >= static_cast<int64_t>(step.out.size()) || !step.out[static_cast<size_t>(k)])
      out.fail("names out[" + std::to_string(k) + "], which the call does not write");
    const TensorRef &ref = *step.out[static_cast<size_t>(k)];
    const json::Node data = v.at("data");
    data.expectArray();
    if (static_cast<int64_t>(data.size()) != ref.numel())
      data.fail(std::to_string(data.size()) + " values for out[" + std::to_string(k) + "] of " +
                std::to_string(ref.numel()) + " elements");
    RecordedValues r;
    r.out = static_cast<size_t>(k);
    const bool integral = !core::isFloat(bundle.storages[static_cast<size_t>(ref.storage)].dtype);
    for (size_t e = 0; e < data.size(); ++e) {
      if (integral)
        r.integers.push_back(data[e].integer());
      else
        r.floats.push_back(data[e].number());
    }
    step.recorded.push_back(std::move(r));
  }
}

/// A call whose `output_mask` (aten.convolution_backward) or `grad_input_mask`
/// (the efficient attention backward) leaves some results out returns None for them, and
/// the capture lists only the tensors the call writes: `out` then holds one entry
/// per selected result, in result order. Places those entries on their result
/// positions (null for the others), renumbering the fingerprints and recorded
/// values that name them, so that every reader of the step sees one layout.
void placeMaskedResults(Step &step) {
  const core::OperatorSchema *schema = core::findSchema(step.name);
  if (!schema)
    return;
  size_t maskArg = schema->arguments.size();
  for (size_t i = 0; i < schema->arguments.size(); ++i)
    if (schema->arguments[i].name == "output_mask" || schema->arguments[i].name == "grad_input_mask")
      maskArg = i;
  if (maskArg >= step.callArgs.size() || step.callArgs[maskArg].kind != CallValue::Kind::List)
    return;
  const std::vector<CallValue> &mask = step.callArgs[maskArg].list;
  if (mask.size() != schema->results.size() || step.out.size() >= mask.size())
    return;
  std::vector<size_t> position; // out index as recorded -> result position
  for (size_t r = 0; r < mask.size(); ++r)
    if (mask[r].kind == CallValue::Kind::Bool && mask[r].boolValue)
      position.push_back(r);
  if (position.size() != step.out.size())
    return; // neither layout: the operator reports the mismatch when it runs
  std::vector<std::optional<TensorRef>> placed(mask.size());
  for (size_t k = 0; k < position.size(); ++k)
    placed[position[k]] = std::move(step.out[k]);
  step.out = std::move(placed);
  for (Fingerprint &f : step.fingerprints)
    f.target = static_cast<int64_t>(position[static_cast<size_t>(f.target)]);
  for (RecordedValues &v : step.recorded)
    v.out = position[v.out];
}

void parseCall(const json::Node &node, Bundle &bundle, Step &step) {
  node.allowKeys({"kind", "op", "args", "out", "fingerprints", "values"});
  const json::Node op = node.at("op");
  step.name = op.string();
  if (step.name.empty())
    op.fail("an empty operator name");
  const json::Node args = node.at("args");
  args.expectArray();
  for (size_t i = 0; i < args.size(); ++i)
    step.callArgs.push_back(parseCallValue(args[i], bundle.storages));
  const json::Node out = node.at("out");
  out.expectArray();
  for (size_t i = 0; i < out.size(); ++i) {
    const json::Node o = out[i];
    if (o.isNull()) {
      step.out.emplace_back(std::nullopt);
      continue;
    }
    o.allowKeys({"tensor"});
    step.out.emplace_back(parseTensorRef(o.at("tensor"), bundle.storages));
  }
  if (auto values = node.find("values"))
    parseRecordedValues(*values, bundle, step);
  if (auto fingerprints = node.find("fingerprints")) {
    fingerprints->expectArray();
    for (size_t i = 0; i < fingerprints->size(); ++i)
      step.fingerprints.push_back(parseFingerprint(
          (*fingerprints)[i], "out", static_cast<int64_t>(step.out.size()),
          [&](int64_t k) {
            return step.out[static_cast<size_t>(k)] ? &*step.out[static_cast<size_t>(k)] : nullptr;
          },
          bundle.storages));
  }
  placeMaskedResults(step);
}

} // namespace

Step parseStep(const json::Node &node, Bundle &bundle) {
  node.expectObject();
  Step step;
  step.path = node.path();
  const json::Node kind = node.at("kind");
  const std::string &k = kind.string();
  if (k == "launch") {
    step.kind = Step::Kind::Launch;
    parseLaunch(node, bundle, step);
  } else if (k == "call") {
    step.kind = Step::Kind::Call;
    parseCall(node, bundle, step);
  } else {
    kind.fail("unknown step kind '" + k + "' (launch or call)");
  }
  return step;
}

} // namespace npusim::runtime::detail
