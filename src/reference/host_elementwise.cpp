// Elementwise, creation and loss aten operators. Inductor fuses these into Triton
// kernels, so they appear as calls only in graphs captured without Inductor (the
// capture tool's eager plumbing) or as fallbacks: relu, add/sub/mul/div (and
// their in-place forms), zero_, fill_, zeros, ones, *_like, clone, _to_copy,
// threshold_backward, sum.dim_IntList, _log_softmax_backward_data,
// nll_loss_forward/backward, native_batch_norm.
#include "reference/host_calls_internal.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace npusim::reference::host {

namespace {

std::vector<int64_t> broadcastShapes(const std::vector<int64_t> &a, const std::vector<int64_t> &b,
                                     std::string_view op) {
  std::vector<int64_t> r(std::max(a.size(), b.size()), 1);
  for (size_t i = 0; i < r.size(); ++i) {
    const int64_t x = i < r.size() - a.size() ? 1 : a[i - (r.size() - a.size())];
    const int64_t y = i < r.size() - b.size() ? 1 : b[i - (r.size() - b.size())];
    if (x != y && x != 1 && y != 1)
      fail(op, "shapes " + shapeString(a) + " and " + shapeString(b) + " do not broadcast");
    r[i] = x == 1 ? y : x;
  }
  return r;
}

/// The value of argument `i` broadcast to `shape`: a tensor, or a number.
std::vector<double> operand(const CallArgs &c, size_t i, const char *name,
                            const std::vector<int64_t> &shape) {
  const int64_t n = std::accumulate(shape.begin(), shape.end(), int64_t{1}, std::multiplies<>());
  if (c.isTensor(i)) {
    const TensorView &t = c.tensor(i, name);
    checkView(t, std::string(c.op()) + ": " + name);
    return readValues(broadcastTo(t, shape, c.op(), name));
  }
  return std::vector<double>(static_cast<size_t>(n), c.number(i, name));
}

std::vector<int64_t> shapeOf(const CallArgs &c, size_t i, const char *name) {
  return c.isTensor(i) ? c.tensor(i, name).shape : std::vector<int64_t>{};
}

const TensorView &checkedOut(const CallArgs &c, size_t i, const char *name,
                             const std::vector<int64_t> &shape) {
  const TensorView &out = c.out(i);
  checkView(out, std::string(c.op()) + ": " + name);
  expectShape(out, shape, c.op(), name);
  return out;
}

/// Writes `values` into result 0 and, for an in-place operator, into self too.
void writeResult(const CallArgs &c, const std::vector<int64_t> &shape, const std::vector<double> &values,
                 bool inPlace) {
  if (inPlace) {
    const TensorView &self = c.tensor(0, "self");
    writeValues(self, values);
    if (const TensorView *o = c.optionalOut(0); o && (o->buffer != self.buffer || o->offset != self.offset)) {
      expectShape(*o, shape, c.op(), "out");
      writeValues(*o, values);
    }
    return;
  }
  writeValues(checkedOut(c, 0, "out", shape), values);
}

enum class Binary { Add, Sub, Mul, Div };

/// add/sub(self, other, alpha=1), mul/div(self, other); other a tensor or a number.
std::vector<bool> binary(const CallArgs &c, Binary kind, bool inPlace) {
  const TensorView &self = c.tensor(0, "self");
  checkView(self, std::string(c.op()) + ": self");
  std::vector<int64_t> shape = broadcastShapes(self.shape, shapeOf(c, 1, "other"), c.op());
  if (inPlace && shape != self.shape)
    fail(c.op(), "other does not broadcast to self's shape " + shapeString(self.shape));
  const std::vector<double> a = readValues(broadcastTo(self, shape, c.op(), "self"));
  const std::vector<double> b = operand(c, 1, "other", shape);
  const double alpha = kind == Binary::Add || kind == Binary::Sub ? c.number(2, "alpha") : 1.0;
  if (kind == Binary::Div && c.size() > 2) // div.Tensor_mode
    fail(c.op(), "rounding_mode is not supported");
  std::vector<double> r(a.size());
  for (size_t i = 0; i < a.size(); ++i) {
    switch (kind) {
    case Binary::Add: r[i] = a[i] + alpha * b[i]; break;
    case Binary::Sub: r[i] = a[i] - alpha * b[i]; break;
    case Binary::Mul: r[i] = a[i] * b[i]; break;
    case Binary::Div: r[i] = a[i] / b[i]; break;
    }
  }
  writeResult(c, shape, r, inPlace);
  return std::vector<bool>(c.numOuts(), true);
}

std::vector<bool> relu(const CallArgs &c, bool inPlace) {
  const TensorView &self = c.tensor(0, "self");
  checkView(self, std::string(c.op()) + ": self");
  std::vector<double> v = readValues(self);
  for (double &x : v)
    x = std::isnan(x) ? x : std::max(x, 0.0);
  writeResult(c, self.shape, v, inPlace);
  return std::vector<bool>(c.numOuts(), true);
}

/// zero_(self), fill_(self, value): every element of self (and of out).
std::vector<bool> fill(const CallArgs &c, std::optional<double> value) {
  const TensorView &self = c.tensor(0, "self");
  checkView(self, std::string(c.op()) + ": self");
  double v = value ? *value : 0.0;
  if (!value) {
    if (c.isTensor(1)) { // fill_.Tensor: a 0-d tensor
      const TensorView &t = c.tensor(1, "value");
      checkView(t, std::string(c.op()) + ": value");
      if (t.numel() != 1)
        c.fail(1, "value", "expected a 0-d tensor");
      v = readValues(t)[0];
    } else {
      v = c.number(1, "value");
    }
  }
  fillView(self, v);
  if (const TensorView *o = c.optionalOut(0); o && (o->buffer != self.buffer || o->offset != self.offset)) {
    checkView(*o, std::string(c.op()) + ": out");
    expectShape(*o, self.shape, c.op(), "out");
    fillView(*o, v);
  }
  return std::vector<bool>(c.numOuts(), true);
}

/// zeros/ones(size, ...), zeros_like/ones_like(self, ...): result 0 filled.
std::vector<bool> constant(const CallArgs &c, double value, bool like) {
  const TensorView &out = c.out(0);
  checkView(out, std::string(c.op()) + ": out");
  if (like)
    expectShape(out, c.tensor(0, "self").shape, c.op(), "out");
  else
    expectShape(out, c.integers(0, "size"), c.op(), "out");
  fillView(out, value);
  return std::vector<bool>(c.numOuts(), true);
}

/// clone(self, memory_format), _to_copy(self, dtype, ...): a copy in result 0's layout and dtype.
std::vector<bool> copyOut(const CallArgs &c) {
  const TensorView &self = c.tensor(0, "self");
  checkView(self, std::string(c.op()) + ": self");
  const TensorView &out = checkedOut(c, 0, "out", self.shape);
  if (copySameDType(self, out))
    return std::vector<bool>(c.numOuts(), true);
  if (integral(self) && integral(out))
    writeIntegers(out, readIntegers(self));
  else
    writeValues(out, readValues(self));
  return std::vector<bool>(c.numOuts(), true);
}

// threshold_backward(grad_output, self, threshold): grad where self > threshold, else 0.
std::vector<bool> thresholdBackward(const CallArgs &c) {
  const TensorView &grad = c.tensor(0, "grad_output");
  const TensorView &self = c.tensor(1, "self");
  checkView(grad, std::string(c.op()) + ": grad_output");
  checkView(self, std::string(c.op()) + ": self");
  const std::vector<int64_t> shape = broadcastShapes(grad.shape, self.shape, c.op());
  const std::vector<double> g = readValues(broadcastTo(grad, shape, c.op(), "grad_output"));
  const std::vector<double> x = readValues(broadcastTo(self, shape, c.op(), "self"));
  const double threshold = c.number(2, "threshold");
  std::vector<double> r(g.size());
  for (size_t i = 0; i < g.size(); ++i)
    r[i] = x[i] <= threshold ? 0.0 : g[i];
  writeValues(checkedOut(c, 0, "out", shape), r);
  return {true};
}

// sum.dim_IntList(self, dim, keepdim=False, dtype=None).
std::vector<bool> sumDims(const CallArgs &c) {
  const TensorView &self = c.tensor(0, "self");
  checkView(self, std::string(c.op()) + ": self");
  std::vector<int64_t> dims = c.integers(1, "dim");
  const bool keepdim = c.boolean(2, "keepdim");
  std::vector<bool> reduced(self.shape.size(), dims.empty());
  for (int64_t d : dims)
    reduced[static_cast<size_t>(wrapDim(d, self.dim(), c.op()))] = true;
  std::vector<int64_t> shape, kept;
  for (size_t a = 0; a < self.shape.size(); ++a) {
    if (!reduced[a])
      shape.push_back(self.shape[a]);
    else if (keepdim)
      shape.push_back(1);
    if (!reduced[a])
      kept.push_back(self.shape[a]);
  }
  // Sum in logical order: the result index of each element drops the reduced axes.
  const std::vector<double> x = readValues(self);
  const int64_t outCount = std::accumulate(kept.begin(), kept.end(), int64_t{1}, std::multiplies<>());
  std::vector<double> r(static_cast<size_t>(outCount), 0.0);
  std::vector<int64_t> pos(self.shape.size(), 0);
  for (size_t e = 0; e < x.size(); ++e) {
    int64_t at = 0;
    for (size_t a = 0; a < self.shape.size(); ++a)
      if (!reduced[a])
        at = at * self.shape[a] + pos[a];
    r[static_cast<size_t>(at)] += x[e];
    for (size_t a = self.shape.size(); a-- > 0;) {
      if (++pos[a] < self.shape[a])
        break;
      pos[a] = 0;
    }
  }
  const TensorView &out = checkedOut(c, 0, "out", shape);
  writeValues(out, r);
  return {true};
}

// _log_softmax_backward_data(grad_output, output, dim, input_dtype):
// grad - exp(output) * sum(grad) along dim.
std::vector<bool> logSoftmaxBackward(const CallArgs &c) {
  const TensorView &grad = c.tensor(0, "grad_output");
  const TensorView &output = c.tensor(1, "output");
  checkView(grad, std::string(c.op()) + ": grad_output");
  checkView(output, std::string(c.op()) + ": output");
  expectShape(output, grad.shape, c.op(), "output");
  const int64_t dim = wrapDim(c.integer(2, "dim"), grad.dim(), c.op());
  auto last = [&](const TensorView &v) { return axisLast(v, dim); };
  std::vector<double> g = readValues(last(grad));
  const std::vector<double> y = readValues(last(output));
  const size_t n = grad.dim() == 0 ? 1 : static_cast<size_t>(grad.shape[static_cast<size_t>(dim)]);
  for (size_t row = 0; n > 0 && row < g.size(); row += n) {
    double sum = 0.0;
    for (size_t i = 0; i < n; ++i)
      sum += g[row + i];
    for (size_t i = 0; i < n; ++i)
      g[row + i] -= std::exp(y[row + i]) * sum;
  }
  const TensorView &out = checkedOut(c, 0, "out", grad.shape);
  writeValues(last(out), g);
  return {true};
}

/// The class of each row of an nll_loss input [N, C] or [C], with its weight.
struct NllRows {
  int64_t rows = 0, classes = 0;
  std::vector<int64_t> target;
  std::vector<double> weight; // per class; 1 without weights
};

NllRows nllRows(const CallArgs &c, const TensorView &self, size_t targetArg, size_t weightArg) {
  NllRows r;
  if (self.dim() != 1 && self.dim() != 2)
    fail(c.op(), "self must be [N, C] or [C], got " + shapeString(self.shape));
  r.rows = self.dim() == 2 ? self.shape[0] : 1;
  r.classes = self.shape.back();
  const TensorView &target = c.tensor(targetArg, "target");
  checkView(target, std::string(c.op()) + ": target");
  if (target.numel() != r.rows)
    fail(c.op(), "target " + shapeString(target.shape) + " does not match self " + shapeString(self.shape));
  r.target = readIntegers(target);
  r.weight.assign(static_cast<size_t>(r.classes), 1.0);
  if (const TensorView *w = c.optionalTensor(weightArg, "weight")) {
    checkView(*w, std::string(c.op()) + ": weight");
    r.weight = readValues(*w);
    if (static_cast<int64_t>(r.weight.size()) != r.classes)
      fail(c.op(), "weight has " + std::to_string(r.weight.size()) + " elements for " +
                       std::to_string(r.classes) + " classes");
  }
  return r;
}

// nll_loss_forward(self, target, weight, reduction, ignore_index) -> (output, total_weight);
// reduction 0 none, 1 mean, 2 sum.
std::vector<bool> nllLossForward(const CallArgs &c) {
  const TensorView &self = c.tensor(0, "self");
  checkView(self, std::string(c.op()) + ": self");
  const NllRows r = nllRows(c, self, 1, 2);
  const int64_t reduction = c.integer(3, "reduction");
  const int64_t ignore = c.integer(4, "ignore_index");
  const std::vector<double> x = readValues(self);
  std::vector<double> losses(static_cast<size_t>(r.rows), 0.0);
  double total = 0.0, weightSum = 0.0;
  for (int64_t i = 0; i < r.rows; ++i) {
    const int64_t t = r.target[static_cast<size_t>(i)];
    if (t == ignore)
      continue;
    if (t < 0 || t >= r.classes)
      fail(c.op(),
           "target " + std::to_string(t) + " is out of bounds for " + std::to_string(r.classes) + " classes");
    const double w = r.weight[static_cast<size_t>(t)];
    losses[static_cast<size_t>(i)] = -w * x[static_cast<size_t>(i * r.classes + t)];
    total += losses[static_cast<size_t>(i)];
    weightSum += w;
  }
  const TensorView &out = c.out(0);
  checkView(out, std::string(c.op()) + ": output");
  if (reduction == 0)
    writeValues(out, losses);
  else
    writeValues(out, std::vector<double>{reduction == 1 ? total / weightSum : total});
  if (const TensorView *tw = c.optionalOut(1)) {
    checkView(*tw, std::string(c.op()) + ": total_weight");
    writeValues(*tw, std::vector<double>(static_cast<size_t>(tw->numel()), weightSum));
  }
  return std::vector<bool>(c.numOuts(), true);
}

// nll_loss_backward(grad_output, self, target, weight, reduction, ignore_index, total_weight) -> grad_input.
std::vector<bool> nllLossBackward(const CallArgs &c) {
  const TensorView &gradOut = c.tensor(0, "grad_output");
  const TensorView &self = c.tensor(1, "self");
  checkView(gradOut, std::string(c.op()) + ": grad_output");
  checkView(self, std::string(c.op()) + ": self");
  const NllRows r = nllRows(c, self, 2, 3);
  const int64_t reduction = c.integer(4, "reduction");
  const int64_t ignore = c.integer(5, "ignore_index");
  const TensorView &totalWeight = c.tensor(6, "total_weight");
  checkView(totalWeight, std::string(c.op()) + ": total_weight");
  const double tw = readValues(totalWeight).at(0);
  const std::vector<double> g = readValues(gradOut);
  std::vector<double> result(static_cast<size_t>(r.rows * r.classes), 0.0);
  for (int64_t i = 0; i < r.rows; ++i) {
    const int64_t t = r.target[static_cast<size_t>(i)];
    if (t == ignore || t < 0 || t >= r.classes)
      continue;
    const double w = r.weight[static_cast<size_t>(t)];
    const double go = reduction == 0 ? g.at(static_cast<size_t>(i)) : g.at(0);
    result[static_cast<size_t>(i * r.classes + t)] = -w * go / (reduction == 1 ? tw : 1.0);
  }
  writeValues(checkedOut(c, 0, "grad_input", self.shape), result);
  return {true};
}

// native_batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps)
//     -> (out, save_mean, save_invstd); training updates running_mean and running_var in place.
std::vector<bool> batchNorm(const CallArgs &c) {
  const TensorView &input = c.tensor(0, "input");
  checkView(input, std::string(c.op()) + ": input");
  if (input.dim() < 2)
    fail(c.op(), "input must have a channel axis, got " + shapeString(input.shape));
  const TensorView *weight = c.optionalTensor(1, "weight");
  const TensorView *bias = c.optionalTensor(2, "bias");
  const TensorView *runningMean = c.optionalTensor(3, "running_mean");
  const TensorView *runningVar = c.optionalTensor(4, "running_var");
  const bool training = c.boolean(5, "training");
  const double momentum = c.number(6, "momentum");
  const double eps = c.number(7, "eps");
  const int64_t channels = input.shape[1];
  const int64_t batch = input.shape[0];
  const int64_t inner = input.numel() / std::max<int64_t>(batch * channels, 1);
  const std::vector<double> x = readValues(input);
  auto perChannel = [&](const TensorView *t, const char *name, double fallback) {
    if (!t)
      return std::vector<double>(static_cast<size_t>(channels), fallback);
    checkView(*t, std::string(c.op()) + ": " + name);
    std::vector<double> v = readValues(*t);
    if (static_cast<int64_t>(v.size()) != channels)
      fail(c.op(), std::string(name) + " has " + std::to_string(v.size()) + " elements for " +
                       std::to_string(channels) + " channels");
    return v;
  };
  const std::vector<double> w = perChannel(weight, "weight", 1.0), b = perChannel(bias, "bias", 0.0);
  std::vector<double> mean(static_cast<size_t>(channels)), var(static_cast<size_t>(channels));
  const double count = static_cast<double>(batch * inner);
  if (training) {
    for (int64_t ch = 0; ch < channels; ++ch) {
      double s = 0.0, q = 0.0;
      for (int64_t n = 0; n < batch; ++n)
        for (int64_t i = 0; i < inner; ++i)
          s += x[static_cast<size_t>((n * channels + ch) * inner + i)];
      const double m = s / count;
      for (int64_t n = 0; n < batch; ++n)
        for (int64_t i = 0; i < inner; ++i) {
          const double d = x[static_cast<size_t>((n * channels + ch) * inner + i)] - m;
          q += d * d;
        }
      mean[static_cast<size_t>(ch)] = m;
      var[static_cast<size_t>(ch)] = q / count;
    }
  } else {
    if (!runningMean || !runningVar)
      fail(c.op(), "evaluation mode needs running_mean and running_var");
    mean = perChannel(runningMean, "running_mean", 0.0);
    var = perChannel(runningVar, "running_var", 1.0);
  }
  std::vector<double> invstd(static_cast<size_t>(channels)), y(x.size());
  for (int64_t ch = 0; ch < channels; ++ch)
    invstd[static_cast<size_t>(ch)] = 1.0 / std::sqrt(var[static_cast<size_t>(ch)] + eps);
  for (size_t e = 0; e < x.size(); ++e) {
    const size_t ch = static_cast<size_t>((static_cast<int64_t>(e) / inner) % channels);
    y[e] = (x[e] - mean[ch]) * invstd[ch] * w[ch] + b[ch];
  }
  if (training && runningMean && runningVar) {
    std::vector<double> rm = perChannel(runningMean, "running_mean", 0.0),
                        rv = perChannel(runningVar, "running_var", 1.0);
    for (size_t ch = 0; ch < static_cast<size_t>(channels); ++ch) {
      rm[ch] = (1.0 - momentum) * rm[ch] + momentum * mean[ch];
      rv[ch] = (1.0 - momentum) * rv[ch] + momentum * var[ch] * count / std::max(count - 1.0, 1.0);
    }
    writeValues(*runningMean, rm);
    writeValues(*runningVar, rv);
  }
  writeValues(checkedOut(c, 0, "out", input.shape), y);
  std::vector<bool> defined(c.numOuts(), true);
  const std::vector<double> *saved[] = {&mean, &invstd};
  for (size_t k = 1; k < 3; ++k)
    if (const TensorView *o = c.optionalOut(k)) {
      checkView(*o, std::string(c.op()) + ": result " + std::to_string(k));
      if (o->numel() == channels && training)
        writeValues(*o, *saved[k - 1]);
      else if (o->numel() != 0)
        defined[k] = false; // evaluation mode: CUDA returns empty tensors here
    }
  return defined;
}

} // namespace

std::vector<bool> callElementwise(const CallArgs &c) {
  const std::string_view op = c.op();
  auto is = [&](std::string_view name) { return op == name; };
  if (is("aten.relu") || is("aten.relu_"))
    return relu(c, is("aten.relu_"));
  if (is("aten.add.Tensor") || is("aten.add") || is("aten.add_.Tensor") || is("aten.add_"))
    return binary(c, Binary::Add, op.starts_with("aten.add_"));
  if (is("aten.sub.Tensor") || is("aten.sub") || is("aten.sub_.Tensor") || is("aten.sub_"))
    return binary(c, Binary::Sub, op.starts_with("aten.sub_"));
  if (is("aten.mul.Tensor") || is("aten.mul") || is("aten.mul_.Tensor") || is("aten.mul_"))
    return binary(c, Binary::Mul, op.starts_with("aten.mul_"));
  if (is("aten.div.Tensor") || is("aten.div") || is("aten.div_.Tensor") || is("aten.div_"))
    return binary(c, Binary::Div, op.starts_with("aten.div_"));
  if (is("aten.zero_"))
    return fill(c, 0.0);
  if (is("aten.fill_.Scalar") || is("aten.fill_.Tensor") || is("aten.fill_"))
    return fill(c, std::nullopt);
  if (is("aten.zeros") || is("aten.ones"))
    return constant(c, is("aten.ones") ? 1.0 : 0.0, false);
  if (is("aten.zeros_like") || is("aten.ones_like"))
    return constant(c, is("aten.ones_like") ? 1.0 : 0.0, true);
  if (is("aten.clone") || is("aten._to_copy"))
    return copyOut(c);
  if (is("aten.threshold_backward"))
    return thresholdBackward(c);
  if (is("aten.sum.dim_IntList"))
    return sumDims(c);
  if (is("aten._log_softmax_backward_data"))
    return logSoftmaxBackward(c);
  if (is("aten.nll_loss_forward"))
    return nllLossForward(c);
  if (is("aten.nll_loss_backward"))
    return nllLossBackward(c);
  if (is("aten.native_batch_norm"))
    return batchNorm(c);
  fail(op, "internal error: not an elementwise operator");
}

const std::vector<std::string_view> &elementwiseOperators() {
  static const std::vector<std::string_view> kNames = {
      "aten.relu",
      "aten.relu_",
      "aten.add.Tensor",
      "aten.add",
      "aten.add_.Tensor",
      "aten.add_",
      "aten.sub.Tensor",
      "aten.sub",
      "aten.sub_.Tensor",
      "aten.sub_",
      "aten.mul.Tensor",
      "aten.mul",
      "aten.mul_.Tensor",
      "aten.mul_",
      "aten.div.Tensor",
      "aten.div",
      "aten.div_.Tensor",
      "aten.div_",
      "aten.zero_",
      "aten.fill_.Scalar",
      "aten.fill_.Tensor",
      "aten.fill_",
      "aten.zeros",
      "aten.ones",
      "aten.zeros_like",
      "aten.ones_like",
      "aten.clone",
      "aten._to_copy",
      "aten.threshold_backward",
      "aten.sum.dim_IntList",
      "aten._log_softmax_backward_data",
      "aten.nll_loss_forward",
      "aten.nll_loss_backward",
      "aten.native_batch_norm",
  };
  return kNames;
}

} // namespace npusim::reference::host
