// The text dump (stable, byte for byte), validate's errors and timingNeedsValues.
#include "npu/builder.h"
#include "npu/execution.h"

#include <gtest/gtest.h>

namespace npusim::npu {
namespace {

using core::DType;

Program addProgram() {
  ProgramBuilder b("add_kernel", 4, 256);
  const int x = b.pointerArgument("in_ptr0", DType::Float32);
  const int y = b.pointerArgument("in_ptr1", DType::Float32);
  const int out = b.pointerArgument("out_ptr0", DType::Float32);
  const int pid = b.reg("pid", DType::Int32);
  const int off = b.reg("offset", DType::Int32);
  const int t1 = b.tile("x", DType::Float32, {8});
  const int t2 = b.tile("y", DType::Float32, {8});
  const int t3 = b.tile("sum", DType::Float32, {8});
  b.programId(pid, 0);
  b.scalarOp(off, ProgramBuilder::function(ElementOp::Mul, DType::Int32),
             {ScalarOperand::ofRegister(pid), ScalarOperand::immediate(8)});
  b.dmaLoad(t1, x, ScalarOperand::ofRegister(off), {ScalarOperand::immediate(1)});
  b.dmaLoad(t2, y, ScalarOperand::ofRegister(off), {ScalarOperand::immediate(1)});
  b.elementwise(t3, ProgramBuilder::function(ElementOp::Add, DType::Float32), {t1, t2});
  b.dmaStore(t3, out, ScalarOperand::ofRegister(off), {ScalarOperand::immediate(1)});
  Program p = b.finish();
  p.blockSizes = {{"XBLOCK", 8}};
  return p;
}

TEST(Print, StableDump) {
  const std::string expected = R"(npu.program @add_kernel lanes=4 bank=256 spad_used=72 instance_stride=0
blocks: XBLOCK=8
arguments:
  a0 in_ptr0: *fp32
  a1 in_ptr1: *fp32
  a2 out_ptr0: *fp32
registers:
  r0 pid: i32
  r1 offset: i32
tiles:
  t0 x: fp32[8] lane_axis=0 bank[0x0,0x8)
  t1 y: fp32[8] lane_axis=0 bank[0x20,0x28)
  t2 sum: fp32[8] lane_axis=0 bank[0x40,0x48)
body:
  r0 = s.program_id 0
  r1 = s.mul i32 r0, 8
  dma.load t0 <- a0[r0 + 1*i0]   ; writes t0[0x0,0x8)
  dma.load t1 <- a1[r1 + 1*i0]   ; writes t1[0x20,0x28)
  v.add fp32 t2 <- t0, t1   ; reads t0[0x0,0x8) t1[0x20,0x28) writes t2[0x40,0x48)
  dma.store a2[r1 + 1*i0] <- t2   ; reads t2[0x40,0x48)
)";
  Program p = addProgram();
  p.body[2].dma.base = ScalarOperand::ofRegister(0); // distinguishes the two loads in the dump
  EXPECT_EQ(print(p), expected);
  EXPECT_EQ(print(p), print(p));
}

TEST(Validate, AcceptsTheBuilderProgram) { EXPECT_NO_THROW(validate(addProgram())); }

void expectInvalid(Program p, const std::string &fragment) {
  try {
    validate(p);
    FAIL() << "no error, expected: " << fragment;
  } catch (const core::CompileError &e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("add_kernel"), std::string::npos) << what;
    EXPECT_NE(what.find(fragment), std::string::npos) << what;
  }
}

TEST(Validate, Errors) {
  {
    Program p = addProgram();
    p.tiles[2].bankOffset = 250; // 8 bytes per lane from 250 > 256
    expectInvalid(p, "outside the bank of 256 bytes");
  }
  {
    Program p = addProgram();
    p.body[4].srcs = {0, 7};
    expectInvalid(p, "instruction #4 v.elementwise: source tile index 7 out of range");
  }
  {
    Program p = addProgram();
    p.tiles[1].layout.shape = {4};
    p.tiles[1].layout.laneAxis = 0;
    expectInvalid(p, "differ in shape");
  }
  {
    Program p = addProgram();
    p.body[1].scalars[0] = ScalarOperand::ofRegister(9);
    expectInvalid(p, "scalar operand register 9 out of range");
  }
  {
    Program p = addProgram();
    p.body[2].dma.argument = 5;
    expectInvalid(p, "argument 5 is not a pointer argument");
  }
  {
    Program p = addProgram();
    p.body[2].dma.strides.clear();
    expectInvalid(p, "one stride per data tile axis");
  }
  {
    Program p = addProgram();
    p.tiles[2].layout.dtype = DType::Int32;
    expectInvalid(p, "destination dtype differs");
  }
  {
    Program p = addProgram();
    Instruction r;
    r.opcode = Opcode::VReduce;
    r.axis = 0;
    r.srcs = {0};
    r.dsts = {1};
    p.body.push_back(r);
    expectInvalid(p, "reduces along the lane axis");
  }
}

TEST(TimingNeedsValues, StridedProgramDoesNot) {
  std::string reason;
  EXPECT_FALSE(timingNeedsValues(addProgram(), &reason));
}

TEST(TimingNeedsValues, GatherAndLoadedBoundsDo) {
  ProgramBuilder b("gather", 4, 256);
  const int x = b.pointerArgument("x", DType::Float32);
  const int idx = b.pointerArgument("idx", DType::Int64);
  const int ti = b.tile("i", DType::Int64, {8});
  const int tv = b.tile("v", DType::Float32, {8});
  b.dmaLoad(ti, idx, ScalarOperand::immediate(0), {ScalarOperand::immediate(1)});
  b.dmaGather(tv, x, ScalarOperand::immediate(0), ti);
  std::string reason;
  std::vector<int> arguments;
  const Program loadedIndex = b.finish();
  EXPECT_TRUE(timingNeedsValues(loadedIndex, &reason));
  // The index tile comes from DRAM: the inputs must hold their real values, and
  // only the index argument's.
  EXPECT_EQ(timingValueNeed(loadedIndex, &reason, &arguments), ValueNeed::LoadedValues);
  EXPECT_NE(reason.find("addresses DRAM with a value loaded from DRAM"), std::string::npos) << reason;
  EXPECT_EQ(arguments, std::vector<int>{idx});

  // An index tile computed on the vector unit from constants: an address-only
  // run computes it, so nothing needs values.
  ProgramBuilder own("own", 4, 256);
  const int y = own.pointerArgument("y", DType::Float32);
  const int oi = own.tile("i", DType::Int64, {8});
  const int ov = own.tile("v", DType::Float32, {8});
  own.splat(oi, ScalarOperand::immediate(3));
  own.dmaGather(ov, y, ScalarOperand::immediate(0), oi);
  EXPECT_EQ(timingValueNeed(own.finish(), &reason, &arguments), ValueNeed::None);
  EXPECT_TRUE(arguments.empty());

  // The same kind of index, but made on the systolic unit (which an
  // address-only run skips): the program must compute values, whatever its
  // inputs hold.
  ProgramBuilder systolic("systolic", 4, 256);
  const int z = systolic.pointerArgument("z", DType::Float32);
  const int sa = systolic.tile("a", DType::Int64, {4, 4});
  const int sw = systolic.tile("w", DType::Int64, {4, 4});
  const int si = systolic.tile("i", DType::Int64, {4, 4});
  const int sv = systolic.tile("v", DType::Float32, {4, 4});
  systolic.splat(sa, ScalarOperand::immediate(1));
  systolic.splat(sw, ScalarOperand::immediate(1));
  systolic.loadWeights(0, sw, 0, 0);
  systolic.matmul(0, si, sa, 0, 0, false);
  systolic.dmaGather(sv, z, ScalarOperand::immediate(0), si);
  EXPECT_EQ(timingValueNeed(systolic.finish(), &reason, &arguments), ValueNeed::OwnValues);
  EXPECT_NE(reason.find("gathers"), std::string::npos) << reason;
  EXPECT_TRUE(arguments.empty());

  ProgramBuilder c("bounds", 4, 256);
  const int n = c.pointerArgument("n", DType::Int32);
  const int r0 = c.reg("count", DType::Int32), r1 = c.reg("doubled", DType::Int32), r2 = c.reg("i", DType::Int32);
  c.scalarLoad(r0, n, ScalarOperand::immediate(0));
  c.scalarOp(r1, ProgramBuilder::function(ElementOp::Add, DType::Int32),
             {ScalarOperand::ofRegister(r0), ScalarOperand::ofRegister(r0)});
  c.beginLoop(r2, ScalarOperand::immediate(0), ScalarOperand::ofRegister(r1), ScalarOperand::immediate(1));
  c.endLoop();
  EXPECT_TRUE(timingNeedsValues(c.finish(), &reason));
  EXPECT_NE(reason.find("steers control flow"), std::string::npos) << reason;
}

} // namespace
} // namespace npusim::npu
