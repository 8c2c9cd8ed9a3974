// The attention backward host calls (efficient, flash, cuDNN, CPU flash)
// against central finite differences of a naive softmax attention written
// here: with the loss L = sum(O * G) for a fixed G, dL/dO = G is grad_out, and
// each gradient element is (L(x + h) - L(x - h)) / 2h, in double.
#include "core/error.h"
#include "reference/host_calls.h"
#include "runtime/host_call_values.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace npusim::reference {
namespace {

using namespace test;
using core::DType;

struct Dims {
  int64_t b, h, hk, l, s, e, ev;
};

struct Problem {
  Dims d;
  std::vector<double> q, k, v, g, bias; // bias: [L, S] additive, empty for none
  std::vector<bool> allowed;            // [L, S] boolean mask, empty for none
  bool causal = false;
  double scale = 0.0; // 0: 1/sqrt(E)
};

/// L = sum over outputs of softmax(q k^T * scale + mask) v times G.
double loss(const Problem &p) {
  const Dims &d = p.d;
  const double scale = p.scale != 0.0 ? p.scale : 1.0 / std::sqrt(static_cast<double>(d.e));
  double total = 0.0;
  for (int64_t b = 0; b < d.b; ++b)
    for (int64_t h = 0; h < d.h; ++h) {
      const int64_t hk = h / (d.h / d.hk);
      for (int64_t i = 0; i < d.l; ++i) {
        std::vector<double> w(static_cast<size_t>(d.s));
        std::vector<bool> in(static_cast<size_t>(d.s), true);
        double top = -std::numeric_limits<double>::infinity();
        for (int64_t j = 0; j < d.s; ++j) {
          double dot = 0.0;
          for (int64_t c = 0; c < d.e; ++c)
            dot += p.q[static_cast<size_t>(((b * d.h + h) * d.l + i) * d.e + c)] *
                   p.k[static_cast<size_t>(((b * d.hk + hk) * d.s + j) * d.e + c)];
          w[static_cast<size_t>(j)] =
              dot * scale + (p.bias.empty() ? 0.0 : p.bias[static_cast<size_t>(i * d.s + j)]);
          in[static_cast<size_t>(j)] =
              !(p.causal && j > i) && (p.allowed.empty() || p.allowed[static_cast<size_t>(i * d.s + j)]);
          if (in[static_cast<size_t>(j)])
            top = std::max(top, w[static_cast<size_t>(j)]);
        }
        double z = 0.0;
        for (int64_t j = 0; j < d.s; ++j)
          z += in[static_cast<size_t>(j)] ? std::exp(w[static_cast<size_t>(j)] - top) : 0.0;
        for (int64_t j = 0; j < d.s && z > 0.0; ++j) {
          if (!in[static_cast<size_t>(j)])
            continue;
          const double pj = std::exp(w[static_cast<size_t>(j)] - top) / z;
          for (int64_t c = 0; c < d.ev; ++c)
            total += pj * p.v[static_cast<size_t>(((b * d.hk + hk) * d.s + j) * d.ev + c)] *
                     p.g[static_cast<size_t>(((b * d.h + h) * d.l + i) * d.ev + c)];
        }
      }
    }
  return total;
}

std::vector<double> numericGradient(Problem p, std::vector<double> Problem::*field) {
  constexpr double kStep = 1e-5;
  std::vector<double> grad((p.*field).size());
  for (size_t i = 0; i < grad.size(); ++i) {
    const double x = (p.*field)[i];
    (p.*field)[i] = x + kStep;
    const double up = loss(p);
    (p.*field)[i] = x - kStep;
    const double down = loss(p);
    (p.*field)[i] = x;
    grad[i] = (up - down) / (2 * kStep);
  }
  return grad;
}

std::vector<double> pattern(size_t n, uint32_t salt) {
  std::vector<double> r(n);
  for (size_t i = 0; i < n; ++i)
    r[i] = std::sin(0.71 * static_cast<double>(i) + salt) * (0.5 + 0.1 * static_cast<double>(i % 5));
  return r;
}

Problem makeProblem(Dims d, uint32_t salt) {
  Problem p;
  p.d = d;
  p.q = pattern(static_cast<size_t>(d.b * d.h * d.l * d.e), salt);
  p.k = pattern(static_cast<size_t>(d.b * d.hk * d.s * d.e), salt + 1);
  p.v = pattern(static_cast<size_t>(d.b * d.hk * d.s * d.ev), salt + 2);
  p.g = pattern(static_cast<size_t>(d.b * d.h * d.l * d.ev), salt + 3);
  return p;
}

Buffer doubles(const std::vector<double> &values) {
  Buffer b = filled(static_cast<int64_t>(values.size()), 0.0, DType::Float64);
  for (size_t i = 0; i < values.size(); ++i)
    storeElement(b, static_cast<int64_t>(i), values[i]);
  return b;
}

std::vector<int64_t> contiguous(const std::vector<int64_t> &shape) {
  std::vector<int64_t> stride(shape.size(), 1);
  for (size_t a = shape.size(); a-- > 1;)
    stride[a - 1] = stride[a] * shape[a];
  return stride;
}

TensorView whole(Buffer &b, std::vector<int64_t> shape) {
  std::vector<int64_t> stride = contiguous(shape);
  return view(b, 0, std::move(shape), std::move(stride));
}

constexpr double kUnwritten = -777.0;

/// Runs `op` on the problem (arguments in the op's schema order) and returns
/// the gradient buffers: query, key, value and (efficient only) bias.
struct Gradients {
  Buffer dq, dk, dv, dbias;
  std::vector<bool> defined;
};

Gradients runBackward(const std::string &op, const Problem &p,
                      std::vector<bool> gradInputMask = {true, true, true, false}, double dropout = 0.0) {
  const Dims &d = p.d;
  Buffer q = doubles(p.q), k = doubles(p.k), v = doubles(p.v), g = doubles(p.g);
  Buffer bias = doubles(p.bias.empty() ? std::vector<double>{0.0} : p.bias);
  Buffer allowed = filled(d.l * d.s, 1.0, DType::Bool);
  for (size_t i = 0; i < p.allowed.size(); ++i)
    storeElement(allowed, static_cast<int64_t>(i), p.allowed[i] ? 1.0 : 0.0);
  Buffer out = filled(d.b * d.h * d.l * d.ev, 0.0, DType::Float64), lse = filled(d.b * d.h * d.l, 0.0);
  Gradients r;
  r.dq = filled(static_cast<int64_t>(p.q.size()), kUnwritten, DType::Float64);
  r.dk = filled(static_cast<int64_t>(p.k.size()), kUnwritten, DType::Float64);
  r.dv = filled(static_cast<int64_t>(p.v.size()), kUnwritten, DType::Float64);
  r.dbias = filled(d.l * d.s, kUnwritten, DType::Float64);
  const TensorView qv = whole(q, {d.b, d.h, d.l, d.e}), kv = whole(k, {d.b, d.hk, d.s, d.e}),
                   vv = whole(v, {d.b, d.hk, d.s, d.ev}), gv = whole(g, {d.b, d.h, d.l, d.ev}),
                   ov = whole(out, {d.b, d.h, d.l, d.ev}), lv = whole(lse, {d.b, d.h, d.l});
  // The mask [L, S] seen as [B, H, L, S] with stride 0 on the leading axes.
  const TensorView maskView = p.bias.empty() ? view(allowed, 0, {d.b, d.h, d.l, d.s}, {0, 0, d.s, 1})
                                             : view(bias, 0, {d.b, d.h, d.l, d.s}, {0, 0, d.s, 1});
  const bool masked = !p.bias.empty() || !p.allowed.empty();
  const HostCallValue mask = masked ? tensorValue(maskView) : HostCallValue{};
  const HostCallValue scale = p.scale != 0.0 ? floatValue(p.scale) : HostCallValue{};
  const TensorView dqv = whole(r.dq, qv.shape), dkv = whole(r.dk, kv.shape), dvv = whole(r.dv, vv.shape),
                   dbv = whole(r.dbias, {d.l, d.s});
  std::vector<const TensorView *> outs = {&dqv, &dkv, &dvv};
  const HostCallValue none{}, drop = floatValue(dropout), causal = boolValue(p.causal);
  // grad_out, query, key, value, out, logsumexp: how flash, cuDNN and CPU flash begin.
  std::vector<HostCallValue> args = {tensorValue(gv), tensorValue(qv), tensorValue(kv),
                                     tensorValue(vv), tensorValue(ov), tensorValue(lv)};
  const auto append = [&](std::initializer_list<HostCallValue> tail) { args.insert(args.end(), tail); };
  if (op == "aten._scaled_dot_product_efficient_attention_backward") {
    std::vector<HostCallValue> bits;
    for (bool b : gradInputMask)
      bits.push_back(boolValue(b));
    args.insert(args.begin() + 4, mask); // attn_bias comes before out
    append({none, none, drop, listValue(bits), causal, scale});
    outs.push_back(gradInputMask[3] ? &dbv : nullptr);
  } else if (op == "aten._scaled_dot_product_flash_attention_backward") {
    append({none, none, intValue(d.l), intValue(d.s), drop, causal, none, none, scale});
  } else if (op == "aten._scaled_dot_product_cudnn_attention_backward") {
    append({none, none, mask, none, none, intValue(d.l), intValue(d.s), drop, causal, scale});
  } else {
    append({drop, causal, mask, scale});
  }
  r.defined = runHostCall(op, args, outs);
  return r;
}

void expectGradient(const Buffer &got, const std::vector<double> &want, const std::string &what) {
  for (size_t i = 0; i < want.size(); ++i)
    EXPECT_NEAR(el(got, static_cast<int64_t>(i)), want[i], 1e-7 * (1.0 + std::fabs(want[i])))
        << what << " element " << i;
}

void expectAllGradients(const std::string &op, const Problem &p) {
  const Gradients r = runBackward(op, p);
  expectGradient(r.dq, numericGradient(p, &Problem::q), op + " grad_query");
  expectGradient(r.dk, numericGradient(p, &Problem::k), op + " grad_key");
  expectGradient(r.dv, numericGradient(p, &Problem::v), op + " grad_value");
}

TEST(HostAttentionBackward, EveryVariantMatchesFiniteDifferences) {
  Problem p = makeProblem({2, 2, 2, 3, 4, 3, 2}, 1); // L != S
  for (const char *op : {"aten._scaled_dot_product_efficient_attention_backward",
                         "aten._scaled_dot_product_flash_attention_backward",
                         "aten._scaled_dot_product_cudnn_attention_backward",
                         "aten._scaled_dot_product_flash_attention_for_cpu_backward"})
    expectAllGradients(op, p);
}

TEST(HostAttentionBackward, CausalGroupedQueryWithScale) {
  Problem p = makeProblem({1, 4, 2, 4, 4, 3, 3}, 7); // two query heads per key head
  p.causal = true;
  p.scale = 0.3;
  expectAllGradients("aten._scaled_dot_product_efficient_attention_backward", p);
  expectAllGradients("aten._scaled_dot_product_flash_attention_backward", p);
}

TEST(HostAttentionBackward, AdditiveBiasAndItsGradient) {
  Problem p = makeProblem({2, 2, 2, 3, 3, 2, 2}, 11);
  p.bias = pattern(9, 40);
  const std::string op = "aten._scaled_dot_product_efficient_attention_backward";
  expectAllGradients(op, p);
  expectAllGradients("aten._scaled_dot_product_cudnn_attention_backward", p);
  // grad_attn_bias [L, S] sums dS over the batch and heads the mask broadcasts to.
  const Gradients asked = runBackward(op, p, {true, true, true, true});
  EXPECT_EQ(asked.defined, (std::vector<bool>{true, true, true, true}));
  expectGradient(asked.dbias, numericGradient(p, &Problem::bias), "grad_attn_bias");
  const Gradients notAsked = runBackward(op, p, {true, true, true, false});
  EXPECT_EQ(notAsked.defined, (std::vector<bool>{true, true, true, false}));
  EXPECT_EQ(el(notAsked.dbias, 0), kUnwritten);
}

TEST(HostAttentionBackward, RowWithoutKeysGetsNoGradient) {
  Problem p = makeProblem({1, 1, 1, 3, 3, 2, 2}, 3);
  p.allowed = {true, false, true, false, false, false, true, true, false}; // row 1 sees nothing
  const Gradients r = runBackward("aten._scaled_dot_product_flash_attention_for_cpu_backward", p);
  expectGradient(r.dq, numericGradient(p, &Problem::q), "grad_query");
  expectGradient(r.dk, numericGradient(p, &Problem::k), "grad_key");
  expectGradient(r.dv, numericGradient(p, &Problem::v), "grad_value");
  for (int64_t c = 0; c < 2; ++c)
    EXPECT_EQ(el(r.dq, 2 + c), 0.0) << "query row 1 takes part in nothing";
}

TEST(HostAttentionBackward, DropoutAndBadShapesAreErrors) {
  Problem p = makeProblem({1, 2, 2, 2, 2, 2, 2}, 5);
  try {
    runBackward("aten._scaled_dot_product_efficient_attention_backward", p, {true, true, true, false}, 0.1);
    FAIL() << "dropout accepted";
  } catch (const core::RuntimeError &e) {
    EXPECT_NE(std::string(e.what()).find("dropout_p"), std::string::npos) << e.what();
  }
  Problem gqa = makeProblem({1, 3, 2, 2, 2, 2, 2}, 5); // 3 query heads over 2 key heads
  EXPECT_THROW(runBackward("aten._scaled_dot_product_flash_attention_backward", gqa), core::RuntimeError);
  // A bias gradient without a bias.
  EXPECT_THROW(
      runBackward("aten._scaled_dot_product_efficient_attention_backward", p, {true, true, true, true}),
      core::RuntimeError);
}

} // namespace
} // namespace npusim::reference
