// The table of library calls: an operator's name -> its handler, which reads
// the positional arguments in the aten schema's order and runs the operator.
#include "reference/library_support.h"

#include <algorithm>
#include <cmath>
#include <functional>

namespace npusim::reference {

namespace lib {

namespace {

std::string kindName(const LibraryValue &v) {
  switch (v.kind) {
  case LibraryValue::Kind::None: return "None";
  case LibraryValue::Kind::Int: return "an integer";
  case LibraryValue::Kind::Float: return "a float";
  case LibraryValue::Kind::Bool: return "a bool";
  case LibraryValue::Kind::String: return "a string";
  case LibraryValue::Kind::Tensor: return "a tensor";
  case LibraryValue::Kind::List: return "a list";
  }
  return "?";
}

std::optional<double> asFloat(const LibraryValue &v) {
  switch (v.kind) {
  case LibraryValue::Kind::Int: return static_cast<double>(v.intValue);
  case LibraryValue::Kind::Float: return v.floatValue;
  case LibraryValue::Kind::Bool: return v.boolValue ? 1.0 : 0.0;
  case LibraryValue::Kind::String:
    if (v.stringValue == "nan")
      return std::nan("");
    if (v.stringValue == "inf")
      return HUGE_VAL;
    if (v.stringValue == "-inf")
      return -HUGE_VAL;
    return std::nullopt;
  default: return std::nullopt;
  }
}

} // namespace

void CallArgs::fail(size_t i, const char *name, const std::string &message) const {
  lib::fail(op_, "argument " + std::to_string(i) + " (" + name + "): " + message);
}

void CallArgs::atMost(size_t n) const {
  if (args_.size() > n)
    lib::fail(op_, "takes at most " + std::to_string(n) + " arguments, got " + std::to_string(args_.size()));
}

const TensorView &CallArgs::tensor(size_t i, const char *name) const {
  const LibraryValue *v = at(i);
  if (!v)
    fail(i, name, "missing");
  if (v->kind != LibraryValue::Kind::Tensor)
    fail(i, name, "expected a tensor, got " + kindName(*v));
  return v->tensor;
}

const TensorView *CallArgs::optionalTensor(size_t i, const char *name) const {
  const LibraryValue *v = at(i);
  if (!v || v->kind == LibraryValue::Kind::None)
    return nullptr;
  if (v->kind != LibraryValue::Kind::Tensor)
    fail(i, name, "expected a tensor or None, got " + kindName(*v));
  return &v->tensor;
}

std::optional<int64_t> CallArgs::optionalInteger(size_t i, const char *name) const {
  const LibraryValue *v = at(i);
  if (!v || v->kind == LibraryValue::Kind::None)
    return std::nullopt;
  if (v->kind == LibraryValue::Kind::Int)
    return v->intValue;
  if (v->kind == LibraryValue::Kind::Bool)
    return v->boolValue ? 1 : 0;
  fail(i, name, "expected an integer, got " + kindName(*v));
}

int64_t CallArgs::integer(size_t i, const char *name, std::optional<int64_t> fallback) const {
  const LibraryValue *v = at(i);
  if (!v && fallback)
    return *fallback;
  if (!v)
    fail(i, name, "missing");
  if (v->kind == LibraryValue::Kind::None)
    fail(i, name, "expected an integer, got None");
  return *optionalInteger(i, name);
}

std::optional<double> CallArgs::optionalNumber(size_t i, const char *name) const {
  const LibraryValue *v = at(i);
  if (!v || v->kind == LibraryValue::Kind::None)
    return std::nullopt;
  if (auto f = asFloat(*v))
    return f;
  fail(i, name, "expected a number, got " + kindName(*v));
}

double CallArgs::number(size_t i, const char *name, std::optional<double> fallback) const {
  const LibraryValue *v = at(i);
  if (!v && fallback)
    return *fallback;
  if (!v)
    fail(i, name, "missing");
  if (v->kind == LibraryValue::Kind::None)
    fail(i, name, "expected a number, got None");
  return *optionalNumber(i, name);
}

bool CallArgs::boolean(size_t i, const char *name, std::optional<bool> fallback) const {
  const LibraryValue *v = at(i);
  if (!v && fallback)
    return *fallback;
  if (!v)
    fail(i, name, "missing");
  if (v->kind == LibraryValue::Kind::Bool)
    return v->boolValue;
  if (v->kind == LibraryValue::Kind::Int && (v->intValue == 0 || v->intValue == 1))
    return v->intValue == 1;
  fail(i, name, "expected a bool, got " + kindName(*v));
}

std::vector<int64_t> CallArgs::integers(size_t i, const char *name,
                                        std::optional<std::vector<int64_t>> fallback) const {
  const LibraryValue *v = at(i);
  if (!v && fallback)
    return *fallback;
  if (!v)
    fail(i, name, "missing");
  if (v->kind == LibraryValue::Kind::Int)
    return {v->intValue};
  if (v->kind != LibraryValue::Kind::List)
    fail(i, name, "expected a list of integers, got " + kindName(*v));
  std::vector<int64_t> r;
  for (const LibraryValue &e : v->list) {
    if (e.kind != LibraryValue::Kind::Int)
      fail(i, name, "expected a list of integers, but an element is " + kindName(e));
    r.push_back(e.intValue);
  }
  return r;
}

const std::vector<LibraryValue> &CallArgs::list(size_t i, const char *name) const {
  const LibraryValue *v = at(i);
  if (!v)
    fail(i, name, "missing");
  if (v->kind != LibraryValue::Kind::List)
    fail(i, name, "expected a list, got " + kindName(*v));
  return v->list;
}

const TensorView &CallArgs::out(size_t i, const char *name) const {
  if (i >= outs_.size() || !outs_[i])
    lib::fail(op_, "result " + std::to_string(i) + " (" + name + ") is not given in out");
  return *outs_[i];
}

const TensorView *CallArgs::optionalOut(size_t i) const {
  return i < outs_.size() ? outs_[i] : nullptr;
}

} // namespace lib

namespace {

using lib::CallArgs;
using Handler = std::function<std::vector<bool>(const CallArgs &)>;

std::vector<bool> allDefined(const CallArgs &call) {
  return std::vector<bool>(call.numOuts(), true);
}

std::vector<bool> callMm(const CallArgs &c) {
  c.atMost(2);
  matmul(c.tensor(0, "self"), c.tensor(1, "mat2"), c.out(0, "out"));
  return allDefined(c);
}

std::vector<bool> callAddmm(const CallArgs &c) {
  c.atMost(5);
  addmm(c.tensor(0, "self"), c.tensor(1, "mat1"), c.tensor(2, "mat2"), c.number(3, "beta", 1.0),
        c.number(4, "alpha", 1.0), c.out(0, "out"));
  return allDefined(c);
}

std::vector<bool> callBmm(const CallArgs &c) {
  c.atMost(2);
  bmm(c.tensor(0, "self"), c.tensor(1, "mat2"), c.out(0, "out"));
  return allDefined(c);
}

std::vector<bool> callBaddbmm(const CallArgs &c) {
  c.atMost(5);
  baddbmm(c.tensor(0, "self"), c.tensor(1, "batch1"), c.tensor(2, "batch2"), c.number(3, "beta", 1.0),
          c.number(4, "alpha", 1.0), c.out(0, "out"));
  return allDefined(c);
}

/// convolution(input, weight, bias, stride, padding, dilation, transposed,
/// output_padding, groups); _convolution adds benchmark, deterministic,
/// cudnn_enabled, allow_tf32, which do not change the values.
std::vector<bool> callConvolution(const CallArgs &c, size_t maxArgs) {
  c.atMost(maxArgs);
  ConvolutionParams p;
  p.stride = c.integers(3, "stride", std::vector<int64_t>{1});
  p.padding = c.integers(4, "padding", std::vector<int64_t>{0});
  p.dilation = c.integers(5, "dilation", std::vector<int64_t>{1});
  p.transposed = c.boolean(6, "transposed", false);
  p.outputPadding = c.integers(7, "output_padding", std::vector<int64_t>{0});
  p.groups = c.integer(8, "groups", 1);
  convolution(c.tensor(0, "input"), c.tensor(1, "weight"), c.optionalTensor(2, "bias"), p, c.out(0, "out"));
  return allDefined(c);
}

void checkDropout(const CallArgs &c, size_t i) {
  const double p = c.number(i, "dropout_p", 0.0);
  if (p != 0.0)
    c.fail(i, "dropout_p",
           "dropout_p=" + std::to_string(p) + ": attention dropout is random and not supported");
}

/// Attention results: output, logsumexp, then tensors whose values PyTorch
/// leaves unspecified without dropout (philox seed and offset, cumulative
/// sequence lengths, debug mask): those are not written.
std::vector<bool> attention(const CallArgs &c, const TensorView *mask, bool isCausal,
                            std::optional<double> scale, bool logsumexpDefined) {
  AttentionParams p;
  p.mask = mask;
  p.isCausal = isCausal;
  p.scale = scale;
  const TensorView *lse = logsumexpDefined ? c.optionalOut(1) : nullptr;
  scaledDotProductAttention(c.tensor(0, "query"), c.tensor(1, "key"), c.tensor(2, "value"), p,
                            c.out(0, "output"), lse);
  std::vector<bool> defined(c.numOuts(), false);
  defined[0] = true;
  if (lse)
    defined[1] = true;
  return defined;
}

// _scaled_dot_product_efficient_attention(query, key, value, attn_bias, compute_log_sumexp,
//     dropout_p=0.0, is_causal=False, *, scale=None) -> (output, log_sumexp, philox_seed, philox_offset)
std::vector<bool> callEfficientAttention(const CallArgs &c) {
  c.atMost(8);
  checkDropout(c, 5);
  return attention(c, c.optionalTensor(3, "attn_bias"), c.boolean(6, "is_causal", false),
                   c.optionalNumber(7, "scale"), c.boolean(4, "compute_log_sumexp"));
}

// _scaled_dot_product_flash_attention(query, key, value, dropout_p=0.0, is_causal=False,
//     return_debug_mask=False, *, scale=None) -> (output, logsumexp, cum_seq_q, cum_seq_k, max_q,
//     max_k, rng_state, unused, debug_attn_mask)
std::vector<bool> callFlashAttention(const CallArgs &c) {
  c.atMost(7);
  checkDropout(c, 3);
  return attention(c, nullptr, c.boolean(4, "is_causal", false), c.optionalNumber(6, "scale"), true);
}

// _scaled_dot_product_cudnn_attention(query, key, value, attn_bias, compute_log_sumexp,
//     dropout_p=0.0, is_causal=False, return_debug_mask=False, *, scale=None)
std::vector<bool> callCudnnAttention(const CallArgs &c) {
  c.atMost(9);
  checkDropout(c, 5);
  return attention(c, c.optionalTensor(3, "attn_bias"), c.boolean(6, "is_causal", false),
                   c.optionalNumber(8, "scale"), c.boolean(4, "compute_log_sumexp"));
}

// _scaled_dot_product_flash_attention_for_cpu(query, key, value, dropout_p=0.0, is_causal=False, *,
//     attn_mask=None, scale=None) -> (output, logsumexp)
std::vector<bool> callFlashAttentionCpu(const CallArgs &c) {
  c.atMost(7);
  checkDropout(c, 3);
  return attention(c, c.optionalTensor(5, "attn_mask"), c.boolean(4, "is_causal", false),
                   c.optionalNumber(6, "scale"), true);
}

struct Entry {
  std::string_view name;
  Handler handler;
};

std::vector<Entry> makeTable() {
  std::vector<Entry> table = {
      {"aten.mm", callMm},
      {"aten._int_mm", callMm},
      {"aten.addmm", callAddmm},
      {"aten.bmm", callBmm},
      {"aten.baddbmm", callBaddbmm},
      {"aten.convolution", [](const CallArgs &c) { return callConvolution(c, 9); }},
      {"aten._convolution", [](const CallArgs &c) { return callConvolution(c, 13); }},
      {"aten._scaled_dot_product_efficient_attention", callEfficientAttention},
      {"aten._scaled_dot_product_flash_attention", callFlashAttention},
      {"aten._scaled_dot_product_cudnn_attention", callCudnnAttention},
      {"aten._scaled_dot_product_flash_attention_for_cpu", callFlashAttentionCpu},
      {"aten.copy_", lib::callCopy},
      {"aten.copy", lib::callCopy},
      {"aten._softmax", [](const CallArgs &c) { return lib::callSoftmax(c, false); }},
      {"aten._log_softmax", [](const CallArgs &c) { return lib::callSoftmax(c, true); }},
      {"aten.cumsum", lib::callCumsum},
      {"aten.native_layer_norm", lib::callLayerNorm},
      {"aten.sort", lib::callSort},
      {"aten.sort.stable", lib::callSort},
      {"aten.topk", lib::callTopk},
      {"aten.max_pool2d_with_indices", lib::callMaxPool2d},
      {"aten.scatter_add", lib::callScatterAdd},
      {"aten.embedding_dense_backward", lib::callEmbeddingBackward},
      {"aten.index", lib::callIndex},
  };
  for (std::string_view name : lib::elementwiseOperators())
    table.push_back({name, lib::callElementwise});
  return table;
}

const std::vector<Entry> &table() {
  static const std::vector<Entry> kTable = makeTable();
  return kTable;
}

} // namespace

namespace {

/// The table entry of `op`: its exact name, or for "aten.X.default" that of "aten.X".
const Entry *findEntry(std::string_view op) {
  for (const Entry &e : table())
    if (e.name == op)
      return &e;
  constexpr std::string_view kDefault = ".default";
  if (op.size() > kDefault.size() && op.substr(op.size() - kDefault.size()) == kDefault)
    return findEntry(op.substr(0, op.size() - kDefault.size()));
  return nullptr;
}

} // namespace

bool isLibraryCallImplemented(std::string_view op) {
  return findEntry(op) != nullptr;
}

std::vector<std::string> implementedLibraryCalls() {
  std::vector<std::string> names;
  for (const Entry &e : table())
    names.emplace_back(e.name);
  return names;
}

std::vector<bool> runLibraryCall(std::string_view op, std::span<const LibraryValue> args,
                                 std::span<const TensorView *const> outs) {
  if (const Entry *e = findEntry(op))
    return e->handler(CallArgs(op, args, outs));
  throw core::RuntimeError("library call " + std::string(op) + " is not implemented");
}

} // namespace npusim::reference
