// Reductions, scans and sort; expected values from plain loops (left folds in
// the dtype, as the interpreter documents its order) or written out by hand.
#include "reference/kernel_support.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace npusim::reftest {
namespace {

using ir::NanMode;
using ir::ReduceKind;

const float kReduceNaN = std::numeric_limits<float>::quiet_NaN();

// Appends an op whose region takes 2N scalar arguments (accumulators, then the
// next elements) and yields what combine() returns.
void addCombineRegion(
    Builder &b, ir::Op *op, const std::vector<DType> &dtypes,
    const std::function<std::vector<Value *>(Builder &, const std::vector<Value *> &)> &combine) {
  std::vector<Type> args;
  for (int half = 0; half < 2; ++half)
    for (DType d : dtypes)
      args.push_back(Type::scalar(d));
  ir::Block *region = b.addRegion(op, args);
  ir::Block *saved = b.insertionBlock();
  b.setInsertionBlock(region);
  b.yield(combine(b, region->arguments));
  b.setInsertionBlock(saved);
}

TEST(Reduce, BuiltinKindsAlongEitherAxis) {
  const int rows = 4, cols = 6;
  std::vector<float> x(rows * cols);
  for (int i = 0; i < rows * cols; ++i)
    x[i] = std::cos(static_cast<float>(i) * 0.7f) * 3.0f;
  Buffer bx = makeBuffer("x", DType::Float32, x);
  Buffer sum0 = makeBuffer("sum0", DType::Float32, std::vector<float>(cols));
  Buffer sum1 = makeBuffer("sum1", DType::Float32, std::vector<float>(rows));
  Buffer prod1 = makeBuffer("prod1", DType::Float32, std::vector<float>(rows));
  Buffer max0 = makeBuffer("max0", DType::Float32, std::vector<float>(cols));
  Buffer min1 = makeBuffer("min1", DType::Float32, std::vector<float>(rows));
  TileKernel k;
  Value *t = k.input(bx, {rows, cols});
  k.output(sum0, reduce(k.b, ReduceKind::Sum, {t}, 0)->result());
  k.output(sum1, reduce(k.b, ReduceKind::Sum, {t}, 1)->result());
  k.output(prod1, reduce(k.b, ReduceKind::Prod, {t}, 1)->result());
  k.output(max0, reduce(k.b, ReduceKind::Max, {t}, 0)->result());
  k.output(min1, reduce(k.b, ReduceKind::Min, {t}, 1)->result());
  k.run();
  for (int c = 0; c < cols; ++c) {
    float s = x[c], m = x[c];
    for (int r = 1; r < rows; ++r) {
      s = s + x[r * cols + c];
      m = std::max(m, x[r * cols + c]);
    }
    EXPECT_EQ(contents<float>(sum0)[c], s);
    EXPECT_EQ(contents<float>(max0)[c], m);
  }
  for (int r = 0; r < rows; ++r) {
    float s = x[r * cols], p = x[r * cols], m = x[r * cols];
    for (int c = 1; c < cols; ++c) {
      s = s + x[r * cols + c];
      p = p * x[r * cols + c];
      m = std::min(m, x[r * cols + c]);
    }
    EXPECT_EQ(contents<float>(sum1)[r], s);
    EXPECT_EQ(contents<float>(prod1)[r], p);
    EXPECT_EQ(contents<float>(min1)[r], m);
  }
}

TEST(Reduce, IntegerSumWrapsAndBitwiseKinds) {
  Buffer bx = makeBuffer("x", DType::Int32, std::vector<int32_t>{2147483647, 1, 5, 12});
  Buffer bs = makeBuffer("sum", DType::Int32, std::vector<int32_t>(1));
  Buffer ba = makeBuffer("and", DType::Int32, std::vector<int32_t>(1));
  Buffer bo = makeBuffer("or", DType::Int32, std::vector<int32_t>(1));
  Buffer bxr = makeBuffer("xor", DType::Int32, std::vector<int32_t>(1));
  TileKernel k;
  Value *t = k.input(bx, {4});
  k.output(bs, reduce(k.b, ReduceKind::Sum, {t}, 0)->result());
  k.output(ba, reduce(k.b, ReduceKind::And, {t}, 0)->result());
  k.output(bo, reduce(k.b, ReduceKind::Or, {t}, 0)->result());
  k.output(bxr, reduce(k.b, ReduceKind::Xor, {t}, 0)->result());
  k.run();
  const uint32_t wrapped = 2147483647u + 1u + 5u + 12u;
  EXPECT_EQ(contents<int32_t>(bs)[0], static_cast<int32_t>(wrapped));
  EXPECT_EQ(contents<int32_t>(ba)[0], 2147483647 & 1 & 5 & 12);
  EXPECT_EQ(contents<int32_t>(bo)[0], 2147483647 | 1 | 5 | 12);
  EXPECT_EQ(contents<int32_t>(bxr)[0], 2147483647 ^ 1 ^ 5 ^ 12);
}

TEST(Reduce, MaxMinNanModes) {
  Buffer bx = makeBuffer("x", DType::Float32, std::vector<float>{1.0f, kReduceNaN, 7.0f, -2.0f});
  std::vector<Buffer> outs;
  for (const char *name : {"max_ignore", "max_propagate", "min_ignore", "min_propagate"})
    outs.push_back(makeBuffer(name, DType::Float32, std::vector<float>(1)));
  TileKernel k;
  Value *t = k.input(bx, {4});
  k.output(outs[0], reduce(k.b, ReduceKind::Max, {t}, 0, NanMode::Ignore)->result());
  k.output(outs[1], reduce(k.b, ReduceKind::Max, {t}, 0, NanMode::Propagate)->result());
  k.output(outs[2], reduce(k.b, ReduceKind::Min, {t}, 0, NanMode::Ignore)->result());
  k.output(outs[3], reduce(k.b, ReduceKind::Min, {t}, 0, NanMode::Propagate)->result());
  k.run();
  EXPECT_EQ(contents<float>(outs[0])[0], 7.0f);
  EXPECT_TRUE(std::isnan(contents<float>(outs[1])[0]));
  EXPECT_EQ(contents<float>(outs[2])[0], -2.0f);
  EXPECT_TRUE(std::isnan(contents<float>(outs[3])[0]));
}

// tl.reduce with a two-value combine function, along axis 0 of a [5, 3] tile:
// (a0, a1), (b0, b1) -> (a0 + 2 * b0, max(a1, b1)). Not commutative, so the
// left-fold order shows.
TEST(Reduce, CombineRegionOfTwoValues) {
  const int rows = 5, cols = 3;
  std::vector<int32_t> x0(rows * cols), x1(rows * cols);
  for (int i = 0; i < rows * cols; ++i) {
    x0[i] = i * 7 % 11 - 5;
    x1[i] = (i * 5) % 9;
  }
  Buffer b0 = makeBuffer("x0", DType::Int32, x0);
  Buffer b1 = makeBuffer("x1", DType::Int32, x1);
  Buffer r0 = makeBuffer("r0", DType::Int32, std::vector<int32_t>(cols));
  Buffer r1 = makeBuffer("r1", DType::Int32, std::vector<int32_t>(cols));
  TileKernel k;
  Value *t0 = k.input(b0, {rows, cols});
  Value *t1 = k.input(b1, {rows, cols});
  ir::Op *op = reduce(k.b, ReduceKind::Combine, {t0, t1}, 0);
  addCombineRegion(k.b, op, {DType::Int32, DType::Int32}, [](Builder &b, const std::vector<Value *> &a) {
    Value *twice = b.binary(OpCode::Mul, a[2], b.constantInt(DType::Int32, 2));
    return std::vector<Value *>{b.binary(OpCode::Add, a[0], twice),
                                b.minMax(OpCode::Max, a[1], a[3], NanMode::Ignore)};
  });
  k.output(r0, op->result(0));
  k.output(r1, op->result(1));
  k.run();
  for (int c = 0; c < cols; ++c) {
    int32_t acc0 = x0[c], acc1 = x1[c];
    for (int r = 1; r < rows; ++r) {
      acc0 = acc0 + 2 * x0[r * cols + c];
      acc1 = std::max(acc1, x1[r * cols + c]);
    }
    EXPECT_EQ(contents<int32_t>(r0)[c], acc0) << c;
    EXPECT_EQ(contents<int32_t>(r1)[c], acc1) << c;
  }
}

// A combine function with control flow (an if) runs lane by lane rather than
// on all lanes at once; the result must be the same: here a float max along axis 1.
TEST(Reduce, CombineRegionWithControlFlow) {
  const int rows = 3, cols = 5;
  std::vector<float> x(rows * cols);
  for (int i = 0; i < rows * cols; ++i)
    x[i] = std::sin(static_cast<float>(i * 3));
  Buffer bx = makeBuffer("x", DType::Float32, x);
  Buffer out = makeBuffer("out", DType::Float32, std::vector<float>(rows));
  TileKernel k;
  Value *t = k.input(bx, {rows, cols});
  ir::Op *op = reduce(k.b, ReduceKind::Combine, {t}, 1);
  addCombineRegion(k.b, op, {DType::Float32}, [](Builder &b, const std::vector<Value *> &a) {
    Value *greater = b.cmp(ir::CmpPredicate::Gt, a[0], a[1]);
    ir::Op *branch = b.create(OpCode::If, {greater}, {Type::scalar(DType::Float32)});
    ir::Block *saved = b.insertionBlock();
    b.setInsertionBlock(b.addRegion(branch, {}));
    b.yield({a[0]});
    b.setInsertionBlock(b.addRegion(branch, {}));
    b.yield({a[1]});
    b.setInsertionBlock(saved);
    return std::vector<Value *>{branch->result()};
  });
  k.output(out, op->result());
  k.run();
  for (int r = 0; r < rows; ++r) {
    float m = x[r * cols];
    for (int c = 1; c < cols; ++c)
      m = m > x[r * cols + c] ? m : x[r * cols + c];
    EXPECT_EQ(contents<float>(out)[r], m);
  }
}

struct ArgResult {
  float value;
  int32_t index;
};

ArgResult argReduce(ReduceKind kind, NanMode mode, const std::vector<float> &values) {
  const int n = static_cast<int>(values.size());
  Buffer bv = makeBuffer("values", DType::Float32, values);
  Buffer ov = makeBuffer("value", DType::Float32, std::vector<float>(1));
  Buffer oi = makeBuffer("index", DType::Int32, std::vector<int32_t>(1));
  TileKernel k;
  Value *v = k.input(bv, {n});
  ir::Op *op = reduce(k.b, kind, {v, k.b.arange(0, n)}, 0, mode);
  k.output(ov, op->result(0));
  k.output(oi, op->result(1));
  k.run();
  return {contents<float>(ov)[0], contents<int32_t>(oi)[0]};
}

TEST(Reduce, ArgMaxArgMinTiesAndNaN) {
  const std::vector<float> v{1.0f, 5.0f, 5.0f, kReduceNaN, 3.0f, kReduceNaN, 1.0f};
  ArgResult r = argReduce(ReduceKind::ArgMax, NanMode::Propagate, v);
  EXPECT_TRUE(std::isnan(r.value));
  EXPECT_EQ(r.index, 3); // the first NaN
  r = argReduce(ReduceKind::ArgMax, NanMode::Ignore, v);
  EXPECT_EQ(r.value, 5.0f);
  EXPECT_EQ(r.index, 1); // ties go to the smallest index
  r = argReduce(ReduceKind::ArgMin, NanMode::Propagate, v);
  EXPECT_TRUE(std::isnan(r.value));
  EXPECT_EQ(r.index, 3);
  r = argReduce(ReduceKind::ArgMin, NanMode::Ignore, v);
  EXPECT_EQ(r.value, 1.0f);
  EXPECT_EQ(r.index, 0);
  r = argReduce(ReduceKind::ArgMin, NanMode::Propagate, {4.0f, 2.0f, 3.0f, 2.0f});
  EXPECT_EQ(r.value, 2.0f);
  EXPECT_EQ(r.index, 1);
  r = argReduce(ReduceKind::ArgMax, NanMode::Ignore, {kReduceNaN, kReduceNaN});
  EXPECT_TRUE(std::isnan(r.value));
  EXPECT_EQ(r.index, 0);
}

// Indices are operands, not positions: ties go to the smallest index value.
TEST(Reduce, ArgMaxAlongAxisZeroWithGivenIndices) {
  const int rows = 4, cols = 3;
  const std::vector<int32_t> v{3, 9, 1, 7, 9, 1, 7, 2, 0, 3, 9, 1};
  const std::vector<int32_t> idx{10, 11, 12, 13, 1, 14, 2, 15, 16, 17, 18, 19};
  Buffer bv = makeBuffer("v", DType::Int32, v);
  Buffer bi = makeBuffer("i", DType::Int32, idx);
  Buffer ov = makeBuffer("ov", DType::Int32, std::vector<int32_t>(cols));
  Buffer oi = makeBuffer("oi", DType::Int32, std::vector<int32_t>(cols));
  TileKernel k;
  Value *tv = k.input(bv, {rows, cols});
  Value *ti = k.input(bi, {rows, cols});
  ir::Op *op = reduce(k.b, ReduceKind::ArgMax, {tv, ti}, 0);
  k.output(ov, op->result(0));
  k.output(oi, op->result(1));
  k.run();
  // Column 0: 3, 7, 7, 3 -> 7 at indices 13 and 2 -> 2.
  // Column 1: 9, 9, 2, 9 -> indices 11, 1, 18 -> 1. Column 2: 1, 1, 0, 1 -> 12, 14, 19 -> 12.
  EXPECT_EQ(contents<int32_t>(ov), (std::vector<int32_t>{7, 9, 1}));
  EXPECT_EQ(contents<int32_t>(oi), (std::vector<int32_t>{2, 1, 12}));
}

TEST(Scan, CumsumForwardAndReverseAlongAxisOne) {
  const int rows = 2, cols = 8;
  std::vector<float> x(rows * cols);
  for (int i = 0; i < rows * cols; ++i)
    x[i] = 0.1f * static_cast<float>(i * i % 13) - 0.4f;
  Buffer bx = makeBuffer("x", DType::Float32, x);
  Buffer fwd = makeBuffer("fwd", DType::Float32, std::vector<float>(rows * cols));
  Buffer rev = makeBuffer("rev", DType::Float32, std::vector<float>(rows * cols));
  TileKernel k;
  Value *t = k.input(bx, {rows, cols});
  k.output(fwd, scan(k.b, ReduceKind::Sum, {t}, 1, false)->result());
  k.output(rev, scan(k.b, ReduceKind::Sum, {t}, 1, true)->result());
  k.run();
  for (int r = 0; r < rows; ++r) {
    float acc = 0.0f;
    for (int c = 0; c < cols; ++c) {
      acc = c == 0 ? x[r * cols] : acc + x[r * cols + c];
      EXPECT_EQ(contents<float>(fwd)[r * cols + c], acc);
    }
    for (int c = cols - 1; c >= 0; --c) {
      acc = c == cols - 1 ? x[r * cols + c] : acc + x[r * cols + c];
      EXPECT_EQ(contents<float>(rev)[r * cols + c], acc);
    }
  }
}

TEST(Scan, IntegerCumsumCumprodCummaxAlongAxisZero) {
  const std::vector<int32_t> x{3, -1, 2, 4, 0, -5, 1, 7, -2}; // [3, 3]
  Buffer bx = makeBuffer("x", DType::Int32, x);
  Buffer s = makeBuffer("s", DType::Int32, std::vector<int32_t>(9));
  Buffer p = makeBuffer("p", DType::Int32, std::vector<int32_t>(9));
  Buffer m = makeBuffer("m", DType::Int32, std::vector<int32_t>(9));
  TileKernel k;
  Value *t = k.input(bx, {3, 3});
  k.output(s, scan(k.b, ReduceKind::Sum, {t}, 0, false)->result());
  k.output(p, scan(k.b, ReduceKind::Prod, {t}, 0, false)->result());
  k.output(m, scan(k.b, ReduceKind::Max, {t}, 0, false)->result());
  k.run();
  EXPECT_EQ(contents<int32_t>(s), (std::vector<int32_t>{3, -1, 2, 7, -1, -3, 8, 6, -5}));
  EXPECT_EQ(contents<int32_t>(p), (std::vector<int32_t>{3, -1, 2, 12, 0, -10, 12, 0, 20}));
  EXPECT_EQ(contents<int32_t>(m), (std::vector<int32_t>{3, -1, 2, 4, 0, 2, 4, 7, 2}));
}

// tl.associative_scan with combine(a, b) = 2 * a + b, which is not commutative:
// forward s[k] = 2 * s[k-1] + x[k]; reverse s[k] = 2 * s[k+1] + x[k].
TEST(Scan, CombineRegionForwardAndReverse) {
  const std::vector<int32_t> x{1, 2, 3, 4, 5, 6};
  Buffer bx = makeBuffer("x", DType::Int32, x);
  Buffer fwd = makeBuffer("fwd", DType::Int32, std::vector<int32_t>(6));
  Buffer rev = makeBuffer("rev", DType::Int32, std::vector<int32_t>(6));
  TileKernel k;
  Value *t = k.input(bx, {6});
  auto combine = [](Builder &b, const std::vector<Value *> &a) {
    return std::vector<Value *>{
        b.binary(OpCode::Add, b.binary(OpCode::Mul, b.constantInt(DType::Int32, 2), a[0]), a[1])};
  };
  ir::Op *f = scan(k.b, ReduceKind::Combine, {t}, 0, false);
  addCombineRegion(k.b, f, {DType::Int32}, combine);
  ir::Op *r = scan(k.b, ReduceKind::Combine, {t}, 0, true);
  addCombineRegion(k.b, r, {DType::Int32}, combine);
  k.output(fwd, f->result());
  k.output(rev, r->result());
  k.run();
  std::vector<int32_t> ef(6), er(6);
  ef[0] = x[0];
  for (int i = 1; i < 6; ++i)
    ef[i] = 2 * ef[i - 1] + x[i];
  er[5] = x[5];
  for (int i = 4; i >= 0; --i)
    er[i] = 2 * er[i + 1] + x[i];
  EXPECT_EQ(contents<int32_t>(fwd), ef);
  EXPECT_EQ(contents<int32_t>(rev), er);
}

void sortInto(TileKernel &k, Value *keys, Value *values, bool descending, Buffer &ok, Buffer &ov,
              bool stable = false) {
  ir::Op *op = k.b.create(OpCode::Sort, {keys, values}, {keys->type, values->type});
  op->axis = keys->type.rank() - 1;
  op->descending = descending;
  op->stable = stable;
  k.output(ok, op->result(0));
  k.output(ov, op->result(1));
}

// Inductor's sort_with_index is a bitonic network (core/sort_network.h). For 4
// elements: stage 1 compares (0,1) ascending and (2,3) flipped; stage 2
// compares (0,2), (1,3), then (0,1), (2,3), unflipped. A pair swaps when
// cond ^ flip, so in a flipped pair equal keys swap.
struct SortCase {
  std::vector<float> keys;
  bool descending, stable;
  std::vector<float> sortedKeys;
  std::vector<int32_t> sortedIndices;
};

TEST(Sort, WithIndexTiesAndNaNFollowTheNetwork) {
  const std::vector<SortCase> cases = {
      // All equal, unstable: only the flipped pair (2,3) swaps: 0 1 3 2.
      {{5, 5, 5, 5}, false, false, {5, 5, 5, 5}, {0, 1, 3, 2}},
      // Stable: the tie break by index swaps (3,2) back in the last round.
      {{5, 5, 5, 5}, false, true, {5, 5, 5, 5}, {0, 1, 2, 3}},
      // Descending, unstable: [1 2 2 1] -> stage 1 [2 1 | 1 2] (idx 1 0 3 2) ->
      // (1,3) swaps: idx 1 2 3 0; no more swaps.
      {{1, 2, 2, 1}, true, false, {2, 2, 1, 1}, {1, 2, 3, 0}},
      // Descending, stable: the last (2,3) compare swaps idx 3 and 0 back.
      {{1, 2, 2, 1}, true, true, {2, 2, 1, 1}, {1, 2, 0, 3}},
      // NaN counts as the largest: [NaN 1 NaN 0] -> stage 1 [1 NaN | NaN 0]
      // (idx 1 0 2 3) -> (1,3) swaps (idx 1 3 2 0) -> (0,1) and the NaN pair
      // (2,3) swap (unstable: isnan(L) alone decides): idx 3 1 0 2.
      {{kReduceNaN, 1, kReduceNaN, 0}, false, false, {0, 1, kReduceNaN, kReduceNaN}, {3, 1, 0, 2}},
      // 8 equal keys, unstable: stage 1 swaps the pairs with bit 1 set ((2,3),
      // (6,7): 0 1 3 2 4 5 7 6); stage 2 flips the half with bit 2 set, swapping
      // (4,6), (5,7), then (4,5), (6,7): 0 1 3 2 6 7 5 4; stage 3 swaps nothing.
      {{5, 5, 5, 5, 5, 5, 5, 5}, false, false, {5, 5, 5, 5, 5, 5, 5, 5}, {0, 1, 3, 2, 6, 7, 5, 4}},
  };
  for (const SortCase &c : cases) {
    const int64_t n = static_cast<int64_t>(c.keys.size());
    Buffer bk = makeBuffer("keys", DType::Float32, c.keys);
    Buffer ok = makeBuffer("ok", DType::Float32, std::vector<float>(c.keys.size()));
    Buffer ov = makeBuffer("ov", DType::Int32, std::vector<int32_t>(c.keys.size()));
    TileKernel k;
    sortInto(k, k.input(bk, {n}), k.b.arange(0, n), c.descending, ok, ov, c.stable);
    k.run();
    const std::vector<float> keys = contents<float>(ok);
    for (size_t i = 0; i < c.keys.size(); ++i)
      if (std::isnan(c.sortedKeys[i]))
        EXPECT_TRUE(std::isnan(keys[i])) << i;
      else
        EXPECT_EQ(keys[i], c.sortedKeys[i]) << i;
    EXPECT_EQ(contents<int32_t>(ov), c.sortedIndices)
        << "descending " << c.descending << " stable " << c.stable << " first key " << c.keys[0];
  }
}

// tl.sort picks each position's element separately: a pair that compares
// false both ways (-0 against +0, NaN against anything) can keep one element
// twice, as Triton's `where((x > y) != (flip ^ is_right), y, x)` does.
TEST(Sort, TritonSortPicksPerPosition) {
  Buffer bk = makeBuffer("keys", DType::Float32, std::vector<float>{0.0f, -0.0f, kReduceNaN, 1.0f});
  Buffer bd = makeBuffer("desc", DType::Float32, std::vector<float>{1, 3, 3, 2});
  Buffer ok = makeBuffer("ok", DType::Float32, std::vector<float>(4));
  Buffer od = makeBuffer("od", DType::Float32, std::vector<float>(4));
  TileKernel k;
  for (bool descending : {false, true}) {
    ir::Op *op =
        k.b.create(OpCode::Sort, {k.input(descending ? bd : bk, {4})}, {ir::Type::tile(DType::Float32, {4})});
    op->axis = 0;
    op->descending = descending;
    k.output(descending ? od : ok, op->result(0));
  }
  k.run();
  // Stage 1: (0,1) unflipped: position 0 keeps +0, position 1 takes +0;
  // (2,3) flipped: position 2 takes 1, position 3 keeps 1. Stage 2 changes nothing.
  const std::vector<float> ascending = contents<float>(ok);
  EXPECT_EQ(ascending, (std::vector<float>{0, 0, 1, 1}));
  EXPECT_FALSE(std::signbit(ascending[0]) || std::signbit(ascending[1]));
  // Distinct values sort: [1 3 3 2] -> [3 3 2 1].
  EXPECT_EQ(contents<float>(od), (std::vector<float>{3, 3, 2, 1}));
}

TEST(Sort, UnsignedKeysPerRow) {
  const std::vector<uint8_t> keys{200, 100, 255, 0, 7, 7, 1, 130};
  Buffer bk = makeBuffer("keys", DType::UInt8, keys);
  Buffer bv = makeBuffer("vals", DType::Int16, std::vector<int16_t>{0, 1, 2, 3, 4, 5, 6, 7});
  Buffer ok = makeBuffer("ok", DType::UInt8, std::vector<uint8_t>(8));
  Buffer ov = makeBuffer("ov", DType::Int16, std::vector<int16_t>(8));
  TileKernel k;
  sortInto(k, k.input(bk, {2, 4}), k.input(bv, {2, 4}), false, ok, ov);
  k.run();
  EXPECT_EQ(contents<uint8_t>(ok), (std::vector<uint8_t>{0, 100, 200, 255, 1, 7, 7, 130}));
  EXPECT_EQ(contents<int16_t>(ov), (std::vector<int16_t>{3, 1, 0, 2, 6, 4, 5, 7}));
}

// sort_with_index over a padded row: an element whose valid is false loses
// every compare against a valid one. Keys [3 1 2 0], element 3 padding:
// ascending: stage 1 swaps (0,1) and the flipped (2,3) ([1 3 | 0 2], idx 1 0 3 2),
// stage 2 swaps (1,3) and the padding pair (2,3): idx 1 2 0 3;
// descending: stage 1 swaps only (2,3) (idx 0 1 3 2), stage 2 swaps (1,3) and (2,3): idx 0 2 1 3.
TEST(Sort, InvalidElementsGoLast) {
  Buffer bk = makeBuffer("keys", DType::Int32, std::vector<int32_t>{3, 1, 2, 0});
  Buffer bm = makeBuffer("valid", DType::Bool, std::vector<uint8_t>{1, 1, 1, 0});
  Buffer ak = makeBuffer("ak", DType::Int32, std::vector<int32_t>(4));
  Buffer av = makeBuffer("av", DType::Int32, std::vector<int32_t>(4));
  Buffer dk = makeBuffer("dk", DType::Int32, std::vector<int32_t>(4));
  Buffer dv = makeBuffer("dv", DType::Int32, std::vector<int32_t>(4));
  TileKernel k;
  Value *keys = k.input(bk, {4});
  Value *valid = k.input(bm, {4});
  Value *idx = k.b.arange(0, 4);
  for (bool descending : {false, true}) {
    ir::Op *op = k.b.create(OpCode::Sort, {keys, idx, valid}, {keys->type, idx->type});
    op->descending = descending;
    k.output(descending ? dk : ak, op->result(0));
    k.output(descending ? dv : av, op->result(1));
  }
  k.run();
  EXPECT_EQ(contents<int32_t>(ak), (std::vector<int32_t>{1, 2, 3, 0}));
  EXPECT_EQ(contents<int32_t>(av), (std::vector<int32_t>{1, 2, 0, 3}));
  EXPECT_EQ(contents<int32_t>(dk), (std::vector<int32_t>{3, 2, 1, 0}));
  EXPECT_EQ(contents<int32_t>(dv), (std::vector<int32_t>{0, 2, 1, 3}));
}

TEST(Sort, LengthMustBeAPowerOfTwo) {
  Buffer bk = makeBuffer("keys", DType::Int32, std::vector<int32_t>{3, 1, 2});
  Buffer ok = makeBuffer("ok", DType::Int32, std::vector<int32_t>(3));
  Buffer ov = makeBuffer("ov", DType::Int32, std::vector<int32_t>(3));
  TileKernel k;
  sortInto(k, k.input(bk, {3}), k.b.arange(0, 3), false, ok, ov);
  EXPECT_THROW(k.run(), core::RuntimeError);
}

} // namespace
} // namespace npusim::reftest
