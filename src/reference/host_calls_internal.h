#pragma once
// Helpers shared by the host-call files (internal to the reference module).
#include "core/error.h"
#include "reference/host_calls.h"

#include <array>
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

/// The view with a leading axis of size 1 (an unbatched tensor as batch 1).
TensorView withBatch(const TensorView &v);

/// A convolution's sizes, checked (host_conv.cpp). Spatial axes are padded to
/// three with leading size-1 axes so that one loop nest serves every rank.
struct ConvolutionGeometry {
  using Dims = std::array<int64_t, 3>;
  TensorView input; // [N, C, ...]: an unbatched input as batch 1
  bool batched = true;
  size_t spatial = 0;
  int64_t batch = 0, channels = 0, groups = 1, inPerGroup = 0, outPerGroup = 0, outChannels = 0;
  Dims inSize{1, 1, 1}, kSize{1, 1, 1}, outSize{1, 1, 1};
  Dims stride{1, 1, 1}, padding{0, 0, 0}, dilation{1, 1, 1}, outputPadding{0, 0, 0};
  std::vector<int64_t> outShape; // [N, C_out, ...] (batch 1 for an unbatched input)
  int64_t kVolume = 1, inVolume = 1, outVolume = 1;
};
ConvolutionGeometry convolutionGeometry(std::string_view op, const TensorView &input,
                                        const TensorView &weight, const ConvolutionParams &params);
/// The im2col gather of a (not transposed) convolution, the same for every
/// group and image: entry [(c, kd, kh, kw), (od, oh, ow)] (row-major, c <
/// inPerGroup) is the input element's index within the group's contiguous
/// [inPerGroup, D, H, W] planes, or -1 where the kernel reads padding.
std::vector<int64_t> im2colIndex(const ConvolutionGeometry &g);

/// The inputs of an attention call, checked and read (host_attention.cpp):
/// q [B, H, L, E], k [B, Hk, S, E], v [B, Hk, S, Ev] with H a multiple of Hk
/// (head h reads key head h / (H / Hk)), the mask broadcast to [B, H, L, S].
class AttentionInputs {
public:
  AttentionInputs(const TensorView &q, const TensorView &k, const TensorView &v,
                  const AttentionParams &params, std::string_view op);
  /// The scores of query row i of (b, h) into `scores` [S] (-inf where the
  /// mask or causality leaves a key out); returns the largest, or NaN when a
  /// score is NaN.
  double rowScores(int64_t b, int64_t h, int64_t i, std::vector<double> &scores) const;
  /// Offsets of (b, h)'s rows in q and (b, h)'s key head's rows in k and v.
  size_t queryAt(int64_t b, int64_t h) const { return static_cast<size_t>((b * heads + h) * l * e); }
  size_t keyAt(int64_t b, int64_t h) const { return static_cast<size_t>((b * kvHeads + h / group) * s * e); }
  size_t valueAt(int64_t b, int64_t h) const {
    return static_cast<size_t>((b * kvHeads + h / group) * s * ev);
  }

  int64_t batch, heads, l, e, kvHeads, s, ev, group;
  double scale;
  std::vector<double> q, k, v; // the values in row-major order
  bool hasMask = false, boolMask = false;
  std::vector<int64_t> scoreShape; // [B, H, L, S]

private:
  std::vector<double> mask_; // broadcast to scoreShape
  bool causal_;
};

/// A call's arguments checked against its operator's schema (core/operator_call.h).
using CallArgs = core::CallArgs<TensorView>;

/// stride, padding, dilation, transposed, output_padding and groups, the
/// schema's arguments from position `strideAt` on (convolution and its backward).
ConvolutionParams convolutionParams(const CallArgs &c, size_t strideAt);

/// Handlers of the operators other than the matrix products, convolution and
/// attention (host_ops.cpp). Each returns, per result, whether it is defined.
std::vector<bool> callCopy(const CallArgs &call);
std::vector<bool> callSoftmax(const CallArgs &call, bool logarithm);
std::vector<bool> callCumsum(const CallArgs &call);
std::vector<bool> callLayerNorm(const CallArgs &call);
std::vector<bool> callSort(const CallArgs &call);
std::vector<bool> callTopk(const CallArgs &call);
std::vector<bool> callMaxPool2d(const CallArgs &call);
enum class ScatterKind { Add, Source, Value };
std::vector<bool> callScatter(const CallArgs &call, ScatterKind kind);
std::vector<bool> callEmbedding(const CallArgs &call);
std::vector<bool> callEmbeddingBackward(const CallArgs &call);
std::vector<bool> callIndex(const CallArgs &call);
std::vector<bool> callIndexPut(const CallArgs &call);
/// aten.convolution_backward (host_conv_backward.cpp).
std::vector<bool> callConvolutionBackward(const CallArgs &call);
/// aten._grouped_mm and transformers.grouped_mm_fallback (host_grouped_mm.cpp).
std::vector<bool> callGroupedMm(const CallArgs &call);
/// aten._cudnn_rnn in inference: LSTM, GRU and RNN layers (host_rnn.cpp).
std::vector<bool> callCudnnRnn(const CallArgs &call);
/// aten.histc (host_histogram.cpp).
std::vector<bool> callHistc(const CallArgs &call);
/// randint.low_out(low, high, size): npusim's own draws (host_random.cpp).
std::vector<bool> callRandint(const CallArgs &call);
/// Elementwise, creation and loss operators (host_elementwise.cpp), by name.
std::vector<bool> callElementwise(const CallArgs &call);
const std::vector<std::string_view> &elementwiseOperators();

/// Whether the view holds integers (or booleans), not floating point.
inline bool integral(const TensorView &v) {
  return !core::isFloat(v.dtype());
}

} // namespace npusim::reference::host
