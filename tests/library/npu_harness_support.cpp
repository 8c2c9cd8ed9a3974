// Runs planned launches on an NPU: compiler::compile for the machine, then the
// functional simulator over the same buffers the interpreter would use.
#include "library/plan_harness.h"

#include "compiler/compiler.h"
#include "functional/simulator.h"

#include <chrono>
#include <map>

namespace npusim::library::harness {

RunStats runPlanOnNpu(const CallPlan &plan, std::vector<std::unique_ptr<reference::Buffer>> &buffers,
                      int scratchBase, const config::HardwareConfig &machine) {
  static std::map<std::string, npu::Program> programs; // by machine, kernel and constexprs
  RunStats stats;
  const auto start = std::chrono::steady_clock::now();
  addScratch(plan, buffers, scratchBase);
  std::vector<functional::DramBuffer> dram;
  for (size_t i = 0; i < buffers.size(); ++i)
    if (buffers[i])
      dram.push_back(functional::DramBuffer{"buffer " + std::to_string(i), buffers[i]->dtype,
                                            uint64_t{0x1000000} * (i + 1), &buffers[i]->bytes});
    else
      dram.push_back(functional::DramBuffer{"unused " + std::to_string(i), core::DType::Float32,
                                            uint64_t{0x1000000} * (i + 1), nullptr});
  for (const KernelLaunch &launch : plan.launches) {
    std::string key = machine.name + " " + std::to_string(machine.lanes) + " " +
                      std::to_string(machine.spadKibPerLane) + " " + launch.kernelName;
    for (const auto &[name, value] : launch.constexprs)
      key += " " + name + "=" + std::to_string(value);
    auto it = programs.find(key);
    if (it == programs.end())
      it = programs.emplace(key, compiler::compile(loweredKernel(launch), machine)).first;
    std::vector<functional::LaunchArgument> arguments;
    for (const KernelArgument &k : launch.arguments) {
      functional::LaunchArgument a;
      if (k.isPointer) {
        a.buffer = k.buffer;
        a.elementOffset = k.elementOffset;
      } else {
        a.intValue = k.intValue;
        a.floatValue = k.floatValue;
      }
      arguments.push_back(a);
    }
    const functional::RunStats s =
        functional::run(it->second, functional::Grid{launch.grid[0], launch.grid[1], launch.grid[2]}, dram, arguments);
    stats.programs += s.instances;
    stats.instructions += s.instructions;
    ++stats.launches;
  }
  stats.kernelSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return stats;
}

} // namespace npusim::library::harness
