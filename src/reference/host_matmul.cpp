// aten.mm, aten.addmm, aten.bmm, aten.baddbmm: matrix products over strided
// views, sums in double, one rounding on store.
#include "reference/host_calls_internal.h"

namespace npusim::reference {

namespace {

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
  const std::vector<double> av = readValues(a), bv = readValues(b);
  std::vector<double> selfValues;
  const bool useSelf = self && beta != 0.0;
  if (useSelf) {
    checkView(*self, std::string(op) + ": self");
    selfValues = readValues(host::broadcastTo(*self, outShape, op, "self"));
  }
  std::vector<double> result(static_cast<size_t>(batches * m * n));
  for (int64_t i = 0; i < batches; ++i)
    host::gemm(av.data() + i * m * k, bv.data() + i * k * n, result.data() + i * m * n, m, k, n);
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
