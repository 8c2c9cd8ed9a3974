#include "core/operator_call.h"

#include <cmath>
#include <cstdlib>

namespace npusim::core {

const char *kindName(CallKind kind) {
  switch (kind) {
  case CallKind::None: return "None";
  case CallKind::Int: return "an integer";
  case CallKind::Float: return "a float";
  case CallKind::Bool: return "a bool";
  case CallKind::String: return "a string";
  case CallKind::Tensor: return "a tensor";
  case CallKind::List: return "a list";
  }
  return "?";
}

namespace {

std::vector<ArgumentSchema> join(std::vector<ArgumentSchema> head,
                                 std::initializer_list<ArgumentSchema> tail) {
  head.insert(head.end(), tail.begin(), tail.end());
  return head;
}

std::vector<ArgumentSchema> join(std::vector<ArgumentSchema> head, const std::vector<ArgumentSchema> &tail) {
  head.insert(head.end(), tail.begin(), tail.end());
  return head;
}

// PyTorch's schemas (native_functions.yaml), keyword arguments in order after
// the positional ones, as the bundles spell them; docs/library-calls.md.
std::vector<OperatorSchema> makeSchemas() {
  const std::vector<ArgumentSchema> convolution = {
      {"input", ""},      {"weight", ""},      {"bias", "None"},        {"stride", "[1]"},
      {"padding", "[0]"}, {"dilation", "[1]"}, {"transposed", "False"}, {"output_padding", "[0]"},
      {"groups", "1"}};
  const std::vector<ArgumentSchema> qkv = {{"query", ""}, {"key", ""}, {"value", ""}};
  const ArgumentSchema dropout{"dropout_p", "0.0"}, causal{"is_causal", "False"}, scale{"scale", "None"};
  const auto required = [](const char *name) { return ArgumentSchema{name, ""}; };
  // The backward kernels: the output gradient, the forward's inputs and results.
  const std::vector<ArgumentSchema> backwardHead =
      join({{"grad_out", ""}}, join(qkv, {{"out", ""}, {"logsumexp", ""}}));
  const std::vector<ArgumentSchema> sequences = {
      {"cum_seq_q", ""}, {"cum_seq_k", ""}, {"max_q", ""}, {"max_k", ""}};
  const ArgumentSchema philox[2] = {{"philox_seed", ""}, {"philox_offset", ""}};
  const std::vector<std::string_view> gradients = {"grad_query", "grad_key", "grad_value"};
  return {
      {{"aten.mm", "aten._int_mm"}, {{"self", ""}, {"mat2", ""}}, {"out"}},
      {{"aten.addmm"}, {{"self", ""}, {"mat1", ""}, {"mat2", ""}, {"beta", "1"}, {"alpha", "1"}}, {"out"}},
      {{"aten.bmm"}, {{"self", ""}, {"mat2", ""}}, {"out"}},
      {{"aten.baddbmm"},
       {{"self", ""}, {"batch1", ""}, {"batch2", ""}, {"beta", "1"}, {"alpha", "1"}},
       {"out"}},
      {{"aten.convolution"}, convolution, {"out"}},
      // The four cuDNN flags do not change values.
      {{"aten._convolution"},
       join(convolution, {{"benchmark", "False"},
                          {"deterministic", "False"},
                          {"cudnn_enabled", "True"},
                          {"allow_tf32", "True"}}),
       {"out"}},
      {{"aten._scaled_dot_product_efficient_attention"},
       join(qkv, {{"attn_bias", "None"}, {"compute_log_sumexp", ""}, dropout, causal, scale}),
       {"output", "log_sumexp", "philox_seed", "philox_offset"}},
      {{"aten._scaled_dot_product_flash_attention"},
       join(qkv, {dropout, causal, {"return_debug_mask", "False"}, scale}),
       {"output", "logsumexp", "cum_seq_q", "cum_seq_k", "max_q", "max_k", "rng_state", "unused",
        "debug_attn_mask"}},
      {{"aten._scaled_dot_product_cudnn_attention"},
       join(qkv, {{"attn_bias", "None"},
                  {"compute_log_sumexp", ""},
                  dropout,
                  causal,
                  {"return_debug_mask", "False"},
                  scale}),
       {"output", "logsumexp", "cum_seq_q", "cum_seq_k", "max_q", "max_k", "philox_seed", "philox_offset",
        "debug_attn_mask"}},
      {{"aten._scaled_dot_product_flash_attention_for_cpu"},
       join(qkv, {dropout, causal, {"attn_mask", "None"}, scale}),
       {"output", "logsumexp"}},
      {{"aten._scaled_dot_product_efficient_attention_backward"},
       join({{"grad_out_", ""}}, join(qkv, {{"attn_bias", ""},
                                            {"out", ""},
                                            {"logsumexp", ""},
                                            philox[0],
                                            philox[1],
                                            required("dropout_p"),
                                            {"grad_input_mask", ""},
                                            causal,
                                            scale})),
       {"grad_query", "grad_key", "grad_value", "grad_attn_bias"}},
      {{"aten._scaled_dot_product_flash_attention_backward"},
       join(join(backwardHead, sequences),
            {required("dropout_p"), required("is_causal"), philox[0], philox[1], scale}),
       gradients},
      {{"aten._scaled_dot_product_cudnn_attention_backward"},
       join(join(join(backwardHead, {philox[0], philox[1], {"attn_bias", ""}}), sequences),
            {required("dropout_p"), required("is_causal"), scale}),
       gradients},
      {{"aten._scaled_dot_product_flash_attention_for_cpu_backward"},
       join(backwardHead, {required("dropout_p"), required("is_causal"), {"attn_mask", "None"}, scale}),
       gradients},
      {{"aten._cudnn_rnn"},
       {{"input", ""},
        {"weight", ""},
        {"weight_stride0", ""},
        {"weight_buf", ""},
        {"hx", ""},
        {"cx", ""},
        {"mode", ""},
        {"hidden_size", ""},
        {"proj_size", ""},
        {"num_layers", ""},
        {"batch_first", ""},
        {"dropout", ""},
        {"train", ""},
        {"bidirectional", ""},
        {"batch_sizes", ""},
        {"dropout_state", ""}},
       {"output", "hy", "cy", "reserve", "weight_buf"}},
      {{"aten.copy_", "aten.copy"}, {{"self", ""}, {"src", ""}, {"non_blocking", "False"}}, {"out"}},
      {{"aten._softmax", "aten._log_softmax"}, {{"self", ""}, {"dim", ""}, {"half_to_float", ""}}, {"out"}},
      {{"aten.cumsum"}, {{"self", ""}, {"dim", ""}, {"dtype", "None"}}, {"out"}},
      {{"aten.native_layer_norm"},
       {{"input", ""}, {"normalized_shape", ""}, {"weight", "None"}, {"bias", "None"}, {"eps", ""}},
       {"out", "mean", "rstd"}},
      {{"aten.sort"}, {{"self", ""}, {"dim", "-1"}, {"descending", "False"}}, {"values", "indices"}},
      {{"aten.sort.stable"},
       {{"self", ""}, {"stable", "None"}, {"dim", "-1"}, {"descending", "False"}},
       {"values", "indices"}},
      {{"aten.topk"},
       {{"self", ""}, {"k", ""}, {"dim", "-1"}, {"largest", "True"}, {"sorted", "True"}},
       {"values", "indices"}},
      {{"aten.max_pool2d_with_indices"},
       {{"self", ""},
        {"kernel_size", ""},
        {"stride", "[]"},
        {"padding", "[0]"},
        {"dilation", "[1]"},
        {"ceil_mode", "False"}},
       {"out", "indices"}},
      {{"aten.scatter_add", "aten.scatter.src", "aten.scatter_.src"},
       {{"self", ""}, {"dim", ""}, {"index", ""}, {"src", ""}},
       {"out"}},
      {{"aten.scatter.value", "aten.scatter_.value"},
       {{"self", ""}, {"dim", ""}, {"index", ""}, {"value", ""}},
       {"out"}},
      {{"aten.embedding"},
       {{"weight", ""},
        {"indices", ""},
        {"padding_idx", "-1"},
        {"scale_grad_by_freq", "False"},
        {"sparse", "False"}},
       {"out"}},
      {{"aten.embedding_dense_backward"},
       {{"grad_output", ""},
        {"indices", ""},
        {"num_weights", ""},
        {"padding_idx", ""},
        {"scale_grad_by_freq", ""}},
       {"out"}},
      {{"aten.index", "aten.index.Tensor"}, {{"self", ""}, {"indices", ""}}, {"out"}},
      {{"aten.index_put", "aten.index_put_", "aten._unsafe_index_put"},
       {{"self", ""}, {"indices", ""}, {"values", ""}, {"accumulate", "False"}},
       {"out"}},
      {{"aten.relu", "aten.relu_"}, {{"self", ""}}, {"out"}},
      {{"aten.add.Tensor", "aten.add", "aten.add_.Tensor", "aten.add_", "aten.sub.Tensor", "aten.sub",
        "aten.sub_.Tensor", "aten.sub_"},
       {{"self", ""}, {"other", ""}, {"alpha", "1"}},
       {"out"}},
      {{"aten.mul.Tensor", "aten.mul", "aten.mul_.Tensor", "aten.mul_"},
       {{"self", ""}, {"other", ""}},
       {"out"}},
      {{"aten.div.Tensor", "aten.div", "aten.div_.Tensor", "aten.div_"},
       {{"self", ""}, {"other", ""}, {"rounding_mode", "None"}},
       {"out"}},
      {{"aten.zero_"}, {{"self", ""}}, {"out"}},
      {{"aten.fill_.Scalar", "aten.fill_.Tensor", "aten.fill_"}, {{"self", ""}, {"value", ""}}, {"out"}},
      {{"aten.zeros", "aten.ones"},
       {{"size", ""}, {"dtype", "None"}, {"layout", "None"}, {"device", "None"}, {"pin_memory", "None"}},
       {"out"}},
      {{"aten.zeros_like", "aten.ones_like"},
       {{"self", ""},
        {"dtype", "None"},
        {"layout", "None"},
        {"device", "None"},
        {"pin_memory", "None"},
        {"memory_format", "None"}},
       {"out"}},
      {{"aten.clone"}, {{"self", ""}, {"memory_format", "None"}}, {"out"}},
      {{"aten._to_copy"},
       {{"self", ""},
        {"dtype", "None"},
        {"layout", "None"},
        {"device", "None"},
        {"pin_memory", "None"},
        {"non_blocking", "False"},
        {"memory_format", "None"}},
       {"out"}},
      {{"aten.threshold_backward"}, {{"grad_output", ""}, {"self", ""}, {"threshold", ""}}, {"grad_input"}},
      {{"aten.sum.dim_IntList"},
       {{"self", ""}, {"dim", "[]"}, {"keepdim", "False"}, {"dtype", "None"}},
       {"out"}},
      {{"aten._log_softmax_backward_data"},
       {{"grad_output", ""}, {"output", ""}, {"dim", ""}, {"input_dtype", ""}},
       {"out"}},
      {{"aten.nll_loss_forward"},
       {{"self", ""}, {"target", ""}, {"weight", "None"}, {"reduction", ""}, {"ignore_index", ""}},
       {"output", "total_weight"}},
      {{"aten.nll_loss_backward"},
       {{"grad_output", ""},
        {"self", ""},
        {"target", ""},
        {"weight", "None"},
        {"reduction", ""},
        {"ignore_index", ""},
        {"total_weight", ""}},
       {"grad_input"}},
      // Random integers; the bundle records what the capture drew (its `values`).
      {{"aten.randint.low_out"}, {{"low", ""}, {"high", ""}, {"size", ""}}, {"out"}},
      {{"aten.histc"}, {{"self", ""}, {"bins", "100"}, {"min", "0"}, {"max", "0"}}, {"out"}},
      {{"aten.convolution_backward"},
       {{"grad_output", ""},
        {"input", ""},
        {"weight", ""},
        {"bias_sizes", ""},
        {"stride", ""},
        {"padding", ""},
        {"dilation", ""},
        {"transposed", ""},
        {"output_padding", ""},
        {"groups", ""},
        {"output_mask", ""}},
       {"grad_input", "grad_weight", "grad_bias"}},
      {{"aten._grouped_mm"},
       {{"self", ""}, {"mat2", ""}, {"offs", "None"}, {"bias", "None"}, {"out_dtype", "None"}},
       {"out"}},
      // transformers' custom op (transformers/integrations/moe.py).
      {{"transformers.grouped_mm_fallback"}, {{"input", ""}, {"weight", ""}, {"offs", ""}}, {"out"}},
      {{"aten.native_batch_norm"},
       {{"input", ""},
        {"weight", "None"},
        {"bias", "None"},
        {"running_mean", "None"},
        {"running_var", "None"},
        {"training", ""},
        {"momentum", ""},
        {"eps", ""}},
       {"out", "save_mean", "save_invstd"}},
  };
}

const std::vector<OperatorSchema> &schemas() {
  static const std::vector<OperatorSchema> kSchemas = makeSchemas();
  return kSchemas;
}

std::optional<double> asNumber(const CallScalar &v) {
  switch (v.kind) {
  case CallKind::Int: return static_cast<double>(v.intValue);
  case CallKind::Float: return v.floatValue;
  case CallKind::Bool: return v.boolValue ? 1.0 : 0.0;
  case CallKind::String:
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

std::string_view withoutDefault(std::string_view op) {
  constexpr std::string_view kDefault = ".default";
  return op.size() > kDefault.size() && op.ends_with(kDefault) ? op.substr(0, op.size() - kDefault.size())
                                                               : op;
}

const OperatorSchema *findSchema(std::string_view op) {
  const std::string_view name = withoutDefault(op);
  for (const OperatorSchema &s : schemas())
    for (std::string_view n : s.names)
      if (n == name)
        return &s;
  return nullptr;
}

const std::vector<std::string_view> &attentionOperators() {
  static const std::vector<std::string_view> kNames = {
      "aten._scaled_dot_product_efficient_attention", "aten._scaled_dot_product_flash_attention",
      "aten._scaled_dot_product_cudnn_attention", "aten._scaled_dot_product_flash_attention_for_cpu"};
  return kNames;
}

const std::vector<std::string_view> &attentionBackwardOperators() {
  static const std::vector<std::string_view> kNames = {
      "aten._scaled_dot_product_efficient_attention_backward",
      "aten._scaled_dot_product_flash_attention_backward",
      "aten._scaled_dot_product_cudnn_attention_backward",
      "aten._scaled_dot_product_flash_attention_for_cpu_backward"};
  return kNames;
}

std::vector<std::string_view> schemaOperators() {
  std::vector<std::string_view> names;
  for (const OperatorSchema &s : schemas())
    names.insert(names.end(), s.names.begin(), s.names.end());
  return names;
}

CallArgsBase::CallArgsBase(std::string_view op, const OperatorSchema *schema, size_t numOuts)
    : op_(op), schema_(schema), numOuts_(numOuts) {
  if (!schema)
    throw RuntimeError("library call " + std::string(op) + " has no schema");
}

void CallArgsBase::bind(std::vector<const CallScalar *> scalars) {
  scalars_ = std::move(scalars);
  if (scalars_.size() > schema_->arguments.size())
    fail("takes at most " + std::to_string(schema_->arguments.size()) + " arguments, got " +
         std::to_string(scalars_.size()));
}

void CallArgsBase::fail(size_t i, std::string_view name, const std::string &message) const {
  fail("argument " + std::to_string(i) + " (" + std::string(name) + "): " + message);
}

void CallArgsBase::fail(const std::string &message) const {
  throw RuntimeError(std::string(op_) + ": " + message);
}

std::optional<size_t> CallArgsBase::position(std::string_view name) const {
  for (size_t i = 0; i < schema_->arguments.size(); ++i)
    if (schema_->arguments[i].name == name)
      return i;
  return std::nullopt;
}

const CallScalar *CallArgsBase::at(size_t i, std::string_view name) const {
  if (i >= schema_->arguments.size() || schema_->arguments[i].name != name)
    fail("internal error: argument " + std::to_string(i) + " read as " + std::string(name) +
         ", which the schema does not name so");
  return i < scalars_.size() ? scalars_[i] : nullptr;
}

CallScalar CallArgsBase::fallback(size_t i, std::string_view name) const {
  const std::string_view text = schema_->arguments[i].fallback;
  CallScalar v;
  if (text.empty())
    fail(i, name, "missing");
  if (text == "None")
    return v;
  if (text == "True" || text == "False") {
    v.kind = CallKind::Bool;
    v.boolValue = text == "True";
  } else if (text.find('.') != std::string_view::npos) {
    v.kind = CallKind::Float;
    v.floatValue = std::strtod(std::string(text).c_str(), nullptr);
  } else if (text.front() != '[') {
    v.kind = CallKind::Int;
    v.intValue = std::strtoll(std::string(text).c_str(), nullptr, 10);
  } else {
    v.kind = CallKind::List; // read by fallbackIntegers
  }
  return v;
}

std::vector<int64_t> CallArgsBase::fallbackIntegers(size_t i, std::string_view name) const {
  const std::string_view text = schema_->arguments[i].fallback;
  if (text.size() < 2 || text.front() != '[' || text.back() != ']')
    fail("internal error: argument " + std::to_string(i) + " (" + std::string(name) +
         ") has no list fallback");
  std::vector<int64_t> r;
  std::string_view inner = text.substr(1, text.size() - 2);
  while (!inner.empty()) {
    const size_t comma = inner.find(',');
    r.push_back(std::strtoll(std::string(inner.substr(0, comma)).c_str(), nullptr, 10));
    inner = comma == std::string_view::npos ? std::string_view{} : inner.substr(comma + 1);
  }
  return r;
}

std::optional<int64_t> CallArgsBase::optionalInteger(size_t i, std::string_view name) const {
  const CallScalar *given = at(i, name);
  const CallScalar v = given ? *given : fallback(i, name);
  if (v.kind == CallKind::None)
    return std::nullopt;
  if (v.kind == CallKind::Int)
    return v.intValue;
  if (v.kind == CallKind::Bool)
    return v.boolValue ? 1 : 0;
  fail(i, name, std::string("expected an integer, got ") + kindName(v.kind));
}

int64_t CallArgsBase::integer(size_t i, std::string_view name) const {
  if (const std::optional<int64_t> r = optionalInteger(i, name))
    return *r;
  fail(i, name, "expected an integer, got None");
}

std::optional<double> CallArgsBase::optionalNumber(size_t i, std::string_view name) const {
  const CallScalar *given = at(i, name);
  const CallScalar v = given ? *given : fallback(i, name);
  if (v.kind == CallKind::None)
    return std::nullopt;
  if (const std::optional<double> f = asNumber(v))
    return f;
  fail(i, name, std::string("expected a number, got ") + kindName(v.kind));
}

double CallArgsBase::number(size_t i, std::string_view name) const {
  if (const std::optional<double> r = optionalNumber(i, name))
    return *r;
  fail(i, name, "expected a number, got None");
}

bool CallArgsBase::boolean(size_t i, std::string_view name) const {
  const CallScalar *given = at(i, name);
  const CallScalar v = given ? *given : fallback(i, name);
  if (v.kind == CallKind::Bool)
    return v.boolValue;
  if (v.kind == CallKind::Int && (v.intValue == 0 || v.intValue == 1))
    return v.intValue == 1;
  fail(i, name, std::string("expected a bool, got ") + kindName(v.kind));
}

void CallArgsBase::checkTensor(size_t i, std::string_view name, std::span<const int64_t> shape,
                               std::span<const int64_t> stride) const {
  if (shape.size() != stride.size())
    fail(i, name, "shape " + shapeString(shape) + " and stride " + shapeString(stride) + " differ in length");
}

void CallArgsBase::checkOut(size_t i, std::span<const int64_t> shape, std::span<const int64_t> stride) const {
  if (shape.size() != stride.size())
    fail("result " + std::to_string(i) + " (" + resultName(i) + "): shape " + shapeString(shape) +
         " and stride " + shapeString(stride) + " differ in length");
}

std::string CallArgsBase::resultName(size_t i) const {
  return i < schema_->results.size() ? std::string(schema_->results[i]) : "result " + std::to_string(i);
}

} // namespace npusim::core
