// Whether a block that does not divide an axis's numel is proven safe: every
// access along the axis masked by `index < numel` (compiler/axis_masks.h).
#include "compiler/axis_masks.h"
#include "triton/frontend.h"

#include <gtest/gtest.h>

#include <string>

namespace npusim::compiler {
namespace {

/// A pointwise Inductor kernel over xnumel elements whose body is `body`.
std::string pointwise(const std::string &name, const std::string &body) {
  return "import triton\n"
         "import triton.language as tl\n"
         "from torch._inductor.runtime import triton_helpers, triton_heuristics\n"
         "\n"
         "@triton_heuristics.pointwise(\n"
         "    size_hints={'x': 4096},\n"
         "    filename=__file__,\n"
         "    triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'out_ptr0': '*fp32', "
         "'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'constants': {}},\n"
         "    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': '" +
         name +
         "'},\n"
         ")\n"
         "@triton.jit\n"
         "def " +
         name + "(in_ptr0, in_ptr1, out_ptr0, xnumel, XBLOCK : tl.constexpr):\n" + body;
}

bool masked(const std::string &source, int64_t block, int64_t numel) {
  const triton::KernelFile file = triton::loadKernel(source, "axis_masks_test.py");
  const auto function = triton::lowerKernel(file, {{"XBLOCK", block}});
  return maskedAlongAxis(*function, TiledAxis{block, "xnumel", numel, 0});
}

// Every access is masked by xindex < xnumel (the argument), the per-channel
// loads through x % 144 included: a block of 1024 over 2048 elements may grow.
const std::string kMaskedBody = "    xoffset = tl.program_id(0) * XBLOCK\n"
                                "    xindex = xoffset + tl.arange(0, XBLOCK)[:]\n"
                                "    xmask = xindex < xnumel\n"
                                "    x0 = (xindex % 144)\n"
                                "    tmp0 = tl.load(in_ptr0 + (xindex), xmask)\n"
                                "    tmp1 = tl.load(in_ptr1 + (x0), xmask, eviction_policy='evict_last')\n"
                                "    tmp2 = tmp0 + tmp1\n"
                                "    tl.store(out_ptr0 + (xindex), tmp2, xmask)\n";

TEST(AxisMasks, EveryAccessMaskedMayNotDivide) {
  EXPECT_TRUE(masked(pointwise("masked_add", kMaskedBody), 1024, 2048));
}

TEST(AxisMasks, BodyConstantNumelCountsAsBound) {
  // xnumel = 2048 folds into a constant; a mask against 2048 bounds the axis
  // of 2048 elements, one against 4096 does not (4096 > numel).
  std::string body = kMaskedBody;
  EXPECT_TRUE(masked(pointwise("constant_numel", "    xnumel = 2048\n" + body), 1024, 2048));
  EXPECT_FALSE(masked(pointwise("constant_numel", "    xnumel = 4096\n" + body), 1024, 2048));
}

TEST(AxisMasks, InductorsUnmaskedKernelMustDivide) {
  // What Inductor writes when XBLOCK divides xnumel: an all-true mask.
  const std::string body = "    xoffset = tl.program_id(0) * XBLOCK\n"
                           "    xindex = xoffset + tl.arange(0, XBLOCK)[:]\n"
                           "    xmask = tl.full([XBLOCK], True, tl.int1)\n"
                           "    tmp0 = tl.load(in_ptr0 + (xindex), None)\n"
                           "    tl.store(out_ptr0 + (xindex), tmp0, None)\n";
  EXPECT_FALSE(masked(pointwise("unmasked_copy", body), 1024, 2048));
}

TEST(AxisMasks, OneUnmaskedLoadMustDivide) {
  const std::string body = "    xoffset = tl.program_id(0) * XBLOCK\n"
                           "    xindex = xoffset + tl.arange(0, XBLOCK)[:]\n"
                           "    xmask = xindex < xnumel\n"
                           "    x0 = (xindex % 144)\n"
                           "    tmp0 = tl.load(in_ptr0 + (xindex), xmask)\n"
                           "    tmp1 = tl.load(in_ptr1 + (x0))\n"
                           "    tl.store(out_ptr0 + (xindex), tmp0 + tmp1, xmask)\n";
  EXPECT_FALSE(masked(pointwise("one_unmasked_load", body), 1024, 2048));
}

TEST(AxisMasks, MaskOnAnotherValueMustDivide) {
  // The mask bounds x0 = xindex % 144, not the index: elements past xnumel
  // still pass it.
  const std::string body = "    xoffset = tl.program_id(0) * XBLOCK\n"
                           "    xindex = xoffset + tl.arange(0, XBLOCK)[:]\n"
                           "    x0 = (xindex % 144)\n"
                           "    xmask = x0 < xnumel\n"
                           "    tmp0 = tl.load(in_ptr0 + (xindex), xmask)\n"
                           "    tl.store(out_ptr0 + (xindex), tmp0, xmask)\n";
  EXPECT_FALSE(masked(pointwise("mask_on_remainder", body), 1024, 2048));
}

TEST(AxisMasks, MaskOnAnotherProgramIdMustDivide) {
  // The address is indexed by program_id(0), the mask bounds an index built
  // from program_id(1) with the same block: in program (last x block, 0) the
  // mask is arange < xnumel, all true, and the x index runs past xnumel.
  const std::string body = "    xoffset = tl.program_id(0) * XBLOCK\n"
                           "    xindex = xoffset + tl.arange(0, XBLOCK)[:]\n"
                           "    yindex = tl.program_id(1) * XBLOCK + tl.arange(0, XBLOCK)[:]\n"
                           "    ymask = yindex < xnumel\n"
                           "    tmp0 = tl.load(in_ptr0 + (xindex), ymask)\n"
                           "    tl.store(out_ptr0 + (xindex), tmp0, ymask)\n";
  EXPECT_FALSE(masked(pointwise("mask_on_other_pid", body), 1024, 2048));
}

/// Inductor's 2-D transpose (Grid2D): y runs along program_id(1) and dim 0,
/// x along program_id(0) and dim 1; both masks are in every access.
bool transposeMasked(const TiledAxis &axis) {
  const std::string source =
      "import triton\n"
      "import triton.language as tl\n"
      "from torch._inductor.runtime import triton_helpers, triton_heuristics\n"
      "\n"
      "@triton_heuristics.pointwise(\n"
      "    size_hints={'y': 512, 'x': 16}, tile_hint=TileHint.SQUARE,\n"
      "    filename=__file__,\n"
      "    triton_meta={'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'ynumel': 'i32', "
      "'xnumel': 'i32', 'YBLOCK': 'constexpr', 'XBLOCK': 'constexpr'}, 'constants': {}},\n"
      "    inductor_meta={'grid_type': 'Grid2D', 'kernel_name': 'transpose'},\n"
      ")\n"
      "@triton.jit\n"
      "def transpose(in_ptr0, out_ptr0, ynumel, xnumel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr):\n"
      "    yoffset = tl.program_id(1) * YBLOCK\n"
      "    yindex = yoffset + tl.arange(0, YBLOCK)[:, None]\n"
      "    ymask = yindex < ynumel\n"
      "    xoffset = tl.program_id(0) * XBLOCK\n"
      "    xindex = xoffset + tl.arange(0, XBLOCK)[None, :]\n"
      "    xmask = xindex < xnumel\n"
      "    tmp0 = tl.load(in_ptr0 + (xindex + 9*yindex), xmask & ymask)\n"
      "    tl.store(out_ptr0 + (yindex + 512*xindex), tmp0, xmask & ymask)\n";
  const triton::KernelFile file = triton::loadKernel(source, "axis_masks_test.py");
  // YBLOCK=64 over 512 rows, XBLOCK=16 over 9 columns (distinct lengths)
  const auto function = triton::lowerKernel(file, {{"YBLOCK", int64_t{64}}, {"XBLOCK", int64_t{16}}});
  return maskedAlongAxis(*function, axis);
}

TEST(AxisMasks, SecondGridDimensionProvenOnItsOwnProgramId) {
  EXPECT_TRUE(transposeMasked(TiledAxis{64, "ynumel", 512, 1}));
  EXPECT_TRUE(transposeMasked(TiledAxis{16, "xnumel", 9, 0}));
  // The same axes claimed on the other grid dimension: no offset of that
  // program_id times the block exists, so nothing is proven.
  EXPECT_FALSE(transposeMasked(TiledAxis{64, "ynumel", 512, 0}));
  EXPECT_FALSE(transposeMasked(TiledAxis{16, "xnumel", 9, 1}));
}

/// A looped Inductor reduction over r of each of xnumel rows; `loadMask` is
/// the mask of its one load.
std::string rowSum(const std::string &loadMask) {
  return "import triton\n"
         "import triton.language as tl\n"
         "from torch._inductor.runtime import triton_helpers, triton_heuristics\n"
         "\n"
         "@triton_heuristics.reduction(\n"
         "    size_hints={'x': 128, 'r0_': 512},\n"
         "    reduction_hint=ReductionHint.INNER,\n"
         "    filename=__file__,\n"
         "    triton_meta={'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32', "
         "'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'constants': {}},\n"
         "    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'row_sum'},\n"
         ")\n"
         "@triton.jit\n"
         "def row_sum(in_ptr0, out_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):\n"
         "    xoffset = tl.program_id(0) * XBLOCK\n"
         "    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]\n"
         "    xmask = xindex < xnumel\n"
         "    r0_base = tl.arange(0, R0_BLOCK)[None, :]\n"
         "    x0 = xindex\n"
         "    _tmp2 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)\n"
         "    for r0_offset in range(0, r0_numel, R0_BLOCK):\n"
         "        r0_index = r0_offset + r0_base\n"
         "        r0_mask = r0_index < r0_numel\n"
         "        r0_1 = r0_index\n"
         "        tmp0 = tl.load(in_ptr0 + (r0_1 + 512*x0), " +
         loadMask +
         ", eviction_policy='evict_first', other=0.0)\n"
         "        tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])\n"
         "        tmp3 = _tmp2 + tmp1\n"
         "        _tmp2 = tl.where(r0_mask & xmask, tmp3, _tmp2)\n"
         "    tmp2 = tl.sum(_tmp2, 1)[:, None]\n"
         "    tl.store(out_ptr0 + (x0), tmp2, xmask)\n";
}

bool rowsMasked(const std::string &loadMask) {
  const triton::KernelFile file = triton::loadKernel(rowSum(loadMask), "axis_masks_test.py");
  // XBLOCK=8 over 128 rows; R0_BLOCK=64 (another length, so the r arange is
  // no x index)
  const auto function = triton::lowerKernel(file, {{"XBLOCK", int64_t{8}}, {"R0_BLOCK", int64_t{64}}});
  return maskedAlongAxis(*function, TiledAxis{8, "xnumel", 128, 0});
}

TEST(AxisMasks, ReductionAlongAnotherDimensionKeepsRowsApart) {
  // The accumulator depends on x along dim 0 only; the sum runs along dim 1,
  // and the store is masked by xmask.
  EXPECT_TRUE(rowsMasked("r0_mask & xmask"));
}

TEST(AxisMasks, ReductionLoadMaskedAlongRAloneMustDivide) {
  EXPECT_FALSE(rowsMasked("r0_mask"));
}

} // namespace
} // namespace npusim::compiler
