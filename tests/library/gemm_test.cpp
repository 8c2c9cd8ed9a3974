// The GEMM family (aten.mm, addmm, bmm, baddbmm): the planned Triton kernels,
// run on the reference interpreter, against the host call's
// double-precision products, for the shapes the committed bundles use and for
// random shapes, strides, offsets, broadcasts and dtypes.
#include "library/gemm_resident.h"
#include "library/plan_harness.h"

#include "compiler/compiler.h"
#include "config/hardware.h"

#include "core/error.h"
#include "triton/frontend.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <set>
#include <map>
#include <limits>

namespace npusim::library {
namespace {

using harness::CallFixture;
using C = CallFixture;
using core::DType;

/// The plan of an fp32 `aten.mm` of [m, k] x [k, n] on the default machine.
CallPlan planMatmul(int64_t m, int64_t k, int64_t n) {
  CallFixture f;
  const TensorRef a = f.tensor(DType::Float32, {m, k});
  const TensorRef b = f.tensor(DType::Float32, {k, n});
  const TensorRef out = f.tensor(DType::Float32, {m, n});
  const std::vector<const TensorRef *> outs = {&out};
  return planCall("aten.mm", std::vector<CallArgument>{CallFixture::arg(a), CallFixture::arg(b)}, outs, MachineShape{});
}

int64_t constant(const KernelLaunch &launch, const std::string &name) {
  return harness::launchConstant(launch, name);
}

/// A row-major stride for `shape`, or the transposed layout of a 2-d/3-d
/// matrix (the last two axes swapped in memory) when `transposed`.
std::vector<int64_t> layout(const std::vector<int64_t> &shape, bool transposed) {
  std::vector<int64_t> order(shape.size());
  for (size_t i = 0; i < shape.size(); ++i)
    order[i] = static_cast<int64_t>(i);
  if (transposed && shape.size() >= 2)
    std::swap(order[shape.size() - 1], order[shape.size() - 2]);
  std::vector<int64_t> stride(shape.size());
  int64_t s = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    stride[static_cast<size_t>(order[i])] = s;
    s *= std::max<int64_t>(shape[static_cast<size_t>(order[i])], 1);
  }
  return stride;
}

struct MmCase {
  std::vector<int64_t> a, aStride, b, bStride;
};

void expectMm(const MmCase &c, DType dtype = DType::Float32, const MachineShape &machine = {}) {
  CallFixture f;
  const TensorRef a = f.tensor(dtype, c.a, c.aStride);
  const TensorRef b = f.tensor(dtype, c.b, c.bStride);
  const TensorRef out = f.tensor(dtype, {c.a[0], c.b[1]});
  EXPECT_EQ(f.compare("aten.mm", {CallFixture::arg(a), CallFixture::arg(b)}, {out}, machine), "")
      << "mm " << c.a[0] << "x" << c.a[1] << " @ " << c.b[0] << "x" << c.b[1];
}

TEST(LibraryGemm, LargestProductsOfTheBundles) {
  // The calls above 40 million multiply-accumulates, which
  // LibraryBundleCalls leaves out: the feed-forward products of bert (weights
  // transposed) and gpt2 (row-major) and gpt2's attention input projection at
  // their sizes; the vocabulary projections of llama (32000 wide) and gpt2
  // (50257: a ragged last block) in their layouts with fewer rows or a shorter
  // K (the double-precision reference takes seconds over the full ones).
  expectMm({{32, 768}, {768, 1}, {768, 3072}, {1, 768}});
  expectMm({{32, 3072}, {3072, 1}, {3072, 768}, {768, 1}});
  expectMm({{4, 256}, {256, 1}, {256, 32000}, {1, 256}});
  expectMm({{2, 96}, {96, 1}, {96, 50257}, {1, 96}});
  CallFixture f;
  const TensorRef bias = f.tensor(DType::Float32, {2304});
  const TensorRef a = f.tensor(DType::Float32, {32, 768});
  const TensorRef b = f.tensor(DType::Float32, {768, 2304});
  const TensorRef out = f.tensor(DType::Float32, {32, 2304});
  EXPECT_EQ(f.compare("aten.addmm",
                      {CallFixture::arg(bias), CallFixture::arg(a), CallFixture::arg(b), CallFixture::integer(1),
                       CallFixture::integer(1)},
                      {out}),
            "");
}

/// Numerical Recipes' LCG for test parameters.
struct GemmRandom {
  uint32_t state;
  int64_t below(int64_t n) {
    state = state * 1664525u + 1013904223u;
    return static_cast<int64_t>((state >> 8) % static_cast<uint32_t>(n));
  }
};

/// 24 random products (mm, bmm, addmm, baddbmm; row-major or transposed
/// operands and outputs at random offsets; self full, a row, a column or a
/// scalar; alpha and beta, beta 0 with a NaN in self) with `kernel` asked for
/// ("" lets the estimates choose), against the host call. Returns how many
/// ran: a kernel that cannot run a shape (no tiles fit) is skipped.
int randomProducts(const std::string &kernel) {
  // A small machine (16 lanes, 2 KiB of scratchpad per lane: 16 KiB of tiles)
  // makes every size span several blocks along M, N and K.
  const MachineShape small{16, 2048, 256};
  GemmRandom rng{7};
  int ran = 0;
  for (int trial = 0; trial < 24; ++trial) {
    const bool batched = trial % 2 == 1;
    const bool withSelf = trial % 4 >= 2;
    const int64_t batches = batched ? 1 + rng.below(3) : 1;
    const int64_t m = 1 + rng.below(70), k = 1 + rng.below(70), n = 1 + rng.below(70);
    MachineShape machine = trial % 3 == 0 ? MachineShape{} : small;
    machine.gemmKernel = kernel;
    CallFixture f;
    auto shape = [&](int64_t r, int64_t c) {
      return batched ? std::vector<int64_t>{batches, r, c} : std::vector<int64_t>{r, c};
    };
    const std::vector<int64_t> aShape = shape(m, k), bShape = shape(k, n), cShape = shape(m, n);
    const TensorRef a = f.tensor(DType::Float32, aShape, layout(aShape, rng.below(2) == 1), rng.below(9));
    const TensorRef b = f.tensor(DType::Float32, bShape, layout(bShape, rng.below(2) == 1), rng.below(9));
    const TensorRef out = f.tensor(DType::Float32, cShape, layout(cShape, rng.below(2) == 1), rng.below(9));
    std::vector<CallArgument> args;
    std::string op = batched ? "aten.bmm" : "aten.mm";
    if (withSelf) {
      op = batched ? "aten.baddbmm" : "aten.addmm";
      // self: the full shape, a row [n], a column [m, 1], or a scalar.
      std::vector<int64_t> selfShape;
      switch (rng.below(4)) {
      case 0: selfShape = cShape; break;
      case 1: selfShape = {n}; break;
      case 2: selfShape = {m, 1}; break;
      default: break;
      }
      const TensorRef self = f.tensor(DType::Float32, selfShape);
      const double alphas[] = {1.0, 0.5, -2.0}, betas[] = {1.0, 0.0, 0.25};
      const double beta = betas[rng.below(3)];
      if (beta == 0.0)
        f.set(self, 0, std::numeric_limits<double>::quiet_NaN()); // beta = 0 ignores self, NaN included
      args = {CallFixture::arg(self), CallFixture::arg(a), CallFixture::arg(b),
              CallFixture::number(beta), CallFixture::number(alphas[rng.below(3)])};
    } else {
      args = {CallFixture::arg(a), CallFixture::arg(b)};
    }
    try {
      planCall(op, args, std::vector<const TensorRef *>{&out}, machine);
    } catch (const core::RuntimeError &e) {
      EXPECT_FALSE(kernel.empty() || kernel == "tiled") << op << " trial " << trial << ": no plan";
      continue;
    }
    ++ran;
    EXPECT_EQ(f.compare(op, args, {out}, machine), "")
        << op << " trial " << trial << " (" << (kernel.empty() ? "by estimate" : kernel) << "): batches "
        << batches << ", " << m << "x" << k << "x" << n;
  }
  return ran;
}

TEST(LibraryGemm, RandomShapesStridesAndEpilogues) {
  EXPECT_EQ(randomProducts(""), 24);
}

// Each kernel asked for by name computes the same products: the tiled one
// runs every shape; the pipelined one (two buffers of each operand) and the
// resident one (all of B) fit the small machine's 1 KiB of tiles per lane
// only for some.
TEST(LibraryGemm, EveryKernelOnRandomShapesStridesAndEpilogues) {
  EXPECT_EQ(randomProducts("tiled"), 24);
  EXPECT_GE(randomProducts("pipelined"), 10);
  EXPECT_GE(randomProducts("resident"), 1);
}

// The deep-k kernel is the pipelined one with K blocks of four or eight
// arrays' widths (long DMA runs along K), at least two of them: a matrix by
// a vector and a ragged K, against the host call and compiled for the NPU;
// a K shorter than two such blocks has no deep-k tiles.
TEST(LibraryGemm, DeepKBlocksAreLongAndAtLeastTwo) {
  MachineShape machine;
  machine.gemmKernel = "deep-k";
  const int64_t lanes = machine.lanes;
  struct Case {
    std::vector<int64_t> a, b;
    bool bT;
  };
  const Case cases[] = {{{1, 8 * lanes}, {8 * lanes, 300}, true}, {{40, 8 * lanes + 70}, {8 * lanes + 70, 200}, false}};
  for (const Case &c : cases) {
    CallFixture f;
    const TensorRef a = f.tensor(DType::Float32, c.a);
    const TensorRef b = f.tensor(DType::Float32, c.b, layout(c.b, c.bT));
    const TensorRef out = f.tensor(DType::Float32, {c.a[0], c.b[1]});
    const std::vector<CallArgument> args = {CallFixture::arg(a), CallFixture::arg(b)};
    const CallPlan plan = planCall("aten.mm", args, std::vector<const TensorRef *>{&out}, machine);
    ASSERT_EQ(plan.launches.size(), 1u);
    const library::KernelLaunch &launch = plan.launches[0];
    EXPECT_NE(launch.kernelName.find("npusim_gemm_pipelined_"), std::string::npos) << launch.kernelName;
    int64_t blockK = 0;
    for (const auto &[constant, value] : launch.constexprs)
      blockK = constant == "BLOCK_K" ? value : blockK;
    EXPECT_TRUE(blockK == 4 * lanes || blockK == 8 * lanes) << blockK;
    EXPECT_LE(2 * blockK, c.a[1]);
    EXPECT_EQ(f.compare("aten.mm", args, {out}, machine), "") << launch.kernelName;
    f.useNpu(config::loadConfig("tpuv3-like"));
    EXPECT_EQ(f.compare("aten.mm", args, {out}, machine), "") << launch.kernelName << " on the NPU";
  }
  CallFixture f;
  const TensorRef a = f.tensor(DType::Float32, {16, 8 * lanes - 1}), b = f.tensor(DType::Float32, {8 * lanes - 1, 64});
  const TensorRef out = f.tensor(DType::Float32, {16, 64});
  try {
    planCall("aten.mm", std::vector<CallArgument>{CallFixture::arg(a), CallFixture::arg(b)},
             std::vector<const TensorRef *>{&out}, machine);
    FAIL() << "deep-k planned a K of " << 8 * lanes - 1;
  } catch (const core::RuntimeError &e) {
    EXPECT_NE(std::string(e.what()).find("GEMM kernel 'deep-k' has no tiles"), std::string::npos) << e.what();
  }
}

// The pipelined kernel on the default machine: halves by columns and by rows,
// odd and even counts of K blocks, ragged M, N and K, turned operands and an
// addmm epilogue (alpha, a row of bias times beta), against the host call.
TEST(LibraryGemm, PipelinedHalvesBlocksAndEpilogues) {
  MachineShape machine;
  machine.gemmKernel = "pipelined";
  struct Case {
    std::vector<int64_t> a, b;
    bool aT, bT;
    bool splitM; // the kernel's halves are row blocks
  };
  const Case cases[] = {
      {{300, 200}, {200, 700}, false, false, false}, // K: two blocks of 128 (the second ragged)
      {{257, 384}, {384, 300}, true, true, false},   // three blocks: an odd count
      {{520, 130}, {130, 40}, false, true, true},    // few columns: halves by rows
      {{64, 1000}, {1000, 260}, false, false, false},
  };
  for (const Case &c : cases) {
    CallFixture f;
    const TensorRef a = f.tensor(DType::Float32, c.a, layout(c.a, c.aT));
    const TensorRef b = f.tensor(DType::Float32, c.b, layout(c.b, c.bT));
    const TensorRef out = f.tensor(DType::Float32, {c.a[0], c.b[1]});
    const std::vector<CallArgument> args = {CallFixture::arg(a), CallFixture::arg(b)};
    const CallPlan plan = planCall("aten.mm", args, std::vector<const TensorRef *>{&out}, machine);
    ASSERT_EQ(plan.launches.size(), 1u);
    const std::string &name = plan.launches[0].kernelName;
    EXPECT_NE(name.find("npusim_gemm_pipelined_"), std::string::npos) << name;
    EXPECT_NE(name.find(c.splitM ? "_sm_" : "_sn_"), std::string::npos) << name;
    EXPECT_EQ(f.compare("aten.mm", args, {out}, machine), "") << name;
    // And compiled for the NPU (tpuv3-like: two arrays, one per half).
    f.useNpu(config::loadConfig("tpuv3-like"));
    EXPECT_EQ(f.compare("aten.mm", args, {out}, machine), "") << name << " on the NPU";
  }
  CallFixture f;
  const TensorRef bias = f.tensor(DType::Float32, {333});
  const TensorRef a = f.tensor(DType::Float32, {200, 150}), b = f.tensor(DType::Float32, {150, 333});
  const TensorRef out = f.tensor(DType::Float32, {200, 333});
  EXPECT_EQ(f.compare("aten.addmm",
                      {CallFixture::arg(bias), CallFixture::arg(a), CallFixture::arg(b), CallFixture::number(0.5),
                       CallFixture::number(-2.0)},
                      {out}, machine),
            "");
}

TEST(LibraryGemm, UnknownKernelNamesAreErrors) {
  CallFixture f;
  const TensorRef a = f.tensor(DType::Float32, {8, 8}), b = f.tensor(DType::Float32, {8, 8}),
                  out = f.tensor(DType::Float32, {8, 8});
  MachineShape machine;
  machine.gemmKernel = "systolic";
  try {
    planCall("aten.mm", std::vector<CallArgument>{CallFixture::arg(a), CallFixture::arg(b)},
             std::vector<const TensorRef *>{&out}, machine);
    FAIL() << "an unknown kernel name was accepted";
  } catch (const core::RuntimeError &e) {
    EXPECT_NE(std::string(e.what()).find("'systolic' is not one of tiled, resident, pipelined, deep-k, vector"), std::string::npos)
        << e.what();
  }
}

TEST(LibraryGemm, HalfPrecisionInputsAccumulateInFp32) {
  for (DType dtype : {DType::Float16, DType::BFloat16}) {
    expectMm({{40, 96}, {96, 1}, {96, 24}, {1, 96}}, dtype);
    CallFixture f;
    const TensorRef self = f.tensor(dtype, {24});
    const TensorRef a = f.tensor(dtype, {3, 40, 96});
    const TensorRef b = f.tensor(dtype, {3, 96, 24});
    const TensorRef out = f.tensor(dtype, {3, 40, 24});
    EXPECT_EQ(f.compare("aten.baddbmm",
                        {CallFixture::arg(self), CallFixture::arg(a), CallFixture::arg(b), CallFixture::number(0.5),
                         CallFixture::number(2.0)},
                        {out}),
              "")
        << core::tritonName(dtype);
  }
}

TEST(LibraryGemm, AddmmIntoItsOwnBias) {
  // out aliases self exactly (addmm_ / out=self): each element reads its bias before it is written.
  CallFixture f;
  const TensorRef a = f.tensor(DType::Float32, {20, 30});
  const TensorRef b = f.tensor(DType::Float32, {30, 40});
  const TensorRef self = f.tensor(DType::Float32, {20, 40});
  EXPECT_EQ(f.compare("aten.addmm", {CallFixture::arg(self), CallFixture::arg(a), CallFixture::arg(b)}, {self}),
            "");
}

TEST(LibraryGemm, BlockSizesFollowTheMachine) {
  CallFixture f;
  const TensorRef a = f.tensor(DType::Float32, {4096, 512});
  // B too large to stay in the scratchpad (8 MiB, all of half the bank):
  // the tiled kernel (ResidentBGemm tests the other).
  const TensorRef b = f.tensor(DType::Float32, {512, 4096});
  const TensorRef out = f.tensor(DType::Float32, {4096, 4096});
  const std::vector<CallArgument> args = {CallFixture::arg(a), CallFixture::arg(b)};
  const std::vector<const TensorRef *> outs = {&out};
  for (MachineShape machine : {MachineShape{128, 128 * 1024, 256}, MachineShape{32, 16 * 1024, 256}}) {
    machine.gemmKernel = "tiled";
    const CallPlan plan = planCall("aten.mm", args, outs, machine);
    ASSERT_EQ(plan.launches.size(), 1u);
    const KernelLaunch &l = plan.launches[0];
    const int64_t bm = constant(l, "BLOCK_M"), bn = constant(l, "BLOCK_N"), bk = constant(l, "BLOCK_K");
    // K blocks match the array's rows, N blocks one, two, four or eight
    // arrays' columns.
    EXPECT_EQ(bk, machine.lanes);
    EXPECT_TRUE(bn == machine.lanes || bn == 2 * machine.lanes || bn == 4 * machine.lanes ||
                bn == 8 * machine.lanes)
        << bn;
    // K = 1024 is several blocks: two K steps per iteration, two accumulators.
    EXPECT_NE(l.source.find("acc_1 += tl.dot("), std::string::npos);
    // Both steps' A, B and fp32 accumulator tiles fit in half the scratchpad
    // (the other half double-buffers the next program).
    const int64_t half = machine.lanes * machine.spadBytesPerLane / 2;
    EXPECT_LE(2 * 4 * (bm * bk + bk * bn + bm * bn), half);
    EXPECT_EQ(l.grid[0], (4096 + bm - 1) / bm);
    EXPECT_EQ(l.grid[1], 4096 / bn);
    EXPECT_EQ(l.grid[2], 1);
    EXPECT_NE(l.source.find("tl.dot("), std::string::npos);
    EXPECT_NE(l.source.find("allow_tf32=False"), std::string::npos);
  }
}

TEST(LibraryGemm, ResidentBGemm) {
  // 1024^3 on the default machine: B (4 MiB, 32 KiB per lane) stays in the
  // scratchpad and A streams through it once: one program, no BLOCK_N.
  {
    const CallPlan plan = planMatmul(1024, 1024, 1024);
    ASSERT_EQ(plan.launches.size(), 1u);
    const KernelLaunch &l = plan.launches[0];
    EXPECT_EQ(l.kernelName.rfind("npusim_gemm_resident_", 0), 0u) << l.kernelName;
    EXPECT_EQ(l.grid[0] * l.grid[1] * l.grid[2], 1);
    EXPECT_EQ(constant(l, "BLOCK_K"), 1024);
    EXPECT_EQ(constant(l, "BLOCK_N"), -1);
  }
  // K = 544 in pieces of 512 and 128 (not one block of 1024, 47% padding):
  // each product a chain of two dots, only the last piece masked past K.
  {
    const CallPlan plan = planMatmul(1024, 544, 1024);
    ASSERT_EQ(plan.launches.size(), 1u);
    const std::string &text = plan.launches[0].source;
    EXPECT_NE(text.find("rk_0 = tl.arange(0, 512)"), std::string::npos) << text;
    EXPECT_NE(text.find("rk_1 = 512 + tl.arange(0, 128)"), std::string::npos) << text;
    EXPECT_EQ(text.find("rk_2"), std::string::npos);
    EXPECT_EQ(text.find("(rk_0 < K)"), std::string::npos);
    EXPECT_NE(text.find("(rk_1 < K)"), std::string::npos);
    EXPECT_NE(text.find("c0_0 = tl.dot(a0_1, b_0_1, acc=c0_0"), std::string::npos);
  }
  // Values on the NPU (compiler + functional simulator) on the 8-lane edge
  // machine: ragged M, N and K, operands stored transposed, bias with alpha
  // and beta, batches, fp16.
  const config::HardwareConfig edge = config::loadConfig("edge-8lane");
  struct Case {
    std::string op;
    std::vector<int64_t> a, aStride, b, bStride;
    bool bias;
    DType dtype;
  };
  const std::vector<Case> cases = {
      {"aten.mm", {70, 45}, {}, {45, 29}, {}, false, DType::Float32},
      {"aten.addmm", {67, 37}, {1, 67}, {37, 30}, {1, 37}, true, DType::Float32},
      {"aten.bmm", {2, 50, 33}, {}, {2, 33, 21}, {}, false, DType::Float16},
      {"aten.mm", {233, 20}, {}, {20, 24}, {}, false, DType::Float32}, // the loop over pairs
  };
  const config::HardwareConfig tpu = config::defaultConfig();
  for (size_t i = 0; i < cases.size() + 2; ++i) {
    // The last two: three row tiles of 128 on the default machine, all in
    // the first step, ragged everywhere; the second with K in two pieces
    // (512 + 128), a chain of two dots per product.
    const bool onTpu = i >= cases.size();
    const Case c = i == cases.size()       ? Case{"aten.mm", {300, 130}, {}, {130, 70}, {}, false, DType::Float32}
                   : i == cases.size() + 1 ? Case{"aten.mm", {300, 544}, {}, {544, 70}, {}, false, DType::Float32}
                                           : cases[i];
    const config::HardwareConfig &hw = onTpu ? tpu : edge;
    const MachineShape shape{hw.lanes, hw.spadBytesPerLane(), hw.vlenBits};
    CallFixture f;
    f.useNpu(hw);
    const TensorRef a = f.tensor(c.dtype, c.a, c.aStride);
    const TensorRef b = f.tensor(c.dtype, c.b, c.bStride);
    std::vector<int64_t> outShape = c.a;
    outShape.back() = c.b.back();
    const TensorRef out = f.tensor(c.dtype, outShape);
    std::vector<CallArgument> args = {C::arg(a), C::arg(b)};
    if (c.bias)
      args = {C::arg(f.tensor(c.dtype, {c.b.back()})), C::arg(a), C::arg(b), C::number(0.5), C::number(-2.0)};
    const std::vector<const TensorRef *> outs = {&out};
    const CallPlan plan = planCall(c.op, args, outs, shape);
    ASSERT_EQ(plan.launches.size(), 1u);
    EXPECT_EQ(plan.launches[0].kernelName.rfind("npusim_gemm_resident_", 0), 0u) << plan.launches[0].kernelName;
    EXPECT_EQ(f.compare(c.op, args, {out}), "") << c.op << " " << plan.launches[0].kernelName;
    if (c.a[0] == 233) { // 15 tiles of 16: the first step's F, then pairs
      EXPECT_NE(plan.launches[0].source.find("for m0 in range("), std::string::npos);
    }
  }
}

TEST(LibraryGemm, ResidentFirstStepLoadsWithBAndHoldsItsStores) {
  // 1024^3 on the default machine: 8 row tiles of 128, 4 panels of 256, a
  // first step of 2 tiles (B's 32 KiB and four tiles' 8 KiB per lane fill
  // half the bank), then pairs. The first step's loads alternate with B's
  // first panels (a0, b_0, a1, b_1, b_2, b_3) and its first store is the
  // last panel's product c0_3, so the in-order store queue holds every
  // store until all of B is in. 512 x 768 x 768 has the same first step.
  // 256 x 768 x 768 has its two tiles in the first step and nothing after:
  // tiles before panels, products stored in panel order (c0_0 first).
  auto source = [](int64_t m, int64_t n, int64_t k) {
    const CallPlan plan = planMatmul(m, k, n);
    EXPECT_EQ(plan.launches.size(), 1u);
    return plan.launches.empty() ? std::string() : plan.launches[0].source;
  };
  auto at = [](const std::string &text, const std::string &what) {
    const size_t p = text.find(what);
    EXPECT_NE(p, std::string::npos) << what;
    return p;
  };
  for (const auto &[m, last] : {std::pair<int64_t, std::string>{1024, "c0_3"}, {512, "c0_2"}}) {
    const int64_t n = m == 1024 ? 1024 : 768;
    const std::string text = source(m, n, n);
    EXPECT_LT(at(text, "a0_0 = "), at(text, "b_0_0 = "));
    EXPECT_LT(at(text, "b_0_0 = "), at(text, "a1_0 = "));
    EXPECT_LT(at(text, "a1_0 = "), at(text, "b_1_0 = "));
    EXPECT_EQ(at(text, "tl.store("), at(text, "tl.store(c_base + rows_0[:, None] * STRIDE_CM + cols_" +
                                                  last.substr(3) + "[None, :] * STRIDE_CN, " + last));
    EXPECT_NE(text.find("for m0 in range(256, "), std::string::npos) << "two tiles of 128 before the loop";
  }
  const std::string alone = source(256, 768, 768);
  EXPECT_LT(at(alone, "a1_0 = "), at(alone, "b_0_0 = "));
  EXPECT_EQ(at(alone, "tl.store("), at(alone, "tl.store(c_base + rows_0[:, None] * STRIDE_CM + cols_0"));
  EXPECT_EQ(alone.find("for m0"), std::string::npos);
}

TEST(LibraryGemm, ResidentBInColumnBlocksWhenAllOfBDoesNotFit) {
  // On the 8-lane edge machine (16 KiB of tiles per lane) B of 45 x 1200 does
  // not fit: the kernel keeps a column block of B's panels per program (grid
  // y), every panel of a block masked past N, and streams A once per block.
  // Values against the host: ragged M, N and K, and an addmm epilogue.
  const config::HardwareConfig edge = config::loadConfig("edge-8lane");
  MachineShape shape{edge.lanes, edge.spadBytesPerLane(), edge.vlenBits};
  shape.gemmKernel = "resident";
  for (const bool bias : {false, true}) {
    CallFixture f;
    f.useNpu(edge);
    const TensorRef a = f.tensor(DType::Float32, {70, 45});
    const TensorRef b = f.tensor(DType::Float32, {45, 1203});
    const TensorRef out = f.tensor(DType::Float32, {70, 1203});
    std::vector<CallArgument> args = {CallFixture::arg(a), CallFixture::arg(b)};
    const std::string op = bias ? "aten.addmm" : "aten.mm";
    if (bias)
      args = {CallFixture::arg(f.tensor(DType::Float32, {1203})), CallFixture::arg(a), CallFixture::arg(b),
              CallFixture::number(0.5), CallFixture::number(-2.0)};
    const std::vector<const TensorRef *> outs = {&out};
    const CallPlan plan = planCall(op, args, outs, shape);
    ASSERT_EQ(plan.launches.size(), 1u);
    EXPECT_EQ(plan.launches[0].kernelName.rfind("npusim_gemm_resident_", 0), 0u) << plan.launches[0].kernelName;
    EXPECT_GT(plan.launches[0].grid[1], 1) << "column blocks";
    EXPECT_NE(plan.launches[0].source.find("col0 = tl.program_id(1) * "), std::string::npos);
    EXPECT_EQ(f.compare(op, args, {out}, shape), "") << op;
  }
}

TEST(LibraryGemm, ResidentLoadsShareBytesOnlyWithLoads) {
  // 3337 x 540 x 546 on the default machine: 27 row tiles of A in K pieces of
  // 512 and 128 (two loads per tile), three panels; the compiler unrolls the
  // loop over pairs, and the load destinations no longer fit half the bank
  // with bytes of their own each. They share bytes among themselves, below
  // every other tile: a load never waits for a store of a product that took
  // its bytes (docs/compiler.md, "Scratchpad").
  const CallPlan plan = planMatmul(3337, 540, 546);
  ASSERT_EQ(plan.launches.size(), 1u);
  const KernelLaunch &launch = plan.launches[0];
  ASSERT_EQ(launch.kernelName.rfind("npusim_gemm_resident_", 0), 0u) << launch.kernelName;
  triton::ConstexprBindings constexprs;
  for (const auto &[name, value] : launch.constexprs)
    constexprs[name] = value;
  const npu::Program program = compiler::compile(
      *triton::lowerKernel(triton::loadKernel(launch.source, launch.kernelName + ".py"), constexprs),
      config::defaultConfig());
  EXPECT_LE(program.spadBytesUsed, program.spadBytesPerLane / 2);
  std::set<int> loaded, accessed;
  std::function<void(const std::vector<npu::Instruction> &)> walk = [&](const std::vector<npu::Instruction> &body) {
    for (const npu::Instruction &i : body) {
      if (i.opcode == npu::Opcode::DmaLoad)
        loaded.insert(i.dsts.at(0));
      for (int t : npu::readTiles(i))
        accessed.insert(t);
      for (int t : npu::writtenTiles(i))
        accessed.insert(t);
      walk(i.body);
      walk(i.elseBody);
    }
  };
  walk(program.body);
  auto range = [&](int t) {
    const npu::Tile &tile = program.tiles.at(static_cast<size_t>(t));
    return std::pair<int64_t, int64_t>{tile.bankOffset,
                                       tile.bankOffset + tile.layout.bytesPerLane(program.lanes)};
  };
  auto overlap = [&](int t, int u) { return range(u).first < range(t).second && range(t).first < range(u).second; };
  int loadsSharing = 0;
  for (int t : loaded)
    for (int u : loaded)
      loadsSharing += u > t && overlap(t, u);
  EXPECT_GT(loadsSharing, 0) << "the destinations share bytes among themselves";
  // Every other tile the program touches keeps clear of them (a view of a
  // destination over its own bytes aside).
  for (int t : accessed) {
    if (loaded.count(t))
      continue;
    for (int u : loaded) {
      EXPECT_TRUE(!overlap(t, u) || range(t).first == range(u).first)
          << "tile " << t << " overlaps load destination " << u;
    }
  }
}

TEST(LibraryGemm, ResidentMasksOnlyTheLastPanelOfARaggedN) {
  // N = 896 in panels of 256: ceil(896 / 256) = 4 panels, columns 0..767 of
  // the first three all inside N, the last (768..1023) past it. Only the
  // last panel's load and stores carry the column bound.
  detail::ResidentTiles t;
  t.blockM = 128;
  t.firstTiles = 2;
  t.panels = 4;
  detail::GemmKernelFlags k;
  k.nRagged = true;
  k.aType = k.bType = k.biasType = k.cType = "fp32";
  const std::string text = detail::residentGemmSource("kernel", k, t, 8);
  for (int q = 0; q < 3; ++q)
    EXPECT_EQ(text.find("(cols_" + std::to_string(q) + " < N)"), std::string::npos) << "panel " << q;
  // The load of b_3, and one store per A tile of the first step (2), of the
  // loop's pair (2): 5 mentions.
  size_t count = 0;
  for (size_t p = text.find("(cols_3 < N)"); p != std::string::npos; p = text.find("(cols_3 < N)", p + 1))
    ++count;
  EXPECT_EQ(count, 5u);
}

TEST(LibraryGemm, ResidentVariantNamesTellEveryDistinctSourceApart) {
  // The runtime refuses two sources under one kernel name, so a name must
  // change whenever the generated text does. Sweep what the text depends on
  // (tile rows, first-step tiles, panels, row tiles, masks, transposes,
  // epilogue) and check: equal names imply equal texts.
  std::map<std::string, std::string> sourceOfVariant;
  int distinct = 0;
  for (int64_t blockM : {32, 64, 128})
    for (int64_t firstTiles : {1, 2, 4})
      for (int64_t panels : {1, 2})
        for (int64_t tiles : {2, 3, 4, 7})
          for (int flags = 0; flags < 16; ++flags) {
            detail::ResidentTiles t;
            t.blockM = blockM;
            t.firstTiles = firstTiles;
            t.panels = panels;
            detail::GemmKernelFlags k;
            k.mRagged = flags & 1;
            k.bKContiguous = flags & 2;
            k.hasBias = flags & 4;
            k.aMContiguous = flags & 8;
            k.aType = k.bType = k.biasType = k.cType = "fp32";
            const std::string variant = detail::residentVariant(k, t, tiles);
            const std::string source = detail::residentGemmSource("kernel", k, t, tiles);
            const auto [it, added] = sourceOfVariant.emplace(variant, source);
            distinct += added;
            EXPECT_EQ(it->second, source) << "two texts named " << variant;
          }
  // Sources that differ only in blockM (the A tiles' row offsets) are among
  // them: 3 x 16 flag sets x 2 panels x 4 row-tile counts, times the distinct
  // first-step counts min(tiles, firstTiles) per tile count (2:2, 3:3, 4:3, 7:3).
  EXPECT_EQ(distinct, 3 * 16 * 2 * (2 + 3 + 3 + 3));
}

TEST(LibraryGemm, ErrorsNameTheOperatorAndTheArgument) {
  CallFixture f;
  const TensorRef a = f.tensor(DType::Float32, {4, 5});
  const TensorRef b = f.tensor(DType::Float32, {6, 7});
  const TensorRef out = f.tensor(DType::Float32, {4, 7});
  const TensorRef ints = f.tensor(DType::Int32, {5, 7});
  const std::vector<const TensorRef *> outs = {&out};
  auto message = [&](const std::string &op, const std::vector<CallArgument> &args) -> std::string {
    try {
      planCall(op, args, outs, MachineShape{});
    } catch (const core::RuntimeError &e) {
      return e.what();
    }
    return "no error";
  };
  EXPECT_NE(message("aten.mm", {CallFixture::arg(a), CallFixture::arg(b)}).find("aten.mm: the operands' shapes"),
            std::string::npos);
  EXPECT_NE(message("aten.mm", {CallFixture::arg(a), CallFixture::arg(ints)}).find("mat2 has dtype i32"),
            std::string::npos);
  EXPECT_NE(message("aten.mm", {CallFixture::arg(a), CallFixture::integer(3)})
                .find("aten.mm: argument 1 (mat2): expected a tensor, got an integer"),
            std::string::npos);
  const TensorRef b57 = f.tensor(DType::Float32, {5, 7});
  EXPECT_NE(message("aten.addmm", {CallFixture::arg(out), CallFixture::arg(a), CallFixture::arg(b57),
                                   CallFixture::integers({1, 2})})
                .find("argument 3 (beta): expected a number, got a list"),
            std::string::npos);
  // out overlapping an operand (not the exact view of self) is refused.
  const TensorRef square = f.tensor(DType::Float32, {4, 4});
  const std::vector<const TensorRef *> squareOut = {&square};
  EXPECT_THROW(planCall("aten.mm", std::vector<CallArgument>{CallFixture::arg(square), CallFixture::arg(square)},
                        squareOut, MachineShape{}),
               core::RuntimeError);
  EXPECT_THROW(planCall("aten.nonzero", std::vector<CallArgument>{}, outs, MachineShape{}), core::RuntimeError);
  EXPECT_TRUE(isPlanned("aten.mm.default"));
  EXPECT_FALSE(isPlanned("aten.nonzero"));
}

TEST(LibraryGemm, ExternalMappingTilesAreUsedOrRejected) {
  CallFixture f;
  const TensorRef a = f.tensor(DType::Float32, {4096, 512});
  const TensorRef b = f.tensor(DType::Float32, {512, 1024});
  const TensorRef out = f.tensor(DType::Float32, {4096, 1024});
  const std::vector<CallArgument> args = {CallFixture::arg(a), CallFixture::arg(b)};
  const std::vector<const TensorRef *> outs = {&out};
  MachineShape machine;
  machine.mapping["4096_1024_512"] = GemmTiles{256, 128, 64, "m.json: 4096_1024_512"};
  const CallPlan plan = planCall("aten.mm", args, outs, machine);
  ASSERT_EQ(plan.launches.size(), 1u);
  EXPECT_EQ(constant(plan.launches[0], "BLOCK_M"), 256);
  EXPECT_EQ(constant(plan.launches[0], "BLOCK_N"), 128);
  EXPECT_EQ(constant(plan.launches[0], "BLOCK_K"), 64);
  EXPECT_EQ(plan.launches[0].grid[0], 4096 / 256);
  EXPECT_EQ(plan.launches[0].grid[1], 1024 / 128);
  // 8 K blocks: two steps per iteration.
  EXPECT_NE(plan.launches[0].source.find("acc_1"), std::string::npos);
  auto message = [&](GemmTiles t) {
    MachineShape m;
    m.mapping["4096_1024_512"] = t;
    try {
      planCall("aten.mm", args, outs, m);
    } catch (const core::InputError &e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(message(GemmTiles{96, 128, 128, "m.json: 4096_1024_512"}).find("m.json: 4096_1024_512.TILE_M: 96"),
            std::string::npos);
  // 4096 x 1024 x 128: two fp32 accumulators alone are 2 x 8 x 4096 x 4 =
  // 256 KiB per lane, more than half of the 128 KiB bank.
  const std::string big = message(GemmTiles{4096, 1024, 128, "m.json: 4096_1024_512"});
  EXPECT_NE(big.find("m.json: 4096_1024_512: tiles 4096 x 1024 x 128"), std::string::npos) << big;
  EXPECT_NE(big.find("half a lane's bank (65536"), std::string::npos) << big;
}

} // namespace
} // namespace npusim::library
