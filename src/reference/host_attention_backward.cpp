// The gradients of scaled dot-product attention, the math behind aten's
// efficient, flash, cuDNN and CPU-flash attention backward kernels, in double.
// With S = q k^T * scale + mask, P = softmax(S) per row, O = P v:
//   dV = P^T dO,   dP = dO v^T,   dS = P * (dP - rowsum(P * dP)),
//   dQ = dS k * scale,   dK = dS^T q * scale,   d(mask) = dS
// (summed over the query heads that share a key head, and over the axes a
// broadcast mask repeats). P is recomputed from q, k and the mask, so the
// forward's out and logsumexp are not read.
#include "reference/host_calls_internal.h"

#include <cmath>
#include <limits>

namespace npusim::reference {

namespace {

constexpr std::string_view kAttentionBackwardOp = "scaled_dot_product_attention backward";

/// For each element of the [B, H, L, S] scores, the index into the values of
/// `grad` (shape `shape`, which broadcasts to the scores) it adds to.
std::vector<size_t> broadcastTargets(std::span<const int64_t> shape, std::span<const int64_t> scores) {
  const size_t rank = shape.size(), full = scores.size();
  std::vector<int64_t> stride(rank, 0);
  int64_t s = 1;
  for (size_t a = rank; a-- > 0;) {
    stride[a] = shape[a] == 1 ? 0 : s;
    s *= shape[a];
  }
  int64_t total = 1;
  for (int64_t d : scores)
    total *= d;
  std::vector<size_t> target(static_cast<size_t>(total));
  std::vector<int64_t> index(full, 0);
  for (int64_t e = 0; e < total; ++e) {
    int64_t t = 0;
    for (size_t a = 0; a < rank; ++a)
      t += index[full - rank + a] * stride[a];
    target[static_cast<size_t>(e)] = static_cast<size_t>(t);
    for (size_t a = full; a-- > 0;) {
      if (++index[a] < scores[a])
        break;
      index[a] = 0;
    }
  }
  return target;
}

} // namespace

void scaledDotProductAttentionBackward(const TensorView &gradOut, const TensorView &qView,
                                       const TensorView &kView, const TensorView &vView,
                                       const AttentionParams &params, const AttentionGradients &grads) {
  checkView(gradOut, std::string(kAttentionBackwardOp) + ": grad_out");
  // Reads every input before anything is written (a gradient may share storage).
  const host::AttentionInputs in(qView, kView, vView, params, kAttentionBackwardOp);
  const int64_t batch = in.batch, heads = in.heads, l = in.l, e = in.e, s = in.s, ev = in.ev;
  const std::vector<int64_t> outShape = {batch, heads, l, ev};
  host::expectShape(gradOut, outShape, kAttentionBackwardOp, "grad_out");
  const auto checkGrad = [&](const TensorView *g, const std::vector<int64_t> &shape,
                             const std::string &what) {
    if (!g)
      return;
    checkView(*g, std::string(kAttentionBackwardOp) + ": " + what);
    host::expectShape(*g, shape, kAttentionBackwardOp, what);
  };
  checkGrad(grads.query, qView.shape, "grad_query");
  checkGrad(grads.key, kView.shape, "grad_key");
  checkGrad(grads.value, vView.shape, "grad_value");
  if (grads.bias) {
    if (!in.hasMask || in.boolMask)
      host::fail(kAttentionBackwardOp, "grad_attn_bias is asked for, but there is no additive attn_bias");
    checkView(*grads.bias, std::string(kAttentionBackwardOp) + ": grad_attn_bias");
    (void)host::broadcastTo(*grads.bias, in.scoreShape, kAttentionBackwardOp, "grad_attn_bias");
  }
  const double scale = in.scale, inf = std::numeric_limits<double>::infinity();
  const std::vector<double> go = readValues(gradOut);
  const std::vector<double> &qv = in.q, &kv = in.k, &vv = in.v;
  std::vector<double> dq(qv.size(), 0.0), dk(kv.size(), 0.0), dv(vv.size(), 0.0);
  std::vector<double> dBias;
  std::vector<size_t> biasTarget;
  if (grads.bias) {
    dBias.assign(static_cast<size_t>(grads.bias->numel()), 0.0);
    biasTarget = broadcastTargets(grads.bias->shape, in.scoreShape);
  }
  std::vector<double> p, dp(static_cast<size_t>(s));
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t h = 0; h < heads; ++h) {
      const size_t qBase = in.queryAt(b, h), kBase = in.keyAt(b, h), vBase = in.valueAt(b, h);
      const size_t oBase = static_cast<size_t>((b * heads + h) * l * ev);
      for (int64_t i = 0; i < l; ++i) {
        // The forward's probabilities of row i.
        double maxScore = in.rowScores(b, h, i, p);
        if (maxScore == -inf)
          continue; // no key takes part: the output is 0 whatever q, k and v are
        if (std::isnan(maxScore))
          maxScore = 0.0; // the NaN reaches every probability of the row, and its gradients
        double sum = 0.0;
        for (int64_t j = 0; j < s; ++j) {
          p[static_cast<size_t>(j)] = std::exp(p[static_cast<size_t>(j)] - maxScore);
          sum += p[static_cast<size_t>(j)];
        }
        double rowDot = 0.0; // sum_j P_ij dP_ij
        for (int64_t j = 0; j < s; ++j) {
          p[static_cast<size_t>(j)] /= sum;
          double d = 0.0;
          for (int64_t c = 0; c < ev; ++c)
            d += go[oBase + static_cast<size_t>(i * ev + c)] * vv[vBase + static_cast<size_t>(j * ev + c)];
          dp[static_cast<size_t>(j)] = d;
          rowDot += p[static_cast<size_t>(j)] * d;
        }
        for (int64_t j = 0; j < s; ++j) {
          const double pj = p[static_cast<size_t>(j)];
          for (int64_t c = 0; c < ev; ++c)
            dv[vBase + static_cast<size_t>(j * ev + c)] += pj * go[oBase + static_cast<size_t>(i * ev + c)];
          const double ds = pj * (dp[static_cast<size_t>(j)] - rowDot);
          if (grads.bias)
            dBias[biasTarget[static_cast<size_t>(((b * heads + h) * l + i) * s + j)]] += ds;
          for (int64_t c = 0; c < e; ++c) {
            dq[qBase + static_cast<size_t>(i * e + c)] +=
                ds * scale * kv[kBase + static_cast<size_t>(j * e + c)];
            dk[kBase + static_cast<size_t>(j * e + c)] +=
                ds * scale * qv[qBase + static_cast<size_t>(i * e + c)];
          }
        }
      }
    }
  if (grads.query)
    writeValues(*grads.query, dq);
  if (grads.key)
    writeValues(*grads.key, dk);
  if (grads.value)
    writeValues(*grads.value, dv);
  if (grads.bias)
    writeValues(*grads.bias, dBias);
}

} // namespace npusim::reference
