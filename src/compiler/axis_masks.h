#pragma once
// Whether a kernel stays correct for a block size that does not divide the
// numel of one of its axes (docs/compiler.md "Block-size search").
#include "ir/ir.h"

#include <cstdint>
#include <string_view>

namespace npusim::compiler {

/// One tiled axis of a lowered kernel: its index is
/// `program_id(programIdAxis) * block + arange(0, block)` (possibly expanded
/// and broadcast), and it has `numel` elements, passed as the scalar argument
/// `numelArgument` or folded into a constant.
struct TiledAxis {
  int64_t block = 0;
  std::string_view numelArgument;
  int64_t numel = 0;
  int programIdAxis = 0;
};

/// True only when it is proven that every load, store and atomic whose
/// address depends on the axis's arange carries a mask that is false wherever
/// the axis index is >= numel: the mask is an `and` chain containing
/// `index < numel` along the same dimension as the address's dependence.
/// Anything else (an unmasked access, an index through a reshape or permute,
/// a reduction along the axis's dimension, a dot or assert of values that
/// depend on it) gives false.
bool maskedAlongAxis(const ir::Function &function, const TiledAxis &axis);

} // namespace npusim::compiler
