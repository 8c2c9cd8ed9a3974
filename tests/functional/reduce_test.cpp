// Reductions, scans, sorts, broadcasts and relayouts against plain loops.
#include "functional/sim_harness.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>

namespace npusim::functionaltest {
namespace {

struct TileSpec {
  DType dtype;
  std::vector<int64_t> shape;
  int laneAxis = 0;
};

/// Loads `inputs` (buffers 0..), runs emit(builder, input tiles, output tiles),
/// stores the outputs into fresh buffers and returns their buffer indices.
std::vector<int>
runOne(Harness &h, const std::vector<TileSpec> &inputs, const std::vector<TileSpec> &outputs,
       const std::function<void(ProgramBuilder &, const std::vector<int> &, const std::vector<int> &)> &emit,
       int lanes = 4) {
  ProgramBuilder b("reduce_kernel", lanes, 4096);
  std::vector<int> in, out, outArgs;
  for (size_t k = 0; k < inputs.size(); ++k) {
    const int arg = b.pointerArgument("in" + std::to_string(k), inputs[k].dtype);
    const int t = b.tile("in" + std::to_string(k), inputs[k].dtype, inputs[k].shape, inputs[k].laneAxis);
    std::vector<ScalarOperand> strides(inputs[k].shape.size());
    int64_t s = 1;
    for (size_t a = inputs[k].shape.size(); a-- > 0;) {
      strides[a] = imm(s);
      s *= inputs[k].shape[a];
    }
    b.dmaLoad(t, arg, imm(0), strides);
    in.push_back(t);
  }
  for (size_t k = 0; k < outputs.size(); ++k) {
    outArgs.push_back(b.pointerArgument("out" + std::to_string(k), outputs[k].dtype));
    out.push_back(b.tile("out" + std::to_string(k), outputs[k].dtype, outputs[k].shape, outputs[k].laneAxis));
  }
  emit(b, in, out);
  std::vector<int> buffers;
  for (size_t k = 0; k < outputs.size(); ++k) {
    std::vector<ScalarOperand> strides(outputs[k].shape.size());
    int64_t s = 1;
    for (size_t a = outputs[k].shape.size(); a-- > 0;) {
      strides[a] = imm(s);
      s *= outputs[k].shape[a];
    }
    b.dmaStore(out[k], outArgs[k], imm(0), strides);
    int64_t n = 1;
    for (int64_t e : outputs[k].shape)
      n *= e;
    buffers.push_back(
        h.buffer("out" + std::to_string(k), outputs[k].dtype,
                 std::vector<uint8_t>(static_cast<size_t>(n * core::byteSize(outputs[k].dtype)))));
    h.pointer(buffers.back());
  }
  h.run(b.finish());
  return buffers;
}

std::vector<float> ramp(size_t n, float scale) {
  std::vector<float> v(n);
  for (size_t k = 0; k < n; ++k)
    v[k] = std::sin(static_cast<float>(k) * scale) * 3.0f + 0.1f;
  return v;
}

TEST(Reduce, InLaneSumAlongANonLaneAxis) {
  const auto x = ramp(24, 0.7f); // [4, 6], lanes over axis 0
  Harness h;
  h.pointer(h.buffer("x", DType::Float32, x));
  const auto out = runOne(h, {{DType::Float32, {4, 6}, 0}}, {{DType::Float32, {4}, 0}},
                          [](ProgramBuilder &b, const std::vector<int> &in, const std::vector<int> &o) {
                            b.reduce(Opcode::VReduce, core::ReduceKind::Sum, 1, o, in);
                          });
  const auto r = h.contents<float>(out[0]);
  for (int i = 0; i < 4; ++i) {
    float acc = x[static_cast<size_t>(i * 6)];
    for (int j = 1; j < 6; ++j)
      acc = acc + x[static_cast<size_t>(i * 6 + j)];
    EXPECT_EQ(r[static_cast<size_t>(i)], acc) << i;
  }
}

TEST(Reduce, CrossLaneSumKeepingTheAxis) {
  const auto x = ramp(30, 1.3f); // [10, 3], lane axis 0 spans 3 lane groups of 4
  Harness h;
  h.pointer(h.buffer("x", DType::Float32, x));
  const auto out = runOne(h, {{DType::Float32, {10, 3}, 0}}, {{DType::Float32, {1, 3}, 1}},
                          [](ProgramBuilder &b, const std::vector<int> &in, const std::vector<int> &o) {
                            b.reduce(Opcode::XReduce, core::ReduceKind::Sum, 0, o, in);
                          });
  const auto r = h.contents<float>(out[0]);
  for (int j = 0; j < 3; ++j) {
    float acc = x[static_cast<size_t>(j)];
    for (int i = 1; i < 10; ++i)
      acc = acc + x[static_cast<size_t>(i * 3 + j)];
    EXPECT_EQ(r[static_cast<size_t>(j)], acc) << j;
  }
}

TEST(Reduce, MaxWithNaNModes) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> x = {1.0f, nan, 5.0f, -2.0f, nan, nan, nan, nan};
  for (core::NanMode mode : {core::NanMode::Ignore, core::NanMode::Propagate}) {
    Harness h;
    h.pointer(h.buffer("x", DType::Float32, x));
    const auto out = runOne(h, {{DType::Float32, {2, 4}, 1}}, {{DType::Float32, {2}, 0}},
                            [mode](ProgramBuilder &b, const std::vector<int> &in, const std::vector<int> &o) {
                              b.reduce(Opcode::XReduce, core::ReduceKind::Max, 1, o, in).function.nanMode =
                                  mode;
                            });
    const auto r = h.contents<float>(out[0]);
    if (mode == core::NanMode::Ignore)
      EXPECT_EQ(r[0], 5.0f);
    else
      EXPECT_TRUE(std::isnan(r[0]));
    EXPECT_TRUE(std::isnan(r[1])); // all NaN
  }
}

TEST(Reduce, ArgMaxTiesToTheSmallestIndex) {
  const std::vector<int32_t> v = {3, 9, 9, -1, 4, 4, 4, 0};
  const std::vector<int32_t> idx = {0, 1, 2, 3, 0, 1, 2, 3};
  Harness h;
  h.pointer(h.buffer("v", DType::Int32, v));
  h.pointer(h.buffer("i", DType::Int32, idx));
  const auto out = runOne(h, {{DType::Int32, {2, 4}, 0}, {DType::Int32, {2, 4}, 0}},
                          {{DType::Int32, {2}, 0}, {DType::Int32, {2}, 0}},
                          [](ProgramBuilder &b, const std::vector<int> &in, const std::vector<int> &o) {
                            b.reduce(Opcode::VReduce, core::ReduceKind::ArgMax, 1, o, in);
                          });
  EXPECT_EQ(h.contents<int32_t>(out[0]), (std::vector<int32_t>{9, 4}));
  EXPECT_EQ(h.contents<int32_t>(out[1]), (std::vector<int32_t>{1, 0}));
}

TEST(Reduce, WelfordCombineProgram) {
  // (mean, m2, weight) combined left to right: delta = bm - am; w = aw + bw; r = bw / w;
  // mean = am + delta * r; m2 = am2 + bm2 + delta * delta * aw * r.
  auto program = std::make_shared<npu::CombineProgram>();
  program->valueTypes = {DType::Float32, DType::Float32, DType::Float32};
  auto step = [&](ElementOp op, std::vector<int> operands) {
    npu::CombineProgram::Step s;
    s.function = ProgramBuilder::function(op, DType::Float32);
    s.operands = std::move(operands);
    program->steps.push_back(s);
    return 6 + static_cast<int>(program->steps.size()) - 1;
  };
  const int delta = step(ElementOp::Sub, {3, 0});
  const int w = step(ElementOp::Add, {2, 5});
  const int ratio = step(ElementOp::Div, {5, w});
  const int shift = step(ElementOp::Mul, {delta, ratio});
  const int mean = step(ElementOp::Add, {0, shift});
  const int m2sum = step(ElementOp::Add, {1, 4});
  const int dd = step(ElementOp::Mul, {delta, delta});
  const int ddw = step(ElementOp::Mul, {dd, 2});
  const int ddwr = step(ElementOp::Mul, {ddw, ratio});
  const int m2 = step(ElementOp::Add, {m2sum, ddwr});
  program->results = {mean, m2, w};

  const auto x = ramp(12, 0.9f);
  Harness h;
  h.pointer(h.buffer("mean", DType::Float32, x));
  h.pointer(h.buffer("m2", DType::Float32, std::vector<float>(12, 0.0f)));
  h.pointer(h.buffer("w", DType::Float32, std::vector<float>(12, 1.0f)));
  const TileSpec in{DType::Float32, {12}, 0}, out{DType::Float32, {1}, 0};
  const auto bufs = runOne(h, {in, in, in}, {out, out, out},
                           [&](ProgramBuilder &b, const std::vector<int> &i, const std::vector<int> &o) {
                             b.reduce(Opcode::XReduce, core::ReduceKind::Combine, 0, o, i).combine = program;
                           });
  float am = x[0], am2 = 0.0f, aw = 1.0f;
  for (size_t k = 1; k < 12; ++k) {
    const float bm = x[k], bm2 = 0.0f, bw = 1.0f;
    const float d = bm - am, nw = aw + bw, r = bw / nw;
    const float nm = am + d * r;
    const float nm2 = (am2 + bm2) + ((d * d) * aw) * r;
    am = nm;
    am2 = nm2;
    aw = nw;
  }
  EXPECT_EQ(h.contents<float>(bufs[0])[0], am);
  EXPECT_EQ(h.contents<float>(bufs[1])[0], am2);
  EXPECT_EQ(h.contents<float>(bufs[2])[0], 12.0f);
}

TEST(Scan, CrossLaneCumsumAndReverseInLaneMax) {
  const std::vector<int32_t> x = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}; // [6, 2]
  {
    Harness h;
    h.pointer(h.buffer("x", DType::Int32, x));
    const auto out = runOne(h, {{DType::Int32, {6, 2}, 0}}, {{DType::Int32, {6, 2}, 0}},
                            [](ProgramBuilder &b, const std::vector<int> &in, const std::vector<int> &o) {
                              b.reduce(Opcode::XScan, core::ReduceKind::Sum, 0, o, in);
                            });
    std::vector<int32_t> expected(12);
    for (int j = 0; j < 2; ++j) {
      int32_t acc = 0;
      for (int i = 0; i < 6; ++i)
        expected[static_cast<size_t>(i * 2 + j)] = acc += x[static_cast<size_t>(i * 2 + j)];
    }
    EXPECT_EQ(h.contents<int32_t>(out[0]), expected);
  }
  {
    const std::vector<int32_t> y = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8}; // [2, 6], lanes over axis 0
    Harness h;
    h.pointer(h.buffer("y", DType::Int32, y));
    const auto out = runOne(h, {{DType::Int32, {2, 6}, 0}}, {{DType::Int32, {2, 6}, 0}},
                            [](ProgramBuilder &b, const std::vector<int> &in, const std::vector<int> &o) {
                              b.reduce(Opcode::VScan, core::ReduceKind::Max, 1, o, in).reverse = true;
                            });
    std::vector<int32_t> expected(12);
    for (int i = 0; i < 2; ++i) {
      int32_t acc = INT32_MIN;
      for (int j = 5; j >= 0; --j)
        expected[static_cast<size_t>(i * 6 + j)] = acc = std::max(acc, y[static_cast<size_t>(i * 6 + j)]);
    }
    EXPECT_EQ(h.contents<int32_t>(out[0]), expected);
  }
}

TEST(Sort, InLaneDescendingWithValues) {
  const std::vector<float> keys = {0.5f, -1.0f, 3.0f, 0.5f, 2.0f, 7.0f, 7.0f, -3.0f}; // [2, 4]
  const std::vector<int32_t> values = {0, 1, 2, 3, 0, 1, 2, 3};
  Harness h;
  h.pointer(h.buffer("k", DType::Float32, keys));
  h.pointer(h.buffer("v", DType::Int32, values));
  const auto out = runOne(h, {{DType::Float32, {2, 4}, 0}, {DType::Int32, {2, 4}, 0}},
                          {{DType::Float32, {2, 4}, 0}, {DType::Int32, {2, 4}, 0}},
                          [](ProgramBuilder &b, const std::vector<int> &in, const std::vector<int> &o) {
                            b.sort(Opcode::VSort, 1, true, o, in);
                          });
  EXPECT_EQ(h.contents<float>(out[0]),
            (std::vector<float>{3.0f, 0.5f, 0.5f, -1.0f, 7.0f, 7.0f, 2.0f, -3.0f}));
  // The bitonic network's order (hand-traced in tests/reference/reduce_test.cpp's style).
  EXPECT_EQ(h.contents<int32_t>(out[1]), (std::vector<int32_t>{2, 0, 3, 1, 1, 2, 0, 3}));
}

// Inductor's network on 4 elements (core/sort_network.h): rows [5 5 5 5] and
// [1 2 2 1] ascending. Unstable: the flipped stage-1 pair (2,3) swaps equal
// keys (row 0: 0 1 3 2); row 1: stage 2 swaps (1,3) (0 3 2 1). Stable: the
// last round's tie break by index gives 0 1 2 3 and 0 3 1 2.
TEST(Sort, InLaneTiesStableAndUnstable) {
  const std::vector<float> keys = {5, 5, 5, 5, 1, 2, 2, 1};
  const std::vector<int32_t> values = {0, 1, 2, 3, 0, 1, 2, 3};
  for (bool stable : {false, true}) {
    Harness h;
    h.pointer(h.buffer("k", DType::Float32, keys));
    h.pointer(h.buffer("v", DType::Int32, values));
    const auto out =
        runOne(h, {{DType::Float32, {2, 4}, 0}, {DType::Int32, {2, 4}, 0}},
               {{DType::Float32, {2, 4}, 0}, {DType::Int32, {2, 4}, 0}},
               [stable](ProgramBuilder &b, const std::vector<int> &in, const std::vector<int> &o) {
                 b.sort(Opcode::VSort, 1, false, o, in).stable = stable;
               });
    EXPECT_EQ(h.contents<int32_t>(out[1]), stable ? (std::vector<int32_t>{0, 1, 2, 3, 0, 3, 1, 2})
                                                  : (std::vector<int32_t>{0, 1, 3, 2, 0, 3, 2, 1}));
  }
}

// Across lanes, with NaN and a padding element. Keys [NaN 1 NaN 0]: NaN is the
// largest; stage 1 gives idx 1 0 2 3, stage 2 swaps (1,3), (0,1) and the NaN
// pair (2,3): idx 3 1 0 2. Keys [3 1 2 0] with element 3 padding: idx 1 2 0 3.
TEST(Sort, CrossLaneNaNLastAndInvalidAfterEverything) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> keys = {nan, 1.0f, nan, 0.0f, 3.0f, 1.0f, 2.0f, 0.0f};
  const std::vector<uint8_t> valid = {1, 1, 1, 1, 1, 1, 1, 0};
  Harness h;
  h.pointer(h.buffer("k", DType::Float32, keys));
  h.pointer(h.buffer("i", DType::Int32, std::vector<int32_t>{0, 1, 2, 3, 0, 1, 2, 3}));
  h.pointer(h.buffer("valid", DType::Bool, valid));
  const auto out =
      runOne(h, {{DType::Float32, {2, 4}, 1}, {DType::Int32, {2, 4}, 1}, {DType::Bool, {2, 4}, 1}},
             {{DType::Float32, {2, 4}, 1}, {DType::Int32, {2, 4}, 1}},
             [](ProgramBuilder &b, const std::vector<int> &in, const std::vector<int> &o) {
               b.sort(Opcode::XSort, 1, false, o, in);
             });
  EXPECT_EQ(h.contents<int32_t>(out[1]), (std::vector<int32_t>{3, 1, 0, 2, 1, 2, 0, 3}));
}

TEST(Shape, BroadcastsAndRelayouts) {
  const std::vector<int32_t> col = {1, 2, 3, 4}; // [4, 1], lanes over axis 0
  const std::vector<int32_t> row = {10, 20, 30}; // [1, 3]
  Harness h;
  h.pointer(h.buffer("col", DType::Int32, col));
  h.pointer(h.buffer("row", DType::Int32, row));
  const auto out = runOne(h, {{DType::Int32, {4, 1}, 0}, {DType::Int32, {1, 3}, 0}},
                          {{DType::Int32, {4, 3}, 0},
                           {DType::Int32, {4, 3}, 0},
                           {DType::Int32, {3, 4}, 1},
                           {DType::Int32, {2, 6}, 0}},
                          [](ProgramBuilder &b, const std::vector<int> &in, const std::vector<int> &o) {
                            b.broadcast(Opcode::VBroadcast, o[0], in[0]); // stretch axis 1, lanes unchanged
                            b.broadcast(Opcode::XBroadcast, o[1], in[1]); // stretch the lane axis
                            b.relayout(o[2], o[0], {1, 0});               // transpose
                            b.relayout(o[3], o[1]);                       // reshape, row-major order
                          });
  std::vector<int32_t> colB(12), rowB(12), colT(12);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 3; ++j) {
      colB[static_cast<size_t>(i * 3 + j)] = col[static_cast<size_t>(i)];
      rowB[static_cast<size_t>(i * 3 + j)] = row[static_cast<size_t>(j)];
      colT[static_cast<size_t>(j * 4 + i)] = col[static_cast<size_t>(i)];
    }
  EXPECT_EQ(h.contents<int32_t>(out[0]), colB);
  EXPECT_EQ(h.contents<int32_t>(out[1]), rowB);
  EXPECT_EQ(h.contents<int32_t>(out[2]), colT);
  EXPECT_EQ(h.contents<int32_t>(out[3]), rowB);
}

} // namespace
} // namespace npusim::functionaltest

namespace npusim::functionaltest {
namespace {

// A lane-local broadcast runs lane by lane: a middle lane axis of 6 over the
// harness's lanes (two lane groups, the second partial), axes stretched on
// both sides of it, and a float source with a signed zero and an infinity.
TEST(Shape, LaneLocalBroadcastOverSeveralLaneGroups) {
  std::vector<int32_t> x(12); // [2, 6, 1], lanes over axis 1
  for (size_t k = 0; k < x.size(); ++k)
    x[k] = static_cast<int32_t>(k * 7 + 1);
  const std::vector<float> y = {1.5f, -0.0f, std::numeric_limits<float>::infinity(),
                                2.0f, -3.0f, 0.25f}; // [1, 6, 1]
  Harness h;
  h.pointer(h.buffer("x", DType::Int32, x));
  h.pointer(h.buffer("y", DType::Float32, y));
  const auto out = runOne(h, {{DType::Int32, {2, 6, 1}, 1}, {DType::Float32, {1, 6, 1}, 1}},
                          {{DType::Int32, {2, 6, 3}, 1}, {DType::Float32, {3, 6, 2}, 1}},
                          [](ProgramBuilder &b, const std::vector<int> &in, const std::vector<int> &o) {
                            b.broadcast(Opcode::VBroadcast, o[0], in[0]);
                            b.broadcast(Opcode::VBroadcast, o[1], in[1]);
                          });
  std::vector<int32_t> xb;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 6; ++j)
      for (int k = 0; k < 3; ++k)
        xb.push_back(x[static_cast<size_t>(i * 6 + j)]);
  std::vector<uint32_t> yb, got;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 6; ++j)
      for (int k = 0; k < 2; ++k)
        yb.push_back(std::bit_cast<uint32_t>(y[static_cast<size_t>(j)]));
  for (float v : h.contents<float>(out[1]))
    got.push_back(std::bit_cast<uint32_t>(v));
  EXPECT_EQ(h.contents<int32_t>(out[0]), xb);
  EXPECT_EQ(got, yb);
}

} // namespace
} // namespace npusim::functionaltest
