// aten.convolution: the implicit-GEMM and depthwise kernels, run on the
// reference interpreter, against the host call's im2col convolution in
// double, for the layers of the committed bundles (resnet18, mobilenet_v2, vit;
// channels-last as they are) and for random geometries, groups and layouts.
#include "library/plan_harness.h"

#include "core/error.h"

#include <gtest/gtest.h>

#include <map>
#include <optional>

namespace npusim::library {
namespace {

using core::DType;
using harness::CallFixture;

/// Channels-last strides of an [N, C, H, W] (or [O, I, KH, KW]) tensor.
std::vector<int64_t> channelsLast(const std::vector<int64_t> &s) {
  return {s[1] * s[2] * s[3], 1, s[3] * s[1], s[1]};
}

struct Conv {
  std::vector<int64_t> input, weight; // [N, C, H, W], [O, C / groups, KH, KW]
  int64_t stride = 1, padding = 0, groups = 1, dilation = 1;
  bool channelsLastLayout = true, bias = false;
  DType dtype = DType::Float32;
};

/// aten.convolution's arguments: x, w, bias (an argument: a tensor or
/// none), stride, padding, dilation, not transposed, no output padding, groups.
std::vector<CallArgument> convolutionArgs(const TensorRef &x, const TensorRef &w, const CallArgument &bias,
                                          std::vector<int64_t> stride, std::vector<int64_t> padding,
                                          std::vector<int64_t> dilation, int64_t groups) {
  return {CallFixture::arg(x),
          CallFixture::arg(w),
          bias,
          CallFixture::integers(std::move(stride)),
          CallFixture::integers(std::move(padding)),
          CallFixture::integers(std::move(dilation)),
          CallFixture::boolean(false),
          CallFixture::integers({0, 0}),
          CallFixture::integer(groups)};
}

std::vector<int64_t> outputShape(const Conv &c) {
  std::vector<int64_t> out = {c.input[0], c.weight[0]};
  for (size_t a = 2; a < c.input.size(); ++a)
    out.push_back((c.input[a] + 2 * c.padding - c.dilation * (c.weight[a] - 1) - 1) / c.stride + 1);
  return out;
}

std::string describe(const Conv &c) {
  std::string s = "input [";
  for (int64_t v : c.input)
    s += std::to_string(v) + " ";
  s += "] weight [";
  for (int64_t v : c.weight)
    s += std::to_string(v) + " ";
  return s + "] stride " + std::to_string(c.stride) + " padding " + std::to_string(c.padding) + " dilation " +
         std::to_string(c.dilation) + " groups " + std::to_string(c.groups);
}

void expectConv(const Conv &c, const MachineShape &machine = {}, harness::RunStats *stats = nullptr) {
  CallFixture f;
  const bool cl = c.channelsLastLayout && c.input.size() == 4;
  const std::vector<int64_t> outShape = outputShape(c);
  const TensorRef x = f.tensor(c.dtype, c.input, cl ? channelsLast(c.input) : std::vector<int64_t>{});
  const TensorRef w = f.tensor(c.dtype, c.weight, cl ? channelsLast(c.weight) : std::vector<int64_t>{});
  const TensorRef y = f.tensor(c.dtype, outShape, cl ? channelsLast(outShape) : std::vector<int64_t>{});
  const size_t spatial = c.input.size() - 2;
  CallArgument bias = CallFixture::none();
  if (c.bias)
    bias = CallFixture::arg(f.tensor(c.dtype, {c.weight[0]}));
  const std::vector<CallArgument> args = {CallFixture::arg(x),
                                          CallFixture::arg(w),
                                          bias,
                                          CallFixture::integers(std::vector<int64_t>(spatial, c.stride)),
                                          CallFixture::integers(std::vector<int64_t>(spatial, c.padding)),
                                          CallFixture::integers(std::vector<int64_t>(spatial, c.dilation)),
                                          CallFixture::boolean(false),
                                          CallFixture::integers(std::vector<int64_t>(spatial, 0)),
                                          CallFixture::integer(c.groups)};
  EXPECT_EQ(f.compare("aten.convolution", args, {y}, machine, {}, stats), "") << describe(c);
}

TEST(LibraryConv, LargestResnet18Layers) {
  // The layers above 40 million multiply-accumulates, which LibraryBundleCalls
  // leaves out: the 7x7 stem and a strided 3x3 at their bundle sizes, the
  // 3x3 stage layers at a quarter of their extent.
  expectConv({{1, 3, 224, 224}, {64, 3, 7, 7}, 2, 3});
  expectConv({{1, 128, 28, 28}, {256, 128, 3, 3}, 2, 1});
  expectConv({{1, 64, 14, 14}, {64, 64, 3, 3}, 1, 1});
  expectConv({{1, 512, 4, 4}, {512, 512, 3, 3}, 1, 1});
}

/// Numerical Recipes' LCG for test parameters.
struct ConvRandom {
  uint32_t state;
  int64_t below(int64_t n) {
    state = state * 1664525u + 1013904223u;
    return static_cast<int64_t>((state >> 8) % static_cast<uint32_t>(n));
  }
};

TEST(LibraryConv, RandomGeometriesGroupsAndLayouts) {
  const MachineShape small{16, 2048, 256};
  ConvRandom rng{11};
  for (int trial = 0; trial < 24; ++trial) {
    Conv c;
    const int64_t groupChoices[] = {1, 1, 2, 3};
    c.groups = groupChoices[rng.below(4)];
    const bool depthwise = trial % 5 == 4;
    const int64_t cinG = depthwise ? 1 : 1 + rng.below(20), coutG = 1 + rng.below(depthwise ? 3 : 20);
    if (depthwise)
      c.groups = 2 + rng.below(30);
    const int64_t kh = 1 + rng.below(4), kw = 1 + rng.below(4);
    c.stride = 1 + rng.below(3);
    c.padding = rng.below(3);
    c.dilation = 1 + rng.below(2);
    c.bias = rng.below(2) == 1;
    c.channelsLastLayout = rng.below(2) == 1;
    const int64_t h = c.dilation * (kh - 1) + 1 + rng.below(14),
                  w = c.dilation * (kw - 1) + 1 + rng.below(14);
    c.input = {1 + rng.below(2), cinG * c.groups, h, w};
    c.weight = {coutG * c.groups, cinG, kh, kw};
    if (trial % 6 == 5) { // 1-d
      c.input = {c.input[0], c.input[1], w};
      c.weight = {c.weight[0], cinG, kw};
    }
    expectConv(c, trial % 2 ? small : MachineShape{});
  }
}

/// The launch of a channels-last batch-1 3x3 convolution, pad 1, at `size` x
/// `size` on the default machine.
KernelLaunch sameSize3x3Launch(int64_t size, int64_t cin, int64_t cout) {
  CallFixture f;
  const TensorRef x = f.tensor(DType::Float32, {1, cin, size, size}, channelsLast({1, cin, size, size}));
  const TensorRef w = f.tensor(DType::Float32, {cout, cin, 3, 3}, channelsLast({cout, cin, 3, 3}));
  const TensorRef y = f.tensor(DType::Float32, {1, cout, size, size}, channelsLast({1, cout, size, size}));
  const std::vector<const TensorRef *> outs = {&y};
  const CallPlan plan =
      planCall("aten.convolution", convolutionArgs(x, w, CallFixture::none(), {1, 1}, {1, 1}, {1, 1}, 1),
               outs, MachineShape{});
  EXPECT_EQ(plan.launches.size(), 1u);
  return plan.launches.empty() ? KernelLaunch{} : plan.launches[0];
}

TEST(LibraryConv, SameSizeStrideOneConvolutionsLoadKernelRowsByDma) {
  // Channels-last, stride 1, padding dilation * (k - 1) / 2: the output keeps
  // the input's size, so each kernel row's im2col tile is one strided DMA
  // (the row kernel); batches, bias, dilation, ragged channel counts and a
  // reduction longer than one block of (kernel column, channel), on the
  // default machine and on 16 lanes with 2 KiB each.
  const MachineShape small{16, 2048, 256};
  const std::vector<Conv> cases = {
      {{2, 6, 9, 7}, {5, 6, 3, 3}, 1, 1, 1, 1, true, true},
      {{1, 40, 6, 5}, {20, 40, 5, 5}, 1, 2},
      {{1, 3, 12, 10}, {7, 3, 3, 3}, 1, 2, 1, 2, true, true},
      {{1, 64, 9, 9}, {64, 64, 3, 3}, 1, 1},
      // Even widths: several output pixels per tile row (banded weights),
      // two images, bias, output channels that are not a power of two.
      {{2, 16, 6, 8}, {16, 16, 3, 3}, 1, 1, 1, 1, true, true},
      {{1, 64, 5, 12}, {64, 64, 3, 3}, 1, 1, 1, 1, true, false},
      {{1, 12, 7, 4}, {10, 12, 3, 3}, 1, 1, 1, 1, true, true},
      {{1, 8, 6, 10}, {32, 8, 5, 5}, 1, 2, 1, 1, true, true},
  };
  for (const Conv &c : cases) {
    expectConv(c);
    expectConv(c, small);
  }
  // The planned kernel is the row kernel (not the gather), and a strided
  // convolution of the same channels is not.
  CallFixture f;
  const TensorRef x = f.tensor(DType::Float32, {1, 8, 6, 6}, channelsLast({1, 8, 6, 6}));
  const TensorRef w = f.tensor(DType::Float32, {4, 8, 3, 3}, channelsLast({4, 8, 3, 3}));
  const TensorRef same = f.tensor(DType::Float32, {1, 4, 6, 6}, channelsLast({1, 4, 6, 6}));
  const TensorRef half = f.tensor(DType::Float32, {1, 4, 3, 3}, channelsLast({1, 4, 3, 3}));
  auto kernel = [&](const TensorRef &y, int64_t stride) {
    const std::vector<const TensorRef *> outs = {&y};
    const CallPlan p = planCall(
        "aten.convolution", convolutionArgs(x, w, CallFixture::none(), {stride, stride}, {1, 1}, {1, 1}, 1),
        outs, MachineShape{});
    return p.launches.empty() ? std::string() : p.launches[0].kernelName;
  };
  EXPECT_EQ(kernel(same, 1).rfind("npusim_conv_rows_", 0), 0u) << kernel(same, 1);
  EXPECT_NE(kernel(half, 2).rfind("npusim_conv_rows_", 0), 0u) << kernel(half, 2);
  // ResNet-18's 56 x 56 x 64 -> 64: with one pixel per tile row each input
  // element is read 3 x 3 = 9 times (7.2 MB); with PIX pixels per row
  // (PIX + 2) / PIX x 3 times, and the 64 output channels of PIX pixels
  // fill more of the arrays' columns. With interleaved row blocks (block i
  // of a program covering output rows i + BLOCKS k) the blocks' kernel rows
  // share their input tiles, so a program of 7 blocks loads 7 + 2 tiles
  // instead of 7 x 3. The plan takes the strided form's interleaved blocks
  // with several pixels per row.
  const std::string name56 = sameSize3x3Launch(56, 64, 64).kernelName;
  EXPECT_EQ(name56.rfind("npusim_conv_strided_rows_", 0), 0u) << name56;
  EXPECT_NE(name56.find("_p2_i_"), std::string::npos) << name56;
}

/// The plan of a channels-last convolution with per-axis padding and
/// dilation, and the fixture's comparison of it with the host call.
struct PlannedConv {
  std::vector<KernelLaunch> launches;
  std::string mismatch;
};

PlannedConv planAndCompare(const std::vector<int64_t> &input, const std::vector<int64_t> &weight,
                           const std::vector<int64_t> &padding, const std::vector<int64_t> &dilation,
                           const std::optional<config::HardwareConfig> &npu) {
  CallFixture f;
  if (npu)
    f.useNpu(*npu);
  const std::vector<int64_t> out = {input[0], weight[0], input[2], input[3]};
  const TensorRef x = f.tensor(DType::Float32, input, channelsLast(input));
  const TensorRef w = f.tensor(DType::Float32, weight, channelsLast(weight));
  const TensorRef y = f.tensor(DType::Float32, out, channelsLast(out));
  const std::vector<CallArgument> args = {CallFixture::arg(x),
                                          CallFixture::arg(w),
                                          CallFixture::none(),
                                          CallFixture::integers({1, 1}),
                                          CallFixture::integers(padding),
                                          CallFixture::integers(dilation),
                                          CallFixture::boolean(false),
                                          CallFixture::integers({0, 0}),
                                          CallFixture::integer(1)};
  const std::vector<const TensorRef *> outs = {&y};
  const MachineShape shape =
      npu ? MachineShape{npu->lanes, npu->spadBytesPerLane(), npu->vlenBits} : MachineShape{};
  return {planCall("aten.convolution", args, outs, shape).launches,
          f.compare("aten.convolution", args, {y}, shape)};
}

/// The plan of `c` (fp32, channels-last, no bias) on `machine`.
CallPlan planChannelsLast(const Conv &c, const MachineShape &machine) {
  CallFixture f;
  const TensorRef x = f.tensor(DType::Float32, c.input, channelsLast(c.input));
  const TensorRef w = f.tensor(DType::Float32, c.weight, channelsLast(c.weight));
  const std::vector<int64_t> out = outputShape(c);
  const TensorRef y = f.tensor(DType::Float32, out, channelsLast(out));
  const std::vector<const TensorRef *> outs = {&y};
  return planCall("aten.convolution",
                  std::vector<CallArgument>{CallFixture::arg(x), CallFixture::arg(w), CallFixture::none(),
                                            CallFixture::integers({c.stride, c.stride}),
                                            CallFixture::integers({c.padding, c.padding}),
                                            CallFixture::integers({c.dilation, c.dilation}),
                                            CallFixture::boolean(false), CallFixture::integers({0, 0}),
                                            CallFixture::integer(1)},
                  outs, machine);
}

TEST(LibraryConv, KernelRowLoopCarriesItsAccumulators) {
  // On 32 lanes with 64 KiB each, these row convolutions have enough
  // dots per kernel row for the loop over kernel rows (one accumulator per
  // row block and block of j, carried by the loop): two images (the pixel's
  // offset in its image by a remainder), row blocks past the last pixel,
  // output channels short of BLOCK_N, a last block of j past KWC, bias,
  // several programs, two pixels per tile row (banded weights) and one.
  const MachineShape machine{32, 65536, 256};
  const std::vector<Conv> cases = {
      {{2, 16, 14, 14}, {30, 16, 3, 3}, 1, 1, 1, 1, true, true},
      {{1, 64, 14, 14}, {64, 64, 3, 3}, 1, 1},
      {{1, 40, 20, 20}, {48, 40, 3, 3}, 1, 1, 1, 1, true, true},
      {{2, 24, 10, 10}, {16, 24, 5, 5}, 1, 2},
      // A 7x7 stride-2 stem of two images: the strided pixels' box rows.
      {{2, 3, 48, 48}, {16, 3, 7, 7}, 2, 3, 1, 1, true, true},
  };
  for (const Conv &c : cases) {
    const CallPlan plan = planChannelsLast(c, machine);
    ASSERT_EQ(plan.launches.size(), 1u) << describe(c);
    EXPECT_NE(plan.launches[0].source.find("for kh in range("), std::string::npos)
        << describe(c) << ": " << plan.launches[0].kernelName;
    expectConv(c, machine);
  }
}

TEST(LibraryConv, InterleavedRowBlocksShareTheirInputTiles) {
  // Convolutions on the default machine whose plan is the strided form's
  // interleaved blocks (`_i`): block i of a program covers output
  // rows oh0 + i + BLOCKS k, its kernel row kh reads the tile that block i +
  // DIL_H read one kernel row earlier, loaded once. Padding that
  // keeps the size and none (28 of 30 rows), dilation 2 (tiles passed two
  // blocks on), 5x5, strides of 2, two images, bias, output channels short
  // of BLOCK_N; each compared with the host call.
  const std::vector<Conv> cases = {
      {{1, 64, 28, 28}, {64, 64, 3, 3}, 1, 1},
      {{2, 128, 28, 28}, {120, 128, 3, 3}, 1, 1, 1, 1, true, true},
      {{1, 128, 30, 30}, {128, 128, 3, 3}, 1, 0},
      {{1, 64, 28, 28}, {64, 64, 5, 5}, 1, 2, 1, 1, true, true},
      // Stride 2: block i's kernel row kh + 2 reads block i + 1's tile of
      // kernel row kh.
      {{1, 128, 28, 28}, {256, 128, 3, 3}, 2, 1},
      {{1, 3, 112, 112}, {64, 3, 7, 7}, 2, 3, 1, 1, true, true},
  };
  for (const Conv &c : cases) {
    const CallPlan plan = planChannelsLast(c, MachineShape{});
    ASSERT_EQ(plan.launches.size(), 1u) << describe(c);
    EXPECT_NE(plan.launches[0].kernelName.find("_i_"), std::string::npos)
        << describe(c) << ": " << plan.launches[0].kernelName;
    expectConv(c);
  }
  // Dilation 2 along the height only (padding 2 x 1 keeps the size), on
  // the interpreter and compiled for the default NPU.
  for (const auto &npu : {std::optional<config::HardwareConfig>{}, std::optional(config::defaultConfig())}) {
    const PlannedConv dilated = planAndCompare({1, 64, 28, 28}, {64, 64, 3, 3}, {2, 1}, {2, 1}, npu);
    ASSERT_EQ(dilated.launches.size(), 1u);
    EXPECT_NE(dilated.launches[0].kernelName.find("_i_"), std::string::npos)
        << dilated.launches[0].kernelName;
    EXPECT_EQ(dilated.mismatch, "");
  }
}

TEST(LibraryConv, ImplicitGemmStepsDivideTheKBlocksAndWeightsAreMaskedOnlyWhereNeeded) {
  // ResNet-18's 3x3 512 -> 512 at 7 x 7: K = 512 x 9 = 4608. Whatever
  // BLOCK_K the search takes (128, 256 or 512: 36, 18 or 9 blocks), the
  // steps per iteration divide the blocks, so no step of the last iteration
  // lies past K; with 512 output channels in blocks of 128, 256 or 512 and K
  // a multiple of BLOCK_K no weight element is out of range, so the weights
  // load without a mask (no [BLOCK_N, BLOCK_K] mask tile per step).
  const KernelLaunch l = sameSize3x3Launch(7, 512, 512);
  ASSERT_EQ(l.kernelName.rfind("npusim_conv_fp32", 0), 0u) << l.kernelName;
  const int64_t blockK = harness::launchConstant(l, "BLOCK_K");
  EXPECT_EQ(harness::launchConstant(l, "K_TOTAL"), 4608);
  int64_t steps = 0;
  for (size_t at = l.source.find("+= tl.dot("); at != std::string::npos;
       at = l.source.find("+= tl.dot(", at + 1))
    ++steps;
  ASSERT_GT(steps, 1);
  EXPECT_EQ(4608 % blockK, 0);
  EXPECT_EQ((4608 / blockK) % steps, 0) << "BLOCK_K " << blockK << ", " << steps << " steps";
  EXPECT_EQ(l.source.find("mask=n_mask[:, None] & k_mask"), std::string::npos);
  // 500 output channels: the last block of them is ragged, the mask stays.
  const KernelLaunch ragged = sameSize3x3Launch(7, 512, 500);
  EXPECT_NE(ragged.source.find("mask=n_mask[:, None] & k_mask"), std::string::npos) << ragged.kernelName;
  // Kernels are cached by name: the two bodies have names of their own.
  EXPECT_NE(ragged.kernelName, l.kernelName);
}

TEST(LibraryConv, KernelRowLoopSpreadsOverCores) {
  // ResNet-18's 56 x 56 x 64 -> 64: on one core one program of 14
  // interleaved blocks of 4 output rows (56 = 14 x 4); on two cores at
  // least two programs.
  CallFixture f;
  const TensorRef x = f.tensor(DType::Float32, {1, 64, 56, 56}, channelsLast({1, 64, 56, 56}));
  const TensorRef w = f.tensor(DType::Float32, {64, 64, 3, 3}, channelsLast({64, 64, 3, 3}));
  const TensorRef y = f.tensor(DType::Float32, {1, 64, 56, 56}, channelsLast({1, 64, 56, 56}));
  const std::vector<const TensorRef *> outs = {&y};
  auto plan = [&](int cores) {
    MachineShape machine;
    machine.cores = cores;
    return planCall("aten.convolution", convolutionArgs(x, w, CallFixture::none(), {1, 1}, {1, 1}, {1, 1}, 1),
                    outs, machine);
  };
  const CallPlan one = plan(1), two = plan(2);
  ASSERT_EQ(one.launches.size(), 1u);
  ASSERT_EQ(two.launches.size(), 1u);
  EXPECT_EQ(one.launches[0].grid[0] * one.launches[0].grid[1] * one.launches[0].grid[2], 1);
  EXPECT_NE(one.launches[0].kernelName.find("_i_"), std::string::npos) << one.launches[0].kernelName;
  EXPECT_GE(two.launches[0].grid[0] * two.launches[0].grid[1] * two.launches[0].grid[2], 2);
}

TEST(LibraryConv, RowConvolutionsOfOtherGeometriesGetOtherKernels) {
  // Kernels are cached by name (and constexprs), but the row kernel's body
  // bakes in each kernel row's input offset ((dh * W - pad_w) * SX_W) and
  // which masks exist. Layers with the same types, steps and pixels per row
  // but another channel count, width or padding must get another name,
  // whatever their constexprs: a 3x3 "same" layer at 4 and at 32 channels
  // on 16 x 16 (two pixels per row, 3 steps each on the default machine;
  // kernel row 1 starts at input element -PAD_W * SX_W = -4 resp. -32), and
  // two layers whose constexprs all agree but whose kernel rows do not:
  // dilation 1 and 2 along the height (input offsets of kernel row 0: -1
  // and -2 rows). Each one compared with the host call, the later ones
  // after the earlier have been run (and cached), on the interpreter and
  // compiled for the default NPU.
  const std::vector<std::vector<std::vector<int64_t>>> layers = {
      {{1, 4, 16, 16}, {32, 4, 3, 3}, {1, 1}, {1, 1}},
      {{1, 32, 16, 16}, {32, 32, 3, 3}, {1, 1}, {1, 1}},
      {{1, 16, 12, 8}, {16, 16, 3, 3}, {1, 1}, {1, 1}},
      {{1, 16, 12, 8}, {16, 16, 3, 3}, {2, 1}, {2, 1}},
  };
  for (const auto &npu : {std::optional<config::HardwareConfig>{}, std::optional(config::defaultConfig())}) {
    std::map<std::string, std::string> sources; // by kernel name
    for (const auto &l : layers) {
      const PlannedConv p = planAndCompare(l[0], l[1], l[2], l[3], npu);
      EXPECT_EQ(p.mismatch, "") << "input " << l[0][1] << " x " << l[0][2] << " x " << l[0][3] << ", padding "
                                << l[2][0] << ", dilation " << l[3][0];
      ASSERT_EQ(p.launches.size(), 1u);
      const KernelLaunch &k = p.launches[0];
      // The same-size row kernel or the strided one's interleaved blocks.
      EXPECT_TRUE(k.kernelName.rfind("npusim_conv_rows_", 0) == 0 ||
                  k.kernelName.rfind("npusim_conv_strided_rows_", 0) == 0)
          << k.kernelName;
      const auto [it, fresh] = sources.emplace(k.kernelName, k.source);
      EXPECT_TRUE(fresh || it->second == k.source) << k.kernelName << " names two different sources";
    }
    EXPECT_EQ(sources.size(), layers.size());
  }
}

TEST(LibraryConv, StridedConvolutionsLoadKernelRowsByDma) {
  // Channels-last with (kernel column, channel) one strided axis, but strides
  // or padding that change the output's size: the strided row kernel, whose
  // programs cover blocks of output columns of several output rows. Programs
  // whose rows share input tiles (a divisor of the output height per
  // program: 5, 4 rows of stride 3, 6, 16 rows of 2 images), and, with 17
  // output rows per image (prime), programs of 16 rows that cross images and
  // a last one past the end (34 rows); bias, stride 1 without padding,
  // uneven kernels.
  const std::vector<Conv> cases = {
      {{2, 3, 9, 66}, {4, 3, 3, 3}, 2, 1, 1, 1, true, true},
      {{1, 3, 11, 100}, {8, 3, 7, 7}, 3, 3, 1, 1, true, true},
      {{1, 5, 8, 40}, {6, 5, 3, 2}, 1, 0, 1, 1, true, false},
      {{2, 3, 33, 66}, {5, 3, 3, 3}, 2, 1, 1, 1, true, true},
      {{2, 3, 31, 70}, {5, 3, 3, 3}, 2, 1, 1, 1, true, false},
      // Several output columns per tile row (banded weights with the stride),
      // blocks of several output rows: a small stem, two images, bias.
      {{2, 3, 32, 64}, {16, 3, 7, 7}, 2, 3, 1, 1, true, true},
      {{1, 8, 16, 32}, {32, 8, 3, 3}, 2, 1, 1, 1, true, false},
      // A 1x1 kernel of stride 2 (ResNet's downsampling shortcut), two images.
      {{2, 16, 8, 64}, {32, 16, 1, 1}, 2, 0, 1, 1, true, true},
  };
  for (const Conv &c : cases) {
    expectConv(c);
    // The planned kernel is the strided row kernel.
    CallFixture f;
    const TensorRef x = f.tensor(DType::Float32, c.input, channelsLast(c.input));
    const TensorRef w = f.tensor(DType::Float32, c.weight, channelsLast(c.weight));
    const TensorRef y = f.tensor(DType::Float32, outputShape(c), channelsLast(outputShape(c)));
    const std::vector<const TensorRef *> outs = {&y};
    const int64_t s = c.stride, p = c.padding;
    const CallPlan plan =
        planCall("aten.convolution", convolutionArgs(x, w, CallFixture::none(), {s, s}, {p, p}, {1, 1}, 1),
                 outs, MachineShape{});
    ASSERT_EQ(plan.launches.size(), 1u);
    EXPECT_EQ(plan.launches[0].kernelName.rfind("npusim_conv_strided_rows_", 0), 0u)
        << describe(c) << ": " << plan.launches[0].kernelName;
    // The 7x7 stem-like case (32 output columns, K = 21 per kernel row)
    // takes several output columns per tile row.
    if (c.weight[2] == 7 && c.input[3] == 64) {
      EXPECT_NE(plan.launches[0].kernelName.find("_p"), std::string::npos) << plan.launches[0].kernelName;
    }
  }
}

TEST(LibraryConv, UnbatchedInputAndHalfPrecision) {
  for (DType dtype : {DType::Float16, DType::BFloat16}) {
    Conv c{{1, 24, 10, 12}, {16, 24, 3, 3}, 1, 1};
    c.dtype = dtype;
    c.bias = true;
    expectConv(c);
    Conv d{{1, 24, 10, 12}, {24, 1, 3, 3}, 2, 1, 24};
    d.dtype = dtype;
    expectConv(d);
  }
  // [C, H, W] without a batch axis.
  CallFixture f;
  const TensorRef x = f.tensor(DType::Float32, {5, 9, 9});
  const TensorRef w = f.tensor(DType::Float32, {7, 5, 3, 3});
  const TensorRef y = f.tensor(DType::Float32, {7, 9, 9});
  EXPECT_EQ(f.compare("aten.convolution",
                      {CallFixture::arg(x), CallFixture::arg(w), CallFixture::none(),
                       CallFixture::integers({1}), CallFixture::integers({1}), CallFixture::integers({1}),
                       CallFixture::boolean(false), CallFixture::integers({0}), CallFixture::integer(1)},
                      {y}),
            "");
}

TEST(LibraryConv, DepthwiseRunsOnTheVectorUnitAndOthersOnTheSystolicArray) {
  CallFixture f;
  const TensorRef x = f.tensor(DType::Float32, {1, 32, 8, 8});
  const TensorRef dw = f.tensor(DType::Float32, {32, 1, 3, 3});
  const TensorRef grouped = f.tensor(DType::Float32, {32, 16, 3, 3});
  const TensorRef y = f.tensor(DType::Float32, {1, 32, 8, 8});
  const std::vector<const TensorRef *> outs = {&y};
  auto plan = [&](const TensorRef &w, int64_t groups) {
    return planCall("aten.convolution",
                    std::vector<CallArgument>{CallFixture::arg(x), CallFixture::arg(w), CallFixture::none(),
                                              CallFixture::integers({1, 1}), CallFixture::integers({1, 1}),
                                              CallFixture::integers({1, 1}), CallFixture::boolean(false),
                                              CallFixture::integers({0, 0}), CallFixture::integer(groups)},
                    outs, MachineShape{});
  };
  const CallPlan depthwise = plan(dw, 32);
  ASSERT_EQ(depthwise.launches.size(), 1u);
  EXPECT_EQ(depthwise.launches[0].source.find("tl.dot("), std::string::npos);
  const CallPlan two = plan(grouped, 2);
  ASSERT_EQ(two.launches.size(), 1u);
  EXPECT_NE(two.launches[0].source.find("tl.dot("), std::string::npos);
  EXPECT_EQ(two.launches[0].grid[2], 2); // groups on the z axis
}

TEST(LibraryConv, UnsupportedConvolutionsAreErrors) {
  CallFixture f;
  const TensorRef x = f.tensor(DType::Float32, {1, 4, 6, 6});
  const TensorRef w = f.tensor(DType::Float32, {4, 4, 3, 3});
  const TensorRef y = f.tensor(DType::Float32, {1, 4, 8, 8});
  const TensorRef x3 = f.tensor(DType::Float32, {1, 4, 6, 6, 6});
  const TensorRef w3 = f.tensor(DType::Float32, {4, 4, 3, 3, 3});
  const std::vector<const TensorRef *> outs = {&y};
  auto message = [&](const TensorRef &input, const TensorRef &weight, bool transposed) -> std::string {
    try {
      planCall("aten.convolution",
               std::vector<CallArgument>{
                   CallFixture::arg(input), CallFixture::arg(weight), CallFixture::none(),
                   CallFixture::integers({1}), CallFixture::integers({0}), CallFixture::integers({1}),
                   CallFixture::boolean(transposed), CallFixture::integers({0}), CallFixture::integer(1)},
               outs, MachineShape{});
    } catch (const core::RuntimeError &e) {
      return e.what();
    }
    return "no error";
  };
  EXPECT_NE(message(x, w, true).find("aten.convolution: argument 6 (transposed)"), std::string::npos);
  EXPECT_NE(message(x3, w3, false).find("3-d"), std::string::npos);
  EXPECT_NE(message(x, w, false).find("out has shape [1, 4, 8, 8], expected [1, 4, 4, 4]"),
            std::string::npos);
}

} // namespace
} // namespace npusim::library

namespace npusim::library {
namespace {

// The shifted-tap kernel asked for by name (MachineShape::convKernel): every
// tap's input tile one affine DMA shifted by dh W + dw, masked at the image's
// edges. 3x3 and 5x5 kernels, dilation, a kernel one row high, ragged pixel
// and channel blocks, bias; halves by columns and by rows; on the
// interpreter and compiled for tpuv3-like, against the host call.
TEST(LibraryConv, ShiftedTapsOfSameSizeConvolutions) {
  MachineShape machine;
  machine.convKernel = "shifted";
  std::vector<Conv> cases = {
      {{2, 64, 9, 9}, {256, 64, 3, 3}, 1, 1},       // halves by columns
      {{3, 48, 7, 6}, {40, 48, 3, 3}, 1, 1},        // few output channels: halves by rows; ragged channels
      {{1, 32, 8, 8}, {160, 32, 5, 5}, 1, 2},       // 5x5, pad 2
      {{2, 16, 9, 10}, {64, 16, 3, 3}, 1, 2, 1, 2}, // dilation 2
  };
  cases[0].bias = true;
  cases[3].bias = true;
  for (const Conv &c : cases)
    expectConv(c, machine);
  // A 1x3 kernel with padding (0, 1) keeps the image's size.
  {
    CallFixture f;
    const Conv c{{2, 24, 5, 11}, {72, 24, 1, 3}};
    const TensorRef x = f.tensor(DType::Float32, c.input, channelsLast(c.input));
    const TensorRef w = f.tensor(DType::Float32, c.weight, channelsLast(c.weight));
    const TensorRef y = f.tensor(DType::Float32, {2, 72, 5, 11}, channelsLast({2, 72, 5, 11}));
    const std::vector<CallArgument> args =
        convolutionArgs(x, w, CallFixture::none(), {1, 1}, {0, 1}, {1, 1}, 1);
    EXPECT_EQ(f.compare("aten.convolution", args, {y}, machine), "") << "1x3, padding (0, 1)";
  }
  for (const Conv &c : {cases[0], cases[1], cases[3]}) {
    CallFixture f;
    f.useNpu(config::loadConfig("tpuv3-like"));
    const std::vector<int64_t> outShape = outputShape(c);
    const TensorRef x = f.tensor(DType::Float32, c.input, channelsLast(c.input));
    const TensorRef w = f.tensor(DType::Float32, c.weight, channelsLast(c.weight));
    const TensorRef y = f.tensor(DType::Float32, outShape, channelsLast(outShape));
    const CallArgument bias =
        c.bias ? CallFixture::arg(f.tensor(DType::Float32, {c.weight[0]})) : CallFixture::none();
    const std::vector<CallArgument> args =
        convolutionArgs(x, w, bias, {1, 1}, {c.padding, c.padding}, {c.dilation, c.dilation}, 1);
    const CallPlan plan = planCall("aten.convolution", args, std::vector<const TensorRef *>{&y}, machine);
    ASSERT_EQ(plan.launches.size(), 1u);
    EXPECT_NE(plan.launches[0].kernelName.find("npusim_conv_shifted_"), std::string::npos);
    EXPECT_EQ(f.compare("aten.convolution", args, {y}, machine), "") << describe(c) << " on the NPU";
  }
}

// The window kernel asked for by name: one halo DMA per block of whole
// images and channel block, every tap a window of it (a slice), masked at
// the image's edges where a tap leaves it (per tap, or with one image per
// block by masked copies of the halo per kernel column; with channels in
// whole lane groups each kernel row's weights one DMA). 3x3 and 5x5
// kernels, dilation, a kernel one row high, ragged images per block,
// channels and output columns, bias, several channel blocks, blocks in
// pairs; on the interpreter and compiled for tpuv3-like, against the host
// call.
TEST(LibraryConv, WindowTapsOfSameSizeConvolutions) {
  MachineShape machine;
  machine.convKernel = "window";
  std::vector<Conv> cases = {
      {{3, 64, 9, 9}, {256, 64, 3, 3}, 1, 1},        // two column blocks, bias
      {{5, 48, 7, 6}, {40, 48, 3, 3}, 1, 1},         // ragged channels and columns
      {{2, 160, 6, 6}, {24, 160, 3, 3}, 1, 1},       // two channel blocks, the second ragged
      {{2, 128, 6, 6}, {40, 128, 3, 3}, 1, 1},       // kernel rows of weights as one DMA, ragged columns
      {{1, 256, 5, 5}, {144, 256, 3, 3}, 1, 1},      // rows of two channel blocks, two column blocks
      {{1, 32, 8, 8}, {160, 32, 5, 5}, 1, 2},        // 5x5, pad 2
      {{2, 16, 9, 10}, {64, 16, 3, 3}, 1, 2, 1, 2},  // dilation 2
      {{2, 32, 16, 16}, {48, 32, 3, 3}, 1, 1},       // one image per block, in pairs
      {{3, 24, 12, 12}, {16, 24, 3, 3}, 1, 2, 1, 2}, // dilation 2, one image per block, pairs past the last
      {{2, 24, 5, 11}, {72, 24, 1, 3}, 1, 0},        // 1x3 (padding set below)
  };
  cases[0].bias = true;
  cases[4].bias = true;
  cases[6].bias = true;
  int pairs = 0, severalImages = 0, weightRows = 0; // kernels of each form among the cases
  for (size_t i = 0; i < cases.size(); ++i) {
    const Conv &c = cases[i];
    const std::vector<int64_t> padding =
        i + 1 == cases.size() ? std::vector<int64_t>{0, 1} : std::vector<int64_t>{c.padding, c.padding};
    std::vector<int64_t> outShape = outputShape(c);
    outShape[3] = c.input[3]; // the 1x3 kernel's padding (0, 1) keeps the width
    for (const char *where : {"interpreter", "tpuv3-like"}) {
      CallFixture f;
      if (std::string(where) != "interpreter")
        f.useNpu(config::loadConfig(where));
      const TensorRef x = f.tensor(DType::Float32, c.input, channelsLast(c.input));
      const TensorRef w = f.tensor(DType::Float32, c.weight, channelsLast(c.weight));
      const TensorRef y = f.tensor(DType::Float32, outShape, channelsLast(outShape));
      const CallArgument bias =
          c.bias ? CallFixture::arg(f.tensor(DType::Float32, {c.weight[0]})) : CallFixture::none();
      const std::vector<CallArgument> args =
          convolutionArgs(x, w, bias, {1, 1}, padding, {c.dilation, c.dilation}, 1);
      const CallPlan plan = planCall("aten.convolution", args, std::vector<const TensorRef *>{&y}, machine);
      ASSERT_EQ(plan.launches.size(), 1u);
      const std::string &kernel = plan.launches[0].kernelName;
      EXPECT_NE(kernel.find("npusim_conv_window_"), std::string::npos);
      pairs += kernel.find("_i1_pairs_") != std::string::npos;
      weightRows += plan.launches[0].source.find("w_row_") != std::string::npos;
      severalImages += kernel.find("_i1_") == std::string::npos;
      EXPECT_EQ(f.compare("aten.convolution", args, {y}, machine), "") << describe(c) << " on the " << where;
    }
  }
  // Every form ran: whole small images several to a block (a mask per tap),
  // one image per block (masked halo copies) in pairs, kernel rows of
  // weights as one DMA.
  EXPECT_GT(pairs, 0);
  EXPECT_GT(severalImages, 0);
  EXPECT_GT(weightRows, 0);
}

// Both kernels take contiguous (NCHW) layers in place: each tap's input tile
// is still one affine DMA (its runs along the pixels), the images run apart
// where their pixels are not one axis (batch above one: the shifted kernel on
// the grid's third axis, the window kernel one image per block), and OIHW
// weights are first copied channels-last once. At batch 1 and 3, with and
// without bias, a 1x1 layer and channels-last weights beside
// an NCHW input; on the interpreter and compiled for tpuv3-like.
TEST(LibraryConv, ShiftedAndWindowTapsTakeContiguousLayers) {
  struct Case {
    Conv conv;
    bool channelsLastWeights = false;
  };
  std::vector<Case> cases = {
      {{{1, 32, 9, 9}, {48, 32, 3, 3}, 1, 1}},    // batch 1: pixels one axis
      {{{3, 40, 7, 6}, {24, 40, 3, 3}, 1, 1}},    // per image, ragged everything
      {{{2, 16, 9, 10}, {64, 16, 3, 3}, 1, 2, 1, 2}}, // per image, dilation 2
      {{{3, 24, 6, 6}, {40, 24, 3, 3}, 1, 1}, true}, // channels-last weights: no copy
      {{{3, 48, 5, 7}, {80, 48, 1, 1}, 1, 0}},    // 1x1 per image
  };
  cases[1].conv.bias = true;
  cases[4].conv.bias = true;
  int perImage = 0;
  for (const char *kernel : {"shifted", "window"})
    for (const Case &k : cases) {
      const Conv &c = k.conv;
      MachineShape machine;
      machine.convKernel = kernel;
      for (const char *where : {"interpreter", "tpuv3-like"}) {
        CallFixture f;
        if (std::string(where) != "interpreter")
          f.useNpu(config::loadConfig(where));
        const std::vector<int64_t> outShape = outputShape(c);
        const TensorRef x = f.tensor(DType::Float32, c.input);
        const TensorRef w =
            f.tensor(DType::Float32, c.weight, k.channelsLastWeights ? channelsLast(c.weight) : std::vector<int64_t>{});
        const TensorRef y = f.tensor(DType::Float32, outShape);
        const CallArgument bias =
            c.bias ? CallFixture::arg(f.tensor(DType::Float32, {c.weight[0]})) : CallFixture::none();
        const std::vector<CallArgument> args = convolutionArgs(x, w, bias, {1, 1}, {c.padding, c.padding},
                                                               {c.dilation, c.dilation}, 1);
        const CallPlan plan = planCall("aten.convolution", args, std::vector<const TensorRef *>{&y}, machine);
        // OIHW weights of a kernel wider than a pixel: a copy, then the kernel.
        const bool copied = !k.channelsLastWeights && c.weight[2] * c.weight[3] > 1;
        ASSERT_EQ(plan.launches.size(), copied ? 2u : 1u) << describe(c);
        EXPECT_EQ(plan.scratch.size(), copied ? 1u : 0u);
        const std::string &name = plan.launches.back().kernelName;
        EXPECT_NE(name.find("npusim_conv_" + std::string(kernel) + "_"), std::string::npos) << name;
        perImage += plan.launches.back().source.find("SX_N") != std::string::npos;
        EXPECT_EQ(plan.launches.back().source.find("SX_N") != std::string::npos, c.input[0] > 1) << name;
        EXPECT_EQ(f.compare("aten.convolution", args, {y}, machine), "")
            << kernel << " " << describe(c) << " on the " << where;
      }
    }
  EXPECT_GT(perImage, 0);
}

TEST(LibraryConv, RelayoutRunsOtherLayoutsThroughChannelsLast) {
  MachineShape machine;
  machine.convKernel = "relayout";
  struct Layout {
    Conv conv;
    bool inputChannelsLast, outputChannelsLast;
  };
  std::vector<Layout> cases = {
      {{{3, 12, 9, 9}, {20, 12, 3, 3}, 1, 1}, false, false},   // NCHW in and out, ragged channels
      {{{2, 8, 11, 11}, {16, 4, 3, 3}, 2, 1, 2}, false, true}, // two groups, stride 2, NHWC out
      {{{1, 5, 13, 13}, {7, 5, 5, 5}, 1, 2}, true, false},     // 5x5, NHWC in, NCHW out
      {{{4, 16, 7, 7}, {24, 16, 1, 1}}, false, false},         // 1x1
  };
  cases[0].conv.bias = true;
  for (const Layout &l : cases) {
    const Conv &c = l.conv;
    const std::vector<int64_t> outShape = outputShape(c);
    for (const char *where : {"interpreter", "tpuv3-like"}) {
      CallFixture f;
      if (std::string(where) != "interpreter")
        f.useNpu(config::loadConfig(where));
      const TensorRef x = f.tensor(DType::Float32, c.input,
                                   l.inputChannelsLast ? channelsLast(c.input) : std::vector<int64_t>{});
      const TensorRef w = f.tensor(DType::Float32, c.weight);
      const TensorRef y = f.tensor(DType::Float32, outShape,
                                   l.outputChannelsLast ? channelsLast(outShape) : std::vector<int64_t>{});
      const CallArgument bias =
          c.bias ? CallFixture::arg(f.tensor(DType::Float32, {c.weight[0]})) : CallFixture::none();
      const std::vector<CallArgument> args =
          convolutionArgs(x, w, bias, {c.stride, c.stride}, {c.padding, c.padding}, {1, 1}, c.groups);
      const CallPlan plan = planCall("aten.convolution", args, std::vector<const TensorRef *>{&y}, machine);
      // The moved operands' copies, the convolution, the result's copy back.
      // Contiguous weights [O, C, KH, KW] are channels-last only at 1x1.
      const bool weightsMove = c.weight[2] * c.weight[3] > 1;
      const size_t copies =
          (l.inputChannelsLast ? 0 : 1) + (weightsMove ? 1 : 0) + (l.outputChannelsLast ? 0 : 1);
      EXPECT_EQ(plan.launches.size(), copies + 1) << describe(c);
      EXPECT_EQ(plan.scratch.size(), copies) << describe(c);
      if (!l.outputChannelsLast) {
        EXPECT_EQ(plan.launches.back().kernelName.rfind("npusim_transpose_", 0), 0u) << describe(c);
      }
      EXPECT_EQ(f.compare("aten.convolution", args, {y}, machine), "") << describe(c) << " on the " << where;
    }
  }
  // Nothing to move, or a depthwise layer (its own kernel takes any layout):
  // the relayout plan refuses, and the runtime times the others.
  CallFixture f;
  auto plan = [&](const Conv &c, bool channelsLastLayout) {
    const std::vector<int64_t> outShape = outputShape(c);
    const TensorRef x = f.tensor(DType::Float32, c.input,
                                 channelsLastLayout ? channelsLast(c.input) : std::vector<int64_t>{});
    const TensorRef w = f.tensor(DType::Float32, c.weight, channelsLast(c.weight));
    const TensorRef y = f.tensor(DType::Float32, outShape,
                                 channelsLastLayout ? channelsLast(outShape) : std::vector<int64_t>{});
    const std::vector<CallArgument> args =
        convolutionArgs(x, w, CallFixture::none(), {1, 1}, {1, 1}, {1, 1}, c.groups);
    planCall("aten.convolution", args, std::vector<const TensorRef *>{&y}, machine);
  };
  EXPECT_THROW(plan({{1, 16, 8, 8}, {16, 16, 3, 3}}, true), core::RuntimeError) << "already channels-last";
  Conv depthwise{{1, 16, 8, 8}, {16, 1, 3, 3}};
  depthwise.groups = 16;
  EXPECT_THROW(plan(depthwise, false), core::RuntimeError) << "depthwise";
}

// A 1x1 layer with a stride reads every stride-th pixel: the relayout plan
// copies those pixels densely (channels-last, channels the copy's runs) and
// runs a 1x1 stride-1 layer, a GEMM, on them; values against the host call
// on the interpreter and on tpuv3-like, with a bias, ragged shapes, and an
// NCHW output turned back.
// "relayout-window" runs the window kernel between the copies: values of
// NCHW layers that keep their size against the host call on the interpreter
// and tpuv3-like; a layer the window kernel cannot run is refused.
TEST(LibraryConv, RelayoutWindowRunsTheWindowKernelBetweenTheCopies) {
  MachineShape machine;
  machine.convKernel = "relayout-window";
  for (const Conv &c :
       std::vector<Conv>{{{3, 12, 9, 9}, {20, 12, 3, 3}, 1, 1}, {{1, 128, 6, 6}, {40, 128, 3, 3}, 1, 1}}) {
    const std::vector<int64_t> outShape = outputShape(c);
    for (const char *where : {"interpreter", "tpuv3-like"}) {
      CallFixture f;
      if (std::string(where) != "interpreter")
        f.useNpu(config::loadConfig(where));
      const TensorRef x = f.tensor(DType::Float32, c.input), w = f.tensor(DType::Float32, c.weight);
      const TensorRef y = f.tensor(DType::Float32, outShape);
      const std::vector<CallArgument> args =
          convolutionArgs(x, w, CallFixture::none(), {1, 1}, {1, 1}, {1, 1}, 1);
      const CallPlan plan = planCall("aten.convolution", args, std::vector<const TensorRef *>{&y}, machine);
      ASSERT_EQ(plan.launches.size(), 4u) << describe(c); // input, weights, the window kernel, output
      EXPECT_NE(plan.launches[2].kernelName.find("npusim_conv_window_"), std::string::npos);
      EXPECT_EQ(f.compare("aten.convolution", args, {y}, machine), "") << describe(c) << " on the " << where;
    }
  }
  CallFixture f;
  const Conv strided{{1, 16, 8, 8}, {16, 16, 3, 3}, 2, 1};
  const TensorRef x = f.tensor(DType::Float32, strided.input), w = f.tensor(DType::Float32, strided.weight);
  const TensorRef y = f.tensor(DType::Float32, outputShape(strided));
  EXPECT_THROW(planCall("aten.convolution",
                        convolutionArgs(x, w, CallFixture::none(), {2, 2}, {1, 1}, {1, 1}, 1),
                        std::vector<const TensorRef *>{&y}, machine),
               core::RuntimeError);
}

TEST(LibraryConv, RelayoutSubsamplesOneByOneStrides) {
  MachineShape machine;
  machine.convKernel = "relayout";
  struct Case {
    Conv conv;
    bool outputChannelsLast;
  };
  std::vector<Case> cases = {{{{2, 16, 10, 10}, {24, 16, 1, 1}, 2}, true},
                             {{{1, 40, 9, 7}, {8, 40, 1, 1}, 2}, true},
                             {{{3, 8, 12, 12}, {12, 8, 1, 1}, 3}, false}};
  cases[0].conv.bias = true;
  for (const Case &k : cases) {
    const Conv &c = k.conv;
    const std::vector<int64_t> outShape = outputShape(c);
    for (const char *where : {"interpreter", "tpuv3-like"}) {
      CallFixture f;
      if (std::string(where) != "interpreter")
        f.useNpu(config::loadConfig(where));
      const TensorRef x = f.tensor(DType::Float32, c.input, channelsLast(c.input));
      const TensorRef w = f.tensor(DType::Float32, c.weight, channelsLast(c.weight));
      const TensorRef y = f.tensor(DType::Float32, outShape,
                                   k.outputChannelsLast ? channelsLast(outShape) : std::vector<int64_t>{});
      const CallArgument bias =
          c.bias ? CallFixture::arg(f.tensor(DType::Float32, {c.weight[0]})) : CallFixture::none();
      const std::vector<CallArgument> args =
          convolutionArgs(x, w, bias, {c.stride, c.stride}, {0, 0}, {1, 1}, 1);
      const CallPlan plan = planCall("aten.convolution", args, std::vector<const TensorRef *>{&y}, machine);
      // The pixels' copy, the GEMM, and the result turned back where NCHW.
      ASSERT_EQ(plan.launches.size(), k.outputChannelsLast ? 2u : 3u) << describe(c);
      EXPECT_EQ(plan.scratch[0].elements, outShape[0] * c.input[1] * outShape[2] * outShape[3]);
      EXPECT_EQ(f.compare("aten.convolution", args, {y}, machine), "") << describe(c) << " on the " << where;
    }
  }
}

TEST(LibraryConv, ShiftedAndWindowTapsRefuseOtherGeometries) {
  for (const char *kernel : {"shifted", "window"}) {
    MachineShape machine;
    machine.convKernel = kernel;
    CallFixture f;
    auto plan = [&](const Conv &c) {
      const std::vector<int64_t> outShape = outputShape(c);
      const TensorRef x = f.tensor(DType::Float32, c.input,
                                   c.channelsLastLayout ? channelsLast(c.input) : std::vector<int64_t>{});
      const TensorRef w = f.tensor(DType::Float32, c.weight, channelsLast(c.weight));
      const TensorRef y = f.tensor(DType::Float32, outShape,
                                   c.channelsLastLayout ? channelsLast(outShape) : std::vector<int64_t>{});
      const std::vector<CallArgument> args = convolutionArgs(x, w, CallFixture::none(), {c.stride, c.stride},
                                                             {c.padding, c.padding}, {1, 1}, c.groups);
      planCall("aten.convolution", args, std::vector<const TensorRef *>{&y}, machine);
    };
    EXPECT_THROW(plan({{1, 16, 8, 8}, {16, 16, 3, 3}, 2, 1}), core::RuntimeError) << "stride 2";
    EXPECT_THROW(plan({{1, 16, 8, 8}, {16, 16, 3, 3}, 1, 0}), core::RuntimeError) << "the size shrinks";
    EXPECT_THROW(plan({{1, 16, 8, 8}, {16, 8, 3, 3}, 1, 1, 2}), core::RuntimeError) << "two groups";
    {
      // Rows and columns transposed: each image's pixels are not one axis.
      const TensorRef x{f.tensor(DType::Float32, {1, 16, 8, 8}).buffer, 0, {1, 16, 8, 8}, {1024, 64, 1, 8},
                        DType::Float32};
      const TensorRef w = f.tensor(DType::Float32, {16, 16, 3, 3});
      const TensorRef y = f.tensor(DType::Float32, {1, 16, 8, 8});
      EXPECT_THROW(planCall("aten.convolution",
                            convolutionArgs(x, w, CallFixture::none(), {1, 1}, {1, 1}, {1, 1}, 1),
                            std::vector<const TensorRef *>{&y}, machine),
                   core::RuntimeError)
          << "pixels not one axis";
    }
    machine.convKernel = "winograd";
    EXPECT_THROW(plan({{1, 16, 8, 8}, {16, 16, 3, 3}, 1, 1}), core::RuntimeError) << "an unknown kernel";
  }
  // The window kernel's halo tiles take channels in blocks of the lanes:
  // none on a machine of fewer than 16.
  MachineShape eight(8, 128 * 1024, 256);
  eight.convKernel = "window";
  CallFixture f;
  const Conv c{{1, 16, 8, 8}, {16, 16, 3, 3}, 1, 1};
  const TensorRef x = f.tensor(DType::Float32, c.input, channelsLast(c.input));
  const TensorRef w = f.tensor(DType::Float32, c.weight, channelsLast(c.weight));
  const TensorRef y = f.tensor(DType::Float32, outputShape(c), channelsLast(outputShape(c)));
  EXPECT_THROW(planCall("aten.convolution",
                        convolutionArgs(x, w, CallFixture::none(), {1, 1}, {1, 1}, {1, 1}, 1),
                        std::vector<const TensorRef *>{&y}, eight),
               core::RuntimeError);
}

} // namespace
} // namespace npusim::library
