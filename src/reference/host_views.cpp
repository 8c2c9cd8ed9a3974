// Strided views over host buffers: bounds, element access with dtype
// conversion, and the broadcasting and transposing the library calls use.
#include "core/float16.h"
#include "reference/host_calls_internal.h"

#include <algorithm>
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
    host::forEachElement(view, [&](int64_t i) { values.push_back(readRaw<float>(b, i)); });
    return values;
  }
  host::forEachElement(view, [&](int64_t i) { values.push_back(loadElement(b, i)); });
  return values;
}

std::vector<int64_t> readIntegers(const TensorView &view) {
  std::vector<int64_t> values;
  values.reserve(static_cast<size_t>(view.numel()));
  host::forEachElement(view, [&](int64_t i) { values.push_back(loadIntegerElement(*view.buffer, i)); });
  return values;
}

void writeValues(const TensorView &view, std::span<const double> values) {
  if (static_cast<int64_t>(values.size()) != view.numel())
    throw core::RuntimeError("internal error: writing " + std::to_string(values.size()) +
                             " values into a view of " + std::to_string(view.numel()) + " elements");
  Buffer &b = *view.buffer;
  size_t k = 0;
  if (view.dtype() == DType::Float32) {
    host::forEachElement(view, [&](int64_t i) { writeRaw<float>(b, i, static_cast<float>(values[k++])); });
    return;
  }
  host::forEachElement(view, [&](int64_t i) { storeElement(b, i, values[k++]); });
}

void writeIntegers(const TensorView &view, std::span<const int64_t> values) {
  if (static_cast<int64_t>(values.size()) != view.numel())
    throw core::RuntimeError("internal error: writing " + std::to_string(values.size()) +
                             " values into a view of " + std::to_string(view.numel()) + " elements");
  size_t k = 0;
  host::forEachElement(view, [&](int64_t i) { storeIntegerElement(*view.buffer, i, values[k++]); });
}

bool isContiguous(const TensorView &view) {
  int64_t expected = 1;
  for (size_t a = view.shape.size(); a-- > 0;) {
    if (view.shape[a] == 1)
      continue;
    if (view.stride[a] != expected)
      return false;
    expected *= view.shape[a];
  }
  return true;
}

namespace {

/// Fills `bytes` bytes at `dst` with repeats of the `width`-byte `pattern`.
void fillRepeated(uint8_t *dst, size_t bytes, const uint8_t *pattern, size_t width) {
  if (std::all_of(pattern, pattern + width, [&](uint8_t b) { return b == pattern[0]; })) {
    std::memset(dst, pattern[0], bytes);
    return;
  }
  // Double a prefix up to a block that stays in L1, then copy that block on.
  constexpr size_t kBlock = 4096;
  const size_t first = std::min(bytes, width);
  std::memcpy(dst, pattern, first);
  size_t done = first;
  while (done < bytes && done < kBlock) {
    const size_t chunk = std::min(done, bytes - done);
    std::memcpy(dst + done, dst, chunk);
    done += chunk;
  }
  const size_t block = done - done % width;
  while (done < bytes) {
    const size_t chunk = std::min(block, bytes - done);
    std::memcpy(dst + done, dst, chunk);
    done += chunk;
  }
}

/// Moves the view's elements (of W bytes) in logical order out to the packed
/// run at `packed` or, `IntoView`, from it into the view.
template <size_t W, bool IntoView> void transfer(const TensorView &v, uint8_t *packed) {
  uint8_t *base = v.buffer->bytes.data();
  host::forEachElement(v, [&](int64_t i) {
    uint8_t *element = base + static_cast<size_t>(i) * W;
    if constexpr (IntoView)
      std::memcpy(element, packed, W);
    else
      std::memcpy(packed, element, W);
    packed += W;
  });
}

template <size_t W> void copyStrided(const TensorView &from, const TensorView &to) {
  std::vector<uint8_t> staged(static_cast<size_t>(from.numel()) * W);
  transfer<W, false>(from, staged.data());
  transfer<W, true>(to, staged.data());
}

} // namespace

void fillView(const TensorView &view, double value) {
  if (view.numel() == 0)
    return;
  Buffer &b = *view.buffer;
  const size_t width = static_cast<size_t>(core::byteSize(b.dtype));
  Buffer element;
  element.dtype = b.dtype;
  element.bytes.resize(width);
  storeElement(element, 0, value);
  if (isContiguous(view)) {
    fillRepeated(b.bytes.data() + static_cast<size_t>(view.offset) * width,
                 static_cast<size_t>(view.numel()) * width, element.bytes.data(), width);
    return;
  }
  host::forEachElement(view, [&](int64_t i) {
    std::memcpy(b.bytes.data() + static_cast<size_t>(i) * width, element.bytes.data(), width);
  });
}

bool copySameDType(const TensorView &from, const TensorView &to) {
  if (from.dtype() != to.dtype())
    return false;
  if (from.numel() != to.numel() || from.shape != to.shape)
    throw core::RuntimeError("internal error: copying a view of shape " + shapeString(from.shape) +
                             " into one of shape " + shapeString(to.shape));
  if (from.numel() == 0)
    return true;
  const size_t width = static_cast<size_t>(core::byteSize(from.dtype()));
  if (isContiguous(from) && isContiguous(to)) {
    std::memmove(to.buffer->bytes.data() + static_cast<size_t>(to.offset) * width,
                 from.buffer->bytes.data() + static_cast<size_t>(from.offset) * width,
                 static_cast<size_t>(from.numel()) * width);
    return true;
  }
  switch (width) {
  case 1: copyStrided<1>(from, to); return true;
  case 2: copyStrided<2>(from, to); return true;
  case 4: copyStrided<4>(from, to); return true;
  case 8: copyStrided<8>(from, to); return true;
  default: throw core::RuntimeError("internal error: an element of " + std::to_string(width) + " bytes");
  }
}

namespace host {

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

TensorView axisLast(const TensorView &v, int64_t dim) {
  TensorView r = v;
  if (v.dim() == 0)
    return r;
  r.shape.erase(r.shape.begin() + dim);
  r.stride.erase(r.stride.begin() + dim);
  r.shape.push_back(v.shape[static_cast<size_t>(dim)]);
  r.stride.push_back(v.stride[static_cast<size_t>(dim)]);
  return r;
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

} // namespace host
} // namespace npusim::reference
