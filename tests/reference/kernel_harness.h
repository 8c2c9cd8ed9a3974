#pragma once
// Shared helpers for the end-to-end kernel tests: load a kernel file from
// tests/data/kernels, lower it, build host buffers, launch it on the reference
// interpreter, and compare the results with values computed independently.
//
// Nothing here computes an expected value: expectations come from plain C++
// loops in the tests themselves.
#include "reference/interpreter.h"
#include "triton/frontend.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace npusim::reference::harness {

/// NPUSIM_TEST_DATA/kernels/FILE.
std::string kernelPath(const std::string &file);

/// A kernel file, parsed and lowered for one set of constexpr values.
struct CompiledKernel {
  triton::KernelFile file;
  std::unique_ptr<ir::Function> function;
};

/// Loads tests/data/kernels/FILE and lowers it with the given block sizes.
CompiledKernel compileKernel(const std::string &file, const triton::ConstexprBindings &constexprs = {});

/// A buffer holding `values` as elements of `dtype` (sizeof(T) must equal its byte size).
template <typename T> Buffer makeBuffer(std::string name, core::DType dtype, const std::vector<T> &values) {
  Buffer b;
  b.name = std::move(name);
  b.dtype = dtype;
  if (static_cast<int>(sizeof(T)) != core::byteSize(dtype))
    throw std::logic_error("makeBuffer: element size does not match the dtype");
  b.bytes.resize(values.size() * sizeof(T));
  if (!values.empty())
    std::memcpy(b.bytes.data(), values.data(), b.bytes.size());
  return b;
}

/// The elements of a buffer read as T (sizeof(T) must equal the buffer's element size).
template <typename T> std::vector<T> contents(const Buffer &b) {
  if (static_cast<int>(sizeof(T)) != core::byteSize(b.dtype))
    throw std::logic_error("contents: element size does not match the dtype");
  std::vector<T> out(b.bytes.size() / sizeof(T));
  if (!out.empty())
    std::memcpy(out.data(), b.bytes.data(), b.bytes.size());
  return out;
}

Argument pointerArg(Buffer &buffer, int64_t elementOffset = 0);
Argument intArg(int64_t value);
Argument floatArg(double value);

/// Deterministic pseudo-random floats in [lo, hi) (a fixed LCG: reproducible everywhere).
std::vector<float> randomFloats(size_t n, uint32_t seed, float lo, float hi);
/// Deterministic pseudo-random integers in [lo, hi].
std::vector<int64_t> randomInts(size_t n, uint32_t seed, int64_t lo, int64_t hi);

/// |actual - expected| <= atol + rtol * |expected| element by element; a NaN
/// expectation needs a NaN, an infinite one the same infinity. Names the first
/// few mismatches.
::testing::AssertionResult allClose(const std::vector<float> &actual, const std::vector<double> &expected,
                                    double rtol, double atol);

/// Exact equality of integer sequences, naming the first few mismatches.
template <typename A, typename E>
::testing::AssertionResult allEqual(const std::vector<A> &actual, const std::vector<E> &expected) {
  if (actual.size() != expected.size())
    return ::testing::AssertionFailure() << "sizes differ: " << actual.size() << " vs " << expected.size();
  int shown = 0;
  size_t bad = 0;
  ::testing::AssertionResult failure = ::testing::AssertionFailure();
  for (size_t i = 0; i < actual.size(); ++i) {
    if (static_cast<int64_t>(actual[i]) == static_cast<int64_t>(expected[i]))
      continue;
    ++bad;
    if (shown++ < 8)
      failure << "[" << i << "] " << static_cast<int64_t>(actual[i]) << " != expected "
              << static_cast<int64_t>(expected[i]) << "; ";
  }
  if (bad == 0)
    return ::testing::AssertionSuccess();
  return failure << bad << " of " << actual.size() << " elements differ";
}

/// cdiv for grid sizes.
inline int64_t ceilDiv(int64_t a, int64_t b) {
  return (a + b - 1) / b;
}

/// rtol = atol for results that depend on the order of float operations.
inline constexpr double kTol = 1e-4;
/// Fills output buffers: a correct kernel writes it nowhere.
inline constexpr float kSentinel = -12345.0f;
inline const float kNaN = std::numeric_limits<float>::quiet_NaN();
inline const float kInf = std::numeric_limits<float>::infinity();

inline std::vector<double> widen(const std::vector<float> &v) {
  return std::vector<double>(v.begin(), v.end());
}

/// A float output buffer of n elements plus `slack` more, all kSentinel: the
/// slack must still hold kSentinel after a launch whose masks are right.
Buffer outputBuffer(std::string name, size_t n, size_t slack = 16);

/// The first n elements of a float buffer, and a check (a test failure) that
/// the rest still holds kSentinel.
std::vector<float> floatsOf(const Buffer &b, size_t n);

/// Bit patterns of floats, for exact comparisons where -0 != +0 and NaN equals
/// NaN (every NaN maps to one pattern: the sign and payload of a NaN result
/// are not part of Triton's semantics).
std::vector<uint32_t> bitsOf(const std::vector<float> &v);

} // namespace npusim::reference::harness
