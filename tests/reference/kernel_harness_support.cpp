#include "reference/kernel_harness.h"

#include <cmath>
#include <cstring>
#include <sstream>

namespace npusim::reference::harness {

std::string kernelPath(const std::string &file) {
  return std::string(NPUSIM_TEST_DATA) + "/kernels/" + file;
}

CompiledKernel compileKernel(const std::string &file, const triton::ConstexprBindings &constexprs) {
  CompiledKernel k;
  k.file = triton::loadKernelFile(kernelPath(file));
  k.function = triton::lowerKernel(k.file, constexprs);
  return k;
}

Argument pointerArg(Buffer &buffer, int64_t elementOffset) {
  Argument a;
  a.buffer = &buffer;
  a.elementOffset = elementOffset;
  return a;
}

Argument intArg(int64_t value) {
  Argument a;
  a.scalar.intValue = value;
  return a;
}

Argument floatArg(double value) {
  Argument a;
  a.scalar.floatValue = value;
  return a;
}

namespace {

/// Numerical Recipes' 32-bit LCG: tiny, and the same on every platform.
class Lcg {
public:
  explicit Lcg(uint32_t seed) : state_(seed * 2654435761u + 12345u) {}
  uint32_t next() {
    state_ = state_ * 1664525u + 1013904223u;
    return state_;
  }

private:
  uint32_t state_;
};

} // namespace

std::vector<float> randomFloats(size_t n, uint32_t seed, float lo, float hi) {
  Lcg rng(seed);
  std::vector<float> out(n);
  for (float &v : out) {
    const double unit = static_cast<double>(rng.next() >> 8) / static_cast<double>(1u << 24);
    v = static_cast<float>(lo + (hi - lo) * unit);
  }
  return out;
}

std::vector<int64_t> randomInts(size_t n, uint32_t seed, int64_t lo, int64_t hi) {
  Lcg rng(seed);
  std::vector<int64_t> out(n);
  const uint64_t span = static_cast<uint64_t>(hi - lo) + 1;
  for (int64_t &v : out)
    v = lo + static_cast<int64_t>(rng.next() % span);
  return out;
}

::testing::AssertionResult allClose(const std::vector<float> &actual, const std::vector<double> &expected,
                                    double rtol, double atol) {
  if (actual.size() != expected.size())
    return ::testing::AssertionFailure() << "sizes differ: " << actual.size() << " vs " << expected.size();
  std::ostringstream details;
  details.precision(9);
  size_t bad = 0;
  for (size_t i = 0; i < actual.size(); ++i) {
    const double a = actual[i], e = expected[i];
    bool ok;
    if (std::isnan(e))
      ok = std::isnan(a);
    else if (std::isinf(e))
      ok = a == e;
    else
      ok = std::fabs(a - e) <= atol + rtol * std::fabs(e);
    if (ok)
      continue;
    if (bad++ < 8)
      details << "[" << i << "] " << a << " vs expected " << e << "; ";
  }
  if (bad == 0)
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << details.str() << bad << " of " << actual.size() << " elements differ";
}

Buffer outputBuffer(std::string name, size_t n, size_t slack) {
  return makeBuffer(std::move(name), core::DType::Float32, std::vector<float>(n + slack, kSentinel));
}

std::vector<float> floatsOf(const Buffer &b, size_t n) {
  std::vector<float> all = contents<float>(b);
  for (size_t i = n; i < all.size(); ++i)
    EXPECT_EQ(all[i], kSentinel) << "buffer '" << b.name << "' element " << i
                                 << " past the tensor was written";
  all.resize(n);
  return all;
}

std::vector<uint32_t> bitsOf(const std::vector<float> &v) {
  std::vector<uint32_t> out(v.size());
  for (size_t i = 0; i < v.size(); ++i) {
    if (std::isnan(v[i]))
      out[i] = 0x7fc00000u;
    else
      std::memcpy(&out[i], &v[i], sizeof(float));
  }
  return out;
}

} // namespace npusim::reference::harness
