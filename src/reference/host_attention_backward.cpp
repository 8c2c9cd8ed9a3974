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

constexpr std::string_view kOp = "scaled_dot_product_attention backward";

void expect4d(const TensorView &v, const std::string &what) {
  if (v.dim() != 4)
    host::fail(kOp, what + " must be 4-d [batch, heads, sequence, embedding], but has shape " +
                        shapeString(v.shape));
}

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

void scaledDotProductAttentionBackward(const TensorView &gradOut, const TensorView &q, const TensorView &k,
                                       const TensorView &v, const AttentionParams &params,
                                       const AttentionGradients &grads) {
  expect4d(gradOut, "grad_out");
  expect4d(q, "query");
  expect4d(k, "key");
  expect4d(v, "value");
  for (const auto &[view, name] :
       {std::pair{&gradOut, "grad_out"}, {&q, "query"}, {&k, "key"}, {&v, "value"}})
    checkView(*view, std::string(kOp) + ": " + name);
  const int64_t batch = q.shape[0], heads = q.shape[1], l = q.shape[2], e = q.shape[3];
  const int64_t kvHeads = k.shape[1], s = k.shape[2], ev = v.shape[3];
  if (k.shape[0] != batch || v.shape[0] != batch || v.shape[1] != kvHeads || v.shape[2] != s ||
      k.shape[3] != e)
    host::fail(kOp, "query " + shapeString(q.shape) + ", key " + shapeString(k.shape) + " and value " +
                        shapeString(v.shape) + " do not agree");
  if (kvHeads == 0 || heads % kvHeads != 0)
    host::fail(kOp, "query has " + std::to_string(heads) + " heads, not a multiple of key's " +
                        std::to_string(kvHeads));
  const std::vector<int64_t> outShape = {batch, heads, l, ev};
  host::expectShape(gradOut, outShape, kOp, "grad_out");
  const std::vector<int64_t> scoreShape = {batch, heads, l, s};
  const bool hasMask = params.mask != nullptr;
  bool boolMask = false;
  TensorView mask;
  if (hasMask) {
    checkView(*params.mask, std::string(kOp) + ": attn_bias");
    mask = host::broadcastTo(*params.mask, scoreShape, kOp, "attn_bias");
    boolMask = params.mask->dtype() == core::DType::Bool;
  }
  const auto checkGrad = [&](const TensorView *g, const std::vector<int64_t> &shape,
                             const std::string &what) {
    if (!g)
      return;
    checkView(*g, std::string(kOp) + ": " + what);
    host::expectShape(*g, shape, kOp, what);
  };
  checkGrad(grads.query, q.shape, "grad_query");
  checkGrad(grads.key, k.shape, "grad_key");
  checkGrad(grads.value, v.shape, "grad_value");
  if (grads.bias) {
    if (!hasMask || boolMask)
      host::fail(kOp, "grad_attn_bias is asked for, but there is no additive attn_bias");
    checkView(*grads.bias, std::string(kOp) + ": grad_attn_bias");
    (void)host::broadcastTo(*grads.bias, scoreShape, kOp, "grad_attn_bias");
  }
  const double scale = params.scale ? *params.scale : 1.0 / std::sqrt(static_cast<double>(e));
  const double inf = std::numeric_limits<double>::infinity();

  // Read all inputs before writing anything (a gradient may share storage).
  const std::vector<double> qv = readValues(q), kv = readValues(k), vv = readValues(v),
                            go = readValues(gradOut);
  const std::vector<double> maskValues = hasMask ? readValues(mask) : std::vector<double>();
  std::vector<double> dq(qv.size(), 0.0), dk(kv.size(), 0.0), dv(vv.size(), 0.0);
  std::vector<double> dBias;
  std::vector<size_t> biasTarget;
  if (grads.bias) {
    dBias.assign(static_cast<size_t>(grads.bias->numel()), 0.0);
    biasTarget = broadcastTargets(grads.bias->shape, scoreShape);
  }
  std::vector<double> p(static_cast<size_t>(s)), dp(static_cast<size_t>(s));
  const int64_t group = heads / kvHeads;
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t h = 0; h < heads; ++h) {
      const int64_t hk = h / group;
      const size_t qBase = static_cast<size_t>((b * heads + h) * l * e);
      const size_t kBase = static_cast<size_t>((b * kvHeads + hk) * s * e);
      const size_t vBase = static_cast<size_t>((b * kvHeads + hk) * s * ev);
      const size_t oBase = static_cast<size_t>((b * heads + h) * l * ev);
      for (int64_t i = 0; i < l; ++i) {
        // The forward's probabilities of row i.
        double maxScore = -inf;
        bool anyNan = false;
        for (int64_t j = 0; j < s; ++j) {
          double dot = 0.0;
          for (int64_t c = 0; c < e; ++c)
            dot += qv[qBase + static_cast<size_t>(i * e + c)] * kv[kBase + static_cast<size_t>(j * e + c)];
          double score = dot * scale;
          if (hasMask) {
            const double m = maskValues[static_cast<size_t>(((b * heads + h) * l + i) * s + j)];
            score = boolMask ? (m != 0.0 ? score : -inf) : score + m;
          }
          if (params.isCausal && j > i)
            score = -inf;
          p[static_cast<size_t>(j)] = score;
          if (std::isnan(score))
            anyNan = true;
          else if (score > maxScore)
            maxScore = score;
        }
        if (maxScore == -inf && !anyNan)
          continue; // no key takes part: the output is 0 whatever q, k and v are
        if (anyNan)
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
