// The aten fallbacks other than matrix products, convolution and attention:
// copy_, _softmax, _log_softmax, cumsum, native_layer_norm, sort, topk,
// max_pool2d_with_indices, scatter_add, scatter, embedding, embedding_dense_backward, index,
// index_put.
#include "reference/host_calls_internal.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>

namespace npusim::reference::host {

namespace {

int64_t axisSize(const TensorView &v, int64_t dim) {
  return v.dim() == 0 ? 1 : v.shape[static_cast<size_t>(dim)];
}

/// Ascending order with NaN greater than everything (PyTorch's sort order).
bool lessNanLast(double a, double b) {
  return !std::isnan(a) && (std::isnan(b) || a < b);
}

/// self, out of self's shape and the axis `dim` of an operator along one axis
/// (softmax, cumsum), checked.
struct AlongAxis {
  const TensorView &self;
  const TensorView &out;
  int64_t dim;
};

AlongAxis alongAxis(const CallArgs &c) {
  const TensorView &self = c.tensor(0, "self");
  const TensorView &out = c.out(0);
  checkView(self, std::string(c.op()) + ": self");
  checkView(out, std::string(c.op()) + ": out");
  expectShape(out, self.shape, c.op(), "out");
  return {self, out, wrapDim(c.integer(1, "dim"), self.dim(), c.op())};
}

} // namespace

// copy_(self, src, non_blocking=False) -> self: src broadcast into self.
std::vector<bool> callCopy(const CallArgs &c) {
  const TensorView &self = c.tensor(0, "self");
  const TensorView &src = c.tensor(1, "src");
  checkView(self, std::string(c.op()) + ": self");
  checkView(src, std::string(c.op()) + ": src");
  const TensorView from = broadcastTo(src, self.shape, c.op(), "src");
  std::vector<const TensorView *> targets = {&self};
  if (const TensorView *o = c.optionalOut(0)) {
    checkView(*o, std::string(c.op()) + ": out");
    expectShape(*o, self.shape, c.op(), "out");
    // out is self as a rule (copy_ returns self): written once.
    if (o->buffer != self.buffer || o->offset != self.offset || o->stride != self.stride)
      targets.push_back(o);
  }
  if (targets.size() == 1 && copySameDType(from, self))
    return std::vector<bool>(c.numOuts(), true);
  if (integral(src)) {
    const std::vector<int64_t> values = readIntegers(from);
    for (const TensorView *t : targets)
      writeIntegers(*t, values);
  } else {
    const std::vector<double> values = readValues(from);
    for (const TensorView *t : targets)
      writeValues(*t, values);
  }
  return std::vector<bool>(c.numOuts(), true);
}

// _softmax(self, dim, half_to_float) / _log_softmax(self, dim, half_to_float).
std::vector<bool> callSoftmax(const CallArgs &c, bool logarithm) {
  const AlongAxis a = alongAxis(c);
  const TensorView &self = a.self, &out = a.out;
  const int64_t dim = a.dim;
  const int64_t n = axisSize(self, dim);
  std::vector<double> v = readValues(axisLast(self, dim));
  for (size_t row = 0; n > 0 && row < v.size(); row += static_cast<size_t>(n)) {
    double *x = v.data() + row;
    double m = -std::numeric_limits<double>::infinity();
    for (int64_t i = 0; i < n; ++i)
      m = std::isnan(x[i]) || std::isnan(m) ? std::nan("") : std::max(m, x[i]);
    double sum = 0.0;
    for (int64_t i = 0; i < n; ++i)
      sum += std::exp(x[i] - m);
    for (int64_t i = 0; i < n; ++i)
      x[i] = logarithm ? x[i] - m - std::log(sum) : std::exp(x[i] - m) / sum;
  }
  writeValues(axisLast(out, dim), v);
  return {true};
}

// cumsum(self, dim, *, dtype=None).
std::vector<bool> callCumsum(const CallArgs &c) {
  const AlongAxis a = alongAxis(c);
  const TensorView &self = a.self, &out = a.out;
  const int64_t dim = a.dim;
  const size_t n = static_cast<size_t>(axisSize(self, dim));
  if (integral(self) && integral(out)) {
    std::vector<int64_t> v = readIntegers(axisLast(self, dim));
    for (size_t row = 0; n > 0 && row < v.size(); row += n)
      for (size_t i = 1; i < n; ++i)
        v[row + i] =
            static_cast<int64_t>(static_cast<uint64_t>(v[row + i]) + static_cast<uint64_t>(v[row + i - 1]));
    writeIntegers(axisLast(out, dim), v);
  } else {
    std::vector<double> v = readValues(axisLast(self, dim));
    for (size_t row = 0; n > 0 && row < v.size(); row += n)
      for (size_t i = 1; i < n; ++i)
        v[row + i] += v[row + i - 1];
    writeValues(axisLast(out, dim), v);
  }
  return {true};
}

// native_layer_norm(input, normalized_shape, weight, bias, eps) -> (out, mean, rstd).
std::vector<bool> callLayerNorm(const CallArgs &c) {
  const TensorView &input = c.tensor(0, "input");
  const std::vector<int64_t> normalized = c.integers(1, "normalized_shape");
  const TensorView *weight = c.optionalTensor(2, "weight");
  const TensorView *bias = c.optionalTensor(3, "bias");
  const double eps = c.number(4, "eps");
  checkView(input, std::string(c.op()) + ": input");
  if (normalized.size() > input.shape.size() ||
      !std::equal(normalized.begin(), normalized.end(),
                  input.shape.end() - static_cast<ptrdiff_t>(normalized.size())))
    c.fail(1, "normalized_shape",
           shapeString(normalized) + " is not a suffix of the input's shape " + shapeString(input.shape));
  const int64_t n = std::accumulate(normalized.begin(), normalized.end(), int64_t{1}, std::multiplies<>());
  std::vector<double> w, b;
  if (weight) {
    checkView(*weight, std::string(c.op()) + ": weight");
    expectShape(*weight, normalized, c.op(), "weight");
    w = readValues(*weight);
  }
  if (bias) {
    checkView(*bias, std::string(c.op()) + ": bias");
    expectShape(*bias, normalized, c.op(), "bias");
    b = readValues(*bias);
  }
  std::vector<double> x = readValues(input);
  const size_t rows = n == 0 ? 0 : x.size() / static_cast<size_t>(n);
  std::vector<double> means(rows), rstds(rows);
  for (size_t r = 0; r < rows; ++r) {
    double *row = x.data() + r * static_cast<size_t>(n);
    double mean = 0.0, var = 0.0;
    for (int64_t i = 0; i < n; ++i)
      mean += row[i];
    mean /= static_cast<double>(n);
    for (int64_t i = 0; i < n; ++i)
      var += (row[i] - mean) * (row[i] - mean);
    var /= static_cast<double>(n);
    const double rstd = 1.0 / std::sqrt(var + eps);
    for (int64_t i = 0; i < n; ++i) {
      double y = (row[i] - mean) * rstd;
      if (weight)
        y *= w[static_cast<size_t>(i)];
      if (bias)
        y += b[static_cast<size_t>(i)];
      row[i] = y;
    }
    means[r] = mean;
    rstds[r] = rstd;
  }
  const TensorView &out = c.out(0);
  checkView(out, std::string(c.op()) + ": out");
  expectShape(out, input.shape, c.op(), "out");
  writeValues(out, x);
  std::vector<bool> defined(c.numOuts(), true);
  const std::vector<double> *stats[] = {&means, &rstds};
  for (size_t k = 1; k < 3 && k < c.numOuts(); ++k)
    if (const TensorView *o = c.optionalOut(k)) {
      checkView(*o, std::string(c.op()) + ": result " + std::to_string(k));
      if (o->numel() != static_cast<int64_t>(rows))
        fail(c.op(), "result " + std::to_string(k) + " has shape " + shapeString(o->shape) + "; expected " +
                         std::to_string(rows) + " elements");
      writeValues(*o, *stats[k - 1]);
    }
  return defined;
}

namespace {

/// Sorts every row along `dim`; keeps the first `k` of each. Values and int64 indices.
std::vector<bool> sortRows(const CallArgs &c, const TensorView &self, int64_t dim, bool descending, int64_t k,
                           bool sorted) {
  (void)sorted; // topk(sorted=False) leaves the order unspecified; the sorted order is one of them
  checkView(self, std::string(c.op()) + ": self");
  const int64_t n = axisSize(self, dim);
  if (k < 0 || k > n)
    fail(c.op(), "k=" + std::to_string(k) + " is out of range for a dimension of size " + std::to_string(n));
  std::vector<int64_t> shape = self.shape;
  if (!shape.empty())
    shape[static_cast<size_t>(dim)] = k;
  const TensorView &values = c.out(0);
  const TensorView &indices = c.out(1);
  checkView(values, std::string(c.op()) + ": values");
  checkView(indices, std::string(c.op()) + ": indices");
  expectShape(values, shape, c.op(), "values");
  expectShape(indices, shape, c.op(), "indices");
  const bool ints = integral(self);
  const std::vector<double> v = ints ? std::vector<double>() : readValues(axisLast(self, dim));
  const std::vector<int64_t> vi = ints ? readIntegers(axisLast(self, dim)) : std::vector<int64_t>();
  const size_t total = static_cast<size_t>(self.numel());
  const size_t rows = n == 0 ? 0 : total / static_cast<size_t>(n);
  std::vector<double> outV;
  std::vector<int64_t> outVi, outI;
  std::vector<int64_t> order(static_cast<size_t>(n));
  for (size_t r = 0; r < rows; ++r) {
    const size_t base = r * static_cast<size_t>(n);
    std::iota(order.begin(), order.end(), 0);
    auto less = [&](int64_t a, int64_t b) {
      if (ints) {
        const int64_t x = vi[base + static_cast<size_t>(a)], y = vi[base + static_cast<size_t>(b)];
        return descending ? y < x : x < y;
      }
      const double x = v[base + static_cast<size_t>(a)], y = v[base + static_cast<size_t>(b)];
      return descending ? lessNanLast(y, x) : lessNanLast(x, y);
    };
    std::stable_sort(order.begin(), order.end(), less);
    for (int64_t i = 0; i < k; ++i) {
      const size_t at = base + static_cast<size_t>(order[static_cast<size_t>(i)]);
      if (ints)
        outVi.push_back(vi[at]);
      else
        outV.push_back(v[at]);
      outI.push_back(order[static_cast<size_t>(i)]);
    }
  }
  if (ints)
    writeIntegers(axisLast(values, dim), outVi);
  else
    writeValues(axisLast(values, dim), outV);
  writeIntegers(axisLast(indices, dim), outI);
  return {true, true};
}

} // namespace

// sort(self, dim=-1, descending=False), or sort.stable(self, *, stable, dim=-1, descending=False)
// (named so, or told apart by the argument count) -> (values, indices). Ties keep their order.
std::vector<bool> callSort(const CallArgs &c) {
  const TensorView &self = c.tensor(0, "self");
  const size_t first = c.schema().arguments.size() == 4 ? 2 : 1; // sort.stable
  const int64_t dim = wrapDim(c.integer(first, "dim"), self.dim(), c.op());
  const bool descending = c.boolean(first + 1, "descending");
  return sortRows(c, self, dim, descending, axisSize(self, dim), true);
}

// topk(self, k, dim=-1, largest=True, sorted=True) -> (values, indices).
std::vector<bool> callTopk(const CallArgs &c) {
  const TensorView &self = c.tensor(0, "self");
  const int64_t dim = wrapDim(c.integer(2, "dim"), self.dim(), c.op());
  return sortRows(c, self, dim, c.boolean(3, "largest"), c.integer(1, "k"), c.boolean(4, "sorted"));
}

// max_pool2d_with_indices(self, kernel_size, stride=[], padding=0, dilation=1, ceil_mode=False)
//     -> (out, indices); indices are h * W + w within each plane, as on CUDA.
std::vector<bool> callMaxPool2d(const CallArgs &c) {
  const TensorView &self = c.tensor(0, "self");
  checkView(self, std::string(c.op()) + ": self");
  if (self.dim() != 3 && self.dim() != 4)
    fail(c.op(), "self must be 3-d or 4-d, but has shape " + shapeString(self.shape));
  auto pair = [&](size_t i, const char *name, std::vector<int64_t> whenEmpty) {
    std::vector<int64_t> v = c.integers(i, name);
    if (v.empty())
      v = whenEmpty;
    if (v.size() == 1)
      v.push_back(v[0]);
    if (v.size() != 2)
      c.fail(i, name, "expected one or two values");
    return v;
  };
  const std::vector<int64_t> kernel = pair(1, "kernel_size", {});
  const std::vector<int64_t> stride = pair(2, "stride", kernel);
  const std::vector<int64_t> padding = pair(3, "padding", {0});
  const std::vector<int64_t> dilation = pair(4, "dilation", {1});
  const bool ceilMode = c.boolean(5, "ceil_mode");
  const int64_t planes = self.dim() == 4 ? self.shape[0] * self.shape[1] : self.shape[0];
  const int64_t h = self.shape[static_cast<size_t>(self.dim() - 2)],
                w = self.shape[static_cast<size_t>(self.dim() - 1)];
  int64_t outSize[2];
  const int64_t in[2] = {h, w};
  for (int a = 0; a < 2; ++a) {
    if (kernel[a] < 1 || stride[a] < 1 || dilation[a] < 1 || padding[a] < 0 || 2 * padding[a] > kernel[a])
      fail(c.op(), "bad kernel_size, stride, padding or dilation");
    const int64_t span = in[a] + 2 * padding[a] - dilation[a] * (kernel[a] - 1) - 1;
    int64_t o = (span + (ceilMode ? stride[a] - 1 : 0)) / stride[a] + 1;
    if (ceilMode && (o - 1) * stride[a] >= in[a] + padding[a])
      --o;
    outSize[a] = o;
  }
  std::vector<int64_t> shape(self.shape.begin(), self.shape.end() - 2);
  shape.push_back(outSize[0]);
  shape.push_back(outSize[1]);
  const TensorView &out = c.out(0);
  const TensorView &indices = c.out(1);
  checkView(out, std::string(c.op()) + ": out");
  checkView(indices, std::string(c.op()) + ": indices");
  expectShape(out, shape, c.op(), "out");
  expectShape(indices, shape, c.op(), "indices");
  const std::vector<double> x = readValues(self);
  std::vector<double> values;
  std::vector<int64_t> where;
  for (int64_t p = 0; p < planes; ++p)
    for (int64_t oh = 0; oh < outSize[0]; ++oh)
      for (int64_t ow = 0; ow < outSize[1]; ++ow) {
        const int64_t h0 = oh * stride[0] - padding[0], w0 = ow * stride[1] - padding[1];
        double best = -std::numeric_limits<double>::infinity();
        int64_t bestAt = std::max<int64_t>(h0, 0) * w + std::max<int64_t>(w0, 0);
        bool nanFound = false; // NaN wins; the first one found is kept
        for (int64_t kh = 0; kh < kernel[0] && !nanFound; ++kh)
          for (int64_t kw = 0; kw < kernel[1] && !nanFound; ++kw) {
            const int64_t ih = h0 + kh * dilation[0], iw = w0 + kw * dilation[1];
            if (ih < 0 || ih >= h || iw < 0 || iw >= w)
              continue;
            const double val = x[static_cast<size_t>((p * h + ih) * w + iw)];
            if (val > best || std::isnan(val)) {
              best = val;
              bestAt = ih * w + iw;
              nanFound = std::isnan(val);
            }
          }
        values.push_back(best);
        where.push_back(bestAt);
      }
  writeValues(out, values);
  writeIntegers(indices, where);
  return {true, true};
}

// scatter_add(self, dim, index, src), scatter(self, dim, index, src) and
// scatter(self, dim, index, value) -> out: out = self, then along dim
// out[... index ...] += src, = src or = value. A repeated target of an
// assignment keeps the last value in index's logical order.
std::vector<bool> callScatter(const CallArgs &c, ScatterKind kind) {
  const TensorView &self = c.tensor(0, "self");
  const TensorView &index = c.tensor(2, "index");
  checkView(self, std::string(c.op()) + ": self");
  checkView(index, std::string(c.op()) + ": index");
  const int64_t rank = self.dim();
  const int64_t dim = wrapDim(c.integer(1, "dim"), rank, c.op());
  if (index.dim() != rank)
    fail(c.op(), "self and index must have the same number of dimensions");
  std::vector<double> put;
  if (kind == ScatterKind::Value) {
    put.assign(static_cast<size_t>(index.numel()), c.number(3, "value"));
  } else {
    const TensorView &src = c.tensor(3, "src");
    checkView(src, std::string(c.op()) + ": src");
    if (src.dim() != rank)
      fail(c.op(), "self, index and src must have the same number of dimensions");
    for (size_t i = 0; i < static_cast<size_t>(rank); ++i)
      if (index.shape[i] > src.shape[i])
        fail(c.op(), "index " + shapeString(index.shape) + " is larger than src " + shapeString(src.shape));
    TensorView srcPart = src; // src restricted to index's shape
    srcPart.shape = index.shape;
    put = readValues(srcPart);
  }
  for (int64_t a = 0; a < rank; ++a)
    if (a != dim && index.shape[static_cast<size_t>(a)] > self.shape[static_cast<size_t>(a)])
      fail(c.op(), "index " + shapeString(index.shape) + " is larger than self " + shapeString(self.shape));
  const std::vector<int64_t> idx = readIntegers(index);
  std::vector<double> result = readValues(self);
  std::vector<int64_t> pos(static_cast<size_t>(rank), 0), contiguous(static_cast<size_t>(rank), 1);
  for (int64_t a = rank - 2; a >= 0; --a)
    contiguous[static_cast<size_t>(a)] =
        contiguous[static_cast<size_t>(a + 1)] * self.shape[static_cast<size_t>(a + 1)];
  const int64_t size = rank == 0 ? 1 : self.shape[static_cast<size_t>(dim)];
  for (size_t e = 0; e < idx.size(); ++e) {
    int64_t target = idx[e];
    if (target < -size || target >= size)
      fail(c.op(), "index " + std::to_string(target) + " is out of bounds for dimension " +
                       std::to_string(dim) + " of size " + std::to_string(size));
    if (target < 0)
      target += size;
    int64_t at = 0;
    for (int64_t a = 0; a < rank; ++a)
      at += (a == dim ? target : pos[static_cast<size_t>(a)]) * contiguous[static_cast<size_t>(a)];
    if (kind == ScatterKind::Add)
      result[static_cast<size_t>(at)] += put[e];
    else
      result[static_cast<size_t>(at)] = put[e];
    for (int64_t a = rank - 1; a >= 0; --a) { // next position in index's logical order
      if (++pos[static_cast<size_t>(a)] < index.shape[static_cast<size_t>(a)])
        break;
      pos[static_cast<size_t>(a)] = 0;
    }
  }
  const TensorView &out = c.out(0);
  checkView(out, std::string(c.op()) + ": out");
  expectShape(out, self.shape, c.op(), "out");
  writeValues(out, result);
  return {true};
}

// embedding_dense_backward(grad_output, indices, num_weights, padding_idx, scale_grad_by_freq)
std::vector<bool> callEmbeddingBackward(const CallArgs &c) {
  const TensorView &grad = c.tensor(0, "grad_output");
  const TensorView &indices = c.tensor(1, "indices");
  const int64_t numWeights = c.integer(2, "num_weights");
  const int64_t paddingIdx = c.integer(3, "padding_idx");
  const bool byFreq = c.boolean(4, "scale_grad_by_freq");
  checkView(grad, std::string(c.op()) + ": grad_output");
  checkView(indices, std::string(c.op()) + ": indices");
  const int64_t count = indices.numel();
  if (grad.dim() < 1 || grad.numel() != count * grad.shape.back())
    fail(c.op(),
         "grad_output " + shapeString(grad.shape) + " does not match indices " + shapeString(indices.shape));
  const int64_t d = grad.shape.back();
  const std::vector<int64_t> idx = readIntegers(indices);
  const std::vector<double> g = readValues(grad);
  std::vector<int64_t> freq(static_cast<size_t>(std::max<int64_t>(numWeights, 0)), 0);
  for (int64_t i : idx) {
    if (i < 0 || i >= numWeights)
      fail(c.op(),
           "index " + std::to_string(i) + " is out of range for " + std::to_string(numWeights) + " weights");
    ++freq[static_cast<size_t>(i)];
  }
  std::vector<double> result(static_cast<size_t>(numWeights * d), 0.0);
  for (size_t e = 0; e < idx.size(); ++e) {
    if (idx[e] == paddingIdx)
      continue;
    const double scale = byFreq ? 1.0 / static_cast<double>(freq[static_cast<size_t>(idx[e])]) : 1.0;
    for (int64_t j = 0; j < d; ++j)
      result[static_cast<size_t>(idx[e] * d + j)] +=
          g[e * static_cast<size_t>(d) + static_cast<size_t>(j)] * scale;
  }
  const TensorView &out = c.out(0);
  checkView(out, std::string(c.op()) + ": out");
  const std::vector<int64_t> shape = {numWeights, d};
  expectShape(out, shape, c.op(), "out");
  writeValues(out, result);
  return {true};
}

// embedding(weight, indices, padding_idx, scale_grad_by_freq, sparse): the rows of
// weight the indices name, out of shape indices.shape + [embedding_dim]. padding_idx
// and scale_grad_by_freq only change the gradient; sparse only its layout.
std::vector<bool> callEmbedding(const CallArgs &c) {
  const TensorView &weight = c.tensor(0, "weight");
  const TensorView &indices = c.tensor(1, "indices");
  checkView(weight, std::string(c.op()) + ": weight");
  checkView(indices, std::string(c.op()) + ": indices");
  if (weight.dim() != 2)
    c.fail(0, "weight",
           "must be 2-d [num_weights, embedding_dim], but has shape " + shapeString(weight.shape));
  if (!integral(indices) || indices.dtype() == core::DType::Bool)
    c.fail(1, "indices", "must be an integer tensor");
  const int64_t rows = weight.shape[0], d = weight.shape[1];
  const std::vector<int64_t> idx = readIntegers(indices);
  const std::vector<double> w = readValues(weight);
  std::vector<double> result(idx.size() * static_cast<size_t>(d));
  for (size_t e = 0; e < idx.size(); ++e) {
    if (idx[e] < 0 || idx[e] >= rows)
      c.fail(1, "indices",
             "element " + std::to_string(e) + " is " + std::to_string(idx[e]) + ", out of range for " +
                 std::to_string(rows) + " weights");
    std::copy_n(w.begin() + idx[e] * d, d, result.begin() + static_cast<std::ptrdiff_t>(e) * d);
  }
  const TensorView &out = c.out(0);
  checkView(out, std::string(c.op()) + ": out");
  std::vector<int64_t> shape = indices.shape;
  shape.push_back(d);
  expectShape(out, shape, c.op(), "out");
  writeValues(out, result);
  return {true};
}

// index(self, indices: Tensor?[]): advanced indexing with integer index tensors.
namespace {

/// Advanced indexing of `target` by the index tensors of argument `at` (a list
/// of integer tensors or None, as aten.index takes them): the shape of the
/// result and, for each result element in row-major order, the element of
/// target's buffer it names. `target` has the shape of the operator's self.
struct IndexedElements {
  std::vector<int64_t> shape;
  std::vector<int64_t> addresses;
};

IndexedElements indexedElements(const CallArgs &c, const TensorView &target, size_t at) {
  const std::vector<HostCallValue> &list = c.list(at, "indices");
  if (list.size() > target.shape.size())
    c.fail(at, "indices", "too many indices for a tensor of shape " + shapeString(target.shape));
  std::vector<size_t> indexed;
  std::vector<const TensorView *> tensors;
  for (size_t i = 0; i < list.size(); ++i) {
    if (list[i].kind == HostCallValue::Kind::None)
      continue;
    if (list[i].kind != HostCallValue::Kind::Tensor)
      c.fail(at, "indices", "element " + std::to_string(i) + " is not a tensor or None");
    if (!integral(list[i].tensor) || list[i].tensor.dtype() == core::DType::Bool)
      c.fail(at, "indices", "element " + std::to_string(i) + ": only integer index tensors are supported");
    checkView(list[i].tensor, std::string(c.op()) + ": indices[" + std::to_string(i) + "]");
    indexed.push_back(i);
    tensors.push_back(&list[i].tensor);
  }
  if (indexed.empty())
    c.fail(at, "indices", "no index tensor");
  // The broadcast shape of the index tensors.
  std::vector<int64_t> bshape;
  for (const TensorView *t : tensors) {
    if (t->shape.size() > bshape.size())
      bshape.insert(bshape.begin(), t->shape.size() - bshape.size(), 1);
    const size_t lead = bshape.size() - t->shape.size();
    for (size_t a = 0; a < t->shape.size(); ++a) {
      int64_t &b = bshape[lead + a];
      if (b == 1)
        b = t->shape[a];
      else if (t->shape[a] != 1 && t->shape[a] != b)
        c.fail(at, "indices", "index shapes do not broadcast together");
    }
  }
  std::vector<std::vector<int64_t>> idx;
  for (size_t k = 0; k < tensors.size(); ++k)
    idx.push_back(readIntegers(broadcastTo(*tensors[k], bshape, c.op(), "indices")));
  const bool adjacent = indexed.back() - indexed.front() + 1 == indexed.size();
  // Result axes: the kept axes before the indexed block, the broadcast axes,
  // the kept axes after (or the broadcast axes first when not adjacent).
  std::vector<int64_t> before, after; // kept target axes
  for (size_t a = 0; a < target.shape.size(); ++a) {
    if (std::find(indexed.begin(), indexed.end(), a) != indexed.end())
      continue;
    (adjacent && a < indexed.front() ? before : after).push_back(static_cast<int64_t>(a));
  }
  IndexedElements r;
  for (int64_t a : before)
    r.shape.push_back(target.shape[static_cast<size_t>(a)]);
  r.shape.insert(r.shape.end(), bshape.begin(), bshape.end());
  for (int64_t a : after)
    r.shape.push_back(target.shape[static_cast<size_t>(a)]);

  const int64_t bcount = std::accumulate(bshape.begin(), bshape.end(), int64_t{1}, std::multiplies<>());
  const int64_t count = std::accumulate(r.shape.begin(), r.shape.end(), int64_t{1}, std::multiplies<>());
  std::vector<int64_t> pos(r.shape.size(), 0);
  r.addresses.reserve(static_cast<size_t>(count));
  for (int64_t e = 0; e < count; ++e) {
    int64_t address = target.offset;
    size_t p = 0;
    for (int64_t a : before)
      address += pos[p++] * target.stride[static_cast<size_t>(a)];
    int64_t b = 0;
    for (size_t k = 0; k < bshape.size(); ++k)
      b = b * bshape[k] + pos[p++];
    for (int64_t a : after)
      address += pos[p++] * target.stride[static_cast<size_t>(a)];
    for (size_t k = 0; k < indexed.size() && bcount > 0; ++k) {
      const int64_t size = target.shape[indexed[k]];
      int64_t i = idx[k][static_cast<size_t>(b)];
      if (i < -size || i >= size)
        fail(c.op(), "index " + std::to_string(i) + " is out of bounds for dimension " +
                         std::to_string(indexed[k]) + " of size " + std::to_string(size));
      address += (i < 0 ? i + size : i) * target.stride[indexed[k]];
    }
    r.addresses.push_back(address);
    for (size_t a = r.shape.size(); a-- > 0;) {
      if (++pos[a] < r.shape[a])
        break;
      pos[a] = 0;
    }
  }
  return r;
}

} // namespace

std::vector<bool> callIndex(const CallArgs &c) {
  const TensorView &self = c.tensor(0, "self");
  checkView(self, std::string(c.op()) + ": self");
  const IndexedElements e = indexedElements(c, self, 1);
  const TensorView &out = c.out(0);
  checkView(out, std::string(c.op()) + ": out");
  expectShape(out, e.shape, c.op(), "out");
  if (integral(self)) {
    std::vector<int64_t> ints;
    for (int64_t a : e.addresses)
      ints.push_back(loadIntegerElement(*self.buffer, a));
    writeIntegers(out, ints);
  } else {
    std::vector<double> values;
    for (int64_t a : e.addresses)
      values.push_back(loadElement(*self.buffer, a));
    writeValues(out, values);
  }
  return {true};
}

std::vector<bool> callIndexPut(const CallArgs &c) {
  // out = self (the in-place form writes self itself), then out[indices] =
  // values, or += with accumulate: contributions to one element are summed in
  // double in index order onto its old value and rounded once; without
  // accumulate a repeated element keeps its last value.
  const TensorView &self = c.tensor(0, "self");
  checkView(self, std::string(c.op()) + ": self");
  const TensorView &out = c.out(0);
  checkView(out, std::string(c.op()) + ": out");
  expectShape(out, self.shape, c.op(), "out");
  const TensorView &values = c.tensor(2, "values");
  checkView(values, std::string(c.op()) + ": values");
  const bool accumulate = c.boolean(3, "accumulate");
  const bool ints = integral(out);
  // Everything is read before out is written: self, values and the indices may alias it.
  const std::vector<double> selfValues = ints ? std::vector<double>{} : readValues(self);
  const std::vector<int64_t> selfInts = ints ? readIntegers(self) : std::vector<int64_t>{};
  const IndexedElements e = indexedElements(c, out, 1);
  const TensorView put = broadcastTo(values, e.shape, c.op(), "values");
  const std::vector<double> putValues = ints ? std::vector<double>{} : readValues(put);
  const std::vector<int64_t> putInts = ints ? readIntegers(put) : std::vector<int64_t>{};
  if (ints)
    writeIntegers(out, selfInts);
  else
    writeValues(out, selfValues);
  std::map<int64_t, double> sums;
  std::map<int64_t, int64_t> intSums;
  for (size_t k = 0; k < e.addresses.size(); ++k) {
    const int64_t a = e.addresses[k];
    if (ints) {
      auto [it, fresh] = intSums.try_emplace(a, accumulate ? loadIntegerElement(*out.buffer, a) : 0);
      it->second = accumulate ? it->second + putInts[k] : putInts[k];
    } else {
      auto [it, fresh] = sums.try_emplace(a, accumulate ? loadElement(*out.buffer, a) : 0.0);
      it->second = accumulate ? it->second + putValues[k] : putValues[k];
    }
  }
  for (const auto &[a, v] : sums)
    storeElement(*out.buffer, a, v);
  for (const auto &[a, v] : intSums)
    storeIntegerElement(*out.buffer, a, v);
  return {true};
}

} // namespace npusim::reference::host
