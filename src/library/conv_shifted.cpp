// The shifted-tap convolution: kernel text and tile choice (conv_shifted.h).
#include "library/conv_shifted.h"

#include <algorithm>
#include <vector>

namespace npusim::library::detail {

namespace {

constexpr std::string_view kShiftedConvSource = R"TRITON(
import triton
import triton.language as tl


@triton.jit
def {{NAME}}(x_ptr: "*{{X}}", w_ptr: "*{{W}}", bias_ptr: "*{{BIAS}}", y_ptr: "*{{Y}}",
             PIXELS: tl.constexpr, IMG_H: tl.constexpr, IMG_W: tl.constexpr, CIN: tl.constexpr,
             COUT: tl.constexpr, SX_P: tl.constexpr, SX_C: tl.constexpr, SW_O: tl.constexpr,
             SW_I: tl.constexpr, SW_H: tl.constexpr, SW_W: tl.constexpr, SY_P: tl.constexpr,
             SY_C: tl.constexpr, S_BIAS: tl.constexpr,{{IMAGE_STRIDES}}
             BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rk = tl.arange(0, BLOCK_K)
{{BODY}}
)TRITON";

} // namespace

std::string shiftedConvSource(const std::string &name, const ShiftedConvShape &s, const PipelinedTiles &t) {
  const int halvesA = t.splitM ? 2 : 1, halvesB = t.splitM ? 1 : 2;
  const bool mRagged = shiftedConvPixels(s) % programRows(t) != 0, nRagged = s.cout % programColumns(t) != 0;
  const bool cRagged = s.cin % t.blockK != 0;
  const int64_t channelBlocks = ceilDiv(s.cin, t.blockK);
  const int64_t blocks = s.kernelH * s.kernelW * channelBlocks;
  const std::string cast = s.xType == s.wType ? "" : ".to(tl.float32)";
  auto rows = [&](int h) { return t.splitM ? "rows_" + std::to_string(h) : std::string("rows_0"); };
  auto cols = [&](int h) { return t.splitM ? std::string("cols_0") : "cols_" + std::to_string(h); };
  // Per image: the program's image, on the grid's third axis.
  const std::string xBase = s.perImage ? "x_image" : "x_ptr", yBase = s.perImage ? "y_image" : "y_ptr";
  std::string body;
  if (s.perImage) {
    body += "    pid_image = tl.program_id(2)\n";
    body += "    x_image = x_ptr + pid_image * SX_N\n";
    body += "    y_image = y_ptr + pid_image * SY_N\n";
  }
  if (t.splitM) {
    body += "    rows_0 = pid_m * (2 * BLOCK_M) + tl.arange(0, BLOCK_M)\n";
    body += "    rows_1 = rows_0 + BLOCK_M\n";
    body += "    cols_0 = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)\n";
  } else {
    body += "    rows_0 = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)\n";
    body += "    cols_0 = pid_n * (2 * BLOCK_N) + tl.arange(0, BLOCK_N)\n";
    body += "    cols_1 = cols_0 + BLOCK_N\n";
  }
  // Each A tile's pixel row and column, made once in the tile's own shape
  // and layout (a sum with a zero vector is a tile of its own), so that a
  // tap's mask is compares on tiles and no vector is stretched across the
  // lanes.
  body += "    zero_k = (rk // BLOCK_K)[None, :]\n";
  for (int h = 0; h < halvesA; ++h) {
    const std::string p = "p" + std::to_string(h);
    body += "    " + p + " = " + rows(h) + "[:, None] + zero_k\n";
    body += "    ow" + std::to_string(h) + " = " + p + " % IMG_W\n";
    body += "    oh" + std::to_string(h) + " = (" + p + " // IMG_W) % IMG_H\n";
  }
  body += "    acc0 = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)\n";
  body += "    acc1 = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)\n";

  // K block `b` (an expression) into buffer s: its tap (kh, kw), first
  // channel, the tap's shift and mask, then the tiles.
  auto load = [&](const std::string &buffer, const std::string &b, int spaces) {
    const std::string in = indent(spaces), n = buffer;
    std::string text;
    text += in + "tap" + n + " = (" + b + ") // " + std::to_string(channelBlocks) + "\n";
    text += in + "kh" + n + " = tap" + n + " // " + std::to_string(s.kernelW) + "\n";
    text += in + "kw" + n + " = tap" + n + " % " + std::to_string(s.kernelW) + "\n";
    text += in + "dh" + n + " = kh" + n + " * " + std::to_string(s.dilationH) + " - " + std::to_string(s.padH) + "\n";
    text += in + "dw" + n + " = kw" + n + " * " + std::to_string(s.dilationW) + " - " + std::to_string(s.padW) + "\n";
    text += in + "ch" + n + " = ((" + b + ") % " + std::to_string(channelBlocks) + ") * BLOCK_K + rk\n";
    for (int h = 0; h < halvesA; ++h) {
      const std::string oh = "oh" + std::to_string(h), ow = "ow" + std::to_string(h), hs = std::to_string(h);
      std::string mask = "(" + oh + " >= -dh" + n + ") & (" + oh + " < IMG_H - dh" + n + ") & (" + ow + " >= -dw" +
                         n + ") & (" + ow + " < IMG_W - dw" + n + ")";
      if (mRagged)
        mask += " & (p" + hs + " < PIXELS)";
      if (cRagged)
        mask += " & (ch" + n + "[None, :] < CIN)";
      text += in + "a" + n + "_" + hs + " = tl.load(" + xBase + " + (" + rows(h) + " + dh" + n + " * IMG_W + dw" + n +
              ")[:, None] * SX_P + ch" + n + "[None, :] * SX_C, mask=" + mask + ", other=0.0)" + cast + "\n";
    }
    for (int h = 0; h < halvesB; ++h)
      text += loadTile(cast, "b" + n + "_" + std::to_string(h), "w_ptr + kh" + n + " * SW_H + kw" + n + " * SW_W", "ch" + n,
                       "SW_I", cRagged ? "(ch" + n + " < CIN)" : "", cols(h), "SW_O",
                       nRagged ? "(" + cols(h) + " < COUT)" : "", s.swI == 1, spaces);
    return text;
  };
  auto multiply = [&](const std::string &buffer, int spaces) {
    std::string text;
    for (int h = 0; h < 2; ++h)
      text += indent(spaces) + "acc" + std::to_string(h) + " += tl.dot(a" + buffer + "_" + std::to_string(t.splitM ? h : 0) + ", b" +
              buffer + "_" + std::to_string(t.splitM ? 0 : h) + ", allow_tf32=False, out_dtype=tl.float32)\n";
    return text;
  };
  // K blocks in pairs through buffers x and y, as in the pipelined GEMM:
  // block b + 1 loads into y while the arrays multiply block b in x, then
  // block b + 2 into x while they multiply y.
  const bool odd = blocks % 2 == 1;
  const int64_t iterations = odd ? blocks / 2 : blocks / 2 - 1;
  body += load("x", "0", 4);
  if (iterations > 0) {
    body += "    for b0 in range(0, " + std::to_string(2 * iterations) + ", 2):\n";
    body += load("y", "b0 + 1", 8);
    body += multiply("x", 8);
    body += load("x", "b0 + 2", 8);
    body += multiply("y", 8);
  }
  if (odd) {
    body += multiply("x", 4);
  } else {
    body += load("y", std::to_string(blocks - 1), 4);
    body += multiply("x", 4);
    body += multiply("y", 4);
  }
  for (int h = 0; h < 2; ++h) {
    const std::string acc = "acc" + std::to_string(h), r = rows(h), c = cols(h);
    std::string mask;
    if (mRagged || nRagged)
      mask = ", mask=" + std::string(mRagged ? "(" + r + " < PIXELS)[:, None]" : "") +
             (mRagged && nRagged ? " & " : "") + (nRagged ? "(" + c + " < COUT)[None, :]" : "");
    if (s.hasBias)
      body += "    " + acc + " = " + acc + " + tl.load(bias_ptr + " + c + " * S_BIAS" +
              (nRagged ? ", mask=" + c + " < COUT, other=0.0" : "") + ").to(tl.float32)[None, :]\n";
    body += "    tl.store(" + yBase + " + " + r + "[:, None] * SY_P + " + c + "[None, :] * SY_C, " + acc + mask + ")\n";
  }
  return instantiate(kShiftedConvSource, {{"NAME", name},
                                          {"X", s.xType},
                                          {"W", s.wType},
                                          {"BIAS", s.biasType},
                                          {"Y", s.yType},
                                          {"IMAGE_STRIDES", s.perImage ? " SX_N: tl.constexpr, SY_N: tl.constexpr," : ""},
                                          {"BODY", body}});
}

int64_t shiftedConvPixels(const ShiftedConvShape &s) {
  return s.perImage ? s.height * s.width : s.pixels;
}

std::string shiftedConvVariant(const ShiftedConvShape &s, const PipelinedTiles &t) {
  // Everything the text bakes in besides the element types and the
  // constexprs: the split, the taps' shifts and masks (kernel, padding,
  // dilation, image), the channel blocks, the ragged edges, the layouts.
  return std::string(t.splitM ? "sm" : "sn") + "_k" + std::to_string(s.kernelH) + "x" + std::to_string(s.kernelW) + "_p" + std::to_string(s.padH) +
         "x" + std::to_string(s.padW) + "_d" + std::to_string(s.dilationH) + "x" + std::to_string(s.dilationW) + "_i" + std::to_string(s.height) + "x" +
         std::to_string(s.width) + "_c" + std::to_string(s.cin) + "_b" + std::to_string(t.blockK) + (shiftedConvPixels(s) % programRows(t) ? "m" : "") +
         (s.cout % programColumns(t) ? "n" : "") + (s.swI == 1 ? "_wt" : "") + (s.hasBias ? "_bias" : "") + (s.perImage ? "_images" : "");
}

std::optional<PipelinedTiles> chooseShiftedConvTiles(const ShiftedConvShape &s, const MachineShape &machine) {
  if (machine.systolicArrays < 2)
    return std::nullopt;
  const int64_t lane = laneBlock(machine), budget = tileBudgetBytes(machine) / machine.lanes;
  const int64_t k = s.kernelH * s.kernelW * s.cin;
  std::optional<PipelinedTiles> best;
  for (bool splitM : {false, true}) {
    const int64_t halfN = splitM ? s.cout : ceilDiv(s.cout, 2);
    std::vector<int64_t> blockNs = {blockFor(halfN, 16, lane)};
    for (int64_t b = 2 * lane; b <= 4 * lane && b < 2 * halfN; b *= 2)
      blockNs.push_back(b);
    // Channel blocks of one array's rows, or two (runs of twice the bytes).
    std::vector<int64_t> blockKs = {blockFor(s.cin, 16, lane)};
    if (s.cin >= 2 * lane)
      blockKs.push_back(2 * lane);
    const int64_t rows = shiftedConvPixels(s), images = s.perImage ? s.images : 1;
    const int64_t halfM = splitM ? ceilDiv(rows, 2) : rows;
    for (int64_t blockK : blockKs)
    for (int64_t blockN : blockNs)
      for (int64_t blockM = 16; blockM <= std::min<int64_t>(1024, blockFor(halfM, 16, 1024)); blockM *= 2) {
        PipelinedTiles t{blockM, blockN, blockK, splitM, 0};
        // Besides the GEMM's tiles: per A half three int32 index tiles (the
        // pixel, its row and column) and two tap masks live at once.
        const int64_t kSlots = ceilDiv(blockK, lane);
        const int64_t index = (splitM ? 2 : 1) * kSlots * blockM * (3 * 4 + 2);
        if (pipelinedBytesPerLane(t, s.element, false, s.swI == 1, machine) + index > budget)
          continue;
        // Blocks of one tap each (channels ragged per tap): the GEMM's
        // estimate over K = taps x channel blocks of BLOCK_K.
        const int64_t kIssued = s.kernelH * s.kernelW * ceilDiv(s.cin, blockK) * blockK;
        t.cycles = pipelinedCycles(t, rows, s.cout, std::max(kIssued, k), images, s.element, s.swI == 1,
                                   s.hasBias, machine);
        if (!best || t.cycles < best->cycles * (1 - 1e-9))
          best = t;
      }
  }
  return best;
}

} // namespace npusim::library::detail
