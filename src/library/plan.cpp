// The table of planned operators: an operator's name -> its planner.
#include "library/mapping_strategy.h"
#include "library/planners.h"

#include <functional>

namespace npusim::library {

namespace {

using detail::CallArgs;
using Planner = std::function<CallPlan(const CallArgs &, const MachineShape &)>;

const core::OperatorTable<Planner> &table() {
  using detail::GemmOp;
  static const core::OperatorTable<Planner> kTable = [] {
    core::OperatorTable<Planner> t = {
        {"aten.mm", [](const CallArgs &c, const MachineShape &m) { return planGemm(c, GemmOp::Mm, m); }},
        {"aten.addmm",
         [](const CallArgs &c, const MachineShape &m) { return planGemm(c, GemmOp::Addmm, m); }},
        {"aten.bmm", [](const CallArgs &c, const MachineShape &m) { return planGemm(c, GemmOp::Bmm, m); }},
        {"aten.baddbmm",
         [](const CallArgs &c, const MachineShape &m) { return planGemm(c, GemmOp::Baddbmm, m); }},
        {"aten.convolution", detail::planConvolution},
        {"aten._convolution", detail::planConvolution},
        {"aten.topk", detail::planTopk},
        {"aten._grouped_mm", detail::planGroupedMm},
        {"transformers.grouped_mm_fallback", detail::planGroupedMm},
        {"aten.histc", detail::planHistc},
        {"aten.embedding", detail::planEmbedding},
        {"aten.embedding_dense_backward", detail::planEmbeddingBackward},
        {"aten.convolution_backward", detail::planConvolutionBackward},
        {"aten._cudnn_rnn", detail::planCudnnRnn},
        {"aten.zero_", detail::planFill},
        {"aten.fill_.Scalar", detail::planFill},
        {"aten.fill_", detail::planFill},
        {"aten.zeros", detail::planFill},
        {"aten.ones", detail::planFill},
        {"aten.zeros_like", detail::planFill},
        {"aten.ones_like", detail::planFill},
        {"aten.copy_", detail::planCopy},
        {"aten.copy", detail::planCopy},
        {"aten.clone", detail::planCopy},
        {"aten._to_copy", detail::planCopy},
        {"aten.add.Tensor", detail::planAdd},
        {"aten.add", detail::planAdd},
        {"aten.add_.Tensor", detail::planAdd},
        {"aten.add_", detail::planAdd},
        {"aten.sub.Tensor", detail::planAdd},
        {"aten.sub", detail::planAdd},
        {"aten.sub_.Tensor", detail::planAdd},
        {"aten.sub_", detail::planAdd},
        {"aten.index_put", detail::planIndexPut},
        {"aten.index_put_", detail::planIndexPut},
        {"aten._unsafe_index_put", detail::planIndexPut},
        {"aten.scatter.src", detail::planScatter},
        {"aten.scatter_.src", detail::planScatter},
        {"aten.scatter.value", detail::planScatter},
        {"aten.scatter_.value", detail::planScatter},
        {"aten.scatter_add", detail::planScatter},
        {"aten.randint.low_out", detail::planRandint},
    };
    t.add(core::attentionOperators(), detail::planAttention);
    t.add(core::attentionBackwardOperators(), detail::planAttentionBackward);
    return t;
  }();
  return kTable;
}

} // namespace

CallPlan planCall(std::string_view op, std::span<const CallArgument> args,
                  std::span<const TensorRef *const> outs, const MachineShape &machine) {
  if (machine.lanes < 1 || machine.spadBytesPerLane < 1)
    throw core::RuntimeError(std::string(op) + ": the machine shape has " + std::to_string(machine.lanes) +
                             " lanes of " + std::to_string(machine.spadBytesPerLane) + " scratchpad bytes");
  const auto *e = table().find(op);
  if (!e)
    throw core::RuntimeError("library call " + std::string(op) + " has no NPU kernel");
  return e->impl(CallArgs(e->name, args, outs), machine);
}

std::vector<std::string> mappingStrategies() {
  return detail::MappingStrategies::names();
}

const std::vector<std::string> &gemmKernels() {
  return detail::gemmKernelNames();
}

bool isGemmCall(std::string_view op) {
  if (op.ends_with(".default"))
    op.remove_suffix(8);
  return op == "aten.mm" || op == "aten.addmm" || op == "aten.bmm" || op == "aten.baddbmm";
}

std::string joinNames(const std::vector<std::string> &names) {
  std::string text;
  for (const std::string &name : names)
    text += (text.empty() ? "" : ", ") + name;
  return text;
}

const std::vector<std::string> &convKernels() {
  static const std::vector<std::string> kNames = {"implicit", "shifted", "window", "relayout",
                                                  "relayout-window"};
  return kNames;
}

bool isConvolutionCall(std::string_view op) {
  if (op.ends_with(".default"))
    op.remove_suffix(8);
  return op == "aten.convolution" || op == "aten._convolution";
}

const std::vector<std::string> &attentionKernels() {
  static const std::vector<std::string> kNames = {"rows", "columns"};
  return kNames;
}

bool isAttentionCall(std::string_view op) {
  if (op.ends_with(".default"))
    op.remove_suffix(8);
  return op == "aten._scaled_dot_product_efficient_attention" ||
         op == "aten._scaled_dot_product_flash_attention" ||
         op == "aten._scaled_dot_product_cudnn_attention" ||
         op == "aten._scaled_dot_product_flash_attention_for_cpu";
}

bool isPlanned(std::string_view op) {
  return table().find(op) != nullptr;
}

std::vector<std::string> plannedOperators() {
  return table().names();
}

int scratchBufferBase(std::span<const CallArgument> args, std::span<const TensorRef *const> outs) {
  int highest = -1;
  std::function<void(const CallArgument &)> visit = [&](const CallArgument &a) {
    if (a.kind == CallArgument::Kind::Tensor)
      highest = std::max(highest, a.tensor.buffer);
    for (const CallArgument &e : a.list)
      visit(e);
  };
  for (const CallArgument &a : args)
    visit(a);
  for (const TensorRef *t : outs)
    if (t)
      highest = std::max(highest, t->buffer);
  return highest + 1;
}

} // namespace npusim::library
