// index_put (index_put_, _unsafe_index_put) with one index tensor on the
// leading axis: out = self, then out[indices[n]] = values[n] (+= with
// accumulate), for every n in the indices' row-major order. Each program owns
// a [BLOCK_R, BLOCK_D] tile of rows and columns of out and walks the indices
// in order: a row equal to indices[n] takes values[n] (or adds it). The
// indices steer values, not addresses, so there is no scatter and no atomic,
// and a repeated index behaves as in the host call: the last value wins, or
// the contributions add up in index order (in fp32 for floats, where the host
// sums in double and rounds once). A negative index counts from the end; one
// out of range fails the device assertion. Several index tensors, None
// entries and rows that do not merge into one axis run on the host.
#include "library/planners.h"

#include <algorithm>
#include <optional>

namespace npusim::library::detail {

namespace {

// Grid: (cdiv(R, BLOCK_R), cdiv(D, BLOCK_D), 1). Row r of out is element
// r * SO0 + d * SO1; index n is idx_ptr[n * SI]; values[n] is v_ptr[n * SV0 + d * SV1].
constexpr std::string_view kIndexPutSource = R"TRITON(
import triton
import triton.language as tl


@triton.jit
def {{NAME}}(self_ptr: "*{{T}}", idx_ptr: "*{{I}}", v_ptr: "*{{V}}", out_ptr: "*{{T}}",
             N: tl.constexpr, R: tl.constexpr, D: tl.constexpr, SS0: tl.constexpr, SS1: tl.constexpr,
             SI: tl.constexpr, SV0: tl.constexpr, SV1: tl.constexpr, SO0: tl.constexpr, SO1: tl.constexpr,
             BLOCK_R: tl.constexpr, BLOCK_D: tl.constexpr):
    rr = tl.program_id(0) * BLOCK_R + tl.arange(0, BLOCK_R)
    rd = tl.program_id(1) * BLOCK_D + tl.arange(0, BLOCK_D)
    mask = (rr < R)[:, None] & (rd < D)[None, :]
    acc = tl.load(self_ptr + rr[:, None] * SS0 + rd[None, :] * SS1, mask=mask, other=0).to(tl.{{ACC}})
    for n in range(0, N):
        i = tl.load(idx_ptr + n * SI).to(tl.int64)
        tl.device_assert((-R <= i) & (i < R), "index out of bounds: -R <= index < R")
        i = tl.where(i < 0, i + R, i)
        v = tl.load(v_ptr + n * SV0 + rd * SV1, mask=rd < D, other=0).to(tl.{{ACC}})
        hit = (rr == i)[:, None] & (rd < D)[None, :]
        acc = tl.where(hit, {{UPDATE}}, acc)
    tl.store(out_ptr + rr[:, None] * SO0 + rd[None, :] * SO1, acc.to(tl.{{STORE}}), mask=mask)
)TRITON";

/// The stride of axes [begin, end) of `t` walked as one row-major axis (axes
/// of size 1 dropped; 0 when every one is), or none when they do not merge.
std::optional<int64_t> jointStride(const TensorRef &t, size_t begin, size_t end) {
  std::optional<int64_t> stride;
  int64_t inner = 1; // elements of the axes merged so far, innermost first
  for (size_t a = end; a-- > begin;) {
    if (t.shape[a] == 1)
      continue;
    if (!stride)
      stride = t.stride[a];
    else if (t.stride[a] != *stride * inner)
      return std::nullopt;
    inner *= t.shape[a];
  }
  return stride.value_or(0);
}

} // namespace

CallPlan planIndexPut(const CallArgs &call, const MachineShape &machine) {
  const std::string_view op = call.op();
  const TensorRef &self = call.tensor(0, "self");
  const TensorRef &out = call.out(0);
  const TensorRef &values = call.tensor(2, "values");
  const bool accumulate = call.boolean(3, "accumulate");
  const auto &indexList = call.list(1, "indices");
  if (indexList.size() != 1 || indexList[0].kind != CallArgument::Kind::Tensor)
    call.fail(1, "indices", "the NPU kernel takes one index tensor on the leading axis; " +
                                std::to_string(indexList.size()) + " entries run on the host");
  const TensorRef &index = indexList[0].tensor;
  if (self.shape.empty())
    call.fail(0, "self", "a 0-d tensor has no leading axis to index");
  expectShape(op, out, self.shape, "out");
  if (core::isFloat(index.dtype) || index.dtype == core::DType::Bool)
    call.fail(1, "indices", "must be an integer tensor (a bool mask runs on the host)");
  for (const TensorRef *t : {&self, &out})
    if (t->dtype == core::DType::Bool || t->dtype == core::DType::Float64)
      call.fail(0, "self", "has dtype " + tritonType(t->dtype) + ", which the NPU kernel does not take");
  if (values.dtype != self.dtype)
    call.fail(2, "values", "has dtype " + tritonType(values.dtype) + ", self " + tritonType(self.dtype));
  for (const auto &[t, what] : {std::pair{&self, "self"}, std::pair{&out, "out"}, std::pair{&index, "indices"},
                                std::pair{&values, "values"}})
    checkIndexRange(op, *t, what);

  // values broadcast to indices.shape + self.shape[1:], seen as [N, D].
  const size_t rank = self.shape.size(), indexRank = index.shape.size();
  std::vector<int64_t> putShape = index.shape;
  putShape.insert(putShape.end(), self.shape.begin() + 1, self.shape.end());
  const TensorRef put = broadcastTo(op, values, putShape, "values");
  const std::optional<int64_t> si = jointStride(index, 0, indexRank);
  const std::optional<int64_t> sv0 = jointStride(put, 0, indexRank), sv1 = jointStride(put, indexRank, put.shape.size());
  const std::optional<int64_t> ss1 = jointStride(self, 1, rank), so1 = jointStride(out, 1, rank);
  if (!si || !sv0 || !sv1 || !ss1 || !so1)
    fail(op, "the indices " + shapeString(index.shape) + ", values " + shapeString(values.shape) + " or self " +
                 shapeString(self.shape) + " do not merge into [indices, row] axes; such views run on the host");
  // Everything is read before out is written in PyTorch's semantics: only self
  // may be out (each tile reads its own elements first).
  checkNoOverlap(op, out, self, "self", true);
  checkNoOverlap(op, out, index, "indices", false);
  checkNoOverlap(op, out, put, "values", false);

  const int64_t rows = self.shape[0], n = numel(index);
  int64_t d = 1;
  for (size_t a = 1; a < rank; ++a)
    d *= self.shape[a];
  CallPlan plan;
  plan.outputDefined.assign(call.numOuts(), true);
  if (rows * d == 0)
    return plan;
  // Per element of a tile: its value, the accumulator, the comparison and the
  // mask, about 24 bytes; rows on the lanes.
  const int64_t blockD = blockFor(d, 16, 1024);
  const int64_t blockR =
      blockFor(rows, 1, std::max<int64_t>(1, std::min<int64_t>(laneBlock(machine), tileBudgetBytes(machine) / (24 * blockD))));
  const bool floating = core::isFloat(self.dtype);
  const std::string acc = floating ? "float32" : "int64";
  const std::string name = std::string("npusim_index_put") + (accumulate ? "_accumulate_" : "_") +
                           tritonType(self.dtype) + "_" + tritonType(index.dtype);
  LaunchBuilder launch(name, instantiate(kIndexPutSource, {{"NAME", name},
                                                          {"T", tritonType(self.dtype)},
                                                          {"I", tritonType(index.dtype)},
                                                          {"V", tritonType(values.dtype)},
                                                          {"ACC", acc},
                                                          {"STORE", tritonTypeName(self.dtype)},
                                                          {"UPDATE", accumulate ? "acc + v[None, :]" : "v[None, :]"}}));
  launch.pointer(self).pointer(index).pointer(put).pointer(out);
  launch.constant("N", n).constant("R", rows).constant("D", d);
  launch.constant("SS0", self.stride[0]).constant("SS1", *ss1).constant("SI", *si);
  launch.constant("SV0", *sv0).constant("SV1", *sv1).constant("SO0", out.stride[0]).constant("SO1", *so1);
  launch.constant("BLOCK_R", blockR).constant("BLOCK_D", blockD);
  launch.grid(ceilDiv(rows, blockR), ceilDiv(d, blockD), 1);
  plan.launches.push_back(launch.build());
  return plan;
}

} // namespace npusim::library::detail
