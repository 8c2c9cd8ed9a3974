// Scaled dot-product attention, the math behind aten's flash, efficient and
// cuDNN attention kernels: softmax(q k^T * scale + mask) v, in double.
#include "reference/host_calls_internal.h"

#include <cmath>
#include <limits>

namespace npusim::reference {

namespace {

constexpr std::string_view kAttentionOp = "scaled_dot_product_attention";

} // namespace

namespace host {

AttentionInputs::AttentionInputs(const TensorView &qView, const TensorView &kView, const TensorView &vView,
                                 const AttentionParams &params, std::string_view op)
    : causal_(params.isCausal) {
  for (const auto &[view, name] : {std::pair{&qView, "query"}, {&kView, "key"}, {&vView, "value"}}) {
    if (view->dim() != 4)
      fail(op, std::string(name) + " must be 4-d [batch, heads, sequence, embedding], but has shape " +
                   shapeString(view->shape));
    checkView(*view, std::string(op) + ": " + name);
  }
  batch = qView.shape[0], heads = qView.shape[1], l = qView.shape[2], e = qView.shape[3];
  kvHeads = kView.shape[1], s = kView.shape[2], ev = vView.shape[3];
  if (kView.shape[0] != batch || vView.shape[0] != batch || vView.shape[1] != kvHeads ||
      vView.shape[2] != s || kView.shape[3] != e)
    fail(op, "query " + shapeString(qView.shape) + ", key " + shapeString(kView.shape) + " and value " +
                 shapeString(vView.shape) + " do not agree");
  if (kvHeads == 0 || heads % kvHeads != 0)
    fail(op,
         "query has " + std::to_string(heads) + " heads, not a multiple of key's " + std::to_string(kvHeads));
  group = heads / kvHeads;
  scoreShape = {batch, heads, l, s};
  if (params.mask) {
    checkView(*params.mask, std::string(op) + ": mask");
    mask_ = readValues(broadcastTo(*params.mask, scoreShape, op, "mask"));
    hasMask = true;
    boolMask = params.mask->dtype() == core::DType::Bool;
  }
  scale = params.scale ? *params.scale : 1.0 / std::sqrt(static_cast<double>(e));
  q = readValues(qView), k = readValues(kView), v = readValues(vView);
}

double AttentionInputs::rowScores(int64_t b, int64_t h, int64_t i, std::vector<double> &scores) const {
  const double inf = std::numeric_limits<double>::infinity();
  const double *qi = q.data() + queryAt(b, h) + i * e;
  const double *kh = k.data() + keyAt(b, h);
  double maxScore = -inf;
  bool anyNan = false;
  scores.resize(static_cast<size_t>(s));
  for (int64_t j = 0; j < s; ++j) {
    double dot = 0.0;
    for (int64_t c = 0; c < e; ++c)
      dot += qi[c] * kh[j * e + c];
    double score = dot * scale;
    if (hasMask) {
      const double m = mask_[static_cast<size_t>(((b * heads + h) * l + i) * s + j)];
      score = boolMask ? (m != 0.0 ? score : -inf) : score + m;
    }
    if (causal_ && j > i)
      score = -inf;
    scores[static_cast<size_t>(j)] = score;
    if (std::isnan(score))
      anyNan = true;
    else if (score > maxScore)
      maxScore = score;
  }
  return anyNan ? std::numeric_limits<double>::quiet_NaN() : maxScore;
}

} // namespace host

void scaledDotProductAttention(const TensorView &qView, const TensorView &kView, const TensorView &vView,
                               const AttentionParams &params, const TensorView &out,
                               const TensorView *logsumexp) {
  checkView(out, std::string(kAttentionOp) + ": output");
  const host::AttentionInputs in(qView, kView, vView, params, kAttentionOp);
  const int64_t batch = in.batch, heads = in.heads, l = in.l, s = in.s, ev = in.ev;
  const std::vector<int64_t> outShape = {batch, heads, l, ev};
  host::expectShape(out, outShape, kAttentionOp, "output");
  std::vector<double> lse;
  if (logsumexp) {
    checkView(*logsumexp, std::string(kAttentionOp) + ": logsumexp");
    const int64_t n = logsumexp->numel();
    const bool padded = logsumexp->dim() == 3 && logsumexp->shape[0] == batch &&
                        logsumexp->shape[1] == heads && logsumexp->shape[2] >= l;
    if (!padded && n != batch * heads * l && n != 0)
      host::fail(kAttentionOp, "logsumexp has shape " + shapeString(logsumexp->shape) + "; expected [" +
                          std::to_string(batch) + ", " + std::to_string(heads) + ", " + std::to_string(l) +
                          "] (or a padded last axis)");
  }
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> result(static_cast<size_t>(batch * heads * l * ev), 0.0);
  std::vector<double> rowLse(static_cast<size_t>(batch * heads * l), -inf);
  std::vector<double> scores;
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t h = 0; h < heads; ++h) {
      const double *vh = in.v.data() + in.valueAt(b, h);
      for (int64_t i = 0; i < l; ++i) {
        const double maxScore = in.rowScores(b, h, i, scores);
        const bool anyNan = std::isnan(maxScore);
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
