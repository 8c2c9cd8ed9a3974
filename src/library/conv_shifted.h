#pragma once
// The shifted-tap convolution (internal): a stride-1 convolution whose
// output keeps the input's height and width, with the pixels of input and
// output one strided axis each, as an implicit GEMM over K = (kernel row,
// kernel column, input-channel block) whose every A tile is one affine DMA:
// output pixel m of a tap (dh, dw) reads input pixel m + dh W + dw, masked
// where that leaves the image. The K blocks run through two alternating
// buffers and each C tile as two halves, one per systolic array, as in the
// pipelined GEMM (docs/library-kernels.md, "Shifted-tap convolutions").
#include "library/gemm_pipelined.h"

#include <optional>
#include <string>

namespace npusim::library::detail {

struct ShiftedConvShape {
  int64_t pixels = 0, height = 0, width = 0; // output pixels (batch x height x width), image size
  int64_t images = 1;                           // the batch
  // The pixels are one strided axis only within each image (NCHW with a
  // batch above one): image i starts at i SX_N of the input and i SY_N of
  // the output, and the kernels run the images apart (the shifted-tap
  // kernel on its grid's third axis, the window kernel one image per block).
  bool perImage = false;
  int64_t sxN = 0, syN = 0;                     // image strides
  int64_t cin = 0, cout = 0, kernelH = 1, kernelW = 1;
  int64_t padH = 0, padW = 0, dilationH = 1, dilationW = 1;
  int64_t sxP = 0, sxC = 0;                     // input: pixel and channel strides
  int64_t swO = 0, swI = 0, swH = 0, swW = 0;   // weights
  int64_t syP = 0, syC = 0;                     // output
  int64_t element = 4;                          // operand bytes
  bool hasBias = false;
  std::string xType, wType, biasType, yType;    // Triton element types
};

/// The launch (kernel text, grid, constants) for `tiles`; `bind` adds the
/// four pointers (input, weights, bias or output, output).
std::string shiftedConvSource(const std::string &name, const ShiftedConvShape &s, const PipelinedTiles &t);
std::string shiftedConvVariant(const ShiftedConvShape &s, const PipelinedTiles &t);

/// The pixels of the kernel's M axis: one image's with `perImage`, else all.
int64_t shiftedConvPixels(const ShiftedConvShape &s);

/// The cheapest tiles by the pipelined GEMM's estimate among those that fit
/// half a lane's bank with the pixel index tiles; nothing when none fits or
/// the machine has one array.
std::optional<PipelinedTiles> chooseShiftedConvTiles(const ShiftedConvShape &s, const MachineShape &machine);

} // namespace npusim::library::detail
