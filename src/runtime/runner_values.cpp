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

// A step computes values when its own DMA addresses or control flow depend on
// loaded values (npu::timingNeedsValues), or when a later step that computes
// values reads a storage it writes: a backward walk over the steps keeps the
// set of storages whose contents matter. Storage granularity is conservative.
std::vector<std::string> Runner::valueReasons() {
  const size_t n = bundle_.steps.size();
  std::vector<std::string> reasons(n);
  std::vector<std::set<int>> reads(n), writes(n);
  for (size_t i = 0; i < n; ++i) {
    const Step &step = bundle_.steps[i];
    if (step.kind == Step::Kind::Launch) {
      const auto &mutated = step.kernel->metadata.mutatedArgNames;
      for (size_t a = 0; a < step.args.size(); ++a) {
        if (!step.args[a].isTensor)
          continue;
        reads[i].insert(step.args[a].tensor.storage);
        const bool written = mutated.empty() || std::find(mutated.begin(), mutated.end(), step.argNames[a]) != mutated.end();
        if (written)
          writes[i].insert(step.args[a].tensor.storage);
      }
      const ir::Function &function = lowered(step);
      std::map<std::string, int64_t> scalars;
      const std::vector<reference::Argument> args = launchArguments(step, function);
      for (size_t p = 0; p < function.parameters().size(); ++p)
        if (!function.parameters()[p].type.isPointer && function.parameters()[p].type.isIntegerOrBool())
          scalars[function.parameters()[p].name] = args[p].scalar.intValue;
      std::string why;
      if (npu::timingNeedsValues(npu_->kernelFor(step, scalars).program, &why))
        reasons[i] = why;
    } else {
      for (const CallValue &v : step.callArgs)
        addTensors(v, reads[i]);
      for (const auto &o : step.out)
        if (o)
          writes[i].insert(o->storage);
    }
  }
  std::set<int> needed;
  for (size_t k = n; k-- > 0;) {
    if (reasons[k].empty()) {
      for (int s : writes[k])
        if (needed.count(s)) {
          reasons[k] = "a later step that computes values reads storage " + std::to_string(s);
          break;
        }
    }
    if (!reasons[k].empty())
      needed.insert(reads[k].begin(), reads[k].end());
  }
  return reasons;
}

} // namespace npusim::runtime
