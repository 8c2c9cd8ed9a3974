#pragma once
// Helpers shared by the host-call files (internal to the reference module).
#include "core/error.h"
#include "reference/host_calls.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace npusim::reference::host {

/// Calls f(elementIndex) for every element of a view in logical (row-major) order.
template <typename F> void forEachElement(const TensorView &v, F &&f) {
  const size_t rank = v.shape.size();
  for (int64_t s : v.shape)
    if (s == 0)
      return;
  if (rank == 0) {
    f(v.offset);
    return;
  }
  std::vector<int64_t> index(rank, 0);
  const int64_t inner = v.shape[rank - 1];
  const int64_t innerStride = v.stride[rank - 1];
  int64_t base = v.offset;
  for (;;) {
    for (int64_t i = 0; i < inner; ++i)
      f(base + i * innerStride);
    // Advance the odometer over the outer axes.
    size_t axis = rank - 1;
    for (;;) {
      if (axis == 0)
        return;
      --axis;
      base += v.stride[axis];
      if (++index[axis] < v.shape[axis])
        break;
      base -= v.stride[axis] * v.shape[axis];
      index[axis] = 0;
    }
  }
}

[[noreturn]] void fail(std::string_view op, const std::string &message);

/// The view of element `i` along axis 0.
TensorView select0(const TensorView &v, int64_t i);
/// The view broadcast to `shape` (NumPy rules: trailing axes aligned, size-1
/// axes and missing leading axes get stride 0). Throws when it does not broadcast.
TensorView broadcastTo(const TensorView &v, std::span<const int64_t> shape, std::string_view op,
                       const std::string &what);
/// Checks the view has exactly `shape`.
void expectShape(const TensorView &v, std::span<const int64_t> shape, std::string_view op,
                 const std::string &what);
/// `v` with axis `dim` moved last (the others keep their order), so that its
/// logical order visits rows along `dim`.
TensorView axisLast(const TensorView &v, int64_t dim);
/// A view with axes `a` and `b` exchanged.
TensorView transposed(const TensorView &v, size_t a, size_t b);
/// Normalises a possibly negative axis of a rank-`rank` tensor.
int64_t wrapDim(int64_t dim, int64_t rank, std::string_view op);

/// c[M, N] = a[M, K] @ b[K, N], all row-major doubles, sums in k order.
void gemm(const double *a, const double *b, double *c, int64_t m, int64_t k, int64_t n);

/// A call's arguments checked against its operator's schema (core/operator_call.h).
using CallArgs = core::CallArgs<TensorView>;

/// Handlers of the operators other than the matrix products, convolution and
/// attention (host_ops.cpp). Each returns, per result, whether it is defined.
std::vector<bool> callCopy(const CallArgs &call);
std::vector<bool> callSoftmax(const CallArgs &call, bool logarithm);
std::vector<bool> callCumsum(const CallArgs &call);
std::vector<bool> callLayerNorm(const CallArgs &call);
std::vector<bool> callSort(const CallArgs &call);
std::vector<bool> callTopk(const CallArgs &call);
std::vector<bool> callMaxPool2d(const CallArgs &call);
std::vector<bool> callScatterAdd(const CallArgs &call);
std::vector<bool> callEmbeddingBackward(const CallArgs &call);
std::vector<bool> callIndex(const CallArgs &call);
/// Elementwise, creation and loss operators (host_elementwise.cpp), by name.
std::vector<bool> callElementwise(const CallArgs &call);
const std::vector<std::string_view> &elementwiseOperators();

} // namespace npusim::reference::host
