// The planned kernels compiled for the NPU (compiler::compile) and executed by
// the functional simulator, against the host calls: the bundles' calls
// exactly as spelled on the default machine, and calls of every family with
// ragged sizes on the 8-lane edge machine.
#include "library/bundle_calls.h"

#include <gtest/gtest.h>

#include <cstdio>

namespace npusim::library {
namespace {

using harness::CallFixture;
using C = CallFixture;
using core::DType;

// The functional simulator runs about ten million multiply-accumulates a
// second; the calls above this many are left to the interpreter tests.
constexpr int64_t kMacLimit = 1'000'000;

TEST(LibraryNpuValues, BundleCallsOnTheDefaultMachine) {
  const config::HardwareConfig machine = config::defaultConfig();
  std::vector<harness::BundleCall> calls = harness::bundleCalls();
  int64_t run = 0, macs = 0, instructions = 0;
  double seconds = 0;
  for (harness::BundleCall &call : calls) {
    if (call.macs > kMacLimit)
      continue;
    call.fixture.useNpu(machine);
    harness::RunStats stats;
    EXPECT_EQ(call.fixture.compare(call.op, call.args, call.outs, {}, {}, &stats), "") << call.label;
    ++run;
    macs += call.macs;
    instructions += stats.instructions;
    seconds += stats.kernelSeconds;
  }
  std::printf("%lld of %zu calls on %s, %.1f M MACs: %lld NPU instructions, compile + simulate %.2f s\n",
              static_cast<long long>(run), calls.size(), machine.name.c_str(), static_cast<double>(macs) / 1e6,
              static_cast<long long>(instructions), seconds);
}

CallArgument tensorArg(const TensorRef &t) {
  return CallFixture::arg(t);
}

TEST(LibraryNpuValues, EveryFamilyOnTheEdgeMachine) {
  // 8 lanes with 32 KiB each: blocks of 16 (the smallest tile side) spread
  // over two lane groups, and ragged sizes everywhere.
  const config::HardwareConfig edge = config::loadConfig("edge-8lane");
  {
    CallFixture f;
    f.useNpu(edge);
    const TensorRef self = f.tensor(DType::Float32, {29});
    const TensorRef a = f.tensor(DType::Float32, {37, 45});
    const TensorRef b = f.tensor(DType::Float32, {45, 29}, {1, 45});
    const TensorRef out = f.tensor(DType::Float32, {37, 29});
    EXPECT_EQ(f.compare("aten.addmm", {tensorArg(self), tensorArg(a), tensorArg(b), C::number(0.5), C::number(-2.0)},
                        {out}),
              "");
  }
  {
    CallFixture f;
    f.useNpu(edge);
    const TensorRef a = f.tensor(DType::Float16, {3, 19, 33});
    const TensorRef b = f.tensor(DType::Float16, {3, 33, 21});
    const TensorRef out = f.tensor(DType::Float16, {3, 19, 21});
    EXPECT_EQ(f.compare("aten.bmm", {tensorArg(a), tensorArg(b)}, {out}), "");
  }
  {
    // Grouped, strided, padded, dilated, with bias; channels-last input.
    CallFixture f;
    f.useNpu(edge);
    const TensorRef x = f.tensor(DType::Float32, {2, 6, 11, 9}, {594, 1, 54, 6});
    const TensorRef w = f.tensor(DType::Float32, {10, 3, 3, 2});
    const TensorRef bias = f.tensor(DType::Float32, {10});
    const TensorRef y = f.tensor(DType::Float32, {2, 10, 5, 5});
    EXPECT_EQ(f.compare("aten.convolution",
                        {tensorArg(x), tensorArg(w), tensorArg(bias), C::integers({2, 2}), C::integers({1, 1}),
                         C::integers({2, 1}), C::boolean(false), C::integers({0, 0}), C::integer(2)},
                        {y}),
              "");
  }
  {
    // NCHW input and weights (pixels contiguous: the input tile loads transposed).
    CallFixture f;
    f.useNpu(edge);
    const TensorRef x = f.tensor(DType::Float32, {1, 20, 7, 13});
    const TensorRef w = f.tensor(DType::Float32, {18, 20, 3, 3});
    const TensorRef y = f.tensor(DType::Float32, {1, 18, 7, 13});
    EXPECT_EQ(f.compare("aten.convolution",
                        {tensorArg(x), tensorArg(w), C::none(), C::integers({1, 1}), C::integers({1, 1}),
                         C::integers({1, 1}), C::boolean(false), C::integers({0, 0}), C::integer(1)},
                        {y}),
              "");
  }
  {
    // Depthwise with a channel multiplier of 2.
    CallFixture f;
    f.useNpu(edge);
    const TensorRef x = f.tensor(DType::Float32, {1, 12, 9, 10});
    const TensorRef w = f.tensor(DType::Float32, {24, 1, 3, 3});
    const TensorRef y = f.tensor(DType::Float32, {1, 24, 5, 5});
    EXPECT_EQ(f.compare("aten.convolution",
                        {tensorArg(x), tensorArg(w), C::none(), C::integers({2, 2}), C::integers({1, 1}),
                         C::integers({1, 1}), C::boolean(false), C::integers({0, 0}), C::integer(12)},
                        {y}),
              "");
  }
  {
    // GQA, causal, boolean mask, padded logsumexp.
    CallFixture f;
    f.useNpu(edge);
    const TensorRef q = f.tensor(DType::Float32, {1, 4, 21, 12});
    const TensorRef k = f.tensor(DType::Float32, {1, 2, 19, 12});
    const TensorRef v = f.tensor(DType::Float32, {1, 2, 19, 10});
    const TensorRef mask = f.tensor(DType::Bool, {21, 19});
    const TensorRef out = f.tensor(DType::Float32, {1, 4, 21, 10});
    const TensorRef lse = f.tensor(DType::Float32, {1, 4, 32});
    EXPECT_EQ(f.compare("aten._scaled_dot_product_efficient_attention",
                        {tensorArg(q), tensorArg(k), tensorArg(v), tensorArg(mask), C::boolean(true), C::number(0.0),
                         C::boolean(true)},
                        {out, lse}),
              "");
  }
  {
    CallFixture f;
    f.useNpu(edge);
    const TensorRef self = f.tensor(DType::Float32, {3, 23, 5});
    const TensorRef values = f.tensor(DType::Float32, {3, 4, 5});
    const TensorRef indices = f.tensor(DType::Int64, {3, 4, 5});
    EXPECT_EQ(f.compare("aten.topk", {tensorArg(self), C::integer(4), C::integer(1), C::boolean(false)},
                        {values, indices}),
              "");
  }
}

} // namespace
} // namespace npusim::library
