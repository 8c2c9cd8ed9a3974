// The planned kernels through the NPU compiler: every launch of every library
// call of the committed bundles compiles for every machine preset, and its
// scratchpad plan fits half of one lane's bank (the block sizes planCall derives from
// the machine shape must leave room for the tiles the compiler adds).
#include "library/bundle_calls.h"
#include "library/plan_harness.h"

#include "compiler/compiler.h"
#include "config/hardware.h"
#include "triton/frontend.h"

#include <gtest/gtest.h>

#include <map>
#include <tuple>

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

/// The instructions of `body` and its nested bodies with `opcode`.
int64_t countOpcode(const std::vector<npu::Instruction> &body, npu::Opcode opcode) {
  int64_t n = 0;
  for (const npu::Instruction &i : body)
    n += (i.opcode == opcode) + countOpcode(i.body, opcode) + countOpcode(i.elseBody, opcode);
  return n;
}

TEST(LibraryNpu, RaggedGemmTilesMaskWithoutCrossLaneBroadcasts) {
  // mobilenet_v2's 1x1 convolution 32 -> 16 at 112 x 112 as a GEMM: 12,544
  // rows are not a multiple of BLOCK_M, so the tiles are masked. A row mask
  // made as a [BLOCK_M] vector and stretched across the lanes of a [BLOCK_M,
  // BLOCK_K] operand (K on the lanes) costs an x.relayout and an x.broadcast
  // of BLOCK_M slots per load and per store: 55.7 k cycles for this call on
  // tpuv3-like against 22.4 k with the masks made in the tiles' own layout.
  harness::CallFixture f;
  const TensorRef a = f.tensor(core::DType::Float32, {12544, 32});
  const TensorRef b = f.tensor(core::DType::Float32, {32, 16}, {1, 32});
  const TensorRef c = f.tensor(core::DType::Float32, {12544, 16});
  const std::vector<const TensorRef *> outs = {&c};
  const config::HardwareConfig hw = config::loadConfig("tpuv3-like");
  const CallPlan plan = planCall("aten.mm", std::vector<CallArgument>{harness::CallFixture::arg(a),
                                                                     harness::CallFixture::arg(b)},
                                 outs, shapeOf(hw));
  ASSERT_EQ(plan.launches.size(), 1u);
  const KernelLaunch &launch = plan.launches[0];
  triton::ConstexprBindings bindings;
  for (const auto &[name, value] : launch.constexprs) {
    bindings[name] = value;
    if (name == "FULL_TILES") {
      ASSERT_EQ(value, 0);
    }
  }
  const triton::KernelFile file = triton::loadKernel(launch.source, launch.kernelName + ".py");
  const npu::Program program = compiler::compile(*triton::lowerKernel(file, bindings), hw);
  EXPECT_EQ(countOpcode(program.body, npu::Opcode::XBroadcast), 0) << launch.kernelName;
}

/// The instructions with `opcode` inside loop bodies of `body`.
int64_t countInLoops(const std::vector<npu::Instruction> &body, npu::Opcode opcode) {
  int64_t n = 0;
  for (const npu::Instruction &i : body)
    n += i.opcode == npu::Opcode::Loop ? countOpcode(i.body, opcode)
                                       : countInLoops(i.body, opcode) + countInLoops(i.elseBody, opcode);
  return n;
}

TEST(LibraryNpu, DepthwiseBlocksStretchNothingAcrossTheLanes) {
  // mobilenet_v2's depthwise 3x3 convolutions, 144 channels at 56 x 56
  // (stride 1, the row form) and 96 channels at 112 x 112 (stride 2): the
  // tiles have the pixels on the lanes, so every kernel position's weights
  // and the channel bounds, channel vectors, are stretched across the lanes
  // once per program, outside the loop over blocks of pixels (per block they
  // took 246 k and 134 k cycles on tpuv3-like, 83.5 k and 87.5 k once).
  const config::HardwareConfig hw = config::loadConfig("tpuv3-like");
  for (const auto &[channels, size, stride] : {std::tuple<int64_t, int64_t, int64_t>{144, 56, 1}, {96, 112, 2}}) {
    harness::CallFixture f;
    const int64_t out = (size + 2 - 3) / stride + 1;
    const TensorRef x = f.tensor(core::DType::Float32, {1, channels, size, size},
                                 {size * size * channels, 1, size * channels, channels});
    const TensorRef w = f.tensor(core::DType::Float32, {channels, 1, 3, 3});
    const TensorRef y = f.tensor(core::DType::Float32, {1, channels, out, out},
                                 {out * out * channels, 1, out * channels, channels});
    const std::vector<const TensorRef *> outs = {&y};
    const CallPlan plan = planCall(
        "aten.convolution",
        std::vector<CallArgument>{harness::CallFixture::arg(x), harness::CallFixture::arg(w),
                                  harness::CallFixture::none(), harness::CallFixture::integers({stride, stride}),
                                  harness::CallFixture::integers({1, 1}), harness::CallFixture::integers({1, 1}),
                                  harness::CallFixture::boolean(false), harness::CallFixture::integers({0, 0}),
                                  harness::CallFixture::integer(channels)},
        outs, shapeOf(hw));
    ASSERT_EQ(plan.launches.size(), 1u);
    const KernelLaunch &launch = plan.launches[0];
    triton::ConstexprBindings bindings;
    for (const auto &[name, value] : launch.constexprs)
      bindings[name] = value;
    const triton::KernelFile file = triton::loadKernel(launch.source, launch.kernelName + ".py");
    const npu::Program program = compiler::compile(*triton::lowerKernel(file, bindings), hw);
    EXPECT_EQ(countInLoops(program.body, npu::Opcode::XBroadcast), 0) << launch.kernelName;
    EXPECT_EQ(countInLoops(program.body, npu::Opcode::XRelayout), 0) << launch.kernelName;
    EXPECT_GT(countOpcode(program.body, npu::Opcode::Loop), 0) << launch.kernelName;
  }
}

} // namespace
} // namespace npusim::library
