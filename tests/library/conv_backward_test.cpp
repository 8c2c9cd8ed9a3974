// aten.convolution_backward: the planned implicit-GEMM kernels on the
// interpreter and on the NPU against the host call (itself checked against
// naive loops in tests/runtime/host_calls_training_test.cpp).
#include "config/hardware.h"
#include "core/error.h"
#include "library/plan_harness.h"

#include <gtest/gtest.h>

namespace npusim::library {
namespace {

using core::DType;
using harness::CallFixture;
using C = CallFixture;

struct ConvBackwardCase {
  int64_t n, c, h, w, o, kh, kw, groups, sh, sw, ph, pw, dh, dw;
  bool mask[3];
  bool channelsLast;
};

std::string compareCase(const ConvBackwardCase &k, const std::optional<config::HardwareConfig> &machine) {
  const int64_t oh = (k.h + 2 * k.ph - k.dh * (k.kh - 1) - 1) / k.sh + 1;
  const int64_t ow = (k.w + 2 * k.pw - k.dw * (k.kw - 1) - 1) / k.sw + 1;
  CallFixture f;
  if (machine)
    f.useNpu(*machine);
  // Channels-last strides of a [_, b, y, x] tensor, or row-major (empty).
  auto layout = [&](int64_t b, int64_t y, int64_t x) {
    return k.channelsLast ? std::vector<int64_t>{b * y * x, 1, x * b, b} : std::vector<int64_t>{};
  };
  const int64_t cg = k.c / k.groups;
  const TensorRef gy = f.tensor(DType::Float32, {k.n, k.o, oh, ow}, layout(k.o, oh, ow));
  const TensorRef x = f.tensor(DType::Float32, {k.n, k.c, k.h, k.w}, layout(k.c, k.h, k.w));
  const TensorRef w = f.tensor(DType::Float32, {k.o, cg, k.kh, k.kw}, layout(cg, k.kh, k.kw));
  const TensorRef gx = f.tensor(DType::Float32, {k.n, k.c, k.h, k.w}, layout(k.c, k.h, k.w));
  const TensorRef gw = f.tensor(DType::Float32, {k.o, cg, k.kh, k.kw}, layout(cg, k.kh, k.kw));
  const TensorRef gb = f.tensor(DType::Float32, {k.o});
  const std::vector<CallArgument> args = {C::arg(gy),
                                          C::arg(x),
                                          C::arg(w),
                                          C::integers({k.o}),
                                          C::integers({k.sh, k.sw}),
                                          C::integers({k.ph, k.pw}),
                                          C::integers({k.dh, k.dw}),
                                          C::boolean(false),
                                          C::integers({0, 0}),
                                          C::integer(k.groups),
                                          CallArgument{}};
  std::vector<CallArgument> withMask = args;
  CallArgument mask;
  mask.kind = core::CallKind::List;
  for (bool b : k.mask)
    mask.list.push_back(C::boolean(b));
  withMask.back() = mask;
  return f.compare("aten.convolution_backward", withMask, {gx, gw, gb});
}

TEST(LibraryConvolutionBackward, GroupsStridePaddingDilationEverywhere) {
  const std::vector<ConvBackwardCase> cases = {
      {2, 3, 6, 5, 4, 3, 3, 1, 1, 1, 1, 1, 1, 1, {true, true, true}, false},
      {2, 4, 7, 6, 6, 3, 2, 2, 2, 1, 1, 0, 1, 2, {true, true, true}, true},
      {1, 4, 8, 8, 8, 3, 3, 4, 2, 2, 1, 1, 1, 1, {true, true, false}, false}, // depthwise, multiplier 2
      {2, 2, 9, 9, 3, 2, 2, 1, 3, 3, 0, 0, 1, 1, {true, false, true}, false}, // input pixels no output reads
      {2, 6, 7, 9, 6, 3, 3, 6, 2, 1, 1, 2, 1, 2, {true, true, true}, true},   // depthwise, stride (2, 1),
                                                                              // dilation (1, 2)
  };
  const std::vector<std::optional<config::HardwareConfig>> machines = {std::nullopt,
                                                                       config::loadConfig("edge-8lane")};
  for (const auto &machine : machines)
    for (size_t i = 0; i < cases.size(); ++i)
      EXPECT_EQ(compareCase(cases[i], machine), "")
          << "case " << i << (machine ? " on " + machine->name : " on the interpreter");
}

TEST(LibraryConvolutionBackward, OneSpatialAxis) {
  // [N, C, L] with stride 2, padding 2, dilation 2, two groups: a 2-d convolution of height 1.
  CallFixture f;
  f.useNpu(config::loadConfig("edge-8lane"));
  const int64_t n = 2, c = 4, l = 11, o = 6, k = 3, ol = (l + 4 - 2 * (k - 1) - 1) / 2 + 1;
  const TensorRef gy = f.tensor(DType::Float32, {n, o, ol});
  const TensorRef x = f.tensor(DType::Float32, {n, c, l});
  const TensorRef w = f.tensor(DType::Float32, {o, c / 2, k});
  const TensorRef gx = f.tensor(DType::Float32, {n, c, l});
  const TensorRef gw = f.tensor(DType::Float32, {o, c / 2, k});
  const TensorRef gb = f.tensor(DType::Float32, {o});
  CallArgument mask;
  mask.kind = core::CallKind::List;
  mask.list = {C::boolean(true), C::boolean(true), C::boolean(true)};
  EXPECT_EQ(f.compare("aten.convolution_backward",
                      {C::arg(gy), C::arg(x), C::arg(w), C::integers({o}), C::integers({2}), C::integers({2}),
                       C::integers({2}), C::boolean(false), C::integers({0}), C::integer(2), mask},
                      {gx, gw, gb}),
            "");
}

TEST(LibraryConvolutionBackward, ResNetShapedOnTheDefaultMachine) {
  // A stride-2 3x3 convolution with padding 1 on an even input (the last input row is read by no output).
  EXPECT_EQ(compareCase({2, 16, 8, 8, 32, 3, 3, 1, 2, 2, 1, 1, 1, 1, {true, true, true}, true},
                        config::defaultConfig()),
            "");
}

} // namespace
} // namespace npusim::library
