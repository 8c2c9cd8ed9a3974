// TileLayout arithmetic and element placement against the formula written out
// by hand: lane = i[laneAxis] % lanes, slot = (i[laneAxis] / lanes) * rest + rowMajor(other axes).
#include "npu/layout.h"
#include "npu/program.h"

#include <gtest/gtest.h>

namespace npusim::npu {
namespace {

TEST(TileLayout, SlotsAndBytesPerLane) {
  const TileLayout a{DType::Float32, {10, 3}, 0};
  // ceil(10 / 4) = 3 lane groups of rest = 3 slots each.
  EXPECT_EQ(a.numElements(), 30);
  EXPECT_EQ(a.slotsPerLane(4), 9);
  EXPECT_EQ(a.bytesPerLane(4), 36);
  const TileLayout b{DType::Float16, {10, 3}, 1};
  // lane axis of 3 over 4 lanes: one group of rest = 10.
  EXPECT_EQ(b.slotsPerLane(4), 10);
  EXPECT_EQ(b.bytesPerLane(4), 20);
  const TileLayout c{DType::Bool, {7}, 0};
  EXPECT_EQ(c.slotsPerLane(8), 1);
  EXPECT_EQ(c.bytesPerLane(8), 1);
}

TEST(TileLayout, LaneSlotOfFollowsTheFormula) {
  const TileLayout l{DType::Int32, {3, 10, 2}, 1};
  // i = (2, 9, 1), lanes 4: lane 9 % 4 = 1; rest = 3 * 2 = 6; rowMajor(2, 1) over (3, 2) = 5;
  // slot = (9 / 4) * 6 + 5 = 17.
  const LaneSlot p = laneSlotOf(l, 4, {2, 9, 1});
  EXPECT_EQ(p.lane, 1);
  EXPECT_EQ(p.slot, 17);
}

TEST(TileLayout, ElementPositionsAreDistinctAndInsideTheTile) {
  const TileLayout l{DType::Float32, {5, 6}, 1};
  const int lanes = 4;
  const int64_t bank = 1000;
  std::vector<int64_t> pos;
  elementPositions(l, lanes, bank, pos);
  ASSERT_EQ(pos.size(), 30u);
  for (int64_t i0 = 0; i0 < 5; ++i0)
    for (int64_t i1 = 0; i1 < 6; ++i1) {
      // lane = i1 % 4, slot = (i1 / 4) * 5 + i0 (rest = the 5 rows)
      const int64_t expected = (i1 % 4) * bank + ((i1 / 4) * 5 + i0) * 4;
      EXPECT_EQ(pos[static_cast<size_t>(i0 * 6 + i1)], expected) << i0 << "," << i1;
    }
}

TEST(TileLayout, ElementPositionsWithTheLaneAxisInTheMiddle) {
  const TileLayout l{DType::Int16, {3, 5, 2}, 1};
  const int64_t bank = 100;
  std::vector<int64_t> pos;
  elementPositions(l, 2, bank, pos);
  ASSERT_EQ(pos.size(), 30u);
  for (int64_t i0 = 0; i0 < 3; ++i0)
    for (int64_t i1 = 0; i1 < 5; ++i1)
      for (int64_t i2 = 0; i2 < 2; ++i2) {
        // lane = i1 % 2; rest = 3 * 2 slots per lane index, slot = (i1 / 2) * 6 + i0 * 2 + i2; 2 bytes each
        const int64_t expected = (i1 % 2) * bank + ((i1 / 2) * 6 + i0 * 2 + i2) * 2;
        EXPECT_EQ(pos[static_cast<size_t>((i0 * 5 + i1) * 2 + i2)], expected) << i0 << "," << i1 << "," << i2;
      }
}

TEST(TileLayout, SameLaneMapping) {
  EXPECT_TRUE(sameLaneMapping({DType::Float32, {4, 8}, 1}, {DType::Int8, {4, 8}, 1}));
  EXPECT_FALSE(sameLaneMapping({DType::Float32, {4, 8}, 1}, {DType::Float32, {4, 8}, 0}));
  EXPECT_FALSE(sameLaneMapping({DType::Float32, {4, 8}, 1}, {DType::Float32, {8, 4}, 1}));
  EXPECT_TRUE(sameLaneMapping({DType::Float32, {1, 1, 8}, 0}, {DType::Float32, {1, 1, 8}, 1}));
}

TEST(Names, OpcodesUnitsAndTileSets) {
  EXPECT_EQ(name(Opcode::VElementwise), "v.elementwise");
  EXPECT_EQ(name(Opcode::XRelayout), "x.relayout");
  EXPECT_EQ(unitOf(Opcode::DmaAtomic), Unit::Dma);
  EXPECT_EQ(unitOf(Opcode::XSort), Unit::CrossLane);
  EXPECT_EQ(unitOf(Opcode::MMatmul), Unit::Systolic);
  EXPECT_EQ(unitOf(Opcode::SLoad), Unit::Scalar);
  EXPECT_EQ(name(Unit::CrossLane), "cross-lane");
  Instruction mm;
  mm.opcode = Opcode::MMatmul;
  mm.dsts = {3};
  mm.srcs = {1};
  EXPECT_EQ(readTiles(mm), (std::vector<int>{1, 3}));
  mm.accumulate = false;
  EXPECT_EQ(readTiles(mm), (std::vector<int>{1}));
  EXPECT_EQ(writtenTiles(mm), (std::vector<int>{3}));
  Instruction st;
  st.opcode = Opcode::DmaStore;
  st.srcs = {0};
  st.dma.indexTile = 4;
  st.dma.maskTile = 5;
  EXPECT_EQ(readTiles(st), (std::vector<int>{0, 4, 5}));
  EXPECT_TRUE(writtenTiles(st).empty());
}

} // namespace
} // namespace npusim::npu
