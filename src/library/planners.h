#pragma once
// The planners of each kernel family (internal): each reads its operator's
// arguments, checks them and returns the launches of its kernels.
#include "library/plan_support.h"

#include <array>
#include <optional>

namespace npusim::library::detail {

/// mm, addmm, bmm, baddbmm: one batched GEMM launch with a bias/alpha/beta epilogue.
enum class GemmOp { Mm, Addmm, Bmm, Baddbmm };
CallPlan planGemm(const CallArgs &call, GemmOp op, const MachineShape &machine);
/// The batched GEMM launch c[i] = alpha * a[i] @ b[i] + beta * bias[i] over
/// checked rank-3 views (bias, when given, already broadcast to c's shape).
KernelLaunch gemmLaunch(const TensorRef &a, const TensorRef &b, const TensorRef *bias, const TensorRef &c,
                        double alpha, double beta, const MachineShape &machine);

/// The kernels MachineShape::gemmKernel names (kernels_gemm.cpp).
const std::vector<std::string> &gemmKernelNames();

/// The launch storing into `dst` either a constant (`fill`) or `src`
/// (broadcast to dst's shape by its strides) converted to dst's dtype; a copy
/// between layouts whose contiguous axes differ is turned on chip
/// (kernels_copy.cpp).
KernelLaunch copyLaunch(std::string_view op, const TensorRef &dst, const TensorRef *src, std::optional<double> fill,
                        const MachineShape &machine);

/// A 2-d convolution's checked operands as [N, C, H, W] views.
struct ConvolutionOperands {
  TensorRef x, w, y;
  const TensorRef *bias = nullptr;
  std::array<int64_t, 2> stride{}, padding{}, dilation{};
  int64_t groups = 1;
};

/// A dense channels-last view of `t`'s shape ([N, C, H, W] or [O, I, KH,
/// KW]) on scratch buffer `buffer` (conv_relayout.cpp).
TensorRef channelsLastScratch(const TensorRef &t, int buffer);

/// The operands that are not channels-last copied into channels-last
/// scratch buffers (the pixels a 1x1 kernel with a stride reads, densely),
/// the convolution planned on those, its result copied back
/// (conv_relayout.cpp); throws core::RuntimeError where nothing would move
/// or the layer is depthwise.
CallPlan planRelayoutConvolution(const ConvolutionOperands &operands, const MachineShape &machine);

/// convolution / _convolution: implicit GEMM, or the vector-unit kernel for
/// depthwise convolutions.
CallPlan planConvolution(const CallArgs &call, const MachineShape &machine);

/// The scaled-dot-product attention kernels (efficient, flash, cuDNN, CPU
/// flash): one flash-attention launch each.
CallPlan planAttention(const CallArgs &call, const MachineShape &machine);

/// q [B, H, L, E], k [B, Hk, S, E], v [B, Hk, S, Ev] of rank 4, checked to
/// agree, H a multiple of Hk (kernels_attention.cpp).
struct AttentionSizes {
  int64_t batch, heads, l, e, kvHeads, s, ev;
};
AttentionSizes attentionSizes(std::string_view op, const TensorRef &q, const TensorRef &k,
                              const TensorRef &v);

/// The logsumexp view of an attention call as [B, H, rows] strides: a
/// [B, H, >= L] view (rows past L padding), or any view of B * H * L elements
/// whose axes other than size-1 ones are B, H, L in order; rows = 0 for an
/// empty view (kernels_attention.cpp).
struct LseLayout {
  int64_t rows = 0;
  int64_t strideB = 0, strideH = 0, strideL = 0;
};
LseLayout lseLayout(std::string_view op, const TensorRef &lse, int64_t batch, int64_t heads, int64_t l);
/// Triton text the attention kernels share: the constexpr stride parameters of
/// q, k, v, the mask and the output (lines of the def), and the start of a
/// program over one block of queries (pid_l, h, b, hk, ranges and masks).
extern const std::string_view kAttentionViewParameters;
extern const std::string_view kAttentionQueryPrologue;

/// The attention backward kernels (kernels_attention_backward.cpp): one launch
/// for the query gradient, one for the key and value gradients.
CallPlan planAttentionBackward(const CallArgs &call, const MachineShape &machine);

/// _cudnn_rnn in inference (LSTM, GRU, RNN; any layers and directions): one
/// recurrence launch per layer and direction (kernels_rnn.cpp).
CallPlan planCudnnRnn(const CallArgs &call, const MachineShape &machine);

/// topk(self, k, dim, largest, sorted).
CallPlan planTopk(const CallArgs &call, const MachineShape &machine);

/// _grouped_mm and transformers.grouped_mm_fallback: a GEMM per row group, the
/// groups read from offs by each program (kernels_grouped_mm.cpp).
CallPlan planGroupedMm(const CallArgs &call, const MachineShape &machine);

/// convolution_backward of 2-d convolutions: implicit GEMMs for the weight and
/// input gradients, a channel sum for the bias (kernels_conv_backward.cpp).
CallPlan planConvolutionBackward(const CallArgs &call, const MachineShape &machine);

/// zero_, fill_, zeros, ones, zeros_like, ones_like: a constant stored into every
/// element of the result (kernels_copy.cpp).
CallPlan planFill(const CallArgs &call, const MachineShape &machine);
/// copy_, clone, _to_copy: the source's elements, converted, stored in the
/// result's layout (kernels_copy.cpp).
CallPlan planCopy(const CallArgs &call, const MachineShape &machine);

/// add and sub of two tensors, broadcast to the result (kernels_add.cpp).
CallPlan planAdd(const CallArgs &call, const MachineShape &machine);
/// index_put with one index tensor on the leading axis, accumulating or not:
/// per tile of out a walk over the indices in order (kernels_index_put.cpp).
CallPlan planIndexPut(const CallArgs &call, const MachineShape &machine);
/// scatter (src or value) and scatter_add: per tile of out a walk over the
/// index's `dim` axis in order (kernels_scatter.cpp).
CallPlan planScatter(const CallArgs &call, const MachineShape &machine);
/// randint.low_out: a counter-based generator writing every element
/// (kernels_random.cpp); the runtime then writes the capture's values.
CallPlan planRandint(const CallArgs &call, const MachineShape &machine);

/// histc(self, bins, min, max): per block of bins a pass over every element (kernels_histc.cpp).
CallPlan planHistc(const CallArgs &call, const MachineShape &machine);

/// aten.embedding (kernels_embedding.cpp): a gather of weight rows.
CallPlan planEmbedding(const CallArgs &call, const MachineShape &machine);
/// aten.embedding_dense_backward (kernels_embedding.cpp): per block of rows a
/// one-hot dot over the indices, no atomics.
CallPlan planEmbeddingBackward(const CallArgs &call, const MachineShape &machine);

} // namespace npusim::library::detail
