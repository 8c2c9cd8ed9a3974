// Recording what one request of a tenant executes: the bundle run once, its
// launches' programs copied and their instance traces pointed at the copies.
#include "core/error.h"
#include "runtime/loader.h"
#include "runtime/runner.h"
#include "runtime/tokens.h"
#include "serving/serving.h"

#include <algorithm>
#include <unordered_map>

namespace npusim::serving {
namespace {

/// Maps every instruction of `from` (loop and branch bodies included) to the
/// one at the same place in `to`, a copy of it.
void mapInstructions(const std::vector<npu::Instruction> &from, const std::vector<npu::Instruction> &to,
                     std::unordered_map<const npu::Instruction *, const npu::Instruction *> &map) {
  for (size_t i = 0; i < from.size(); ++i) {
    map.emplace(&from[i], &to[i]);
    mapInstructions(from[i].body, to[i].body, map);
    mapInstructions(from[i].elseBody, to[i].elseBody, map);
  }
}

} // namespace

Workload captureBundle(const std::string &bundleDir, const config::HardwareConfig &machine, bool values,
                       const std::function<void(size_t, size_t, const std::string &)> &onStep) {
  const runtime::Bundle bundle = runtime::loadBundle(bundleDir);
  Workload workload;
  workload.values = values ? "verified" : "cycles only";
  std::unordered_map<const npu::Program *, int> programOf;
  std::vector<std::unordered_map<const npu::Instruction *, const npu::Instruction *>> instructionMaps;

  runtime::RunOptions options;
  options.mode = values ? runtime::Mode::Full : runtime::Mode::Timing;
  options.verify = values;
  options.machine = machine;
  options.threads = 1;
  options.onStep = onStep;
  options.launchSink = [&](const npu::Program &program, std::vector<npu::InstanceTrace> &&traces,
                           const std::string &name) {
    auto [found, added] = programOf.emplace(&program, static_cast<int>(workload.programs.size()));
    if (added) {
      workload.programs.push_back(std::make_unique<npu::Program>(program));
      instructionMaps.emplace_back();
      mapInstructions(program.body, workload.programs.back()->body, instructionMaps.back());
    }
    const auto &map = instructionMaps[static_cast<size_t>(found->second)];
    for (npu::InstanceTrace &trace : traces)
      for (npu::ExecutedInstruction &executed : trace.instructions) {
        const auto to = map.find(executed.instruction);
        if (to == map.end())
          throw core::RuntimeError(bundleDir + ": launch " + name +
                                   ": a traced instruction is not in its program");
        executed.instruction = to->second;
        for (const npu::DramRun &run : executed.dram)
          workload.dramBytes = std::max(workload.dramBytes, run.address + run.bytes);
      }
    std::stable_sort(
        traces.begin(), traces.end(),
        [](const npu::InstanceTrace &a, const npu::InstanceTrace &b) { return a.instance < b.instance; });
    workload.launches.push_back(Workload::Launch{found->second, name, std::move(traces)});
  };
  const runtime::RunReport report = runtime::runBundle(bundle, options);
  if (!report.completed || (values && !report.verified))
    throw core::RuntimeError(bundleDir + ": the bundle did not run" + (values ? " and verify" : "") + ": " +
                             report.failure);
  if (workload.launches.empty())
    throw core::InputError(bundleDir + ": the bundle launches nothing on the NPU");
  if (const std::optional<runtime::LanguageModelTokens> lm = runtime::languageModelTokens(bundle))
    workload.tokensPerRequest = lm->tokens();
  return workload;
}

} // namespace npusim::serving
