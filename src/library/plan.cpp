// The table of planned operators: an operator's name -> its planner.
#include "library/planners.h"

#include <functional>

namespace npusim::library {

namespace {

using detail::CallArgs;
using Planner = std::function<CallPlan(const CallArgs &, const MachineShape &)>;

struct Entry {
  std::string_view name;
  Planner planner;
};

const std::vector<Entry> &table() {
  using detail::GemmOp;
  static const std::vector<Entry> kTable = {
      {"aten.mm", [](const CallArgs &c, const MachineShape &m) { return planGemm(c, GemmOp::Mm, m); }},
      {"aten.addmm", [](const CallArgs &c, const MachineShape &m) { return planGemm(c, GemmOp::Addmm, m); }},
      {"aten.bmm", [](const CallArgs &c, const MachineShape &m) { return planGemm(c, GemmOp::Bmm, m); }},
      {"aten.baddbmm",
       [](const CallArgs &c, const MachineShape &m) { return planGemm(c, GemmOp::Baddbmm, m); }},
      {"aten.convolution", detail::planConvolution},
      {"aten._convolution", detail::planConvolution},
      {"aten._scaled_dot_product_efficient_attention", detail::planAttention},
      {"aten._scaled_dot_product_flash_attention", detail::planAttention},
      {"aten._scaled_dot_product_cudnn_attention", detail::planAttention},
      {"aten._scaled_dot_product_flash_attention_for_cpu", detail::planAttention},
      {"aten.topk", detail::planTopk},
  };
  return kTable;
}

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

CallPlan planCall(std::string_view op, std::span<const CallArgument> args,
                  std::span<const TensorRef *const> outs, const MachineShape &machine) {
  if (machine.lanes < 1 || machine.spadBytesPerLane < 1)
    throw core::RuntimeError(std::string(op) + ": the machine shape has " + std::to_string(machine.lanes) +
                             " lanes of " + std::to_string(machine.spadBytesPerLane) + " scratchpad bytes");
  const Entry *e = findEntry(op);
  if (!e)
    throw core::RuntimeError("library call " + std::string(op) + " has no NPU kernel");
  return e->planner(CallArgs(e->name, args, outs), machine);
}

bool isPlanned(std::string_view op) {
  return findEntry(op) != nullptr;
}

std::vector<std::string> plannedOperators() {
  std::vector<std::string> names;
  for (const Entry &e : table())
    names.emplace_back(e.name);
  return names;
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
