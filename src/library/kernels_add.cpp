// add and sub of two tensors on the vector unit: add.Tensor, add, add_.Tensor,
// add_ and the sub forms, out = self + alpha * other (sub: - alpha * other),
// both operands broadcast to the result by their strides. The result's view and
// both operands' views are merged to at most four axes, as the copy kernel
// merges them (kernels_copy.cpp); a program computes a [YBLOCK, XBLOCK] tile.
// Floating results are computed in fp32 and rounded once to the result's
// dtype; integer results in int64. A scalar `other` runs on the host.
#include "library/planners.h"

#include <algorithm>

namespace npusim::library::detail {

namespace {

constexpr std::string_view kAddSource = R"TRITON(
import triton
import triton.language as tl


@triton.jit
def {{NAME}}(a_ptr: "*{{A}}", b_ptr: "*{{B}}", out_ptr: "*{{OUT}}",
             ROWS: tl.constexpr, COLS: tl.constexpr, D1: tl.constexpr, D2: tl.constexpr,
             SA0: tl.constexpr, SA1: tl.constexpr, SA2: tl.constexpr, SA3: tl.constexpr,
             SB0: tl.constexpr, SB1: tl.constexpr, SB2: tl.constexpr, SB3: tl.constexpr,
             SO0: tl.constexpr, SO1: tl.constexpr, SO2: tl.constexpr, SO3: tl.constexpr,
             YBLOCK: tl.constexpr, XBLOCK: tl.constexpr):
    y = tl.program_id(1) * YBLOCK + tl.arange(0, YBLOCK)
    x = tl.program_id(0) * XBLOCK + tl.arange(0, XBLOCK)
    i2 = y % D2
    i1 = (y // D2) % D1
    i0 = y // (D2 * D1)
    mask = (y < ROWS)[:, None] & (x < COLS)[None, :]
    a = tl.load(a_ptr + (i0 * SA0 + i1 * SA1 + i2 * SA2)[:, None] + x[None, :] * SA3, mask=mask).to(tl.{{T}})
    b = tl.load(b_ptr + (i0 * SB0 + i1 * SB1 + i2 * SB2)[:, None] + x[None, :] * SB3, mask=mask).to(tl.{{T}})
    r = {{EXPR}}
    tl.store(out_ptr + (i0 * SO0 + i1 * SO1 + i2 * SO2)[:, None] + x[None, :] * SO3, r.to(tl.{{OUT_T}}), mask=mask)
)TRITON";

/// The launch writing `a + alpha * b` (a and b already broadcast to out's shape) into `out`.
KernelLaunch addLaunch(std::string_view op, const TensorRef &out, const TensorRef &a, const TensorRef &b,
                       double alpha, const MachineShape &machine) {
  const Merged m = merge(out.shape, {out.stride, a.stride, b.stride});
  if (m.shape.size() > 4)
    fail(op, "the result's view " + shapeString(out.shape) + " merges to " + std::to_string(m.shape.size()) +
                 " axes; the NPU kernel takes at most 4");
  std::vector<int64_t> shape = m.shape, so = m.strides[0], sa = m.strides[1], sb = m.strides[2];
  while (shape.size() < 4) {
    shape.insert(shape.begin(), 1);
    for (auto *s : {&so, &sa, &sb})
      s->insert(s->begin(), 0);
  }
  const int64_t cols = shape[3], rows = shape[0] * shape[1] * shape[2];
  // As the copy kernel: tiles of at most 64 K elements and what half the
  // scratchpad holds at 24 bytes an element (two operands, their converted
  // copies, the result, the offsets and the mask).
  const int64_t elements = std::clamp<int64_t>(tileBudgetBytes(machine) / 24, 16, 65536);
  const int64_t xblock =
      blockFor(cols, 16, std::min<int64_t>(std::max<int64_t>(laneBlock(machine), 1024), elements));
  const int64_t yblock = blockFor(rows, 1, std::max<int64_t>(1, elements / xblock));
  const bool floating = core::isFloat(out.dtype);
  const std::string compute = floating ? "float32" : "int64";
  std::string expr, tag;
  if (alpha == 1.0) {
    expr = "a + b";
  } else if (alpha == -1.0) {
    expr = "a - b";
    tag = "_sub";
  } else {
    const std::string value = literal(alpha, floating ? core::DType::Float32 : core::DType::Int64);
    expr = "a + " + value + " * b";
    tag = "_a" + value;
    for (char &c : tag)
      if (!std::isalnum(static_cast<unsigned char>(c)))
        c = '_';
  }
  const std::string name =
      "npusim_add_" + tritonType(a.dtype) + "_" + tritonType(b.dtype) + "_" + tritonType(out.dtype) + tag;
  const std::string outType = out.dtype == core::DType::Float32    ? "float32"
                              : out.dtype == core::DType::Float16  ? "float16"
                              : out.dtype == core::DType::BFloat16 ? "bfloat16"
                                                                   : tritonType(out.dtype);
  LaunchBuilder launch(name, instantiate(kAddSource, {{"NAME", name},
                                                     {"A", tritonType(a.dtype)},
                                                     {"B", tritonType(b.dtype)},
                                                     {"OUT", tritonType(out.dtype)},
                                                     {"T", compute},
                                                     {"OUT_T", outType},
                                                     {"EXPR", expr}}));
  launch.pointer(a).pointer(b).pointer(out);
  launch.constant("ROWS", rows).constant("COLS", cols).constant("D1", shape[1]).constant("D2", shape[2]);
  for (const auto &[prefix, strides] : {std::pair{"SA", &sa}, std::pair{"SB", &sb}, std::pair{"SO", &so}})
    for (int k = 0; k < 4; ++k)
      launch.constant(prefix + std::to_string(k), (*strides)[static_cast<size_t>(k)]);
  launch.constant("YBLOCK", yblock).constant("XBLOCK", xblock);
  launch.grid(ceilDiv(cols, xblock), ceilDiv(rows, yblock), 1);
  return launch.build();
}

void expectArithmetic(std::string_view op, const TensorRef &t, const std::string &what) {
  if (t.dtype == core::DType::Bool || t.dtype == core::DType::Float64)
    fail(op, what + " has dtype " + tritonType(t.dtype) + "; the NPU kernel takes 16- and 32-bit floats and integers");
}

} // namespace

CallPlan planAdd(const CallArgs &call, const MachineShape &machine) {
  const std::string_view op = call.op();
  const bool sub = op.starts_with("aten.sub");
  const bool inPlace = op.starts_with("aten.add_") || op.starts_with("aten.sub_");
  const TensorRef &self = call.tensor(0, "self");
  if (!call.isTensor(1))
    call.fail(1, "other", "a scalar operand runs on the host");
  const TensorRef &other = call.tensor(1, "other");
  double alpha = call.number(2, "alpha");
  const TensorRef &out = inPlace ? self : call.out(0);
  for (const auto &[t, what] : {std::pair{&self, "self"}, std::pair{&other, "other"}, std::pair{&out, "out"}}) {
    expectArithmetic(op, *t, what);
    checkIndexRange(op, *t, what);
  }
  if (!core::isFloat(out.dtype) && alpha != static_cast<double>(static_cast<int64_t>(alpha)))
    call.fail(2, "alpha", "must be an integer for an integer result");
  const TensorRef a = broadcastTo(op, self, out.shape, "self");
  const TensorRef b = broadcastTo(op, other, out.shape, "other");
  // Each element of out is computed from the operand elements at its own
  // position only, so an operand that is out itself is fine.
  checkNoOverlap(op, out, a, "self", true);
  checkNoOverlap(op, out, b, "other", true);
  alpha = sub ? -alpha : alpha;
  CallPlan plan;
  plan.outputDefined.assign(call.numOuts(), true);
  if (inPlace)
    if (const TensorRef *o = call.optionalOut(0);
        o && numel(*o) > 0 && (o->buffer != out.buffer || o->offset != out.offset || o->stride != out.stride)) {
      // The in-place form also returns self: another view gets the same sums,
      // computed before self changes.
      expectShape(op, *o, out.shape, "out");
      checkIndexRange(op, *o, "out");
      checkNoOverlap(op, *o, a, "self", false);
      checkNoOverlap(op, *o, b, "other", false);
      plan.launches.push_back(addLaunch(op, *o, a, b, alpha, machine));
    }
  if (numel(out) > 0)
    plan.launches.push_back(addLaunch(op, out, a, b, alpha, machine));
  return plan;
}

} // namespace npusim::library::detail
