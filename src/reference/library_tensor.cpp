// Strided views over host buffers: bounds, element access with dtype
// conversion, and the broadcasting and transposing the library calls use.
#include "core/float16.h"
#include "reference/library_support.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

namespace npusim::reference {

using core::DType;

static_assert(std::endian::native == std::endian::little,
              "buffers hold little-endian elements, as numpy and PyTorch lay them out");

int64_t TensorView::numel() const {
  int64_t n = 1;
  for (int64_t s : shape)
    n *= s;
  return n;
}

void checkView(const TensorView &view, const std::string &what) {
  if (!view.buffer)
    throw core::RuntimeError(what + ": no buffer");
  if (view.stride.size() != view.shape.size())
    throw core::RuntimeError(what + ": shape " + shapeString(view.shape) + " and stride " +
                             shapeString(view.stride) + " differ in length");
  if (view.offset < 0)
    throw core::RuntimeError(what + ": negative offset " + std::to_string(view.offset));
  int64_t lo = view.offset, hi = view.offset;
  bool overflow = false;
  for (size_t i = 0; i < view.shape.size(); ++i) {
    if (view.shape[i] < 0)
      throw core::RuntimeError(what + ": negative size in shape " + shapeString(view.shape));
    if (view.shape[i] == 0)
      return;
    int64_t step = 0;
    overflow |= __builtin_mul_overflow(view.shape[i] - 1, view.stride[i], &step);
    overflow |= __builtin_add_overflow(step < 0 ? lo : hi, step, step < 0 ? &lo : &hi);
  }
  const int64_t size = view.buffer->numElements();
  if (overflow || lo < 0 || hi >= size)
    throw core::RuntimeError(what + ": the view (offset " + std::to_string(view.offset) + ", shape " +
                             shapeString(view.shape) + ", stride " + shapeString(view.stride) +
                             ") reaches outside its storage of " + std::to_string(size) + " elements");
}

namespace {

template <typename T> T readRaw(const Buffer &b, int64_t index) {
  T v;
  std::memcpy(&v, b.bytes.data() + static_cast<size_t>(index) * sizeof(T), sizeof(T));
  return v;
}

template <typename T> void writeRaw(Buffer &b, int64_t index, T v) {
  std::memcpy(b.bytes.data() + static_cast<size_t>(index) * sizeof(T), &v, sizeof(T));
}

int64_t truncateToInteger(double v) {
  if (std::isnan(v))
    return 0;
  if (v >= 9.2233720368547758e18)
    return std::numeric_limits<int64_t>::max();
  if (v <= -9.2233720368547758e18)
    return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(v);
}

} // namespace

double loadElement(const Buffer &b, int64_t index) {
  switch (b.dtype) {
  case DType::Bool: return readRaw<uint8_t>(b, index) != 0 ? 1.0 : 0.0;
  case DType::Int8: return readRaw<int8_t>(b, index);
  case DType::Int16: return readRaw<int16_t>(b, index);
  case DType::Int32: return readRaw<int32_t>(b, index);
  case DType::Int64: return static_cast<double>(readRaw<int64_t>(b, index));
  case DType::UInt8: return readRaw<uint8_t>(b, index);
  case DType::UInt16: return readRaw<uint16_t>(b, index);
  case DType::UInt32: return readRaw<uint32_t>(b, index);
  case DType::UInt64: return static_cast<double>(readRaw<uint64_t>(b, index));
  case DType::Float16: return core::halfToFloat(readRaw<uint16_t>(b, index));
  case DType::BFloat16: return core::bfloat16ToFloat(readRaw<uint16_t>(b, index));
  case DType::Float32: return readRaw<float>(b, index);
  case DType::Float64: return readRaw<double>(b, index);
  }
  return 0.0;
}

int64_t loadIntegerElement(const Buffer &b, int64_t index) {
  switch (b.dtype) {
  case DType::Bool: return readRaw<uint8_t>(b, index) != 0 ? 1 : 0;
  case DType::Int8: return readRaw<int8_t>(b, index);
  case DType::Int16: return readRaw<int16_t>(b, index);
  case DType::Int32: return readRaw<int32_t>(b, index);
  case DType::Int64: return readRaw<int64_t>(b, index);
  case DType::UInt8: return readRaw<uint8_t>(b, index);
  case DType::UInt16: return readRaw<uint16_t>(b, index);
  case DType::UInt32: return readRaw<uint32_t>(b, index);
  case DType::UInt64: return static_cast<int64_t>(readRaw<uint64_t>(b, index));
  default: return truncateToInteger(loadElement(b, index));
  }
}

void storeElement(Buffer &b, int64_t index, double value) {
  switch (b.dtype) {
  case DType::Float16: writeRaw<uint16_t>(b, index, core::doubleToHalf(value)); return;
  case DType::BFloat16: writeRaw<uint16_t>(b, index, core::doubleToBFloat16(value)); return;
  case DType::Float32: writeRaw<float>(b, index, static_cast<float>(value)); return;
  case DType::Float64: writeRaw<double>(b, index, value); return;
  case DType::Bool: writeRaw<uint8_t>(b, index, value != 0.0 ? 1 : 0); return;
  default: storeIntegerElement(b, index, truncateToInteger(value)); return;
  }
}

void storeIntegerElement(Buffer &b, int64_t index, int64_t value) {
  switch (b.dtype) {
  case DType::Bool: writeRaw<uint8_t>(b, index, value != 0 ? 1 : 0); return;
  case DType::Int8:
  case DType::UInt8: writeRaw<uint8_t>(b, index, static_cast<uint8_t>(value)); return;
  case DType::Int16:
  case DType::UInt16: writeRaw<uint16_t>(b, index, static_cast<uint16_t>(value)); return;
  case DType::Int32:
  case DType::UInt32: writeRaw<uint32_t>(b, index, static_cast<uint32_t>(value)); return;
  case DType::Int64:
  case DType::UInt64: writeRaw<uint64_t>(b, index, static_cast<uint64_t>(value)); return;
  default: storeElement(b, index, static_cast<double>(value)); return;
  }
}

std::vector<double> readValues(const TensorView &view) {
  std::vector<double> values;
  values.reserve(static_cast<size_t>(view.numel()));
  const Buffer &b = *view.buffer;
  if (view.dtype() == DType::Float32) {
    lib::forEachElement(view, [&](int64_t i) { values.push_back(readRaw<float>(b, i)); });
    return values;
  }
  lib::forEachElement(view, [&](int64_t i) { values.push_back(loadElement(b, i)); });
  return values;
}

std::vector<int64_t> readIntegers(const TensorView &view) {
  std::vector<int64_t> values;
  values.reserve(static_cast<size_t>(view.numel()));
  lib::forEachElement(view, [&](int64_t i) { values.push_back(loadIntegerElement(*view.buffer, i)); });
  return values;
}

void writeValues(const TensorView &view, std::span<const double> values) {
  if (static_cast<int64_t>(values.size()) != view.numel())
    throw core::RuntimeError("internal error: writing " + std::to_string(values.size()) +
                             " values into a view of " + std::to_string(view.numel()) + " elements");
  Buffer &b = *view.buffer;
  size_t k = 0;
  if (view.dtype() == DType::Float32) {
    lib::forEachElement(view, [&](int64_t i) { writeRaw<float>(b, i, static_cast<float>(values[k++])); });
    return;
  }
  lib::forEachElement(view, [&](int64_t i) { storeElement(b, i, values[k++]); });
}

void writeIntegers(const TensorView &view, std::span<const int64_t> values) {
  if (static_cast<int64_t>(values.size()) != view.numel())
    throw core::RuntimeError("internal error: writing " + std::to_string(values.size()) +
                             " values into a view of " + std::to_string(view.numel()) + " elements");
  size_t k = 0;
  lib::forEachElement(view, [&](int64_t i) { storeIntegerElement(*view.buffer, i, values[k++]); });
}

namespace lib {

void fail(std::string_view op, const std::string &message) {
  throw core::RuntimeError(std::string(op) + ": " + message);
}

TensorView select0(const TensorView &v, int64_t i) {
  TensorView r;
  r.buffer = v.buffer;
  r.offset = v.offset + i * v.stride[0];
  r.shape.assign(v.shape.begin() + 1, v.shape.end());
  r.stride.assign(v.stride.begin() + 1, v.stride.end());
  return r;
}

TensorView broadcastTo(const TensorView &v, std::span<const int64_t> shape, std::string_view op,
                       const std::string &what) {
  if (v.shape.size() > shape.size())
    fail(op,
         what + " has shape " + shapeString(v.shape) + ", which does not broadcast to " + shapeString(shape));
  TensorView r;
  r.buffer = v.buffer;
  r.offset = v.offset;
  r.shape.assign(shape.begin(), shape.end());
  r.stride.assign(shape.size(), 0);
  const size_t lead = shape.size() - v.shape.size();
  for (size_t i = 0; i < v.shape.size(); ++i) {
    if (v.shape[i] == shape[lead + i])
      r.stride[lead + i] = v.stride[i];
    else if (v.shape[i] != 1)
      fail(op, what + " has shape " + shapeString(v.shape) + ", which does not broadcast to " +
                   shapeString(shape));
  }
  return r;
}

void expectShape(const TensorView &v, std::span<const int64_t> shape, std::string_view op,
                 const std::string &what) {
  if (!std::equal(v.shape.begin(), v.shape.end(), shape.begin(), shape.end()))
    fail(op, what + " has shape " + shapeString(v.shape) + "; expected " + shapeString(shape));
}

TensorView transposed(const TensorView &v, size_t a, size_t b) {
  TensorView r = v;
  std::swap(r.shape[a], r.shape[b]);
  std::swap(r.stride[a], r.stride[b]);
  return r;
}

int64_t wrapDim(int64_t dim, int64_t rank, std::string_view op) {
  const int64_t r = std::max<int64_t>(rank, 1);
  if (dim < -r || dim >= r)
    fail(op, "dimension " + std::to_string(dim) + " is out of range for a tensor of " + std::to_string(rank) +
                 " dimensions");
  return dim < 0 ? dim + r : dim;
}

void gemm(const double *a, const double *b, double *c, int64_t m, int64_t k, int64_t n) {
  // i-k-j order: the inner loop runs over a row of b and of c, so it vectorises
  // while each c[i, j] still sums its k products in order.
  for (int64_t i = 0; i < m; ++i) {
    double *ci = c + i * n;
    std::fill(ci, ci + n, 0.0);
    for (int64_t p = 0; p < k; ++p) {
      const double aip = a[i * k + p];
      const double *bp = b + p * n;
      for (int64_t j = 0; j < n; ++j)
        ci[j] += aip * bp[j];
    }
  }
}

} // namespace lib
} // namespace npusim::reference
