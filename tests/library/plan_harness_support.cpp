#include "library/plan_harness.h"

#include "reference/host_calls.h"
#include "triton/frontend.h"

#include <chrono>
#include <cmath>
#include <map>
#include <sstream>

namespace npusim::library::harness {

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// Numerical Recipes' 32-bit LCG: the same values on every platform.
class Lcg {
public:
  explicit Lcg(uint32_t seed) : state_(seed * 2654435761u + 12345u) {}
  double unit() {
    state_ = state_ * 1664525u + 1013904223u;
    return static_cast<double>(state_ >> 8) / static_cast<double>(1u << 24);
  }

private:
  uint32_t state_;
};

struct LoweredKernel {
  triton::KernelFile file;
  std::unique_ptr<ir::Function> function;
};

} // namespace

const ir::Function &loweredKernel(const KernelLaunch &launch) {
  static std::map<std::string, std::unique_ptr<LoweredKernel>> cache;
  std::string key = launch.kernelName;
  triton::ConstexprBindings bindings;
  for (const auto &[name, value] : launch.constexprs) {
    bindings[name] = value;
    key += " " + name + "=" + std::to_string(value);
  }
  auto it = cache.find(key);
  if (it != cache.end())
    return *it->second->function;
  auto k = std::make_unique<LoweredKernel>();
  k->file = triton::loadKernel(launch.source, launch.kernelName + ".py");
  k->function = triton::lowerKernel(k->file, bindings);
  return *cache.emplace(key, std::move(k)).first->second->function;
}

namespace {

double ulpOf(core::DType t) {
  if (t == core::DType::Float16)
    return std::ldexp(1.0, -10);
  if (t == core::DType::BFloat16)
    return std::ldexp(1.0, -7);
  return 0.0;
}

reference::HostCallValue toLibraryValue(const CallArgument &a,
                                       std::vector<std::unique_ptr<reference::Buffer>> &buffers) {
  reference::HostCallValue v;
  v.kind = static_cast<reference::HostCallValue::Kind>(static_cast<int>(a.kind));
  v.intValue = a.intValue;
  v.floatValue = a.floatValue;
  v.boolValue = a.boolValue;
  v.stringValue = a.stringValue;
  if (a.kind == CallArgument::Kind::Tensor) {
    v.tensor.buffer = buffers.at(static_cast<size_t>(a.tensor.buffer)).get();
    v.tensor.offset = a.tensor.offset;
    v.tensor.shape = a.tensor.shape;
    v.tensor.stride = a.tensor.stride;
  }
  for (const CallArgument &e : a.list)
    v.list.push_back(toLibraryValue(e, buffers));
  return v;
}

} // namespace

void addScratch(const CallPlan &plan, std::vector<std::unique_ptr<reference::Buffer>> &buffers, int scratchBase) {
  for (size_t i = 0; i < plan.scratch.size(); ++i) {
    const size_t id = static_cast<size_t>(scratchBase) + i;
    if (buffers.size() <= id)
      buffers.resize(id + 1);
    buffers[id] = std::make_unique<reference::Buffer>();
    buffers[id]->name = "scratch " + std::to_string(i);
    buffers[id]->dtype = plan.scratch[i].dtype;
    buffers[id]->bytes.assign(static_cast<size_t>(plan.scratch[i].elements * core::byteSize(plan.scratch[i].dtype)),
                              0);
  }
}

RunStats runPlan(const CallPlan &plan, std::vector<std::unique_ptr<reference::Buffer>> &buffers, int scratchBase) {
  RunStats stats;
  const auto start = Clock::now();
  addScratch(plan, buffers, scratchBase);
  for (const KernelLaunch &launch : plan.launches) {
    const ir::Function &function = loweredKernel(launch);
    if (function.parameters().size() != launch.arguments.size())
      throw core::RuntimeError(launch.kernelName + ": " + std::to_string(launch.arguments.size()) +
                               " arguments for " + std::to_string(function.parameters().size()) + " parameters");
    std::vector<reference::Argument> arguments;
    for (const KernelArgument &k : launch.arguments) {
      reference::Argument a;
      if (k.isPointer) {
        a.buffer = buffers.at(static_cast<size_t>(k.buffer)).get();
        a.elementOffset = k.elementOffset;
      } else {
        a.scalar.intValue = k.intValue;
        a.scalar.floatValue = k.floatValue;
      }
      arguments.push_back(a);
    }
    const reference::LaunchStats s =
        reference::runLaunch(function, reference::Grid{launch.grid[0], launch.grid[1], launch.grid[2]}, arguments);
    stats.programs += s.programs;
    ++stats.launches;
  }
  stats.kernelSeconds = secondsSince(start);
  return stats;
}

TensorRef CallFixture::tensor(core::DType dtype, std::vector<int64_t> shape, std::vector<int64_t> stride,
                              int64_t offset, double lo, double hi) {
  if (stride.empty()) {
    stride.assign(shape.size(), 1);
    for (size_t i = shape.size(); i-- > 1;)
      stride[i - 1] = stride[i] * shape[i];
  }
  int64_t reach = 0;
  for (size_t i = 0; i < shape.size(); ++i)
    if (shape[i] > 0)
      reach += (shape[i] - 1) * stride[i];
  TensorRef t;
  t.buffer = static_cast<int>(specs_.size());
  t.offset = offset;
  t.shape = std::move(shape);
  t.stride = std::move(stride);
  t.dtype = dtype;
  specs_.push_back(Spec{dtype, offset + reach + 1 + 5, nextSeed_++, lo, hi});
  return t;
}

void CallFixture::set(const TensorRef &t, int64_t elementIndex, double value) {
  overrides_.push_back({{t.buffer, elementIndex}, value});
}

CallArgument CallFixture::arg(const TensorRef &t) {
  CallArgument a;
  a.kind = CallArgument::Kind::Tensor;
  a.tensor = t;
  return a;
}

CallArgument CallFixture::integer(int64_t v) {
  CallArgument a;
  a.kind = CallArgument::Kind::Int;
  a.intValue = v;
  return a;
}

CallArgument CallFixture::number(double v) {
  CallArgument a;
  a.kind = CallArgument::Kind::Float;
  a.floatValue = v;
  return a;
}

CallArgument CallFixture::boolean(bool v) {
  CallArgument a;
  a.kind = CallArgument::Kind::Bool;
  a.boolValue = v;
  return a;
}

CallArgument CallFixture::none() {
  return CallArgument{};
}

CallArgument CallFixture::integers(const std::vector<int64_t> &v) {
  CallArgument a;
  a.kind = CallArgument::Kind::List;
  for (int64_t x : v)
    a.list.push_back(integer(x));
  return a;
}

std::string CallFixture::compare(const std::string &op, const std::vector<CallArgument> &args,
                                 const std::vector<std::optional<TensorRef>> &outs, const MachineShape &machine,
                                 Tolerance tolerance, RunStats *stats) {
  // Two identical sets of buffers.
  std::vector<std::unique_ptr<reference::Buffer>> expected, actual;
  for (size_t i = 0; i < specs_.size(); ++i) {
    const Spec &s = specs_[i];
    auto b = std::make_unique<reference::Buffer>();
    b->name = "buffer " + std::to_string(i);
    b->dtype = s.dtype;
    b->bytes.assign(static_cast<size_t>(s.elements * core::byteSize(s.dtype)), 0);
    Lcg rng(s.seed);
    for (int64_t e = 0; e < s.elements; ++e) {
      const double u = s.lo + (s.hi - s.lo) * rng.unit();
      if (s.dtype == core::DType::Bool)
        reference::storeIntegerElement(*b, e, u < 0.5 * (s.lo + s.hi) ? 0 : 1);
      else if (core::isFloat(s.dtype))
        reference::storeElement(*b, e, u);
      else
        reference::storeIntegerElement(*b, e, static_cast<int64_t>(std::floor(u)));
    }
    expected.push_back(std::move(b));
  }
  for (const auto &[where, value] : overrides_)
    reference::storeElement(*expected[static_cast<size_t>(where.first)], where.second, value);
  for (const auto &b : expected)
    actual.push_back(std::make_unique<reference::Buffer>(*b));

  // The host call.
  std::vector<reference::HostCallValue> refArgs;
  for (const CallArgument &a : args)
    refArgs.push_back(toLibraryValue(a, expected));
  std::vector<reference::TensorView> outViews(outs.size());
  std::vector<const reference::TensorView *> refOuts(outs.size(), nullptr);
  std::vector<const TensorRef *> planOuts(outs.size(), nullptr);
  for (size_t i = 0; i < outs.size(); ++i)
    if (outs[i]) {
      outViews[i] = toLibraryValue(arg(*outs[i]), expected).tensor;
      refOuts[i] = &outViews[i];
      planOuts[i] = &*outs[i];
    }
  const auto refStart = Clock::now();
  const std::vector<bool> refDefined = reference::runHostCall(op, refArgs, refOuts);
  const double referenceSeconds = secondsSince(refStart);

  // The planned kernels.
  MachineShape shape = machine;
  if (npu_) {
    shape = MachineShape{npu_->lanes, npu_->spadBytesPerLane(), npu_->vlenBits};
    shape.systolicArrays = npu_->systolicArraysPerCore;
    shape.gemmKernel = machine.gemmKernel;
  }
  const CallPlan plan = planCall(op, args, planOuts, shape);
  RunStats run = npu_ ? runPlanOnNpu(plan, actual, scratchBufferBase(args, planOuts), *npu_)
                      : runPlan(plan, actual, scratchBufferBase(args, planOuts));
  run.referenceSeconds = referenceSeconds;
  if (stats)
    *stats = run;

  std::ostringstream message;
  if (plan.outputDefined != refDefined)
    message << "outputDefined differs from the reference's; ";
  int reported = 0;
  for (size_t i = 0; i < specs_.size() && reported < 5; ++i) {
    const reference::Buffer &want = *expected[i], &got = *actual[i];
    const bool isFloat = core::isFloat(want.dtype);
    const double ulp = ulpOf(want.dtype);
    for (int64_t e = 0; e < want.numElements() && reported < 5; ++e) {
      bool same = true;
      double w = 0, g = 0;
      if (isFloat) {
        w = reference::loadElement(want, e);
        g = reference::loadElement(got, e);
        if (std::isnan(w) || std::isnan(g))
          same = std::isnan(w) && std::isnan(g);
        else if (std::isinf(w) || std::isinf(g))
          same = w == g;
        else
          same = std::abs(w - g) <= tolerance.atol + std::max(tolerance.rtol, 1.01 * ulp) * std::abs(w);
      } else {
        w = static_cast<double>(reference::loadIntegerElement(want, e));
        g = static_cast<double>(reference::loadIntegerElement(got, e));
        same = w == g;
      }
      if (!same) {
        message << "buffer " << i << " element " << e << ": kernels " << g << ", reference " << w << "; ";
        ++reported;
      }
    }
  }
  return message.str();
}

int64_t launchConstant(const KernelLaunch &launch, const std::string &name) {
  for (const auto &[k, v] : launch.constexprs)
    if (k == name)
      return v;
  return -1;
}

} // namespace npusim::library::harness
