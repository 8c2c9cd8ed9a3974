// The simulator on hand-built programs against plain C++ loops: pointwise
// kernels with masked tails, the trace, elementwise numerics, control flow.
#include "functional/sim_harness.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <limits>

namespace npusim::functionaltest {
namespace {

/// out[i] = x[i] + y[i] for i < n, blocks of `block` elements, lanes 4.
npu::Program maskedAdd(int64_t block, int lanes = 4, int64_t bankBytes = 1024) {
  ProgramBuilder b("masked_add", lanes, bankBytes);
  const int x = b.pointerArgument("x", DType::Float32);
  const int y = b.pointerArgument("y", DType::Float32);
  const int out = b.pointerArgument("out", DType::Float32);
  b.scalarArgument("n", DType::Int32);
  const int pid = b.reg("pid", DType::Int32), off = b.reg("off", DType::Int32), n = b.reg("n", DType::Int32);
  const int idx = b.tile("idx", DType::Int32, {block});
  const int lim = b.tile("lim", DType::Int32, {block});
  const int mask = b.tile("mask", DType::Bool, {block});
  const int tx = b.tile("x", DType::Float32, {block});
  const int ty = b.tile("y", DType::Float32, {block});
  const int ts = b.tile("sum", DType::Float32, {block});
  b.programId(pid, 0);
  b.argument(n, 3);
  b.scalarOp(off, ProgramBuilder::function(ElementOp::Mul, DType::Int32), {reg(pid), imm(block)});
  b.iota(idx, reg(off), {imm(1)});
  b.splat(lim, reg(n));
  b.elementwise(mask, ProgramBuilder::compare(core::CmpPredicate::Lt, DType::Int32), {idx, lim});
  b.dmaLoad(tx, x, reg(off), {imm(1)}, mask, immf(0.0));
  b.dmaLoad(ty, y, reg(off), {imm(1)}, mask, immf(0.0));
  b.elementwise(ts, ProgramBuilder::function(ElementOp::Add, DType::Float32), {tx, ty});
  b.dmaStore(ts, out, reg(off), {imm(1)}, mask);
  return b.finish();
}

TEST(Simulator, MaskedPointwiseAddAgainstALoop) {
  const int64_t n = 37, block = 16;
  std::vector<float> x(n), y(n);
  for (int64_t i = 0; i < n; ++i) {
    x[static_cast<size_t>(i)] = 0.1f * static_cast<float>(i);
    y[static_cast<size_t>(i)] = 1.0f / static_cast<float>(i + 1);
  }
  Harness h;
  const int bx = h.buffer("x", DType::Float32, x), by = h.buffer("y", DType::Float32, y);
  const int bo = h.buffer("out", DType::Float32, std::vector<float>(n, -1.0f));
  h.pointer(bx);
  h.pointer(by);
  h.pointer(bo);
  h.integer(n);
  Collector traces;
  functional::RunOptions options;
  options.listener = &traces;
  const npu::Program program = maskedAdd(block); // the trace points into it
  const functional::RunStats stats = h.run(program, {3, 1, 1}, options);
  const std::vector<float> out = h.contents<float>(bo);
  for (int64_t i = 0; i < n; ++i)
    EXPECT_EQ(out[static_cast<size_t>(i)], x[static_cast<size_t>(i)] + y[static_cast<size_t>(i)]) << i;
  EXPECT_EQ(stats.instances, 3);
  EXPECT_EQ(stats.instructions, 3 * 10);
  EXPECT_EQ(stats.dmaBytesRead, 2 * n * 4);
  EXPECT_EQ(stats.dmaBytesWritten, n * 4);
  // Instance 2 covers elements 32..47 of which 32..36 are active: one merged run each.
  ASSERT_EQ(traces.traces.size(), 3u);
  const npu::InstanceTrace &last = traces.traces[2];
  EXPECT_EQ(last.instance, 2);
  ASSERT_EQ(last.instructions.size(), 10u);
  const npu::ExecutedInstruction &load = last.instructions[6];
  EXPECT_EQ(load.instruction->opcode, Opcode::DmaLoad);
  EXPECT_EQ(load.elements, 5);
  ASSERT_EQ(load.dram.size(), 1u);
  EXPECT_EQ(load.dram[0].address, 0x1000u + 32 * 4);
  EXPECT_EQ(load.dram[0].bytes, 5u * 4);
  EXPECT_FALSE(load.dram[0].write);
  EXPECT_TRUE(last.instructions[9].dram[0].write);
  EXPECT_EQ(last.instructions[8].elements, block);
}

void expectSameTraces(const Collector &withValues, const Collector &addressesOnly) {
  ASSERT_EQ(withValues.traces.size(), addressesOnly.traces.size());
  for (size_t t = 0; t < withValues.traces.size(); ++t) {
    const auto &a = withValues.traces[t].instructions, &b = addressesOnly.traces[t].instructions;
    ASSERT_EQ(a.size(), b.size());
    for (size_t k = 0; k < a.size(); ++k) {
      EXPECT_EQ(a[k].elements, b[k].elements) << t << " " << k;
      ASSERT_EQ(a[k].dram.size(), b[k].dram.size());
      for (size_t r = 0; r < a[k].dram.size(); ++r) {
        EXPECT_EQ(a[k].dram[r].address, b[k].dram[r].address);
        EXPECT_EQ(a[k].dram[r].bytes, b[k].dram[r].bytes);
      }
    }
  }
}

/// Runs maskedAdd over n elements with and without values; returns the traces.
/// The buffers hold whole blocks, so masked-off elements lie inside them.
void traceBothWays(int64_t n, int64_t block, Collector &withValues, Collector &addressesOnly) {
  Harness h;
  const size_t size = static_cast<size_t>((n + block - 1) / block * block);
  const int bx = h.buffer("x", DType::Float32, std::vector<float>(size, 1.0f));
  const int by = h.buffer("y", DType::Float32, std::vector<float>(size, 2.0f));
  const int bo = h.buffer("out", DType::Float32, std::vector<float>(size, 0.0f));
  h.pointer(bx);
  h.pointer(by);
  h.pointer(bo);
  h.integer(n);
  functional::RunOptions options;
  options.listener = &withValues;
  const npu::Program program = maskedAdd(block);
  const functional::Grid grid{(n + block - 1) / block, 1, 1};
  h.run(program, grid, options);
  options.listener = &addressesOnly;
  options.computeValues = false;
  h.buffers[static_cast<size_t>(bo)].bytes->assign(size * 4, 0);
  h.run(program, grid, options);
  EXPECT_EQ(h.contents<float>(bo), std::vector<float>(size, 0.0f)); // nothing moved
}

TEST(Simulator, AddressOnlyRunGivesTheSameUnmaskedTrace) {
  // n a multiple of the block: every element active.
  Collector withValues, addressesOnly;
  traceBothWays(32, 16, withValues, addressesOnly);
  expectSameTraces(withValues, addressesOnly);
}

TEST(Simulator, AddressOnlyRunComputesMasksFromProgramIds) {
  // 37 elements in blocks of 16: the third instance's mask (pid * 16 + iota <
  // n) is true for 37 - 32 = 5 of the 16 elements in the buffers. The
  // address-only run computes the mask, so its loads and the store move 5
  // elements there, as with values (not all 16).
  Collector withValues, addressesOnly;
  traceBothWays(37, 16, withValues, addressesOnly);
  expectSameTraces(withValues, addressesOnly);
  ASSERT_EQ(addressesOnly.traces.size(), 3u);
  const auto &last = addressesOnly.traces[2].instructions;
  ASSERT_EQ(last.size(), 10u);
  EXPECT_EQ(last[6].elements, 5);
  ASSERT_EQ(last[6].dram.size(), 1u);
  EXPECT_EQ(last[6].dram[0].bytes, 5u * 4);
  EXPECT_EQ(last[9].elements, 5);
}

TEST(Simulator, AddressOnlyRunComputesGatherIndicesFromProgramIds) {
  // Instance p gathers x[3 * (4 p + j)] for j < 4 through an iota index tile:
  // the address-only run computes the index, so its trace is the one with
  // values: 4 single-element runs at element offsets 12 p + 3 j.
  ProgramBuilder b("gather", 4, 256);
  const int ax = b.pointerArgument("x", DType::Float32);
  const int pid = b.reg("pid", DType::Int32), start = b.reg("start", DType::Int32);
  const int ti = b.tile("i", DType::Int32, {4}), tv = b.tile("v", DType::Float32, {4});
  b.programId(pid, 0);
  b.scalarOp(start, ProgramBuilder::function(ElementOp::Mul, DType::Int32), {reg(pid), imm(12)});
  b.iota(ti, reg(start), {imm(3)});
  b.dmaGather(tv, ax, imm(0), ti);
  const npu::Program program = b.finish();
  Harness h;
  h.pointer(h.buffer("x", DType::Float32, std::vector<float>(24, 1.0f)));
  Collector withValues, addressesOnly;
  functional::RunOptions options;
  options.listener = &withValues;
  h.run(program, {2, 1, 1}, options);
  options.listener = &addressesOnly;
  options.computeValues = false;
  h.run(program, {2, 1, 1}, options);
  expectSameTraces(withValues, addressesOnly);
  ASSERT_EQ(addressesOnly.traces.size(), 2u);
  for (int64_t p = 0; p < 2; ++p) {
    const npu::ExecutedInstruction &gather = addressesOnly.traces[static_cast<size_t>(p)].instructions.back();
    EXPECT_EQ(gather.elements, 4);
    ASSERT_EQ(gather.dram.size(), 4u);
    for (int64_t j = 0; j < 4; ++j)
      EXPECT_EQ(gather.dram[static_cast<size_t>(j)].address - h.buffers[0].address,
                static_cast<uint64_t>((12 * p + 3 * j) * 4));
  }
}

TEST(Simulator, IotaWrapsToItsDtype) {
  // value[i, j] = start + 7 i - 3 j, wrapped: int8 [3, 5] with the lane axis
  // last from 120 (120 + 14 = 134 wraps to -122), uint16 [3, 5] from 65530
  // (65530 + 7 = 65537 wraps to 1), and a bool [3, 5] keeping the lowest bit.
  const int64_t R = 3, C = 5;
  for (const DType d : {DType::Int8, DType::UInt16, DType::Bool}) {
    const int64_t start = d == DType::Int8 ? 120 : d == DType::UInt16 ? 65530 : 1;
    ProgramBuilder b("iota", 4, 256);
    const int ao = b.pointerArgument("out", d);
    const int t = b.tile("t", d, {R, C}, 1);
    b.iota(t, imm(start), {imm(7), imm(-3)});
    b.dmaStore(t, ao, imm(0), {imm(C), imm(1)});
    Harness h;
    const size_t bytes = static_cast<size_t>(R * C) * core::byteSize(d);
    const int bo = h.buffer("out", d, std::vector<uint8_t>(bytes));
    h.pointer(bo);
    h.run(b.finish());
    const std::vector<uint8_t> out = h.contents<uint8_t>(bo);
    for (int64_t i = 0; i < R; ++i)
      for (int64_t j = 0; j < C; ++j) {
        const int64_t v = start + 7 * i - 3 * j, e = i * C + j;
        if (d == DType::Int8)
          EXPECT_EQ(static_cast<int8_t>(out[static_cast<size_t>(e)]), static_cast<int8_t>(v)) << e;
        else if (d == DType::Bool)
          EXPECT_EQ(out[static_cast<size_t>(e)], static_cast<uint8_t>(v & 1)) << e;
        else
          EXPECT_EQ(out[static_cast<size_t>(2 * e)] | out[static_cast<size_t>(2 * e + 1)] << 8,
                    static_cast<uint16_t>(v))
              << e;
      }
  }
}

TEST(Simulator, DoubleBufferedInstancesComputeTheSame) {
  const int64_t n = 40, block = 16;
  std::vector<float> x(n), y(n);
  for (int64_t i = 0; i < n; ++i) {
    x[static_cast<size_t>(i)] = static_cast<float>(i) * 0.5f;
    y[static_cast<size_t>(i)] = 3.0f - static_cast<float>(i);
  }
  npu::Program p = maskedAdd(block);
  p.instanceBankStride = (p.spadBytesUsed + 31) / 32 * 32; // 2 x 24 x 4 bytes fit in 1024
  ASSERT_LE(p.spadBytesUsed + p.instanceBankStride, p.spadBytesPerLane);
  for (int cores : {1, 2}) {
    Harness h;
    h.pointer(h.buffer("x", DType::Float32, x));
    h.pointer(h.buffer("y", DType::Float32, y));
    const int bo = h.buffer("out", DType::Float32, std::vector<float>(n, 0.0f));
    h.pointer(bo);
    h.integer(n);
    functional::RunOptions options;
    options.numCores = cores;
    h.run(p, {3, 1, 1}, options);
    const auto out = h.contents<float>(bo);
    for (int64_t i = 0; i < n; ++i)
      EXPECT_EQ(out[static_cast<size_t>(i)], x[static_cast<size_t>(i)] + y[static_cast<size_t>(i)]);
  }
}

/// One-instance program: dst = f(src...) over `n` elements loaded from buffers.
template <class R>
std::vector<R> elementwise(npu::ElementFunction fn, DType resultType, const std::vector<DType> &types,
                           Harness &h, int64_t n) {
  ProgramBuilder b("elementwise", 4, 4096);
  std::vector<int> srcs;
  for (size_t k = 0; k < types.size(); ++k) {
    const int arg = b.pointerArgument("in" + std::to_string(k), types[k]);
    const int t = b.tile("in" + std::to_string(k), types[k], {n});
    b.dmaLoad(t, arg, imm(0), {imm(1)});
    srcs.push_back(t);
  }
  const int out = b.pointerArgument("out", resultType);
  const int t = b.tile("out", resultType, {n});
  b.elementwise(t, fn, srcs);
  b.dmaStore(t, out, imm(0), {imm(1)});
  const int bo = h.buffer("out", resultType, std::vector<R>(static_cast<size_t>(n)));
  h.pointer(bo);
  h.run(b.finish());
  return h.contents<R>(bo);
}

TEST(Elementwise, CastsSaturateAndRoundOnce) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> x = {300.7f, -1e9f, nan, -3.9f, 1.00390625f, 1.01171875f};
  {
    Harness h;
    h.pointer(h.buffer("x", DType::Float32, x));
    // fp32 -> i8 truncates toward zero and saturates; NaN gives 0.
    const auto r = elementwise<int8_t>(ProgramBuilder::function(ElementOp::Cast, DType::Float32, DType::Int8),
                                       DType::Int8, {DType::Float32}, h, 6);
    EXPECT_EQ(r, (std::vector<int8_t>{127, -128, 0, -3, 1, 1}));
  }
  {
    Harness h;
    h.pointer(h.buffer("x", DType::Float32, x));
    // fp32 -> bf16, nearest even: 1 + 2^-8 is a tie between 1 and 1 + 2^-7 -> 1 (0x3F80);
    // 1 + 3 * 2^-8 is a tie between 1 + 2^-7 and 1 + 2^-6 -> 1 + 2^-6 (0x3F82).
    const auto r =
        elementwise<uint16_t>(ProgramBuilder::function(ElementOp::Cast, DType::Float32, DType::BFloat16),
                              DType::BFloat16, {DType::Float32}, h, 6);
    EXPECT_EQ(r[4], 0x3F80);
    EXPECT_EQ(r[5], 0x3F82);
    EXPECT_EQ(r[3], 0xC07A); // -3.90625, the nearest bf16 to -3.9
  }
}

TEST(Elementwise, IntegerDivisionByZeroGivesRiscVValues) {
  Harness h;
  h.pointer(h.buffer("a", DType::Int32, std::vector<int32_t>{7, -7, INT32_MIN, 9}));
  h.pointer(h.buffer("b", DType::Int32, std::vector<int32_t>{0, 2, -1, 0}));
  const auto q = elementwise<int32_t>(ProgramBuilder::function(ElementOp::Div, DType::Int32), DType::Int32,
                                      {DType::Int32, DType::Int32}, h, 4);
  EXPECT_EQ(q, (std::vector<int32_t>{-1, -3, INT32_MIN, -1}));
  Harness h2;
  h2.pointer(h2.buffer("a", DType::Int32, std::vector<int32_t>{7, -7, INT32_MIN, 9}));
  h2.pointer(h2.buffer("b", DType::Int32, std::vector<int32_t>{0, 2, -1, 0}));
  const auto r = elementwise<int32_t>(ProgramBuilder::function(ElementOp::Rem, DType::Int32), DType::Int32,
                                      {DType::Int32, DType::Int32}, h2, 4);
  EXPECT_EQ(r, (std::vector<int32_t>{7, -1, 0, 9}));
}

TEST(Elementwise, MathSelectAndMinMaxNaN) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  {
    Harness h;
    h.pointer(h.buffer("x", DType::Float32, std::vector<float>{0.5f, 1.0f, -2.0f, 4.0f}));
    const auto r = elementwise<float>(ProgramBuilder::math(core::MathFn::Exp, DType::Float32), DType::Float32,
                                      {DType::Float32}, h, 4);
    for (int k = 0; k < 4; ++k)
      EXPECT_EQ(r[static_cast<size_t>(k)],
                std::exp(std::vector<float>{0.5f, 1.0f, -2.0f, 4.0f}[static_cast<size_t>(k)]));
  }
  {
    Harness h;
    h.pointer(h.buffer("a", DType::Float32, std::vector<float>{nan, 1.0f, nan, 3.0f}));
    h.pointer(h.buffer("b", DType::Float32, std::vector<float>{2.0f, nan, nan, -1.0f}));
    auto fn = ProgramBuilder::function(ElementOp::Max, DType::Float32);
    const auto ignore = elementwise<float>(fn, DType::Float32, {DType::Float32, DType::Float32}, h, 4);
    EXPECT_EQ(ignore[0], 2.0f);
    EXPECT_EQ(ignore[1], 1.0f);
    EXPECT_TRUE(std::isnan(ignore[2]));
    EXPECT_EQ(ignore[3], 3.0f);
  }
  {
    Harness h;
    h.pointer(h.buffer("a", DType::Float32, std::vector<float>{nan, 1.0f, 5.0f, 3.0f}));
    h.pointer(h.buffer("b", DType::Float32, std::vector<float>{2.0f, nan, 6.0f, -1.0f}));
    auto fn = ProgramBuilder::function(ElementOp::Min, DType::Float32);
    fn.nanMode = core::NanMode::Propagate;
    const auto r = elementwise<float>(fn, DType::Float32, {DType::Float32, DType::Float32}, h, 4);
    EXPECT_TRUE(std::isnan(r[0]));
    EXPECT_TRUE(std::isnan(r[1]));
    EXPECT_EQ(r[2], 5.0f);
    EXPECT_EQ(r[3], -1.0f);
  }
  {
    Harness h;
    h.pointer(h.buffer("c", DType::Bool, std::vector<uint8_t>{1, 0, 0, 1}));
    h.pointer(h.buffer("a", DType::Int16, std::vector<int16_t>{1, 2, 3, 4}));
    h.pointer(h.buffer("b", DType::Int16, std::vector<int16_t>{-1, -2, -3, -4}));
    auto fn = ProgramBuilder::function(ElementOp::Select, DType::Int16);
    const auto r = elementwise<int16_t>(fn, DType::Int16, {DType::Bool, DType::Int16, DType::Int16}, h, 4);
    EXPECT_EQ(r, (std::vector<int16_t>{1, -2, -3, 4}));
  }
}

TEST(Vector, IotaOverTwoAxesAndHalfSplat) {
  // iota[i, j] = 5 + 10 i - j over [3, 4] (i16, lanes over axis 1); splat 0.1 as fp16.
  ProgramBuilder b("iota", 4, 256);
  const int ai = b.pointerArgument("iota", DType::Int16), ah = b.pointerArgument("half", DType::Float16);
  const int ti = b.tile("iota", DType::Int16, {3, 4}, 1), th = b.tile("half", DType::Float16, {5});
  b.iota(ti, imm(5), {imm(10), imm(-1)});
  b.splat(th, immf(0.1));
  b.dmaStore(ti, ai, imm(0), {imm(4), imm(1)});
  b.dmaStore(th, ah, imm(0), {imm(1)});
  Harness h;
  const int bi = h.buffer("iota", DType::Int16, std::vector<int16_t>(12)),
            bh = h.buffer("half", DType::Float16, std::vector<uint16_t>(5));
  h.pointer(bi);
  h.pointer(bh);
  h.run(b.finish());
  const auto iota = h.contents<int16_t>(bi);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j)
      EXPECT_EQ(iota[static_cast<size_t>(i * 4 + j)], 5 + 10 * i - j);
  // 0.1 in fp16: 0x2E66 (1.1001100110 x 2^-4 = 0.0999755859375, the nearest).
  EXPECT_EQ(h.contents<uint16_t>(bh), std::vector<uint16_t>(5, 0x2E66));
}

TEST(Control, LoopsAndIfs) {
  // out[pid] = sum_{i=0}^{pid+2} i, and out[pid] += 100 when pid is odd.
  ProgramBuilder b("control", 4, 256);
  const int out = b.pointerArgument("out", DType::Int32);
  const int pid = b.reg("pid", DType::Int32), acc = b.reg("acc", DType::Int32), i = b.reg("i", DType::Int32),
            hi = b.reg("hi", DType::Int32), odd = b.reg("odd", DType::Int32);
  const auto add = ProgramBuilder::function(ElementOp::Add, DType::Int32);
  b.programId(pid, 0);
  b.move(acc, imm(0));
  b.scalarOp(hi, add, {reg(pid), imm(3)});
  b.beginLoop(i, imm(0), reg(hi), imm(1));
  b.scalarOp(acc, add, {reg(acc), reg(i)});
  b.endLoop();
  b.scalarOp(odd, ProgramBuilder::function(ElementOp::And, DType::Int32), {reg(pid), imm(1)});
  b.beginIf(reg(odd));
  b.scalarOp(acc, add, {reg(acc), imm(100)});
  b.beginElse();
  b.scalarOp(acc, add, {reg(acc), imm(0)});
  b.endIf();
  b.scalarStore(out, reg(pid), reg(acc));
  Harness h;
  const int bo = h.buffer("out", DType::Int32, std::vector<int32_t>(4, 0));
  h.pointer(bo);
  h.run(b.finish(), {4, 1, 1});
  std::vector<int32_t> expected(4);
  for (int p = 0; p < 4; ++p) {
    int s = 0;
    for (int k = 0; k < p + 3; ++k)
      s += k;
    expected[static_cast<size_t>(p)] = s + (p % 2 ? 100 : 0);
  }
  EXPECT_EQ(h.contents<int32_t>(bo), expected);
}

TEST(Control, GridOrderIsXFastest) {
  ProgramBuilder b("grid", 4, 256);
  const int out = b.pointerArgument("out", DType::Int32);
  const int x = b.reg("x", DType::Int32), y = b.reg("y", DType::Int32), z = b.reg("z", DType::Int32),
            nx = b.reg("nx", DType::Int32), ny = b.reg("ny", DType::Int32), lin = b.reg("lin", DType::Int32),
            v = b.reg("v", DType::Int32);
  const auto add = ProgramBuilder::function(ElementOp::Add, DType::Int32);
  const auto mul = ProgramBuilder::function(ElementOp::Mul, DType::Int32);
  b.programId(x, 0);
  b.programId(y, 1);
  b.programId(z, 2);
  b.numPrograms(nx, 0);
  b.numPrograms(ny, 1);
  b.scalarOp(lin, mul, {reg(z), reg(ny)});
  b.scalarOp(lin, add, {reg(lin), reg(y)});
  b.scalarOp(lin, mul, {reg(lin), reg(nx)});
  b.scalarOp(lin, add, {reg(lin), reg(x)});
  b.scalarOp(v, mul, {reg(x), imm(100)});
  b.scalarOp(v, add, {reg(v), reg(z)});
  b.scalarStore(out, reg(lin), reg(v));
  Harness h;
  const int bo = h.buffer("out", DType::Int32, std::vector<int32_t>(12, -1));
  h.pointer(bo);
  Collector c;
  functional::RunOptions options;
  options.listener = &c;
  const npu::Program program = b.finish(); // the trace points into it
  h.run(program, {3, 2, 2}, options);
  const auto values = h.contents<int32_t>(bo);
  for (int zz = 0; zz < 2; ++zz)
    for (int yy = 0; yy < 2; ++yy)
      for (int xx = 0; xx < 3; ++xx)
        EXPECT_EQ(values[static_cast<size_t>(xx + 3 * (yy + 2 * zz))], xx * 100 + zz);
  ASSERT_EQ(c.traces.size(), 12u);
  for (size_t k = 0; k < 12; ++k)
    EXPECT_EQ(c.traces[k].instance, static_cast<int64_t>(k));
}

TEST(Performance, SixteenMillionElementPointwise) {
  const int64_t n = int64_t{1} << 24, block = 4096;
  Harness h;
  const int bx = h.buffer("x", DType::Float32, std::vector<float>(static_cast<size_t>(n), 1.5f));
  const int by = h.buffer("y", DType::Float32, std::vector<float>(static_cast<size_t>(n), 2.25f));
  const int bo = h.buffer("out", DType::Float32, std::vector<float>(static_cast<size_t>(n), 0.0f));
  h.pointer(bx);
  h.pointer(by);
  h.pointer(bo);
  h.integer(n);
  const npu::Program p = maskedAdd(block, 128, 4096);
  const auto start = std::chrono::steady_clock::now();
  const std::clock_t cpuStart = std::clock();
  h.run(p, {n / block, 1, 1});
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double cpuSeconds = static_cast<double>(std::clock() - cpuStart) / CLOCKS_PER_SEC;
  const auto out = h.contents<float>(bo);
  EXPECT_EQ(out[0], 3.75f);
  EXPECT_EQ(out[static_cast<size_t>(n - 1)], 3.75f);
  std::printf("16M-element masked add: %.3f s wall, %.3f s CPU, %.1f M elements/s (CPU)\n", seconds,
              cpuSeconds, static_cast<double>(n) / cpuSeconds / 1e6);
}

} // namespace
} // namespace npusim::functionaltest
