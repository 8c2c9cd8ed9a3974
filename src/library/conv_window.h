#pragma once
// The window convolution (internal): a stride-1 convolution that keeps the
// image's size, one group, as the shifted-tap GEMM but with
// the input read once: per block of whole images and block of input channels
// one DMA loads the block's pixels plus the taps' span (a halo), and every
// kernel tap's A operand is a window of that tile (a slice, docs/compiler.md
// "Slices"), masked where the tap leaves the image. The weights of the
// program's output channels stay resident (docs/library-kernels.md, "Window
// convolutions").
#include "library/conv_shifted.h"

#include <optional>
#include <string>

namespace npusim::library::detail {

struct WindowConvTiles {
  int64_t images = 1;      // whole images per block (so every block has the same tap masks)
  int64_t blockM = 0;      // images x height x width output pixels
  int64_t blockN = 0;      // output channels per program
  int64_t blockK = 0;      // input channels per halo tile (at most the lanes: a window needs one lane group)
  int64_t halo = 0;        // halo tile rows: a power of two >= blockM + the taps' span
  int64_t blocks = 1;      // blocks per program (even with pairs)
  bool pairs = false;      // blocks in pairs through two halo buffers (else one per loop iteration)
  bool weightRows = false; // a kernel row's weights one DMA (runs of KW x CIN), each tap's a window of it
  double cycles = 0;       // the estimate for the whole call
};

/// The kernel text; `bind` adds the pointers (input, weights, bias or
/// output, output) and windowConvConstants the constexprs.
std::string windowConvSource(const std::string &name, const ShiftedConvShape &s, const WindowConvTiles &t);

/// The cheapest tiles by the estimate among those whose tiles fit half a
/// lane's bank; nothing when the layer's images are too large for a block or
/// the machine's lanes are fewer than 16.
std::optional<WindowConvTiles> chooseWindowConvTiles(const ShiftedConvShape &s, const MachineShape &machine);

} // namespace npusim::library::detail
