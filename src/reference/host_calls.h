#pragma once
// Library calls: the operators Inductor calls instead of generating a Triton
// kernel (extern_kernels.mm, addmm, bmm, convolution, and aten fallbacks such
// as the scaled-dot-product-attention kernels), with the semantics of PyTorch's
// operator of the same name, over strided views of host buffers.
// docs/library-calls.md lists the operators, their arguments and numerics.
//
// Numerics: every sum (GEMM, convolution, attention, softmax, layer norm) is
// accumulated in double, whatever the input dtype, and rounded once when it is
// stored in the output's dtype (fp32, fp16, bf16: round to nearest even,
// straight from the double). Inputs and outputs may alias: every operator reads
// all its inputs before it writes.
#include "core/operator_call.h"
#include "reference/interpreter.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace npusim::reference {

/// A strided view on a buffer, as PyTorch's tensors are: element
/// [i0, i1, ...] is buffer element offset + sum(i_k * stride[k]).
struct TensorView {
  Buffer *buffer = nullptr;
  int64_t offset = 0;
  std::vector<int64_t> shape;
  std::vector<int64_t> stride; // in elements, one per axis (negative ones are allowed)

  core::DType dtype() const { return buffer->dtype; }
  int64_t dim() const { return static_cast<int64_t>(shape.size()); }
  /// Product of the shape (1 for a 0-d view).
  int64_t numel() const;
};

using core::shapeString;

/// Throws core::RuntimeError (naming `what`) unless every element the view
/// addresses lies inside its buffer.
void checkView(const TensorView &view, const std::string &what);

/// The view's elements in logical (row-major) order, as doubles (integers and
/// bools converted exactly up to 2^53).
std::vector<double> readValues(const TensorView &view);
/// The view's elements in logical order as integers (floats truncated toward zero).
std::vector<int64_t> readIntegers(const TensorView &view);
/// Writes `values` (logical order, one per element) rounded to the view's dtype:
/// floats to nearest even straight from the double, integers truncated toward
/// zero and wrapped to their width, bools as value != 0.
void writeValues(const TensorView &view, std::span<const double> values);
void writeIntegers(const TensorView &view, std::span<const int64_t> values);

/// Whether the view's elements are one dense row-major run of its buffer
/// (size-1 axes may have any stride).
bool isContiguous(const TensorView &view);
/// Sets every element of the view to `value` rounded to its dtype as
/// writeValues would: a contiguous view at memset speed, others element by element.
void fillView(const TensorView &view, double value);
/// Copies `from` into `to` (equal shapes) byte for byte when their dtypes are
/// equal, reading every element before writing any (they may overlap); returns
/// false, writing nothing, when the dtypes differ. Contiguous views copy at
/// memcpy speed; NaN payloads are kept, as PyTorch's copies keep them.
bool copySameDType(const TensorView &from, const TensorView &to);

/// One element of a buffer, by element index.
double loadElement(const Buffer &buffer, int64_t index);
int64_t loadIntegerElement(const Buffer &buffer, int64_t index);
void storeElement(Buffer &buffer, int64_t index, double value);
void storeIntegerElement(Buffer &buffer, int64_t index, int64_t value);

/// One positional argument of a library call, its tensors pointing at host buffers.
using HostCallValue = core::CallValue<TensorView>;

/// Runs the operator `op` ("aten.mm", "aten.convolution", ...) on `args` (its
/// positional arguments in schema order; missing trailing ones take the
/// schema's defaults) and writes its results into `outs` (one per result in
/// order; a null entry is a result that is not written). Returns, per entry of
/// `outs`, whether the operator defines its values (false for results whose
/// contents PyTorch leaves unspecified, such as the philox seed of attention
/// without dropout). Throws core::RuntimeError: "library call OP is not
/// implemented", or a message naming the operator and the argument at fault.
std::vector<bool> runHostCall(std::string_view op, std::span<const HostCallValue> args,
                                 std::span<const TensorView *const> outs);

/// Whether runHostCall implements `op`, and the list of those it does.
bool isHostCall(std::string_view op);
std::vector<std::string> hostCallOperators();

// The operators, typed. Each checks shapes and throws core::RuntimeError naming
// the operator and the argument. Results are written into `out`.

/// out = a @ b (2-D).
void matmul(const TensorView &a, const TensorView &b, const TensorView &out);
/// out = beta * self + alpha * (a @ b); self broadcasts to out; beta == 0 ignores self (NaN included).
void addmm(const TensorView &self, const TensorView &a, const TensorView &b, double beta, double alpha,
           const TensorView &out);
/// out[i] = a[i] @ b[i] (3-D).
void bmm(const TensorView &a, const TensorView &b, const TensorView &out);
/// out[i] = beta * self[i] + alpha * (a[i] @ b[i]); self broadcasts to out.
void baddbmm(const TensorView &self, const TensorView &a, const TensorView &b, double beta, double alpha,
             const TensorView &out);

struct ConvolutionParams {
  std::vector<int64_t> stride, padding, dilation; // one per spatial axis (or one for all)
  bool transposed = false;
  std::vector<int64_t> outputPadding; // transposed only
  int64_t groups = 1;
};
/// aten.convolution over 1, 2 or 3 spatial axes, batched ([N, C, ...]) or not
/// ([C, ...]); bias may be null.
void convolution(const TensorView &input, const TensorView &weight, const TensorView *bias,
                 const ConvolutionParams &params, const TensorView &out);

struct AttentionParams {
  const TensorView *mask = nullptr; // bool (true takes part) or additive float, broadcast to [B, H, L, S]
  bool isCausal = false;            // s <= l take part (the upper-left aligned mask of PyTorch's docs)
  std::optional<double> scale;      // default 1 / sqrt(E)
};
/// softmax(q @ k^T * scale + mask) @ v over q [B, H, L, E], k [B, Hk, S, E],
/// v [B, Hk, S, Ev] (H a multiple of Hk: grouped-query attention), out
/// [B, H, L, Ev]. `logsumexp` (may be null) gets the natural-log sum per
/// [B, H, L] row; a view with a longer last axis (the efficient kernel's
/// padding to a multiple of 32) gets +inf past L. A row that no key takes part
/// in gives 0 and a logsumexp of -inf.
void scaledDotProductAttention(const TensorView &q, const TensorView &k, const TensorView &v,
                               const AttentionParams &params, const TensorView &out,
                               const TensorView *logsumexp);

/// Where the gradients of attention go; a null entry is not computed.
struct AttentionGradients {
  const TensorView *query = nullptr, *key = nullptr, *value = nullptr;
  const TensorView *bias = nullptr; // the additive mask's gradient: dS summed to its shape
};
/// The gradients of scaledDotProductAttention (same shapes, mask, causality and
/// scale) for the output gradient `gradOut` [B, H, L, Ev]: grad_query like q,
/// grad_key like k and grad_value like v (summed over the query heads of a
/// key head), grad_attn_bias of a shape that broadcasts to [B, H, L, S].
/// Rows no key takes part in contribute nothing.
void scaledDotProductAttentionBackward(const TensorView &gradOut, const TensorView &q, const TensorView &k,
                                       const TensorView &v, const AttentionParams &params,
                                       const AttentionGradients &grads);

} // namespace npusim::reference
