// The window convolution: kernel text and tile choice (conv_window.h).
#include "library/conv_window.h"

#include <algorithm>
#include <vector>

namespace npusim::library::detail {

namespace {

constexpr std::string_view kWindowConvSource = R"TRITON(
import triton
import triton.language as tl


@triton.jit
def {{NAME}}(x_ptr: "*{{X}}", w_ptr: "*{{W}}", bias_ptr: "*{{BIAS}}", y_ptr: "*{{Y}}",
             PIXELS: tl.constexpr, IMG_H: tl.constexpr, IMG_W: tl.constexpr, CIN: tl.constexpr,
             COUT: tl.constexpr, SX_P: tl.constexpr, SX_C: tl.constexpr, SW_O: tl.constexpr,
             SW_I: tl.constexpr, SW_H: tl.constexpr, SW_W: tl.constexpr, SY_P: tl.constexpr,
             SY_C: tl.constexpr, S_BIAS: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
             BLOCK_K: tl.constexpr, HALO: tl.constexpr, BLOCKS: tl.constexpr{{IMAGE_STRIDES}}):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    hr = tl.arange(0, HALO)
    rk = tl.arange(0, BLOCK_K)
    cols = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    local = hr[0:BLOCK_M]
{{BODY}}
)TRITON";

struct Tap {
  int64_t kh = 0, kw = 0, dh = 0, dw = 0;
  int64_t offset = 0; // the window's first halo row
  std::string mask;   // "" where the tap never leaves the image
};

std::vector<Tap> tapsOf(const ShiftedConvShape &s) {
  std::vector<Tap> taps;
  for (int64_t kh = 0; kh < s.kernelH; ++kh)
    for (int64_t kw = 0; kw < s.kernelW; ++kw) {
      Tap t{kh,
            kw,
            kh * s.dilationH - s.padH,
            kw * s.dilationW - s.padW,
            kh * s.dilationH * s.width + kw * s.dilationW,
            ""};
      std::vector<std::string> terms;
      if (t.dh < 0)
        terms.push_back("(oh >= " + std::to_string(-t.dh) + ")");
      if (t.dh > 0)
        terms.push_back("(oh < " + std::to_string(s.height - t.dh) + ")");
      if (t.dw < 0)
        terms.push_back("(ow >= " + std::to_string(-t.dw) + ")");
      if (t.dw > 0)
        terms.push_back("(ow < " + std::to_string(s.width - t.dw) + ")");
      for (const std::string &term : terms)
        t.mask += (t.mask.empty() ? "" : " & ") + term;
      taps.push_back(t);
    }
  return taps;
}

/// The halo rows past the block's own: the taps' span.
int64_t spanOf(const ShiftedConvShape &s) {
  return (s.kernelH - 1) * s.dilationH * s.width + (s.kernelW - 1) * s.dilationW;
}

} // namespace

std::string windowConvSource(const std::string &name, const ShiftedConvShape &s, const WindowConvTiles &t) {
  const std::vector<Tap> taps = tapsOf(s);
  const int64_t channelBlocks = ceilDiv(s.cin, t.blockK), span = spanOf(s), image = s.height * s.width;
  const bool cRagged = s.cin % t.blockK != 0, nRagged = s.cout % t.blockN != 0;
  const bool mRagged = s.pixels % (t.blockM * t.blocks) != 0;
  const std::string cast = s.xType == s.wType ? "" : ".to(tl.float32)";
  // First input pixel of a block's halo: tap (0, 0)'s shift.
  const int64_t first = -s.padH * s.width - s.padW;
  // One image per block: the halo holds only that image's pixels (rows of
  // the images around it are masked, so zero), which is every tap's row
  // test, and a tap's column test depends only on its kernel column, in
  // halo rows: masked copies of the halo, one per kernel column that can
  // leave the image, serve every kernel row. Otherwise each tap's window is
  // masked (the rows of a block's other images are in its halo).
  const bool oneImage = t.images == 1;
  std::string body;
  std::vector<int64_t> columnsMasked; // kernel columns with a masked halo copy
  if (oneImage) {
    body += "    halo_row = hr[:, None] + (rk // BLOCK_K)[None, :]\n";
    for (int64_t kw = 0; kw < s.kernelW; ++kw) {
      const int64_t dw = kw * s.dilationW - s.padW;
      if (dw == 0)
        continue;
      // Halo row h is output column (h - kw DIL_W) mod W of the tap's
      // window (h = j + kh DIL_H W + kw DIL_W): kept while it plus dw stays
      // in the image. A multiple of W keeps the remainder's operand >= 0.
      const int64_t lift = s.width * (ceilDiv(kw * s.dilationW, s.width) + 1) - kw * s.dilationW;
      body += "    column_" + std::to_string(kw) + " = (halo_row + " + std::to_string(lift) + ") % IMG_W\n";
      body += "    keep_" + std::to_string(kw) + " = " +
              (dw < 0 ? "column_" + std::to_string(kw) + " >= " + std::to_string(-dw)
                      : "column_" + std::to_string(kw) + " < " + std::to_string(s.width - dw)) +
              "\n";
      columnsMasked.push_back(kw);
    }
  } else {
    // Every block starts at a whole image, so a tap's mask is the same for
    // every block: made once, in the A windows' own shape and layout (a sum
    // with a zero vector is a tile of its own; no vector crosses the lanes).
    body += "    pixel = local[:, None] + (rk // BLOCK_K)[None, :]\n";
    body += "    ow = pixel % IMG_W\n";
    body += "    oh = (pixel // IMG_W) % IMG_H\n";
    for (size_t i = 0; i < taps.size(); ++i)
      if (!taps[i].mask.empty())
        body += "    mask_" + std::to_string(static_cast<int64_t>(i)) + " = " + taps[i].mask + "\n";
  }
  for (int64_t c = 0; c < channelBlocks; ++c)
    body += "    ch_" + std::to_string(c) + " = " + std::to_string(c) + " * BLOCK_K + rk\n";
  // The program's weights stay resident: per tap and channel block a
  // [BLOCK_K, BLOCK_N] tile, loaded once: before the blocks, or with one
  // block per program just before the first dot that needs it, so that the
  // arrays start on the first tap while the DMA queue brings the next (a
  // layer of one block, batch 1, is mostly its weights' bytes). With
  // channels-last weights whose channels fill whole lane groups, one DMA per
  // kernel row brings its KW x CIN weights of every output channel (runs of
  // KW x CIN elements instead of BLOCK_K), and each tap's tile is a window
  // of it (a slice from a whole lane group on).
  const bool streamWeights = t.blocks == 1;
  const int64_t rowWidth = s.kernelW * s.cin, rowTile = nextPowerOfTwo(rowWidth);
  auto weightsFor = [&](size_t i, int64_t c, int spaces) {
    const std::string in = indent(spaces);
    if (!t.weightRows)
      return loadTile(cast, "w_" + std::to_string(static_cast<int64_t>(i)) + "_" + std::to_string(c),
                      "w_ptr + " + std::to_string(taps[i].kh) + " * SW_H + " + std::to_string(taps[i].kw) + " * SW_W",
                      "ch_" + std::to_string(c), "SW_I", cRagged ? "(ch_" + std::to_string(c) + " < CIN)" : "", "cols", "SW_O",
                      nRagged ? "(cols < COUT)" : "", s.swI == 1, spaces);
    if (taps[i].kw != 0 || c != 0)
      return std::string();
    const std::string kh = std::to_string(taps[i].kh), row = "w_row_" + kh;
    std::vector<std::string> masks;
    if (nRagged)
      masks.push_back("(cols < COUT)[:, None]");
    if (rowTile > rowWidth)
      masks.push_back("(weight_k < " + std::to_string(rowWidth) + ")[None, :]");
    std::string mask;
    for (const std::string &m : masks)
      mask += (mask.empty() ? ", mask=" : " & ") + m;
    std::string text = in + row + " = tl.trans(tl.load(w_ptr + " + kh +
                       " * SW_H + cols[:, None] * SW_O + weight_k[None, :]" + mask +
                       (mask.empty() ? "" : ", other=0.0") + "))" + cast + "\n";
    for (size_t j = i; j < taps.size() && taps[j].kh == taps[i].kh; ++j)
      for (int64_t cb = 0; cb < channelBlocks; ++cb) {
        const std::string start = std::to_string(taps[j].kw * s.cin + cb * t.blockK);
        text += in + "w_" + std::to_string(static_cast<int64_t>(j)) + "_" + std::to_string(cb) + " = " + row + "[" + start + ":" +
                start + " + BLOCK_K, :]\n";
      }
    return text;
  };
  if (t.weightRows)
    body += "    weight_k = tl.arange(0, " + std::to_string(rowTile) + ")\n";
  if (!streamWeights)
    for (size_t i = 0; i < taps.size(); ++i)
      for (int64_t c = 0; c < channelBlocks; ++c)
        body += weightsFor(i, c, 4);
  // Block `b` (an expression) into halo buffer `buffer`: its pixels plus the
  // span, one DMA per channel block (rows outside the tensor or the block's
  // image, or past what the block needs, are masked: not read), then the
  // masked copies.
  auto load = [&](const std::string &buffer, const std::string &b, int spaces) {
    const std::string in = indent(spaces);
    std::string text = in + "m0_" + buffer + " = (pid_m * BLOCKS + " + b + ") * BLOCK_M\n";
    // Per image the block's image starts at its own stride (the pixels are
    // one axis only within it); otherwise pixel m0 is the block's first.
    std::string source = "x_ptr";
    if (s.perImage) {
      text += in + "image_" + buffer + " = pid_m * BLOCKS + " + b + "\n";
      text += in + "ph_" + buffer + " = " + std::to_string(first) + " + hr\n";
      source = "x_ptr + image_" + buffer + " * SX_N";
    } else {
      text += in + "ph_" + buffer + " = m0_" + buffer + " + " + std::to_string(first) + " + hr\n";
    }
    std::string rowMask;
    if (oneImage) {
      rowMask = "(hr >= " + std::to_string(-first) + ") & (hr < " + std::to_string(image - first) + ")";
      if (mRagged)
        rowMask += " & (m0_" + buffer + " < PIXELS)";
    } else {
      rowMask = "(ph_" + buffer + " >= 0) & (ph_" + buffer + " < PIXELS)";
      if (t.halo > t.blockM + span)
        rowMask += " & (hr < " + std::to_string(t.blockM + span) + ")";
    }
    for (int64_t c = 0; c < channelBlocks; ++c) {
      const std::string x = "x_" + buffer + "_" + std::to_string(c);
      std::string mask = "(" + rowMask + ")[:, None]";
      if (cRagged)
        mask += " & (ch_" + std::to_string(c) + " < CIN)[None, :]";
      text += in + x + " = tl.load(" + source + " + ph_" + buffer + "[:, None] * SX_P + ch_" + std::to_string(c) +
              "[None, :] * SX_C, mask=" + mask + ", other=0.0)" + cast + "\n";
      for (int64_t kw : columnsMasked)
        text += in + x + "_w" + std::to_string(kw) + " = tl.where(keep_" + std::to_string(kw) + ", " + x + ", 0.0)\n";
    }
    return text;
  };
  // Block in `buffer`: one dot per tap and channel block, alternating
  // between two accumulators from `parity` on (the compiler gives each dot
  // the next array, so each accumulator's chain stays on one array), then
  // their sum, the bias and the store.
  auto compute = [&](const std::string &buffer, int parity, int spaces) {
    const std::string in = indent(spaces);
    std::string text;
    bool started[2] = {false, false};
    int d = parity;
    // Channel block outermost (consecutive dots read one halo tile), or
    // with the weights streamed, kernel rows outermost (a row's weights
    // arrive together).
    std::vector<std::pair<size_t, int64_t>> order;
    for (int64_t outer = 0; outer < (streamWeights ? static_cast<int64_t>(taps.size()) : channelBlocks);
         ++outer)
      for (int64_t inner = 0; inner < (streamWeights ? channelBlocks : static_cast<int64_t>(taps.size()));
           ++inner)
        order.emplace_back(static_cast<size_t>(streamWeights ? outer : inner), streamWeights ? inner : outer);
    for (const auto &[i, c] : order) {
      {
        const std::string tap = std::to_string(static_cast<int64_t>(i)), acc = "acc" + std::to_string(d % 2) + "_" + buffer;
        const bool copy =
            std::find(columnsMasked.begin(), columnsMasked.end(), taps[i].kw) != columnsMasked.end();
        const std::string source = "x_" + buffer + "_" + std::to_string(c) + (copy ? "_w" + std::to_string(taps[i].kw) : "");
        const std::string window =
            source + "[" + std::to_string(taps[i].offset) + ":" + std::to_string(taps[i].offset) + " + BLOCK_M, :]";
        const std::string a =
            oneImage || taps[i].mask.empty() ? window : "tl.where(mask_" + tap + ", " + window + ", 0.0)";
        if (streamWeights)
          text += weightsFor(i, c, spaces);
        text += in + acc + " = tl.dot(" + a + ", w_" + tap + "_" + std::to_string(c) +
                (started[d % 2] ? ", " + acc : "") + ", allow_tf32=False, out_dtype=tl.float32)\n";
        started[d % 2] = true;
        ++d;
      }
    }
    const std::string out = "out_" + buffer;
    // (A block of one dot starting on the second array has only acc1.)
    text += in + out + " = " + (started[0] ? "acc0_" + buffer : "") + (started[0] && started[1] ? " + " : "") +
            (started[1] ? "acc1_" + buffer : "") + "\n";
    if (s.hasBias)
      text += in + out + " = " + out + " + tl.load(bias_ptr + cols * S_BIAS" +
              (nRagged ? ", mask=cols < COUT, other=0.0" : "") + ").to(tl.float32)[None, :]\n";
    std::string mask;
    if (mRagged || nRagged)
      mask = ", mask=" + std::string(mRagged ? "(rows_" + buffer + " < PIXELS)[:, None]" : "") +
             (mRagged && nRagged ? " & " : "") + (nRagged ? "(cols < COUT)[None, :]" : "");
    // The block's output pixels over all images, for the ragged test; per
    // image the store addresses the block's image by its stride.
    text += in + "rows_" + buffer + " = m0_" + buffer + " + local\n";
    if (s.perImage)
      text += in + "tl.store(y_ptr + image_" + buffer + " * SY_N + local[:, None] * SY_P + cols[None, :] * SY_C, " +
              out + mask + ")\n";
    else
      text += in + "tl.store(y_ptr + rows_" + buffer + "[:, None] * SY_P + cols[None, :] * SY_C, " + out +
              mask + ")\n";
    return text;
  };
  if (t.blocks == 1) {
    body += load("a", "0", 4);
    body += compute("a", 0, 4);
  } else if (!t.pairs) {
    // One block per iteration: its halo, its dots, its store; the loop's
    // loads are scheduled ahead of the previous block's dots by the compiler.
    body += "    for j in range(0, BLOCKS):\n";
    body += load("a", "j", 8);
    body += compute("a", 0, 8);
  } else {
    // Blocks in pairs through halo buffers a and b: block j + 1 loads into b
    // while the arrays work on block j in a, then block j + 2 into a. The
    // second block starts its dots on the other array, so an odd number of
    // dots per block still splits evenly.
    const int next = static_cast<int>((static_cast<int64_t>(taps.size()) * channelBlocks) % 2);
    body += load("a", "0", 4);
    if (t.blocks > 2) {
      body += "    for j in range(0, " + std::to_string(t.blocks - 2) + ", 2):\n";
      body += load("b", "j + 1", 8);
      body += compute("a", 0, 8);
      body += load("a", "j + 2", 8);
      body += compute("b", next, 8);
    }
    body += load("b", std::to_string(t.blocks - 1), 4);
    body += compute("a", 0, 4);
    body += compute("b", next, 4);
  }
  return instantiate(
      kWindowConvSource,
      {{"NAME", name},
       {"X", s.xType},
       {"W", s.wType},
       {"BIAS", s.biasType},
       {"Y", s.yType},
       {"IMAGE_STRIDES", s.perImage ? ", SX_N: tl.constexpr, SY_N: tl.constexpr" : ""},
       {"BODY", body}});
}

std::optional<WindowConvTiles> chooseWindowConvTiles(const ShiftedConvShape &s, const MachineShape &machine) {
  if (machine.lanes < 16)
    return std::nullopt;
  const int64_t lane = laneBlock(machine), budget = tileBudgetBytes(machine) / machine.lanes;
  const int64_t image = s.height * s.width, images = s.pixels / image, span = spanOf(s);
  const int64_t taps = s.kernelH * s.kernelW;
  const double bw = std::max(1.0, machine.dramBytesPerCycle);
  const int64_t element = s.element;
  // A window is one lane group: input channels in blocks of at most the lanes.
  const int64_t blockK = std::min(nextPowerOfTwo(s.cin), lane), channelBlocks = ceilDiv(s.cin, blockK);
  const int64_t blockN = std::min(std::max<int64_t>(16, nextPowerOfTwo(s.cout)), lane);
  const int64_t columnBlocks = ceilDiv(s.cout, blockN);
  // A kernel row's weights as one DMA: channels-last weights (kernel column
  // and channel one contiguous run) whose channel blocks are whole lane
  // groups, so each tap's tile is a window of the row.
  const bool weightRows = s.swI == 1 && s.swW == s.cin && blockK == machine.lanes && s.cin % blockK == 0;
  const int64_t weightSlots =
      weightRows ? s.kernelH * ceilDiv(nextPowerOfTwo(s.kernelW * s.cin), machine.lanes) * blockN
                 : taps * channelBlocks * blockN * (s.swI == 1 ? 2 : 1);
  int64_t maskedColumns = 0; // kernel columns that can leave the image
  for (int64_t kw = 0; kw < s.kernelW; ++kw)
    maskedColumns += kw * s.dilationW != s.padW;
  std::optional<WindowConvTiles> best;
  // Per image (the pixels one axis only within each), blocks of one image.
  const int64_t mostPerBlock = s.perImage ? 1 : images;
  for (int64_t perBlock = 1; perBlock <= mostPerBlock && perBlock * image <= 4096; ++perBlock)
    for (bool pairs : {false, true}) {
      WindowConvTiles t;
      t.images = perBlock, t.blockM = perBlock * image, t.blockN = blockN, t.blockK = blockK, t.pairs = pairs;
      t.weightRows = weightRows;
      t.halo = nextPowerOfTwo(t.blockM + span);
      const int64_t blocksTotal = ceilDiv(images, perBlock);
      if (pairs && (perBlock > 1 || blocksTotal < 2))
        continue;
      // Per lane, per block in flight (two with pairs): the halo per channel
      // block (and its masked copies with one image per block), four
      // accumulators' worth of products and sums; else the tap masks and
      // two masked windows. Once: the resident weights (K on the lanes: a
      // [BLOCK_K, BLOCK_N] tile is BLOCK_N slots), twice where they turn.
      const int64_t inFlight = pairs ? 2 : 1;
      const int64_t perBlockBytes =
          perBlock == 1 ? element * channelBlocks * t.halo * (1 + maskedColumns) + 4 * 4 * t.blockM
                        : element * channelBlocks * t.halo + 4 * 4 * t.blockM + element * 2 * t.blockM;
      const int64_t bytes =
          inFlight * perBlockBytes + (perBlock == 1 ? 0 : taps * t.blockM) + element * weightSlots;
      if (bytes > budget)
        continue;
      // Programs: enough to spread over the cores with the column blocks;
      // each loads its weights once.
      const int64_t rowPrograms = std::max<int64_t>(1, ceilDiv(machine.cores, columnBlocks));
      t.blocks = ceilDiv(blocksTotal, rowPrograms);
      if (pairs)
        t.blocks += t.blocks % 2;
      const int64_t programs = ceilDiv(blocksTotal, t.blocks) * columnBlocks;
      // Arrays: per block one fold of max(M, L) per tap, channel block and
      // array-wide column block, the two arrays sharing them (one more
      // fold on one array per block for an odd count, unless in pairs).
      const int64_t dots = taps * channelBlocks * ceilDiv(blockN, lane);
      const int64_t arrays = std::max(1, std::min(machine.systolicArrays, 2));
      const double fold = std::max(static_cast<double>(t.blockM), static_cast<double>(machine.lanes));
      const double perBlockArrays = static_cast<double>(pairs ? dots : ceilDiv(dots, arrays) * arrays) *
                                    fold / static_cast<double>(arrays);
      const double arrayCycles = static_cast<double>(programs * t.blocks) * perBlockArrays;
      // DRAM: each block's halo, each program's weights, the output.
      const double haloBytes = static_cast<double>((t.blockM + span) * s.cin * element);
      const double weightBytes = static_cast<double>(taps * s.cin * blockN * element);
      const double dram =
          (static_cast<double>(programs * t.blocks) * haloBytes +
           static_cast<double>(programs) * weightBytes + static_cast<double>(s.pixels * s.cout) * 4.0) /
          bw;
      // Exposed per program: its weights and first halo before the first
      // dot, the last block's dots and store; per block without pairs, the
      // next halo's load behind the last dot.
      const double exposed = (weightBytes + haloBytes) / bw + machine.dramLatencyCycles + perBlockArrays +
                             static_cast<double>(t.blockM * blockN) * 4.0 / bw;
      const double perBlockExposed = pairs ? 0.0 : haloBytes / bw + machine.dramLatencyCycles;
      t.cycles = std::max(arrayCycles + static_cast<double>(programs * t.blocks) * perBlockExposed, dram) /
                     static_cast<double>(machine.cores) +
                 static_cast<double>(ceilDiv(programs, machine.cores)) * exposed +
                 machine.arrayPassOverheadCycles();
      if (!best || t.cycles < best->cycles * (1 - 1e-9))
        best = t;
    }
  return best;
}

} // namespace npusim::library::detail
