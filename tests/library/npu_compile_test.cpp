// The planned kernels through the NPU compiler: every launch of every library
// call of the committed bundles compiles for every machine preset, and its
// scratchpad plan fits half of one lane's bank (the block sizes planCall derives from
// the machine shape must leave room for the tiles the compiler adds).
#include "library/bundle_calls.h"

#include "compiler/compiler.h"
#include "config/hardware.h"
#include "triton/frontend.h"

#include <gtest/gtest.h>

#include <map>

namespace npusim::library {
namespace {

MachineShape shapeOf(const config::HardwareConfig &hw) {
  return MachineShape{hw.lanes, hw.spadBytesPerLane(), hw.vlenBits};
}

TEST(LibraryNpu, EveryBundleCallCompilesForEveryPreset) {
  const std::vector<harness::BundleCall> calls = harness::bundleCalls();
  ASSERT_GE(calls.size(), 80u);
  for (const std::string &preset : config::presetNames()) {
    const config::HardwareConfig hw = config::loadConfig(preset);
    std::map<std::string, int64_t> compiled; // kernel + constexprs -> scratchpad bytes per lane
    int64_t launches = 0, peak = 0;
    for (const harness::BundleCall &call : calls) {
      std::vector<const TensorRef *> outs;
      for (const auto &o : call.outs)
        outs.push_back(o ? &*o : nullptr);
      CallPlan plan;
      ASSERT_NO_THROW(plan = planCall(call.op, call.args, outs, shapeOf(hw))) << preset << ": " << call.label;
      for (const KernelLaunch &launch : plan.launches) {
        ++launches;
        std::string key = launch.kernelName;
        triton::ConstexprBindings bindings;
        for (const auto &[name, value] : launch.constexprs) {
          bindings[name] = value;
          key += " " + name + "=" + std::to_string(value);
        }
        if (compiled.count(key))
          continue;
        try {
          const triton::KernelFile file = triton::loadKernel(launch.source, launch.kernelName + ".py");
          const npu::Program program = compiler::compile(*triton::lowerKernel(file, bindings), hw);
          // Half the bank: the other half holds the next program instance (double buffering).
          EXPECT_LE(program.spadBytesUsed, hw.spadBytesPerLane() / 2) << preset << ": " << call.label;
          EXPECT_EQ(program.arguments.size(), launch.arguments.size()) << call.label;
          compiled[key] = program.spadBytesUsed;
          peak = std::max(peak, program.spadBytesUsed);
        } catch (const std::exception &e) {
          ADD_FAILURE() << preset << ": " << call.label << ": " << e.what();
          compiled[key] = -1;
        }
      }
    }
    EXPECT_GE(launches, static_cast<int64_t>(calls.size()));
    std::printf("%s: %lld launches, %zu distinct kernels compiled, peak scratchpad %lld of %lld bytes per lane\n",
                preset.c_str(), static_cast<long long>(launches), compiled.size(), static_cast<long long>(peak),
                static_cast<long long>(hw.spadBytesPerLane()));
  }
}

} // namespace
} // namespace npusim::library
