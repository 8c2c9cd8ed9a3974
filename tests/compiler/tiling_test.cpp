// The block-size search and its cost model on kernels whose best tiling follows
// from their index arithmetic (docs/compiler.md "Cost model").
#include "compiler/kernel_support.h"
#include "compiler/tiling.h"
#include "driver/driver.h"
#include "npu/program.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace npusim::compiler {
namespace {

namespace fs = std::filesystem;

const fs::path kExamples = fs::path(NPUSIM_TEST_DATA).parent_path().parent_path() / "examples";

/// A kernel file of the ResNet-18 bundle; empty, with a failure, when missing.
std::string resnet18Kernel(const std::string &name) {
  const fs::path kernel = kExamples / "resnet18" / "kernels" / (name + ".py");
  if (fs::exists(kernel))
    return kernel.string();
  ADD_FAILURE() << kernel << " is missing";
  return {};
}

/// The DMA instructions of a program's top-level body.
std::vector<const npu::Instruction *> dmas(const npu::Program &program, npu::Opcode opcode) {
  std::vector<const npu::Instruction *> found;
  for (const npu::Instruction &i : program.body)
    if (i.opcode == opcode)
      found.push_back(&i);
  return found;
}

int64_t immediateStride(const npu::Instruction &dma, size_t axis) {
  const npu::ScalarOperand &s = dma.dma.strides.at(axis);
  return s.isRegister() ? -1 : s.intValue;
}

// ResNet-18's layout change: out[y1, x, y0] = in[y1 * 128 + y0, x] with
// y0 = y % 128, y1 = y // 128, x < 9 (loads in_ptr0 + x + 9 y, stores
// out_ptr0 + y0 + 128 x + 1152 y1). A block of YBLOCK = 128 q rows splits y
// into digits y = 128 i0 + i2 (i0 < q, i2 < 128 = the lanes): the store
// address is i2 + 128 x + 1152 (yoffset / 128 + i0), a strided box walked as
// [i0, x, i2] with strides [1152, 128, 1], runs of 128 x 4 = 512 bytes (8
// requests of 64 B). The old rule (YBLOCK = 8192, XBLOCK = 1) read 4-byte
// elements 36 bytes apart; without the split YBLOCK stayed at 128.
TEST(Tiling, LayoutChangingPointwiseGetsContiguousRuns) {
  const std::string kernel =
      resnet18Kernel("triton_poi_fused__native_batch_norm_legit_no_training_convolution_relu_0");
  if (kernel.empty())
    return;
  const testing::CompiledKernel k = testing::compileKernelFile(kernel, config::loadConfig("tpuv3-like"));
  const auto loads = dmas(k.program, npu::Opcode::DmaLoad);
  const auto stores = dmas(k.program, npu::Opcode::DmaStore);
  ASSERT_EQ(loads.size(), 1u);
  ASSERT_EQ(stores.size(), 1u);
  for (const npu::Instruction *dma : {loads[0], stores[0]}) {
    EXPECT_FALSE(dma->dma.gathered());
    EXPECT_EQ(immediateStride(*dma, dma->dma.strides.size() - 1), 1);
  }
  const npu::TileLayout &stored = k.program.tiles.at(stores[0]->srcs.at(0)).layout;
  ASSERT_EQ(stored.rank(), 3);
  EXPECT_EQ(stored.shape[1], 16);
  EXPECT_EQ(stored.shape[2], 128);
  EXPECT_EQ(stored.laneAxis, 2);
  EXPECT_GT(stored.shape[0], 1); // more than one y1 per instance
  EXPECT_EQ(immediateStride(*stores[0], 0), 1152);
  EXPECT_EQ(immediateStride(*stores[0], 1), 128);
  // The load's rows are whole: XBLOCK covers xnumel = 9.
  const npu::TileLayout &loaded = k.program.tiles.at(loads[0]->dsts.at(0)).layout;
  EXPECT_GE(loaded.shape.back(), 9);
  EXPECT_GE(k.cost.bytesPerStoreRun(), 512.0);
}

// tests/compiler/data/box_access.py reads in_ptr0 + x0 + 256 x1 + 2048 x2 with
// x0 = x % 128, x1 = (x // 128) % 4, x2 = x // 512 over a block of B elements
// starting at a multiple of B. With B a multiple of 512, x = xoffset + 512 i0 +
// 128 i1 + i2 (i0 < B / 512, i1 < 4, i2 < 128) gives x0 = i2, x1 = i1,
// x2 = xoffset / 512 + i0: the address xoffset * 4 + 2048 i0 + 256 i1 + i2, a
// strided DMA over [B / 512, 4, 128] with strides [2048, 256, 1] and the lanes
// on i2 (element x of the [B] tile sits in lane x % 128, slot x / 128 = 4 i0 +
// i1: the same bytes). The shifted load adds 128 to the base and keeps its
// mask x1 < 3. Runs: 128 x 4 = 512 bytes, 4 B / 512 of them per load.
TEST(Tiling, IndexArithmeticOfDigitsIsAStridedBox) {
  const fs::path kernel = fs::path(NPUSIM_TEST_DATA).parent_path() / "compiler" / "data" / "box_access.py";
  const testing::CompiledKernel k =
      testing::compileKernelFile(kernel.string(), config::loadConfig("tpuv3-like"));
  const auto loads = dmas(k.program, npu::Opcode::DmaLoad);
  ASSERT_EQ(loads.size(), 2u);
  const npu::TileLayout &first = k.program.tiles.at(loads[0]->dsts.at(0)).layout;
  ASSERT_EQ(first.rank(), 3);
  const int64_t block = first.numElements();
  ASSERT_EQ(block % 512, 0);
  for (const npu::Instruction *load : loads) {
    EXPECT_FALSE(load->dma.gathered());
    const npu::TileLayout &data = k.program.tiles.at(load->dsts.at(0)).layout;
    EXPECT_EQ(data.shape, (ir::Shape{block / 512, 4, 128}));
    EXPECT_EQ(data.laneAxis, 2);
    EXPECT_EQ(immediateStride(*load, 0), 2048);
    EXPECT_EQ(immediateStride(*load, 1), 256);
    EXPECT_EQ(immediateStride(*load, 2), 1);
  }
  EXPECT_LT(loads[0]->dma.maskTile, 0);
  EXPECT_GE(loads[1]->dma.maskTile, 0);
  // Two loads of 4 B / 512 runs each and one contiguous store of B elements.
  EXPECT_EQ(k.cost.dmaRuns, 2 * 4 * block / 512 + 1);
}

// A 1024 x 1024 fp32 transpose (tests/data/kernels): both DMAs walk DRAM in
// order, one of them through a permuted view of the tile, in runs of at least
// 128 elements (512 B, 8 DRAM accesses of 64 B).
TEST(Tiling, TransposeWalksBothSidesInDramOrder) {
  const fs::path kernel = fs::path(NPUSIM_TEST_DATA) / "kernels" / "triton_poi_fused_clone_transpose_0.py";
  const testing::CompiledKernel k =
      testing::compileKernelFile(kernel.string(), config::loadConfig("tpuv3-like"));
  const auto loads = dmas(k.program, npu::Opcode::DmaLoad);
  const auto stores = dmas(k.program, npu::Opcode::DmaStore);
  ASSERT_EQ(loads.size(), 1u);
  ASSERT_EQ(stores.size(), 1u);
  for (const npu::Instruction *dma : {loads[0], stores[0]}) {
    EXPECT_FALSE(dma->dma.gathered());
    EXPECT_EQ(immediateStride(*dma, 1), 1);
    EXPECT_EQ(immediateStride(*dma, 0), 1024);
  }
  EXPECT_GE(k.program.tiles.at(loads[0]->dsts.at(0)).layout.shape[1], 128);
  EXPECT_GE(k.program.tiles.at(stores[0]->srcs.at(0)).layout.shape[1], 128);
}

// The chosen block sizes travel with the program: `npusim compile --dump`
// prints them as its `blocks:` line. The transpose's search keeps YBLOCK and
// XBLOCK (its two block axes); a template keeps the launch's values and has
// no line.
TEST(Tiling, ProgramNamesTheChosenBlockSizes) {
  const fs::path kernel = fs::path(NPUSIM_TEST_DATA) / "kernels" / "triton_poi_fused_clone_transpose_0.py";
  const testing::CompiledKernel k =
      testing::compileKernelFile(kernel.string(), config::loadConfig("tpuv3-like"));
  ASSERT_EQ(k.program.blockSizes.size(), 2u);
  std::string line = "blocks:";
  for (const auto &[name, size] : k.program.blockSizes) {
    auto bound = k.constexprs.find(name);
    ASSERT_NE(bound, k.constexprs.end()) << name;
    EXPECT_EQ(std::get<int64_t>(bound->second), size) << name;
    line += " " + name + "=" + std::to_string(size);
  }
  EXPECT_NE(npu::print(k.program).find(line + "\n"), std::string::npos) << line;
  EXPECT_TRUE(k.program.blockSizes[0].first == "YBLOCK" || k.program.blockSizes[1].first == "YBLOCK");
  const testing::CompiledKernel t = testing::compileKernelFile(
      (kExamples / "gpt2-templates" / "kernels" / "triton_tem_fused_bmm_split_transpose_view_2.py").string(),
      config::loadConfig("tpuv3-like"));
  EXPECT_TRUE(t.program.blockSizes.empty());
  EXPECT_EQ(npu::print(t.program).find("blocks:"), std::string::npos);
}

// The search's candidates are independent, so compiling them on several
// threads must give what one thread gives: the same blocks, program, estimate
// and rejected list (in candidate order), on a 2-D pointwise search and a
// persistent reduction, on two machines.
TEST(Tiling, ThreadsDoNotChangeTheChoice) {
  const fs::path transpose = fs::path(NPUSIM_TEST_DATA) / "kernels" / "triton_poi_fused_clone_transpose_0.py";
  const std::string reduction = (kExamples / "resnet18" / "kernels" /
                                 "triton_per_fused__native_batch_norm_legit_no_training_add_mean_relu_21.py")
                                    .string();
  for (const config::HardwareConfig &machine : {config::loadConfig("tpuv3-like"), testing::smallMachine()})
    for (const std::string &path : {transpose.string(), reduction}) {
      const triton::KernelFile file = triton::loadKernelFile(path);
      const std::map<std::string, int64_t> scalars(file.metadata.bodyConstants.begin(),
                                                   file.metadata.bodyConstants.end());
      const triton::ConstexprBindings constexprs = triton::defaultConstexprs(file.metadata);
      const auto one = driver::compileForNpu(file, constexprs, scalars, machine, {}, 1);
      const auto four = driver::compileForNpu(file, constexprs, scalars, machine, {}, 4);
      SCOPED_TRACE(path + " on " + machine.name);
      EXPECT_TRUE(one->blocksChosen);
      EXPECT_EQ(one->program.blockSizes, four->program.blockSizes);
      EXPECT_EQ(npu::print(one->program), npu::print(four->program));
      EXPECT_EQ(one->cost.cycles, four->cost.cycles);
      EXPECT_EQ(one->rejected, four->rejected);
    }
}

// Cost model closed forms on the transpose with YBLOCK = 128, XBLOCK = 256 on
// tpuv3-like: each instance loads 256 runs of 128 x 4 = 512 B (8 requests of
// 64 B each) and stores 128 runs of 1 KiB (16 requests): 256 * 8 + 128 * 16 =
// 4096 requests, 2 x 128 KiB = 262,144 bytes, 32 instances.
TEST(Tiling, CostModelCountsRequestsAndBytes) {
  const fs::path kernel = fs::path(NPUSIM_TEST_DATA) / "kernels" / "triton_poi_fused_clone_transpose_0.py";
  const triton::KernelFile file = triton::loadKernelFile(kernel.string());
  triton::ConstexprBindings constexprs = triton::defaultConstexprs(file.metadata);
  constexprs["YBLOCK"] = int64_t{128};
  constexprs["XBLOCK"] = int64_t{256};
  const config::HardwareConfig machine = config::loadConfig("tpuv3-like");
  const npu::Program program = compile(*triton::lowerKernel(file, constexprs), machine);
  const ProgramCost cost = estimateCost(program, machine, 32);
  EXPECT_EQ(cost.dmaRequests, 4096);
  EXPECT_EQ(cost.dmaRuns, 256 + 128);
  EXPECT_DOUBLE_EQ(cost.dmaBytes, 262144.0);
  EXPECT_EQ(cost.instances, 32);
  // DRAM: 16 channels interleaved every 64-byte access (RoBaRaCoCh), one access
  // per 2 DRAM cycles at 940 MHz, the core clock too. A load run of 512 B covers
  // 8 channels and the next, 4 KiB further, the same 8: 256 runs x 1 access on
  // each of those. A store run of 1 KiB covers all 16: 128 x 1 on each. The
  // busiest channel serves 256 + 128 = 384 accesses = 768 cycles (the balanced
  // share would be 4096 / 16 x 2 = 512).
  EXPECT_NEAR(cost.dram, 768.0, 1.0);
  EXPECT_EQ(cost.bound, CostBound::DramBandwidth);
}

// ResNet-18's batch norm + relu over 802,816 = 12,544 x 64 activations reads its
// four per-channel parameters at `x % 64`. A block of XBLOCK elements (a
// multiple of 128) repeats them every lcm(64, 128 lanes) = 128 elements, so
// each parameter costs one gather of 128 elements (two runs of 64 x 4 = 256 B,
// 8 requests) and a broadcast on chip, not a gather of XBLOCK elements: the
// program's DMA bytes are 2 x 4 XBLOCK (activations in and out) + 4 x 128 x 4.
// The four loads share one `% 64` on 128 indices; the block-wide `% 64` the
// gathers no longer read is gone.
TEST(Tiling, PerChannelParametersLoadOnePeriod) {
  const std::string kernel = resnet18Kernel("triton_poi_fused__native_batch_norm_legit_no_training_relu_4");
  if (kernel.empty())
    return;
  const config::HardwareConfig machine = config::loadConfig("tpuv3-like");
  const testing::CompiledKernel k = testing::compileKernelFile(kernel, machine);
  int64_t xblock = 0;
  if (auto it = k.constexprs.find("XBLOCK");
      it != k.constexprs.end() && std::holds_alternative<int64_t>(it->second))
    xblock = std::get<int64_t>(it->second);
  ASSERT_GE(xblock, 128);
  int gathers = 0, broadcasts = 0, remainders = 0;
  for (const npu::Instruction &i : k.program.body) {
    if (i.opcode == npu::Opcode::DmaLoad && i.dma.gathered()) {
      ++gathers;
      EXPECT_EQ(k.program.tiles.at(i.dsts.at(0)).layout.numElements(), 128);
    }
    broadcasts += i.opcode == npu::Opcode::VBroadcast;
    if (i.opcode == npu::Opcode::VElementwise && i.function.op == npu::ElementOp::Rem) {
      ++remainders;
      EXPECT_EQ(k.program.tiles.at(i.dsts.at(0)).layout.numElements(), 128);
    }
  }
  EXPECT_EQ(gathers, 4);
  EXPECT_EQ(broadcasts, 4);
  EXPECT_EQ(remainders, 1);
  EXPECT_DOUBLE_EQ(k.cost.dmaBytes, 2.0 * 4 * static_cast<double>(xblock) + 4 * 128 * 4);
}

// ResNet-18's weight layout change (YBLOCK x XBLOCK tiles, xnumel = 9) masks its
// accesses with `xmask & ymask`, xmask = x < 9 over a [1, XBLOCK] row. The tile's
// lane axis is y, so that row sits in one lane: broadcasting it would be a
// cross-lane XBroadcast per instance (64 destination slots + 7 butterfly stages
// x 4 cycles = 92 cycles on tpuv3-like). The compare is recomputed at
// [YBLOCK, XBLOCK] from its splat and affine operands on the vector unit instead:
// no cross-lane instruction is left.
TEST(Tiling, BroadcastMaskRowsAreRecomputedInTheLanes) {
  const std::string kernel =
      resnet18Kernel("triton_poi_fused__native_batch_norm_legit_no_training_convolution_relu_19");
  if (kernel.empty())
    return;
  const testing::CompiledKernel k = testing::compileKernelFile(kernel, config::loadConfig("tpuv3-like"));
  for (const npu::Instruction &i : k.program.body)
    EXPECT_NE(npu::unitOf(i.opcode), npu::Unit::CrossLane) << npu::name(i.opcode);
  EXPECT_EQ(k.cost.crossLane, 0.0);
  const auto loads = dmas(k.program, npu::Opcode::DmaLoad);
  ASSERT_EQ(loads.size(), 1u);
  EXPECT_TRUE(loads[0]->dma.masked());
}

// The same kernel's load, in_ptr0 + x + 9 y under xmask & ymask with x < 9 of
// a 16-wide block: the DMA's clip box (docs/compiler.md "Masks as clip
// boxes") bounds x by 9 - XBLOCK * program_id(0), which differs by instance,
// so the cost model counts the whole tile: with YBLOCK = 512, 512 rows of 16
// elements, each its own run (x's 16 do not continue at 9 y), 512 x 16 x 4 =
// 32,768 bytes.
TEST(Tiling, CostModelTakesAClipThatVariesByInstanceAsTheWholeTile) {
  const std::string kernel =
      resnet18Kernel("triton_poi_fused__native_batch_norm_legit_no_training_convolution_relu_19");
  if (kernel.empty())
    return;
  const triton::KernelFile file = triton::loadKernelFile(kernel);
  triton::ConstexprBindings constexprs = triton::defaultConstexprs(file.metadata);
  constexprs["YBLOCK"] = int64_t{512};
  constexprs["XBLOCK"] = int64_t{16};
  const config::HardwareConfig machine = config::loadConfig("tpuv3-like");
  const npu::Program program = compile(*triton::lowerKernel(file, constexprs), machine);
  const ProgramCost cost = estimateCost(program, machine, 512, {{"ynumel", 262144}, {"xnumel", 9}});
  EXPECT_EQ(cost.dmaRuns - cost.storeRuns, 512);
  EXPECT_DOUBLE_EQ(cost.dmaBytes - cost.storeBytes, 32768.0);
}

} // namespace
} // namespace npusim::compiler
