// aten.convolution_backward of batched 1-d and 2-d (not transposed)
// convolutions (1-d as 2-d of height 1) as three
// implicit GEMMs on the systolic arrays, one grid axis per group, every
// gather an affine function of the program ids, aranges and loop counter plus
// `//` and `%` by constants (as the forward convolution's):
//   grad_weight[oc, (c, kh, kw)] = sum over (n, oh, ow) of grad_out[n, oc, oh, ow]
//                                  * input[n, c, oh*s - p + kh*d, ow*s - p + kw*d]
//   grad_input[(n, ih, iw), c]   = sum over (oc, kh, kw) of grad_out[n, oc, oh, ow] * weight[oc, c, kh, kw],
//                                  oh = (ih + p - kh*d) / s where that divides and lies inside
//   grad_bias[oc]                = sum over (n, oh, ow) of grad_out (the vector unit)
// Sums accumulate in fp32 and are rounded once on store.
#include "library/planners.h"

#include <algorithm>

namespace npusim::library::detail {

namespace {

constexpr std::string_view kConvolutionBackwardOp = "aten.convolution_backward";

// The constexpr header every kernel of the family shares.
constexpr std::string_view kGeometry = R"TRITON(
             NB: tl.constexpr, COG: tl.constexpr, CIG: tl.constexpr, H: tl.constexpr, W: tl.constexpr,
             OH: tl.constexpr, OW: tl.constexpr, KH: tl.constexpr, KW: tl.constexpr,
             SH: tl.constexpr, SW: tl.constexpr, PH: tl.constexpr, PW: tl.constexpr,
             DH: tl.constexpr, DW: tl.constexpr, GROUPS: tl.constexpr,
             SY0: tl.constexpr, SY1: tl.constexpr, SY2: tl.constexpr, SY3: tl.constexpr,
             SX0: tl.constexpr, SX1: tl.constexpr, SX2: tl.constexpr, SX3: tl.constexpr,
             SW0: tl.constexpr, SW1: tl.constexpr, SW2: tl.constexpr, SW3: tl.constexpr,
             BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):)TRITON";

// Grid: (cdiv(COG, BLOCK_M), cdiv(CIG * KH * KW, BLOCK_N), groups). SX* are
// the input's strides, SW* grad_weight's.
constexpr std::string_view kGradWeight = R"TRITON(
import triton
import triton.language as tl


@triton.jit
def {{NAME}}(gy_ptr: "*{{Y}}", x_ptr: "*{{X}}", gw_ptr: "*{{OUT}}",{{GEOMETRY}}
    g = tl.program_id(2)
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    c = rn // (KH * KW)
    kh = (rn // KW) % KH
    kw = rn % KW
    m_mask = rm < COG
    n_mask = rn < CIG * KH * KW
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for k0 in range(0, NB * OH * OW, BLOCK_K):
        rk = k0 + tl.arange(0, BLOCK_K)
        n = rk // (OH * OW)
        oh = (rk // OW) % OH
        ow = rk % OW
        k_mask = rk < NB * OH * OW
        a = tl.load(gy_ptr + (g * COG + rm)[:, None] * SY1 + (n * SY0 + oh * SY2 + ow * SY3)[None, :],
                    mask=m_mask[:, None] & k_mask[None, :], other=0.0).to(tl.float32)
        ih = oh[:, None] * SH - PH + kh[None, :] * DH
        iw = ow[:, None] * SW - PW + kw[None, :] * DW
        b_mask = k_mask[:, None] & n_mask[None, :] & (ih >= 0) & (ih < H) & (iw >= 0) & (iw < W)
        b = tl.load(x_ptr + n[:, None] * SX0 + (g * CIG + c)[None, :] * SX1 + ih * SX2 + iw * SX3,
                    mask=b_mask, other=0.0).to(tl.float32)
        acc += tl.dot(a, b, allow_tf32=False)
    tl.store(gw_ptr + (g * COG + rm)[:, None] * SW0 + (c * SW1 + kh * SW2 + kw * SW3)[None, :], acc,
             mask=m_mask[:, None] & n_mask[None, :])
)TRITON";

// Grid: (cdiv(NB * H * W, BLOCK_M), cdiv(CIG, BLOCK_N), groups). SX* are
// grad_input's strides, SW* the weight's.
constexpr std::string_view kGradInput = R"TRITON(
import triton
import triton.language as tl


@triton.jit
def {{NAME}}(gy_ptr: "*{{Y}}", w_ptr: "*{{X}}", gx_ptr: "*{{OUT}}",{{GEOMETRY}}
    g = tl.program_id(2)
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    n = rm // (H * W)
    ih = (rm // W) % H
    iw = rm % W
    m_mask = rm < NB * H * W
    n_mask = rn < CIG
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for k0 in range(0, COG * KH * KW, BLOCK_K):
        rk = k0 + tl.arange(0, BLOCK_K)
        oc = rk // (KH * KW)
        kh = (rk // KW) % KH
        kw = rk % KW
        k_mask = rk < COG * KH * KW
        th = ih[:, None] + PH - kh[None, :] * DH
        tw = iw[:, None] + PW - kw[None, :] * DW
        oh = th // SH
        ow = tw // SW
        a_mask = (m_mask[:, None] & k_mask[None, :] & (th >= 0) & (tw >= 0) & (th % SH == 0) & (tw % SW == 0)
                  & (oh < OH) & (ow < OW))
        a = tl.load(gy_ptr + n[:, None] * SY0 + (g * COG + oc)[None, :] * SY1 + oh * SY2 + ow * SY3,
                    mask=a_mask, other=0.0).to(tl.float32)
        b = tl.load(w_ptr + (g * COG + oc)[:, None] * SW0 + rn[None, :] * SW1 + (kh * SW2 + kw * SW3)[:, None],
                    mask=k_mask[:, None] & n_mask[None, :], other=0.0).to(tl.float32)
        acc += tl.dot(a, b, allow_tf32=False)
    tl.store(gx_ptr + (n * SX0 + ih * SX2 + iw * SX3)[:, None] + (g * CIG + rn)[None, :] * SX1, acc,
             mask=m_mask[:, None] & n_mask[None, :])
)TRITON";

// Grid: (cdiv(COG * groups, BLOCK_N), 1, 1): channels on the lanes, a loop
// over (n, oh, ow) in BLOCK_K rows. SW0 is grad_bias's stride.
constexpr std::string_view kGradBias = R"TRITON(
import triton
import triton.language as tl


@triton.jit
def {{NAME}}(gy_ptr: "*{{Y}}", gb_ptr: "*{{OUT}}",{{GEOMETRY}}
    rc = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    c_mask = rc < COG
    acc = tl.zeros([BLOCK_N], dtype=tl.float32)
    for k0 in range(0, NB * OH * OW, BLOCK_K):
        rk = k0 + tl.arange(0, BLOCK_K)
        n = rk // (OH * OW)
        oh = (rk // OW) % OH
        ow = rk % OW
        v = tl.load(gy_ptr + (n * SY0 + oh * SY2 + ow * SY3)[:, None] + rc[None, :] * SY1,
                    mask=(rk < NB * OH * OW)[:, None] & c_mask[None, :], other=0.0).to(tl.float32)
        acc += tl.sum(v, 0)
    tl.store(gb_ptr + rc * SW0, acc, mask=c_mask)
)TRITON";

// Depthwise (one input channel per group, COG output channels each): the
// GEMMs above would be 1-row or 1-column products per group on the systolic
// arrays, so these two run on the vector unit with the channels on the lanes
// (BLOCK_M <= BLOCK_N: the compiler gives the lanes to the larger tile axis,
// the last of equals) and every index made as a [BLOCK_M, BLOCK_N] tile, so
// that no per-pixel vector is stretched across the lanes.
//
// grad_input. Grid: (cdiv(NB * H * W, BLOCK_M), cdiv(GROUPS, BLOCK_N), 1); a
// loop over oc, the kernel positions unrolled (their offsets constants, the
// bounds and stride tests only where a position can fail them). SX* are
// grad_input's strides, SW* the weight's.
constexpr std::string_view kDepthwiseGradInput = R"TRITON(
import triton
import triton.language as tl


@triton.jit
def {{NAME}}(gy_ptr: "*{{Y}}", w_ptr: "*{{X}}", gx_ptr: "*{{OUT}}",{{GEOMETRY}}
    rc = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    zero_m = tl.arange(0, BLOCK_M) // BLOCK_M
    zero_c = tl.arange(0, BLOCK_N) // BLOCK_N
    c2 = zero_m[:, None] + rc[None, :]
    rm2 = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)[:, None] + zero_c[None, :]
    n = rm2 // (H * W)
    ih = (rm2 // W) % H
    iw = rm2 % W
    inside = (rm2 < NB * H * W) & (c2 < GROUPS)
    gy_base = gy_ptr + n * SY0 + c2 * (COG * SY1)
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for oc in range(0, COG):
{{TAPS}}
    tl.store(gx_ptr + n * SX0 + c2 * SX1 + ih * SX2 + iw * SX3, acc, mask=inside)
)TRITON";

// grad_weight. Grid: (cdiv(GROUPS * COG, BLOCK_N), 1, 1): output channel c
// reads input channel c // COG; every kernel position (unrolled, one
// accumulator each) reuses the block's grad_output tile and pixel indices,
// the products summed over the pixels in the tile and across its rows once
// at the end. SX* are the input's strides, SW* grad_weight's.
constexpr std::string_view kDepthwiseGradWeight = R"TRITON(
import triton
import triton.language as tl


@triton.jit
def {{NAME}}(gy_ptr: "*{{Y}}", x_ptr: "*{{X}}", gw_ptr: "*{{OUT}}",{{GEOMETRY}}
    rc = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    zero_m = tl.arange(0, BLOCK_M) // BLOCK_M
    zero_c = tl.arange(0, BLOCK_N) // BLOCK_N
    c2 = zero_m[:, None] + rc[None, :]
    c_ok = c2 < GROUPS * COG
{{INIT}}
    for k0 in range(0, NB * OH * OW, BLOCK_M):
        rk2 = k0 + tl.arange(0, BLOCK_M)[:, None] + zero_c[None, :]
        n = rk2 // (OH * OW)
        oh = (rk2 // OW) % OH
        ow = rk2 % OW
        ok = (rk2 < NB * OH * OW) & c_ok
        a = tl.load(gy_ptr + n * SY0 + c2 * SY1 + oh * SY2 + ow * SY3, mask=ok, other=0.0).to(tl.float32)
        x_base = x_ptr + n * SX0 + (c2 // COG) * SX1
{{TAPS}}
{{STORES}}
)TRITON";

/// Two spatial values from a per-axis list (one value for both, or two); a
/// 1-d convolution (`oneAxis`) is a 2-d one of height 1, its H axis taking `flat`.
std::pair<int64_t, int64_t> pairOf(const CallArgs &call, size_t i, const char *name, int64_t minimum,
                                   bool oneAxis, int64_t flat) {
  const std::vector<int64_t> v = call.integers(i, name);
  if (oneAxis ? v.size() != 1 : v.size() != 1 && v.size() != 2)
    call.fail(i, name,
              "expected " + std::string(oneAxis ? "1 value for 1" : "1 or 2 values for 2") +
                  " spatial dimensions, got " + std::to_string(v.size()));
  const std::pair<int64_t, int64_t> r{oneAxis ? flat : v[0], v.size() == 2 ? v[1] : v[0]};
  if (r.first < minimum || r.second < minimum)
    call.fail(i, name, "must be at least " + std::to_string(minimum));
  return r;
}

struct Geometry {
  int64_t nb, cog, cig, h, w, oh, ow, kh, kw, sh, sw, ph, pw, dh, dw, groups;
};

KernelLaunch launch(std::string_view source, const std::string &kind, const Geometry &g, const TensorRef &y,
                    const TensorRef *second, const TensorRef &out, const TensorRef &xStrides,
                    const TensorRef &wStrides, int64_t blockM, int64_t blockN, int64_t blockK) {
  const std::string name = "npusim_conv_backward_" + kind + "_" + tritonType(y.dtype) + "_" +
                           tritonType(second ? second->dtype : y.dtype) + "_" + tritonType(out.dtype);
  LaunchBuilder b(name, instantiate(source, {{"NAME", name},
                                             {"Y", tritonType(y.dtype)},
                                             {"X", tritonType(second ? second->dtype : y.dtype)},
                                             {"OUT", tritonType(out.dtype)},
                                             {"GEOMETRY", std::string(kGeometry)}}));
  b.pointer(y);
  if (second)
    b.pointer(*second);
  b.pointer(out);
  b.constant("NB", g.nb).constant("COG", g.cog).constant("CIG", g.cig).constant("H", g.h).constant("W", g.w);
  b.constant("OH", g.oh).constant("OW", g.ow).constant("KH", g.kh).constant("KW", g.kw);
  b.constant("SH", g.sh).constant("SW", g.sw).constant("PH", g.ph).constant("PW", g.pw);
  b.constant("DH", g.dh).constant("DW", g.dw).constant("GROUPS", g.groups);
  const char *names[3][4] = {
      {"SY0", "SY1", "SY2", "SY3"}, {"SX0", "SX1", "SX2", "SX3"}, {"SW0", "SW1", "SW2", "SW3"}};
  const TensorRef *refs[3] = {&y, &xStrides, &wStrides};
  for (int t = 0; t < 3; ++t)
    for (size_t a = 0; a < 4; ++a)
      b.constant(names[t][a], a < refs[t]->stride.size() ? refs[t]->stride[a] : 0);
  b.constant("BLOCK_M", blockM).constant("BLOCK_N", blockN).constant("BLOCK_K", blockK);
  return b.build();
}

/// The largest BLOCK_M (halving from `blockM`) whose operand, index and
/// accumulator tiles fit half the scratchpad.
int64_t fitRows(int64_t blockM, int64_t blockN, int64_t blockK, const MachineShape &machine) {
  // Operands in fp32 with their index and mask tiles (about eight 4-byte tiles of
  // each operand's size), the accumulator twice.
  auto bytes = [&](int64_t m) { return (m * blockK + blockK * blockN) * 4 * 8 + m * blockN * 4 * 2; };
  while (blockM > 16 && bytes(blockM) > tileBudgetBytes(machine))
    blockM /= 2;
  return blockM;
}

/// The depthwise kernels' BLOCK_M: the pixels take the lanes when they are
/// more than the channels (a few channels would leave most lanes idle; 8
/// channels at 4 x 64 x 64: 4.71 M cycles at 16 x 16 tiles, 0.62 M at 128 x
/// 16), halved until the tiles fit half the scratchpad.
int64_t fitVectorRows(int64_t blockM, int64_t blockN, int64_t accumulators, const MachineShape &machine) {
  // About sixteen fp32 tiles live at once besides the extra accumulators:
  // the accumulator, both operands, the index, address and mask tiles.
  while (blockM > 16 && blockM * blockN * 4 * (16 + accumulators) > tileBudgetBytes(machine))
    blockM /= 2;
  return blockM;
}

} // namespace

CallPlan planConvolutionBackward(const CallArgs &call, const MachineShape &machine) {
  // A batched 1-d convolution runs as a 2-d one of height 1.
  const bool oneAxis = call.tensor(1, "input").shape.size() == 3;
  auto lift = [oneAxis](const TensorRef &t) { return oneAxis && t.shape.size() == 3 ? unsqueeze(t, 2) : t; };
  const TensorRef gy = lift(call.tensor(0, "grad_output"));
  const TensorRef x = lift(call.tensor(1, "input"));
  const TensorRef wt = lift(call.tensor(2, "weight"));
  if (call.boolean(7, "transposed"))
    call.fail(7, "transposed", "the gradients of transposed convolutions have no NPU kernel");
  const std::vector<CallArgument> &maskList = call.list(10, "output_mask");
  if (maskList.size() != 3)
    call.fail(10, "output_mask", "expected three bools, got " + std::to_string(maskList.size()));
  bool mask[3];
  for (size_t i = 0; i < 3; ++i) {
    if (maskList[i].kind != core::CallKind::Bool)
      call.fail(10, "output_mask", "expected three bools");
    mask[i] = maskList[i].boolValue;
  }
  for (const auto &[t, what] :
       {std::pair{&gy, "grad_output"}, std::pair{&x, "input"}, std::pair{&wt, "weight"}}) {
    if (t->shape.size() != 4)
      fail(kConvolutionBackwardOp, std::string(what) + " has shape " + shapeString(t->shape) +
                    ": only batched 1-d and 2-d convolutions have NPU kernels");
    expectFloat(kConvolutionBackwardOp, *t, what);
    checkIndexRange(kConvolutionBackwardOp, *t, what);
  }
  const auto [sh, sw] = pairOf(call, 4, "stride", 1, oneAxis, 1);
  const auto [ph, pw] = pairOf(call, 5, "padding", 0, oneAxis, 0);
  const auto [dh, dw] = pairOf(call, 6, "dilation", 1, oneAxis, 1);
  const int64_t groups = call.integer(9, "groups");
  Geometry g{x.shape[0],  0,  wt.shape[1], x.shape[2], x.shape[3], gy.shape[2], gy.shape[3], wt.shape[2],
             wt.shape[3], sh, sw,          ph,         pw,         dh,          dw,          groups};
  if (groups < 1 || x.shape[1] != g.cig * groups || wt.shape[0] % groups != 0)
    fail(kConvolutionBackwardOp, "input " + shapeString(x.shape) + " and weight " + shapeString(wt.shape) +
                  " do not form a convolution of " + std::to_string(groups) + " groups");
  g.cog = wt.shape[0] / groups;
  const int64_t expectOh = (g.h + 2 * ph - dh * (g.kh - 1) - 1) / sh + 1;
  const int64_t expectOw = (g.w + 2 * pw - dw * (g.kw - 1) - 1) / sw + 1;
  const std::vector<int64_t> yShape = {g.nb, wt.shape[0], expectOh, expectOw};
  expectShape(kConvolutionBackwardOp, gy, yShape, "grad_output");

  // One input channel per group: the vector-unit kernels above.
  const bool depthwise = groups > 1 && g.cig == 1;
  CallPlan plan;
  plan.outputDefined.assign(call.numOuts(), false);
  const TensorRef none;
  const int64_t lanes = laneBlock(machine);
  const int64_t pixels = g.nb * g.oh * g.ow;
  std::vector<TensorRef> written;
  if (mask[1] && call.optionalOut(1)) {
    const TensorRef gw = lift(call.out(1));
    expectShape(kConvolutionBackwardOp, gw, wt.shape, "grad_weight");
    expectFloat(kConvolutionBackwardOp, gw, "grad_weight");
    checkIndexRange(kConvolutionBackwardOp, gw, "grad_weight");
    if (depthwise) {
      std::string init, taps, stores;
      for (int64_t kh = 0, t = 0; kh < g.kh; ++kh)
        for (int64_t kw = 0; kw < g.kw; ++kw, ++t) {
          const std::string ts = std::to_string(t), ih = "ih_" + ts, iw = "iw_" + ts;
          init += "    acc_" + ts + " = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)\n";
          taps += "        " + ih + " = oh * SH + (" + std::to_string(kh) + " * DH - PH)\n        " + iw +
                  " = ow * SW + (" + std::to_string(kw) + " * DW - PW)\n        acc_" + ts +
                  " += a * tl.load(x_base + " + ih + " * SX2 + " + iw + " * SX3, mask=ok & (" + ih +
                  " >= 0) & (" + ih + " < H) & (" + iw + " >= 0) & (" + iw +
                  " < W), other=0.0).to(tl.float32)\n";
          stores += "    tl.store(gw_ptr + rc * SW0 + (" + std::to_string(kh) + " * SW2 + " +
                    std::to_string(kw) + " * SW3), tl.sum(acc_" + ts + ", 0), mask=rc < GROUPS * COG)\n";
        }
      const std::string source = instantiate(kDepthwiseGradWeight, {{"NAME", "{{NAME}}"},
                                                                    {"Y", "{{Y}}"},
                                                                    {"X", "{{X}}"},
                                                                    {"OUT", "{{OUT}}"},
                                                                    {"GEOMETRY", "{{GEOMETRY}}"},
                                                                    {"INIT", init},
                                                                    {"TAPS", taps},
                                                                    {"STORES", stores}});
      const int64_t blockN = blockFor(wt.shape[0], 16, lanes);
      KernelLaunch l = launch(
          source, "depthwise_weight_k" + std::to_string(g.kh) + "x" + std::to_string(g.kw), g, gy, &x, gw, x,
          gw, fitVectorRows(blockFor(pixels, 16, lanes), blockN, g.kh * g.kw, machine), blockN, 1);
      l.grid[0] = ceilDiv(wt.shape[0], blockN);
      plan.launches.push_back(std::move(l));
    } else {
      const int64_t blockN = blockFor(g.cig * g.kh * g.kw, 16, lanes), blockK = blockFor(pixels, 16, lanes);
      const int64_t blockM = fitRows(blockFor(g.cog, 16, lanes), blockN, blockK, machine);
      KernelLaunch l = launch(kGradWeight, "weight", g, gy, &x, gw, x, gw, blockM, blockN, blockK);
      l.grid[0] = ceilDiv(g.cog, blockM);
      l.grid[1] = ceilDiv(g.cig * g.kh * g.kw, blockN);
      l.grid[2] = groups;
      plan.launches.push_back(std::move(l));
    }
    plan.outputDefined[1] = true;
    written.push_back(gw);
  }
  if (mask[0] && call.optionalOut(0)) {
    const TensorRef gx = lift(call.out(0));
    expectShape(kConvolutionBackwardOp, gx, x.shape, "grad_input");
    expectFloat(kConvolutionBackwardOp, gx, "grad_input");
    checkIndexRange(kConvolutionBackwardOp, gx, "grad_input");
    if (depthwise) {
      const int64_t blockN = blockFor(groups, 16, lanes),
                    blockM = fitVectorRows(blockFor(g.nb * g.h * g.w, 16, lanes), blockN, 0, machine);
      std::string taps;
      for (int64_t kh = 0; kh < g.kh; ++kh)
        for (int64_t kw = 0; kw < g.kw; ++kw) {
          // Input pixel ih reads output row (ih + offH) / SH where that divides.
          const int64_t offH = g.ph - kh * g.dh, offW = g.pw - kw * g.dw;
          const std::string ts = std::to_string(kh * g.kw + kw), th = "th_" + ts, tw = "tw_" + ts;
          const std::string oh = g.sh > 1 ? "(" + th + " // SH)" : th,
                            ow = g.sw > 1 ? "(" + tw + " // SW)" : tw;
          std::string reads = "inside & (" + oh + " < OH) & (" + ow + " < OW)";
          if (offH < 0)
            reads += " & (" + th + " >= 0)";
          if (offW < 0)
            reads += " & (" + tw + " >= 0)";
          if (g.sh > 1)
            reads += " & (" + th + " % SH == 0)";
          if (g.sw > 1)
            reads += " & (" + tw + " % SW == 0)";
          taps += "        " + th + " = ih + " + std::to_string(offH) + "\n        " + tw + " = iw + " +
                  std::to_string(offW) + "\n        acc += tl.load(gy_base + oc * SY1 + " + oh + " * SY2 + " +
                  ow + " * SY3, mask=" + reads +
                  ", other=0.0).to(tl.float32) * tl.load(w_ptr + (rc * COG + oc) * SW0 + (" +
                  std::to_string(kh) + " * SW2 + " + std::to_string(kw) +
                  " * SW3), mask=rc < GROUPS, other=0.0).to(tl.float32)[None, :]\n";
        }
      const std::string source = instantiate(kDepthwiseGradInput, {{"NAME", "{{NAME}}"},
                                                                   {"Y", "{{Y}}"},
                                                                   {"X", "{{X}}"},
                                                                   {"OUT", "{{OUT}}"},
                                                                   {"GEOMETRY", "{{GEOMETRY}}"},
                                                                   {"TAPS", taps}});
      KernelLaunch l = launch(source,
                              "depthwise_input_k" + std::to_string(g.kh) + "x" + std::to_string(g.kw) + "_s" +
                                  std::to_string(g.sh) + "x" + std::to_string(g.sw),
                              g, gy, &wt, gx, gx, wt, blockM, blockN, 1);
      l.grid[0] = ceilDiv(g.nb * g.h * g.w, blockM);
      l.grid[1] = ceilDiv(groups, blockN);
      plan.launches.push_back(std::move(l));
    } else {
      const int64_t blockN = blockFor(g.cig, 16, lanes), blockK = blockFor(g.cog * g.kh * g.kw, 16, lanes);
      const int64_t blockM = fitRows(blockFor(g.nb * g.h * g.w, 16, lanes), blockN, blockK, machine);
      KernelLaunch l = launch(kGradInput, "input", g, gy, &wt, gx, gx, wt, blockM, blockN, blockK);
      l.grid[0] = ceilDiv(g.nb * g.h * g.w, blockM);
      l.grid[1] = ceilDiv(g.cig, blockN);
      l.grid[2] = groups;
      plan.launches.push_back(std::move(l));
    }
    plan.outputDefined[0] = true;
    written.push_back(gx);
  }
  if (mask[2] && call.optionalOut(2)) {
    const TensorRef &gb = call.out(2);
    expectShape(kConvolutionBackwardOp, gb, std::vector<int64_t>{wt.shape[0]}, "grad_bias");
    expectFloat(kConvolutionBackwardOp, gb, "grad_bias");
    checkIndexRange(kConvolutionBackwardOp, gb, "grad_bias");
    Geometry all = g;
    all.cog = wt.shape[0];
    const int64_t blockN = blockFor(all.cog, 16, lanes),
                  blockK = fitRows(blockFor(pixels, 16, 256), blockN, 1, machine);
    KernelLaunch l = launch(kGradBias, "bias", all, gy, nullptr, gb, none, gb, 1, blockN, blockK);
    l.grid[0] = ceilDiv(all.cog, blockN);
    plan.launches.push_back(std::move(l));
    plan.outputDefined[2] = true;
    written.push_back(gb);
  }
  // Each kernel reads grad_output and one operand while it writes: no result may overlap an input.
  for (const TensorRef &out : written)
    for (const auto &[t, what] :
         {std::pair{&gy, "grad_output"}, std::pair{&x, "input"}, std::pair{&wt, "weight"}})
      checkNoOverlap(kConvolutionBackwardOp, out, *t, what, false);
  for (size_t i = 0; i < plan.launches.size(); ++i)
    if (plan.launches[i].grid[0] == 0 || plan.launches[i].grid[1] == 0)
      plan.launches.erase(plan.launches.begin() + static_cast<std::ptrdiff_t>(i--));
  return plan;
}

} // namespace npusim::library::detail
