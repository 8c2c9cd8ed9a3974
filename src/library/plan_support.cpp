#include "core/shape.h"
#include "library/plan_support.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <sstream>

namespace npusim::library::detail {

void fail(std::string_view op, const std::string &message) {
  throw core::RuntimeError(std::string(op) + ": " + message);
}

int64_t numel(const TensorRef &t) {
  int64_t n = 1;
  for (int64_t s : t.shape)
    n *= s;
  return n;
}

void expectRank(std::string_view op, const TensorRef &t, size_t rank, const std::string &what) {
  if (t.shape.size() != rank)
    fail(op, what + " must have " + std::to_string(rank) + " dimensions, but has shape " +
                 shapeString(t.shape));
  for (int64_t s : t.shape)
    if (s < 0)
      fail(op, what + " has a negative size in shape " + shapeString(t.shape));
}

void expectShape(std::string_view op, const TensorRef &t, std::span<const int64_t> shape,
                 const std::string &what) {
  if (!std::equal(t.shape.begin(), t.shape.end(), shape.begin(), shape.end()))
    fail(op, what + " has shape " + shapeString(t.shape) + ", expected " + shapeString(shape));
}

TensorRef broadcastTo(std::string_view op, const TensorRef &t, std::span<const int64_t> shape,
                      const std::string &what) {
  if (t.shape.size() > shape.size())
    fail(op, what + " of shape " + shapeString(t.shape) + " does not broadcast to " + shapeString(shape));
  TensorRef r = t;
  r.shape.assign(shape.begin(), shape.end());
  r.stride.assign(shape.size(), 0);
  const size_t lead = shape.size() - t.shape.size();
  for (size_t i = 0; i < t.shape.size(); ++i) {
    const int64_t s = t.shape[i], target = shape[lead + i];
    if (s == target)
      r.stride[lead + i] = s == 1 ? 0 : t.stride[i];
    else if (s != 1)
      fail(op, what + " of shape " + shapeString(t.shape) + " does not broadcast to " + shapeString(shape));
  }
  return r;
}

TensorRef unsqueeze(const TensorRef &t, size_t axis) {
  TensorRef r = t;
  r.shape.insert(r.shape.begin() + static_cast<std::ptrdiff_t>(axis), 1);
  r.stride.insert(r.stride.begin() + static_cast<std::ptrdiff_t>(axis), 0);
  return r;
}

namespace {

/// The lowest and highest element offsets the view reaches, relative to its offset.
std::pair<int64_t, int64_t> extent(const TensorRef &t) {
  int64_t lo = 0, hi = 0;
  for (size_t i = 0; i < t.shape.size(); ++i) {
    if (t.shape[i] == 0)
      return {0, -1};
    const int64_t reach = (t.shape[i] - 1) * t.stride[i];
    (reach < 0 ? lo : hi) += reach;
  }
  return {lo, hi};
}

} // namespace

void checkIndexRange(std::string_view op, const TensorRef &t, const std::string &what) {
  constexpr int64_t kLimit = int64_t{1} << 30;
  int64_t reach = 0;
  for (size_t i = 0; i < t.shape.size(); ++i) {
    const int64_t s = std::abs(t.stride[i]);
    if (s != 0 && t.shape[i] > kLimit / s)
      fail(op, what + " of shape " + shapeString(t.shape) + " and stride " + shapeString(t.stride) +
                   " spans more elements than 32-bit kernel indexing reaches");
    reach += t.shape[i] * s;
    if (reach > kLimit)
      fail(op, what + " of shape " + shapeString(t.shape) + " and stride " + shapeString(t.stride) +
                   " spans more elements than 32-bit kernel indexing reaches");
  }
}

void checkNoOverlap(std::string_view op, const TensorRef &out, const TensorRef &input, const std::string &what,
                    bool sameElementAllowed) {
  if (out.buffer != input.buffer || numel(out) == 0 || numel(input) == 0)
    return;
  if (sameElementAllowed && out.offset == input.offset && out.shape == input.shape &&
      out.stride == input.stride)
    return;
  const auto [outLo, outHi] = extent(out);
  const auto [inLo, inHi] = extent(input);
  if (out.offset + outHi < input.offset + inLo || input.offset + inHi < out.offset + outLo)
    return;
  fail(op, "the output shares buffer " + std::to_string(out.buffer) + " elements with " + what +
               "; the tiled kernels need them apart");
}

void expectFloat(std::string_view op, const TensorRef &t, const std::string &what) {
  if (t.dtype != core::DType::Float32 && t.dtype != core::DType::Float16 && t.dtype != core::DType::BFloat16)
    fail(op, what + " has dtype " + std::string(core::tritonName(t.dtype)) +
                 "; the NPU kernels take fp32, fp16 and bf16");
}

int64_t ceilDiv(int64_t a, int64_t b) {
  return (a + b - 1) / b;
}

int64_t blockFor(int64_t size, int64_t lowest, int64_t highest) {
  return std::clamp(nextPowerOfTwo(size), lowest, std::max(lowest, highest));
}

int64_t tileBudgetBytes(const MachineShape &machine) {
  return static_cast<int64_t>(machine.lanes) * machine.spadBytesPerLane / 2;
}

int64_t laneBlock(const MachineShape &machine) {
  // The largest power of two within the lanes (a tile dimension must be one).
  int64_t p = 16;
  while (p * 2 <= machine.lanes)
    p *= 2;
  return p;
}

// Eight hex digits of the 64-bit FNV-1a hash of `text`: a name suffix that
// differs between the bodies of differently shaped layers.
std::string textDigest(std::string_view text) {
  uint64_t h = 14695981039346656037ull;
  for (const char ch : text)
    h = (h ^ static_cast<unsigned char>(ch)) * 1099511628211ull;
  static constexpr char kHex[] = "0123456789abcdef";
  std::string digits(8, '0');
  for (size_t i = 0; i < digits.size(); ++i)
    digits[i] = kHex[(h >> (60 - 4 * i)) & 0xf];
  return digits;
}

std::string instantiate(std::string_view text,
                        std::initializer_list<std::pair<std::string_view, std::string>> substitutions) {
  std::string out;
  out.reserve(text.size());
  size_t i = 0;
  while (i < text.size()) {
    const size_t open = text.find("{{", i);
    if (open == std::string_view::npos) {
      out.append(text.substr(i));
      break;
    }
    out.append(text.substr(i, open - i));
    const size_t close = text.find("}}", open);
    if (close == std::string_view::npos)
      throw core::RuntimeError("internal error: unterminated {{ in a library kernel source");
    const std::string_view key = text.substr(open + 2, close - open - 2);
    bool found = false;
    for (const auto &[name, value] : substitutions)
      if (name == key) {
        out += value;
        found = true;
        break;
      }
    if (!found)
      throw core::RuntimeError("internal error: library kernel source key {{" + std::string(key) +
                               "}} has no value");
    i = close + 2;
  }
  return out;
}

std::string tritonType(core::DType t) {
  return std::string(core::tritonName(t));
}

std::string tritonTypeName(core::DType t) {
  switch (t) {
  case core::DType::Float32: return "float32";
  case core::DType::Float16: return "float16";
  case core::DType::BFloat16: return "bfloat16";
  default: return tritonType(t);
  }
}

LaunchBuilder::LaunchBuilder(std::string kernelName, std::string source) {
  launch_.kernelName = std::move(kernelName);
  launch_.source = std::move(source);
}

LaunchBuilder &LaunchBuilder::constant(std::string name, int64_t value) {
  launch_.constexprs.emplace_back(std::move(name), value);
  return *this;
}

LaunchBuilder &LaunchBuilder::pointer(const TensorRef &t) {
  return pointer(t.buffer, t.offset);
}

LaunchBuilder &LaunchBuilder::pointer(int buffer, int64_t elementOffset) {
  KernelArgument a;
  a.isPointer = true;
  a.buffer = buffer;
  a.elementOffset = elementOffset;
  launch_.arguments.push_back(a);
  return *this;
}

LaunchBuilder &LaunchBuilder::floatScalar(double value) {
  KernelArgument a;
  a.floatValue = value;
  launch_.arguments.push_back(a);
  return *this;
}

LaunchBuilder &LaunchBuilder::intScalar(int64_t value) {
  KernelArgument a;
  a.intValue = value;
  launch_.arguments.push_back(a);
  return *this;
}

LaunchBuilder &LaunchBuilder::grid(int64_t x, int64_t y, int64_t z) {
  launch_.grid[0] = x;
  launch_.grid[1] = y;
  launch_.grid[2] = z;
  return *this;
}

Merged merge(const std::vector<int64_t> &shape, const std::vector<std::vector<int64_t>> &strides) {
  Merged m;
  m.strides.resize(strides.size());
  for (size_t a = 0; a < shape.size(); ++a) {
    if (shape[a] == 1)
      continue;
    bool joins = !m.shape.empty();
    for (size_t v = 0; v < strides.size() && joins; ++v)
      joins = m.strides[v].back() == shape[a] * strides[v][a];
    if (joins) {
      m.shape.back() *= shape[a];
      for (size_t v = 0; v < strides.size(); ++v)
        m.strides[v].back() = strides[v][a];
    } else {
      m.shape.push_back(shape[a]);
      for (size_t v = 0; v < strides.size(); ++v)
        m.strides[v].push_back(strides[v][a]);
    }
  }
  if (m.shape.empty()) { // a single element
    m.shape.push_back(1);
    for (auto &s : m.strides)
      s.push_back(1);
  }
  return m;
}

std::string literal(double value, core::DType dtype) {
  if (dtype == core::DType::Bool)
    return value != 0.0 ? "1" : "0";
  if (!core::isFloat(dtype))
    return std::to_string(static_cast<int64_t>(value));
  if (std::isnan(value))
    return "float(\"nan\")";
  if (std::isinf(value))
    return value > 0 ? "float(\"inf\")" : "float(\"-inf\")";
  std::ostringstream out;
  out.precision(17);
  out << value;
  std::string text = out.str();
  if (text.find_first_of(".eE") == std::string::npos)
    text += ".0";
  return text;
}

} // namespace npusim::library::detail
