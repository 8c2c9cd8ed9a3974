#pragma once
// Row convolutions (internal): stride-1 convolutions whose output has the
// input's height and width, over inputs whose pixels form one strided axis
// and whose kernel columns and channels form another (channels-last, no
// groups split inside a pixel), so that each kernel row's im2col tile is one
// strided DMA from DRAM (docs/library-kernels.md, "Row convolutions").
#include "library/plan_support.h"

#include <functional>
#include <optional>
#include <string_view>

namespace npusim::library::detail {

/// The convolution kernels' bias epilogue: the output channels of the
/// program's group, the bias added to the fp32 accumulator.
constexpr std::string_view kConvBiasEpilogue = R"TRITON(    channel = group * COUT_G + oc
    if HAS_BIAS:
        bias = tl.load(bias_ptr + channel * S_BIAS, mask=n_mask, other=0.0).to(tl.float32)
        acc = acc + bias[None, :])TRITON";

struct RowConvShape {
  int64_t pixels = 0, inH = 0, inW = 0, cinG = 0, coutG = 0, groups = 1;
  int64_t kernelH = 1, kernelW = 1, padH = 0, padW = 0, dilationH = 1, dilationW = 1;
  int64_t sxC = 1, sxW = 1, swO = 1, swI = 1, swH = 1; // element strides of input and weight
  int64_t syC = 1, syW = 1;                            // element strides of the output
  int64_t element = 4;                                 // bytes of a dot operand
  // Strided rows: any stride and output size; a program covers a block of
  // one output row, so the input pixels need not be one axis (sxN, sxH).
  bool strided = false;
  int64_t outH = 0, outW = 0, strideH = 1, strideW = 1, sxN = 0, sxH = 0;
  bool sameOperandType = true;
  std::string xType, wType, biasType, yType; // Triton element types
};

struct RowConvTiles {
  int64_t blockM = 16, blockN = 16, blockK = 16;
  int64_t blocksJ = 1;      // blocks of (kernel column, channel) per kernel row
  int64_t rows = 1;         // output rows per program (strided form)
  int64_t pixelsPerRow = 1; // output pixels per tile row (same-size form): PIX
  int64_t blocks = 1;       // row blocks per program (same-size form, strided pixels): BLOCKS
  // Strided form with PIX > 1 ("strided pixels", the same pipelined body):
  // a row block is `rowsPerBlock` output rows of `columnGroups` groups of PIX
  // output columns (BLOCK_M = their product).
  int64_t rowsPerBlock = 1, columnGroups = 1; // R2, BMC
  bool boxRows = false; // the strided form through the pipelined body (also with PIX = 1)
  // Strided pixels with interleaved row blocks: block i of a program covers
  // output rows oh0 + i + BLOCKS * k (k < R2), so that the blocks' kernel
  // rows read the same input rows and share their tiles: a program loads
  // each input row about once instead of once per kernel row. (These set
  // kernelRowLoop too: their kernel rows run in a loop of one iteration,
  // and they rank with the loops.)
  bool interleaved = false;
  // The same-size form as a loop over kernel rows (accumulators carried),
  // where a kernel row's dots outlast a dot's latency and a DMA round trip;
  // otherwise the row blocks unrolled and software-pipelined.
  bool kernelRowLoop = false;
};

/// The tiles of a row convolution, or nothing when even the smallest do not
/// fit half a lane's bank. A same-size shape (`strided` false) becomes the
/// strided form (`strided` set) when its interleaved row blocks win.
std::optional<RowConvTiles> chooseRowConvTiles(RowConvShape &shape, const MachineShape &machine);

/// The launch (the strided form when `shape.strided`); `pointers` adds x, w,
/// bias and y, `epilogue` the constexprs
/// S_BIAS, SY_N, SY_C, SY_H, SY_W and HAS_BIAS.
KernelLaunch rowConvLaunch(const RowConvShape &shape, const RowConvTiles &tiles, const std::string &types,
                           const std::function<void(LaunchBuilder &)> &pointers,
                           const std::function<void(LaunchBuilder &)> &epilogue);

} // namespace npusim::library::detail
