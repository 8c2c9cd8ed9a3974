// Scaled dot-product attention, the math behind aten's flash, efficient and
// cuDNN attention kernels: softmax(q k^T * scale + mask) v, in double.
#include "reference/host_calls_internal.h"

#include <cmath>
#include <limits>

namespace npusim::reference {

namespace {

constexpr std::string_view kOp = "scaled_dot_product_attention";

void expect4d(const TensorView &v, const std::string &what) {
  if (v.dim() != 4)
    host::fail(kOp, what + " must be 4-d [batch, heads, sequence, embedding], but has shape " +
                       shapeString(v.shape));
}

} // namespace

void scaledDotProductAttention(const TensorView &q, const TensorView &k, const TensorView &v,
                               const AttentionParams &params, const TensorView &out,
                               const TensorView *logsumexp) {
  expect4d(q, "query");
  expect4d(k, "key");
  expect4d(v, "value");
  checkView(q, std::string(kOp) + ": query");
  checkView(k, std::string(kOp) + ": key");
  checkView(v, std::string(kOp) + ": value");
  checkView(out, std::string(kOp) + ": output");
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
  host::expectShape(out, outShape, kOp, "output");
  const std::vector<int64_t> scoreShape = {batch, heads, l, s};
  TensorView mask;
  const bool hasMask = params.mask != nullptr;
  bool boolMask = false;
  if (hasMask) {
    checkView(*params.mask, std::string(kOp) + ": attn_mask");
    mask = host::broadcastTo(*params.mask, scoreShape, kOp, "attn_mask");
    boolMask = params.mask->dtype() == core::DType::Bool;
  }
  std::vector<double> lse;
  if (logsumexp) {
    checkView(*logsumexp, std::string(kOp) + ": logsumexp");
    const int64_t n = logsumexp->numel();
    const bool padded = logsumexp->dim() == 3 && logsumexp->shape[0] == batch &&
                        logsumexp->shape[1] == heads && logsumexp->shape[2] >= l;
    if (!padded && n != batch * heads * l && n != 0)
      host::fail(kOp, "logsumexp has shape " + shapeString(logsumexp->shape) + "; expected [" +
                         std::to_string(batch) + ", " + std::to_string(heads) + ", " + std::to_string(l) +
                         "] (or a padded last axis)");
  }
  const double scale = params.scale ? *params.scale : 1.0 / std::sqrt(static_cast<double>(e));
  const double inf = std::numeric_limits<double>::infinity();

  // Read all inputs before writing anything.
  const std::vector<double> qv = readValues(q), kv = readValues(k), vv = readValues(v);
  const std::vector<double> maskValues = hasMask ? readValues(mask) : std::vector<double>();
  std::vector<double> result(static_cast<size_t>(batch * heads * l * ev), 0.0);
  std::vector<double> rowLse(static_cast<size_t>(batch * heads * l), -inf);
  std::vector<double> scores(static_cast<size_t>(s));
  const int64_t group = heads / kvHeads;
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t h = 0; h < heads; ++h) {
      const int64_t hk = h / group;
      const double *qh = qv.data() + (b * heads + h) * l * e;
      const double *kh = kv.data() + (b * kvHeads + hk) * s * e;
      const double *vh = vv.data() + (b * kvHeads + hk) * s * ev;
      for (int64_t i = 0; i < l; ++i) {
        double maxScore = -inf;
        bool anyNan = false;
        for (int64_t j = 0; j < s; ++j) {
          double dot = 0.0;
          for (int64_t c = 0; c < e; ++c)
            dot += qh[i * e + c] * kh[j * e + c];
          double score = dot * scale;
          if (hasMask) {
            const double m = maskValues[static_cast<size_t>(((b * heads + h) * l + i) * s + j)];
            score = boolMask ? (m != 0.0 ? score : -inf) : score + m;
          }
          if (params.isCausal && j > i)
            score = -inf;
          scores[static_cast<size_t>(j)] = score;
          if (std::isnan(score))
            anyNan = true;
          else if (score > maxScore)
            maxScore = score;
        }
        double *row = result.data() + ((b * heads + h) * l + i) * ev;
        if (anyNan) {
          std::fill(row, row + ev, std::numeric_limits<double>::quiet_NaN());
          rowLse[static_cast<size_t>((b * heads + h) * l + i)] = std::numeric_limits<double>::quiet_NaN();
          continue;
        }
        if (maxScore == -inf)
          continue; // no key takes part: 0, and a logsumexp of -inf
        double sum = 0.0;
        for (int64_t j = 0; j < s; ++j) {
          const double p = std::exp(scores[static_cast<size_t>(j)] - maxScore);
          scores[static_cast<size_t>(j)] = p;
          sum += p;
        }
        for (int64_t j = 0; j < s; ++j) {
          const double p = scores[static_cast<size_t>(j)] / sum;
          for (int64_t c = 0; c < ev; ++c)
            row[c] += p * vh[j * ev + c];
        }
        rowLse[static_cast<size_t>((b * heads + h) * l + i)] = maxScore + std::log(sum);
      }
    }
  writeValues(out, result);
  if (logsumexp && logsumexp->numel() > 0) {
    if (logsumexp->numel() == batch * heads * l) {
      writeValues(*logsumexp, rowLse);
    } else { // [B, H, padded L]: +inf past L, as the efficient kernel writes it
      const int64_t padded = logsumexp->shape[2];
      std::vector<double> values(static_cast<size_t>(batch * heads * padded), inf);
      for (int64_t bh = 0; bh < batch * heads; ++bh)
        for (int64_t i = 0; i < l; ++i)
          values[static_cast<size_t>(bh * padded + i)] = rowLse[static_cast<size_t>(bh * l + i)];
      writeValues(*logsumexp, values);
    }
  }
}

} // namespace npusim::reference
