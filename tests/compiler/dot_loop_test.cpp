// A Triton GEMM template's K loop on the NPU (docs/compiler.md, "Unwrapped
// remainders", "Dot-loop unrolling"): GPT-2's MLP down projection as Inductor
// captured it, M = 32, N = 768, K = 3072 with BLOCK_M = BLOCK_N = 32, BLOCK_K =
// 128, rows `(pid_m * 32 + arange(32)) % 32` and columns `% 768`.
#include "compiler/kernel_support.h"
#include "npu/program.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace npusim::compiler {
namespace {

namespace fs = std::filesystem;

std::vector<const npu::Instruction *> ofOpcode(const std::vector<npu::Instruction> &body,
                                               npu::Opcode opcode) {
  std::vector<const npu::Instruction *> found;
  for (const npu::Instruction &i : body)
    if (i.opcode == opcode)
      found.push_back(&i);
  return found;
}

// Expected, by hand: the body is versioned on the rows and columns not
// wrapping; the then branch has the K loop over 3072 / 128 = 24 iterations
// run four per body (24 % 4 = 0: no loop for a rest), `loop r = 0, 24, 4`.
// Each copy loads A [32, 128] and B [128, 32] with strided DMAs (no index
// tile) into tiles of its own (8 loads, 8 distinct tiles), then one weight
// load and one matmul (K = 128 and N = 32 are one array block each): 4 + 4,
// the even steps on one array into the carried tile, the odd ones on the
// other array into a second carried tile (no vector add left in the loop).
// The else branch keeps the gathers.
TEST(DotLoop, TemplateKLoopIsUnwrappedAndRunsFourStepsPerBody) {
  const fs::path kernel = fs::path(NPUSIM_TEST_DATA).parent_path().parent_path() / "examples" /
                          "gpt2-templates" / "kernels" / "triton_tem_fused_add_addmm_mul_pow_tanh_view_10.py";
  const testing::CompiledKernel k =
      testing::compileKernelFile(kernel.string(), config::loadConfig("tpuv3-like"));
  const auto ifs = ofOpcode(k.program.body, npu::Opcode::If);
  ASSERT_EQ(ifs.size(), 1u);
  const auto loops = ofOpcode(ifs[0]->body, npu::Opcode::Loop);
  ASSERT_EQ(loops.size(), 1u);
  const npu::Instruction &loop = *loops[0];
  ASSERT_EQ(loop.scalars.size(), 3u);
  EXPECT_EQ(loop.scalars[0].intValue, 0);
  EXPECT_EQ(loop.scalars[1].intValue, 24);
  EXPECT_EQ(loop.scalars[2].intValue, 4);
  EXPECT_FALSE(loop.scalars[1].isRegister());

  const auto loads = ofOpcode(loop.body, npu::Opcode::DmaLoad);
  ASSERT_EQ(loads.size(), 8u);
  std::set<int> loaded;
  for (const npu::Instruction *load : loads) {
    EXPECT_FALSE(load->dma.gathered());
    loaded.insert(load->dsts.at(0));
  }
  EXPECT_EQ(loaded.size(), 8u);
  const auto weights = ofOpcode(loop.body, npu::Opcode::MLoadWeights);
  const auto matmuls = ofOpcode(loop.body, npu::Opcode::MMatmul);
  ASSERT_EQ(weights.size(), 4u);
  ASSERT_EQ(matmuls.size(), 4u);
  // Steps 0 and 2 accumulate into one home on one array, steps 1 and 3 into
  // another home on the other array: the two arrays work side by side.
  EXPECT_NE(matmuls[0]->array, matmuls[1]->array);
  EXPECT_NE(matmuls[0]->dsts.at(0), matmuls[1]->dsts.at(0));
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(weights[i]->array, matmuls[i % 2]->array);
    EXPECT_EQ(matmuls[i]->array, matmuls[i % 2]->array);
    EXPECT_TRUE(matmuls[i]->accumulate);
    EXPECT_EQ(matmuls[i]->dsts.at(0), matmuls[i % 2]->dsts.at(0));
  }
  for (const npu::Instruction &i : loop.body)
    EXPECT_NE(i.opcode, npu::Opcode::VElementwise) << "a vector op left in the K loop";

  bool gathers = false;
  for (const npu::Instruction &i : ifs[0]->elseBody)
    for (const npu::Instruction *load : ofOpcode(i.body, npu::Opcode::DmaLoad))
      gathers = gathers || load->dma.gathered();
  EXPECT_TRUE(gathers);
}

/// The instructions of `body` on `unit`, nested bodies included.
void onUnit(const std::vector<npu::Instruction> &body, npu::Unit unit,
            std::vector<const npu::Instruction *> &out) {
  for (const npu::Instruction &i : body) {
    if (npu::unitOf(i.opcode) == unit)
      out.push_back(&i);
    onUnit(i.body, unit, out);
    onUnit(i.elseBody, unit, out);
  }
}

// MobileNetV2's depthwise template (GROUPS = C = 144, BLOCK_M = 64, BLOCK_N =
// 256, BLOCK_K = 16). shrink-dead-lanes cuts its dot to [64, 1] x [1, 1] (one
// live column, one live K term) and outer-product-dots makes it a multiply
// and an add with the rows on the lanes, stored from that layout. Its gather
// offsets and masks come from `[64, 1]` rows (`nhw % 56`, `nhw // 56 % 56`)
// and the cut aranges; computed with the rows on the lanes they need no
// relayout. The one cross-lane step left is the tap's weight, one element
// broadcast to the 64 rows' lanes: every cross-lane instruction reads a
// one-element tile, one broadcast per tap (3 x 3 = 9).
TEST(DotLoop, DepthwiseTemplateHasNoCrossLaneWork) {
  const fs::path kernel = fs::path(NPUSIM_TEST_DATA).parent_path().parent_path() / "examples" /
                          "mobilenet_v2-templates" / "kernels" /
                          "triton_tem_fused__native_batch_norm_legit_no_training_convolution_hardtanh_15.py";
  const testing::CompiledKernel k =
      testing::compileKernelFile(kernel.string(), config::loadConfig("tpuv3-like"));
  std::vector<const npu::Instruction *> crossLane;
  onUnit(k.program.body, npu::Unit::CrossLane, crossLane);
  int broadcasts = 0;
  for (const npu::Instruction *i : crossLane) {
    EXPECT_EQ(k.program.tiles.at(i->srcs.at(0)).layout.numElements(), 1) << npu::name(i->opcode);
    broadcasts += i->opcode == npu::Opcode::XBroadcast;
  }
  // The 9 taps (one K term each) are unrolled fully, one weight broadcast
  // each, and no loop is left.
  EXPECT_EQ(broadcasts, 9);
  std::vector<const npu::Instruction *> systolic;
  onUnit(k.program.body, npu::Unit::Systolic, systolic);
  EXPECT_TRUE(systolic.empty()) << "the dot is left on the arrays";
  // The store mask's column `256 pid_y + 0 < 1` holds only for pid_y = 0:
  // the rest of the body runs inside one If on that test
  // (skip-dead-instances), the store with it.
  EXPECT_TRUE(ofOpcode(k.program.body, npu::Opcode::DmaStore).empty());
  const auto ifs = ofOpcode(k.program.body, npu::Opcode::If);
  ASSERT_EQ(ifs.size(), 1u);
  EXPECT_TRUE(ofOpcode(ifs[0]->body, npu::Opcode::Loop).empty());
  const auto stores = ofOpcode(ifs[0]->body, npu::Opcode::DmaStore);
  ASSERT_EQ(stores.size(), 1u);
  ASSERT_GE(stores[0]->dma.indexTile, 0);
  EXPECT_EQ(k.program.tiles.at(stores[0]->dma.indexTile).layout.laneAxis, 0);
  EXPECT_EQ(k.program.tiles.at(stores[0]->srcs.at(0)).layout.laneAxis, 0);
}

} // namespace
} // namespace npusim::compiler
