// Every strictness error of the simulator, with the context its message must
// carry: the kernel, the program instance, the instruction (position, opcode,
// TileIR source line) and the address or tile.
#include "functional/sim_harness.h"

#include <gtest/gtest.h>

namespace npusim::functionaltest {
namespace {

void expectError(const std::function<void()> &run, const std::vector<std::string> &fragments) {
  try {
    run();
    FAIL() << "no error";
  } catch (const core::RuntimeError &e) {
    const std::string what = e.what();
    ::testing::Test::RecordProperty("message", what);
    for (const std::string &f : fragments)
      EXPECT_NE(what.find(f), std::string::npos) << "missing '" << f << "' in: " << what;
  }
}

core::SourceLocation at(int line) { return core::SourceLocation{"kernel.py", line, 9}; }

TEST(Errors, DmaElementOutsideItsBuffer) {
  ProgramBuilder b("oob", 4, 256);
  const int ax = b.pointerArgument("x", DType::Float32);
  const int pid = b.reg("pid", DType::Int32), off = b.reg("off", DType::Int32);
  const int t = b.tile("t", DType::Float32, {8});
  b.programId(pid, 0);
  b.scalarOp(off, ProgramBuilder::function(ElementOp::Mul, DType::Int32), {reg(pid), imm(8)});
  b.dmaLoad(t, ax, reg(off), {imm(1)}).loc = at(12);
  Harness h;
  h.pointer(h.buffer("x", DType::Float32, std::vector<float>(13, 0.0f)));
  const npu::Program p = b.finish();
  expectError([&] { h.run(p, {2, 1, 1}); },
              {"kernel 'oob'", "program instance 1", "instruction #2 dma.load", "kernel.py:12:9",
               "element 5 of the data tile", "buffer 'x'", "element offset 13", "address 0x1034"});
}

TEST(Errors, MaskedOffElementsMayPointAnywhere) {
  ProgramBuilder b("masked", 4, 256);
  const int ax = b.pointerArgument("x", DType::Float32);
  const int t = b.tile("t", DType::Float32, {8}), m = b.tile("m", DType::Bool, {8});
  const int k = b.tile("k", DType::Int32, {8}), lim = b.tile("lim", DType::Int32, {8});
  b.iota(k, imm(0), {imm(1)});
  b.splat(lim, imm(3));
  b.elementwise(m, ProgramBuilder::compare(core::CmpPredicate::Lt, DType::Int32), {k, lim});
  b.dmaLoad(t, ax, imm(0), {imm(1000)}, m, immf(0.0)); // elements 1, 2 active at 1000, 2000
  Harness h;
  h.pointer(h.buffer("x", DType::Float32, std::vector<float>(2001, 1.0f)));
  EXPECT_NO_THROW(h.run(b.finish()));
}

TEST(Errors, VectorOperandsOnDifferentLanes) {
  ProgramBuilder b("lanes", 4, 256);
  const int a = b.tile("a", DType::Float32, {4, 4}, 0), c = b.tile("c", DType::Float32, {4, 4}, 1),
            d = b.tile("d", DType::Float32, {4, 4}, 0);
  b.splat(a, immf(1.0));
  b.splat(c, immf(2.0));
  b.elementwise(d, ProgramBuilder::function(ElementOp::Add, DType::Float32), {a, c}).loc = at(20);
  Harness h;
  const npu::Program p = b.finish();
  expectError([&] { h.run(p); }, {"kernel 'lanes'", "program instance 0", "instruction #2 v.elementwise",
                                  "kernel.py:20:9", "element -> lane mapping", "source t1"});
}

TEST(Errors, ScratchpadOverflowOfAnOddInstance) {
  ProgramBuilder b("overflow", 4, 256);
  const int t = b.tileAt("t", DType::Float32, {16}, 0, 200); // bytes [200, 216) of the bank
  b.splat(t, immf(1.0));
  npu::Program p = b.finish();
  p.instanceBankStride = 48; // odd instances at [248, 264): past the 256-byte bank
  Harness h;
  EXPECT_NO_THROW(h.run(p, {1, 1, 1}));
  expectError([&] { h.run(p, {2, 1, 1}); },
              {"kernel 'overflow'", "program instance 1", "instruction #0 v.splat", "scratchpad overflow",
               "[248, 264)", "256-byte bank"});
  // With two cores, instance 1 is the first on its core and stays in place.
  functional::RunOptions twoCores;
  twoCores.numCores = 2;
  EXPECT_NO_THROW(h.run(p, {2, 1, 1}, twoCores));
}

TEST(Errors, ReadingBytesNothingWroteInThisInstance) {
  // Instance 0 loads t; instance 1 skips the load but reads t: it must not see
  // what instance 0 left behind.
  ProgramBuilder b("unwritten", 4, 256);
  const int ax = b.pointerArgument("x", DType::Float32), ao = b.pointerArgument("out", DType::Float32);
  const int pid = b.reg("pid", DType::Int32), first = b.reg("first", DType::Bool);
  const int t = b.tile("t", DType::Float32, {8});
  b.programId(pid, 0);
  b.scalarOp(first, ProgramBuilder::compare(core::CmpPredicate::Eq, DType::Int32), {reg(pid), imm(0)});
  b.beginIf(reg(first));
  b.dmaLoad(t, ax, imm(0), {imm(1)});
  b.endIf();
  b.dmaStore(t, ao, imm(0), {imm(1)}).loc = at(30);
  Harness h;
  h.pointer(h.buffer("x", DType::Float32, std::vector<float>(8, 1.0f)));
  h.pointer(h.buffer("out", DType::Float32, std::vector<float>(8, 0.0f)));
  const npu::Program p = b.finish();
  EXPECT_NO_THROW(h.run(p, {1, 1, 1}));
  expectError([&] { h.run(p, {2, 1, 1}); },
              {"kernel 'unwritten'", "program instance 1", "instruction #4 dma.store", "kernel.py:30:9",
               "nothing wrote", "tile t0 (t) element 0", "lane 0"});
}

TEST(Errors, CompleteTilesAreForgottenBetweenInstances) {
  // t (10 elements on 4 lanes: 3, 3, 2, 2 per lane) is loaded, then doubled
  // in place three times: the typed loop reads a complete operand into a
  // complete result. Instance 1 skips the load: its first doubling must not
  // take t for complete because instance 0's was.
  ProgramBuilder b("doubled", 4, 256);
  const int ax = b.pointerArgument("x", DType::Float32), ao = b.pointerArgument("out", DType::Float32);
  const int pid = b.reg("pid", DType::Int32), first = b.reg("first", DType::Bool);
  const int t = b.tile("t", DType::Float32, {10});
  b.programId(pid, 0);
  b.scalarOp(first, ProgramBuilder::compare(core::CmpPredicate::Eq, DType::Int32), {reg(pid), imm(0)});
  b.beginIf(reg(first));
  b.dmaLoad(t, ax, imm(0), {imm(1)});
  b.endIf();
  for (int k = 0; k < 3; ++k)
    b.elementwise(t, ProgramBuilder::function(ElementOp::Add, DType::Float32), {t, t}).loc = at(40 + k);
  b.dmaStore(t, ao, imm(0), {imm(1)});
  std::vector<float> x(10);
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = static_cast<float>(i) - 3.5f;
  Harness h;
  h.pointer(h.buffer("x", DType::Float32, x));
  const int bo = h.buffer("out", DType::Float32, std::vector<float>(10, 0.0f));
  h.pointer(bo);
  const npu::Program p = b.finish();
  h.run(p, {1, 1, 1});
  const std::vector<float> out = h.contents<float>(bo);
  for (size_t i = 0; i < x.size(); ++i)
    EXPECT_EQ(out[i], 8.0f * x[i]) << i; // three doublings, exact in fp32
  expectError(
      [&] {
        h.run(p, {2, 1, 1});
      },
      {"program instance 1", "kernel.py:40:9", "nothing wrote", "tile t0 (t)"});
}

TEST(Errors, ReductionsOnTheWrongUnit) {
  ProgramBuilder b("units", 4, 256);
  const int x = b.tile("x", DType::Float32, {8, 2}, 0), r = b.tile("r", DType::Float32, {2}, 0);
  b.splat(x, immf(1.0));
  npu::Program base = b.finish();
  Harness h;
  {
    npu::Program p = base;
    npu::Instruction in;
    in.opcode = Opcode::VReduce;
    in.axis = 0;
    in.srcs = {x};
    in.dsts = {r};
    in.loc = at(40);
    p.body.push_back(in);
    expectError([&] { h.run(p); }, {"kernel 'units'", "instruction #1 v.reduce", "kernel.py:40:9", "lane axis",
                                    "cross-lane unit"});
  }
  {
    npu::Program p = base;
    npu::Instruction in;
    in.opcode = Opcode::XScan;
    in.axis = 1;
    in.srcs = {x};
    in.dsts = {x};
    p.body.push_back(in);
    expectError([&] { h.run(p); }, {"instruction #1 x.scan", "not the lane axis"});
  }
  {
    npu::Program p = base;
    npu::Instruction in;
    in.opcode = Opcode::VSort;
    in.axis = 0;
    in.srcs = {x};
    in.dsts = {x};
    p.body.push_back(in);
    expectError([&] { h.run(p); }, {"instruction #1 v.sort", "lane axis"});
  }
}

TEST(Errors, FailingAssert) {
  ProgramBuilder b("asserts", 4, 256);
  const int k = b.tile("k", DType::Int32, {8}), lim = b.tile("lim", DType::Int32, {8}),
            ok = b.tile("ok", DType::Bool, {8});
  b.iota(k, imm(0), {imm(1)});
  b.splat(lim, imm(6));
  b.elementwise(ok, ProgramBuilder::compare(core::CmpPredicate::Lt, DType::Int32), {k, lim});
  b.assertTrue(ok, "index out of range").loc = at(50);
  Harness h;
  const npu::Program p = b.finish();
  expectError([&] { h.run(p); }, {"kernel 'asserts'", "instruction #3 assert", "kernel.py:50:9",
                                  "assertion failed at element 6", "index out of range"});
}

TEST(Errors, LaunchMismatches) {
  ProgramBuilder b("launch", 4, 256);
  b.pointerArgument("x", DType::Float32);
  const npu::Program p = b.finish();
  Harness h;
  expectError([&] { h.run(p); }, {"kernel 'launch'", "passes 0 arguments, the program takes 1"});
  h.pointer(7);
  expectError([&] { h.run(p); }, {"pointer argument 'x' has no buffer"});
}

TEST(Errors, ScalarLoadOutsideItsBuffer) {
  ProgramBuilder b("scalar_oob", 4, 256);
  const int ax = b.pointerArgument("x", DType::Int64);
  const int r = b.reg("r", DType::Int64);
  b.scalarLoad(r, ax, imm(-1)).loc = at(60);
  Harness h;
  h.pointer(h.buffer("x", DType::Int64, std::vector<int64_t>(4, 0)), 0);
  const npu::Program p = b.finish();
  expectError([&] { h.run(p); }, {"kernel 'scalar_oob'", "instruction #0 s.load", "kernel.py:60:9",
                                  "the scalar access is outside buffer 'x'", "element offset -1"});
}

TEST(Errors, GatherWithoutValues) {
  // The index tile comes from DRAM: an address-only run does not have it.
  ProgramBuilder b("gather", 4, 256);
  const int ax = b.pointerArgument("x", DType::Float32), ai = b.pointerArgument("idx", DType::Int32);
  const int ti = b.tile("i", DType::Int32, {4}), tv = b.tile("v", DType::Float32, {4});
  b.dmaLoad(ti, ai, imm(0), {imm(1)});
  b.dmaGather(tv, ax, imm(0), ti);
  Harness h;
  h.pointer(h.buffer("x", DType::Float32, std::vector<float>(8, 1.0f)));
  h.pointer(h.buffer("idx", DType::Int32, std::vector<int32_t>{0, 2, 4, 6}));
  const npu::Program p = b.finish();
  functional::RunOptions options;
  options.computeValues = false;
  expectError([&] { h.run(p, {}, options); }, {"instruction #1 dma.load", "needs computeValues"});
  EXPECT_NO_THROW(h.run(p));
}

TEST(Errors, RunawayLoop) {
  ProgramBuilder b("loop", 4, 256);
  const int i = b.reg("i", DType::Int32);
  b.beginLoop(i, imm(0), imm(1000), imm(1));
  b.endLoop();
  functional::RunOptions options;
  options.maxLoopIterations = 10;
  Harness h;
  const npu::Program p = b.finish();
  expectError([&] { h.run(p, {}, options); }, {"instruction #0 loop", "more than 10 iterations"});
}

} // namespace
} // namespace npusim::functionaltest
