// The convolution family: aten.convolution with 1 or 2 spatial axes as an
// implicit GEMM on the systolic arrays (output pixels x output channels,
// reduced over kernel rows, kernel columns and blocks of input channels: one
// tl.dot per step, groups on the grid's z axis), and depthwise convolutions
// (one input channel per group) as a vector-unit kernel: they have no
// reduction over channels for a systolic array to do.
#include "library/conv_rows.h"
#include "library/conv_shifted.h"
#include "library/conv_window.h"
#include "library/dot_steps.h"
#include "library/mapping.h"
#include "library/planners.h"

#include <algorithm>
#include <array>

namespace npusim::library::detail {

namespace {

constexpr std::string_view kConvolutionOp = "aten.convolution";

// Grid: (cdiv(BATCH * OUT_H * OUT_W, BLOCK_M), cdiv(COUT_G, BLOCK_N), groups).
// Row m of the tile is output pixel (n, oh, ow) in row-major order. The
// reduction axis is im2col's: k runs over (input channel, kernel row, kernel
// column) of one group, K_TOTAL = CIN_G * KERNEL_H * KERNEL_W, and digit d of
// k is (k // D_DIV) % D_SIZE, so the planner orders the three axes (KC_DIV,
// KH_DIV, KW_DIV) to put the input's contiguous one innermost: a channels-last
// 7x7 stem with 3 channels reduces over 147 = 128 + 19 rows of the arrays, not
// 49 steps of 3. {{STEPS}} K blocks per iteration, each into its own
// accumulator: their loads are issued before their dots (the next block's
// operands load while the arrays work) and their dots go to different arrays.
constexpr std::string_view kImplicitGemmSource = R"TRITON(
import triton
import triton.language as tl


@triton.jit
def {{NAME}}(x_ptr: "*{{X}}", w_ptr: "*{{W}}", bias_ptr: "*{{BIAS}}", y_ptr: "*{{Y}}",
             BATCH: tl.constexpr, IN_H: tl.constexpr, IN_W: tl.constexpr,
             OUT_H: tl.constexpr, OUT_W: tl.constexpr, CIN_G: tl.constexpr, COUT_G: tl.constexpr,
             KERNEL_H: tl.constexpr, KERNEL_W: tl.constexpr, STRIDE_H: tl.constexpr, STRIDE_W: tl.constexpr,
             PAD_H: tl.constexpr, PAD_W: tl.constexpr, DIL_H: tl.constexpr, DIL_W: tl.constexpr,
             SX_N: tl.constexpr, SX_C: tl.constexpr, SX_H: tl.constexpr, SX_W: tl.constexpr,
             SW_O: tl.constexpr, SW_I: tl.constexpr, SW_H: tl.constexpr, SW_W: tl.constexpr,
             S_BIAS: tl.constexpr, SY_N: tl.constexpr, SY_C: tl.constexpr, SY_H: tl.constexpr, SY_W: tl.constexpr,
             HAS_BIAS: tl.constexpr, X_M_CONTIGUOUS: tl.constexpr, W_K_CONTIGUOUS: tl.constexpr,
             W_K_LINEAR: tl.constexpr, K_TOTAL: tl.constexpr, KC_DIV: tl.constexpr, KH_DIV: tl.constexpr, KW_DIV: tl.constexpr,
             PADDED: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    group = tl.program_id(2)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    ow = rm % OUT_W
    oh = (rm // OUT_W) % OUT_H
    n = rm // (OUT_W * OUT_H)
    m_mask = rm < BATCH * OUT_H * OUT_W
    oc = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    n_mask = oc < COUT_G
    rk = tl.arange(0, BLOCK_K)
    x_base = x_ptr + group * (CIN_G * SX_C)
    w_base = w_ptr + group * (COUT_G * SW_O)
    # The per-pixel and per-channel index tiles, computed once before the loop
    # straight in the shape and layout of the tiles they index (the zeros,
    # which the compiler cannot fold away, make each sum a tile of its own):
    # no per-step broadcasts across the lanes.
    zero_k = rk // BLOCK_K
    if X_M_CONTIGUOUS:
        rm_t = pid_m * BLOCK_M + (zero_k[:, None] + tl.arange(0, BLOCK_M)[None, :])
    else:
        rm_t = pid_m * BLOCK_M + (tl.arange(0, BLOCK_M)[:, None] + zero_k[None, :])
    ow_t = rm_t % OUT_W
    oh_t = (rm_t // OUT_W) % OUT_H
    ih0_t = oh_t * STRIDE_H - PAD_H
    iw0_t = ow_t * STRIDE_W - PAD_W
    x_row_t = (rm_t // (OUT_W * OUT_H)) * SX_N + ih0_t * SX_H + iw0_t * SX_W
    # Kernel offsets inside the input: kh * DIL_H in [h_lo, h_hi), likewise kw.
    h_lo_t = -ih0_t
    h_hi_t = IN_H - ih0_t
    w_lo_t = -iw0_t
    w_hi_t = IN_W - iw0_t
    m_mask_t = rm_t < BATCH * OUT_H * OUT_W
    if W_K_CONTIGUOUS:
        oc_k = pid_n * BLOCK_N + (tl.arange(0, BLOCK_N)[:, None] + zero_k[None, :])
    else:
        oc_k = pid_n * BLOCK_N + (zero_k[:, None] + tl.arange(0, BLOCK_N)[None, :])
    oc_t = oc_k * SW_O
    n_mask_t = oc_k < COUT_G
{{INIT}}
    for k0 in range(0, K_TOTAL, {{STEPS}} * BLOCK_K):
{{LOADS}}
{{DOTS}}
{{SUM}}
{{ADD_BIAS}}
    y_row = n * SY_N + oh * SY_H + ow * SY_W
    tl.store(y_ptr + y_row[:, None] + channel[None, :] * SY_C, acc, mask=m_mask[:, None] & n_mask[None, :])
)TRITON";

// One K block's operands (suffix S, block k0 + OFFSET * BLOCK_K): the
// gathered input pixels [BLOCK_M, BLOCK_K] and the weights [BLOCK_K, BLOCK_N],
// each loaded with its contiguous axis last. When the weights' reduction
// index is k itself (W_K_LINEAR: their strides follow the input's order, as
// for channels-last tensors), their tile is an affine DMA of BLOCK_N runs of
// BLOCK_K elements: no per-step index tile, whose scratchpad bytes the next
// step's temporaries would reuse and so wait for the weights' DMA and dots.
constexpr std::string_view kImplicitGemmStep = R"TRITON(
        rk{{S}} = k0 + {{OFFSET}} * BLOCK_K + rk
        k_mask{{S}} = rk{{S}} < K_TOTAL
        c{{S}} = (rk{{S}} // KC_DIV) % CIN_G
        kh{{S}} = (rk{{S}} // KH_DIV) % KERNEL_H
        kw{{S}} = (rk{{S}} // KW_DIV) % KERNEL_W
        x_k{{S}} = c{{S}} * SX_C + kh{{S}} * (DIL_H * SX_H) + kw{{S}} * (DIL_W * SX_W)
        w_k{{S}} = c{{S}} * SW_I + kh{{S}} * SW_H + kw{{S}} * SW_W
        if X_M_CONTIGUOUS:
            if PADDED:
                dh{{S}} = (kh{{S}} * DIL_H)[:, None]
                dw{{S}} = (kw{{S}} * DIL_W)[:, None]
                xm{{S}} = (m_mask_t & k_mask{{S}}[:, None]) & ((dh{{S}} >= h_lo_t) & (dh{{S}} < h_hi_t)) & ((dw{{S}} >= w_lo_t) & (dw{{S}} < w_hi_t))
            else:
                xm{{S}} = m_mask_t & k_mask{{S}}[:, None]
            x{{S}} = tl.trans(tl.load(x_base + (x_row_t + x_k{{S}}[:, None]), mask=xm{{S}}, other=0.0)){{X_CAST}}
        else:
            if PADDED:
                dh{{S}} = (kh{{S}} * DIL_H)[None, :]
                dw{{S}} = (kw{{S}} * DIL_W)[None, :]
                xm{{S}} = (m_mask_t & k_mask{{S}}[None, :]) & ((dh{{S}} >= h_lo_t) & (dh{{S}} < h_hi_t)) & ((dw{{S}} >= w_lo_t) & (dw{{S}} < w_hi_t))
            else:
                xm{{S}} = m_mask_t & k_mask{{S}}[None, :]
            x{{S}} = tl.load(x_base + (x_row_t + x_k{{S}}[None, :]), mask=xm{{S}}, other=0.0){{X_CAST}}
        if W_K_LINEAR:
            w{{S}} = tl.trans(tl.load(w_base + oc[:, None] * SW_O + rk{{S}}[None, :]{{W_MASK_LINEAR}})){{W_CAST}}
        elif W_K_CONTIGUOUS:
            w{{S}} = tl.trans(tl.load(w_base + (oc_t + w_k{{S}}[None, :]){{W_MASK_NK}})){{W_CAST}}
        else:
            w{{S}} = tl.load(w_base + (oc_t + w_k{{S}}[:, None]){{W_MASK_KN}}){{W_CAST}}
)TRITON";

// Grid: (cdiv(BATCH * OUT_H * OUT_W, BLOCK_M), cdiv(COUT, BLOCK_C), 1). Output
// channel c reads input channel c // MULTIPLIER (groups == input channels).
constexpr std::string_view kDepthwiseSource = R"TRITON(
import triton
import triton.language as tl


@triton.jit
def {{NAME}}(x_ptr: "*{{X}}", w_ptr: "*{{W}}", bias_ptr: "*{{BIAS}}", y_ptr: "*{{Y}}",
             BATCH: tl.constexpr, IN_H: tl.constexpr, IN_W: tl.constexpr,
             OUT_H: tl.constexpr, OUT_W: tl.constexpr, COUT: tl.constexpr, MULTIPLIER: tl.constexpr,
             KERNEL_H: tl.constexpr, KERNEL_W: tl.constexpr, STRIDE_H: tl.constexpr, STRIDE_W: tl.constexpr,
             PAD_H: tl.constexpr, PAD_W: tl.constexpr, DIL_H: tl.constexpr, DIL_W: tl.constexpr,
             SX_N: tl.constexpr, SX_C: tl.constexpr, SX_H: tl.constexpr, SX_W: tl.constexpr,
             SW_O: tl.constexpr, SW_H: tl.constexpr, SW_W: tl.constexpr,
             S_BIAS: tl.constexpr, SY_N: tl.constexpr, SY_C: tl.constexpr, SY_H: tl.constexpr, SY_W: tl.constexpr,
             HAS_BIAS: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_C: tl.constexpr):
    pid_c = tl.program_id(1)
    oc = pid_c * BLOCK_C + tl.arange(0, BLOCK_C)
    c_mask = oc < COUT
    if MULTIPLIER == 1:
        ic = oc
    else:
        ic = oc // MULTIPLIER
    zero_m = tl.arange(0, BLOCK_M) // BLOCK_M
    # The weights and channel bounds in the [BLOCK_M, BLOCK_C] layout, once
    # per program: the tiles' lane axis is the pixels (the larger), and a
    # channel vector would otherwise be stretched across the lanes per block.
    c_ok = (zero_m[:, None] + oc[None, :]) < COUT
    {{WEIGHTS}}
    if HAS_BIAS:
        bias = tl.load(bias_ptr + oc * S_BIAS, mask=c_mask, other=0.0).to(tl.float32)
        bias_t = zero_m[:, None].to(tl.float32) + bias[None, :]
    for m0 in range(0, BATCH * OUT_H * OUT_W, BLOCK_M):
        rm = m0 + tl.arange(0, BLOCK_M)
{{BLOCK_INDICES}}
{{TAPS}}
        if HAS_BIAS:
            acc = acc + bias_t
{{STORE}}
)TRITON";

// The general form's per-block pixel indices (a [BLOCK_M] vector per
// coordinate, stretched along the channels only) and store.
constexpr const char *kDepthwiseIndices = R"TRITON(        ow = rm % OUT_W
        oh = (rm // OUT_W) % OUT_H
        n = rm // (OUT_W * OUT_H)
        m_mask = rm < BATCH * OUT_H * OUT_W)TRITON";
constexpr const char *kDepthwiseStore =
    R"TRITON(        tl.store(y_ptr + (n * SY_N + oh * SY_H + ow * SY_W)[:, None] + oc[None, :] * SY_C, acc, mask=m_mask[:, None] & c_ok))TRITON";

// The general form when the channels have the lanes (BLOCK_M <= BLOCK_C):
// every index a tile of its own in the [BLOCK_M, BLOCK_C] layout, so that no
// per-pixel vector is stretched across the lanes.
constexpr const char *kDepthwiseIndices2d = R"TRITON(        zero_c = tl.arange(0, BLOCK_C) // BLOCK_C
        rm2 = m0 + (tl.arange(0, BLOCK_M)[:, None] + zero_c[None, :])
        ow2 = rm2 % OUT_W
        oh2 = (rm2 // OUT_W) % OUT_H
        n2 = rm2 // (OUT_W * OUT_H)
        inside = (rm2 < BATCH * OUT_H * OUT_W) & c_ok)TRITON";
constexpr const char *kDepthwiseStore2d = R"TRITON(        y_rows = n2 * SY_N + oh2 * SY_H + ow2 * SY_W
        tl.store(y_ptr + y_rows + oc[None, :] * SY_C, acc, mask=inside))TRITON";

// The row form (stride 1, the input's size kept, the input's and output's
// pixels one strided axis each): output pixel m reads input pixel m + dh *
// IN_W + dw, so every kernel position's tile is one affine DMA (no index
// tile), and the bounds are made in the tile's own [BLOCK_M, BLOCK_C] layout:
// p = m % (IN_H * IN_W) inside [-dh * IN_W, (IN_H - dh) * IN_W), 0 <= m %
// IN_W + dw < IN_W.
constexpr const char *kDepthwiseRowIndices =
    R"TRITON(        rm2 = m0 + (tl.arange(0, BLOCK_M)[:, None] + (tl.arange(0, BLOCK_C) // BLOCK_C)[None, :])
        p2 = rm2 % (IN_H * IN_W)
        ow2 = rm2 % IN_W
        inside = (rm2 < BATCH * IN_H * IN_W) & c_ok)TRITON";
constexpr const char *kDepthwiseRowStore =
    R"TRITON(        tl.store(y_ptr + rm[:, None] * SY_W + oc[None, :] * SY_C, acc, mask=inside))TRITON";

/// A per-axis parameter list: one value per spatial axis, or one for all.
std::array<int64_t, 2> perAxis(const CallArgs &call, size_t index, const char *name, int64_t fallback,
                               size_t spatial, int64_t minimum) {
  const std::vector<int64_t> values = call.integers(index, name);
  if (values.size() != 1 && values.size() != spatial)
    call.fail(index, name,
              std::to_string(values.size()) + " values for " + std::to_string(spatial) +
                  " spatial dimensions");
  std::array<int64_t, 2> r = {fallback, fallback};
  for (size_t i = 0; i < spatial; ++i) {
    const int64_t v = values.size() == 1 ? values[0] : values[i];
    if (v < minimum)
      call.fail(index, name, "must be at least " + std::to_string(minimum) + ", got " + std::to_string(v));
    r[2 - spatial + i] = v; // a 1-d convolution is a 2-d one of height 1
  }
  return r;
}

/// A 1-d (`[N, C, W]`) view as 2-d (`[N, C, 1, W]`).
TensorRef asTwoDimensional(const TensorRef &t, size_t spatial) {
  return spatial == 1 ? unsqueeze(t, 2) : t;
}

/// The largest power-of-two BLOCK_M for which `tilesOfM` tiles of
/// BLOCK_M x columns fp32 elements and `fixedBytes` fit in the tile budget.
int64_t blockMFor(int64_t rows, int64_t columns, int64_t bytesPerRow, int64_t fixedBytes,
                  const MachineShape &machine) {
  const int64_t budget = tileBudgetBytes(machine);
  const int64_t cap = blockFor(rows, 16, int64_t{1} << 20);
  int64_t blockM = 16;
  while (blockM * 2 <= cap && (blockM * 2) * bytesPerRow + fixedBytes <= budget &&
         blockM * 2 * columns <= (int64_t{1} << 20))
    blockM *= 2;
  return blockM;
}

} // namespace

CallPlan planConvolution(const CallArgs &call, const MachineShape &machine) {
  const TensorRef &input = call.tensor(0, "input");
  const TensorRef &weight = call.tensor(1, "weight");
  const TensorRef *bias = call.optionalTensor(2, "bias");
  const TensorRef &out = call.out(0);
  const size_t wdim = weight.shape.size();
  if (wdim == 5)
    fail(kConvolutionOp, "weight has shape " + shapeString(weight.shape) +
                  "; the NPU kernels implement 1-d and 2-d convolutions, not 3-d ones");
  if (wdim != 3 && wdim != 4)
    fail(kConvolutionOp, "weight has shape " + shapeString(weight.shape) + "; expected 1 or 2 spatial dimensions");
  const size_t spatial = wdim - 2;
  if (call.boolean(6, "transposed"))
    call.fail(6, "transposed", "transposed convolutions have no NPU kernel");
  const std::array<int64_t, 2> stride = perAxis(call, 3, "stride", 1, spatial, 1);
  const std::array<int64_t, 2> padding = perAxis(call, 4, "padding", 0, spatial, 0);
  const std::array<int64_t, 2> dilation = perAxis(call, 5, "dilation", 1, spatial, 1);
  const int64_t groups = call.integer(8, "groups");
  if (groups < 1)
    call.fail(8, "groups", "must be positive, got " + std::to_string(groups));
  const bool batched = input.shape.size() == wdim;
  if (!batched && input.shape.size() != wdim - 1)
    fail(kConvolutionOp, "input has shape " + shapeString(input.shape) + " but weight has shape " +
                  shapeString(weight.shape) + "; expected a " + std::to_string(wdim) + "-d input (or " +
                  std::to_string(wdim - 1) + "-d unbatched)");
  if (out.shape.size() != input.shape.size())
    fail(kConvolutionOp, "out has shape " + shapeString(out.shape) + ", input " + shapeString(input.shape));
  for (const TensorRef *t : {&input, &weight, &out})
    expectFloat(kConvolutionOp, *t, t == &input ? "input" : t == &weight ? "weight" : "out");

  const TensorRef x = asTwoDimensional(batched ? input : unsqueeze(input, 0), spatial);
  const TensorRef w = asTwoDimensional(weight, spatial);
  const TensorRef y = asTwoDimensional(batched ? out : unsqueeze(out, 0), spatial);
  const int64_t batch = x.shape[0], channels = x.shape[1], inH = x.shape[2], inW = x.shape[3];
  const int64_t outChannels = w.shape[0], kernelH = w.shape[2], kernelW = w.shape[3];
  if (channels % groups != 0)
    fail(kConvolutionOp, "input has " + std::to_string(channels) +
                  " channels, not divisible by groups=" + std::to_string(groups));
  if (outChannels % groups != 0)
    fail(kConvolutionOp, "weight has " + std::to_string(outChannels) +
                  " output channels, not divisible by groups=" + std::to_string(groups));
  const int64_t cinG = channels / groups, coutG = outChannels / groups;
  if (w.shape[1] != cinG)
    fail(kConvolutionOp, "weight " + shapeString(weight.shape) + " expects " + std::to_string(w.shape[1] * groups) +
                  " input channels, but input " + shapeString(input.shape) + " has " +
                  std::to_string(channels));
  std::array<int64_t, 2> outSize{};
  const std::array<int64_t, 2> inSize = {inH, inW}, kSize = {kernelH, kernelW};
  for (size_t a = 0; a < 2; ++a) {
    const int64_t span = inSize[a] + 2 * padding[a] - (dilation[a] * (kSize[a] - 1) + 1);
    if (span < 0)
      fail(kConvolutionOp, "the kernel " + shapeString(weight.shape) + " is larger than the padded input " +
                    shapeString(input.shape));
    outSize[a] = span / stride[a] + 1;
  }
  const std::vector<int64_t> expected = {batch, outChannels, outSize[0], outSize[1]};
  if (y.shape != expected)
    fail(kConvolutionOp, "out has shape " + shapeString(out.shape) + ", expected " + shapeString(expected) +
                  (batched ? "" : " (shown with batch 1)") + (spatial == 1 ? " (shown with height 1)" : ""));
  if (bias) {
    expectFloat(kConvolutionOp, *bias, "bias");
    const std::vector<int64_t> biasShape = {outChannels};
    expectShape(kConvolutionOp, *bias, biasShape, "bias");
    checkIndexRange(kConvolutionOp, *bias, "bias");
  }
  checkIndexRange(kConvolutionOp, x, "input");
  checkIndexRange(kConvolutionOp, w, "weight");
  checkIndexRange(kConvolutionOp, y, "out");
  checkNoOverlap(kConvolutionOp, out, input, "input", false);
  checkNoOverlap(kConvolutionOp, out, weight, "weight", false);
  if (bias)
    checkNoOverlap(kConvolutionOp, out, *bias, "bias", false);

  CallPlan plan;
  plan.outputDefined.assign(call.numOuts(), true);
  const int64_t pixels = batch * outSize[0] * outSize[1];
  if (pixels == 0 || outChannels == 0)
    return plan;
  if (machine.convKernel == "relayout" || machine.convKernel == "relayout-window") {
    if (spatial != 2)
      throw core::RuntimeError("convolution kernel '" + machine.convKernel + "' runs 2-d convolutions");
    CallPlan moved = planRelayoutConvolution(
        ConvolutionOperands{x, w, y, bias, stride, padding, dilation, groups}, machine);
    moved.outputDefined = plan.outputDefined;
    return moved;
  }
  const core::DType biasType = bias ? bias->dtype : out.dtype;
  const int64_t lane = laneBlock(machine);
  const bool depthwise = groups > 1 && cinG == 1;
  const std::string types = tritonType(x.dtype) + "_" + tritonType(w.dtype) + "_" + tritonType(biasType) +
                            "_" + tritonType(y.dtype);

  auto common = [&](LaunchBuilder &launch) {
    launch.pointer(x)
        .pointer(w)
        .pointer(bias ? bias->buffer : y.buffer, bias ? bias->offset : y.offset)
        .pointer(y);
    launch.constant("BATCH", batch).constant("IN_H", inH).constant("IN_W", inW);
    launch.constant("OUT_H", outSize[0]).constant("OUT_W", outSize[1]);
  };
  auto geometry = [&](LaunchBuilder &launch) {
    launch.constant("KERNEL_H", kernelH).constant("KERNEL_W", kernelW);
    launch.constant("STRIDE_H", stride[0]).constant("STRIDE_W", stride[1]);
    launch.constant("PAD_H", padding[0]).constant("PAD_W", padding[1]);
    launch.constant("DIL_H", dilation[0]).constant("DIL_W", dilation[1]);
    launch.constant("SX_N", x.stride[0])
        .constant("SX_C", x.stride[1])
        .constant("SX_H", x.stride[2])
        .constant("SX_W", x.stride[3]);
  };
  auto epilogue = [&](LaunchBuilder &launch) {
    launch.constant("S_BIAS", bias ? bias->stride[0] : 0);
    launch.constant("SY_N", y.stride[0])
        .constant("SY_C", y.stride[1])
        .constant("SY_H", y.stride[2])
        .constant("SY_W", y.stride[3]);
    launch.constant("HAS_BIAS", bias ? 1 : 0);
  };

  if (depthwise) {
    // Per row of the tile: the input and the fp32 accumulator, the addresses,
    // masks and products the compiler keeps beside them, and the per-pixel
    // index vectors (measured with compiler::compile: 2.4 KB per row at
    // BLOCK_C = 64; this estimate is 4 KB).
    // Both forms also keep every kernel position's weights broadcast to
    // [BLOCK_M, BLOCK_C] and its masks: per row (positions + 6) fp32 and a
    // mask byte per position and channel besides the above.
    const int64_t positions = kernelH * kernelW;
    const int64_t blockC = blockFor(outChannels, 16, lane);
    int64_t blockM =
        blockMFor(pixels, blockC, 2048 + ((positions + 6) * 4 + positions) * blockC, blockC * 4, machine);
    // Pixels one strided axis in the input and the output (as for the 1x1
    // GEMM below), stride 1, the input's size kept: the row form.
    auto pixelsOneAxis = [](const TensorRef &t) {
      return t.stride[2] == t.shape[3] * t.stride[3] &&
             (t.shape[0] == 1 || t.stride[0] == t.shape[2] * t.stride[2]);
    };
    const bool rows = stride[0] == 1 && stride[1] == 1 && outSize[0] == inH && outSize[1] == inW &&
                      pixelsOneAxis(x) && pixelsOneAxis(y);
    // The compiler gives the tiles' lanes to their larger axis (the last of
    // equals). With BLOCK_M > BLOCK_C the pixels take them and the channel
    // vectors are stretched across the lanes once per program. The row form
    // (its indices and bounds made in the tiles' layout) takes BLOCK_M =
    // BLOCK_C when the program has fewer pixel blocks than kernel positions:
    // the channels on the lanes, the weights broadcast along the pixels on
    // the vector unit (mobilenet_v2's 3x3 at 14 x 14 x 384: 23.3 k -> 13.6 k
    // cycles, at 56 x 56 x 144 93.5 k -> 83.5 k). The other form keeps the
    // pixels on the lanes: its per-pixel index vectors would be stretched
    // across them per position (its 3x3 stride 2 at 112 x 112 x 96: 87.5 k
    // -> 227.7 k cycles with BLOCK_M = BLOCK_C).
    // Only while its one program loops over at most 32 blocks of BLOCK_C
    // pixels: past that the small tiles' per-block cost dominates
    // (mobilenet_v2-train's 3x3 at 64 x 64 x 8, batch 4, 1024 blocks: 280.3 k
    // cycles at 16 x 16, 17.8 k at 2048 x 16; at 32 x 32 x 48, 64 blocks:
    // 50.6 k at 64 x 64, 32.3 k at 1024 x 64; at 16 x 16 x 48, 16 blocks:
    // 13.0 k either way).
    if (rows && blockM > blockC && ceilDiv(pixels, blockM) < positions && ceilDiv(pixels, blockC) <= 32)
      blockM = blockC;
    // The other form with the channels on the lanes (few pixels) makes its
    // indices as [BLOCK_M, BLOCK_C] tiles too (`_2d`).
    const bool indices2d = !rows && blockM <= blockC;
    const std::string form = rows ? "rows_" : indices2d ? "2d_" : "";
    const std::string name = "npusim_conv_depthwise_" + form + types + "_k" + std::to_string(kernelH) + "x" +
                             std::to_string(kernelW);
    // The row form's kernel positions, unrolled: every position's weights
    // broadcast once per program, then per block of pixels one affine load
    // and one multiply-add per position.
    std::string weights, taps;
    for (int64_t kh = 0, t = 0; kh < kernelH; ++kh)
      for (int64_t kw = 0; kw < kernelW; ++kw, ++t) {
        const std::string ts = std::to_string(t), dh = "dh_" + ts, dw = "dw_" + ts;
        weights += "w_" + ts + " = zero_m[:, None].to(tl.float32) + tl.load(w_ptr + oc * SW_O + (" +
                   std::to_string(kh) + " * SW_H + " + std::to_string(kw) +
                   " * SW_W), mask=c_mask, other=0.0).to(tl.float32)[None, :]\n    ";
        // Only the bounds a position can cross (constexpr tests).
        taps += "        " + dh + " = " + std::to_string(kh) + " * DIL_H - PAD_H\n        " + dw + " = " +
                std::to_string(kw) + " * DIL_W - PAD_W\n        ok_" + ts + " = inside\n";
        taps += "        if " + dh + " < 0:\n            ok_" + ts + " = ok_" + ts + " & (p2 >= -" + dh +
                " * IN_W)\n        if " + dh + " > 0:\n            ok_" + ts + " = ok_" + ts +
                " & (p2 < (IN_H - " + dh + ") * IN_W)\n        if " + dw + " < 0:\n            ok_" + ts +
                " = ok_" + ts + " & (ow2 >= -" + dw + ")\n        if " + dw + " > 0:\n            ok_" + ts +
                " = ok_" + ts + " & (ow2 < IN_W - " + dw + ")\n";
        taps += "        x_" + ts + " = tl.load(x_ptr + rm[:, None] * SX_W + ((" + dh + " * IN_W + " + dw +
                ") * SX_W + ic[None, :] * SX_C), mask=ok_" + ts + ", other=0.0).to(tl.float32)\n";
        taps += std::string("        acc ") + (t == 0 ? "= " : "+= ") + "x_" + ts + " * w_" + ts + "\n";
      }
    if (!rows) {
      // Per kernel position: the input pixel's address and bounds, as
      // [BLOCK_M, BLOCK_C] tiles (`_2d`) or per row (a [BLOCK_M] vector,
      // stretched along the channels only).
      taps.clear();
      const std::string v = indices2d ? "2" : "", rowsOf = indices2d ? "" : "[:, None]";
      const std::string inside = indices2d ? "inside" : "m_mask", channelBounds = indices2d ? "" : " & c_ok";
      for (int64_t kh = 0, t = 0; kh < kernelH; ++kh)
        for (int64_t kw = 0; kw < kernelW; ++kw, ++t) {
          const std::string ts = std::to_string(t);
          taps += "        ih_" + ts + " = oh" + v + " * STRIDE_H + (" + std::to_string(kh) +
                  " * DIL_H - PAD_H)\n" + "        iw_" + ts + " = ow" + v + " * STRIDE_W + (" +
                  std::to_string(kw) + " * DIL_W - PAD_W)\n" + "        ok_" + ts + " = " + inside +
                  " & (ih_" + ts + " >= 0) & (ih_" + ts + " < IN_H) & (iw_" + ts + " >= 0) & (iw_" + ts +
                  " < IN_W)\n" + "        x_" + ts + " = tl.load(x_ptr + (n" + v + " * SX_N + ih_" + ts +
                  " * SX_H + iw_" + ts + " * SX_W)" + rowsOf + " + ic[None, :] * SX_C, mask=ok_" + ts +
                  rowsOf + channelBounds + ", other=0.0).to(tl.float32)\n";
          taps += std::string("        acc ") + (t == 0 ? "= " : "+= ") + "x_" + ts + " * w_" + ts + "\n";
        }
    } else if (!rows) {
      // Per kernel position: the input pixel's address and bounds per row
      // (a [BLOCK_M] vector, stretched along the channels only).
      for (int64_t kh = 0, t = 0; kh < kernelH; ++kh)
        for (int64_t kw = 0; kw < kernelW; ++kw, ++t) {
          const std::string ts = std::to_string(t);
          taps += "        ih_" + ts + " = oh * STRIDE_H + (" + std::to_string(kh) + " * DIL_H - PAD_H)\n" +
                  "        iw_" + ts + " = ow * STRIDE_W + (" + std::to_string(kw) + " * DIL_W - PAD_W)\n" +
                  "        ok_" + ts + " = m_mask & (ih_" + ts + " >= 0) & (ih_" + ts + " < IN_H) & (iw_" +
                  ts + " >= 0) & (iw_" + ts + " < IN_W)\n" + "        x_" + ts +
                  " = tl.load(x_ptr + (n * SX_N + ih_" + ts + " * SX_H + iw_" + ts +
                  " * SX_W)[:, None] + ic[None, :] * SX_C, mask=ok_" + ts +
                  "[:, None] & c_ok, other=0.0).to(tl.float32)\n";
          taps += std::string("        acc ") + (t == 0 ? "= " : "+= ") + "x_" + ts + " * w_" + ts + "\n";
        }
    }
    LaunchBuilder launch(name,
                         instantiate(kDepthwiseSource, {{"NAME", name},
                                                        {"WEIGHTS", weights},
                                                        {"TAPS", taps},
                                                        {"BLOCK_INDICES", rows        ? kDepthwiseRowIndices
                                                                          : indices2d ? kDepthwiseIndices2d
                                                                                      : kDepthwiseIndices},
                                                        {"STORE", rows        ? kDepthwiseRowStore
                                                                  : indices2d ? kDepthwiseStore2d
                                                                              : kDepthwiseStore},
                                                        {"X", tritonType(x.dtype)},
                                                        {"W", tritonType(w.dtype)},
                                                        {"BIAS", tritonType(biasType)},
                                                        {"Y", tritonType(y.dtype)}}));
    common(launch);
    launch.constant("COUT", outChannels).constant("MULTIPLIER", coutG);
    geometry(launch);
    launch.constant("SW_O", w.stride[0]).constant("SW_H", w.stride[2]).constant("SW_W", w.stride[3]);
    epilogue(launch);
    launch.constant("BLOCK_M", blockM).constant("BLOCK_C", blockC);
    launch.grid(1, ceilDiv(outChannels, blockC), 1);
    plan.launches.push_back(launch.build());
    return plan;
  }

  // A 1x1 convolution of stride 1 without padding whose pixels are one
  // strided axis in both the input and the output is a plain GEMM (groups as
  // its batch): affine addresses, no gather, no index or mask tiles.
  auto pixelsMerge = [&](const TensorRef &t) {
    return t.stride[2] == t.shape[3] * t.stride[3] &&
           (t.shape[0] == 1 || t.stride[0] == t.shape[2] * t.stride[2]);
  };
  if (kernelH == 1 && kernelW == 1 && stride[0] == 1 && stride[1] == 1 && padding[0] == 0 &&
      padding[1] == 0 && pixelsMerge(x) && pixelsMerge(y)) {
    const TensorRef a{
        x.buffer, x.offset, {groups, pixels, cinG}, {cinG * x.stride[1], x.stride[3], x.stride[1]}, x.dtype};
    const TensorRef b{
        w.buffer, w.offset, {groups, cinG, coutG}, {coutG * w.stride[0], w.stride[1], w.stride[0]}, w.dtype};
    const TensorRef c{y.buffer,
                      y.offset,
                      {groups, pixels, coutG},
                      {coutG * y.stride[1], y.stride[3], y.stride[1]},
                      y.dtype};
    TensorRef biasView;
    if (bias)
      biasView = TensorRef{bias->buffer,
                           bias->offset,
                           {groups, pixels, coutG},
                           {coutG * bias->stride[0], 0, bias->stride[0]},
                           bias->dtype};
    plan.launches.push_back(gemmLaunch(a, b, bias ? &biasView : nullptr, c, 1.0, 1.0, machine));
    return plan;
  }

  // The shifted-tap and window kernels, when asked for
  // (MachineShape::convKernel; the runtime times them against the others):
  // stride 1, the image's size kept, one group, the pixels of each image one
  // strided axis of input and output (channels-last or NCHW; across the
  // images too, or the kernels run the images apart).
  const bool sameSize = outSize[0] == inH && outSize[1] == inW;
  const std::string &asked = machine.convKernel;
  if (!asked.empty() && std::find(convKernels().begin(), convKernels().end(), asked) == convKernels().end())
    throw core::RuntimeError("convolution kernel '" + asked + "' is not one of " + joinNames(convKernels()));
  if (asked == "shifted" || asked == "window") {
    auto pixelsWithinImage = [](const TensorRef &t) { return t.stride[2] == t.shape[3] * t.stride[3]; };
    if (groups != 1 || stride[0] != 1 || stride[1] != 1 || !sameSize || !pixelsWithinImage(x) ||
        !pixelsWithinImage(y))
      throw core::RuntimeError("convolution kernel '" + asked +
                               "' runs stride-1 convolutions that keep the image's size, with one group "
                               "and each image's pixels one strided axis");
    // Weights without a unit stride on either of the tile's axes (input or
    // output channel: OIHW weights of a kernel wider than one pixel) would
    // make every weight its own DMA run; they are copied once into a
    // channels-last scratch buffer ([KH KW C, 1, KW C, C]) first, numbered
    // after every buffer the call names.
    TensorRef weights = w;
    if (w.stride[0] != 1 && w.stride[1] != 1) {
      const int next = std::max({x.buffer, w.buffer, y.buffer, bias ? bias->buffer : -1}) + 1;
      plan.scratch.push_back(ScratchBuffer{w.dtype, numel(w)});
      weights = channelsLastScratch(w, next);
      plan.launches.push_back(copyLaunch(kConvolutionOp, weights, &w, std::nullopt, machine));
    }
    ShiftedConvShape s;
    s.pixels = pixels, s.height = inH, s.width = inW, s.cin = cinG, s.cout = coutG;
    s.images = batch, s.perImage = !pixelsMerge(x) || !pixelsMerge(y);
    s.sxN = x.stride[0], s.syN = y.stride[0];
    s.kernelH = kernelH, s.kernelW = kernelW, s.padH = padding[0], s.padW = padding[1];
    s.dilationH = dilation[0], s.dilationW = dilation[1];
    s.sxP = x.stride[3], s.sxC = x.stride[1];
    s.swO = weights.stride[0], s.swI = weights.stride[1], s.swH = weights.stride[2], s.swW = weights.stride[3];
    s.syP = y.stride[3], s.syC = y.stride[1];
    s.element = core::byteSize(x.dtype == w.dtype ? x.dtype : core::DType::Float32);
    s.hasBias = bias != nullptr;
    s.xType = tritonType(x.dtype), s.wType = tritonType(w.dtype), s.biasType = tritonType(biasType);
    s.yType = tritonType(y.dtype);
    // Both kernels take the same pointers and layer constants.
    // (PIXELS: the pixels of the kernel's M axis.)
    auto bindLayer = [&](LaunchBuilder &launch, int64_t mPixels) {
      launch.pointer(x)
          .pointer(weights)
          .pointer(bias ? bias->buffer : y.buffer, bias ? bias->offset : y.offset)
          .pointer(y);
      launch.constant("PIXELS", mPixels).constant("IMG_H", inH).constant("IMG_W", inW);
      launch.constant("CIN", cinG).constant("COUT", coutG);
      launch.constant("SX_P", s.sxP).constant("SX_C", s.sxC);
      launch.constant("SW_O", s.swO).constant("SW_I", s.swI).constant("SW_H", s.swH).constant("SW_W", s.swW);
      launch.constant("SY_P", s.syP).constant("SY_C", s.syC).constant("S_BIAS", bias ? bias->stride[0] : 0);
      if (s.perImage)
        launch.constant("SX_N", s.sxN).constant("SY_N", s.syN);
    };
    if (asked == "window") {
      const auto tiles = chooseWindowConvTiles(s, machine);
      if (!tiles)
        throw core::RuntimeError("convolution kernel 'window' has no tiles that fit for this layer");
      const std::string body = windowConvSource("K", s, *tiles);
      const std::string name = "npusim_conv_window_" + types + "_k" + std::to_string(kernelH) + "x" +
                               std::to_string(kernelW) + "_i" + std::to_string(tiles->images) +
                               (tiles->pairs ? "_pairs_" : "_") + textDigest(body);
      LaunchBuilder launch(name, windowConvSource(name, s, *tiles));
      bindLayer(launch, pixels);
      launch.constant("BLOCK_M", tiles->blockM)
          .constant("BLOCK_N", tiles->blockN)
          .constant("BLOCK_K", tiles->blockK);
      launch.constant("HALO", tiles->halo).constant("BLOCKS", tiles->blocks);
      launch.grid(ceilDiv(ceilDiv(pixels, tiles->blockM), tiles->blocks), ceilDiv(coutG, tiles->blockN), 1);
      plan.launches.push_back(launch.build());
      return plan;
    }
    const auto tiles = chooseShiftedConvTiles(s, machine);
    if (!tiles)
      throw core::RuntimeError("convolution kernel 'shifted' has no tiles that fit for this layer");
    const std::string name = "npusim_conv_shifted_" + types + "_" + shiftedConvVariant(s, *tiles);
    LaunchBuilder launch(name, shiftedConvSource(name, s, *tiles));
    bindLayer(launch, shiftedConvPixels(s));
    launch.constant("BLOCK_M", tiles->blockM)
        .constant("BLOCK_N", tiles->blockN)
        .constant("BLOCK_K", tiles->blockK);
    launch.grid(ceilDiv(shiftedConvPixels(s), programRows(*tiles)), ceilDiv(coutG, programColumns(*tiles)),
                s.perImage ? batch : 1);
    plan.launches.push_back(launch.build());
    return plan;
  }

  // Stride 1 with the input's height and width kept, the input's pixels one
  // strided axis and (kernel column, channel) another, in the input and in
  // the weights: each kernel row's im2col tile is one strided DMA.
  // Otherwise, with (kernel column, channel) one strided axis, the strided
  // form: a program covers blocks of output columns of a few output rows,
  // whose im2col tile of each kernel row is again one strided DMA (rows
  // stride_w pixels apart).
  const bool rowsMerge = stride[0] == 1 && stride[1] == 1 && sameSize && pixelsMerge(x) && pixelsMerge(y);
  // (A kernel one column wide has no column stride to agree.)
  if (x.stride[3] * dilation[1] == cinG * x.stride[1] &&
      (kernelW == 1 || w.stride[3] == cinG * w.stride[1]) && (kernelH > 1 || kernelW > 1 || !rowsMerge)) {
    RowConvShape shape;
    shape.strided = !rowsMerge;
    shape.outH = outSize[0], shape.outW = outSize[1], shape.strideH = stride[0], shape.strideW = stride[1];
    shape.sxN = x.stride[0], shape.sxH = x.stride[2];
    shape.pixels = pixels, shape.inH = inH, shape.inW = inW, shape.cinG = cinG, shape.coutG = coutG;
    shape.groups = groups, shape.kernelH = kernelH, shape.kernelW = kernelW;
    shape.padH = padding[0], shape.padW = padding[1], shape.dilationH = dilation[0],
    shape.dilationW = dilation[1];
    shape.sxC = x.stride[1], shape.sxW = x.stride[3];
    shape.swO = w.stride[0], shape.swI = w.stride[1], shape.swH = w.stride[2];
    shape.syC = y.stride[1], shape.syW = y.stride[3];
    shape.sameOperandType = x.dtype == w.dtype;
    shape.element = core::byteSize(shape.sameOperandType ? x.dtype : core::DType::Float32);
    shape.xType = tritonType(x.dtype), shape.wType = tritonType(w.dtype);
    shape.biasType = tritonType(biasType), shape.yType = tritonType(y.dtype);
    if (const auto tiles = chooseRowConvTiles(shape, machine)) {
      plan.launches.push_back(rowConvLaunch(
          shape, *tiles, types,
          [&](LaunchBuilder &launch) {
            launch.pointer(x)
                .pointer(w)
                .pointer(bias ? bias->buffer : y.buffer, bias ? bias->offset : y.offset)
                .pointer(y);
          },
          epilogue));
      return plan;
    }
  }

  // The im2col reduction axes (channel, kernel row, kernel column), ordered
  // by the input's strides: the contiguous one varies fastest along k, so one
  // DMA run covers as much of a tile row as the layout allows.
  const int64_t kTotal = cinG * kernelH * kernelW;
  const bool sameOperandType = x.dtype == w.dtype;
  const int64_t element = core::byteSize(sameOperandType ? x.dtype : core::DType::Float32);
  struct ReductionAxis {
    int64_t size, inputStride;
    const char *divisor;
  };
  std::array<ReductionAxis, 3> axes = {ReductionAxis{cinG, x.stride[1], "KC_DIV"},
                                       ReductionAxis{kernelH, x.stride[2] * dilation[0], "KH_DIV"},
                                       ReductionAxis{kernelW, x.stride[3] * dilation[1], "KW_DIV"}};
  std::stable_sort(axes.begin(), axes.end(), [](const ReductionAxis &l, const ReductionAxis &r) {
    return (l.size > 1 ? l.inputStride : INT64_MAX) < (r.size > 1 ? r.inputStride : INT64_MAX);
  });
  const std::array<int64_t, 3> weightStrides = {w.stride[1], w.stride[2], w.stride[3]};
  const int64_t innerWeightStride = axes[0].divisor == std::string_view("KC_DIV")   ? weightStrides[0]
                                    : axes[0].divisor == std::string_view("KH_DIV") ? weightStrides[1]
                                                                                    : weightStrides[2];
  const ConvMapping mapping =
      chooseMapping(GemmProblem{pixels, coutG, kTotal, groups, element, true,
                                padding[0] > 0 || padding[1] > 0, innerWeightStride == 1},
                    machine);
  // The weights' mask only where it can fail: a ragged last block of output
  // channels or of K, or a step past K. Without it no [BLOCK_K, BLOCK_N]
  // mask tile is made per step, whose bytes the next step's input tile would
  // take once the weights' DMA has read it, so that the next iteration's
  // weights waited for that step's dots. Kernels are cached by name: the
  // unmasked body has a name of its own (`_wfull`).
  const int64_t kBlocks = ceilDiv(kTotal, mapping.blockK);
  const bool weightsMasked =
      coutG % mapping.blockN != 0 || kTotal % mapping.blockK != 0 || kBlocks % mapping.steps != 0;
  const std::string name = "npusim_conv_" + types +
                           (mapping.steps > 1 ? "_k" + std::to_string(mapping.steps) : "") +
                           (weightsMasked ? "" : "_wfull");
  const std::string cast = sameOperandType ? "" : ".to(tl.float32)";
  auto weightMask = [&](const char *mask) {
    return weightsMasked ? ", mask=" + std::string(mask) + ", other=0.0" : std::string();
  };
  const std::string step =
      instantiate(kImplicitGemmStep, {{"S", "{{S}}"},
                                      {"OFFSET", "{{OFFSET}}"},
                                      {"X_CAST", "{{X_CAST}}"},
                                      {"W_CAST", "{{W_CAST}}"},
                                      {"W_MASK_LINEAR", weightMask("n_mask[:, None] & k_mask{{S}}[None, :]")},
                                      {"W_MASK_NK", weightMask("n_mask_t & k_mask{{S}}[None, :]")},
                                      {"W_MASK_KN", weightMask("n_mask_t & k_mask{{S}}[:, None]")}});
  const DotSteps loop = dotSteps(step, static_cast<int>(mapping.steps), "x", "w", "X_CAST", "W_CAST", cast);
  LaunchBuilder launch(name,
                       instantiate(kImplicitGemmSource, {{"NAME", name},
                                                         {"X", tritonType(x.dtype)},
                                                         {"W", tritonType(w.dtype)},
                                                         {"BIAS", tritonType(biasType)},
                                                         {"Y", tritonType(y.dtype)},
                                                         {"STEPS", std::to_string(mapping.steps)},
                                                         {"INIT", loop.init},
                                                         {"LOADS", loop.loads},
                                                         {"DOTS", loop.dots},
                                                         {"SUM", loop.sum},
                                                         {"ADD_BIAS", std::string(kConvBiasEpilogue)}}));
  common(launch);
  launch.constant("CIN_G", cinG).constant("COUT_G", coutG);
  geometry(launch);
  launch.constant("SW_O", w.stride[0])
      .constant("SW_I", w.stride[1])
      .constant("SW_H", w.stride[2])
      .constant("SW_W", w.stride[3]);
  epilogue(launch);
  // The input tile is a gather whose elements reach DRAM in the tile's
  // order, and the engine serves the elements of one request granule with
  // one request (docs/timing.md, "Reads the engine serves on chip"). Output
  // pixels fastest ([BLOCK_K, BLOCK_M], turned on chip) where that order
  // puts more useful elements in a granule than the reduction's inner axis
  // does: NCHW-like inputs, whose pixels along an output row are stride_w
  // elements apart, OUT_W of them, while k's inner axis is a kernel row of
  // KW elements or a channel HW apart.
  auto usefulPerGranule = [&](int64_t gap, int64_t count) {
    const double granule = static_cast<double>(machine.dmaRequestBytes) / static_cast<double>(element);
    if (gap <= 0 || static_cast<double>(gap) >= granule)
      return 1.0;
    return std::min(static_cast<double>(count), granule / static_cast<double>(gap));
  };
  const bool pixelsFastest = outSize[1] > 1 && usefulPerGranule(stride[1] * x.stride[3], outSize[1]) >
                                                   usefulPerGranule(axes[0].inputStride, axes[0].size);
  launch.constant("X_M_CONTIGUOUS", pixelsFastest ? 1 : 0);
  launch.constant("W_K_CONTIGUOUS", innerWeightStride == 1 && w.stride[0] != 1 && kTotal > 1 ? 1 : 0);
  // The weights' reduction index is k (times 1) when every axis's weight
  // stride is its divisor in k.
  bool weightKLinear = innerWeightStride == 1 && w.stride[0] != 1 && kTotal > 1;
  for (int64_t axisDivisor = 1; const ReductionAxis &axis : axes) {
    const std::string_view d = axis.divisor;
    const int64_t weightStride = d == "KC_DIV"   ? weightStrides[0]
                                 : d == "KH_DIV" ? weightStrides[1]
                                                 : weightStrides[2];
    if (axis.size > 1 && weightStride != axisDivisor)
      weightKLinear = false;
    axisDivisor *= axis.size;
  }
  launch.constant("W_K_LINEAR", weightKLinear ? 1 : 0);
  launch.constant("K_TOTAL", kTotal);
  int64_t divisor = 1;
  for (const ReductionAxis &axis : axes) {
    launch.constant(axis.divisor, divisor);
    divisor *= axis.size;
  }
  launch.constant("PADDED", padding[0] > 0 || padding[1] > 0 ? 1 : 0);
  launch.constant("BLOCK_M", mapping.blockM)
      .constant("BLOCK_N", mapping.blockN)
      .constant("BLOCK_K", mapping.blockK);
  launch.grid(ceilDiv(pixels, mapping.blockM), ceilDiv(coutG, mapping.blockN), groups);
  plan.launches.push_back(launch.build());
  return plan;
}

} // namespace npusim::library::detail
