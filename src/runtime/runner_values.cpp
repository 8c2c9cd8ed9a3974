// Timing mode: the steps whose values must be computed after all.
#include "runtime/runner_internal.h"

#include "npu/execution.h"

#include <algorithm>
#include <set>

namespace npusim::runtime {

namespace {

void addTensors(const CallValue &v, std::set<int> &storages) {
  if (v.kind == CallValue::Kind::Tensor)
    storages.insert(v.tensor.storage);
  for (const CallValue &e : v.list)
    addTensors(e, storages);
}

} // namespace

// A step computes values when its addresses need them (npu::timingValueNeed):
// from its own program ids alone (then its inputs do not matter), or from what
// it loads (then its inputs must be right, and so must the steps that write
// them). A backward walk over the steps keeps the set of storages whose contents
// matter; storage granularity is conservative.
std::vector<std::string> Runner::valueReasons(std::set<int> &contentsNeeded) {
  const size_t n = bundle_.steps.size();
  std::vector<std::string> reasons(n);
  std::vector<std::set<int>> reads(n), writes(n);
  // The storages whose contents a step's own addresses, control or asserts
  // depend on; and whether all it reads matters (it computes values a later
  // such step reads).
  std::vector<std::set<int>> addressReads(n);
  std::vector<bool> readsMatter(n, false);
  for (size_t i = 0; i < n; ++i) {
    const Step &step = bundle_.steps[i];
    if (step.kind == Step::Kind::Launch) {
      // The written arguments are the bundle's `writes` (mutated_arg_names and the
      // out_ptr parameters): mutated_arg_names alone names only the in-place ones.
      for (size_t a = 0; a < step.args.size(); ++a)
        if (step.args[a].isTensor)
          reads[i].insert(step.args[a].tensor.storage);
      for (int64_t a : step.writes)
        if (step.args[static_cast<size_t>(a)].isTensor)
          writes[i].insert(step.args[static_cast<size_t>(a)].tensor.storage);
      const ir::Function &function = lowered(step);
      std::map<std::string, int64_t> scalars;
      const std::vector<reference::Argument> args = launchArguments(step, function);
      for (size_t p = 0; p < function.parameters().size(); ++p)
        if (!function.parameters()[p].type.isPointer && function.parameters()[p].type.isIntegerOrBool())
          scalars[function.parameters()[p].name] = args[p].scalar.intValue;
      std::string why;
      std::vector<int> addressArguments;
      const npu::ValueNeed need =
          npu::timingValueNeed(npu_->kernelFor(step, scalars).program, &why, &addressArguments);
      if (need != npu::ValueNeed::None)
        reasons[i] = why;
      // Only the arguments whose loaded values form addresses, steer control or
      // feed asserts must hold their real contents.
      for (int p : addressArguments) {
        const std::string &param = function.parameters()[static_cast<size_t>(p)].name;
        for (size_t a = 0; a < step.args.size(); ++a)
          if (step.argNames[a] == param && step.args[a].isTensor)
            addressReads[i].insert(step.args[a].tensor.storage);
      }
    } else {
      for (const CallValue &v : step.callArgs)
        addTensors(v, reads[i]);
      for (const auto &o : step.out)
        if (o)
          writes[i].insert(o->storage);
      // A library call's NPU programs may read what they address (grouped
      // GEMMs read each group's bounds from `offs`).
      if (NpuSteps::callOnNpu(step.name)) {
        std::string why;
        addressReads[i] = npu_->callAddressStorages(step, buffers_, why);
        if (!why.empty())
          reasons[i] = why;
      }
    }
  }
  std::set<int> needed;
  for (size_t k = n; k-- > 0;) {
    for (int s : writes[k])
      if (needed.count(s)) {
        reasons[k] = "a later step whose addresses or control depend on loaded values reads storage " +
                     std::to_string(s);
        readsMatter[k] = true;
        break;
      }
    if (readsMatter[k])
      needed.insert(reads[k].begin(), reads[k].end());
    needed.insert(addressReads[k].begin(), addressReads[k].end());
  }
  contentsNeeded = std::move(needed);
  return reasons;
}

} // namespace npusim::runtime
