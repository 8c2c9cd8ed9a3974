// The table of library calls: an operator's name -> its handler, which reads
// the positional arguments in the aten schema's order and runs the operator.
#include "reference/host_calls_internal.h"

#include <functional>

namespace npusim::reference {

namespace {

using host::CallArgs;
using Handler = std::function<std::vector<bool>(const CallArgs &)>;

std::vector<bool> allDefined(const CallArgs &call) {
  return std::vector<bool>(call.numOuts(), true);
}

/// mm(self, mat2), bmm(self, mat2): out = product(self, mat2).
template <void (*Product)(const TensorView &, const TensorView &, const TensorView &)>
std::vector<bool> callProduct(const CallArgs &c) {
  Product(c.tensor(0, "self"), c.tensor(1, "mat2"), c.out(0));
  return allDefined(c);
}

/// addmm(self, mat1, mat2, beta, alpha), baddbmm(self, batch1, batch2, beta, alpha).
template <void (*Product)(const TensorView &, const TensorView &, const TensorView &, double, double,
                          const TensorView &),
          bool Batched>
std::vector<bool> callScaledProduct(const CallArgs &c) {
  Product(c.tensor(0, "self"), c.tensor(1, Batched ? "batch1" : "mat1"),
          c.tensor(2, Batched ? "batch2" : "mat2"), c.number(3, "beta"), c.number(4, "alpha"), c.out(0));
  return allDefined(c);
}

/// convolution(input, weight, bias, stride, padding, dilation, transposed,
/// output_padding, groups); _convolution adds benchmark, deterministic,
/// cudnn_enabled, allow_tf32, which do not change the values.
std::vector<bool> callConvolution(const CallArgs &c) {
  const ConvolutionParams p = host::convolutionParams(c, 3);
  convolution(c.tensor(0, "input"), c.tensor(1, "weight"), c.optionalTensor(2, "bias"), p, c.out(0));
  return allDefined(c);
}

/// The scaled-dot-product attention variants, which differ in where their
/// arguments sit (core::findSchema): an additive mask as attn_bias or
/// attn_mask or none, compute_log_sumexp or always a logsumexp. Results:
/// output, logsumexp, then tensors whose values PyTorch leaves unspecified
/// without dropout (philox seed and offset, cumulative sequence lengths, debug
/// mask): those are not written.
std::vector<bool> callAttention(const CallArgs &c) {
  const size_t dropoutAt = c.position("dropout_p").value_or(0);
  const double dropout = c.number(dropoutAt, "dropout_p");
  if (dropout != 0.0)
    c.fail(dropoutAt, "dropout_p",
           "dropout_p=" + std::to_string(dropout) + ": attention dropout is random and not supported");
  AttentionParams p;
  for (const char *name : {"attn_bias", "attn_mask"})
    if (const std::optional<size_t> at = c.position(name))
      p.mask = c.optionalTensor(*at, name);
  p.isCausal = c.boolean(c.position("is_causal").value_or(0), "is_causal");
  p.scale = c.optionalNumber(c.position("scale").value_or(0), "scale");
  const std::optional<size_t> lseAt = c.position("compute_log_sumexp");
  const bool logsumexpDefined = lseAt ? c.boolean(*lseAt, "compute_log_sumexp") : true;
  const TensorView *lse = logsumexpDefined ? c.optionalOut(1) : nullptr;
  scaledDotProductAttention(c.tensor(0, "query"), c.tensor(1, "key"), c.tensor(2, "value"), p, c.out(0), lse);
  std::vector<bool> defined(c.numOuts(), false);
  defined[0] = true;
  if (lse)
    defined[1] = true;
  return defined;
}

/// The attention backward variants (core::findSchema): the output gradient is
/// grad_out_ or grad_out, the mask attn_bias, attn_mask or none; the efficient
/// kernel's grad_input_mask selects its four results (the capture lists the
/// results it wrote, placed by the loader). A result given in out is written.
/// The philox seed and offset, cumulative sequence lengths, out and logsumexp
/// are not read: without dropout the gradients follow from q, k, v and the mask.
std::vector<bool> callAttentionBackward(const CallArgs &c) {
  const size_t dropoutAt = *c.position("dropout_p");
  const double dropout = c.number(dropoutAt, "dropout_p");
  if (dropout != 0.0)
    c.fail(dropoutAt, "dropout_p",
           "dropout_p=" + std::to_string(dropout) +
               ": the dropout mask of attention is drawn inside the kernel and the bundle does not record "
               "it, so its gradient cannot be reproduced");
  AttentionParams p;
  for (const char *name : {"attn_bias", "attn_mask"})
    if (const std::optional<size_t> at = c.position(name))
      p.mask = c.optionalTensor(*at, name);
  p.isCausal = c.boolean(*c.position("is_causal"), "is_causal");
  p.scale = c.optionalNumber(*c.position("scale"), "scale");
  std::vector<bool> want(c.numOuts(), true);
  if (const std::optional<size_t> at = c.position("grad_input_mask")) {
    const std::vector<HostCallValue> &mask = c.list(*at, "grad_input_mask");
    if (mask.size() != 4)
      c.fail(*at, "grad_input_mask", "expected four bools, got " + std::to_string(mask.size()));
    for (size_t i = 0; i < mask.size(); ++i) {
      if (mask[i].kind != core::CallKind::Bool)
        c.fail(*at, "grad_input_mask",
               std::string("expected four bools, but an element is ") + core::kindName(mask[i].kind));
      // q, k and v gradients the kernel returns anyway are written when given;
      // the bias gradient only when asked for.
      if (i == 3 && i < want.size())
        want[i] = mask[i].boolValue;
    }
  }
  const size_t gradAt = c.position("grad_out_").value_or(0);
  const std::string_view gradName = c.position("grad_out_") ? "grad_out_" : "grad_out";
  AttentionGradients g;
  const TensorView **slots[] = {&g.query, &g.key, &g.value, &g.bias};
  std::vector<bool> defined(c.numOuts(), false);
  for (size_t i = 0; i < c.numOuts() && i < 4; ++i)
    if (want[i] && (*slots[i] = c.optionalOut(i)) != nullptr)
      defined[i] = true;
  scaledDotProductAttentionBackward(c.tensor(gradAt, gradName), c.tensor(1, "query"), c.tensor(2, "key"),
                                    c.tensor(3, "value"), p, g);
  return defined;
}

const core::OperatorTable<Handler> &table() {
  static const core::OperatorTable<Handler> kTable = [] {
    core::OperatorTable<Handler> t = {
        {"aten.mm", callProduct<matmul>},
        {"aten._int_mm", callProduct<matmul>},
        {"aten.addmm", callScaledProduct<addmm, false>},
        {"aten.bmm", callProduct<bmm>},
        {"aten.baddbmm", callScaledProduct<baddbmm, true>},
        {"aten.convolution", callConvolution},
        {"aten._convolution", callConvolution},
        {"aten.copy_", host::callCopy},
        {"aten.copy", host::callCopy},
        {"aten._softmax", [](const CallArgs &c) { return host::callSoftmax(c, false); }},
        {"aten._log_softmax", [](const CallArgs &c) { return host::callSoftmax(c, true); }},
        {"aten.cumsum", host::callCumsum},
        {"aten.native_layer_norm", host::callLayerNorm},
        {"aten.sort", host::callSort},
        {"aten.sort.stable", host::callSort},
        {"aten.topk", host::callTopk},
        {"aten.max_pool2d_with_indices", host::callMaxPool2d},
        {"aten.scatter_add", [](const CallArgs &c) { return host::callScatter(c, host::ScatterKind::Add); }},
        {"aten.scatter.src",
         [](const CallArgs &c) { return host::callScatter(c, host::ScatterKind::Source); }},
        {"aten.scatter_.src",
         [](const CallArgs &c) { return host::callScatter(c, host::ScatterKind::Source); }},
        {"aten.scatter.value",
         [](const CallArgs &c) { return host::callScatter(c, host::ScatterKind::Value); }},
        {"aten.scatter_.value",
         [](const CallArgs &c) { return host::callScatter(c, host::ScatterKind::Value); }},
        {"aten.embedding", host::callEmbedding},
        {"aten.embedding_dense_backward", host::callEmbeddingBackward},
        {"aten.index", host::callIndex},
        {"aten.index.Tensor", host::callIndex}, // the overload torch calls: self, indices as aten.index
        {"aten.index_put", host::callIndexPut},
        {"aten.index_put_", host::callIndexPut},
        {"aten._unsafe_index_put", host::callIndexPut},
        {"aten.histc", host::callHistc},
        {"aten.randint.low_out", host::callRandint},
        {"aten._cudnn_rnn", host::callCudnnRnn},
        {"aten.convolution_backward", host::callConvolutionBackward},
        {"aten._grouped_mm", host::callGroupedMm},
        {"transformers.grouped_mm_fallback", host::callGroupedMm},
    };
    t.add(core::attentionOperators(), callAttention);
    t.add(core::attentionBackwardOperators(), callAttentionBackward);
    t.add(host::elementwiseOperators(), host::callElementwise);
    return t;
  }();
  return kTable;
}

} // namespace

bool isHostCall(std::string_view op) {
  return table().find(op) != nullptr;
}

std::vector<std::string> hostCallOperators() {
  return table().names();
}

std::vector<bool> runHostCall(std::string_view op, std::span<const HostCallValue> args,
                              std::span<const TensorView *const> outs) {
  if (const auto *e = table().find(op)) {
    // aten.sort with four arguments is sort.stable without its overload name.
    const std::string_view schema = e->name == "aten.sort" && args.size() == 4 ? "aten.sort.stable" : e->name;
    return e->impl(CallArgs(e->name, core::findSchema(schema), args, outs));
  }
  throw core::RuntimeError("library call " + std::string(op) + " is not implemented");
}

} // namespace npusim::reference
