// Run-time errors and hostile input: messages name the kernel, program, source
// location and (for memory) the buffer, element offset and size; nothing
// crashes or hangs.
#include "reference/kernel_support.h"

#include <gtest/gtest.h>

#include <limits>

namespace npusim::reftest {
namespace {

::testing::AssertionResult contains(const std::string &text, const std::string &part) {
  if (text.find(part) != std::string::npos)
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "\"" << part << "\" is not in \"" << text << "\"";
}

// in_ptr0 read with stride 3: x = pid(1) * 128 + arange(128); out[x] = in[3 * x].
struct StridedCopy {
  ir::Function fn{"triton_poi_strided_copy"};
  StridedCopy(bool masked = false) {
    Builder b(fn);
    Value *in = fn.addParameter("in_ptr0", Type::pointer(DType::Float32));
    Value *out = fn.addParameter("out_ptr0", Type::pointer(DType::Float32));
    b.setLocation({"strided.py", 5, 9});
    Value *x = b.binary(
        OpCode::Add, b.splat(b.binary(OpCode::Mul, b.programId(1), b.constantInt(DType::Int32, 128)), {128}),
        b.arange(0, 128));
    Value *src = b.binary(OpCode::Mul, x, b.constantInt(DType::Int32, 3, {128}));
    Value *mask =
        masked ? b.cmp(ir::CmpPredicate::Lt, src, b.constantInt(DType::Int32, 400, {128})) : nullptr;
    b.setLocation({"strided.py", 7, 12});
    Value *v = b.load(pointerPlus(b, in, src), mask, nullptr);
    b.setLocation({"strided.py", 8, 5});
    b.store(pointerPlus(b, out, x), v, nullptr);
  }
};

TEST(Errors, OutOfBoundsLoadNamesKernelProgramLocationBufferOffsetAndSize) {
  StridedCopy k;
  Buffer in = makeBuffer("in_ptr0", DType::Float32, std::vector<float>(400, 1.5f));
  Buffer out = makeBuffer("out_ptr0", DType::Float32, std::vector<float>(256, 0.0f));
  const std::string message = launchError(k.fn, Grid{1, 2, 1}, {pointerArg(in), pointerArg(out)});
  // Program (0, 0, 0) reads elements 0..381; program (0, 1, 0) reads 384, 387, ...; 402 is the first outside.
  EXPECT_TRUE(contains(message, "triton_poi_strided_copy"));
  EXPECT_TRUE(contains(message, "program (0, 1, 0)"));
  EXPECT_TRUE(contains(message, "strided.py:7:12"));
  EXPECT_TRUE(contains(message, "load"));
  EXPECT_TRUE(contains(message, "'in_ptr0'"));
  EXPECT_TRUE(contains(message, "element offset 402"));
  EXPECT_TRUE(contains(message, "400 elements"));
  // The first program's stores happened before the error.
  EXPECT_EQ(contents<float>(out)[127], 1.5f);
  EXPECT_EQ(contents<float>(out)[128], 0.0f);
}

TEST(Errors, MaskedOffElementsAreNeverAccessed) {
  StridedCopy k(/*masked=*/true);
  std::vector<float> values(400);
  for (int i = 0; i < 400; ++i)
    values[i] = static_cast<float>(i);
  Buffer in = makeBuffer("in_ptr0", DType::Float32, values);
  Buffer out = makeBuffer("out_ptr0", DType::Float32, std::vector<float>(256, -1.0f));
  std::vector<Argument> args{pointerArg(in), pointerArg(out)};
  reference::runLaunch(k.fn, Grid{1, 2, 1}, args);
  const std::vector<float> got = contents<float>(out);
  for (int x = 0; x < 256; ++x)
    ASSERT_EQ(got[x], 3 * x < 400 ? static_cast<float>(3 * x) : 0.0f) << x; // masked-off loads give 0
}

// Pointers far outside the buffer (2^40 elements, INT64_MIN, ...) under a false
// mask take `other` and are not an error.
struct WildPointers {
  ir::Function fn{"triton_poi_wild"};
  explicit WildPointers(bool masked) {
    Builder b(fn);
    Value *in = fn.addParameter("in_ptr0", Type::pointer(DType::Float32));
    Value *offsets = fn.addParameter("in_ptr1", Type::pointer(DType::Int64));
    Value *out = fn.addParameter("out_ptr0", Type::pointer(DType::Float32));
    Value *i = b.arange(0, 8);
    Value *off = b.load(pointerPlus(b, offsets, i), nullptr, nullptr);
    Value *mask = masked ? b.cmp(ir::CmpPredicate::Eq, i, b.constantInt(DType::Int32, 3, {8})) : nullptr;
    Value *other = masked ? b.constantFloat(DType::Float32, 7.5, {8}) : nullptr;
    Value *v = b.load(b.binary(OpCode::AddPtr, b.splat(in, {8}), off), mask, other);
    b.store(pointerPlus(b, out, i), v, nullptr);
  }
};

TEST(Errors, MaskedOffWildPointersDoNotFault) {
  const int64_t big = int64_t{1} << 40;
  Buffer bin = makeBuffer("in_ptr0", DType::Float32, std::vector<float>{10, 11, 12, 13});
  Buffer boff = makeBuffer("in_ptr1", DType::Int64,
                           std::vector<int64_t>{big, -big, std::numeric_limits<int64_t>::max(), 2,
                                                std::numeric_limits<int64_t>::min(), -1, 4, 1000000});
  Buffer bout = makeBuffer("out_ptr0", DType::Float32, std::vector<float>(8, 0.0f));
  WildPointers masked(true);
  std::vector<Argument> args{pointerArg(bin), pointerArg(boff), pointerArg(bout)};
  reference::runLaunch(masked.fn, Grid{}, args);
  EXPECT_EQ(contents<float>(bout), (std::vector<float>{7.5f, 7.5f, 7.5f, 12.0f, 7.5f, 7.5f, 7.5f, 7.5f}));
  // The same pointers unmasked: an error at the first one, not a crash.
  WildPointers unmasked(false);
  const std::string message =
      launchError(unmasked.fn, Grid{}, {pointerArg(bin), pointerArg(boff), pointerArg(bout)});
  EXPECT_TRUE(contains(message, "out-of-bounds load at element offset 1099511627776 of buffer 'in_ptr0'"));
}

TEST(Errors, OutOfBoundsStoreAtNegativeOffset) {
  ir::Function fn("triton_poi_shifted_store");
  Builder b(fn);
  Value *out = fn.addParameter("out_ptr0", Type::pointer(DType::Int32));
  b.setLocation({"shift.py", 3, 4});
  Value *x = b.binary(OpCode::Sub, b.arange(0, 16), b.constantInt(DType::Int32, 5, {16}));
  b.store(pointerPlus(b, out, x), x, nullptr);
  Buffer bout = makeBuffer("out_ptr0", DType::Int32, std::vector<int32_t>(16, 0));
  const std::string message = launchError(fn, Grid{}, {pointerArg(bout)});
  EXPECT_TRUE(contains(message, "store"));
  EXPECT_TRUE(contains(message, "element offset -5"));
  EXPECT_TRUE(contains(message, "'out_ptr0'"));
  EXPECT_TRUE(contains(message, "16 elements"));
  EXPECT_TRUE(contains(message, "shift.py:3:4"));
}

TEST(Errors, DeviceAssertFailure) {
  ir::Function fn("triton_poi_embedding_0");
  Builder b(fn);
  Value *idx = fn.addParameter("in_ptr0", Type::pointer(DType::Int64));
  Value *x = b.binary(OpCode::Add,
                      b.splat(b.binary(OpCode::Mul, b.programId(0), b.constantInt(DType::Int32, 4)), {4}),
                      b.arange(0, 4));
  Value *v = b.load(pointerPlus(b, idx, x), nullptr, nullptr);
  b.setLocation({"emb.py", 31, 47});
  b.assertTrue(b.cmp(ir::CmpPredicate::Lt, v, b.constantInt(DType::Int64, 50, {4})),
               "index out of bounds: 0 <= tmp3 < 50");
  Buffer bidx = makeBuffer("in_ptr0", DType::Int64, std::vector<int64_t>{1, 2, 3, 4, 5, 60, 7, 8});
  const std::string message = launchError(fn, Grid{2, 1, 1}, {pointerArg(bidx)});
  EXPECT_TRUE(contains(message, "triton_poi_embedding_0"));
  EXPECT_TRUE(contains(message, "program (1, 0, 0)"));
  EXPECT_TRUE(contains(message, "emb.py:31:47"));
  EXPECT_TRUE(contains(message, "index out of bounds: 0 <= tmp3 < 50"));
  bidx = makeBuffer("in_ptr0", DType::Int64, std::vector<int64_t>{1, 2, 3, 4, 5, 6, 7, 8});
  EXPECT_EQ(launchError(fn, Grid{2, 1, 1}, {pointerArg(bidx)}), "");
}

// q = a // d; r = a % d, with a mask on loads and stores when masked.
struct IntegerDivide {
  ir::Function fn{"triton_poi_div"};
  explicit IntegerDivide(bool masked = false) {
    Builder b(fn);
    Value *a = fn.addParameter("in_ptr0", Type::pointer(DType::Int32));
    Value *d = fn.addParameter("in_ptr1", Type::pointer(DType::Int32));
    Value *q = fn.addParameter("out_ptr0", Type::pointer(DType::Int32));
    Value *r = fn.addParameter("out_ptr1", Type::pointer(DType::Int32));
    Value *xnumel = fn.addParameter("xnumel", Type::scalar(DType::Int32));
    Value *i = b.arange(0, 4);
    Value *mask = masked ? b.cmp(ir::CmpPredicate::Lt, i, b.splat(xnumel, {4})) : nullptr;
    Value *va = b.load(pointerPlus(b, a, i), mask, nullptr);
    Value *vd = b.load(pointerPlus(b, d, i), mask, nullptr); // masked-off divisors are 0
    b.setLocation({"div.py", 12, 11});
    Value *quotient = b.binary(OpCode::Div, va, vd);
    b.setLocation({"div.py", 13, 11});
    Value *remainder = b.binary(OpCode::Rem, va, vd);
    b.setLocation({"div.py", 14, 5});
    b.store(pointerPlus(b, q, i), quotient, mask);
    b.setLocation({"div.py", 15, 5});
    b.store(pointerPlus(b, r, i), remainder, mask);
  }
};

TEST(Errors, IntegerDivisionByZero) {
  IntegerDivide k;
  Buffer a = makeBuffer("in_ptr0", DType::Int32, std::vector<int32_t>{7, -7, 9, 5});
  Buffer d = makeBuffer("in_ptr1", DType::Int32, std::vector<int32_t>{2, 0, 3, 1});
  Buffer q = makeBuffer("out_ptr0", DType::Int32, std::vector<int32_t>(4));
  Buffer r = makeBuffer("out_ptr1", DType::Int32, std::vector<int32_t>(4));
  // By default the error comes where the quotient is used at an active element.
  std::string message =
      launchError(k.fn, Grid{}, {pointerArg(a), pointerArg(d), pointerArg(q), pointerArg(r), intArg(4)});
  EXPECT_TRUE(contains(message, "kernel 'triton_poi_div', program (0, 0, 0), at div.py:14:5: "));
  EXPECT_TRUE(contains(message, "integer division by zero (at div.py:12:11)"));
  EXPECT_TRUE(contains(message, "the value of active element 1 of a store"));
  // DivisionByZero::Error: at the division.
  std::vector<Argument> args{pointerArg(a), pointerArg(d), pointerArg(q), pointerArg(r), intArg(4)};
  reference::LaunchOptions options;
  options.integerDivisionByZero = reference::DivisionByZero::Error;
  try {
    reference::runLaunch(k.fn, Grid{}, args, options);
    ADD_FAILURE() << "no error";
  } catch (const core::RuntimeError &e) {
    message = e.what();
  }
  EXPECT_TRUE(contains(message, "kernel 'triton_poi_div', program (0, 0, 0), at div.py:12:11: "));
  EXPECT_TRUE(contains(message, "integer division by zero"));
  // DivisionByZero::RiscV (docs/tileir.md): x / 0 = -1, x % 0 = x.
  options.integerDivisionByZero = reference::DivisionByZero::RiscV;
  reference::runLaunch(k.fn, Grid{}, args, options);
  EXPECT_EQ(contents<int32_t>(q), (std::vector<int32_t>{3, -1, 3, 5}));
  EXPECT_EQ(contents<int32_t>(r), (std::vector<int32_t>{1, -7, 0, 0}));
}

// As Inductor writes `tmp0 // tmp1`: masked-off lanes load divisor 0 and
// divide by it; their results are never stored, so there is no error.
TEST(Errors, DivisionByZeroInMaskedOffLanesIsNotAnError) {
  IntegerDivide k(/*masked=*/true);
  Buffer a = makeBuffer("in_ptr0", DType::Int32, std::vector<int32_t>{7, -7, 9});
  Buffer d = makeBuffer("in_ptr1", DType::Int32, std::vector<int32_t>{2, 2, -4});
  Buffer q = makeBuffer("out_ptr0", DType::Int32, std::vector<int32_t>(3, 99));
  Buffer r = makeBuffer("out_ptr1", DType::Int32, std::vector<int32_t>(3, 99));
  std::vector<Argument> args{pointerArg(a), pointerArg(d), pointerArg(q), pointerArg(r), intArg(3)};
  reference::runLaunch(k.fn, Grid{}, args);
  EXPECT_EQ(contents<int32_t>(q), (std::vector<int32_t>{3, -3, -2}));
  EXPECT_EQ(contents<int32_t>(r), (std::vector<int32_t>{1, -1, 1}));
}

// Poison follows the data: through a select that discards it (no error), and
// through a reduction into a stored scalar (error).
TEST(Errors, DivisionByZeroPoisonFollowsTheData) {
  auto build = [](ir::Function &fn, bool discard) {
    Builder b(fn);
    Value *a = fn.addParameter("in_ptr0", Type::pointer(DType::Int64));
    Value *out = fn.addParameter("out_ptr0", Type::pointer(DType::Int64));
    Value *i = b.arange(0, 4);
    Value *v = b.load(pointerPlus(b, a, i), nullptr, nullptr);
    b.setLocation({"poison.py", 3, 9});
    Value *q = b.binary(OpCode::Div, b.constantInt(DType::Int64, 100, {4}), v);
    b.setLocation({"poison.py", 4, 9});
    Value *isZero = b.cmp(ir::CmpPredicate::Eq, v, b.constantInt(DType::Int64, 0, {4}));
    Value *safe = discard ? b.select(isZero, b.constantInt(DType::Int64, 0, {4}), q) : q;
    ir::Op *sum =
        reduce(b, ir::ReduceKind::Sum, {b.binary(OpCode::Mul, safe, b.constantInt(DType::Int64, 2, {4}))}, 0);
    b.setLocation({"poison.py", 6, 5});
    b.store(out, sum->result(), nullptr);
  };
  Buffer a = makeBuffer("in_ptr0", DType::Int64, std::vector<int64_t>{5, 0, 20, 50});
  Buffer out = makeBuffer("out_ptr0", DType::Int64, std::vector<int64_t>{0});
  ir::Function discarded("triton_per_discard");
  build(discarded, true);
  std::vector<Argument> args{pointerArg(a), pointerArg(out)};
  reference::runLaunch(discarded, Grid{}, args);
  EXPECT_EQ(contents<int64_t>(out)[0], 2 * (20 + 0 + 5 + 2));
  ir::Function kept("triton_per_keep");
  build(kept, false);
  const std::string message = launchError(kept, Grid{}, {pointerArg(a), pointerArg(out)});
  EXPECT_TRUE(contains(message, "at poison.py:6:5: "));
  EXPECT_TRUE(contains(message, "division by zero (at poison.py:3:9)"));
}

// A loop `for i in range(0, n, step)` with the step and the trip limit as inputs.
struct CountingLoop {
  ir::Function fn{"triton_red_loop"};
  CountingLoop() {
    Builder b(fn);
    Value *out = fn.addParameter("out_ptr0", Type::pointer(DType::Int32));
    Value *n = fn.addParameter("n", Type::scalar(DType::Int32));
    Value *step = fn.addParameter("step", Type::scalar(DType::Int32));
    Value *zero = b.constantInt(DType::Int32, 0);
    b.setLocation({"loop.py", 9, 5});
    ir::Op *loop = b.create(OpCode::For, {zero, n, step, zero}, {zero->type});
    ir::Block *body = b.addRegion(loop, {zero->type, zero->type});
    b.setInsertionBlock(body);
    b.yield({b.binary(OpCode::Add, body->arguments[1], b.constantInt(DType::Int32, 1))});
    b.setInsertionBlock(&fn.body());
    b.store(out, loop->result(), nullptr);
  }
};

TEST(Errors, LoopWithStepZeroOrTooManyIterations) {
  CountingLoop k;
  Buffer out = makeBuffer("out_ptr0", DType::Int32, std::vector<int32_t>{-1});
  std::string message = launchError(k.fn, Grid{}, {pointerArg(out), intArg(10), intArg(0)});
  EXPECT_TRUE(contains(message, "triton_red_loop"));
  EXPECT_TRUE(contains(message, "loop.py:9:5"));
  EXPECT_TRUE(contains(message, "step 0"));
  std::vector<Argument> args{pointerArg(out), intArg(100000), intArg(1)};
  reference::LaunchOptions options;
  options.maxLoopIterations = 1000;
  try {
    reference::runLaunch(k.fn, Grid{}, args, options);
    ADD_FAILURE() << "no error";
  } catch (const core::RuntimeError &e) {
    EXPECT_TRUE(contains(std::string(e.what()), "100000 iterations"));
  }
  args = {pointerArg(out), intArg(100000), intArg(7)};
  reference::runLaunch(k.fn, Grid{}, args);
  EXPECT_EQ(contents<int32_t>(out)[0], (100000 + 6) / 7);
  args = {pointerArg(out), intArg(std::numeric_limits<int32_t>::max()),
          intArg(std::numeric_limits<int32_t>::max())};
  reference::runLaunch(k.fn, Grid{}, args); // iv never overflows
  EXPECT_EQ(contents<int32_t>(out)[0], 1);
}

TEST(Errors, BadLaunches) {
  StridedCopy k;
  Buffer in = makeBuffer("in_ptr0", DType::Float32, std::vector<float>(4));
  Buffer out = makeBuffer("out_ptr0", DType::Float32, std::vector<float>(4));
  Buffer half = halfBuffer("half_buf", {1.0f});
  std::string m = launchError(k.fn, Grid{0, 1, 1}, {pointerArg(in), pointerArg(out)});
  EXPECT_TRUE(contains(m, "triton_poi_strided_copy"));
  EXPECT_TRUE(contains(m, "grid dimension x is 0"));
  EXPECT_TRUE(contains(launchError(k.fn, Grid{1, -3, 1}, {pointerArg(in), pointerArg(out)}),
                       "grid dimension y is -3"));
  m = launchError(k.fn, Grid{}, {pointerArg(in)});
  EXPECT_TRUE(contains(m, "triton_poi_strided_copy"));
  EXPECT_TRUE(contains(m, "no argument for parameter 'out_ptr0'"));
  m = launchError(k.fn, Grid{}, {pointerArg(in), pointerArg(out), intArg(3)});
  EXPECT_TRUE(contains(m, "3 arguments for 2 parameters"));
  EXPECT_TRUE(contains(launchError(k.fn, Grid{}, {pointerArg(in), intArg(3)}),
                       "parameter 'out_ptr0' (*fp32) is a pointer but its argument has no buffer"));
  EXPECT_TRUE(
      contains(launchError(k.fn, Grid{}, {pointerArg(half), pointerArg(out)}), "'half_buf' holds fp16"));
}

TEST(Errors, InvalidPointersFromBitcasts) {
  ir::Function fn("triton_poi_bad_pointer");
  Builder b(fn);
  fn.addParameter("in_ptr0", Type::pointer(DType::Float32));
  Value *out = fn.addParameter("out_ptr0", Type::pointer(DType::Float32));
  Value *forged = b.bitcast(b.constantInt(DType::Int64, 12345), Type::pointer(DType::Float32));
  b.store(out, b.load(forged, nullptr, nullptr), nullptr);
  Buffer bin = makeBuffer("in_ptr0", DType::Float32, std::vector<float>(4));
  Buffer bout = makeBuffer("out_ptr0", DType::Float32, std::vector<float>(4));
  EXPECT_TRUE(contains(launchError(fn, Grid{}, {pointerArg(bin), pointerArg(bout)}), "invalid pointer"));

  ir::Function fn2("triton_poi_reinterpret");
  Builder b2(fn2);
  Value *in2 = fn2.addParameter("in_ptr0", Type::pointer(DType::Float32));
  Value *out2 = fn2.addParameter("out_ptr0", Type::pointer(DType::Float16));
  Value *asHalf = b2.bitcast(in2, Type::pointer(DType::Float16));
  b2.store(out2, b2.load(asHalf, nullptr, nullptr), nullptr);
  Buffer h = halfBuffer("out_ptr0", {0.0f});
  EXPECT_TRUE(contains(launchError(fn2, Grid{}, {pointerArg(bin), pointerArg(h)}), "element types differ"));
  // A pointer round trip through i64 is the same pointer.
  ir::Function fn3("triton_poi_roundtrip");
  Builder b3(fn3);
  Value *in3 = fn3.addParameter("in_ptr0", Type::pointer(DType::Float32));
  Value *out3 = fn3.addParameter("out_ptr0", Type::pointer(DType::Float32));
  Value *back = b3.bitcast(b3.bitcast(in3, Type::scalar(DType::Int64)), Type::pointer(DType::Float32));
  ir::Op *third = b3.create(OpCode::AddPtr, {back, b3.constantInt(DType::Int32, 2)}, {back->type});
  b3.store(out3, b3.load(third->result(), nullptr, nullptr), nullptr);
  Buffer src = makeBuffer("in_ptr0", DType::Float32, std::vector<float>{1, 2, 3, 4});
  std::vector<Argument> args{pointerArg(src), pointerArg(bout)};
  reference::runLaunch(fn3, Grid{}, args);
  EXPECT_EQ(contents<float>(bout)[0], 3.0f);
}

// Malformed IR is refused with an error, never run.
TEST(Errors, MalformedIrIsRefused) {
  {
    ir::Function fn("use_before_def");
    Builder b(fn);
    Value *c1 = b.constantInt(DType::Int32, 1);
    ir::Op *add = b.create(OpCode::Add, {c1, c1}, {c1->type});
    add->operands[1] = b.constantInt(DType::Int32, 2); // defined after its use
    EXPECT_TRUE(contains(launchError(fn, Grid{}, {}), "malformed TileIR"));
  }
  {
    ir::Function fn("wrong_result_type");
    Builder b(fn);
    Value *c1 = b.constantInt(DType::Int32, 1, {4});
    b.create(OpCode::Add, {c1, c1}, {Type::tile(DType::Float32, {4})});
    EXPECT_TRUE(contains(launchError(fn, Grid{}, {}), "malformed TileIR"));
  }
  {
    ir::Function fn("mismatched_shapes");
    Builder b(fn);
    Value *a = b.constantInt(DType::Int32, 1, {4});
    Value *c = b.constantInt(DType::Int32, 1, {8});
    b.create(OpCode::Add, {a, c}, {a->type});
    EXPECT_TRUE(contains(launchError(fn, Grid{}, {}), "malformed TileIR"));
  }
  {
    ir::Function fn("region_without_yield");
    Builder b(fn);
    Value *zero = b.constantInt(DType::Int32, 0);
    ir::Op *loop = b.create(OpCode::For, {zero, zero, zero}, {});
    b.addRegion(loop, {zero->type});
    EXPECT_TRUE(contains(launchError(fn, Grid{}, {}), "does not end with a yield"));
  }
  {
    ir::Function fn("value_from_inside_a_region");
    Builder b(fn);
    Value *zero = b.constantInt(DType::Int32, 0);
    ir::Op *loop = b.create(OpCode::For, {zero, zero, zero}, {});
    ir::Block *body = b.addRegion(loop, {zero->type});
    b.setInsertionBlock(body);
    Value *inner = b.constantInt(DType::Int32, 3);
    b.yield({});
    b.setInsertionBlock(&fn.body());
    b.binary(OpCode::Add, inner, inner);
    EXPECT_TRUE(contains(launchError(fn, Grid{}, {}), "not defined"));
  }
  {
    // docs/tileir.md: store takes a pointer, a value and an optional mask.
    ir::Function fn("store_without_value");
    Builder b(fn);
    Value *p = b.constantInt(DType::Int64, 0);
    b.create(OpCode::Store, {p}, {});
    EXPECT_TRUE(contains(launchError(fn, Grid{}, {}), "takes 2 to 3 operands, has 1"));
  }
  {
    // dot(a, b, acc): exactly three operands.
    ir::Function fn("dot_without_accumulator");
    Builder b(fn);
    Value *a = b.constantFloat(DType::Float32, 1.0, {16, 16});
    b.create(OpCode::Dot, {a, a}, {a->type});
    EXPECT_TRUE(contains(launchError(fn, Grid{}, {}), "takes 3 operands, has 2"));
  }
  {
    ir::Function fn("huge_tile");
    Builder b(fn);
    b.constantFloat(DType::Float32, 1.0, {int64_t{1} << 20, int64_t{1} << 20});
    EXPECT_TRUE(contains(launchError(fn, Grid{}, {}), "malformed TileIR"));
  }
  {
    ir::Function fn("bad_reshape");
    Builder b(fn);
    Value *a = b.constantInt(DType::Int32, 1, {4});
    b.create(OpCode::Reshape, {a}, {Type::tile(DType::Int32, {8})});
    EXPECT_TRUE(contains(launchError(fn, Grid{}, {}), "reshape"));
  }
  {
    ir::Function fn("bad_permute");
    Builder b(fn);
    Value *a = b.constantInt(DType::Int32, 1, {2, 3});
    ir::Op *p = b.create(OpCode::Permute, {a}, {Type::tile(DType::Int32, {3, 2})});
    p->order = {1, 1};
    EXPECT_TRUE(contains(launchError(fn, Grid{}, {}), "permute"));
  }
  {
    ir::Function fn("null_operand");
    Builder b(fn);
    b.create(OpCode::Neg, {nullptr}, {Type::scalar(DType::Int32)});
    EXPECT_TRUE(contains(launchError(fn, Grid{}, {}), "null value"));
  }
}

} // namespace
} // namespace npusim::reftest
