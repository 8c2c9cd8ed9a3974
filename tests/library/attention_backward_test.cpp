// The attention backward kernels (query gradient; key and value gradients) on
// the reference interpreter and on an NPU, against the host calls (which
// recompute the probabilities in double; themselves checked against finite
// differences in tests/runtime/host_attention_backward_test.cpp). The
// forward's out and logsumexp, which the kernels read, are computed here in
// double from the same inputs.
#include "config/hardware.h"
#include "core/error.h"
#include "library/plan_harness.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace npusim::library {
namespace {

using core::DType;
using harness::CallFixture;
using C = CallFixture;

struct AttentionBackwardCase {
  int64_t batch, heads, kvHeads, l, s, e, ev;
  bool causal = false, bias = false;
  double scale = 0.0;        // 0: default
  bool biasGradient = false; // efficient only: grad_input_mask[3]
};

/// Sets every element of a contiguous view to a pattern and returns the values.
std::vector<double> fill(CallFixture &f, const TensorRef &t, int64_t n, uint32_t salt) {
  std::vector<double> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    v[static_cast<size_t>(i)] = std::sin(0.37 * static_cast<double>(i) + salt) * (0.6 + 0.1 * (i % 5));
    f.set(t, i, v[static_cast<size_t>(i)]);
  }
  return v;
}

enum class Variant { Efficient, Flash, Cudnn };

std::string compareCase(const AttentionBackwardCase &c, Variant variant, const std::optional<config::HardwareConfig> &npu,
                        const MachineShape &machine, harness::RunStats &stats);

/// "" when the planned launches (two: query, keys and values) agree with the host call.
std::string runCase(const AttentionBackwardCase &c, Variant variant, const std::optional<config::HardwareConfig> &npu,
                    const MachineShape &machine = {}) {
  harness::RunStats stats;
  const std::string result = compareCase(c, variant, npu, machine, stats);
  if (result.empty() && stats.launches != 2)
    return std::to_string(stats.launches) + " launches, expected 2";
  return result;
}

std::string compareCase(const AttentionBackwardCase &c, Variant variant, const std::optional<config::HardwareConfig> &npu,
                        const MachineShape &machine, harness::RunStats &stats) {
  CallFixture f;
  if (npu)
    f.useNpu(*npu);
  const int64_t b = c.batch, h = c.heads, hk = c.kvHeads, l = c.l, s = c.s, e = c.e, ev = c.ev;
  const TensorRef q = f.tensor(DType::Float32, {b, h, l, e}), k = f.tensor(DType::Float32, {b, hk, s, e});
  const TensorRef v = f.tensor(DType::Float32, {b, hk, s, ev}), go = f.tensor(DType::Float32, {b, h, l, ev});
  const TensorRef out = f.tensor(DType::Float32, {b, h, l, ev});
  const TensorRef bias = f.tensor(DType::Float32, {b, h, l, s}, {0, 0, s, 1}); // [L, S] broadcast
  // Efficient: [B, H, L padded to 32]; cuDNN: [B, H, L, 1]; flash: [B, H, L].
  const int64_t padded = (l + 31) / 32 * 32;
  const TensorRef lse = variant == Variant::Efficient ? f.tensor(DType::Float32, {b, h, padded})
                        : variant == Variant::Cudnn   ? f.tensor(DType::Float32, {b, h, l, 1})
                                                      : f.tensor(DType::Float32, {b, h, l});
  const std::vector<double> qv = fill(f, q, b * h * l * e, 1), kv = fill(f, k, b * hk * s * e, 2),
                            vv = fill(f, v, b * hk * s * ev, 3);
  fill(f, go, b * h * l * ev, 4);
  const std::vector<double> bv = fill(f, bias, l * s, 5);
  const double scale = c.scale != 0.0 ? c.scale : 1.0 / std::sqrt(static_cast<double>(e));
  // The forward in double: out and the logsumexp.
  const int64_t lseRow = variant == Variant::Efficient ? padded : l;
  for (int64_t bi = 0; bi < b; ++bi)
    for (int64_t hi = 0; hi < h; ++hi) {
      const int64_t kh = hi / (h / hk);
      for (int64_t i = 0; i < lseRow; ++i) {
        if (i >= l) {
          f.set(lse, (bi * h + hi) * lseRow + i, std::numeric_limits<double>::infinity());
          continue;
        }
        std::vector<double> w(static_cast<size_t>(s), -std::numeric_limits<double>::infinity());
        double top = -std::numeric_limits<double>::infinity();
        for (int64_t j = 0; j < s; ++j) {
          if (c.causal && j > i)
            continue;
          double dot = 0.0;
          for (int64_t x = 0; x < e; ++x)
            dot += qv[static_cast<size_t>(((bi * h + hi) * l + i) * e + x)] *
                   kv[static_cast<size_t>(((bi * hk + kh) * s + j) * e + x)];
          w[static_cast<size_t>(j)] = dot * scale + (c.bias ? bv[static_cast<size_t>(i * s + j)] : 0.0);
          top = std::max(top, w[static_cast<size_t>(j)]);
        }
        double z = 0.0;
        for (int64_t j = 0; j < s; ++j)
          z += std::exp(w[static_cast<size_t>(j)] - top);
        f.set(lse, (bi * h + hi) * lseRow + i, top + std::log(z));
        for (int64_t x = 0; x < ev; ++x) {
          double o = 0.0;
          for (int64_t j = 0; j < s; ++j)
            o += std::exp(w[static_cast<size_t>(j)] - top) / z *
                 vv[static_cast<size_t>(((bi * hk + kh) * s + j) * ev + x)];
          f.set(out, ((bi * h + hi) * l + i) * ev + x, o);
        }
      }
    }
  const TensorRef dq = f.tensor(DType::Float32, {b, h, l, e}), dk = f.tensor(DType::Float32, {b, hk, s, e});
  const TensorRef dv = f.tensor(DType::Float32, {b, hk, s, ev});
  const TensorRef db = f.tensor(DType::Float32, {b, h, l, s});
  const CallArgument maskArg = c.bias ? C::arg(bias) : C::none();
  const CallArgument scaleArg = c.scale != 0.0 ? C::number(c.scale) : C::none();
  const CallArgument causal = C::boolean(c.causal), drop = C::number(0.0);
  if (variant == Variant::Efficient) {
    CallArgument bits;
    bits.kind = core::CallKind::List;
    for (bool x : {true, true, true, c.biasGradient})
      bits.list.push_back(C::boolean(x));
    return f.compare("aten._scaled_dot_product_efficient_attention_backward",
                     {C::arg(go), C::arg(q), C::arg(k), C::arg(v), maskArg, C::arg(out), C::arg(lse),
                      C::none(), C::none(), drop, bits, causal, scaleArg},
                     {dq, dk, dv, c.biasGradient ? std::optional<TensorRef>(db) : std::nullopt}, machine, {},
                     &stats);
  }
  if (variant == Variant::Flash)
    return f.compare("aten._scaled_dot_product_flash_attention_backward",
                     {C::arg(go), C::arg(q), C::arg(k), C::arg(v), C::arg(out), C::arg(lse), C::none(),
                      C::none(), C::integer(l), C::integer(s), drop, causal, C::none(), C::none(), scaleArg},
                     {dq, dk, dv}, machine, {}, &stats);
  return f.compare("aten._scaled_dot_product_cudnn_attention_backward",
                   {C::arg(go), C::arg(q), C::arg(k), C::arg(v), C::arg(out), C::arg(lse), C::none(),
                    C::none(), maskArg, C::none(), C::none(), C::integer(l), C::integer(s), drop, causal,
                    scaleArg},
                   {dq, dk, dv}, machine, {}, &stats);
}

TEST(LibraryAttentionBackward, VariantsOnTheInterpreter) {
  EXPECT_EQ(runCase({1, 2, 1, 5, 7, 4, 3}, Variant::Efficient, std::nullopt), "") << "GQA, L != S";
  EXPECT_EQ(runCase({2, 2, 2, 16, 16, 8, 8, true}, Variant::Flash, std::nullopt), "") << "causal";
  EXPECT_EQ(runCase({1, 2, 2, 6, 9, 5, 4, false, true, 0.3}, Variant::Cudnn, std::nullopt), "")
      << "additive bias, scale";
  EXPECT_EQ(runCase({1, 2, 2, 6, 9, 5, 4, false, true}, Variant::Efficient, std::nullopt), "") << "bias";
}

TEST(LibraryAttentionBackward, SeveralBlocksOnASmallMachine) {
  const MachineShape small{16, 2048, 256};
  EXPECT_EQ(runCase({1, 4, 2, 37, 41, 12, 10, true}, Variant::Flash, std::nullopt, small), "");
  EXPECT_EQ(runCase({1, 2, 1, 33, 20, 16, 16, false, true}, Variant::Efficient, std::nullopt, small), "");
}

TEST(LibraryAttentionBackward, BiasGradientOneStorePerScore) {
  AttentionBackwardCase c{2, 2, 1, 21, 18, 8, 8, false, true, 0.4};
  c.biasGradient = true;
  EXPECT_EQ(runCase(c, Variant::Efficient, std::nullopt, MachineShape{16, 2048, 256}), "");
  AttentionBackwardCase causal{1, 3, 3, 9, 9, 4, 4, true, true};
  causal.biasGradient = true;
  EXPECT_EQ(runCase(causal, Variant::Efficient, config::loadConfig("edge-8lane")), "");
}

TEST(LibraryAttentionBackward, OnTheNpu) {
  const config::HardwareConfig edge = config::loadConfig("edge-8lane");
  EXPECT_EQ(runCase({1, 2, 1, 19, 23, 8, 8, true}, Variant::Efficient, edge), "");
  EXPECT_EQ(runCase({1, 2, 2, 6, 9, 5, 4, false, true, 0.3}, Variant::Cudnn, edge), "");
}

} // namespace
} // namespace npusim::library
