// Unit costs as pure functions (docs/timing.md, "Unit costs"). Machine: 128
// lanes, 256-bit lane vectors, default latencies (simple 2, multiply 3,
// divide 12, transcendental 16), cross-lane 4 cycles per stage.
#include "machine/latencies.h"
#include "machine/unit_costs.h"
#include "timing/timing_support.h"

#include <gtest/gtest.h>

namespace npusim::timing {
namespace {

using namespace machine;

using namespace testing;
using core::DType;
using npu::ElementOp;
using npu::Opcode;

TEST(MachineUnitCosts, LatencyClassesOfElementFunctions) {
  npu::ElementFunction function;
  function.op = ElementOp::Add;
  EXPECT_EQ(vectorClassOf(function), VectorClass::Simple);
  function.op = ElementOp::Mul;
  EXPECT_EQ(vectorClassOf(function), VectorClass::Multiply);
  function.op = ElementOp::Div;
  EXPECT_EQ(vectorClassOf(function), VectorClass::Divide);
  function.op = ElementOp::Math;
  function.mathFn = core::MathFn::Exp;
  EXPECT_EQ(vectorClassOf(function), VectorClass::Transcendental);
  function.mathFn = core::MathFn::Rsqrt;
  EXPECT_EQ(vectorClassOf(function), VectorClass::Divide);
  function.mathFn = core::MathFn::Floor;
  EXPECT_EQ(vectorClassOf(function), VectorClass::Simple);
  function.mathFn = core::MathFn::Fma;
  EXPECT_EQ(vectorClassOf(function), VectorClass::Multiply);
}

TEST(MachineUnitCosts, UnitsOfOpcodes) {
  npu::Instruction instruction;
  instruction.opcode = Opcode::Loop;
  EXPECT_EQ(unitKindOf(instruction), UnitKind::Scalar);
  instruction.opcode = Opcode::DmaAtomic;
  EXPECT_EQ(unitKindOf(instruction), UnitKind::Dma);
  instruction.opcode = Opcode::XRelayout;
  EXPECT_EQ(unitKindOf(instruction), UnitKind::CrossLane);
  instruction.opcode = Opcode::Assert;
  EXPECT_EQ(unitKindOf(instruction), UnitKind::Scalar);
  instruction.srcs = {0};
  EXPECT_EQ(unitKindOf(instruction), UnitKind::Vector);
}

TEST(MachineUnitCosts, CeilLog2) {
  EXPECT_EQ(ceilLog2(1), 0);
  EXPECT_EQ(ceilLog2(2), 1);
  EXPECT_EQ(ceilLog2(3), 2);
  EXPECT_EQ(ceilLog2(128), 7);
  EXPECT_EQ(ceilLog2(129), 8);
}

TEST(MachineUnitCosts, ElementwiseCostCountsPassesPerLane) {
  const auto config = roundConfig();
  ProgramBuilder builder(128);
  // [64, 256] fp32 with the lane axis of extent 64: half the lanes idle,
  // 256 slots per lane, 8 per cycle = 32 passes.
  const int x = builder.tile("x", {64, 256}, DType::Float32, 0);
  const int y = builder.tile("y", {64, 256}, DType::Float32, 2048);
  const npu::Instruction mul = vector(ElementOp::Mul, y, {x, x});
  const UnitCost cost = costOf(mul, builder.program, config);
  EXPECT_EQ(cost.occupancy, 32);
  EXPECT_EQ(cost.latency, 3 + 32 - 1);
}

TEST(MachineUnitCosts, WidestDtypeSetsTheVectorWidth) {
  const auto config = roundConfig();
  ProgramBuilder builder(128);
  // fp16 -> fp32 cast of [128, 256]: 4-byte elements, 8 per lane per cycle:
  // 256 / 8 = 32 passes (16 if the fp16 source set the width).
  const int half = builder.tile("h", {128, 256}, DType::Float16, 0);
  const int full = builder.tile("f", {128, 256}, DType::Float32, 1024);
  npu::Instruction cast = vector(ElementOp::Cast, full, {half});
  EXPECT_EQ(vectorElementBytes(cast, builder.program), 4);
  EXPECT_EQ(costOf(cast, builder.program, config).occupancy, 32);
  // fp16 + fp16: 16 per lane per cycle, 16 passes.
  const npu::Instruction add = vector(ElementOp::Add, half, {half, half});
  EXPECT_EQ(costOf(add, builder.program, config).occupancy, 16);
}

TEST(MachineUnitCosts, ReductionIsATreeOverTheAxis) {
  const auto config = roundConfig();
  ProgramBuilder builder(128);
  const int x = builder.tile("x", {128, 64}, DType::Float32, 0);
  const int y = builder.tile("y", {128, 1}, DType::Float32, 1024);
  npu::Instruction reduce;
  reduce.opcode = Opcode::VReduce;
  reduce.srcs = {x};
  reduce.dsts = {y};
  reduce.axis = 1;
  reduce.reduceKind = core::ReduceKind::Max;
  // 64 source slots / 8 = 8 passes; log2(64) = 6 levels of simple (2): 12.
  UnitCost cost = costOf(reduce, builder.program, config);
  EXPECT_EQ(cost.occupancy, 8);
  EXPECT_EQ(cost.latency, 12 + 8 - 1);
  // A scan runs all 6 levels over the whole source: 48 passes.
  reduce.opcode = Opcode::VScan;
  reduce.dsts = {x};
  cost = costOf(reduce, builder.program, config);
  EXPECT_EQ(cost.occupancy, 48);
  EXPECT_EQ(cost.latency, 12 + 48 - 1);
}

TEST(MachineUnitCosts, CrossLaneReductionCrossesTheButterfly) {
  const auto config = roundConfig();
  ProgramBuilder builder(128);
  const int x = builder.tile("x", {128, 16}, DType::Float32, 0);
  const int y = builder.tile("y", {1, 16}, DType::Float32, 1024);
  npu::Instruction reduce;
  reduce.opcode = Opcode::XReduce;
  reduce.srcs = {x};
  reduce.dsts = {y};
  // 16 slots per lane enter one per cycle; 7 stages of 4 cycles: 28 + 16 - 1.
  const UnitCost cost = costOf(reduce, builder.program, config);
  EXPECT_EQ(cost.occupancy, 16);
  EXPECT_EQ(cost.latency, 28 + 16 - 1);
}

TEST(MachineUnitCosts, MatmulRowsAndUsefulMacs) {
  const auto config = roundConfig();
  ProgramBuilder builder(128);
  // A[100, 200] @ B[200, 160]: block k = 1 covers K 128..199 (72), block n = 1
  // covers N 128..159 (32): 100 x 72 x 32 useful MACs.
  const int a = builder.tile("a", {100, 200}, DType::Float32, 0);
  const int c = builder.tile("c", {100, 160}, DType::Float32, 4096);
  const npu::Instruction mm = matmul(0, c, a, 1, 1, true);
  EXPECT_EQ(matmulRows(mm, builder.program), 100);
  EXPECT_EQ(usefulMacs(mm, builder.program, 128), 100 * 72 * 32);
  const UnitCost cost = costOf(mm, builder.program, config);
  EXPECT_EQ(cost.occupancy, 100);
  EXPECT_EQ(cost.latency, 100 + 2 * 128 - 2);
}

// The DRAM round trip of the tpuv3-like preset (configs/tpuv3-like.yaml,
// configs/dram/hbm2-tpuv3.yaml): NoC 10 cycles each way, nRCD 13 + nCL 13 +
// nBL 2 DRAM cycles of round(1e6 / 940) = 1064 ps at 940 MHz:
// 20 + 28 * 1064e-12 * 940e6 = 20 + 28.00448 core cycles.
TEST(MachineLatencies, DramRoundTripOfTheTpuv3Preset) {
  const config::HardwareConfig tpuv3 = config::loadConfig("tpuv3-like");
  EXPECT_EQ(tpuv3.dram.clockPeriodPs(), 1064);
  EXPECT_NEAR(dramRoundTripCycles(tpuv3), 20.0 + 28 * 1064e-12 * 940e6, 1e-9);
  // Peak: 16 channels x 64 bytes (4 x 128 bits) per 2 cycles of 1064 ps.
  EXPECT_NEAR(tpuv3.dram.peakBytesPerSecond(), 16 * 64 / (2 * 1064e-12), 1e-3);
  // A pass over a 128-wide array: weight load 128, fill and drain 254.
  EXPECT_EQ(arrayPassOverheadCycles(128), 382);
  EXPECT_EQ(weightLoadCycles(8) + fillDrainCycles(8), 3 * 8 - 2);
}

} // namespace
} // namespace npusim::timing
