// aten.mm, aten.addmm, aten.bmm, aten.baddbmm: matrix products over strided
// views, sums in double, one rounding on store.
#include "reference/host_calls_internal.h"

#include <algorithm>

namespace npusim::reference {

namespace {

/// Doubles of the second operand read at once (8 MiB).
constexpr int64_t kPanelDoubles = int64_t{1} << 20;

void expectRank(const TensorView &v, int64_t rank, std::string_view op, const std::string &what) {
  if (v.dim() != rank)
    host::fail(op, what + " must have " + std::to_string(rank) + " dimensions, but has shape " +
                       shapeString(v.shape));
}

/// out[b] = beta * self[b] + alpha * (a[b] @ b[b]) for every batch b of 3-D views
/// (2-D products are one batch). self may be null (beta ignored).
void batchedProduct(std::string_view op, const TensorView *self, const TensorView &a, const TensorView &b,
                    double beta, double alpha, const TensorView &out) {
  const int64_t batches = a.shape[0], m = a.shape[1], k = a.shape[2], n = b.shape[2];
  if (b.shape[0] != batches)
    host::fail(op, "batch sizes differ: " + shapeString(a.shape) + " and " + shapeString(b.shape));
  if (b.shape[1] != k)
    host::fail(op, "the operands' shapes " + shapeString(a.shape) + " and " + shapeString(b.shape) +
                       " cannot be multiplied (inner sizes " + std::to_string(k) + " and " +
                       std::to_string(b.shape[1]) + " differ)");
  const std::vector<int64_t> outShape = {batches, m, n};
  host::expectShape(out, outShape, op, "out");
  checkView(a, std::string(op) + ": first operand");
  checkView(b, std::string(op) + ": second operand");
  checkView(out, std::string(op) + ": out");

  // Read every input before writing: out may alias self (baddbmm_ / addmm out=self).
  const std::vector<double> av = readValues(a);
  std::vector<double> selfValues;
  const bool useSelf = self && beta != 0.0;
  if (useSelf) {
    checkView(*self, std::string(op) + ": self");
    selfValues = readValues(host::broadcastTo(*self, outShape, op, "self"));
  }
  // The second operand is read as doubles a panel of columns at a time: all
  // of it would double a weight's bytes (GPT-2's 50257 x 768 LM head: 309 MB).
  // Each result element still sums its k products in order.
  const int64_t panel =
      std::clamp<int64_t>(kPanelDoubles / std::max<int64_t>(k, 1), 1, std::max<int64_t>(n, 1));
  std::vector<double> result(static_cast<size_t>(batches * m * n)), panelResult;
  for (int64_t i = 0; i < batches; ++i)
    for (int64_t j0 = 0; j0 < n; j0 += panel) {
      const int64_t width = std::min(panel, n - j0);
      TensorView columns = b;
      columns.offset = b.offset + i * b.stride[0] + j0 * b.stride[2];
      columns.shape = {k, width};
      columns.stride = {b.stride[1], b.stride[2]};
      const std::vector<double> bv = readValues(columns);
      panelResult.resize(static_cast<size_t>(m * width));
      host::gemm(av.data() + i * m * k, bv.data(), panelResult.data(), m, k, width);
      for (int64_t r = 0; r < m; ++r)
        std::copy_n(panelResult.data() + r * width, width, result.data() + (i * m + r) * n + j0);
    }
  if (alpha != 1.0 || useSelf)
    for (size_t i = 0; i < result.size(); ++i)
      result[i] = alpha * result[i] + (useSelf ? beta * selfValues[i] : 0.0);
  writeValues(out, result);
}

TensorView unsqueeze0(const TensorView &v) {
  TensorView r = v;
  r.shape.insert(r.shape.begin(), 1);
  r.stride.insert(r.stride.begin(), 0);
  return r;
}

} // namespace

void matmul(const TensorView &a, const TensorView &b, const TensorView &out) {
  expectRank(a, 2, "aten.mm", "self");
  expectRank(b, 2, "aten.mm", "mat2");
  expectRank(out, 2, "aten.mm", "out");
  batchedProduct("aten.mm", nullptr, unsqueeze0(a), unsqueeze0(b), 0.0, 1.0, unsqueeze0(out));
}

void addmm(const TensorView &self, const TensorView &a, const TensorView &b, double beta, double alpha,
           const TensorView &out) {
  expectRank(a, 2, "aten.addmm", "mat1");
  expectRank(b, 2, "aten.addmm", "mat2");
  expectRank(out, 2, "aten.addmm", "out");
  if (self.dim() > 2)
    host::fail("aten.addmm",
               "self has shape " + shapeString(self.shape) + "; it must broadcast to the product");
  batchedProduct("aten.addmm", &self, unsqueeze0(a), unsqueeze0(b), beta, alpha, unsqueeze0(out));
}

void bmm(const TensorView &a, const TensorView &b, const TensorView &out) {
  expectRank(a, 3, "aten.bmm", "self");
  expectRank(b, 3, "aten.bmm", "mat2");
  expectRank(out, 3, "aten.bmm", "out");
  batchedProduct("aten.bmm", nullptr, a, b, 0.0, 1.0, out);
}

void baddbmm(const TensorView &self, const TensorView &a, const TensorView &b, double beta, double alpha,
             const TensorView &out) {
  expectRank(a, 3, "aten.baddbmm", "batch1");
  expectRank(b, 3, "aten.baddbmm", "batch2");
  expectRank(out, 3, "aten.baddbmm", "out");
  batchedProduct("aten.baddbmm", &self, a, b, beta, alpha, out);
}

} // namespace npusim::reference
