// aten.topk as an iterative selection on the vector unit: each program holds
// whole rows, and each of the k steps picks the best element still free (a
// max or min reduction along the row, then the smallest index among equal
// values, which keeps ties in index order as the reference's stable sort does;
// NaN counts as the largest value).
#include "library/planners.h"

#include <algorithm>

namespace npusim::library::detail {

namespace {

constexpr std::string_view kTopkOp = "aten.topk";

// Grid: (cdiv(ROWS, BLOCK_R), 1, 1). Row r is outer index (i0, i1, i2) of
// sizes (.., D1, D2) in row-major order; the selected axis has N elements.
constexpr std::string_view kTopkSource = R"TRITON(
import triton
import triton.language as tl


@triton.jit
def {{NAME}}(x_ptr: "*{{X}}", values_ptr: "*{{VALUES}}", indices_ptr: "*{{INDICES}}",
             ROWS: tl.constexpr, N: tl.constexpr, K: tl.constexpr, D1: tl.constexpr, D2: tl.constexpr,
             SX0: tl.constexpr, SX1: tl.constexpr, SX2: tl.constexpr, SXN: tl.constexpr,
             SV0: tl.constexpr, SV1: tl.constexpr, SV2: tl.constexpr, SVK: tl.constexpr,
             SI0: tl.constexpr, SI1: tl.constexpr, SI2: tl.constexpr, SIK: tl.constexpr,
             LARGEST: tl.constexpr, BLOCK_R: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_R + tl.arange(0, BLOCK_R)
    r_mask = rows < ROWS
    i2 = rows % D2
    i1 = (rows // D2) % D1
    i0 = rows // (D1 * D2)
    cols = tl.arange(0, BLOCK_N)
    x = tl.load(x_ptr + (i0 * SX0 + i1 * SX1 + i2 * SX2)[:, None] + cols[None, :] * SXN,
                mask=r_mask[:, None] & (cols[None, :] < N), other=0.0).to(tl.float32)
    is_nan = x != x
    taken = (cols[None, :] + 0 * rows[:, None]) >= N
    values_row = values_ptr + i0 * SV0 + i1 * SV1 + i2 * SV2
    indices_row = indices_ptr + i0 * SI0 + i1 * SI1 + i2 * SI2
    for i in range(0, K):
        free = taken == 0
        nan_index = tl.min(tl.where(free & is_nan, cols[None, :], BLOCK_N), 1)
        number = free & (x == x)
        if LARGEST:
            best = tl.max(tl.where(number, x, float("-inf")), 1)
        else:
            best = tl.min(tl.where(number, x, float("inf")), 1)
        number_index = tl.min(tl.where(number & (x == best[:, None]), cols[None, :], BLOCK_N), 1)
        if LARGEST:
            index = tl.where(nan_index < BLOCK_N, nan_index, number_index)
        else:
            index = tl.where(number_index < BLOCK_N, number_index, nan_index)
        hit = cols[None, :] == index[:, None]
        value = tl.sum(tl.where(hit, x, 0.0), 1)
        taken = taken | hit
        tl.store(values_row + i * SVK, value, mask=r_mask)
        tl.store(indices_row + i * SIK, index.to(tl.int64), mask=r_mask)
)TRITON";

struct Axis {
  int64_t size, x, values, indices; // size and the three tensors' strides
};

} // namespace

CallPlan planTopk(const CallArgs &call, const MachineShape &machine) {
  const TensorRef &self = call.tensor(0, "self");
  const int64_t k = call.integer(1, "k");
  int64_t dim = call.integer(2, "dim");
  const bool largest = call.boolean(3, "largest");
  (void)call.boolean(4, "sorted"); // unsorted leaves the order unspecified; sorted is one such order
  const TensorRef &values = call.out(0);
  const TensorRef &indices = call.out(1);
  expectFloat(kTopkOp, self, "self");
  expectFloat(kTopkOp, values, "values");
  if (indices.dtype != core::DType::Int64)
    fail(kTopkOp, "indices has dtype " + tritonType(indices.dtype) + ", expected i64");
  const int64_t rank = static_cast<int64_t>(self.shape.size());
  const int64_t wrapRank = std::max<int64_t>(rank, 1);
  if (dim < -wrapRank || dim >= wrapRank)
    call.fail(2, "dim", "dimension " + std::to_string(dim) + " is out of range for a " + std::to_string(rank) +
                            "-d tensor");
  if (dim < 0)
    dim += wrapRank;
  // A 0-d tensor is one row of one element.
  const TensorRef x = rank == 0 ? unsqueeze(self, 0) : self;
  const TensorRef vals = values.shape.empty() ? unsqueeze(values, 0) : values;
  const TensorRef idxs = indices.shape.empty() ? unsqueeze(indices, 0) : indices;
  const int64_t n = x.shape[static_cast<size_t>(dim)];
  if (k < 0 || k > n)
    call.fail(1, "k", "k=" + std::to_string(k) + " is out of range for a dimension of size " + std::to_string(n));
  std::vector<int64_t> resultShape = x.shape;
  resultShape[static_cast<size_t>(dim)] = k;
  expectShape(kTopkOp, vals, resultShape, "values");
  expectShape(kTopkOp, idxs, resultShape, "indices");
  checkIndexRange(kTopkOp, x, "self");
  checkIndexRange(kTopkOp, vals, "values");
  checkIndexRange(kTopkOp, idxs, "indices");
  checkNoOverlap(kTopkOp, values, self, "self", false);
  checkNoOverlap(kTopkOp, indices, self, "self", false);
  checkNoOverlap(kTopkOp, indices, values, "values", false);

  CallPlan plan;
  plan.outputDefined.assign(call.numOuts(), true);
  if (k == 0 || numel(x) == 0)
    return plan;

  // The other axes, size-1 ones dropped and mergeable neighbours merged, must come to at most three.
  std::vector<Axis> outer;
  for (size_t a = 0; a < x.shape.size(); ++a) {
    if (static_cast<int64_t>(a) == dim || x.shape[a] == 1)
      continue;
    const Axis axis{x.shape[a], x.stride[a], vals.stride[a], idxs.stride[a]};
    if (!outer.empty()) {
      Axis &last = outer.back();
      if (last.x == axis.x * axis.size && last.values == axis.values * axis.size &&
          last.indices == axis.indices * axis.size) {
        last = {last.size * axis.size, axis.x, axis.values, axis.indices};
        continue;
      }
    }
    outer.push_back(axis);
  }
  if (outer.size() > 3)
    fail(kTopkOp, "self " + shapeString(self.shape) + " has more than three outer axes that do not merge");
  while (outer.size() < 3)
    outer.insert(outer.begin(), Axis{1, 0, 0, 0});
  const int64_t rows = outer[0].size * outer[1].size * outer[2].size;

  const int64_t blockN = blockFor(n, 16, int64_t{1} << 20);
  // Tiles of a program: the values, NaN flags, taken flags, selections and
  // their temporaries, about eight BLOCK_R x BLOCK_N 4-byte tiles (as
  // compiler::compile plans them).
  constexpr int64_t kBytesPerElement = 32;
  int64_t blockR = blockFor(rows, 1, laneBlock(machine));
  while (blockR > 1 &&
         (blockR * blockN * kBytesPerElement > tileBudgetBytes(machine) || blockR * blockN > (int64_t{1} << 20)))
    blockR /= 2;
  if (blockN * kBytesPerElement > tileBudgetBytes(machine) || blockN > (int64_t{1} << 20))
    fail(kTopkOp, "rows of " + std::to_string(n) + " elements do not fit in the scratchpad");

  const std::string name = "npusim_topk_" + tritonType(x.dtype) + "_" + tritonType(vals.dtype);
  LaunchBuilder launch(name, instantiate(kTopkSource, {{"NAME", name},
                                                       {"X", tritonType(x.dtype)},
                                                       {"VALUES", tritonType(vals.dtype)},
                                                       {"INDICES", "i64"}}));
  launch.pointer(x).pointer(vals).pointer(idxs);
  const size_t d = static_cast<size_t>(dim);
  launch.constant("ROWS", rows).constant("N", n).constant("K", k);
  launch.constant("D1", outer[1].size).constant("D2", outer[2].size);
  launch.constant("SX0", outer[0].x).constant("SX1", outer[1].x).constant("SX2", outer[2].x);
  launch.constant("SXN", x.stride[d]);
  launch.constant("SV0", outer[0].values).constant("SV1", outer[1].values).constant("SV2", outer[2].values);
  launch.constant("SVK", vals.stride[d]);
  launch.constant("SI0", outer[0].indices).constant("SI1", outer[1].indices).constant("SI2", outer[2].indices);
  launch.constant("SIK", idxs.stride[d]);
  launch.constant("LARGEST", largest ? 1 : 0).constant("BLOCK_R", blockR).constant("BLOCK_N", blockN);
  launch.grid(ceilDiv(rows, blockR), 1, 1);
  plan.launches.push_back(launch.build());
  return plan;
}

} // namespace npusim::library::detail
