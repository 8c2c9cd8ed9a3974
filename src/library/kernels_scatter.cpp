// scatter (scatter.src, scatter_.src, scatter.value, scatter_.value) and
// scatter_add: out = self, then along `dim` out[.. index[.., k, ..] ..] =
// src[.., k, ..] (or the value; scatter_add adds). Each program owns a
// [BLOCK_P, BLOCK_C] tile of out: rows are the positions of self's other axes
// (up to three), columns its `dim` axis. It walks k over index's `dim` axis in
// order, loading a column of indices and of sources per step, and a tile
// element whose column equals its row's index takes the source (or adds it).
// The indices steer values, not addresses: no scatter, no atomics, and a
// repeated target behaves as in the host call (the last k wins; scatter_add
// sums in index order, in fp32 where the host sums in double). Rows past
// index's extent on the other axes keep self's values. A negative index
// counts from the end of the axis; one out of range fails the device assertion.
#include "library/planners.h"

#include <algorithm>

namespace npusim::library::detail {

namespace {

// Grid: (cdiv(P, BLOCK_P), cdiv(S, BLOCK_C), 1); P = D0 * D1 * D2 rows of
// self's other axes, S = self's size along dim, K = index's.
constexpr std::string_view kScatterSource = R"TRITON(
import triton
import triton.language as tl


@triton.jit
def {{NAME}}(self_ptr: "*{{T}}", idx_ptr: "*{{I}}", src_ptr: "*{{SRC}}", out_ptr: "*{{T}}",
             P: tl.constexpr, S: tl.constexpr, K: tl.constexpr, D1: tl.constexpr, D2: tl.constexpr,
             I0: tl.constexpr, I1: tl.constexpr, I2: tl.constexpr,
             SS0: tl.constexpr, SS1: tl.constexpr, SS2: tl.constexpr, SSC: tl.constexpr,
             SO0: tl.constexpr, SO1: tl.constexpr, SO2: tl.constexpr, SOC: tl.constexpr,
             SI0: tl.constexpr, SI1: tl.constexpr, SI2: tl.constexpr, SIK: tl.constexpr,
             SV0: tl.constexpr, SV1: tl.constexpr, SV2: tl.constexpr, SVK: tl.constexpr,
             BLOCK_P: tl.constexpr, BLOCK_C: tl.constexpr):
    y = tl.program_id(0) * BLOCK_P + tl.arange(0, BLOCK_P)
    c = tl.program_id(1) * BLOCK_C + tl.arange(0, BLOCK_C)
    i2 = y % D2
    i1 = (y // D2) % D1
    i0 = y // (D2 * D1)
    mask = (y < P)[:, None] & (c < S)[None, :]
    acc = tl.load(self_ptr + (i0 * SS0 + i1 * SS1 + i2 * SS2)[:, None] + c[None, :] * SSC, mask=mask,
                  other=0).to(tl.{{ACC}})
    covered = (y < P) & (i0 < I0) & (i1 < I1) & (i2 < I2)
    for k in range(0, K):
        idx = tl.load(idx_ptr + i0 * SI0 + i1 * SI1 + i2 * SI2 + k * SIK, mask=covered, other=0).to(tl.int64)
        tl.device_assert(((-S <= idx) & (idx < S)) | ~covered, "index out of bounds: -S <= index < S")
        idx = tl.where(idx < 0, idx + S, idx)
{{SOURCE}}
        hit = covered[:, None] & (idx[:, None] == c[None, :])
        acc = tl.where(hit, {{UPDATE}}, acc)
    tl.store(out_ptr + (i0 * SO0 + i1 * SO1 + i2 * SO2)[:, None] + c[None, :] * SOC, acc.to(tl.{{STORE}}),
             mask=mask)
)TRITON";

/// The axes of a view other than `dim`, padded from the outside to three, and
/// its stride along dim.
struct Axes {
  int64_t size[3] = {1, 1, 1}, stride[3] = {0, 0, 0}, dimStride = 0;
};
Axes otherAxes(const TensorRef &t, size_t dim) {
  Axes a;
  a.dimStride = t.stride[dim];
  size_t slot = 3 - (t.shape.size() - 1);
  for (size_t i = 0; i < t.shape.size(); ++i)
    if (i != dim) {
      a.size[slot] = t.shape[i];
      a.stride[slot] = t.stride[i];
      ++slot;
    }
  return a;
}

} // namespace

CallPlan planScatter(const CallArgs &call, const MachineShape &machine) {
  const std::string_view op = call.op();
  const bool add = op == "aten.scatter_add";
  const bool value = op.ends_with(".value");
  const TensorRef &self = call.tensor(0, "self");
  const TensorRef &out = call.out(0);
  const TensorRef &index = call.tensor(2, "index");
  const size_t rank = self.shape.size();
  if (rank < 1 || rank > 4)
    call.fail(0, "self", "has " + std::to_string(rank) + " axes; the NPU kernel takes 1 to 4");
  int64_t dim = call.integer(1, "dim");
  if (dim < -static_cast<int64_t>(rank) || dim >= static_cast<int64_t>(rank))
    call.fail(1, "dim", std::to_string(dim) + " is out of range for " + std::to_string(rank) + " axes");
  if (dim < 0)
    dim += static_cast<int64_t>(rank);
  const size_t d = static_cast<size_t>(dim);
  expectShape(op, out, self.shape, "out");
  if (index.shape.size() != rank)
    call.fail(2, "index", "must have as many axes as self");
  if (core::isFloat(index.dtype) || index.dtype == core::DType::Bool)
    call.fail(2, "index", "must be an integer tensor");
  if (self.dtype == core::DType::Bool || self.dtype == core::DType::Float64)
    call.fail(0, "self", "has dtype " + tritonType(self.dtype) + ", which the NPU kernel does not take");
  for (size_t a = 0; a < rank; ++a)
    if (a != d && index.shape[a] > self.shape[a])
      call.fail(2, "index", shapeString(index.shape) + " is larger than self " + shapeString(self.shape));
  const TensorRef *src = value ? nullptr : &call.tensor(3, "src");
  if (src) {
    if (src->shape.size() != rank)
      call.fail(3, "src", "must have as many axes as self");
    for (size_t a = 0; a < rank; ++a)
      if (index.shape[a] > src->shape[a])
        call.fail(3, "src", shapeString(src->shape) + " is smaller than index " + shapeString(index.shape));
    if (src->dtype == core::DType::Bool || src->dtype == core::DType::Float64)
      call.fail(3, "src", "has dtype " + tritonType(src->dtype) + ", which the NPU kernel does not take");
  }
  for (const auto &[t, what] : {std::pair{&self, "self"}, std::pair{&out, "out"}, std::pair{&index, "index"}})
    checkIndexRange(op, *t, what);
  if (src)
    checkIndexRange(op, *src, "src");
  // Each tile reads its own elements of self first; index and src are read
  // by every program and must not change under them.
  checkNoOverlap(op, out, self, "self", true);
  checkNoOverlap(op, out, index, "index", false);
  if (src)
    checkNoOverlap(op, out, *src, "src", false);

  CallPlan plan;
  plan.outputDefined.assign(call.numOuts(), true);
  if (numel(self) == 0)
    return plan;
  const Axes s = otherAxes(self, d), o = otherAxes(out, d), ix = otherAxes(index, d);
  const Axes v = src ? otherAxes(*src, d) : Axes{};
  const int64_t rows = s.size[0] * s.size[1] * s.size[2], size = self.shape[d];
  const bool floating = core::isFloat(self.dtype);
  const std::string acc = floating ? "float32" : "int64";
  std::string source, update;
  std::string name = std::string(add ? "npusim_scatter_add_" : "npusim_scatter_") + tritonType(self.dtype) + "_" +
                     tritonType(index.dtype);
  if (src) {
    source = "        v = tl.load(src_ptr + i0 * SV0 + i1 * SV1 + i2 * SV2 + k * SVK, mask=covered, "
             "other=0).to(tl." + acc + ")";
    update = add ? "acc + v[:, None]" : "v[:, None]";
    name += "_" + tritonType(src->dtype);
  } else {
    const double number = call.number(3, "value");
    const std::string text = literal(number, floating ? core::DType::Float32 : core::DType::Int64);
    source = "        v = tl.full([BLOCK_P], " + text + ", tl." + acc + ")";
    update = "v[:, None]";
    std::string tag = text;
    for (char &ch : tag)
      if (!std::isalnum(static_cast<unsigned char>(ch)))
        ch = '_';
    name += "_v" + tag;
  }
  const int64_t blockC = blockFor(size, 16, 1024);
  const int64_t blockP = blockFor(
      rows, 1, std::max<int64_t>(1, std::min<int64_t>(laneBlock(machine), tileBudgetBytes(machine) / (24 * blockC))));
  LaunchBuilder launch(name, instantiate(kScatterSource, {{"NAME", name},
                                                         {"T", tritonType(self.dtype)},
                                                         {"I", tritonType(index.dtype)},
                                                         {"SRC", tritonType(src ? src->dtype : self.dtype)},
                                                         {"ACC", acc},
                                                         {"STORE", tritonTypeName(self.dtype)},
                                                         {"SOURCE", source},
                                                         {"UPDATE", update}}));
  // The value form reads no source: src_ptr points at self and is never loaded.
  launch.pointer(self).pointer(index).pointer(src ? *src : self).pointer(out);
  launch.constant("P", rows).constant("S", size).constant("K", index.shape[d]);
  launch.constant("D1", s.size[1]).constant("D2", s.size[2]);
  launch.constant("I0", ix.size[0]).constant("I1", ix.size[1]).constant("I2", ix.size[2]);
  for (const auto &[prefix, axes] : {std::pair{"SS", &s}, std::pair{"SO", &o}, std::pair{"SI", &ix}, std::pair{"SV", &v}}) {
    for (int k = 0; k < 3; ++k)
      launch.constant(prefix + std::to_string(k), axes->stride[k]);
    launch.constant(std::string(prefix) + (prefix[1] == 'S' || prefix[1] == 'O' ? "C" : "K"), axes->dimStride);
  }
  launch.constant("BLOCK_P", blockP).constant("BLOCK_C", blockC);
  launch.grid(ceilDiv(rows, blockP), ceilDiv(size, blockC), 1);
  plan.launches.push_back(launch.build());
  return plan;
}

} // namespace npusim::library::detail
