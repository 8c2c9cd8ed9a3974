#include "runtime/optimizer_bound.h"

#include "runtime/drift.h"
#include "runtime/runner_internal.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

namespace npusim::runtime {

namespace {

/// Logical indices of an element rule's report listed per parameter.
constexpr size_t kIndicesListed = 64;

const char *kStatePrefix = "optimizer.";

/// The storage element of each logical index of `t`, in logical order.
std::vector<int64_t> storageOffsets(const TensorRef &t) {
  const int64_t n = t.numel();
  std::vector<int64_t> offsets(static_cast<size_t>(std::max<int64_t>(n, 0)));
  std::vector<int64_t> index(t.shape.size(), 0);
  for (int64_t i = 0; i < n; ++i) {
    int64_t o = t.offset;
    for (size_t d = 0; d < index.size(); ++d)
      o += index[d] * t.stride[d];
    offsets[static_cast<size_t>(i)] = o;
    for (size_t d = index.size(); d-- > 0;) {
      if (++index[d] < t.shape[d])
        break;
      index[d] = 0;
    }
  }
  return offsets;
}

bool sameLayout(const TensorRef &a, const TensorRef &b) {
  return a.shape == b.shape && a.stride == b.stride;
}

} // namespace

int64_t OptimizerBoundReport::withinRounding() const {
  int64_t n = 0;
  for (const Parameter &p : parameters)
    n += p.withinRounding;
  return n;
}

int64_t OptimizerBoundReport::parametersWithinRounding() const {
  return std::count_if(parameters.begin(), parameters.end(),
                       [](const Parameter &p) { return p.withinRounding > 0; });
}

int64_t OptimizerBoundReport::epsRegime() const {
  int64_t n = 0;
  for (const Parameter &p : parameters)
    n += p.epsRegime;
  return n;
}

double adamUpdateBound(double beta1, double beta2, int64_t t) {
  if (t < 1)
    return 1.0;
  const double td = static_cast<double>(t);
  const double gamma = beta1 * beta1 / beta2;
  // sum_{k<t} gamma^k, also where gamma = 1.
  const double geometric = std::fabs(gamma - 1.0) < 1e-12 ? td : (1.0 - std::pow(gamma, td)) / (1.0 - gamma);
  return (1.0 - beta1) / (1.0 - std::pow(beta1, td)) * std::sqrt((1.0 - std::pow(beta2, td)) / (1.0 - beta2)) *
         std::sqrt(geometric);
}

double adamFirstStepSpread(double x, double rounding, double eps) {
  const auto u = [eps](double y) { return y > 0.0 ? y / (y + eps) : 0.0; };
  const double a = std::fabs(x);
  return u(a + rounding) - u(std::max(a - rounding, 0.0));
}

AdamBound::AdamBound(const Bundle &bundle) : optimizer_(bundle.optimizer) {
  if (!optimizer_.isAdam())
    return;
  std::map<std::string, const Input *> byName;
  for (const Input &in : bundle.inputs)
    byName.emplace(in.name, &in);
  const std::string suffix = ".exp_avg";
  for (const Input &in : bundle.inputs) {
    const std::string &n = in.name;
    if (n.rfind(kStatePrefix, 0) != 0 || n.size() <= std::string(kStatePrefix).size() + suffix.size() ||
        n.compare(n.size() - suffix.size(), suffix.size(), suffix) != 0)
      continue;
    Parameter p;
    p.name = n.substr(std::string(kStatePrefix).size(),
                      n.size() - std::string(kStatePrefix).size() - suffix.size());
    const std::string state = kStatePrefix + p.name;
    const auto value = byName.find(p.name), square = byName.find(state + ".exp_avg_sq"),
               step = byName.find(state + ".step");
    std::string problem;
    if (value == byName.end())
      problem = "no input named " + p.name + " beside " + n;
    else if (square == byName.end())
      problem = "no input " + state + ".exp_avg_sq";
    else if (step == byName.end())
      problem = "no input " + state + ".step (the step count decides the bias correction)";
    else if (step->second->tensor.numel() != 1)
      problem = state + ".step has " + std::to_string(step->second->tensor.numel()) + " elements, not 1";
    else if (!sameLayout(value->second->tensor, in.tensor) || !sameLayout(value->second->tensor, square->second->tensor))
      problem = "the parameter and its moments are viewed with different shapes or strides";
    else if (!core::isFloat(bundle.storages[static_cast<size_t>(value->second->tensor.storage)].dtype) ||
             !core::isFloat(bundle.storages[static_cast<size_t>(in.tensor.storage)].dtype))
      problem = "the parameter or its first moment is not a float tensor";
    if (!problem.empty()) {
      notCovered_.push_back(p.name + ": " + problem);
      continue;
    }
    p.value = value->second->tensor;
    p.expAvg = in.tensor;
    p.expAvgSq = square->second->tensor;
    p.step = step->second->tensor;
    parameters_.push_back(std::move(p));
  }
  for (const Output &o : bundle.outputs)
    if (std::any_of(parameters_.begin(), parameters_.end(),
                    [&o](const Parameter &p) { return p.expAvg.storage == o.tensor.storage; }))
      momentOutputs_.push_back(o);
  for (const Step &step : bundle.steps)
    for (int64_t s : writtenStorages(step))
      ++writes_[s];
}

const AdamBound::Parameter *AdamBound::parameterOf(int64_t storage) const {
  for (const Parameter &p : parameters_)
    if (p.value.storage == storage)
      return &p;
  return nullptr;
}

AdamBound::Parameter *AdamBound::parameterOf(int64_t storage) {
  return const_cast<Parameter *>(std::as_const(*this).parameterOf(storage));
}

void AdamBound::beforeStep(const Step &step, const Storages &storages) {
  const std::set<int64_t> writes = writtenStorages(step);
  for (int64_t s : writes)
    ++writesBegun_[s];
  for (Parameter &p : parameters_) {
    if (p.snapshotted)
      continue;
    const bool touches = writes.count(p.value.storage) || writes.count(p.expAvg.storage) ||
                         writes.count(p.expAvgSq.storage) || writes.count(p.step.storage);
    if (!touches)
      continue;
    p.snapshotted = true;
    p.before = reference::readValues(wholeStorage(*storages[static_cast<size_t>(p.value.storage)]));
    const double count = reference::readValues(viewOf(storages, p.step)).at(0);
    // A step count that is no whole number leaves t unknown: the bound is not applied.
    p.t = std::isfinite(count) && count >= 0.0 && count == std::floor(count) && count < 1e15
              ? static_cast<int64_t>(count) + 1
              : 0;
    const auto zero = [&](const TensorRef &t) {
      const std::vector<double> v = reference::readValues(viewOf(storages, t));
      return std::all_of(v.begin(), v.end(), [](double x) { return x == 0.0; });
    };
    p.firstStep = p.t == 1 && zero(p.expAvg) && zero(p.expAvgSq);
  }
}

double AdamBound::momentRounding(const Parameter &p, int64_t e) const {
  const int64_t m = e - p.value.offset + p.expAvg.offset;
  return kDriftSafetyFactor * p.drift * (std::fabs(p.moment[static_cast<size_t>(m)]) + p.scale);
}

void AdamBound::measure(const Step &step, const Storages &storages) {
  // The device's values of what the step wrote: its fingerprints, and the
  // outputs of the storages it is the last to write.
  std::vector<std::pair<const TensorRef *, const Fingerprint *>> known;
  for (const Fingerprint &f : step.fingerprints)
    if (const TensorRef *target = fingerprintTarget(step, f))
      known.emplace_back(target, &f);
  const std::set<int64_t> writes = writtenStorages(step);
  for (const Output &o : momentOutputs_)
    if (writes.count(o.tensor.storage) && writesBegun_[o.tensor.storage] == writes_[o.tensor.storage])
      known.emplace_back(&o.tensor, &o.fingerprint);

  std::vector<Parameter *> measuredNow;
  for (const auto &[target, f] : known) {
    for (Parameter &p : parameters_) {
      if (!p.snapshotted || p.t < 1 || target->storage != p.expAvg.storage || f->elements <= 0)
        continue;
      const reference::TensorView view = viewOf(storages, *target);
      const MeasuredDrift d = measureDrift(view, *f);
      if (std::find(measuredNow.begin(), measuredNow.end(), &p) == measuredNow.end()) {
        measuredNow.push_back(&p);
        p.drift = p.scale = 0.0; // this step's measurement replaces an earlier one
        p.zerosKept = p.zerosLost = 0;
      }
      p.drift = std::max(p.drift, d.drift);
      p.scale = std::max(p.scale, d.scale);
      const std::vector<double> ours = reference::readValues(view);
      for (const Sample &s : f->samples)
        if (ours[static_cast<size_t>(s.index)] == 0.0)
          ++(s.value == 0.0 ? p.zerosKept : p.zerosLost);
    }
  }
  for (Parameter *p : measuredNow) {
    p->measured = true;
    p->moment = reference::readValues(wholeStorage(*storages[static_cast<size_t>(p->expAvg.storage)]));
    p->withinRounding.assign(p->before.size(), 0);
    p->withinCount = 0;
    p->withinIndices.clear();
    // Exact zeros that the device has too are no rounding (a gradient no term
    // reaches: an unused embedding row, a dropped-out input).
    const bool zerosExact = p->zerosKept > 0 && p->zerosLost == 0;
    const std::vector<int64_t> offsets = storageOffsets(p->value);
    for (size_t i = 0; i < offsets.size(); ++i) {
      const int64_t e = offsets[i];
      const double m = p->moment[static_cast<size_t>(e - p->value.offset + p->expAvg.offset)];
      if (std::isfinite(m) && std::fabs(m) < momentRounding(*p, e) && !(zerosExact && m == 0.0)) {
        p->withinRounding[static_cast<size_t>(e)] = 1;
        ++p->withinCount;
        p->withinIndices.push_back(static_cast<int64_t>(i));
      }
    }
  }
}

std::optional<ElementRule> AdamBound::ruleFor(const TensorRef &view) const {
  const Parameter *p = parameterOf(view.storage);
  if (!p || !p->measured)
    return std::nullopt;
  const double lr = optimizer_.lr;
  const double decay = optimizer_.name == "adamw" ? 1.0 - lr * optimizer_.weightDecay : 1.0;
  const double halfWidth = lr * adamUpdateBound(optimizer_.beta1, optimizer_.beta2, p->t);
  const double biasCorrection = 1.0 - optimizer_.beta1; // a first step's 1 - beta1^1
  const double eps = optimizer_.eps;
  const auto bound = [p, this, lr, decay, halfWidth, biasCorrection, eps](int64_t e) {
    ElementBound b;
    if (p->withinRounding[static_cast<size_t>(e)]) {
      const double centre = p->before[static_cast<size_t>(e)] * decay;
      b.kind = ElementBound::Kind::Interval;
      b.low = centre - halfWidth;
      b.high = centre + halfWidth;
    } else if (p->firstStep && biasCorrection > 0.0) {
      const double m = p->moment[static_cast<size_t>(e - p->value.offset + p->expAvg.offset)];
      if (std::isfinite(m))
        b.allowance = lr * adamFirstStepSpread(m / biasCorrection, momentRounding(*p, e) / biasCorrection, eps);
    }
    return b;
  };
  auto offsets = std::make_shared<const std::vector<int64_t>>(storageOffsets(view));
  ElementRule rule;
  for (int64_t e : *offsets) {
    const ElementBound b = bound(e);
    rule.sumAllowance += b.kind == ElementBound::Kind::Interval ? 2.0 * halfWidth : b.allowance;
  }
  rule.bound = [offsets, bound](int64_t logical) { return bound((*offsets)[static_cast<size_t>(logical)]); };
  return rule;
}

void AdamBound::noteComparison(const TensorRef &view, const Comparison &comparison) {
  Parameter *p = parameterOf(view.storage);
  if (!p || comparison.withinAllowance.empty())
    return;
  const std::vector<int64_t> offsets = storageOffsets(view);
  for (int64_t logical : comparison.withinAllowance)
    p->epsRegime.insert(offsets[static_cast<size_t>(logical)]);
}

OptimizerBoundReport AdamBound::report() const {
  OptimizerBoundReport r;
  if (!optimizer_.isAdam())
    return r;
  r.optimizer = optimizer_.name;
  r.notCovered = notCovered_;
  for (const Parameter &p : parameters_) {
    OptimizerBoundReport::Parameter q;
    q.name = p.name;
    q.elements = p.value.numel();
    q.measured = p.measured;
    q.withinRounding = p.withinCount;
    q.withinRoundingIndices.assign(
        p.withinIndices.begin(),
        p.withinIndices.begin() + static_cast<std::ptrdiff_t>(std::min(p.withinIndices.size(), kIndicesListed)));
    q.epsRegime = static_cast<int64_t>(p.epsRegime.size());
    r.parameters.push_back(std::move(q));
  }
  return r;
}

} // namespace npusim::runtime
