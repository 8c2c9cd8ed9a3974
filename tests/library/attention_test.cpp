// Scaled dot-product attention: the flash-attention kernel, run on the
// reference interpreter, against the host call's softmax(q k^T) v in
// double: vit's calls as the bundle spells them, random shapes with GQA,
// additive and boolean masks, causal masking, scales, padded logsumexp views,
// rows no key takes part in, NaN, 16-bit inputs and the other aten variants.
#include "library/plan_harness.h"

#include "core/error.h"

#include <gtest/gtest.h>

#include <limits>

namespace npusim::library {
namespace {

using harness::CallFixture;
using C = CallFixture;
using core::DType;

/// Numerical Recipes' LCG for test parameters.
struct AttentionRandom {
  uint32_t state;
  int64_t below(int64_t n) {
    state = state * 1664525u + 1013904223u;
    return static_cast<int64_t>((state >> 8) % static_cast<uint32_t>(n));
  }
};

TEST(LibraryAttention, VitCallAsTheBundleSpellsIt) {
  CallFixture f;
  const std::vector<int64_t> shape = {1, 2, 17, 32}, stride = {1088, 32, 64, 1};
  const TensorRef q = f.tensor(DType::Float32, shape, stride);
  const TensorRef k = f.tensor(DType::Float32, shape, stride);
  const TensorRef v = f.tensor(DType::Float32, shape, stride);
  const TensorRef out = f.tensor(DType::Float32, shape, stride);
  const TensorRef lse = f.tensor(DType::Float32, {1, 2, 0}, {2, 1, 1});
  const TensorRef seed = f.tensor(DType::Int64, {}, {});
  const TensorRef offset = f.tensor(DType::Int64, {}, {});
  EXPECT_EQ(f.compare("aten._scaled_dot_product_efficient_attention",
                      {CallFixture::arg(q), CallFixture::arg(k), CallFixture::arg(v), CallFixture::none(),
                       CallFixture::boolean(false), CallFixture::number(0.0), CallFixture::boolean(false),
                       CallFixture::none()},
                      {out, lse, seed, offset}),
            "");
}

TEST(LibraryAttention, TransformerShapesCausalAndGroupedQuery) {
  // bert/gpt2-like heads (12 x 32 x 64, causal), llama-like GQA (8 query heads on 2 key heads).
  struct Case {
    int64_t heads, kvHeads, l, e;
    bool causal;
  };
  for (const Case &c : {Case{12, 12, 32, 64, true}, Case{12, 12, 32, 64, false}, Case{8, 2, 32, 32, true}}) {
    CallFixture f;
    const TensorRef q = f.tensor(DType::Float32, {1, c.heads, c.l, c.e});
    const TensorRef k = f.tensor(DType::Float32, {1, c.kvHeads, c.l, c.e});
    const TensorRef v = f.tensor(DType::Float32, {1, c.kvHeads, c.l, c.e});
    const TensorRef out = f.tensor(DType::Float32, {1, c.heads, c.l, c.e});
    const TensorRef lse = f.tensor(DType::Float32, {1, c.heads, 32});
    EXPECT_EQ(f.compare("aten._scaled_dot_product_efficient_attention",
                        {CallFixture::arg(q), CallFixture::arg(k), CallFixture::arg(v), CallFixture::none(),
                         CallFixture::boolean(true), CallFixture::number(0.0), CallFixture::boolean(c.causal)},
                        {out, lse}),
              "")
        << c.heads << " heads on " << c.kvHeads << ", causal " << c.causal;
  }
}

/// 20 random attention calls (GQA, masks: additive [L, S] or [B, 1, L, S],
/// boolean, none; causal; a scale; a padded logsumexp), with `kernel` asked
/// for (MachineShape::attentionKernel), against the host call.
void randomAttention(const std::string &kernel) {
  MachineShape small{16, 2048, 256}, large;
  small.attentionKernel = large.attentionKernel = kernel;
  AttentionRandom rng{5};
  for (int trial = 0; trial < 20; ++trial) {
    const int64_t batch = 1 + rng.below(2), kvHeads = 1 + rng.below(2), heads = kvHeads * (1 + rng.below(3));
    const int64_t l = 1 + rng.below(45), s = 1 + rng.below(45), e = 1 + rng.below(40), ev = 1 + rng.below(40);
    CallFixture f;
    const TensorRef q = f.tensor(DType::Float32, {batch, heads, l, e}, {}, rng.below(5));
    // Keys and values as [B, S, H, E] memory seen as [B, H, S, E] (transposed heads).
    const TensorRef k = f.tensor(DType::Float32, {batch, kvHeads, s, e}, {s * kvHeads * e, e, kvHeads * e, 1});
    const TensorRef v = f.tensor(DType::Float32, {batch, kvHeads, s, ev});
    const TensorRef out = f.tensor(DType::Float32, {batch, heads, l, ev});
    CallArgument mask = CallFixture::none();
    switch (rng.below(4)) {
    case 1: mask = CallFixture::arg(f.tensor(DType::Float32, {l, s}, {}, 0, -3.0, 3.0)); break;
    case 2: mask = CallFixture::arg(f.tensor(DType::Float32, {batch, 1, l, s})); break;
    case 3: mask = CallFixture::arg(f.tensor(DType::Bool, {batch, heads, l, s})); break;
    default: break;
    }
    const bool causal = rng.below(2) == 1;
    const int64_t padded = (l + 31) / 32 * 32;
    const TensorRef lse = f.tensor(DType::Float32, {batch, heads, rng.below(2) ? padded : l});
    const CallArgument scale = rng.below(2) ? CallFixture::none() : CallFixture::number(0.3);
    EXPECT_EQ(f.compare("aten._scaled_dot_product_efficient_attention",
                        {CallFixture::arg(q), CallFixture::arg(k), CallFixture::arg(v), mask,
                         CallFixture::boolean(true), CallFixture::number(0.0), CallFixture::boolean(causal), scale},
                        {out, lse}, trial % 2 ? small : large),
              "")
        << kernel << " trial " << trial << ": B " << batch << " H " << heads << "/" << kvHeads << " L " << l << " S " << s
        << " E " << e << " Ev " << ev << " causal " << causal;
  }
}

TEST(LibraryAttention, RandomShapesMasksScalesAndPaddedLogSumExp) {
  randomAttention("");
}

// The scores transposed (keys by rows, queries on the lanes) compute the same.
TEST(LibraryAttention, TransposedScoresOnRandomShapes) {
  randomAttention("columns");
}

TEST(LibraryAttention, MaskedRowsAndNaN) {
  for (const char *kernel : {"rows", "columns"}) {
  MachineShape machine;
  machine.attentionKernel = kernel;
  CallFixture f;
  const TensorRef q = f.tensor(DType::Float32, {1, 1, 6, 8});
  const TensorRef k = f.tensor(DType::Float32, {1, 1, 5, 8});
  const TensorRef v = f.tensor(DType::Float32, {1, 1, 5, 8});
  const TensorRef out = f.tensor(DType::Float32, {1, 1, 6, 8});
  const TensorRef lse = f.tensor(DType::Float32, {1, 1, 32});
  const TensorRef mask = f.tensor(DType::Float32, {6, 5});
  const double inf = std::numeric_limits<double>::infinity();
  for (int64_t j = 0; j < 5; ++j)
    f.set(mask, 2 * 5 + j, -inf); // row 2: no key takes part
  f.set(q, 4 * 8 + 3, std::numeric_limits<double>::quiet_NaN()); // row 4: NaN scores
  EXPECT_EQ(f.compare("aten._scaled_dot_product_efficient_attention",
                      {CallFixture::arg(q), CallFixture::arg(k), CallFixture::arg(v), CallFixture::arg(mask),
                       CallFixture::boolean(true)},
                      {out, lse}, machine),
            "")
      << kernel;
  }
}

TEST(LibraryAttention, HalfPrecisionInputs) {
  for (DType dtype : {DType::Float16, DType::BFloat16}) {
    CallFixture f;
    const TensorRef q = f.tensor(dtype, {2, 2, 20, 16});
    const TensorRef k = f.tensor(dtype, {2, 2, 24, 16});
    const TensorRef v = f.tensor(dtype, {2, 2, 24, 16});
    const TensorRef out = f.tensor(dtype, {2, 2, 20, 16});
    const TensorRef lse = f.tensor(DType::Float32, {2, 2, 32});
    EXPECT_EQ(f.compare("aten._scaled_dot_product_efficient_attention",
                        {CallFixture::arg(q), CallFixture::arg(k), CallFixture::arg(v), CallFixture::none(),
                         CallFixture::boolean(true), CallFixture::number(0.0), CallFixture::boolean(true)},
                        {out, lse}),
              "")
        << core::tritonName(dtype);
  }
}

TEST(LibraryAttention, FlashCudnnAndCpuVariants) {
  CallFixture f;
  const TensorRef q = f.tensor(DType::Float32, {1, 2, 9, 16});
  const TensorRef k = f.tensor(DType::Float32, {1, 2, 11, 16});
  const TensorRef v = f.tensor(DType::Float32, {1, 2, 11, 8});
  const TensorRef out = f.tensor(DType::Float32, {1, 2, 9, 8});
  const TensorRef lse = f.tensor(DType::Float32, {1, 2, 9});
  const TensorRef lse4 = f.tensor(DType::Float32, {1, 2, 9, 1});
  const TensorRef mask = f.tensor(DType::Bool, {9, 11});
  const TensorRef unused = f.tensor(DType::Int64, {});
  EXPECT_EQ(f.compare("aten._scaled_dot_product_flash_attention",
                      {C::arg(q), C::arg(k), C::arg(v), C::number(0.0), C::boolean(true), C::boolean(false),
                       C::number(0.5)},
                      {out, lse, unused}),
            "");
  EXPECT_EQ(f.compare("aten._scaled_dot_product_cudnn_attention",
                      {C::arg(q), C::arg(k), C::arg(v), C::arg(mask), C::boolean(true), C::number(0.0),
                       C::boolean(false), C::boolean(false)},
                      {out, lse4}),
            "");
  EXPECT_EQ(f.compare("aten._scaled_dot_product_flash_attention_for_cpu",
                      {C::arg(q), C::arg(k), C::arg(v), C::number(0.0), C::boolean(false), C::arg(mask)},
                      {out, lse}),
            "");
}

TEST(LibraryAttention, DropoutAndShapeErrors) {
  CallFixture f;
  const TensorRef q = f.tensor(DType::Float32, {1, 3, 4, 8});
  const TensorRef k = f.tensor(DType::Float32, {1, 2, 4, 8});
  const TensorRef out = f.tensor(DType::Float32, {1, 3, 4, 8});
  const std::vector<const TensorRef *> outs = {&out};
  auto message = [&](const TensorRef &key, double dropout) -> std::string {
    try {
      planCall("aten._scaled_dot_product_efficient_attention",
               std::vector<CallArgument>{CallFixture::arg(q), CallFixture::arg(key), CallFixture::arg(key),
                                         CallFixture::none(), CallFixture::boolean(false),
                                         CallFixture::number(dropout)},
               outs, MachineShape{});
    } catch (const core::RuntimeError &e) {
      return e.what();
    }
    return "no error";
  };
  EXPECT_NE(message(q, 0.1).find("argument 5 (dropout_p)"), std::string::npos);
  EXPECT_NE(message(k, 0.0).find("not a multiple of key's 2"), std::string::npos);
}

} // namespace
} // namespace npusim::library
