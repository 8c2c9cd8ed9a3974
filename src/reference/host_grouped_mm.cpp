// aten._grouped_mm and transformers.grouped_mm_fallback: one matrix product
// per group, the groups cut out of a 2-D operand by `offs` (int32, the
// cumulative end of each group along the cut axis), as PyTorch's fallback loop
// (aten/src/ATen/native/GroupedMMUtils.h) and transformers' custom op define them:
//   2-D self [M, K]  x 3-D mat2 [G, K, N] -> [M, N]:    rows offs[g-1]..offs[g] use mat2[g]
//   3-D self [G, M, K] x 2-D mat2 [K, N]  -> [M, N]:    columns offs[g-1]..offs[g] use self[g]
//   2-D self [M, K]  x 2-D mat2 [K, N]   -> [G, M, N]: out[g] sums k in offs[g-1]..offs[g]
//   3-D x 3-D (no offs)                  -> [G, M, N]: a batched product
// transformers.grouped_mm_fallback(input, weight, offs) is the first form.
// Rows (columns) past the last offset, which PyTorch leaves unwritten or zero,
// are 0; an empty group is skipped (2-D x 2-D: its product is 0).
#include "reference/host_calls_internal.h"

namespace npusim::reference::host {

namespace {

struct Operand {
  std::vector<double> values; // logical row-major
  std::vector<int64_t> shape;
  double at(int64_t i, int64_t j) const { return values[static_cast<size_t>(i * shape.back() + j)]; }
  double at(int64_t g, int64_t i, int64_t j) const {
    return values[static_cast<size_t>((g * shape[1] + i) * shape[2] + j)];
  }
};

} // namespace

std::vector<bool> callGroupedMm(const CallArgs &c) {
  const auto operands = core::groupedMmOperands(c);
  const bool fallback = operands.fallback;
  const char *aName = operands.aName, *bName = operands.bName;
  const TensorView &a = operands.a, &b = operands.b, &out = operands.out;
  const TensorView *offsView = operands.offs;
  const std::string op(c.op());
  for (const auto &[view, what] : {std::pair{&a, aName}, std::pair{&b, bName}}) {
    if (view->dim() != 2 && view->dim() != 3)
      c.fail(std::string(what) + " must have 2 or 3 dimensions, but has shape " + shapeString(view->shape));
    checkView(*view, op + ": " + what);
  }
  checkView(out, op + ": out");
  const bool a2 = a.dim() == 2, b2 = b.dim() == 2;
  if (fallback && !(a2 && !b2))
    c.fail("expects a 2-D input and a 3-D weight, got " + shapeString(a.shape) + " and " +
           shapeString(b.shape));
  const int64_t k = a.shape.back();
  if (b.shape[b.shape.size() - 2] != k)
    c.fail("the contraction sizes of " + shapeString(a.shape) + " and " + shapeString(b.shape) + " differ");
  if (static_cast<bool>(offsView) != (a2 || b2))
    c.fail(2, "offs",
           a2 || b2 ? "required when an operand is 2-D" : "must be None when both operands are 3-D");

  std::vector<int64_t> offs;
  if (offsView) {
    if (offsView->dim() != 1)
      c.fail(2, "offs", "must be 1-D, but has shape " + shapeString(offsView->shape));
    checkView(*offsView, op + ": offs");
    offs = readIntegers(*offsView);
  }
  // The axis offs cuts, and the number of groups.
  const int64_t cutExtent = a2 && !b2 ? a.shape[0] : !a2 && b2 ? b.shape[1] : a2 ? k : 0;
  const int64_t groups = offsView ? static_cast<int64_t>(offs.size()) : a.shape[0];
  if (!a2 && a.shape[0] != groups)
    c.fail(shapeString(a.shape) + " has " + std::to_string(a.shape[0]) + " groups, offs " +
           std::to_string(groups));
  if (!b2 && b.shape[0] != groups)
    c.fail(shapeString(b.shape) + " has " + std::to_string(b.shape[0]) + " groups, offs " +
           std::to_string(groups));
  for (size_t g = 0; g < offs.size(); ++g)
    if (offs[g] < (g ? offs[g - 1] : 0) || offs[g] > cutExtent)
      c.fail(2, "offs",
             "offs[" + std::to_string(g) + "] = " + std::to_string(offs[g]) +
                 ": offsets must be nondecreasing, from 0 to at most " + std::to_string(cutExtent));
  const int64_t m = a.shape[a.shape.size() - 2], n = b.shape.back();
  const std::vector<int64_t> outShape =
      a2 == b2 ? std::vector<int64_t>{groups, m, n} : std::vector<int64_t>{m, n};
  expectShape(out, outShape, op, "out");

  const Operand av{readValues(a), a.shape}, bv{readValues(b), b.shape};
  std::vector<double> result(static_cast<size_t>(out.numel()), 0.0);
  for (int64_t g = 0; g < groups; ++g) {
    const int64_t start = offsView && g ? offs[static_cast<size_t>(g - 1)] : 0;
    const int64_t end = offsView ? offs[static_cast<size_t>(g)] : 0;
    if (a2 && !b2) {
      for (int64_t i = start; i < end; ++i)
        for (int64_t j = 0; j < n; ++j) {
          double s = 0.0;
          for (int64_t q = 0; q < k; ++q)
            s += av.at(i, q) * bv.at(g, q, j);
          result[static_cast<size_t>(i * n + j)] = s;
        }
    } else if (!a2 && b2) {
      for (int64_t i = 0; i < m; ++i)
        for (int64_t j = start; j < end; ++j) {
          double s = 0.0;
          for (int64_t q = 0; q < k; ++q)
            s += av.at(g, i, q) * bv.at(q, j);
          result[static_cast<size_t>(i * n + j)] = s;
        }
    } else {
      const int64_t k0 = a2 ? start : 0, k1 = a2 ? end : k;
      for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j) {
          double s = 0.0;
          for (int64_t q = k0; q < k1; ++q)
            s += a2 ? av.at(i, q) * bv.at(q, j) : av.at(g, i, q) * bv.at(g, q, j);
          result[static_cast<size_t>((g * m + i) * n + j)] = s;
        }
    }
  }
  writeValues(out, result);
  return std::vector<bool>(c.numOuts(), true);
}

} // namespace npusim::reference::host
