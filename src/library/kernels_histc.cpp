// aten.histc on the vector unit: each program owns a block of bins and makes
// one pass over every element, counting by comparing each element's bin with
// its bins ([BLOCK_E, BLOCK_B] equalities summed over the elements): affine
// addresses, no scatter. The bin arithmetic is the host call's (CUDA's) in
// fp32. When min == max the range is the data's: every program first reduces
// the minimum and maximum (then widened to [min - 1, max + 1] if still empty).
#include "core/float16.h"
#include "library/planners.h"

#include <cmath>

namespace npusim::library::detail {

namespace {

constexpr std::string_view kHistcOp = "aten.histc";

// Grid: (cdiv(BINS, BLOCK_B), 1, 1). Element e of the view is the row-major
// index (i0, i1, i2, i3) over sizes (.., D1, D2, D3).
constexpr std::string_view kHistcSource = R"TRITON(
import triton
import triton.language as tl


@triton.jit
def {{NAME}}(x_ptr: "*{{X}}", out_ptr: "*{{OUT}}", lo_arg: "fp32", hi_arg: "fp32",
             NUMEL: tl.constexpr, BINS: tl.constexpr, D1: tl.constexpr, D2: tl.constexpr, D3: tl.constexpr,
             S0: tl.constexpr, S1: tl.constexpr, S2: tl.constexpr, S3: tl.constexpr, STRIDE_OUT: tl.constexpr,
             DATA_RANGE: tl.constexpr, BLOCK_B: tl.constexpr, BLOCK_E: tl.constexpr):
    rb = tl.program_id(0) * BLOCK_B + tl.arange(0, BLOCK_B)
    lo = lo_arg
    hi = hi_arg
    if DATA_RANGE:
        low = tl.full([BLOCK_E], float("inf"), tl.float32)
        high = tl.full([BLOCK_E], float("-inf"), tl.float32)
        for e0 in range(0, NUMEL, BLOCK_E):
            re = e0 + tl.arange(0, BLOCK_E)
            at = (re // (D1 * D2 * D3)) * S0 + ((re // (D2 * D3)) % D1) * S1 + ((re // D3) % D2) * S2 + (re % D3) * S3
            x = tl.load(x_ptr + at, mask=re < NUMEL, other=0.0).to(tl.float32)
            low = tl.minimum(low, tl.where(re < NUMEL, x, float("inf")))
            high = tl.maximum(high, tl.where(re < NUMEL, x, float("-inf")))
        lo = tl.min(low, 0)
        hi = tl.max(high, 0)
        widen = (lo == hi).to(tl.float32)
        lo = (lo - widen).to(tl.{{XTYPE}}).to(tl.float32)
        hi = (hi + widen).to(tl.{{XTYPE}}).to(tl.float32)
    width = hi - lo
    counts = tl.zeros([BLOCK_B], dtype=tl.float32)
    for e0 in range(0, NUMEL, BLOCK_E):
        re = e0 + tl.arange(0, BLOCK_E)
        at = (re // (D1 * D2 * D3)) * S0 + ((re // (D2 * D3)) % D1) * S1 + ((re // D3) % D2) * S2 + (re % D3) * S3
        x = tl.load(x_ptr + at, mask=re < NUMEL, other=0.0).to(tl.float32)
        inside = (re < NUMEL) & (x >= lo) & (x <= hi)
        scaled = (x - lo) * BINS
        bin = (scaled / width).to(tl.int32)
        bin = tl.where(bin == BINS, BINS - 1, bin)
        hit = (bin[:, None] == rb[None, :]) & inside[:, None]
        counts += tl.sum(hit.to(tl.float32), 0)
    tl.store(out_ptr + rb * STRIDE_OUT, counts, mask=rb < BINS)
)TRITON";

// Integer inputs: the host call's int64 arithmetic, lo and hi (truncated, or
// the data's minimum and maximum when equal, widened by one if still empty)
// baked in or reduced per program; counts in int32.
constexpr std::string_view kHistcIntSource = R"TRITON(
import triton
import triton.language as tl


@triton.jit
def {{NAME}}(x_ptr: "*{{X}}", out_ptr: "*{{OUT}}", lo_arg: "i64", hi_arg: "i64",
             NUMEL: tl.constexpr, BINS: tl.constexpr, D1: tl.constexpr, D2: tl.constexpr, D3: tl.constexpr,
             S0: tl.constexpr, S1: tl.constexpr, S2: tl.constexpr, S3: tl.constexpr, STRIDE_OUT: tl.constexpr,
             DATA_RANGE: tl.constexpr, BLOCK_B: tl.constexpr, BLOCK_E: tl.constexpr):
    rb = tl.program_id(0) * BLOCK_B + tl.arange(0, BLOCK_B)
    lo = lo_arg
    hi = hi_arg
    if DATA_RANGE:
        low = tl.full([BLOCK_E], 9223372036854775807, tl.int64)
        high = tl.full([BLOCK_E], -9223372036854775807 - 1, tl.int64)
        for e0 in range(0, NUMEL, BLOCK_E):
            re = e0 + tl.arange(0, BLOCK_E)
            at = (re // (D1 * D2 * D3)) * S0 + ((re // (D2 * D3)) % D1) * S1 + ((re // D3) % D2) * S2 + (re % D3) * S3
            x = tl.load(x_ptr + at, mask=re < NUMEL, other=0).to(tl.int64)
            low = tl.minimum(low, tl.where(re < NUMEL, x, 9223372036854775807))
            high = tl.maximum(high, tl.where(re < NUMEL, x, -9223372036854775807 - 1))
        lo = tl.min(low, 0)
        hi = tl.max(high, 0)
        widen = (lo == hi).to(tl.int64)
        lo = lo - widen
        hi = hi + widen
    counts = tl.zeros([BLOCK_B], dtype=tl.int32)
    for e0 in range(0, NUMEL, BLOCK_E):
        re = e0 + tl.arange(0, BLOCK_E)
        at = (re // (D1 * D2 * D3)) * S0 + ((re // (D2 * D3)) % D1) * S1 + ((re // D3) % D2) * S2 + (re % D3) * S3
        x = tl.load(x_ptr + at, mask=re < NUMEL, other=0).to(tl.int64)
        inside = (re < NUMEL) & (x >= lo) & (x <= hi)
        bin = ((x - lo) * BINS) // (hi - lo)
        bin = tl.where(bin == BINS, BINS - 1, bin)
        hit = (bin[:, None] == rb[None, :]) & inside[:, None]
        counts += tl.sum(hit.to(tl.int32), 0)
    tl.store(out_ptr + rb * STRIDE_OUT, counts.to(tl.{{OUT_T}}), mask=rb < BINS)
)TRITON";

/// A value rounded to a 16- or 32-bit float type, as CUDA's `input_t minvalue = min`.
double roundTo(core::DType dtype, double v) {
  switch (dtype) {
  case core::DType::Float16: return core::halfToFloat(core::doubleToHalf(v));
  case core::DType::BFloat16: return core::bfloat16ToFloat(core::doubleToBFloat16(v));
  default: return static_cast<float>(v);
  }
}

} // namespace

CallPlan planHistc(const CallArgs &call, const MachineShape &machine) {
  const TensorRef &self = call.tensor(0, "self");
  const int64_t bins = call.integer(1, "bins");
  if (bins <= 0)
    call.fail(1, "bins", "must be positive, got " + std::to_string(bins));
  const TensorRef &out = call.out(0);
  const bool integer = !core::isFloat(self.dtype);
  if (integer) {
    if (self.dtype == core::DType::Bool)
      call.fail(0, "self", "a bool tensor has no NPU histogram");
    if (out.dtype != self.dtype)
      call.fail(0, "out", "has dtype " + tritonType(out.dtype) + ", self " + tritonType(self.dtype));
  } else {
    expectFloat(kHistcOp, self, "self");
    expectFloat(kHistcOp, out, "out");
  }
  expectShape(kHistcOp, out, std::vector<int64_t>{bins}, "out");
  checkIndexRange(kHistcOp, self, "self");
  checkIndexRange(kHistcOp, out, "out");
  checkNoOverlap(kHistcOp, out, self, "self", false);
  // Integers: the bounds truncated, as the host call's int64 arithmetic.
  auto rounded = [&](double v) { return integer ? std::trunc(v) : roundTo(self.dtype, v); };
  double lo = rounded(call.number(2, "min")), hi = rounded(call.number(3, "max"));
  const bool dataRange = lo == hi && numel(self) > 0;
  if (!dataRange && lo == hi) {
    lo = rounded(lo - 1);
    hi = rounded(hi + 1);
  }
  if (!dataRange && (!std::isfinite(lo) || !std::isfinite(hi) || !(lo < hi)))
    call.fail(2, "min",
              "the range [" + std::to_string(lo) + ", " + std::to_string(hi) + "] is empty or not finite");

  // Axes of size 1 dropped, row-major neighbours merged: at most four.
  std::vector<std::pair<int64_t, int64_t>> axes; // (size, stride)
  for (size_t i = 0; i < self.shape.size(); ++i) {
    if (self.shape[i] == 1)
      continue;
    if (!axes.empty() && axes.back().second == self.stride[i] * self.shape[i])
      axes.back() = {axes.back().first * self.shape[i], self.stride[i]};
    else
      axes.emplace_back(self.shape[i], self.stride[i]);
  }
  if (axes.size() > 4)
    fail(kHistcOp, "self " + shapeString(self.shape) + " has more than four axes that do not merge");
  while (axes.size() < 4)
    axes.insert(axes.begin(), {1, 0});

  const int64_t blockB = blockFor(bins, 16, laneBlock(machine));
  // Per element of a block: the value, its bin, flags, and a BLOCK_B-wide row of comparisons.
  int64_t blockE = blockFor(numel(self), 16, 1024);
  while (blockE > 16 && blockE * (blockB * 5 + 32) > tileBudgetBytes(machine))
    blockE /= 2;
  const std::string xType = tritonType(self.dtype);
  const std::string name = "npusim_histc_" + xType + "_" + tritonType(out.dtype);
  const std::string typeName = self.dtype == core::DType::Float16    ? "float16"
                               : self.dtype == core::DType::BFloat16 ? "bfloat16"
                                                                     : "float32";
  LaunchBuilder launch(
      name, integer ? instantiate(kHistcIntSource, {{"NAME", name},
                                                    {"X", xType},
                                                    {"OUT", tritonType(out.dtype)},
                                                    {"OUT_T", tritonType(out.dtype)}})
                    : instantiate(kHistcSource, {{"NAME", name},
                                                 {"X", xType},
                                                 {"OUT", tritonType(out.dtype)},
                                                 {"XTYPE", typeName}}));
  launch.pointer(self).pointer(out);
  if (integer)
    launch.intScalar(static_cast<int64_t>(lo)).intScalar(static_cast<int64_t>(hi));
  else
    launch.floatScalar(lo).floatScalar(hi);
  launch.constant("NUMEL", numel(self)).constant("BINS", bins);
  launch.constant("D1", axes[1].first).constant("D2", axes[2].first).constant("D3", axes[3].first);
  launch.constant("S0", axes[0].second).constant("S1", axes[1].second);
  launch.constant("S2", axes[2].second).constant("S3", axes[3].second);
  launch.constant("STRIDE_OUT", out.stride[0]).constant("DATA_RANGE", dataRange ? 1 : 0);
  launch.constant("BLOCK_B", blockB).constant("BLOCK_E", blockE);
  launch.grid(ceilDiv(bins, blockB), 1, 1);
  CallPlan plan;
  plan.outputDefined.assign(call.numOuts(), true);
  plan.launches.push_back(launch.build());
  return plan;
}

} // namespace npusim::library::detail
