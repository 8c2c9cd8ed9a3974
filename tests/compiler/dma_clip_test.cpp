// Masks that bound single tile axes become DMA clip boxes (docs/compiler.md,
// "Masks as clip boxes"): no mask tile, no vector arithmetic for it, and the
// same elements moved. The kernel is tests/data/kernels/dma_clip_bounds.py;
// the expected values are computed here from its definition.
#include "config/hardware.h"
#include "driver/driver.h"
#include "reference/interpreter.h"
#include "runtime/kernels.h"
#include "triton/frontend.h"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>

namespace npusim {
namespace {

namespace fs = std::filesystem;

// As the kernel states them.
constexpr int64_t kR = 300, kC = 100, kLo = 7, kHi = 90, kBlockR = 128, kN = 41;

struct Dmas {
  int clipped = 0, masked = 0;
};

void countDmas(const std::vector<npu::Instruction> &body, Dmas &d) {
  for (const npu::Instruction &i : body) {
    if (i.opcode == npu::Opcode::DmaLoad || i.opcode == npu::Opcode::DmaStore) {
      d.clipped += i.dma.clipped();
      d.masked += i.dma.maskTile >= 0;
    }
    countDmas(i.body, d);
    countDmas(i.elseBody, d);
  }
}

std::unique_ptr<driver::NpuKernel> compile() {
  const triton::KernelFile file =
      triton::loadKernelFile((fs::path(NPUSIM_TEST_DATA) / "kernels" / "dma_clip_bounds.py").string());
  return driver::compileForNpu(file, {}, {}, config::loadConfig("tpuv3-like"));
}

reference::Buffer buffer(const std::string &name, core::DType type, int64_t n) {
  reference::Buffer b;
  b.name = name;
  b.dtype = type;
  b.bytes.assign(static_cast<size_t>(n) * 4, 0);
  return b;
}

float at(const reference::Buffer &b, int64_t i) {
  float v;
  std::memcpy(&v, b.bytes.data() + i * 4, 4);
  return v;
}

TEST(DmaClip, BoundsOnSingleAxesClipTheDmaInsteadOfAMaskTile) {
  Dmas d;
  countDmas(compile()->program.body, d);
  // Two loads and three stores; only the load with `cols % 3 != 0` keeps a mask tile.
  EXPECT_EQ(d.clipped, 4);
  EXPECT_EQ(d.masked, 1);
}

TEST(DmaClip, AClippedTransferMovesExactlyTheMaskedElements) {
  const auto kernel = compile();
  reference::Buffer x = buffer("x", core::DType::Float32, kR * kC), n = buffer("n", core::DType::Int32, 1),
                    out = buffer("out", core::DType::Float32, kR * kC),
                    outT = buffer("out_t", core::DType::Float32, kC * kR),
                    every = buffer("out_every", core::DType::Float32, kR * kC);
  for (int64_t i = 0; i < kR * kC; ++i) {
    const float v = static_cast<float>(i % 1000) + 0.5f;
    std::memcpy(x.bytes.data() + i * 4, &v, 4);
  }
  const int32_t bound = static_cast<int32_t>(kN);
  std::memcpy(n.bytes.data(), &bound, 4);
  const float sentinel = 12345.0f;
  for (reference::Buffer *b : {&outT})
    for (int64_t i = 0; i < kC * kR; ++i)
      std::memcpy(b->bytes.data() + i * 4, &sentinel, 4);
  std::vector<reference::Argument> args = {{&x, 0, {}}, {&n, 0, {}}, {&out, 0, {}}, {&outT, 0, {}}, {&every, 0, {}}};
  runtime::RunOptions options;
  options.mode = runtime::Mode::Full;
  options.machine = config::loadConfig("tpuv3-like");
  const runtime::KernelRun run =
      runtime::runOnNpu(*kernel, triton::GridSize{(kR + kBlockR - 1) / kBlockR, 1, 1}, args, options, "clip");
  int wrong = 0;
  int64_t boxed = 0, every3 = 0; // active elements of the clipped load and of the masked one
  for (int64_t r = 0; r < kR; ++r)
    for (int64_t c = 0; c < kC; ++c) {
      const float v = at(x, r * kC + c);
      const bool inside = c >= kLo && c <= kHi;
      boxed += inside;
      every3 += c % 3 != 0;
      wrong += at(out, r * kC + c) != (inside ? v : -1.0f);
      wrong += at(outT, c * kR + r) != (c < kN ? (inside ? v : -1.0f) : sentinel);
      wrong += at(every, r * kC + c) != (c % 3 != 0 ? v : 0.0f);
    }
  EXPECT_EQ(wrong, 0);
  // The timing simulator's DRAM reads: the clipped load's box exactly, the
  // masked load's active elements (whose one-element gaps ride in the
  // requests of their granules: at most its rows' bytes) and the bound (at
  // least one 4-byte read, at most a request granule).
  ASSERT_TRUE(run.timed);
  EXPECT_GE(run.timing.dramBytesRead, (boxed + every3) * 4 + 4);
  EXPECT_LE(run.timing.dramBytesRead, (boxed + kR * kC) * 4 + 64);
  EXPECT_GT(run.timing.dramBytesRead, (boxed + every3) * 4 + 64); // the gaps are read
}

} // namespace
} // namespace npusim
