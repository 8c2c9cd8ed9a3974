// Stride-1 "same" convolutions whose input pixels and (kernel column, input
// channel) pairs are each one affine axis: the im2col tile of kernel row kh is
// then a strided DMA straight from DRAM (rows overlapping in memory), with no
// index tiles and no per-element gather (docs/library-kernels.md, "Row
// convolutions").
#include "library/conv_rows.h"

#include "library/plan_support.h"

#include <algorithm>
#include <string_view>
#include <vector>

namespace npusim::library::detail {

namespace {

// Grid: (cdiv(PIXELS, PIX * BLOCK_M * BLOCKS), cdiv(PIX * COUT_G, BLOCK_N),
// groups). A program covers BLOCKS row blocks of BLOCK_M tile rows. With PIX
// = 1, tile row m is output pixel m (n, oh, ow in row-major order); because
// the output has the input's height and width and the input's pixels are one
// strided axis, output pixel m reads input pixel m + dh * IN_W + dw. Column j
// of the reduction of kernel row kh is (kernel column j // CIN_G, channel j %
// CIN_G) at input offset j * SX_C and weight offset j * SW_I: KWC = KERNEL_W
// * CIN_G reduction rows per kernel row, loaded as BLOCK_K-wide blocks. With
// PIX > 1, tile row m covers the PIX output pixels PIX * m + p of one image
// row: its im2col row of kernel row kh is the (PIX + KW - 1) * CIN_G = KWC
// elements from input pixel PIX * m + dh * IN_W - PAD_W on (rows PIX pixels
// apart, each input element read (PIX + KW - 1) / PIX times per kernel row
// instead of KW times), and product column n = p * COUT_G + oc takes the
// weights of kernel column j // CIN_G - p (zero outside the kernel): a
// banded weight tile, one affine DMA. {{BODY}} either loops over the kernel
// rows with one accumulator per row block and block of j carried by the
// loop (kernelRowLoopBody), or loads every step's weights once and
// software-pipelines the row blocks (sameSizeBody): block b + 1's masks and
// input tiles are issued before block b's dots, sum and store, so the
// in-order DMA queue and vector unit never wait on block b's arrays before
// they have block b + 1 in flight.
// The strided pixels' extra constexprs (see sameSizeBody).
constexpr const char *kStridedPixelParams =
    " OUT_H: tl.constexpr, STRIDE_H: tl.constexpr, STRIDE_W: tl.constexpr, SX_N: tl.constexpr,"
    " SX_H: tl.constexpr, BMC: tl.constexpr, R2: tl.constexpr, COLS: tl.constexpr,";

constexpr std::string_view kRowConvSource = R"TRITON(
import triton
import triton.language as tl


@triton.jit
def {{NAME}}(x_ptr: "*{{X}}", w_ptr: "*{{W}}", bias_ptr: "*{{BIAS}}", y_ptr: "*{{Y}}",
             PIXELS: tl.constexpr, IN_H: tl.constexpr, IN_W: tl.constexpr, CIN_G: tl.constexpr,
             COUT_G: tl.constexpr, KWC: tl.constexpr, DIL_W: tl.constexpr, PAD_W: tl.constexpr,
             SX_C: tl.constexpr, SX_W: tl.constexpr, SW_O: tl.constexpr, SW_I: tl.constexpr,
             S_BIAS: tl.constexpr, SY_N: tl.constexpr, SY_C: tl.constexpr, SY_H: tl.constexpr, SY_W: tl.constexpr,
             HAS_BIAS: tl.constexpr, W_K_CONTIGUOUS: tl.constexpr, PIX: tl.constexpr, KW_CIN: tl.constexpr,
             PIX_STEP: tl.constexpr, BLOCKS: tl.constexpr,{{STRIDED_PARAMS}}
             BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    group = tl.program_id(2)
{{COLUMNS}}
    rk = tl.arange(0, BLOCK_K)
    # Pixel indices straight in the [BLOCK_M, BLOCK_K] shape and layout of
    # the operand tiles (the zeros make the sum a tile of its own).
    zero_k = rk // BLOCK_K
    x_base = x_ptr + group * (CIN_G * SX_C)
    w_base = w_ptr + group * (COUT_G * SW_O)
    channel = group * COUT_G + oc
    if HAS_BIAS:
        bias = tl.load(bias_ptr + channel * S_BIAS, mask=n_mask, other=0.0).to(tl.float32)
{{BODY}}
)TRITON";

// Grid: (cdiv(N * OUT_H, ROWS), cdiv(OUT_W, BLOCK_M), groups * N_BLOCKS). A
// program covers a block of output columns of ROWS consecutive output rows
// (n, oh), so any stride works: row m of output row r's tile is output column
// ow = m, which reads input column ow * STRIDE_W + kw * DIL_W - PAD_W of input
// row oh * STRIDE_H + kh * DIL_H - PAD_H, an affine [BLOCK_M, BLOCK_K] tile
// per kernel row (rows STRIDE_W pixels apart) with the same reduction axis j
// as above. The row bounds are scalar tests of the output row. {{BODY}} loads
// the weights once (they serve every row), then every row's input tiles,
// then runs one dot per (row, step) into a tile of its own, summed by a tree,
// so that no dot waits on another.
constexpr std::string_view kStridedRowConvSource = R"TRITON(
import triton
import triton.language as tl


@triton.jit
def {{NAME}}(x_ptr: "*{{X}}", w_ptr: "*{{W}}", bias_ptr: "*{{BIAS}}", y_ptr: "*{{Y}}",
             IN_H: tl.constexpr, IN_W: tl.constexpr, OUT_H: tl.constexpr, OUT_W: tl.constexpr,
             ROWS: tl.constexpr, ROWS_TOTAL: tl.constexpr, CIN_G: tl.constexpr, COUT_G: tl.constexpr, N_BLOCKS: tl.constexpr, KWC: tl.constexpr,
             STRIDE_H: tl.constexpr, STRIDE_W: tl.constexpr, DIL_W: tl.constexpr, PAD_W: tl.constexpr,
             SX_N: tl.constexpr, SX_H: tl.constexpr, SX_C: tl.constexpr, SX_W: tl.constexpr,
             SW_O: tl.constexpr, SW_I: tl.constexpr,
             S_BIAS: tl.constexpr, SY_N: tl.constexpr, SY_C: tl.constexpr, SY_H: tl.constexpr, SY_W: tl.constexpr,
             HAS_BIAS: tl.constexpr, W_K_CONTIGUOUS: tl.constexpr,
             BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    row0 = tl.program_id(0) * ROWS
    pid_m = tl.program_id(1)
    pid_n = tl.program_id(2) % N_BLOCKS
    group = tl.program_id(2) // N_BLOCKS
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    m_mask = rm < OUT_W
    oc = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    n_mask = oc < COUT_G
    rk = tl.arange(0, BLOCK_K)
    zero_k = rk // BLOCK_K
    rm_t = pid_m * BLOCK_M + (tl.arange(0, BLOCK_M)[:, None] + zero_k[None, :])
    ow_t = rm_t * STRIDE_W
    m_mask_t = rm_t < OUT_W
    y_mask = m_mask[:, None] & n_mask[None, :]
    x_rows = x_ptr + group * (CIN_G * SX_C) + rm[:, None] * (STRIDE_W * SX_W)
    w_base = w_ptr + group * (COUT_G * SW_O)
{{BODY}}
)TRITON";

/// Block b of j's mask: the pixels whose input column ow + kw * DIL_W -
/// PAD_W is inside, for the kernel column kw of each j, and j < KWC.
std::string columnMask(int64_t b) {
  const std::string s = std::to_string(b);
  return "    j_" + s + " = " + s + " * BLOCK_K + rk\n" + "    dw_" + s + " = ((j_" + s +
         " // CIN_G) * DIL_W - PAD_W)[None, :]\n" + "    w_ok_" + s + " = (ow_t + dw_" + s +
         " >= 0) & (ow_t + dw_" + s + " < IN_W) & (j_" + s + " < KWC)[None, :]\n";
}

/// Step s's banded weights for PIX output pixels per row (block b of j,
/// `weightOffset` selecting the kernel row): product column n = p * COUT_G +
/// oc, row j take kernel column j // CIN_G - p * STRIDE_W, at j * SW_I - p *
/// PIX_STEP * SW_I (SW_W = CIN_G * SW_I, PIX_STEP = STRIDE_W * CIN_G), zero
/// where j - p * PIX_STEP leaves [0, KW_CIN).
/// The indices are [n, j] (or [j, n]) tiles of their own (`n2`, from the
/// zeros): the address is a box access (n cut at COUT_G, no gather) and the
/// band mask needs no broadcast across the lanes.
std::string bandedWeightLoad(const std::string &s, int64_t b, const std::string &off,
                             const std::string &cast) {
  const std::string bs = std::to_string(b);
  auto load = [&](const std::string &j, const std::string &n2) {
    const std::string q = "(" + n2 + " // COUT_G)";
    return "tl.load(w_base + (" + off + " + (" + n2 + " % COUT_G) * SW_O - " + q + " * (PIX_STEP * SW_I) + " +
           j + " * SW_I), mask=(" + j + " >= " + q + " * PIX_STEP) & (" + j + " < " + q +
           " * PIX_STEP + KW_CIN) & (" + n2 + " < PIX * COUT_G), other=0.0)";
  };
  return "    if W_K_CONTIGUOUS:\n        w_" + s + " = tl.trans(" + load("j_" + bs + "[None, :]", "n2_t") +
         ")" + cast + "\n    else:\n        w_" + s + " = " + load("j_" + bs + "[:, None]", "n2") + cast +
         "\n";
}

/// Step s's weights (block b of j, `weightOffset` selecting the kernel row).
std::string weightLoad(const std::string &s, int64_t b, const std::string &off, const std::string &cast) {
  const std::string bs = std::to_string(b);
  return "    if W_K_CONTIGUOUS:\n" + std::string("        w_") + s + " = tl.trans(tl.load(w_base + (" + off +
         " + oc[:, None] * SW_O + j_" + bs + "[None, :] * SW_I), mask=n_mask[:, None] & (j_" + bs +
         " < KWC)[None, :], other=0.0))" + cast + "\n" + "    else:\n" + "        w_" + s +
         " = tl.load(w_base + (" + off + " + j_" + bs + "[:, None] * SW_I + oc[None, :] * SW_O), mask=(j_" +
         bs + " < KWC)[:, None] & n_mask[None, :], other=0.0)" + cast + "\n";
}

/// `acc = acc_0 + ... + acc_{n-1}` as a balanced tree of pairwise sums, so
/// that the dots do not wait on each other's results.
std::string sumTree(const std::string &prefix, size_t n) {
  std::string code;
  size_t next = n;
  std::vector<size_t> level(n);
  for (size_t i = 0; i < n; ++i)
    level[i] = i;
  while (level.size() > 1) {
    std::vector<size_t> up;
    for (size_t i = 0; i + 1 < level.size(); i += 2) {
      code += "    " + prefix + std::to_string(next) + " = " + prefix + std::to_string(level[i]) + " + " +
              prefix + std::to_string(level[i + 1]) + "\n";
      up.push_back(next++);
    }
    if (level.size() % 2 == 1)
      up.push_back(level.back());
    level = up;
  }
  return code + "    acc = " + prefix + std::to_string(level[0]) + "\n";
}


} // namespace

namespace {

/// The strided form's body: weights once, then per output row its masks,
/// input tiles, dots, sum, bias and store.
std::string stridedBody(const RowConvShape &c, const RowConvTiles &t, const std::string &cast) {
  std::string head, loads, dots, tail;
  for (int64_t b = 0; b < t.blocksJ; ++b)
    head += columnMask(b);
  for (int64_t kh = 0, step = 0; kh < c.kernelH; ++kh)
    for (int64_t b = 0; b < t.blocksJ; ++b, ++step)
      head += weightLoad(std::to_string(step), b, std::to_string(kh * c.swH), cast);
  const bool partial = (c.pixels / c.outW) % t.rows != 0;
  // When a program's rows lie in one image (OUT_H a multiple of ROWS),
  // output row r's kernel row kh reads input row oh_0 * STRIDE_H + q - PAD_H
  // with q = r * STRIDE_H + kh * DIL_H: rows and kernel rows with the same q
  // share one tile (21 instead of 56 for the 7x7 stride-2 stem at 8 rows).
  const bool shared = c.outH % t.rows == 0;
  if (shared)
    head += "    oh_0 = row0 % OUT_H\n    xn = x_rows + (row0 // OUT_H) * SX_N\n";
  std::vector<bool> loaded;
  const int64_t steps = c.kernelH * t.blocksJ;
  // operands[step][row]: the input tile of each dot.
  std::vector<std::vector<std::string>> operands(static_cast<size_t>(steps));
  for (int64_t r = 0; r < t.rows; ++r) {
    const std::string rs = std::to_string(r), row = "row_" + rs;
    head += "    " + row + " = row0 + " + rs + "\n";
    if (!shared)
      head += "    oh_" + rs + " = " + row + " % OUT_H\n    xn_" + rs + " = x_rows + (" + row +
              " // OUT_H) * SX_N\n";
    const std::string inside = partial ? " & (" + row + " < ROWS_TOTAL)" : "";
    for (int64_t kh = 0, step = 0; kh < c.kernelH; ++kh) {
      const int64_t q = r * c.strideH + kh * c.dilationH;
      // The tile's name: per (row, kernel row), or per q when shared.
      const std::string k = shared ? "q" + std::to_string(q) : rs + "_" + std::to_string(kh), ih = "ih_" + k;
      const bool fresh =
          !shared || static_cast<size_t>(q) >= loaded.size() || !loaded[static_cast<size_t>(q)];
      if (fresh) {
        const std::string start =
            shared ? "oh_0 * STRIDE_H + (" + std::to_string(q - c.padH) + ")"
                   : "oh_" + rs + " * STRIDE_H + (" + std::to_string(kh * c.dilationH - c.padH) + ")";
        head += "    " + ih + " = " + start + "\n    h_ok_" + k + " = m_mask_t & (" + ih + " >= 0) & (" + ih +
                " < IN_H)" + inside + "\n";
      }
      for (int64_t b = 0; b < t.blocksJ; ++b, ++step) {
        const std::string bs = std::to_string(b);
        const std::string x = "x_" + k + "_" + bs;
        if (fresh)
          loads += "    " + x + " = tl.load(" + (shared ? "xn" : "xn_" + rs) + " + (" + ih +
                   " * SX_H - PAD_W * SX_W + j_" + bs + "[None, :] * SX_C), mask=h_ok_" + k + " & w_ok_" +
                   bs + ", other=0.0)" + cast + "\n";
        operands[static_cast<size_t>(step)].push_back(x);
      }
      if (shared) {
        if (loaded.size() <= static_cast<size_t>(q))
          loaded.resize(static_cast<size_t>(q) + 1, false);
        loaded[static_cast<size_t>(q)] = true;
      }
    }
    const std::string oh = shared ? "(oh_0 + " + rs + ")" : "oh_" + rs;
    const std::string n = shared ? "(row0 // OUT_H)" : "(" + row + " // OUT_H)";
    tail += sumTree("p_" + rs + "_", static_cast<size_t>(steps)) + std::string(kConvBiasEpilogue) + "\n" +
            "    tl.store(y_ptr + " + n + " * SY_N + " + oh +
            " * SY_H + rm[:, None] * SY_W + channel[None, :] * SY_C, acc, mask=y_mask" + inside + ")\n";
  }
  // Row-major, one tile per dot: no dot waits on another's result.
  for (int64_t r = 0; r < t.rows; ++r)
    for (int64_t step = 0; step < steps; ++step)
      dots += "    p_" + std::to_string(r) + "_" + std::to_string(step) + " = tl.dot(" +
              operands[static_cast<size_t>(step)][static_cast<size_t>(r)] + ", w_" + std::to_string(step) +
              ", allow_tf32=False, out_dtype=tl.float32)\n";
  return head + loads + dots + tail;
}

/// The pipelined bodies' per-program column indices: block b of j (`j_b`),
/// its kernel columns' offsets `dw_b` and bound `jk_b`; with PIX > 1 the
/// banded weights' [n, j] and [j, n] index tiles.
std::string columnIndices(const RowConvTiles &t) {
  std::string head;
  for (int64_t b = 0; b < t.blocksJ; ++b) {
    const std::string bs = std::to_string(b);
    head += "    j_" + bs + " = " + bs + " * BLOCK_K + rk\n    dw_" + bs + " = ((j_" + bs +
            " // CIN_G) * DIL_W - PAD_W)[None, :]\n    jk_" + bs + " = (j_" + bs + " < KWC)[None, :]\n";
  }
  if (t.pixelsPerRow > 1)
    head += "    n2_t = pid_n * BLOCK_N + (tl.arange(0, BLOCK_N)[:, None] + zero_k[None, :])\n"
            "    n2 = pid_n * BLOCK_N + (zero_k[:, None] + tl.arange(0, BLOCK_N)[None, :])\n";
  return head;
}

/// The strided pixels' per-program tiles: tile row m's output row m // BMC
/// and column group m % BMC as index tiles for the masks, box terms for the
/// addresses, the store's column mask and each block of j's column mask.
std::string stridedPixelsHead(const RowConvShape &c, const RowConvTiles &t) {
  // A block's consecutive tile rows are BLOCKS output rows apart when the
  // blocks interleave, else one.
  const std::string rowStep = t.interleaved ? "(BLOCKS * STRIDE_H)" : "STRIDE_H";
  const std::string outStep = t.interleaved ? "(BLOCKS * SY_H)" : "SY_H";
  std::string head = "    mm_t = tl.arange(0, BLOCK_M)[:, None] + zero_k[None, :]\n"
                     "    mrs_t = (mm_t // BMC) * " +
                     rowStep +
                     "\n"
                     "    iw_t = (mm_t % BMC) * (PIX * STRIDE_W)\n"
                     "    col_ok = (mm_t % BMC) < COLS\n"
                     "    rr = tl.arange(0, BLOCK_M)[:, None]\n"
                     "    x_box = (rr // BMC) * (" +
                     rowStep + " * SX_H) + (rr % BMC) * (PIX * STRIDE_W * SX_W)\n    y_box = (rr // BMC) * " +
                     outStep + " + (rr % BMC) * (PIX * SY_W)\n";
  if (t.columnGroups * t.pixelsPerRow > c.outW)
    head += "    y_cols = ((tl.arange(0, BLOCK_M)[:, None] + zero_n[None, :]) % BMC) < COLS\n";
  for (int64_t b = 0; b < t.blocksJ; ++b) {
    const std::string bs = std::to_string(b);
    head += "    w_ok_" + bs + " = col_ok & (iw_t + dw_" + bs + " >= 0) & (iw_t + dw_" + bs +
            " < IN_W) & jk_" + bs + "\n";
  }
  return head;
}

/// Block i's sum over its `n` accumulators `acc_i_b`, the bias and the store
/// of the strided pixels (a box access of R2 output rows).
std::string stridedPixelsStore(const RowConvShape &c, const RowConvTiles &t, int64_t i,
                               const std::string &sum) {
  const std::string s = "_" + std::to_string(i);
  std::string code = sum + "    if HAS_BIAS:\n        acc = acc + bias[None, :]\n";
  std::string mask;
  if (t.columnGroups * t.pixelsPerRow > c.outW)
    mask = "y_cols";
  if (t.pixelsPerRow * c.coutG < t.blockN)
    mask += std::string(mask.empty() ? "" : " & ") + "n_mask[None, :]";
  const std::string columns = t.pixelsPerRow == 1 ? "channel[None, :] * SY_C" : "rn[None, :] * SY_C";
  return code + "    tl.store((y_ptr + ((row0" + s + " // OUT_H) * SY_N + oh0" + s + " * SY_H)) + (y_box + " +
         columns + "), acc" + (mask.empty() ? "" : ", mask=" + mask) + ")\n";
}

/// The same-size form's body: every step's weights once, then the row
/// blocks software-pipelined (block i + 1's masks and loads before block i's
/// dots, sum, bias and store).
std::string sameSizeBody(const RowConvShape &c, const RowConvTiles &t, const std::string &cast) {
  const int64_t pix = t.pixelsPerRow, steps = c.kernelH * t.blocksJ;
  std::string head = columnIndices(t);
  // Step s's weights load just before the first block's input tile of step
  // s, so that the first dot waits for one step's operands, not for all.
  std::vector<std::string> weights;
  for (int64_t kh = 0, step = 0; kh < c.kernelH; ++kh)
    for (int64_t b = 0; b < t.blocksJ; ++b, ++step)
      weights.push_back(pix == 1
                            ? weightLoad(std::to_string(step), b, std::to_string(kh * c.swH), cast)
                            : bandedWeightLoad(std::to_string(step), b, std::to_string(kh * c.swH), cast));
  // The store's row mask straight in the [BLOCK_M, BLOCK_N] layout of the
  // product (no broadcast across the lanes), only where a block can reach
  // past the last row; the column mask only where BLOCK_N passes the
  // product's columns.
  const int64_t rowsA = c.pixels / pix;
  const bool ragged = rowsA % (t.blockM * t.blocks) != 0 || ceilDiv(rowsA, t.blockM) < t.blocks;
  const bool columnsRagged = pix * c.coutG < t.blockN;
  head += "    zero_n = tl.arange(0, BLOCK_N) // BLOCK_N\n";
  if (c.strided)
    head += stridedPixelsHead(c, t);
  // Block i's pixel indices, masks and input tiles.
  // Strided pixels: block i covers R2 output rows (n, oh) of one image,
  // BMC column groups of PIX output columns each (tile row m: row m // BMC,
  // group m % BMC, COLS of the BMC real); its input tile of kernel row kh is
  // a box access (rows STRIDE_H input rows apart, groups PIX * STRIDE_W
  // pixels apart).
  auto stridedFront = [&](int64_t i) {
    const std::string s = "_" + std::to_string(i);
    std::string code = "    row0" + s + " = (pid_m * BLOCKS + " + std::to_string(i) + ") * R2\n    oh0" + s +
                       " = row0" + s + " % OUT_H\n    xb" + s + " = x_ptr + ((row0" + s +
                       " // OUT_H) * SX_N + oh0" + s + " * (STRIDE_H * SX_H))\n";
    for (int64_t kh = 0; kh < c.kernelH; ++kh) {
      const std::string k = std::to_string(kh), ih = "ih_" + k + s;
      code += "    " + ih + " = mrs_t + (oh0" + s + " * STRIDE_H + (" +
              std::to_string(kh * c.dilationH - c.padH) + "))\n    h_ok_" + k + s + " = (" + ih +
              " >= 0) & (" + ih + " < IN_H)\n";
    }
    for (int64_t kh = 0, step = 0; kh < c.kernelH; ++kh)
      for (int64_t b = 0; b < t.blocksJ; ++b, ++step)
        code += "    mk_" + std::to_string(step) + s + " = h_ok_" + std::to_string(kh) + s + " & w_ok_" +
                std::to_string(b) + "\n";
    return code;
  };
  auto front = [&](int64_t i) {
    if (c.strided)
      return stridedFront(i);
    const std::string s = "_" + std::to_string(i);
    std::string code = "    r0" + s + " = (pid_m * BLOCKS + " + std::to_string(i) + ") * BLOCK_M\n    rm" +
                       s + " = r0" + s + " + tl.arange(0, BLOCK_M)\n    rm_t" + s + " = (r0" + s +
                       " + (tl.arange(0, BLOCK_M)[:, None] + zero_k[None, :])) * PIX\n    ow_t" + s +
                       " = rm_t" + s + " % IN_W\n    m_mask_t" + s + " = rm_t" + s + " < PIXELS\n";
    // Kernel row kh keeps the pixels whose offset p in their image lies in
    // [-dh * IN_W, (IN_H - dh) * IN_W): no division for the row.
    const std::string p = c.pixels == c.inH * c.inW ? "rm_t" + s : "(rm_t" + s + " % (IN_H * IN_W))";
    for (int64_t kh = 0; kh < c.kernelH; ++kh) {
      const int64_t dh = kh * c.dilationH - c.padH;
      std::string cond = "m_mask_t" + s;
      if (dh < 0)
        cond += " & (" + p + " >= " + std::to_string(-dh) + " * IN_W)";
      if (dh > 0)
        cond += " & (" + p + " < (IN_H - " + std::to_string(dh) + ") * IN_W)";
      code += "    h_ok_" + std::to_string(kh) + s + " = " + cond + "\n";
    }
    for (int64_t b = 0; b < t.blocksJ; ++b) {
      const std::string bs = std::to_string(b);
      code += "    w_ok_" + bs + s + " = (ow_t" + s + " + dw_" + bs + " >= 0) & (ow_t" + s + " + dw_" + bs +
              " < IN_W) & jk_" + bs + "\n";
    }
    code += "    x_rows" + s + " = x_base + rm" + s + "[:, None] * (PIX * SX_W)\n";
    for (int64_t kh = 0, step = 0; kh < c.kernelH; ++kh)
      for (int64_t b = 0; b < t.blocksJ; ++b, ++step)
        code += "    mk_" + std::to_string(step) + s + " = h_ok_" + std::to_string(kh) + s + " & w_ok_" +
                std::to_string(b) + s + "\n";
    return code;
  };
  // Block i's input tiles (their masks made by `front`).
  auto loads = [&](int64_t i) {
    const std::string s = "_" + std::to_string(i);
    std::string code;
    for (int64_t kh = 0, step = 0; kh < c.kernelH; ++kh)
      for (int64_t b = 0; b < t.blocksJ; ++b, ++step) {
        // Input pixel PIX * m + dh * IN_W - PAD_W (the kernel columns are in j).
        const int64_t rowOffset = ((kh * c.dilationH - c.padH) * c.inW - c.padW) * c.sxW;
        const std::string st = std::to_string(step);
        if (i == 0)
          code += weights[static_cast<size_t>(step)];
        if (c.strided) {
          code += "    x_" + st + s + " = tl.load(xb" + s + " + (x_box + (" +
                  std::to_string((kh * c.dilationH - c.padH) * c.sxH - c.padW * c.sxW) + " + j_" +
                  std::to_string(b) + "[None, :] * SX_C)), mask=mk_" + st + s + ", other=0.0)" + cast + "\n";
          continue;
        }
        code += "    x_" + st + s + " = tl.load(x_rows" + s + " + (" + std::to_string(rowOffset) + " + j_" +
                std::to_string(b) + "[None, :] * SX_C), mask=mk_" + st + s + ", other=0.0)" + cast + "\n";
      }
    return code;
  };
  // Block i's dots (one tile each: no dot waits on another).
  auto dots = [&](int64_t i) {
    const std::string s = "_" + std::to_string(i);
    std::string code;
    for (int64_t step = 0; step < steps; ++step)
      code += "    p" + s + "_" + std::to_string(step) + " = tl.dot(x_" + std::to_string(step) + s + ", w_" +
              std::to_string(step) + ", allow_tf32=False, out_dtype=tl.float32)\n";
    return code;
  };
  // Block i's sum, bias and store.
  auto back = [&](int64_t i) {
    const std::string s = "_" + std::to_string(i);
    const std::string sum = sumTree("p" + s + "_", static_cast<size_t>(steps));
    if (c.strided)
      return stridedPixelsStore(c, t, i, sum);
    std::string code = sum + "    if HAS_BIAS:\n        acc = acc + bias[None, :]\n";
    // PIX > 1: the output's pixels are contiguous (SY_W = COUT_G * SY_C), so
    // product column n is at n * SY_C.
    const std::string columns = pix == 1 ? "channel[None, :] * SY_C" : "rn[None, :] * SY_C";
    std::string mask;
    if (ragged)
      mask = "((r0" + s + " + (tl.arange(0, BLOCK_M)[:, None] + zero_n[None, :])) * PIX < PIXELS)";
    if (columnsRagged)
      mask += std::string(mask.empty() ? "" : " & ") + "n_mask[None, :]";
    code += "    tl.store(y_ptr + rm" + s + "[:, None] * (PIX * SY_W) + " + columns + ", acc" +
            (mask.empty() ? "" : ", mask=" + mask) + ")\n";
    return code;
  };
  // In program order: block i + 2's masks, block i's dots (their zero
  // tiles on the vector unit), block i + 1's loads, block i's sum and store.
  // A unit runs its queue in order, so a block's masks and loads never wait
  // behind the sum of the block before, which waits for that block's arrays.
  std::string body = head + front(0) + loads(0) + (t.blocks > 1 ? front(1) : "");
  for (int64_t i = 0; i < t.blocks; ++i)
    body +=
        (i + 2 < t.blocks ? front(i + 2) : "") + dots(i) + (i + 1 < t.blocks ? loads(i + 1) : "") + back(i);
  return body;
}

/// `code` with every line indented four more spaces.
std::string indented(const std::string &code) {
  std::string out;
  size_t start = 0;
  while (start < code.size()) {
    const size_t end = code.find('\n', start);
    const size_t stop = end == std::string::npos ? code.size() : end + 1;
    out += "    " + code.substr(start, stop - start);
    start = stop;
  }
  return out;
}

/// The interleaved blocks' body: block i's kernel row kh reads tile q = i *
/// STRIDE_H + kh * DIL_H (input rows oh0_0 * STRIDE_H + q - PAD_H on,
/// BLOCKS * STRIDE_H apart), which blocks and kernel rows with the same q
/// share: a program loads each distinct tile once. Kernel row by kernel
/// row: its weights, then per block the tile it is first to read (with its
/// mask) and its dots. The kernel rows run in a loop of one iteration that
/// carries the accumulators, so that each block's chain of dots accumulates
/// in place; no tile is carried, so none is copied.
std::string interleavedBody(const RowConvShape &c, const RowConvTiles &t, const std::string &cast) {
  std::string head =
      columnIndices(t) + "    zero_n = tl.arange(0, BLOCK_N) // BLOCK_N\n" + stridedPixelsHead(c, t);
  std::string body;
  std::vector<bool> loaded;
  for (int64_t i = 0; i < t.blocks; ++i) {
    const std::string s = "_" + std::to_string(i);
    head += "    row0" + s + " = pid_m * (BLOCKS * R2) + " + std::to_string(i) + "\n    oh0" + s + " = row0" +
            s + " % OUT_H\n";
    if (i == 0)
      head += "    xb = x_ptr + ((row0_0 // OUT_H) * SX_N + oh0_0 * (STRIDE_H * SX_H))\n";
    for (int64_t b = 0; b < t.blocksJ; ++b)
      head += "    acc" + s + "_" + std::to_string(b) + " = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)\n";
  }
  for (int64_t kh = 0; kh < c.kernelH; ++kh) {
    for (int64_t b = 0; b < t.blocksJ; ++b) {
      const std::string step = std::to_string(kh * t.blocksJ + b), offset = std::to_string(kh * c.swH);
      body +=
          t.pixelsPerRow == 1 ? weightLoad(step, b, offset, cast) : bandedWeightLoad(step, b, offset, cast);
    }
    for (int64_t i = 0; i < t.blocks; ++i) {
      const int64_t q = i * c.strideH + kh * c.dilationH;
      const std::string qs = std::to_string(q);
      if (loaded.size() <= static_cast<size_t>(q))
        loaded.resize(static_cast<size_t>(q) + 1, false);
      if (!loaded[static_cast<size_t>(q)]) {
        loaded[static_cast<size_t>(q)] = true;
        body += "    ih_q" + qs + " = mrs_t + (oh0_0 * STRIDE_H + " + std::to_string(q - c.padH) +
                ")\n    h_ok_q" + qs + " = (ih_q" + qs + " >= 0) & (ih_q" + qs + " < IN_H)\n";
        for (int64_t b = 0; b < t.blocksJ; ++b) {
          const std::string bs = std::to_string(b);
          body += "    x_q" + qs + "_" + bs + " = tl.load(xb + (x_box + (" +
                  std::to_string((q - c.padH) * c.sxH - c.padW * c.sxW) + " + j_" + bs +
                  "[None, :] * SX_C)), mask=h_ok_q" + qs + " & w_ok_" + bs + ", other=0.0)" + cast + "\n";
        }
      }
      for (int64_t b = 0; b < t.blocksJ; ++b) {
        const std::string acc = "acc_" + std::to_string(i) + "_" + std::to_string(b);
        body += "    " + acc + " += tl.dot(x_q" + qs + "_" + std::to_string(b) + ", w_" +
                std::to_string(kh * t.blocksJ + b) + ", allow_tf32=False, out_dtype=tl.float32)\n";
      }
    }
  }
  std::string tail;
  for (int64_t i = 0; i < t.blocks; ++i)
    tail += stridedPixelsStore(c, t, i,
                               sumTree("acc_" + std::to_string(i) + "_", static_cast<size_t>(t.blocksJ)));
  return head + "    for _once in range(0, 1):\n" + indented(body) + tail;
}

/// The same-size form's body as a loop over the kernel rows (docs/library-
/// kernels.md, "Row convolutions"): per row block and block of j one fp32
/// accumulator, made before the loop and carried by it, so that the dots
/// accumulate in place and the accumulators keep their scratchpad bytes;
/// per kernel row the weights of each block of j, then every row block's
/// input tiles and dots. A tile of the loop body keeps its bytes from one
/// kernel row to the next, so a load waits only for the dot that read its
/// tile one kernel row earlier, and the DMA queue streams the next kernel
/// row's tiles while the arrays work; after the loop each row block's sum,
/// bias and store.
std::string kernelRowLoopBody(const RowConvShape &c, const RowConvTiles &t, const std::string &cast) {
  const int64_t pix = t.pixelsPerRow;
  // In the loop body every mask comes before every load and every load
  // before every dot: tiles live at once get bytes of their own (the
  // scratchpad is first fit in program order), so no load waits for the
  // dot of another tile that had its bytes.
  std::string head = columnIndices(t), loop, masks, loads, dots, tail;
  head += "    zero_n = tl.arange(0, BLOCK_N) // BLOCK_N\n";
  const int64_t rowsA = c.pixels / pix;
  const bool ragged = rowsA % (t.blockM * t.blocks) != 0 || ceilDiv(rowsA, t.blockM) < t.blocks;
  const bool columnsRagged = pix * c.coutG < t.blockN;
  // Kernel row kh = dh + PAD_H keeps the pixels whose offset p in their image
  // lies in [-dh * IN_W, (IN_H - dh) * IN_W).
  const std::string dh = "(kh * " + std::to_string(c.dilationH) + " - " + std::to_string(c.padH) + ")";
  loop += "    for kh in range(0, " + std::to_string(c.kernelH) + "):\n";
  for (int64_t b = 0; b < t.blocksJ; ++b) {
    const std::string offset = "kh * " + std::to_string(c.swH);
    loop += indented(pix == 1 ? weightLoad(std::to_string(b), b, offset, cast)
                              : bandedWeightLoad(std::to_string(b), b, offset, cast));
  }
  if (c.strided) {
    // Strided pixels: block i's R2 output rows start at output row oh0_i of
    // one image; kernel row kh reads input rows oh * STRIDE_H + dh.
    head += stridedPixelsHead(c, t);
    loop += "        x_dh = " + dh + " * SX_H - PAD_W * SX_W\n";
    for (int64_t i = 0; i < t.blocks; ++i) {
      const std::string s = "_" + std::to_string(i);
      head += "    row0" + s + " = (pid_m * BLOCKS + " + std::to_string(i) + ") * R2\n    oh0" + s +
              " = row0" + s + " % OUT_H\n    xb" + s + " = x_ptr + ((row0" + s + " // OUT_H) * SX_N + oh0" +
              s + " * (STRIDE_H * SX_H))\n";
      masks += "        ih" + s + " = mrs_t + (oh0" + s + " * STRIDE_H + " + dh + ")\n        h_ok" + s +
               " = (ih" + s + " >= 0) & (ih" + s + " < IN_H)\n";
      for (int64_t b = 0; b < t.blocksJ; ++b) {
        const std::string bs = std::to_string(b), x = "x" + s + "_" + bs, mk = "mk" + s + "_" + bs;
        head += "    acc" + s + "_" + bs + " = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)\n";
        masks += "        " + mk + " = h_ok" + s + " & w_ok_" + bs + "\n";
        loads += "        " + x + " = tl.load(xb" + s + " + (x_box + (x_dh + j_" + bs +
                 "[None, :] * SX_C)), mask=" + mk + ", other=0.0)" + cast + "\n";
        dots += "        acc" + s + "_" + bs + " += tl.dot(" + x + ", w_" + bs +
                ", allow_tf32=False, out_dtype=tl.float32)\n";
      }
      tail += stridedPixelsStore(c, t, i, sumTree("acc" + s + "_", static_cast<size_t>(t.blocksJ)));
    }
    return head + loop + masks + loads + dots + tail;
  }
  loop += "        x_dh = " + dh + " * (IN_W * SX_W) - PAD_W * SX_W\n";
  // Block b of j's column tests, only those that can fail: ow = PIX * m %
  // IN_W lies in [0, IN_W - PIX], so ow + dw >= 0 fails only for dw < 0 and
  // ow + dw < IN_W only for dw >= PIX; j < KWC only in a ragged last block.
  std::vector<std::vector<std::string>> columnTests(static_cast<size_t>(t.blocksJ));
  bool anyColumnTest = false;
  for (int64_t b = 0; b < t.blocksJ; ++b) {
    const std::string bs = std::to_string(b);
    const int64_t kwc = (pix + c.kernelW - 1) * c.cinG;
    const int64_t jLast = std::min((b + 1) * t.blockK, kwc) - 1;
    const int64_t dwLow = (b * t.blockK / c.cinG) * c.dilationW - c.padW;
    const int64_t dwHigh = (jLast / c.cinG) * c.dilationW - c.padW;
    auto &tests = columnTests[static_cast<size_t>(b)];
    if (dwLow < 0)
      tests.push_back("(ow_t{{I}} + dw_" + bs + " >= 0)");
    if (dwHigh >= pix)
      tests.push_back("(ow_t{{I}} + dw_" + bs + " < IN_W)");
    anyColumnTest = anyColumnTest || !tests.empty();
    if ((b + 1) * t.blockK > kwc)
      tests.push_back("jk_" + bs);
    if (ragged)
      tests.push_back("m_mask_t{{I}}");
  }
  for (int64_t i = 0; i < t.blocks; ++i) {
    const std::string s = "_" + std::to_string(i);
    head += "    r0" + s + " = (pid_m * BLOCKS + " + std::to_string(i) + ") * BLOCK_M\n    rm" + s + " = r0" +
            s + " + tl.arange(0, BLOCK_M)\n";
    // Block i's pixel index tile from block 0's: one add.
    head += i == 0 ? "    rm_t_0 = (r0_0 + (tl.arange(0, BLOCK_M)[:, None] + zero_k[None, :])) * PIX\n"
                   : "    rm_t" + s + " = rm_t_0 + " + std::to_string(i * t.blockM * pix) + "\n";
    if (anyColumnTest)
      masks += "        ow_t" + s + " = rm_t" + s + " % IN_W\n";
    if (ragged)
      masks += "        m_mask_t" + s + " = rm_t" + s + " < PIXELS\n";
    masks += "        pp" + s + " = " +
             (c.pixels == c.inH * c.inW ? "rm_t" + s : "rm_t" + s + " % (IN_H * IN_W)") + "\n";
    for (int64_t b = 0; b < t.blocksJ; ++b) {
      const std::string bs = std::to_string(b);
      const auto &tests = columnTests[static_cast<size_t>(b)];
      if (!tests.empty()) {
        std::string conjunction;
        for (const std::string &test : tests)
          conjunction += (conjunction.empty() ? "" : " & ") + instantiate(test, {{"I", s}});
        masks += "        w_ok_" + bs + s + " = " + conjunction + "\n";
      }
      head += "    acc" + s + "_" + bs + " = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)\n";
    }
    head += "    x_rows" + s + " = x_base + rm" + s + "[:, None] * (PIX * SX_W)\n";
    masks += "        h_ok" + s + " = (pp" + s + " >= -" + dh + " * IN_W) & (pp" + s + " < (IN_H - " + dh +
             ") * IN_W)\n";
    for (int64_t b = 0; b < t.blocksJ; ++b) {
      const std::string bs = std::to_string(b), x = "x" + s + "_" + bs, mk = "mk" + s + "_" + bs;
      const bool columns = !columnTests[static_cast<size_t>(b)].empty();
      if (columns)
        masks += "        " + mk + " = h_ok" + s + " & w_ok_" + bs + s + "\n";
      loads += "        " + x + " = tl.load(x_rows" + s + " + (x_dh + j_" + bs +
               "[None, :] * SX_C), mask=" + (columns ? mk : "h_ok" + s) + ", other=0.0)" + cast + "\n";
      dots += "        acc" + s + "_" + bs + " += tl.dot(" + x + ", w_" + bs +
              ", allow_tf32=False, out_dtype=tl.float32)\n";
    }
    tail += sumTree("acc" + s + "_", static_cast<size_t>(t.blocksJ));
    tail += "    if HAS_BIAS:\n        acc = acc + bias[None, :]\n";
    std::string mask;
    if (ragged)
      mask = "((r0" + s + " + (tl.arange(0, BLOCK_M)[:, None] + zero_n[None, :])) * PIX < PIXELS)";
    if (columnsRagged)
      mask += std::string(mask.empty() ? "" : " & ") + "n_mask[None, :]";
    const std::string columns = pix == 1 ? "channel[None, :] * SY_C" : "rn[None, :] * SY_C";
    tail += "    tl.store(y_ptr + rm" + s + "[:, None] * (PIX * SY_W) + " + columns + ", acc" +
            (mask.empty() ? "" : ", mask=" + mask) + ")\n";
  }
  return head + loop + masks + loads + dots + tail;
}

} // namespace

KernelLaunch rowConvLaunch(const RowConvShape &c, const RowConvTiles &t, const std::string &types,
                           const std::function<void(LaunchBuilder &)> &pointers,
                           const std::function<void(LaunchBuilder &)> &epilogue) {
  const std::string cast = c.sameOperandType ? "" : ".to(tl.float32)";
  const int64_t pix = t.pixelsPerRow;
  const int64_t step = c.kernelH * t.blocksJ;
  // The same-size form and the strided pixels share the pipelined body.
  const bool pipelined = !c.strided || t.boxRows;
  // Column n of the product: channel oc of pixel p = n // COUT_G when PIX > 1.
  const std::string columns =
      pix == 1 ? "    oc = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)\n    n_mask = oc < COUT_G"
               : "    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)\n    n_mask = rn < PIX * COUT_G\n"
                 "    oc = rn % COUT_G";
  const std::string body = t.interleaved     ? interleavedBody(c, t, cast)
                           : t.kernelRowLoop ? kernelRowLoopBody(c, t, cast)
                           : pipelined       ? sameSizeBody(c, t, cast)
                                             : stridedBody(c, t, cast);
  // The body bakes in the geometry (the kernel rows' input offsets, which
  // masks exist), which the constexprs do not all carry: kernels are cached
  // by name, so the name ends in a digest of the body. (Without it, two
  // layers of one bundle with the same types, steps and PIX but other
  // channel counts, widths or padding ran each other's program.)
  const std::string name = std::string(c.strided ? "npusim_conv_strided_rows_" : "npusim_conv_rows_") +
                           types + "_k" + std::to_string(step) +
                           (pix > 1 || t.boxRows ? "_p" + std::to_string(pix) : "") +
                           (t.interleaved ? "_i" : "") + "_" + textDigest(body);
  LaunchBuilder launch(name,
                       instantiate(pipelined ? kRowConvSource : kStridedRowConvSource,
                                   {{"NAME", name},
                                    {"X", c.xType},
                                    {"W", c.wType},
                                    {"BIAS", c.biasType},
                                    {"Y", c.yType},
                                    {"BODY", body},
                                    {"STRIDED_PARAMS", pipelined && c.strided ? kStridedPixelParams : ""},
                                    {"COLUMNS", columns}}));
  pointers(launch);
  const int64_t nBlocks = ceilDiv(c.coutG, t.blockN);
  if (!pipelined)
    launch.constant("IN_H", c.inH)
        .constant("IN_W", c.inW)
        .constant("OUT_H", c.outH)
        .constant("OUT_W", c.outW)
        .constant("ROWS", t.rows)
        .constant("ROWS_TOTAL", c.pixels / c.outW);
  else
    launch.constant("PIXELS", c.pixels).constant("IN_H", c.inH).constant("IN_W", c.inW);
  launch.constant("CIN_G", c.cinG).constant("COUT_G", c.coutG);
  if (!pipelined)
    launch.constant("N_BLOCKS", nBlocks);
  launch.constant("KWC", ((pix - 1) * c.strideW + c.kernelW) * c.cinG);
  if (!pipelined)
    launch.constant("STRIDE_H", c.strideH).constant("STRIDE_W", c.strideW);
  launch.constant("DIL_W", c.dilationW).constant("PAD_W", c.padW);
  if (!pipelined)
    launch.constant("SX_N", c.sxN).constant("SX_H", c.sxH);
  launch.constant("SX_C", c.sxC).constant("SX_W", c.sxW).constant("SW_O", c.swO).constant("SW_I", c.swI);
  epilogue(launch);
  launch.constant("W_K_CONTIGUOUS", c.swI == 1 && c.swO != 1 ? 1 : 0);
  if (pipelined) {
    launch.constant("PIX", pix)
        .constant("KW_CIN", c.kernelW * c.cinG)
        .constant("PIX_STEP", c.strideW * c.cinG)
        .constant("BLOCKS", t.blocks);
    if (c.strided)
      launch.constant("OUT_H", c.outH)
          .constant("STRIDE_H", c.strideH)
          .constant("STRIDE_W", c.strideW)
          .constant("SX_N", c.sxN)
          .constant("SX_H", c.sxH)
          .constant("BMC", t.columnGroups)
          .constant("R2", t.rowsPerBlock)
          .constant("COLS", c.outW / pix);
  }
  launch.constant("BLOCK_M", t.blockM).constant("BLOCK_N", t.blockN).constant("BLOCK_K", t.blockK);
  if (c.strided && pipelined)
    launch.grid(c.pixels / c.outW / (t.rowsPerBlock * t.blocks), 1, 1);
  else if (c.strided)
    launch.grid(ceilDiv(c.pixels / c.outW, t.rows), ceilDiv(c.outW, t.blockM), c.groups * nBlocks);
  else
    launch.grid(ceilDiv(c.pixels / pix, t.blockM * t.blocks), ceilDiv(pix * c.coutG, t.blockN), c.groups);
  return launch.build();
}

} // namespace npusim::library::detail
