#pragma once
// Buffers, views and call arguments for the host-call tests: deterministic
// float patterns (no generator shared with npusim) and argument builders.
#include "core/dtype.h"
#include "reference/host_calls.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

namespace npusim::reference::test {

/// A storage of floats with a deterministic pattern.
inline Buffer floats(int64_t n, uint32_t salt, core::DType dtype = core::DType::Float32) {
  Buffer b;
  b.name = "b" + std::to_string(salt);
  b.dtype = dtype;
  b.bytes.resize(static_cast<size_t>(n * core::byteSize(dtype)));
  for (int64_t i = 0; i < n; ++i) {
    const double v = std::sin(0.37 * static_cast<double>(i) + salt) * (1.0 + 0.1 * (i % 7));
    storeElement(b, i, v);
  }
  return b;
}

inline Buffer filled(int64_t n, double value, core::DType dtype = core::DType::Float32) {
  Buffer b;
  b.name = "out";
  b.dtype = dtype;
  b.bytes.resize(static_cast<size_t>(n * core::byteSize(dtype)));
  for (int64_t i = 0; i < n; ++i)
    storeElement(b, i, value);
  return b;
}

inline TensorView view(Buffer &b, int64_t offset, std::vector<int64_t> shape, std::vector<int64_t> stride) {
  return TensorView{&b, offset, std::move(shape), std::move(stride)};
}

inline double el(const Buffer &b, int64_t i) {
  return loadElement(b, i);
}

inline void expectNear(double actual, double expected, const std::string &where) {
  EXPECT_NEAR(actual, expected, 1e-5 * (1.0 + std::fabs(expected))) << where;
}

inline HostCallValue tensorValue(TensorView t) {
  HostCallValue v;
  v.kind = HostCallValue::Kind::Tensor;
  v.tensor = std::move(t);
  return v;
}
inline HostCallValue intValue(int64_t i) {
  HostCallValue v;
  v.kind = HostCallValue::Kind::Int;
  v.intValue = i;
  return v;
}
inline HostCallValue floatValue(double f) {
  HostCallValue v;
  v.kind = HostCallValue::Kind::Float;
  v.floatValue = f;
  return v;
}
inline HostCallValue boolValue(bool b) {
  HostCallValue v;
  v.kind = HostCallValue::Kind::Bool;
  v.boolValue = b;
  return v;
}
inline HostCallValue listValue(std::vector<HostCallValue> l) {
  HostCallValue v;
  v.kind = HostCallValue::Kind::List;
  v.list = std::move(l);
  return v;
}
inline HostCallValue intsValue(const std::vector<int64_t> &values) {
  std::vector<HostCallValue> l;
  for (int64_t i : values)
    l.push_back(intValue(i));
  return listValue(std::move(l));
}

} // namespace npusim::reference::test
