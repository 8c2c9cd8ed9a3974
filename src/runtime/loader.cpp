// Loading and validating a bundle's graph.json (docs/bundle-format.md).
#include "runtime/loader.h"

#include "core/npy.h"
#include "core/shape.h"
#include "reference/host_calls.h"
#include "runtime/json_node.h"
#include "runtime/loader_internal.h"
#include "runtime/sizes_internal.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <set>
#include <sstream>

namespace npusim::runtime {

int64_t TensorRef::numel() const {
  int64_t n = 1;
  for (int64_t s : shape)
    n *= s;
  return n;
}

std::vector<const triton::ParameterSpec *> runtimeParameters(const triton::KernelMetadata &metadata) {
  std::vector<const triton::ParameterSpec *> params;
  for (const triton::ParameterSpec &p : metadata.parameters)
    if (!p.isConstexpr)
      params.push_back(&p);
  return params;
}

namespace detail {

namespace {
/// The most elements a view may have: a bound that keeps broadcast views (stride 0)
/// from describing more work than any model does.
constexpr int64_t kMaxViewElements = int64_t{1} << 48;
} // namespace

namespace {

std::vector<int64_t> integerList(const json::Node &node, int64_t minimum) {
  std::vector<int64_t> r;
  for (size_t i = 0; i < node.size(); ++i)
    r.push_back(node[i].integerAtLeast(minimum));
  return r;
}

} // namespace

TensorRef parseTensorRef(const json::Node &node, const std::vector<Storage> &storages) {
  node.allowKeys({"storage", "offset", "shape", "stride"});
  TensorRef t;
  t.path = node.path();
  const json::Node storage = node.at("storage");
  t.storage = storage.integerAtLeast(0);
  if (t.storage >= static_cast<int64_t>(storages.size()))
    storage.fail("no storage " + std::to_string(t.storage) + " (the bundle has " +
                 std::to_string(storages.size()) + ")");
  t.offset = node.at("offset").integerAtLeast(0);
  const json::Node shape = node.at("shape");
  shape.expectArray();
  t.shape = integerList(shape, 0);
  const json::Node stride = node.at("stride");
  stride.expectArray();
  for (size_t i = 0; i < stride.size(); ++i)
    t.stride.push_back(stride[i].integer()); // negative strides are legal; the view must stay inside
  if (t.stride.size() != t.shape.size())
    stride.fail("has " + std::to_string(t.stride.size()) + " entries but shape has " +
                std::to_string(t.shape.size()));
  int64_t count = 1;
  for (int64_t extent : t.shape)
    if (__builtin_mul_overflow(count, extent, &count) || count > kMaxViewElements)
      shape.fail("a view of more than 2^48 elements");
  const int64_t elements = storages[static_cast<size_t>(t.storage)].elements;
  int64_t lo = t.offset, hi = t.offset;
  bool empty = false, overflow = false;
  for (size_t i = 0; i < t.shape.size(); ++i) {
    if (t.shape[i] == 0)
      empty = true;
    int64_t step = 0;
    overflow |= __builtin_mul_overflow(t.shape[i] > 0 ? t.shape[i] - 1 : 0, t.stride[i], &step);
    overflow |= __builtin_add_overflow(step < 0 ? lo : hi, step, step < 0 ? &lo : &hi);
  }
  if (empty ? t.offset > elements : (overflow || lo < 0 || hi >= elements))
    node.fail("the view (offset " + std::to_string(t.offset) + ", shape " + core::shapeString(t.shape) +
              ", stride " + core::shapeString(t.stride) + ") addresses " +
              (overflow ? std::string("elements past 2^63") : "element " + std::to_string(lo < 0 ? lo : hi)) +
              ", outside storage " + std::to_string(t.storage) + " of " + std::to_string(elements) +
              " elements");
  return t;
}

Fingerprint parseFingerprint(const json::Node &node, const char *targetKey, int64_t targetCount,
                             const std::function<const TensorRef *(int64_t)> &viewOf,
                             const std::vector<Storage> &storages) {
  if (targetKey)
    node.allowKeys({targetKey, "elements", "sum", "abs_sum", "nan", "inf", "samples"});
  else
    node.allowKeys({"elements", "sum", "abs_sum", "nan", "inf", "samples"});
  Fingerprint f;
  f.path = node.path();
  const TensorRef *view = nullptr;
  if (targetKey) {
    const json::Node target = node.at(targetKey);
    f.target = target.integerAtLeast(0);
    if (f.target >= targetCount)
      target.fail("index " + std::to_string(f.target) + " is out of range (there are " +
                  std::to_string(targetCount) + ")");
    view = viewOf(f.target);
    if (!view)
      target.fail(std::string(targetKey) + " " + std::to_string(f.target) + " is not a tensor");
  } else {
    view = viewOf(-1);
  }
  const bool isFloat = core::isFloat(storages[static_cast<size_t>(view->storage)].dtype);
  const json::Node elements = node.at("elements");
  f.elements = elements.integerAtLeast(0);
  if (f.elements != view->numel())
    elements.fail(std::to_string(f.elements) + " elements, but the tensor " + core::shapeString(view->shape) +
                  " has " + std::to_string(view->numel()));
  const json::Node sum = node.at("sum");
  f.sum = sum.number();
  // Python writes exact integer sums; one past int64 is compared as a double.
  if (!isFloat && sum.raw().is_number_integer() &&
      !(sum.raw().is_number_unsigned() &&
        sum.raw().get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())))
    f.exactSum = sum.integer();
  f.absSum = node.at("abs_sum").number();
  f.nans = node.at("nan").integerAtLeast(0);
  f.infs = node.at("inf").integerAtLeast(0);
  if (!isFloat && (f.nans != 0 || f.infs != 0))
    node.fail("an integer tensor has no NaNs or infinities");
  const json::Node samples = node.at("samples");
  samples.expectArray();
  if (samples.size() > 64)
    samples.fail(std::to_string(samples.size()) + " samples; a fingerprint has at most 64");
  // The indices are round(k * (n - 1) / 63) for k = 0..63 without repeats
  // ((2k(n - 1) + 63) div 126: k(n - 1)/63 is never halfway, 63 being odd).
  std::vector<int64_t> expectedIndices;
  for (int64_t k = 0; k < 64 && f.elements > 0; ++k) {
    const int64_t i = (2 * k * (f.elements - 1) + 63) / 126;
    if (expectedIndices.empty() || expectedIndices.back() != i)
      expectedIndices.push_back(i);
  }
  if (samples.size() != expectedIndices.size())
    samples.fail(std::to_string(samples.size()) + " samples; a fingerprint of " + std::to_string(f.elements) +
                 " elements has " + std::to_string(expectedIndices.size()));
  int64_t previous = -1;
  for (size_t i = 0; i < samples.size(); ++i) {
    const json::Node pair = samples[i];
    pair.expectArray();
    if (pair.size() != 2)
      pair.fail("a sample is [index, value]");
    Sample s;
    const json::Node index = pair[0];
    s.index = index.integerAtLeast(0);
    if (s.index >= f.elements)
      index.fail("sample index " + std::to_string(s.index) + " is outside the " + std::to_string(f.elements) +
                 " elements");
    if (s.index < previous)
      index.fail("sample indices must not decrease");
    if (s.index != expectedIndices[i])
      index.fail("sample " + std::to_string(i) + " is at index " + std::to_string(s.index) +
                 "; expected round(" + std::to_string(i) +
                 " * (n - 1) / 63) = " + std::to_string(expectedIndices[i]));
    previous = s.index;
    const json::Node value = pair[1];
    if (isFloat) {
      s.value = value.number();
    } else {
      s.isInteger = true;
      if (value.raw().is_boolean())
        s.intValue = value.boolean() ? 1 : 0;
      else if (value.isInteger())
        s.intValue = value.integer();
      else
        value.fail("an integer tensor's sample must be an integer, got " + value.describe());
      s.value = static_cast<double>(s.intValue);
    }
    f.samples.push_back(s);
  }
  return f;
}

std::string readFile(const std::filesystem::path &path, const std::string &what) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw core::InputError(what + ": cannot read the file");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

bool isPlainFileName(const std::string &name) {
  return !name.empty() && name != "." && name != ".." && name.find('/') == std::string::npos &&
         name.find('\\') == std::string::npos && name.find('\0') == std::string::npos;
}

} // namespace detail

namespace {

using detail::parseTensorRef;

std::vector<Storage> parseStorages(const json::Node &node) {
  node.expectArray();
  std::vector<Storage> storages;
  for (size_t i = 0; i < node.size(); ++i) {
    const json::Node s = node[i];
    s.allowKeys({"id", "dtype", "elements"});
    Storage storage;
    const json::Node id = s.at("id");
    storage.id = id.integer();
    if (storage.id != static_cast<int64_t>(i))
      id.fail("storage ids are dense from 0 in order: expected " + std::to_string(i) + ", got " +
              std::to_string(storage.id));
    const json::Node dtype = s.at("dtype");
    static const char *const kNames[] = {"fp32", "fp16", "bf16", "fp64", "i1",
                                         "i8",   "i16",  "i32",  "i64",  "u8"};
    const std::string &name = dtype.string();
    bool known = false;
    for (const char *k : kNames)
      known = known || name == k;
    if (!known)
      dtype.fail("unknown dtype '" + name + "' (one of fp32 fp16 bf16 fp64 i1 i8 i16 i32 i64 u8)");
    storage.dtype = *core::parseDType(name);
    const json::Node elements = s.at("elements");
    storage.elements = elements.integerAtLeast(0);
    if (storage.elements > detail::kMaxStorageBytes / core::byteSize(storage.dtype))
      elements.fail(std::to_string(storage.elements) +
                    " elements is more than npusim allocates for a storage");
    storages.push_back(storage);
  }
  return storages;
}

InputInit parseInit(const json::Node &node, core::DType dtype) {
  node.allowKeys({"kind", "low", "high", "value", "stream"});
  InputInit init;
  const json::Node kind = node.at("kind");
  const std::string &k = kind.string();
  if (k == "uniform") {
    init.kind = InitKind::Uniform;
    node.allowKeys({"kind", "low", "high", "stream"});
    if (!core::isFloat(dtype))
      kind.fail("uniform initialises floats, but the storage is " + std::string(core::tritonName(dtype)) +
                " (use randint or constant)");
    init.low = node.at("low").number();
    init.high = node.at("high").number();
    if (!std::isfinite(init.low) || !std::isfinite(init.high) || !(init.low <= init.high))
      node.at("high").fail("uniform needs finite low <= high");
    init.stream = node.at("stream").unsignedInteger();
  } else if (k == "randint") {
    init.kind = InitKind::Randint;
    node.allowKeys({"kind", "low", "high", "stream"});
    init.intLow = node.at("low").integer();
    init.intHigh = node.at("high").integer();
    if (init.intHigh <= init.intLow)
      node.at("high").fail("randint needs high > low");
    init.stream = node.at("stream").unsignedInteger();
  } else if (k == "constant") {
    init.kind = InitKind::Constant;
    const json::Node value = node.at("value");
    if (value.raw().is_boolean()) {
      init.integerValue = value.boolean() ? 1 : 0;
      init.value = static_cast<double>(*init.integerValue);
    } else if (value.isInteger()) {
      init.integerValue = value.integer();
      init.value = static_cast<double>(*init.integerValue);
    } else {
      init.value = value.number();
      if (!core::isFloat(dtype))
        value.fail("a constant for a " + std::string(core::tritonName(dtype)) +
                   " storage must be an integer");
    }
    if (auto stream = node.find("stream"))
      init.stream = stream->unsignedInteger();
  } else {
    kind.fail("unknown init kind '" + k + "' (uniform, randint or constant)");
  }
  return init;
}

} // namespace

namespace detail {

void checkCallsImplemented(const Bundle &bundle) {
  // Every missing operator with the steps that call it, in order of first use,
  // so that one load reports all of them before any step runs.
  std::vector<std::pair<std::string, std::vector<size_t>>> missing;
  for (size_t i = 0; i < bundle.steps.size(); ++i) {
    const Step &step = bundle.steps[i];
    // A random operator's recorded values are written, whatever the operator.
    if (step.kind != Step::Kind::Call || reference::isHostCall(step.name) || !step.recorded.empty())
      continue;
    auto it =
        std::find_if(missing.begin(), missing.end(), [&](const auto &m) { return m.first == step.name; });
    if (it == missing.end())
      it = missing.insert(missing.end(), {step.name, {}});
    it->second.push_back(i);
  }
  if (missing.empty())
    return;
  std::string message = bundle.graphFile + ": steps: " + std::to_string(missing.size()) +
                        (missing.size() == 1 ? " library call" : " library calls") +
                        " not implemented by npusim:";
  for (size_t m = 0; m < missing.size(); ++m) {
    const auto &[op, at] = missing[m];
    message += (m ? "; " : " ") + op + (at.size() == 1 ? " (step " : " (steps ");
    for (size_t k = 0; k < at.size(); ++k)
      message += (k ? ", " : "") + std::to_string(at[k]);
    message += ")";
  }
  throw core::InputError(message);
}

} // namespace detail

namespace {

/// A finite number of `node` that `ok` accepts; otherwise an error saying `range`.
double numberIn(const json::Node &node, const char *range, bool (*ok)(double)) {
  const double v = node.number();
  if (!std::isfinite(v) || !ok(v))
    node.fail(std::string("expected a number in ") + range + ", got " + node.describe());
  return v;
}

/// `model.optimizer`: its name, and for Adam and AdamW the numbers verification
/// derives their bound from (docs/bundle-format.md, "Optimizer steps").
OptimizerDescription parseOptimizer(const json::Node &node) {
  OptimizerDescription o;
  o.path = node.path();
  o.name = node.at("name").string();
  if (!o.isAdam())
    return o;
  o.lr = numberIn(node.at("lr"), "(0, inf)", [](double v) { return v > 0.0; });
  const json::Node betas = node.at("betas");
  if (betas.size() != 2)
    betas.fail("expected two numbers (beta1, beta2), got " + std::to_string(betas.size()));
  o.beta1 = numberIn(betas[0], "[0, 1)", [](double v) { return v >= 0.0 && v < 1.0; });
  o.beta2 = numberIn(betas[1], "(0, 1)", [](double v) { return v > 0.0 && v < 1.0; });
  o.eps = numberIn(node.at("eps"), "[0, inf)", [](double v) { return v >= 0.0; });
  o.weightDecay = numberIn(node.at("weight_decay"), "[0, inf)", [](double v) { return v >= 0.0; });
  return o;
}

json::Json parseGraphJson(std::string_view text, const std::string &graphFile) {
  try {
    return json::Json::parse(text.begin(), text.end());
  } catch (const json::Json::exception &e) { // a syntax error, or a number out of double's range (1e400)
    throw core::InputError(graphFile + ": not valid JSON: " + e.what());
  }
}

} // namespace

std::string bindGraphSizes(std::string_view text, const std::string &graphFile, const SizeBinding &sizes) {
  json::Json document = parseGraphJson(text, graphFile);
  detail::bindSizes(document, graphFile, sizes);
  return document.dump();
}

Bundle parseBundle(std::string_view text, const std::filesystem::path &dir, const std::string &graphFile,
                   const SizeBinding &sizes) {
  json::Json document = parseGraphJson(text, graphFile);
  SizeSummary sizeSummary = detail::bindSizes(document, graphFile, sizes);
  const json::Node root(document, "", graphFile);
  root.allowKeys(
      {"format", "version", "model", "seed", "fingerprint_source", "storages", "inputs", "steps", "outputs"});
  const json::Node format = root.at("format");
  if (format.string() != "npusim-bundle")
    format.fail("expected \"npusim-bundle\", got " + format.describe());
  const json::Node version = root.at("version");
  if (!version.isInteger() || version.integer() != 1)
    version.fail("this npusim reads bundle format version 1, got " + version.describe());
  Bundle bundle;
  bundle.sizes = std::move(sizeSummary);
  if (auto model = root.find("model")) {
    model->expectObject();
    if (auto optimizer = model->find("optimizer"))
      bundle.optimizer = parseOptimizer(*optimizer);
  }

  bundle.dir = dir;
  bundle.graphFile = graphFile;
  bundle.seed = root.at("seed").unsignedInteger();
  if (auto source = root.find("fingerprint_source")) {
    bundle.fingerprintSource = source->string();
    if (bundle.fingerprintSource != "device" && bundle.fingerprintSource != "npusim-reference")
      source->fail("expected \"device\" or \"npusim-reference\", got " + source->describe());
  }
  bundle.storages = parseStorages(root.at("storages"));

  const json::Node inputs = root.at("inputs");
  inputs.expectArray();
  std::set<std::string> names;
  std::set<uint64_t> streams;
  std::map<int64_t, size_t> inputOfStorage; // the first input on each storage
  for (size_t i = 0; i < inputs.size(); ++i) {
    const json::Node in = inputs[i];
    in.allowKeys({"name", "tensor", "init"});
    Input input;
    input.path = in.path();
    input.name = in.at("name").string();
    if (!names.insert(input.name).second)
      in.at("name").fail("input name '" + input.name + "' is used twice");
    input.tensor = parseTensorRef(in.at("tensor"), bundle.storages);
    input.init = parseInit(in.at("init"), bundle.storages[static_cast<size_t>(input.tensor.storage)].dtype);
    // Two inputs may view one storage (it is generated once), with the same init.
    if (auto first = inputOfStorage.find(input.tensor.storage); first != inputOfStorage.end()) {
      if (in.at("init").raw() != inputs[first->second].at("init").raw())
        in.at("init").fail("storage " + std::to_string(input.tensor.storage) + " is also input " +
                           std::to_string(first->second) + "'s, with a different init");
    } else {
      inputOfStorage.emplace(input.tensor.storage, i);
      if (input.init.kind != InitKind::Constant && !streams.insert(input.init.stream).second)
        in.at("init").at("stream").fail("stream " + std::to_string(input.init.stream) +
                                        " is used by another input; streams are distinct per input");
    }
    bundle.inputs.push_back(std::move(input));
  }

  const json::Node steps = root.at("steps");
  steps.expectArray();
  for (size_t i = 0; i < steps.size(); ++i)
    bundle.steps.push_back(detail::parseStep(steps[i], bundle));
  detail::checkCallsImplemented(bundle);

  const json::Node outputs = root.at("outputs");
  outputs.expectArray();
  for (size_t i = 0; i < outputs.size(); ++i) {
    const json::Node o = outputs[i];
    o.allowKeys({"name", "tensor", "reference", "fingerprint"});
    Output output;
    output.path = o.path();
    output.name = o.at("name").string();
    output.tensor = parseTensorRef(o.at("tensor"), bundle.storages);
    if (!bundle.sizes.hasFingerprints()) { // no reference values at these sizes
      output.hasFingerprint = false;
      bundle.outputs.push_back(std::move(output));
      continue;
    }
    constexpr int64_t kReferenceMaxElements = 65536;
    if (output.tensor.numel() <= kReferenceMaxElements && !o.find("reference"))
      o.fail("an output of " + std::to_string(output.tensor.numel()) +
             " elements (at most 65,536) carries its reference values: missing key 'reference'");
    if (auto ref = o.find("reference"); ref && !ref->isNull()) {
      output.reference = ref->string();
      const std::filesystem::path rel(output.reference);
      bool escapes = rel.is_absolute() || rel.empty();
      for (const auto &part : rel)
        escapes = escapes || part == "..";
      if (escapes)
        ref->fail("the reference must be a relative path inside the bundle, got '" + output.reference + "'");
      const std::filesystem::path file = dir / rel;
      core::NpyArray array;
      try {
        array = core::readNpy(file.string());
      } catch (const core::InputError &e) {
        ref->fail(e.what());
      }
      if (array.numElements() != output.tensor.numel())
        ref->fail(file.string() + " holds " + std::to_string(array.numElements()) +
                  " elements, but the output " + core::shapeString(output.tensor.shape) + " has " +
                  std::to_string(output.tensor.numel()));
    }
    const TensorRef *view = &output.tensor;
    output.fingerprint = detail::parseFingerprint(
        o.at("fingerprint"), nullptr, 0, [&](int64_t) { return view; }, bundle.storages);
    bundle.outputs.push_back(std::move(output));
  }
  return bundle;
}

Bundle loadBundle(const std::filesystem::path &dir, const SizeBinding &sizes) {
  const std::filesystem::path graph = dir / "graph.json";
  const std::string graphFile = graph.string();
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec))
    throw core::InputError(dir.string() + ": not a bundle directory");
  if (!std::filesystem::is_regular_file(graph, ec))
    throw core::InputError(graphFile + ": missing (a bundle directory holds graph.json)");
  return parseBundle(detail::readFile(graph, graphFile), dir, graphFile, sizes);
}

} // namespace npusim::runtime
