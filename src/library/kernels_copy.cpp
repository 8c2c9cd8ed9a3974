// Fills and copies on the NPU: zero_, fill_, zeros, ones, zeros_like,
// ones_like (a constant stored into every element of the result), and
// copy_, clone and _to_copy (every element of a source view converted to the
// result's dtype and stored in its layout). One kernel for both, over the
// result's view merged to at most four axes: a program stores a [YBLOCK,
// XBLOCK] tile whose rows are the outer axes' combined index and whose
// columns the innermost axis, one DMA run per row where that axis is
// contiguous (docs/library-kernels.md, "Fills and copies").
#include "library/planners.h"

#include "core/error.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace npusim::library::detail {

namespace {

constexpr std::string_view kCopySource = R"TRITON(
import triton
import triton.language as tl


@triton.jit
def {{NAME}}(src_ptr: "*{{SRC}}", dst_ptr: "*{{DST}}",
             ROWS: tl.constexpr, COLS: tl.constexpr, D1: tl.constexpr, D2: tl.constexpr,
             SS0: tl.constexpr, SS1: tl.constexpr, SS2: tl.constexpr, SS3: tl.constexpr,
             SD0: tl.constexpr, SD1: tl.constexpr, SD2: tl.constexpr, SD3: tl.constexpr,
             YBLOCK: tl.constexpr, XBLOCK: tl.constexpr):
    y = tl.program_id(1) * YBLOCK + tl.arange(0, YBLOCK)
    x = tl.program_id(0) * XBLOCK + tl.arange(0, XBLOCK)
    i2 = y % D2
    i1 = (y // D2) % D1
    i0 = y // (D2 * D1)
    mask = (y < ROWS)[:, None] & (x < COLS)[None, :]
{{BODY}}
)TRITON";

// A transposing copy: the source's contiguous axis is the result's
// second-innermost (D2) and the result's the innermost (COLS), or the other
// way round. A program moves a [RBLOCK, XBLOCK] block of (D2, COLS) of one
// (D0, D1) index, loaded along the source's contiguous axis, turned on chip
// and stored along the result's, so that both DMAs walk DRAM in runs.
constexpr std::string_view kTransposeSource = R"TRITON(
import triton
import triton.language as tl


@triton.jit
def {{NAME}}(src_ptr: "*{{SRC}}", dst_ptr: "*{{DST}}",
             D1: tl.constexpr, D2: tl.constexpr, COLS: tl.constexpr,
             SS0: tl.constexpr, SS1: tl.constexpr, SS2: tl.constexpr, SS3: tl.constexpr,
             SD0: tl.constexpr, SD1: tl.constexpr, SD2: tl.constexpr, SD3: tl.constexpr,
             RBLOCK: tl.constexpr, XBLOCK: tl.constexpr):
    b = tl.program_id(2)
    i1 = b % D1
    i0 = b // D1
    r = tl.program_id(1) * RBLOCK + tl.arange(0, RBLOCK)
    x = tl.program_id(0) * XBLOCK + tl.arange(0, XBLOCK)
{{BODY}}
)TRITON";

/// The transposing copy of `src` into `dst` over their merged axes [D0, D1,
/// D2, COLS] (strides `ss`, `sd`): `turnsIn` when the result is contiguous
/// along COLS (the source along D2), else the other way round.
KernelLaunch transposeLaunch(const std::vector<int64_t> &shape, const std::vector<int64_t> &ss,
                             const std::vector<int64_t> &sd, const TensorRef &src, const TensorRef &dst, bool turnsIn,
                             const MachineShape &machine) {
  // Square blocks of up to 128 x 128 within the copy's tile budget: runs of
  // 512 bytes of fp32 on both sides.
  const int64_t elements = std::clamp<int64_t>(tileBudgetBytes(machine) / 16, 256, 16384);
  int64_t side = 16; // a power of two, as tl.arange needs
  while (4 * side * side <= elements)
    side *= 2;
  const int64_t xblock = blockFor(shape[3], 16, side), rblock = blockFor(shape[2], 16, side);
  const std::string dstType = tritonType(dst.dtype);
  const std::string convert = src.dtype == dst.dtype ? ""
                              : dst.dtype == core::DType::Bool ? " != 0"
                                                               : ".to(tl." + dstType + ")";
  // Loaded along the source's contiguous axis, stored along the result's.
  const std::string body =
      turnsIn ? "    v = tl.load(src_ptr + (i0 * SS0 + i1 * SS1) + x[:, None] * SS3 + r[None, :] * SS2, "
                "mask=(x < COLS)[:, None] & (r < D2)[None, :])\n"
                "    t = tl.trans(v)" + convert + "\n"
                "    tl.store(dst_ptr + (i0 * SD0 + i1 * SD1) + r[:, None] * SD2 + x[None, :] * SD3, t, "
                "mask=(r < D2)[:, None] & (x < COLS)[None, :])"
              : "    v = tl.load(src_ptr + (i0 * SS0 + i1 * SS1) + r[:, None] * SS2 + x[None, :] * SS3, "
                "mask=(r < D2)[:, None] & (x < COLS)[None, :])\n"
                "    t = tl.trans(v)" + convert + "\n"
                "    tl.store(dst_ptr + (i0 * SD0 + i1 * SD1) + x[:, None] * SD3 + r[None, :] * SD2, t, "
                "mask=(x < COLS)[:, None] & (r < D2)[None, :])";
  const std::string name = std::string("npusim_transpose_") + (turnsIn ? "in_" : "out_") + tritonType(src.dtype) +
                           "_" + dstType;
  LaunchBuilder launch(name, instantiate(kTransposeSource,
                                         {{"NAME", name}, {"SRC", tritonType(src.dtype)}, {"DST", dstType}, {"BODY", body}}));
  launch.pointer(src).pointer(dst);
  launch.constant("D1", shape[1]).constant("D2", shape[2]).constant("COLS", shape[3]);
  for (int a = 0; a < 4; ++a) {
    launch.constant("SS" + std::to_string(a), ss[static_cast<size_t>(a)]);
    launch.constant("SD" + std::to_string(a), sd[static_cast<size_t>(a)]);
  }
  launch.constant("RBLOCK", rblock).constant("XBLOCK", xblock);
  launch.grid(ceilDiv(shape[3], xblock), ceilDiv(shape[2], rblock), shape[0] * shape[1]);
  return launch.build();
}

} // namespace

/// The launch storing into `dst` either a constant (`fill`) or `src`
/// (broadcast to dst's shape by its strides) converted to dst's dtype.
KernelLaunch copyLaunch(std::string_view op, const TensorRef &dst, const TensorRef *src, std::optional<double> fill,
                        const MachineShape &machine) {
  std::vector<std::vector<int64_t>> strides = {dst.stride};
  if (src)
    strides.push_back(src->stride);
  const Merged m = merge(dst.shape, strides);
  if (m.shape.size() > 4)
    fail(op, "the result's view " + shapeString(dst.shape) + " merges to " + std::to_string(m.shape.size()) +
                 " axes; the NPU kernel takes at most 4");
  // Pad to four axes from the outside: [D0, D1, D2, COLS].
  std::vector<int64_t> shape = m.shape, sd = m.strides[0], ss = src ? m.strides[1] : std::vector<int64_t>(m.shape.size(), 0);
  while (shape.size() < 4) {
    shape.insert(shape.begin(), 1);
    sd.insert(sd.begin(), 0);
    ss.insert(ss.begin(), 0);
  }
  const int64_t cols = shape[3], rows = shape[0] * shape[1] * shape[2];
  const core::DType srcType = src ? src->dtype : dst.dtype;
  // One view contiguous along COLS and the other along D2: the transposing
  // kernel, while the (D0, D1) indices fit the grid's z limit.
  const bool turnsIn = src && ss[3] != 1 && ss[2] == 1 && sd[3] == 1 && shape[2] > 1;
  const bool turnsOut = src && sd[3] != 1 && sd[2] == 1 && ss[3] == 1 && shape[2] > 1;
  if ((turnsIn || turnsOut) && shape[0] * shape[1] <= 65535)
    return transposeLaunch(shape, ss, sd, *src, dst, turnsIn, machine);
  // Tiles of at most 64 K elements and of what half the scratchpad holds at
  // 16 bytes an element (the value, its converted copy, the row offsets and
  // the mask): whole rows up to 1024 columns.
  const int64_t lane = laneBlock(machine);
  const int64_t elements = std::clamp<int64_t>(tileBudgetBytes(machine) / 16, 16, 65536);
  const int64_t xblock = blockFor(cols, 16, std::min<int64_t>(std::max<int64_t>(lane, 1024), elements));
  const int64_t yblock = blockFor(rows, 1, std::max<int64_t>(1, elements / xblock));
  const std::string dstType = tritonType(dst.dtype);
  std::string body;
  const std::string dstAddress = "dst_ptr + (i0 * SD0 + i1 * SD1 + i2 * SD2)[:, None] + x[None, :] * SD3";
  if (fill) {
    body = "    tl.store(" + dstAddress + ", tl.full([YBLOCK, XBLOCK], " + literal(*fill, dst.dtype) + ", tl." +
           (dst.dtype == core::DType::Bool ? std::string("int1") : dstType) + "), mask=mask)";
  } else {
    body = "    v = tl.load(src_ptr + (i0 * SS0 + i1 * SS1 + i2 * SS2)[:, None] + x[None, :] * SS3, mask=mask)\n";
    if (srcType != dst.dtype)
      body += dst.dtype == core::DType::Bool ? "    v = v != 0\n"
                                              : "    v = v.to(tl." + dstType + ")\n";
    body += "    tl.store(" + dstAddress + ", v, mask=mask)";
  }
  std::string name = std::string(fill ? "npusim_fill_" : "npusim_copy_") + tritonType(srcType) + "_" + dstType;
  if (fill) {
    std::string value = literal(*fill, dst.dtype);
    for (char &c : value)
      if (!std::isalnum(static_cast<unsigned char>(c)))
        c = '_';
    name += "_v" + value;
  }
  LaunchBuilder launch(name, instantiate(kCopySource, {{"NAME", name},
                                                      {"SRC", tritonType(srcType)},
                                                      {"DST", dstType},
                                                      {"BODY", body}}));
  launch.pointer(src ? *src : dst).pointer(dst);
  launch.constant("ROWS", rows).constant("COLS", cols).constant("D1", shape[1]).constant("D2", shape[2]);
  for (int a = 0; a < 4; ++a) {
    launch.constant("SS" + std::to_string(a), ss[static_cast<size_t>(a)]);
    launch.constant("SD" + std::to_string(a), sd[static_cast<size_t>(a)]);
  }
  launch.constant("YBLOCK", yblock).constant("XBLOCK", xblock);
  launch.grid(ceilDiv(cols, xblock), ceilDiv(rows, yblock), 1);
  return launch.build();
}

CallPlan planFill(const CallArgs &call, const MachineShape &machine) {
  const std::string_view op = call.op();
  const bool inPlace = op == "aten.zero_" || op.starts_with("aten.fill_");
  const bool like = op == "aten.zeros_like" || op == "aten.ones_like";
  double value = op == "aten.ones" || op == "aten.ones_like" ? 1.0 : 0.0;
  if (op.starts_with("aten.fill_")) {
    if (call.isTensor(1))
      call.fail(1, "value", "a tensor fill value runs on the host");
    value = call.number(1, "value");
  }
  const TensorRef &target = inPlace ? call.tensor(0, "self") : call.out(0);
  if (like)
    expectShape(op, target, call.tensor(0, "self").shape, "out");
  checkIndexRange(op, target, inPlace ? "self" : "out");
  CallPlan plan;
  plan.outputDefined.assign(call.numOuts(), true);
  if (numel(target) > 0)
    plan.launches.push_back(copyLaunch(op, target, nullptr, value, machine));
  // fill_ and zero_ also return self: an out that is another view gets it too.
  if (inPlace)
    if (const TensorRef *o = call.optionalOut(0);
        o && numel(*o) > 0 && (o->buffer != target.buffer || o->offset != target.offset || o->stride != target.stride)) {
      expectShape(op, *o, target.shape, "out");
      checkIndexRange(op, *o, "out");
      plan.launches.push_back(copyLaunch(op, *o, nullptr, value, machine));
    }
  return plan;
}

CallPlan planCopy(const CallArgs &call, const MachineShape &machine) {
  const std::string_view op = call.op();
  const bool inPlace = op == "aten.copy_" || op == "aten.copy";
  const TensorRef &dst = inPlace ? call.tensor(0, "self") : call.out(0);
  const TensorRef &src = call.tensor(inPlace ? 1 : 0, inPlace ? "src" : "self");
  const TensorRef from = broadcastTo(op, src, dst.shape, inPlace ? "src" : "self");
  checkIndexRange(op, dst, inPlace ? "self" : "out");
  checkIndexRange(op, from, inPlace ? "src" : "self");
  checkNoOverlap(op, dst, from, inPlace ? "src" : "self", true);
  CallPlan plan;
  plan.outputDefined.assign(call.numOuts(), true);
  if (numel(dst) > 0)
    plan.launches.push_back(copyLaunch(op, dst, &from, std::nullopt, machine));
  if (inPlace)
    if (const TensorRef *o = call.optionalOut(0);
        o && numel(*o) > 0 && (o->buffer != dst.buffer || o->offset != dst.offset || o->stride != dst.stride)) {
      expectShape(op, *o, dst.shape, "out");
      checkIndexRange(op, *o, "out");
      plan.launches.push_back(copyLaunch(op, *o, &from, std::nullopt, machine));
    }
  return plan;
}

} // namespace npusim::library::detail
