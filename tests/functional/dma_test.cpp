// DMA transfers against plain loops: strided 2-D (a transpose), gathers with
// masks and fill, scatters and atomics with repeated addresses.
#include "functional/sim_harness.h"

#include <gtest/gtest.h>

namespace npusim::functionaltest {
namespace {

/// Runs `program` with a listener and returns its instance traces.
std::vector<npu::InstanceTrace> runTraced(Harness &h, const npu::Program &program) {
  Collector c;
  functional::RunOptions options;
  options.listener = &c;
  h.run(program, {}, options);
  return std::move(c.traces);
}

TEST(Dma, StridedTransposeAndOffsetPointer) {
  // x is 6 x 5 row-major, read from element offset 3 of the buffer: tile[i, j] = x[j, i]
  // via strides (1, 5); written back row-major into out [5, 6].
  const int64_t R = 6, C = 5;
  std::vector<int32_t> x(3 + R * C);
  for (size_t k = 0; k < x.size(); ++k)
    x[k] = static_cast<int32_t>(k * 7 % 101);
  ProgramBuilder b("transpose", 4, 1024);
  const int ax = b.pointerArgument("x", DType::Int32), ao = b.pointerArgument("out", DType::Int32);
  const int t = b.tile("t", DType::Int32, {C, R}, 1);
  b.dmaLoad(t, ax, imm(0), {imm(1), imm(C)});
  b.dmaStore(t, ao, imm(0), {imm(R), imm(1)});
  Harness h;
  const int bx = h.buffer("x", DType::Int32, x),
            bo = h.buffer("out", DType::Int32, std::vector<int32_t>(R * C));
  h.pointer(bx, 3);
  h.pointer(bo);
  h.run(b.finish());
  const auto out = h.contents<int32_t>(bo);
  for (int64_t i = 0; i < C; ++i)
    for (int64_t j = 0; j < R; ++j)
      EXPECT_EQ(out[static_cast<size_t>(i * R + j)], x[static_cast<size_t>(3 + j * C + i)]);
}

TEST(Dma, MaskedGatherWithFill) {
  // v[k] = mask[k] ? x[10 + idx[k]] : -7.5
  const std::vector<float> x = [] {
    std::vector<float> v(40);
    for (size_t k = 0; k < v.size(); ++k)
      v[k] = 0.25f * static_cast<float>(k);
    return v;
  }();
  const std::vector<int64_t> idx = {5, -3, 29, 0, 1000, 12, 7, 7};
  const std::vector<uint8_t> mask = {1, 1, 1, 1, 0, 1, 0, 1}; // element 4 would be out of bounds
  ProgramBuilder b("gather", 4, 1024);
  const int ax = b.pointerArgument("x", DType::Float32), ai = b.pointerArgument("idx", DType::Int64),
            am = b.pointerArgument("mask", DType::Bool), ao = b.pointerArgument("out", DType::Float32);
  const int ti = b.tile("idx", DType::Int64, {8}), tm = b.tile("mask", DType::Bool, {8}),
            tv = b.tile("v", DType::Float32, {8});
  b.dmaLoad(ti, ai, imm(0), {imm(1)});
  b.dmaLoad(tm, am, imm(0), {imm(1)});
  b.dmaGather(tv, ax, imm(10), ti, tm, immf(-7.5));
  b.dmaStore(tv, ao, imm(0), {imm(1)});
  Harness h;
  const int bx = h.buffer("x", DType::Float32, x), bi = h.buffer("idx", DType::Int64, idx),
            bm = h.buffer("mask", DType::Bool, mask),
            bo = h.buffer("out", DType::Float32, std::vector<float>(8));
  h.pointer(bx);
  h.pointer(bi);
  h.pointer(bm);
  h.pointer(bo);
  const npu::Program program = b.finish(); // the trace points into it
  const std::vector<npu::InstanceTrace> traces = runTraced(h, program);
  const auto out = h.contents<float>(bo);
  for (size_t k = 0; k < 8; ++k)
    EXPECT_EQ(out[k], mask[k] ? x[static_cast<size_t>(10 + idx[k])] : -7.5f) << k;
  // The gather touched 6 elements; 7 and 7 (elements 6, 7) are not adjacent runs (6 is masked).
  EXPECT_EQ(traces.at(0).instructions.at(2).elements, 6);
}

TEST(Dma, ScatterLaterElementWins) {
  ProgramBuilder b("scatter", 4, 1024);
  const int av = b.pointerArgument("v", DType::Int32), ai = b.pointerArgument("idx", DType::Int32),
            ao = b.pointerArgument("out", DType::Int32);
  const int tv = b.tile("v", DType::Int32, {6}), ti = b.tile("i", DType::Int32, {6});
  b.dmaLoad(tv, av, imm(0), {imm(1)});
  b.dmaLoad(ti, ai, imm(0), {imm(1)});
  b.dmaScatter(tv, ao, imm(0), ti);
  Harness h;
  h.pointer(h.buffer("v", DType::Int32, std::vector<int32_t>{10, 20, 30, 40, 50, 60}));
  h.pointer(h.buffer("idx", DType::Int32, std::vector<int32_t>{3, 1, 3, 0, 1, 2}));
  const int bo = h.buffer("out", DType::Int32, std::vector<int32_t>{-1, -1, -1, -1, -1});
  h.pointer(bo);
  h.run(b.finish());
  EXPECT_EQ(h.contents<int32_t>(bo), (std::vector<int32_t>{40, 50, 60, 30, -1}));
}

TEST(Dma, AtomicAddReturnsOldValuesInRowMajorOrder) {
  ProgramBuilder b("atomic", 4, 1024);
  const int av = b.pointerArgument("v", DType::Float32), ai = b.pointerArgument("idx", DType::Int32),
            ao = b.pointerArgument("acc", DType::Float32), ar = b.pointerArgument("old", DType::Float32);
  const int tv = b.tile("v", DType::Float32, {5}), ti = b.tile("i", DType::Int32, {5}),
            told = b.tile("old", DType::Float32, {5}), tm = b.tile("m", DType::Bool, {5}),
            tk = b.tile("k", DType::Int32, {5}), tl = b.tile("lim", DType::Int32, {5});
  b.dmaLoad(tv, av, imm(0), {imm(1)});
  b.dmaLoad(ti, ai, imm(0), {imm(1)});
  b.iota(tk, imm(0), {imm(1)});
  b.splat(tl, imm(4));
  b.elementwise(tm, ProgramBuilder::compare(core::CmpPredicate::Lt, DType::Int32), {tk, tl}); // last inactive
  b.dmaAtomic(core::AtomicKind::Add, told, tv, ao, imm(0), ti, tm);
  b.dmaStore(told, ar, imm(0), {imm(1)});
  Harness h;
  const std::vector<float> v = {1.5f, 2.0f, 4.0f, 8.0f, 100.0f};
  const std::vector<int32_t> idx = {1, 1, 0, 1, 1};
  h.pointer(h.buffer("v", DType::Float32, v));
  h.pointer(h.buffer("idx", DType::Int32, idx));
  const int bacc = h.buffer("acc", DType::Float32, std::vector<float>{10.0f, 20.0f});
  const int bold = h.buffer("old", DType::Float32, std::vector<float>(5, -1.0f));
  h.pointer(bacc);
  h.pointer(bold);
  h.run(b.finish());
  // Sequential: acc[1] 20 -> 21.5 -> 23.5, acc[0] 10 -> 14, acc[1] 23.5 -> 31.5; element 4 inactive (old 0).
  EXPECT_EQ(h.contents<float>(bacc), (std::vector<float>{14.0f, 31.5f}));
  EXPECT_EQ(h.contents<float>(bold), (std::vector<float>{20.0f, 21.5f, 10.0f, 23.5f, 0.0f}));
}

TEST(Dma, AtomicMaxOnIntegers) {
  ProgramBuilder b("atomic_max", 4, 1024);
  const int av = b.pointerArgument("v", DType::UInt8), ai = b.pointerArgument("idx", DType::Int64),
            ao = b.pointerArgument("acc", DType::UInt8);
  const int tv = b.tile("v", DType::UInt8, {4}), ti = b.tile("i", DType::Int64, {4});
  b.dmaLoad(tv, av, imm(0), {imm(1)});
  b.dmaLoad(ti, ai, imm(0), {imm(1)});
  b.dmaAtomic(core::AtomicKind::Max, -1, tv, ao, imm(0), ti);
  Harness h;
  h.pointer(h.buffer("v", DType::UInt8, std::vector<uint8_t>{200, 7, 255, 1}));
  h.pointer(h.buffer("idx", DType::Int64, std::vector<int64_t>{0, 0, 1, 1}));
  const int bacc = h.buffer("acc", DType::UInt8, std::vector<uint8_t>{100, 254});
  h.pointer(bacc);
  h.run(b.finish());
  EXPECT_EQ(h.contents<uint8_t>(bacc), (std::vector<uint8_t>{200, 255})); // unsigned comparison
}

TEST(Dma, MaskedRowsInEveryLaneLayout) {
  // A bool mask, a masked load (fill 0.5) and a masked store of 60 elements
  // in four layouts: out[k] = mask[k] ? x[k] : -1 (the store skips
  // masked-off elements, which keep out's -1).
  const int64_t R = 6, C = 10;
  std::vector<float> x(R * C);
  std::vector<uint8_t> mask(R * C);
  for (int64_t k = 0; k < R * C; ++k) {
    x[static_cast<size_t>(k)] = 0.5f * static_cast<float>(k) + 1.0f;
    mask[static_cast<size_t>(k)] = (k * 7 % 11) < 6 ? 1 : 0; // differs from row to row
  }
  // Layouts: 0 and 1 the lane axis of [6, 10]; 2 a [60] tile; 3 a [60, 1]
  // tile with the lane axis first (rows of one element).
  for (int variant : {0, 1, 2, 3}) {
    const int laneAxis = variant == 1 ? 1 : 0;
    ProgramBuilder b("masked_rows", 4, 1024);
    std::vector<int64_t> shape = {R, C};
    std::vector<npu::ScalarOperand> strides = {imm(C), imm(1)};
    if (variant == 2) {
      shape = {R * C};
      strides = {imm(1)};
    } else if (variant == 3) {
      shape = {R * C, 1};
      strides = {imm(1), imm(1)};
    }
    const int ax = b.pointerArgument("x", DType::Float32), am = b.pointerArgument("mask", DType::Bool),
              ao = b.pointerArgument("out", DType::Float32);
    const int tm = b.tile("mask", DType::Bool, shape, laneAxis),
              tx = b.tile("x", DType::Float32, shape, laneAxis);
    b.dmaLoad(tm, am, imm(0), strides);
    b.dmaLoad(tx, ax, imm(0), strides, tm, immf(0.5));
    b.dmaStore(tx, ao, imm(0), strides, tm);
    Harness h;
    const int bx = h.buffer("x", DType::Float32, x), bm = h.buffer("mask", DType::Bool, mask),
              bo = h.buffer("out", DType::Float32, std::vector<float>(R * C, -1.0f));
    h.pointer(bx);
    h.pointer(bm);
    h.pointer(bo);
    h.run(b.finish());
    const auto out = h.contents<float>(bo);
    for (size_t k = 0; k < out.size(); ++k)
      EXPECT_EQ(out[k], mask[k] ? x[k] : -1.0f) << "layout " << variant << ", element " << k;
  }
}

TEST(Dma, MaskedRowLoadFillsAndTracesActiveRuns) {
  // A [3, 8] tile, lane axis 0 (each row in one lane), loaded with row
  // stride 8 under a mask, fill -2, and stored unmasked: out[k] = mask[k] ?
  // x[k] : -2. x holds 22 elements, so the last row's two masked-off
  // elements lie outside it (that row takes the run-by-run path). The
  // load's DRAM runs are the mask's runs of ones, in row order.
  const int64_t R = 3, C = 8;
  std::vector<float> x(22);
  for (size_t k = 0; k < x.size(); ++k)
    x[k] = 1.5f * static_cast<float>(k) - 4.0f;
  const std::vector<uint8_t> mask = {1, 1, 0, 1, 1, 1, 0, 0,  // runs [0, 2) and [3, 6)
                                     0, 0, 0, 0, 0, 0, 0, 0,  // nothing
                                     1, 1, 1, 1, 1, 1, 0, 0}; // [16, 22); 22 and 23 are outside x
  ProgramBuilder b("masked_row_load", 4, 1024);
  const int ax = b.pointerArgument("x", DType::Float32), am = b.pointerArgument("mask", DType::Bool),
            ao = b.pointerArgument("out", DType::Float32);
  const int tm = b.tile("mask", DType::Bool, {R, C}, 0), tx = b.tile("x", DType::Float32, {R, C}, 0);
  b.dmaLoad(tm, am, imm(0), {imm(C), imm(1)});
  b.dmaLoad(tx, ax, imm(0), {imm(C), imm(1)}, tm, immf(-2.0));
  b.dmaStore(tx, ao, imm(0), {imm(C), imm(1)});
  Harness h;
  const int bx = h.buffer("x", DType::Float32, x), bm = h.buffer("mask", DType::Bool, mask),
            bo = h.buffer("out", DType::Float32, std::vector<float>(R * C));
  for (int buffer : {bx, bm, bo})
    h.pointer(buffer);
  const npu::Program program = b.finish(); // the trace points into it
  const std::vector<npu::InstanceTrace> traces = runTraced(h, program);
  const auto out = h.contents<float>(bo);
  for (size_t k = 0; k < out.size(); ++k)
    EXPECT_EQ(out[k], mask[k] ? x[k] : -2.0f) << k;
  const npu::ExecutedInstruction &load = traces.at(0).instructions.at(1);
  EXPECT_EQ(load.elements, 2 + 3 + 6);
  // x is buffer 0, at address 0x1000; runs of 4-byte elements.
  const std::vector<std::pair<uint64_t, uint32_t>> want = {{0x1000, 8}, {0x1000 + 12, 12}, {0x1000 + 64, 24}};
  ASSERT_EQ(load.dram.size(), want.size());
  for (size_t r = 0; r < want.size(); ++r) {
    EXPECT_EQ(load.dram[r].address, want[r].first) << r;
    EXPECT_EQ(load.dram[r].bytes, want[r].second) << r;
    EXPECT_FALSE(load.dram[r].write) << r;
  }
}

TEST(Dma, RowsAlongTheLaneAxisInBlocks) {
  // A [20, 12] int32 tile with the lane axis last (4 lanes): loaded with row
  // stride 13 and stored with row stride `outStride`. With 12 the stored rows
  // are disjoint; with 5 they overlap, and a later row's elements win, as a
  // row-major loop writes them: out[r * outStride + j] = x[r * 13 + j].
  const int64_t R = 20, C = 12;
  std::vector<int32_t> x(R * 13);
  for (size_t k = 0; k < x.size(); ++k)
    x[k] = static_cast<int32_t>(k * 31 % 997);
  for (int64_t outStride : {C, int64_t{5}}) {
    const int64_t outSize = (R - 1) * outStride + C;
    std::vector<int32_t> want(static_cast<size_t>(outSize), -1);
    for (int64_t r = 0; r < R; ++r)
      for (int64_t j = 0; j < C; ++j)
        want[static_cast<size_t>(r * outStride + j)] = x[static_cast<size_t>(r * 13 + j)];
    ProgramBuilder b("lane_rows", 4, 1024);
    const int ax = b.pointerArgument("x", DType::Int32), ao = b.pointerArgument("out", DType::Int32);
    const int t = b.tile("t", DType::Int32, {R, C}, 1);
    b.dmaLoad(t, ax, imm(0), {imm(13), imm(1)});
    b.dmaStore(t, ao, imm(0), {imm(outStride), imm(1)});
    Harness h;
    const int bx = h.buffer("x", DType::Int32, x),
              bo = h.buffer("out", DType::Int32, std::vector<int32_t>(static_cast<size_t>(outSize), -1));
    h.pointer(bx);
    h.pointer(bo);
    h.run(b.finish());
    EXPECT_EQ(h.contents<int32_t>(bo), want) << "out row stride " << outStride;
  }
}

TEST(Dma, MaskRereadAfterItsBytesChange) {
  // Four masked loads (fill 0) of x into v0..v3, each stored unmasked. The
  // mask tile m: mask A for v0; reloaded in place with mask B for v1; its
  // bytes overwritten through tile o (same bank offset) with mask C for v2;
  // set all false by a splat for v3. Each load must see the mask as it is.
  const std::vector<float> x = {1, 2, 3, 4, 5, 6, 7, 8};
  const std::vector<uint8_t> maskA = {1, 0, 1, 0, 1, 0, 1, 0}, maskB = {0, 1, 1, 0, 0, 1, 1, 0},
                             maskC = {1, 1, 1, 1, 0, 0, 0, 0};
  ProgramBuilder b("mask_reread", 4, 1024);
  const int ax = b.pointerArgument("x", DType::Float32), aa = b.pointerArgument("a", DType::Bool),
            ab = b.pointerArgument("b", DType::Bool), ac = b.pointerArgument("c", DType::Bool),
            ao = b.pointerArgument("out", DType::Float32);
  const int m = b.tileAt("m", DType::Bool, {8}, 0, 0), o = b.tileAt("o", DType::Bool, {8}, 0, 0);
  std::vector<int> v;
  for (int k = 0; k < 4; ++k)
    v.push_back(b.tileAt("v" + std::to_string(k), DType::Float32, {8}, 0, 64 + 32 * k));
  b.dmaLoad(m, aa, imm(0), {imm(1)});
  b.dmaLoad(v[0], ax, imm(0), {imm(1)}, m, immf(0));
  b.dmaLoad(m, ab, imm(0), {imm(1)});
  b.dmaLoad(v[1], ax, imm(0), {imm(1)}, m, immf(0));
  b.dmaLoad(o, ac, imm(0), {imm(1)});
  b.dmaLoad(v[2], ax, imm(0), {imm(1)}, m, immf(0));
  b.splat(m, imm(0));
  b.dmaLoad(v[3], ax, imm(0), {imm(1)}, m, immf(0));
  for (int k = 0; k < 4; ++k)
    b.dmaStore(v[static_cast<size_t>(k)], ao, imm(8 * k), {imm(1)});
  Harness h;
  const int bx = h.buffer("x", DType::Float32, x), ba = h.buffer("a", DType::Bool, maskA),
            bb = h.buffer("b", DType::Bool, maskB), bc = h.buffer("c", DType::Bool, maskC),
            bo = h.buffer("out", DType::Float32, std::vector<float>(32, -1.0f));
  for (int buffer : {bx, ba, bb, bc, bo})
    h.pointer(buffer);
  h.run(b.finish());
  const auto out = h.contents<float>(bo);
  const std::vector<uint8_t> none(8, 0);
  const std::vector<const std::vector<uint8_t> *> masks = {&maskA, &maskB, &maskC, &none};
  for (size_t k = 0; k < 4; ++k)
    for (size_t e = 0; e < 8; ++e)
      EXPECT_EQ(out[k * 8 + e], (*masks[k])[e] ? x[e] : 0.0f) << "load " << k << ", element " << e;
}

} // namespace
} // namespace npusim::functionaltest
