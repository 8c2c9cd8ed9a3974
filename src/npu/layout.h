#pragma once
// Element placement helpers on top of TileLayout (program.h), shared by the
// simulators and the compiler's checks.
#include "npu/program.h"

#include <cstdint>
#include <vector>

namespace npusim::npu {

struct LaneSlot {
  int lane = 0;
  int64_t slot = 0;
};

/// Where the element at multi-index `index` lives (program.h's formula).
LaneSlot laneSlotOf(const TileLayout &layout, int lanes, const std::vector<int64_t> &index);

/// For every element in row-major order, its byte position in a scratchpad
/// stored bank after bank (lane * bankBytes + slot * elementBytes), relative to
/// the tile's bankOffset.
void elementPositions(const TileLayout &layout, int lanes, int64_t bankBytes, std::vector<int64_t> &out);

/// True when every element has the same lane in both layouts (the condition
/// for a vector-unit instruction's operands): equal shapes and lane axes, or
/// lane axes of extent 1 on both sides (everything in lane 0).
bool sameLaneMapping(const TileLayout &a, const TileLayout &b);

} // namespace npusim::npu
