// Whole kernels as Inductor writes them, built with ir::Builder and run by the
// reference interpreter; expected values come from plain loops below.
#include "reference/kernel_support.h"

#include <gtest/gtest.h>

#include <cmath>

namespace npusim::reftest {
namespace {

// triton_poi_fused_add_0: out[x] = in0[x] + in1[x] for x < xnumel, XBLOCK = 128.
struct PointwiseAdd {
  ir::Function fn{"triton_poi_fused_add_0"};
  PointwiseAdd() {
    Builder b(fn);
    Value *in0 = fn.addParameter("in_ptr0", Type::pointer(DType::Float32));
    Value *in1 = fn.addParameter("in_ptr1", Type::pointer(DType::Float32));
    Value *out = fn.addParameter("out_ptr0", Type::pointer(DType::Float32));
    Value *xnumel = fn.addParameter("xnumel", Type::scalar(DType::Int32));
    b.setLocation({"add.py", 20, 5});
    Value *xoffset = b.binary(OpCode::Mul, b.programId(0), b.constantInt(DType::Int32, 128));
    Value *xindex = b.binary(OpCode::Add, b.splat(xoffset, {128}), b.arange(0, 128));
    Value *xmask = b.cmp(ir::CmpPredicate::Lt, xindex, b.splat(xnumel, {128}));
    b.setLocation({"add.py", 23, 12});
    Value *tmp0 = b.load(pointerPlus(b, in0, xindex), xmask, nullptr);
    Value *tmp1 = b.load(pointerPlus(b, in1, xindex), xmask, nullptr);
    b.store(pointerPlus(b, out, xindex), b.binary(OpCode::Add, tmp0, tmp1), xmask);
  }
};

TEST(Interpreter, PointwiseAddWithMaskedTail) {
  PointwiseAdd k;
  const int n = 1000; // not a multiple of XBLOCK: the last program has 24 masked-off lanes
  std::vector<float> a(n), b(n);
  for (int i = 0; i < n; ++i) {
    a[i] = 0.1f * static_cast<float>(i);
    b[i] = 1.0f / static_cast<float>(i + 1);
  }
  Buffer in0 = makeBuffer("in_ptr0", DType::Float32, a);
  Buffer in1 = makeBuffer("in_ptr1", DType::Float32, b);
  Buffer out = makeBuffer("out_ptr0", DType::Float32, std::vector<float>(n, -1.0f));
  std::vector<Argument> args{pointerArg(in0), pointerArg(in1), pointerArg(out), intArg(n)};
  const reference::LaunchStats stats = reference::runLaunch(k.fn, Grid{8, 1, 1}, args);
  const std::vector<float> got = contents<float>(out);
  for (int i = 0; i < n; ++i)
    ASSERT_EQ(got[i], a[i] + b[i]) << i;
  EXPECT_EQ(stats.programs, 8);
  EXPECT_EQ(stats.opsExecuted, 8 * k.fn.numOps());
  EXPECT_GT(stats.elementsProcessed, 8 * 128 * 5);
}

TEST(Interpreter, PointerArgumentOffset) {
  PointwiseAdd k;
  std::vector<float> a(200), b(200);
  for (int i = 0; i < 200; ++i) {
    a[i] = static_cast<float>(i);
    b[i] = static_cast<float>(1000 * i);
  }
  Buffer in0 = makeBuffer("in_ptr0", DType::Float32, a);
  Buffer in1 = makeBuffer("in_ptr1", DType::Float32, b);
  Buffer out = makeBuffer("out_ptr0", DType::Float32, std::vector<float>(200, 0.0f));
  // The kernel sees in_ptr0 from element 50 and out_ptr0 from element 10.
  std::vector<Argument> args{pointerArg(in0, 50), pointerArg(in1), pointerArg(out, 10), intArg(100)};
  reference::runLaunch(k.fn, Grid{1, 1, 1}, args);
  const std::vector<float> got = contents<float>(out);
  for (int i = 0; i < 200; ++i) {
    const float expected = (i >= 10 && i < 110) ? a[i - 10 + 50] + b[i - 10] : 0.0f;
    ASSERT_EQ(got[i], expected) << i;
  }
}

// out[i, j] = a[i] * b[j] + c over a 16 x 32 output in [8, 16] blocks on a 2-D grid.
TEST(Interpreter, TwoDimensionalBroadcast) {
  ir::Function fn("triton_poi_outer");
  Builder b(fn);
  Value *pa = fn.addParameter("in_ptr0", Type::pointer(DType::Float32));
  Value *pb = fn.addParameter("in_ptr1", Type::pointer(DType::Float32));
  Value *po = fn.addParameter("out_ptr0", Type::pointer(DType::Float32));
  Value *c = fn.addParameter("c", Type::scalar(DType::Float32));
  Value *yindex = b.binary(
      OpCode::Add, b.splat(b.binary(OpCode::Mul, b.programId(1), b.constantInt(DType::Int32, 8)), {8}),
      b.arange(0, 8));
  Value *xindex = b.binary(
      OpCode::Add, b.splat(b.binary(OpCode::Mul, b.programId(0), b.constantInt(DType::Int32, 16)), {16}),
      b.arange(0, 16));
  Value *ta = b.load(pointerPlus(b, pa, yindex), nullptr, nullptr);
  Value *tb = b.load(pointerPlus(b, pb, xindex), nullptr, nullptr);
  Value *a2 = b.broadcast(b.expandDims(ta, 1), {8, 16});
  Value *b2 = b.broadcast(b.expandDims(tb, 0), {8, 16});
  Value *rowOff = b.binary(OpCode::Mul, b.broadcast(b.expandDims(yindex, 1), {8, 16}),
                           b.constantInt(DType::Int32, 32, {8, 16}));
  Value *off = b.binary(OpCode::Add, rowOff, b.broadcast(b.expandDims(xindex, 0), {8, 16}));
  Value *v = b.binary(OpCode::Add, b.binary(OpCode::Mul, a2, b2), b.splat(c, {8, 16}));
  b.store(pointerPlus(b, po, off), v, nullptr);

  std::vector<float> a(16), bv(32);
  for (int i = 0; i < 16; ++i)
    a[i] = 1.5f + static_cast<float>(i);
  for (int j = 0; j < 32; ++j)
    bv[j] = 0.25f * static_cast<float>(j) - 3.0f;
  Buffer ba = makeBuffer("in_ptr0", DType::Float32, a);
  Buffer bb = makeBuffer("in_ptr1", DType::Float32, bv);
  Buffer bo = makeBuffer("out_ptr0", DType::Float32, std::vector<float>(16 * 32, 0.0f));
  std::vector<Argument> args{pointerArg(ba), pointerArg(bb), pointerArg(bo), floatArg(0.1)};
  reference::runLaunch(fn, Grid{2, 2, 1}, args);
  const std::vector<float> got = contents<float>(bo);
  const float cf = 0.1f; // the fp32 parameter rounds 0.1 to float
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 32; ++j)
      ASSERT_EQ(got[i * 32 + j], a[i] * bv[j] + cf) << i << "," << j;
}

// A looped reduction (triton_red_): row sums of a [4, 100] matrix with R0_BLOCK = 32,
// accumulating a [4, 32] tile across loop iterations, then tl.sum(acc, 1).
TEST(Interpreter, ReductionLoopWithCarriedAccumulator) {
  const int rows = 4, cols = 100, rblock = 32;
  ir::Function fn("triton_red_fused_sum_0");
  Builder b(fn);
  Value *px = fn.addParameter("in_ptr0", Type::pointer(DType::Float32));
  Value *po = fn.addParameter("out_ptr0", Type::pointer(DType::Float32));
  Value *rnumel = fn.addParameter("r0_numel", Type::scalar(DType::Int32));
  Value *xindex = b.expandDims(b.arange(0, rows), 1); // [4, 1]
  Value *rowBase = b.binary(OpCode::Mul, xindex, b.constantInt(DType::Int32, cols, {rows, 1}));
  Value *acc0 = b.constantFloat(DType::Float32, 0.0, {rows, rblock});
  ir::Op *loop = b.create(OpCode::For,
                          {b.constantInt(DType::Int32, 0), rnumel, b.constantInt(DType::Int32, rblock), acc0},
                          {acc0->type});
  ir::Block *body = b.addRegion(loop, {Type::scalar(DType::Int32), acc0->type});
  b.setInsertionBlock(body);
  {
    Value *r0 = body->arguments[0];
    Value *acc = body->arguments[1];
    Value *rindex = b.binary(OpCode::Add, b.splat(r0, {1, rblock}), b.expandDims(b.arange(0, rblock), 0));
    Value *rmask = b.cmp(ir::CmpPredicate::Lt, rindex, b.splat(rnumel, {1, rblock}));
    Value *off =
        b.binary(OpCode::Add, b.broadcast(rowBase, {rows, rblock}), b.broadcast(rindex, {rows, rblock}));
    Value *v = b.load(pointerPlus(b, px, off), b.broadcast(rmask, {rows, rblock}),
                      b.constantFloat(DType::Float32, 0.0, {rows, rblock}));
    b.yield({b.binary(OpCode::Add, acc, v)});
  }
  b.setInsertionBlock(&fn.body());
  ir::Op *sum = b.create(OpCode::Reduce, {loop->result()}, {Type::tile(DType::Float32, {rows})});
  sum->axis = 1;
  sum->reduceKind = ir::ReduceKind::Sum;
  b.store(pointerPlus(b, po, b.arange(0, rows)), sum->result(), nullptr);

  std::vector<float> x(rows * cols);
  for (int i = 0; i < rows * cols; ++i)
    x[i] = std::sin(static_cast<float>(i)) * 10.0f;
  Buffer bx = makeBuffer("in_ptr0", DType::Float32, x);
  Buffer bo = makeBuffer("out_ptr0", DType::Float32, std::vector<float>(rows, 0.0f));
  std::vector<Argument> args{pointerArg(bx), pointerArg(bo), intArg(cols)};
  reference::runLaunch(fn, Grid{}, args);
  const std::vector<float> got = contents<float>(bo);
  for (int r = 0; r < rows; ++r) {
    // Same order as the kernel: lane j accumulates columns j, j + 32, ...; then a
    // left fold over the lanes.
    float lanes[rblock] = {};
    for (int r0 = 0; r0 < cols; r0 += rblock)
      for (int j = 0; j < rblock; ++j)
        lanes[j] = lanes[j] + (r0 + j < cols ? x[r * cols + r0 + j] : 0.0f);
    float expected = lanes[0];
    for (int j = 1; j < rblock; ++j)
      expected = expected + lanes[j];
    EXPECT_EQ(got[r], expected) << r;
  }
}

// Loop-carried values swapped every iteration (yield(b, a)), a loop that runs
// zero times, a negative step, and an i64 induction variable.
TEST(Interpreter, ForLoopCarriedPermutationAndBounds) {
  ir::Function fn("loops");
  Builder b(fn);
  Value *po = fn.addParameter("out_ptr0", Type::pointer(DType::Int64));
  Value *n = fn.addParameter("n", Type::scalar(DType::Int64));
  auto forLoop =
      [&](Value *lo, Value *hi, Value *step, std::vector<Value *> inits,
          const std::function<std::vector<Value *>(Value *, const std::vector<Value *> &)> &bodyFn) {
        std::vector<Type> types;
        for (Value *v : inits)
          types.push_back(v->type);
        std::vector<Value *> operands{lo, hi, step};
        operands.insert(operands.end(), inits.begin(), inits.end());
        ir::Op *op = b.create(OpCode::For, operands, types);
        std::vector<Type> argTypes{lo->type};
        argTypes.insert(argTypes.end(), types.begin(), types.end());
        ir::Block *body = b.addRegion(op, argTypes);
        ir::Block *saved = b.insertionBlock();
        b.setInsertionBlock(body);
        std::vector<Value *> carried(body->arguments.begin() + 1, body->arguments.end());
        b.yield(bodyFn(body->arguments[0], carried));
        b.setInsertionBlock(saved);
        return op;
      };
  auto c64 = [&](int64_t v) { return b.constantInt(DType::Int64, v); };
  // (a, b) -> (b, a + iv) for iv in range(0, n): a Fibonacci-like mix.
  ir::Op *l1 = forLoop(c64(0), n, c64(1), {c64(1), c64(2)}, [&](Value *iv, const std::vector<Value *> &c) {
    return std::vector<Value *>{c[1], b.binary(OpCode::Add, c[0], iv)};
  });
  // Zero trips: results are the inits.
  ir::Op *l2 = forLoop(c64(5), c64(5), c64(1), {c64(42)}, [&](Value *iv, const std::vector<Value *> &c) {
    return std::vector<Value *>{b.binary(OpCode::Add, c[0], iv)};
  });
  // range(10, -3, -4): 10, 6, 2, -2 -> sum 16.
  ir::Op *l3 = forLoop(c64(10), c64(-3), c64(-4), {c64(0)}, [&](Value *iv, const std::vector<Value *> &c) {
    return std::vector<Value *>{b.binary(OpCode::Add, c[0], iv)};
  });
  // range(0, 10, 3) with a value from outside the loop yielded unchanged.
  Value *outside = c64(7);
  ir::Op *l4 =
      forLoop(c64(0), c64(10), c64(3), {c64(0), c64(0)}, [&](Value *iv, const std::vector<Value *> &c) {
        return std::vector<Value *>{outside, b.binary(OpCode::Add, c[1], iv)};
      });
  std::vector<Value *> results{l1->result(0), l1->result(1), l2->result(0),
                               l3->result(0), l4->result(0), l4->result(1)};
  for (size_t i = 0; i < results.size(); ++i) {
    ir::Op *ptr = b.create(OpCode::AddPtr, {po, c64(static_cast<int64_t>(i))}, {po->type});
    b.store(ptr->result(), results[i], nullptr);
  }
  Buffer out = makeBuffer("out_ptr0", DType::Int64, std::vector<int64_t>(6, -1));
  std::vector<Argument> args{pointerArg(out), intArg(9)};
  reference::runLaunch(fn, Grid{}, args);
  int64_t fa = 1, fb = 2;
  for (int64_t iv = 0; iv < 9; ++iv) {
    const int64_t next = fa + iv;
    fa = fb;
    fb = next;
  }
  EXPECT_EQ(contents<int64_t>(out), (std::vector<int64_t>{fa, fb, 42, 16, 7, 0 + 3 + 6 + 9}));
}

// if pid == 1 then 10 * pid else -pid, as the triton_for_ kernels branch on the program id.
TEST(Interpreter, IfOnProgramId) {
  ir::Function fn("triton_for_fused_0");
  Builder b(fn);
  Value *po = fn.addParameter("out_ptr0", Type::pointer(DType::Int32));
  Value *pid = b.programId(0);
  Value *cond = b.cmp(ir::CmpPredicate::Eq, pid, b.constantInt(DType::Int32, 1));
  ir::Op *branch = b.create(OpCode::If, {cond}, {Type::scalar(DType::Int32)});
  ir::Block *thenBlock = b.addRegion(branch, {});
  ir::Block *elseBlock = b.addRegion(branch, {});
  b.setInsertionBlock(thenBlock);
  b.yield({b.binary(OpCode::Mul, pid, b.constantInt(DType::Int32, 10))});
  b.setInsertionBlock(elseBlock);
  b.yield({b.unary(OpCode::Neg, pid)});
  b.setInsertionBlock(&fn.body());
  ir::Op *ptr = b.create(OpCode::AddPtr, {po, pid}, {po->type});
  b.store(ptr->result(), branch->result(), nullptr);
  Buffer out = makeBuffer("out_ptr0", DType::Int32, std::vector<int32_t>(4, 99));
  std::vector<Argument> args{pointerArg(out)};
  reference::runLaunch(fn, Grid{4, 1, 1}, args);
  EXPECT_EQ(contents<int32_t>(out), (std::vector<int32_t>{0, 10, -2, -3}));
}

// Program ids and grid sizes on all three axes, x fastest.
TEST(Interpreter, ThreeDimensionalGrid) {
  ir::Function fn("grid3d");
  Builder b(fn);
  Value *po = fn.addParameter("out_ptr0", Type::pointer(DType::Int32));
  auto c = [&](int v) { return b.constantInt(DType::Int32, v); };
  Value *x = b.programId(0), *y = b.programId(1), *z = b.programId(2);
  Value *nx = b.numPrograms(0), *ny = b.numPrograms(1);
  Value *linear = b.binary(OpCode::Add, x,
                           b.binary(OpCode::Mul, nx, b.binary(OpCode::Add, y, b.binary(OpCode::Mul, ny, z))));
  Value *code = b.binary(OpCode::Add, b.binary(OpCode::Add, x, b.binary(OpCode::Mul, y, c(10))),
                         b.binary(OpCode::Add, b.binary(OpCode::Mul, z, c(100)),
                                  b.binary(OpCode::Mul, b.numPrograms(2), c(1000))));
  ir::Op *ptr = b.create(OpCode::AddPtr, {po, linear}, {po->type});
  b.store(ptr->result(), code, nullptr);
  Buffer out = makeBuffer("out_ptr0", DType::Int32, std::vector<int32_t>(3 * 2 * 2, -1));
  std::vector<Argument> args{pointerArg(out)};
  const auto stats = reference::runLaunch(fn, Grid{3, 2, 2}, args);
  EXPECT_EQ(stats.programs, 12);
  const std::vector<int32_t> got = contents<int32_t>(out);
  for (int zz = 0; zz < 2; ++zz)
    for (int yy = 0; yy < 2; ++yy)
      for (int xx = 0; xx < 3; ++xx)
        EXPECT_EQ(got[xx + 3 * (yy + 2 * zz)], xx + 10 * yy + 100 * zz + 2000);
}

// Permute and reshape keep row-major semantics: out = reshape(permute(x, [1, 0]), [8]).
TEST(Interpreter, PermuteAndReshape) {
  Buffer x = makeBuffer("in_ptr0", DType::Int32, std::vector<int32_t>{0, 1, 2, 3, 4, 5, 6, 7});
  Buffer out = runElementwise({&x}, DType::Int32, 8, [](Builder &b, const std::vector<Value *> &v) {
    Value *m = b.reshape(v[0], {2, 4}); // [[0 1 2 3] [4 5 6 7]]
    Value *t = b.permute(m, {1, 0});    // [[0 4] [1 5] [2 6] [3 7]]
    return b.reshape(t, {8});
  });
  EXPECT_EQ(contents<int32_t>(out), (std::vector<int32_t>{0, 4, 1, 5, 2, 6, 3, 7}));
}

// Atomic add with repeated addresses is sequential and returns the old values.
TEST(Interpreter, AtomicAddScatter) {
  ir::Function fn("triton_poi_scatter_add");
  Builder b(fn);
  Value *pidx = fn.addParameter("in_ptr0", Type::pointer(DType::Int64));
  Value *pv = fn.addParameter("in_ptr1", Type::pointer(DType::Float32));
  Value *po = fn.addParameter("out_ptr0", Type::pointer(DType::Float32));
  Value *pold = fn.addParameter("out_ptr1", Type::pointer(DType::Float32));
  Value *i = b.arange(0, 8);
  Value *idx = b.load(pointerPlus(b, pidx, i), nullptr, nullptr);
  Value *v = b.load(pointerPlus(b, pv, i), nullptr, nullptr);
  Value *mask = b.cmp(ir::CmpPredicate::Ne, i, b.constantInt(DType::Int32, 5, {8}));
  ir::Op *atomic = b.create(OpCode::AtomicRMW, {b.binary(OpCode::AddPtr, b.splat(po, {8}), idx), v, mask},
                            {Type::tile(DType::Float32, {8})});
  atomic->atomicKind = ir::AtomicKind::Add;
  b.store(pointerPlus(b, pold, i), atomic->result(), nullptr);
  Buffer bidx = makeBuffer("idx", DType::Int64, std::vector<int64_t>{0, 2, 0, 1, 2, 3, 0, 3});
  Buffer bv = makeBuffer("src", DType::Float32, std::vector<float>{1, 2, 3, 4, 5, 6, 7, 8});
  Buffer bo = makeBuffer("out", DType::Float32, std::vector<float>{10, 20, 30, 40});
  Buffer bold = makeBuffer("old", DType::Float32, std::vector<float>(8, -1));
  std::vector<Argument> args{pointerArg(bidx), pointerArg(bv), pointerArg(bo), pointerArg(bold)};
  reference::runLaunch(fn, Grid{}, args);
  EXPECT_EQ(contents<float>(bo), (std::vector<float>{21, 24, 37, 48}));
  EXPECT_EQ(contents<float>(bold), (std::vector<float>{10, 30, 11, 20, 32, 0, 14, 40}));
}

} // namespace
} // namespace npusim::reftest
