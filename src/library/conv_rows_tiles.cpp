// The tiles of the row convolutions (conv_rows.cpp): the candidates'
// scratchpad fit, the cost estimate that ranks them, and the choice between
// one and several output pixels per tile row (docs/library-kernels.md, "Row
// convolutions").
#include "library/conv_rows.h"

#include "library/plan_support.h"

#include <algorithm>
#include <optional>
#include <vector>

namespace npusim::library::detail {

namespace {

int64_t slotsOf(int64_t extent, int64_t lanes) {
  return ceilDiv(extent, lanes);
}

} // namespace

namespace {

/// At most this many row blocks per program: the body is unrolled.
constexpr int64_t kMaxRowBlocks = 16;
/// At most this many steps (kernel rows x blocks of j) per row block.
constexpr int64_t kMaxRowSteps = 24;

double rowConvCycles(const RowConvShape &c, const RowConvTiles &t, const MachineShape &machine);

/// The input tiles a program of `blocks` interleaved blocks loads: the
/// distinct i * STRIDE_H + kh * DIL_H over its blocks i and kernel rows kh.
int64_t distinctInputTiles(const RowConvShape &c, int64_t blocks) {
  std::vector<bool> seen(static_cast<size_t>((blocks - 1) * c.strideH + (c.kernelH - 1) * c.dilationH + 1));
  int64_t count = 0;
  for (int64_t i = 0; i < blocks; ++i)
    for (int64_t kh = 0; kh < c.kernelH; ++kh) {
      auto q = seen.begin() + i * c.strideH + kh * c.dilationH;
      count += *q ? 0 : 1;
      *q = true;
    }
  return count;
}

/// Whether candidate `a` (estimated `aCycles`) ranks before `b`: a kernel-row
/// loop before the unrolled blocks, whose estimate does not see their
/// scratchpad stalls (the stem's unrolled PIX = 2 tiles, estimated 37.8 k
/// cycles, ran 86.8 k; the loop with PIX = 4, estimated 38.9 k, 54.3 k),
/// then the cheaper estimate (`orEqual`: the later of equals).
bool ranksBefore(const RowConvTiles &a, double aCycles, const std::optional<RowConvTiles> &b, double bCycles,
                 bool orEqual) {
  if (!b || a.kernelRowLoop != b->kernelRowLoop)
    return !b || a.kernelRowLoop;
  return orEqual ? aCycles <= bCycles : aCycles < bCycles;
}

/// The tiles for `pix` output pixels per row (always 1 in the strided form).
std::optional<RowConvTiles> rowConvTilesFor(const RowConvShape &c, const MachineShape &machine, int64_t pix,
                                            bool boxRows) {
  const int64_t lanes = machine.lanes;
  const int64_t kwc = ((pix - 1) * c.strideW + c.kernelW) * c.cinG;
  // One block of j wider than the array when it covers all of KWC and adds
  // no fold (ceil(KWC / lanes) K blocks, as with blocks of the array's
  // width); otherwise blocks of the array's width. (Several blocks wider
  // than the array gave NPU values that disagree with the reference on
  // 14 x 14 x 256; not yet understood.)
  const int64_t folds = slotsOf(kwc, lanes);
  int64_t blockK = std::max<int64_t>(16, std::min(laneBlock(machine), nextPowerOfTwo(kwc)));
  // (Banded weights, PIX > 1, stay within the array's width: a [BLOCK_N,
  // BLOCK_K] box access cut along BLOCK_N keeps BLOCK_K on the lanes only
  // up to the lane count.)
  for (int64_t b = 2 * blockK; pix == 1 && b <= 4 * laneBlock(machine) && b <= nextPowerOfTwo(kwc); b *= 2)
    if (ceilDiv(kwc, b) * slotsOf(b, lanes) == folds && b >= kwc)
      blockK = b;
  const int64_t blocksJ = ceilDiv(kwc, blockK);
  const int64_t steps = c.kernelH * blocksJ;
  // A row block's tiles of every step stay live until its dots: past 24
  // steps (3x3 at 512 channels, 36) the layers keep the gather kernel (with
  // all blocks' tiles live, past 9 steps ran slower: tpuv3-like 14 x 14 x 256
  // 23.9 k -> 27.5 k cycles; pipelined, 18 steps take 24.9 k). The kernel-row
  // loop holds one kernel row's steps, but at 7 x 7 x 512 its weight rows of
  // BLOCK_K = 128 (512-byte runs) took 49.4 k cycles against the gather's
  // 33.7 k with 2 KB runs.
  if (steps > kMaxRowSteps)
    return std::nullopt;
  const int64_t blockN = blockFor(pix * c.coutG, 16, 2 * laneBlock(machine));
  const int64_t budget = tileBudgetBytes(machine) / lanes; // half a lane's bank
  const int64_t kSlots = slotsOf(blockK, lanes), nSlots = slotsOf(blockN, lanes);
  auto bytesPerLane = [&](int64_t blockM) {
    // Every step's input tile and weights (turned in place: a free view),
    // live together since all loads come before the dots; the masks of the
    // kernel rows, of the blocks of j and of the store, three int32 pixel
    // index tiles; two accumulators and their sum (measured with
    // compiler::compile: 21,728 bytes for 56 x 56 x 64 at BLOCK_M = 512,
    // this estimate 38,912).
    const int64_t a = steps * kSlots * blockM * c.element;
    const int64_t w = steps * kSlots * blockN * c.element;
    const int64_t masks = (c.kernelH + blocksJ + 1) * kSlots * blockM + 3 * kSlots * blockM * 4;
    const int64_t acc = 3 * nSlots * blockM * 4;
    return a + w + masks + acc;
  };
  const int64_t cap =
      std::min<int64_t>(blockFor(c.strided ? c.outW : c.pixels / pix, 16, int64_t{1} << 20), 1024);
  // The pipelined body keeps live: every step's weights, two row blocks'
  // input tiles (block i's until its dots, block i + 1's arriving), one
  // block's products and their sum, and two blocks' masks (measured with
  // compiler::compile: 31,808 bytes for 56 x 56 x 64 at PIX = 4, BLOCK_M =
  // 128; this estimate 32,384). Among the block heights that fit, the
  // cheapest by rowConvCycles.
  auto pipelinedBytes = [&](int64_t blockM) {
    return steps * kSlots * blockN * c.element + 2 * steps * kSlots * blockM * c.element +
           (steps + 1) * nSlots * blockM * 4 + 2 * (steps + c.kernelH + blocksJ) * kSlots * blockM;
  };
  // The kernel-row loop keeps live: one kernel row's weights, every row
  // block's input tiles, masks and three index tiles, one accumulator per
  // row block and block of j, and a block's sum after the loop (measured
  // with compiler::compile: 40,640 bytes for 56 x 56 x 64 at PIX = 4,
  // BLOCK_M = 128, 7 blocks; this estimate 52,352).
  auto loopBytes = [&](int64_t blockM, int64_t blocks) {
    const int64_t chains = blocks * blocksJ;
    return blocksJ * kSlots * blockN * c.element + chains * kSlots * blockM * c.element +
           chains * nSlots * blockM * 4 + (2 * chains + blocks) * kSlots * blockM +
           3 * blocks * kSlots * blockM * 4 + 2 * nSlots * blockM * 4;
  };
  // Whether a kernel row's rows streamed through the arrays outlast a dot's
  // fill and drain and a DRAM round trip: then the kernel-row loop (its
  // loads of a kernel row wait for the dots of the row before on the same
  // tiles; unet's small layers, one block of one step or 16 blocks of 16
  // rows, ran 0.7 k to 2.7 k cycles slower in the loop). A kernel one row
  // high has nothing to overlap in the loop (a 1x1 stride-2 layer: 3.1 k ->
  // 4.3 k cycles).
  auto rowDotsOutlast = [&](int64_t blockM, int64_t blocks, int64_t margin) {
    const double rowDots = static_cast<double>(blocks * blocksJ * kSlots * nSlots * blockM) /
                           std::max(1, std::min(machine.systolicArrays, 2));
    return rowDots >= margin * (machine.arrayPassOverheadCycles() + machine.dramLatencyCycles);
  };
  auto loopPays = [&](int64_t blockM, int64_t blocks, int64_t margin = 1) {
    return c.kernelH > 1 && loopBytes(blockM, blocks) <= budget && rowDotsOutlast(blockM, blocks, margin);
  };
  if (c.strided && boxRows) {
    // Strided pixels: R2 output rows (a power of two dividing OUT_H, so that
    // a block lies in one image) of BMC = next_pow2(OUT_W / PIX) column
    // groups per block, BLOCKS a divisor of the blocks (no block past the
    // end); the same live tiles and cost model as the same-size form.
    const int64_t columnGroups = nextPowerOfTwo(c.outW / pix), outRows = c.pixels / c.outW;
    std::optional<RowConvTiles> best, bestInterleaved;
    double bestCycles = 0, bestInterleavedCycles = 0;
    // Interleaved blocks keep live (at most): every step's weights, every
    // distinct input tile with its mask, one accumulator per block and
    // block of j, the column masks, index tiles and a block's sum.
    auto interleavedBytes = [&](int64_t blockM, int64_t blocks) {
      const int64_t tiles = distinctInputTiles(c, blocks) * blocksJ;
      return steps * kSlots * blockN * c.element + tiles * kSlots * blockM * (c.element + 1) +
             blocks * blocksJ * nSlots * blockM * 4 + (blocksJ + 4) * kSlots * blockM * 4 +
             2 * nSlots * blockM * 4;
    };
    for (int64_t r2 = 1; r2 * columnGroups <= 1024; r2 *= 2) {
      const int64_t m = r2 * columnGroups;
      if (c.outH % r2 != 0 || m < 16)
        continue;
      const int64_t total = outRows / r2;
      int64_t blocks = std::min(total, kMaxRowBlocks);
      while (total % blocks != 0)
        --blocks;
      // The kernel-row loop with the most blocks that fit (a divisor of the
      // blocks), else the unrolled blocks.
      auto fitting = [&](int64_t most) {
        int64_t b = std::min(blocks, most);
        while (b > 1 && (total % b != 0 || loopBytes(m, b) > budget))
          --b;
        return b;
      };
      int64_t loopBlocks = fitting(blocks);
      const int64_t spread = fitting(ceilDiv(total, std::max(1, machine.cores)));
      if (spread < loopBlocks && loopPays(m, spread, 2))
        loopBlocks = spread;
      const bool loop = loopPays(m, loopBlocks);
      if (!loop && pipelinedBytes(m) > budget)
        continue;
      RowConvTiles tiles{m, blockN, blockK, blocksJ, 1, pix, loop ? loopBlocks : blocks};
      tiles.rowsPerBlock = r2, tiles.columnGroups = columnGroups, tiles.boxRows = true;
      tiles.kernelRowLoop = loop;
      const double cycles = rowConvCycles(c, tiles, machine);
      if (ranksBefore(tiles, cycles, best, bestCycles, true))
        best = tiles, bestCycles = cycles;
      // Interleaved blocks (a kernel several rows high): a program's BLOCKS
      // blocks cover BLOCKS * R2 consecutive output rows of one image (at
      // least one program per core), and blocks and kernel rows that read
      // the same input rows share their tile; as for the kernel-row loop,
      // where a kernel row's dots outlast a fill, drain and round trip
      // (unet's layers of 2 blocks of 32 or 64 rows ran 0.1 k to 0.7 k
      // cycles slower), and in blocks of at most the array's width in rows
      // (56 x 56 x 64 at PIX = 2: 14 blocks of 128 rows 9.0 k cycles, 7 of
      // 256 rows 16.7 k, whose input tiles the cross-lane unit relaid).
      const bool interleaves = c.kernelH > 1 && m <= lanes;
      for (int64_t g = 2; interleaves && g <= kMaxRowBlocks && g * r2 <= c.outH; ++g) {
        if (c.outH % (g * r2) != 0 || outRows / (g * r2) < machine.cores || interleavedBytes(m, g) > budget ||
            !rowDotsOutlast(m, g, 1))
          continue;
        RowConvTiles shared{m, blockN, blockK, blocksJ, 1, pix, g};
        shared.rowsPerBlock = r2, shared.columnGroups = columnGroups, shared.boxRows = true;
        shared.interleaved = true, shared.kernelRowLoop = true;
        const double sharedCycles = rowConvCycles(c, shared, machine);
        if (!bestInterleaved || sharedCycles <= bestInterleavedCycles)
          bestInterleaved = shared, bestInterleavedCycles = sharedCycles;
      }
    }
    // The interleaved blocks read the input about once where the others
    // read it once per kernel row: they rank by the estimate alone.
    if (bestInterleaved && (!best || bestInterleavedCycles < bestCycles))
      return bestInterleaved;
    return best;
  }

  if (!c.strided) {
    std::optional<RowConvTiles> best;
    double bestCycles = 0;
    const int64_t rowsA = c.pixels / pix;
    auto consider = [&](const RowConvTiles &tiles) {
      const double cycles = rowConvCycles(c, tiles, machine);
      if (ranksBefore(tiles, cycles, best, bestCycles, true))
        best = tiles, bestCycles = cycles;
    };
    for (int64_t m = 16; m <= cap; m *= 2) {
      const int64_t total = ceilDiv(rowsA, m);
      // The kernel-row loop, with as many row blocks as fit; on several
      // cores at least one program per core where a kernel row's dots of a
      // program still outlast twice the fill, drain and round trip (2 cores:
      // 56 x 56 x 64 23.1 k -> 16.5 k cycles; 14 x 14 x 256, one block per
      // program, 15.8 k -> 20.5 k, each program reading all the weights).
      auto fitting = [&](int64_t most) {
        int64_t b = std::min(total, most);
        while (b > 1 && loopBytes(m, b) > budget)
          --b;
        return b;
      };
      int64_t blocks = fitting(kMaxRowBlocks);
      const int64_t spread = fitting(std::min(kMaxRowBlocks, ceilDiv(total, std::max(1, machine.cores))));
      if (spread < blocks && loopPays(m, spread, 2))
        blocks = spread;
      if (loopPays(m, blocks)) {
        RowConvTiles tiles{m, blockN, blockK, blocksJ, 1, pix, ceilDiv(total, ceilDiv(total, blocks))};
        tiles.kernelRowLoop = true;
        consider(tiles);
        continue;
      }
      if (pipelinedBytes(m) > budget)
        continue;
      const int64_t programs = ceilDiv(total, kMaxRowBlocks);
      consider(RowConvTiles{m, blockN, blockK, blocksJ, 1, pix, ceilDiv(total, programs)});
    }
    return best;
  }
  int64_t blockM = 0;
  for (int64_t m = 16; m <= cap; m *= 2)
    if (bytesPerLane(m) <= budget)
      blockM = m;
  if (blockM == 0)
    return std::nullopt;
  // A strided dot streams BLOCK_M rows but costs at least an array width of
  // cycles: on 14-column rows (BLOCK_M = 16) the measured layer ran slower
  // than the gather kernel (tpuv3-like: 28 x 28 x 128 -> 256 stride 2,
  // 16.9 k -> 33.4 k cycles; 28 columns gained, 22.9 k -> 18.6 k).
  if (c.strided && blockM < 32)
    return std::nullopt;
  // The strided form covers up to 8 output rows per program, its weights
  // loaded once for all of them; every row's tiles are live together.
  // Its live tiles: the weights, the distinct input tiles and their masks
  // (rows of one image share the tiles of the same input row), the column
  // masks and index tiles, per row one tile per dot and the sum. (Counting
  // the partial sums too, 2 S per row, held the stem to 8 rows: 82.4 k
  // cycles against 67.9 k at 16 rows, which compile within the bank; 28
  // rows against the whole bank took 159 k.)
  auto stridedBytesPerLane = [&](int64_t rows) {
    const bool shared = c.outH % rows == 0;
    const int64_t inputRows =
        shared ? std::min(rows * c.kernelH, (rows - 1) * c.strideH + (c.kernelH - 1) * c.dilationH + 1)
               : rows * c.kernelH;
    const int64_t tiles = inputRows * blocksJ;
    return steps * kSlots * blockN * c.element + tiles * kSlots * blockM * (c.element + 1) +
           (blocksJ + 3 * 4) * kSlots * blockM + rows * (steps + 1) * nSlots * blockM * 4;
  };
  // Rows that divide OUT_H share tiles; otherwise a power of two.
  int64_t rows = 1;
  if (c.strided) {
    for (int64_t r = std::min<int64_t>(16, c.outH); r > 1 && rows == 1; --r)
      if (c.outH % r == 0 && stridedBytesPerLane(r) <= budget)
        rows = r;
    if (rows == 1)
      while (rows < 16 && 2 * rows <= c.pixels / c.outW && stridedBytesPerLane(2 * rows) <= budget)
        rows *= 2;
  }
  return RowConvTiles{blockM, blockN, blockK, blocksJ, rows, pix};
}

/// Core cycles of the same-size form by the mapping search's model
/// (docs/library-kernels.md, "Row convolutions"): the arrays' folds, each
/// max(BLOCK_M, L) cycles on one of the arrays, against the DRAM bytes at
/// the peak rate (the input tiles' real rows, every program's weights, the
/// output once).
double rowConvCycles(const RowConvShape &c, const RowConvTiles &t, const MachineShape &machine) {
  const int64_t lanes = machine.lanes;
  // Tile rows: all of them real in the same-size form; in the strided one
  // COLS of every BMC.
  const int64_t realRows = c.pixels / t.pixelsPerRow;
  const int64_t rowsA = c.strided ? c.pixels / c.outW * t.columnGroups : realRows;
  const int64_t nBlocks = ceilDiv(t.pixelsPerRow * c.coutG, t.blockN);
  const int64_t programs = ceilDiv(ceilDiv(rowsA, t.blockM), t.blocks) * nBlocks * c.groups;
  const int64_t rowBlocks = programs * t.blocks; // the last program's blocks past the end included
  const int64_t steps = c.kernelH * t.blocksJ;
  const int64_t kSlots = slotsOf(t.blockK, lanes), nSlots = slotsOf(t.blockN, lanes);
  const double arrays =
      static_cast<double>(rowBlocks * steps * kSlots * nSlots * std::max<int64_t>(t.blockM, lanes)) /
      std::max(1, std::min(machine.systolicArrays, 2));
  const int64_t kwc = ((t.pixelsPerRow - 1) * c.strideW + c.kernelW) * c.cinG;
  // DRAM at half its peak: these DMAs of 0.5 to 2 KB rows reach about 200
  // GB/s of tpuv3-like's 481 (measured on 56 x 56 x 64 and 28 x 28 x 128).
  const double rate = machine.dramBytesPerCycle / 2;
  // Interleaved blocks read each of a program's distinct input tiles once
  // (R2 * COLS rows each) instead of every block's kernel rows.
  const double inputRows = t.interleaved ? static_cast<double>(realRows) *
                                               static_cast<double>(distinctInputTiles(c, t.blocks)) /
                                               static_cast<double>(t.blocks)
                                         : static_cast<double>(realRows * c.kernelH);
  const double bytes =
      static_cast<double>(nBlocks * c.groups) * inputRows * static_cast<double>(kwc * c.element) +
      static_cast<double>(programs * steps * t.blockK * t.blockN * c.element +
                          c.pixels * c.coutG * c.groups * 4);
  // Per row block: a zero tile per dot, the sum and the bias on the
  // products; the masks and their conjunctions on the operand tiles.
  const double vector =
      static_cast<double>(rowBlocks * t.blockM *
                          ((2 * steps + 1) * nSlots + (c.kernelH + 2 * t.blocksJ + steps + 4) * kSlots)) /
      std::max(1, machine.vlenBits / 32);
  // The pipeline's ends: a program's first step's operands arrive before its
  // first dot, its last block's dots and sum come after its last load;
  // each block's last dot fills and drains the array before its sum.
  const double firstBlock =
      static_cast<double>((t.blockK * t.blockN + t.blockM * t.blockK) * c.element) / rate;
  const double lastBlock = static_cast<double>(steps * kSlots * nSlots * std::max<int64_t>(t.blockM, lanes)) /
                           std::max(1, std::min(machine.systolicArrays, 2));
  // The same-size form's programs spread over the cores, each with its
  // share of the DRAM's rate in `rate`. (Counted for the strided pixels too,
  // it took 16-row blocks for ResNet's 3x3 stride-2 layer at 56 x 56 on 2
  // cores: 10.1 k -> 20.1 k cycles.)
  const double cores =
      c.strided ? 1.0 : static_cast<double>(std::min<int64_t>(programs, std::max(1, machine.cores)));
  return (std::max({arrays, bytes / rate, vector}) +
          static_cast<double>(programs) * (firstBlock + lastBlock + machine.arrayPassOverheadCycles() + machine.dramLatencyCycles) +
          static_cast<double>(rowBlocks * 2 * lanes)) /
         cores;
}

/// Core cycles of the strided form with one pixel per row by the same
/// model: one dot per output row and step, each at least an array width of
/// rows; every output row's tiles from DRAM.
double stridedRowConvCycles(const RowConvShape &c, const RowConvTiles &t, const MachineShape &machine) {
  const int64_t lanes = machine.lanes, outRows = c.pixels / c.outW, steps = c.kernelH * t.blocksJ;
  const double arrays =
      static_cast<double>(outRows * ceilDiv(c.outW, t.blockM) * steps * slotsOf(t.blockK, lanes) *
                          slotsOf(t.blockN, lanes) * std::max<int64_t>(t.blockM, lanes)) /
      std::max(1, std::min(machine.systolicArrays, 2));
  const double bytes = static_cast<double>(outRows * c.kernelH * c.outW * c.kernelW * c.cinG * c.element +
                                           c.pixels * c.coutG * 4);
  return std::max(arrays, bytes / (machine.dramBytesPerCycle / 2));
}

} // namespace

namespace {

/// The tiles of `c` in its own form (same-size or strided).
std::optional<RowConvTiles> chooseRowConvTilesOf(const RowConvShape &c, const MachineShape &machine) {
  std::optional<RowConvTiles> best = rowConvTilesFor(c, machine, 1, false);
  if (c.dilationW != 1 || c.sxW != c.cinG * c.sxC || c.groups != 1 || c.syW != c.coutG * c.syC)
    return best;
  // Several output pixels per row (of one image row, the output's width a
  // multiple of PIX) while their output channels fill at most two array
  // widths, when the estimate beats one pixel per row's.
  std::optional<RowConvTiles> packed;
  double packedCycles = 0;
  // The strided form's box rows serve one column per row too (blocks of
  // several output rows, where its rows are short).
  for (int64_t pix = c.strided ? 1 : 2; pix <= (c.strided ? 8 : 4); pix *= 2) {
    if (c.outW % pix != 0 || pix * c.coutG > 2 * laneBlock(machine))
      continue;
    const auto tiles = rowConvTilesFor(c, machine, pix, c.strided);
    if (!tiles)
      continue;
    const double cycles = rowConvCycles(c, *tiles, machine);
    if (ranksBefore(*tiles, cycles, packed, packedCycles, false))
      packed = tiles, packedCycles = cycles;
  }
  if (packed && (!best || ranksBefore(*packed, packedCycles, best,
                                      c.strided ? stridedRowConvCycles(c, *best, machine)
                                                : rowConvCycles(c, *best, machine),
                                      false)))
    return packed;
  return best;
}

} // namespace

std::optional<RowConvTiles> chooseRowConvTiles(RowConvShape &shape, const MachineShape &machine) {
  std::optional<RowConvTiles> sameSize = chooseRowConvTilesOf(shape, machine);
  if (shape.strided || !sameSize)
    return sameSize;
  // A same-size convolution is a strided one of stride 1 too, whose
  // interleaved blocks read each input row about once.
  RowConvShape strided = shape;
  strided.strided = true;
  const std::optional<RowConvTiles> interleaved = chooseRowConvTilesOf(strided, machine);
  if (interleaved && interleaved->interleaved &&
      rowConvCycles(strided, *interleaved, machine) < rowConvCycles(shape, *sameSize, machine)) {
    shape.strided = true;
    return interleaved;
  }
  return sameSize;
}

} // namespace npusim::library::detail
