// The relayout convolution (MachineShape::convKernel "relayout", or
// "relayout-window" with the window kernel inside;
// docs/library-kernels.md, "Convolutions in other layouts"). The row
// kernels need channels-last operands, where a kernel row's
// im2col tile is one strided DMA; a contiguous (NCHW) input leaves the
// implicit kernel a gather whose runs are single elements (a batch-64 3x3 of
// 128 channels at 28 x 28: 8.75 M cycles, the arrays 4.5% busy). Here the
// operands that are not channels-last are copied into channels-last scratch
// buffers by the transposing copy (a block turned on chip, both DMAs in
// runs), the channels-last convolution runs, and its result is turned back.
// A 1x1 layer with a stride takes the same route: the pixels it reads are
// copied densely and a 1x1 stride-1 layer (a GEMM) runs on them. The
// runtime times this plan against the others and keeps the faster.
#include "library/planners.h"

#include <algorithm>

namespace npusim::library::detail {

namespace {

/// Whether `t` ([N, C, H, W]) keeps its channels contiguous and its pixels
/// one strided axis: the layout the channels-last kernels take.
bool channelsLast(const TensorRef &t) {
  const int64_t c = t.shape[1], h = t.shape[2], w = t.shape[3];
  return (c == 1 || t.stride[1] == 1) && (w == 1 || t.stride[3] == c) && (h == 1 || t.stride[2] == w * c) &&
         (t.shape[0] == 1 || t.stride[0] == h * w * c);
}

/// `t` ([N, C, H, W]) seen as [N, H, W, C].
TensorRef pixelsOuter(const TensorRef &t) {
  TensorRef v = t;
  v.shape = {t.shape[0], t.shape[2], t.shape[3], t.shape[1]};
  v.stride = {t.stride[0], t.stride[2], t.stride[3], t.stride[1]};
  return v;
}

CallArgument tensorArgument(const TensorRef &t) {
  CallArgument a;
  a.kind = core::CallKind::Tensor;
  a.tensor = t;
  return a;
}

CallArgument intList(const std::array<int64_t, 2> &values) {
  CallArgument list;
  list.kind = core::CallKind::List;
  for (int64_t v : values) {
    CallArgument e;
    e.kind = core::CallKind::Int;
    e.intValue = v;
    list.list.push_back(e);
  }
  return list;
}

} // namespace

TensorRef channelsLastScratch(const TensorRef &t, int buffer) {
  const int64_t c = t.shape[1], h = t.shape[2], w = t.shape[3];
  return TensorRef{buffer, 0, t.shape, {h * w * c, 1, w * c, c}, t.dtype};
}

CallPlan planRelayoutConvolution(const ConvolutionOperands &c, const MachineShape &machine) {
  constexpr std::string_view kOp = "aten.convolution";
  // A 1x1 kernel with a stride and no padding reads every stride-th pixel
  // of every stride-th row: those pixels, copied into a dense channels-last
  // buffer, are the input of a 1x1 stride-1 layer (a GEMM of the pixels).
  const bool subsample = c.w.shape[2] == 1 && c.w.shape[3] == 1 && (c.stride[0] > 1 || c.stride[1] > 1) &&
                         c.padding[0] == 0 && c.padding[1] == 0;
  const bool moveInput = !channelsLast(c.x) || subsample, moveWeight = !channelsLast(c.w),
             moveOut = !channelsLast(c.y);
  if (!moveInput && !moveOut)
    throw core::RuntimeError("convolution kernel '" + machine.convKernel +
                             "' runs convolutions whose input or output is not channels-last, and 1x1 "
                             "convolutions with a stride");
  if (c.groups > 1 && c.x.shape[1] == c.groups)
    throw core::RuntimeError("convolution kernel '" + machine.convKernel +
                             "' does not run depthwise convolutions");
  // Scratch buffers are numbered after every buffer the call names.
  int next = std::max({c.x.buffer, c.w.buffer, c.y.buffer, c.bias ? c.bias->buffer : -1}) + 1;
  CallPlan plan;
  plan.outputDefined.assign(1, true);
  auto scratchFor = [&](const TensorRef &t) {
    plan.scratch.push_back(ScratchBuffer{t.dtype, t.shape[0] * t.shape[1] * t.shape[2] * t.shape[3]});
    return channelsLastScratch(t, next++);
  };
  // The pixels the layer reads: with the subsampling, every stride-th.
  TensorRef read = c.x;
  if (subsample) {
    read.shape[2] = c.y.shape[2], read.shape[3] = c.y.shape[3];
    read.stride[2] *= c.stride[0], read.stride[3] *= c.stride[1];
  }
  const TensorRef x = moveInput ? scratchFor(read) : c.x;
  const TensorRef w = moveWeight ? scratchFor(c.w) : c.w;
  const TensorRef y = moveOut ? scratchFor(c.y) : c.y;
  if (moveInput) {
    // Both views in [N, H, W, C] order (the same copy, element for
    // element): where both keep channels contiguous, the copy's innermost
    // axis is the channels, one DMA run per pixel.
    const TensorRef to = pixelsOuter(x), from = pixelsOuter(read);
    plan.launches.push_back(copyLaunch(kOp, to, &from, std::nullopt, machine));
  }
  if (moveWeight)
    plan.launches.push_back(copyLaunch(kOp, w, &c.w, std::nullopt, machine));

  // The channels-last convolution, planned as the call itself would be.
  const std::array<int64_t, 2> stride = subsample ? std::array<int64_t, 2>{1, 1} : c.stride;
  std::vector<CallArgument> args = {tensorArgument(x), tensorArgument(w),  CallArgument{},
                                    intList(stride),   intList(c.padding), intList(c.dilation),
                                    CallArgument{},    intList({0, 0}),    CallArgument{}};
  if (c.bias)
    args[2] = tensorArgument(*c.bias);
  args[6].kind = core::CallKind::Bool;
  args[8].kind = core::CallKind::Int;
  args[8].intValue = c.groups;
  const TensorRef *outs[] = {&y};
  // "relayout-window": the window kernel (which refuses the layers it
  // cannot run); "relayout": the one the shape selects.
  MachineShape inner = machine;
  inner.convKernel = machine.convKernel == "relayout-window" ? "window" : "";
  CallPlan conv = planConvolution(CallArgs(kOp, args, outs), inner);
  plan.launches.insert(plan.launches.end(), conv.launches.begin(), conv.launches.end());
  // Its own scratch buffers follow ours (numbered after every buffer it names).
  plan.scratch.insert(plan.scratch.end(), conv.scratch.begin(), conv.scratch.end());
  if (moveOut)
    plan.launches.push_back(copyLaunch(kOp, c.y, &y, std::nullopt, machine));
  return plan;
}

} // namespace npusim::library::detail
