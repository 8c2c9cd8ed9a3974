// The TileIR verifier: well-formed functions pass; each malformed one fails
// with a CompileError at the offending op whose message names the op and the
// problem. Malformed IR is made with Builder::create (which does not check) or
// by mutating ops after the Builder made them.
#include "ir/builder.h"
#include "ir/kernels_support.h"

#include <gtest/gtest.h>

#include <string>

namespace npusim::ir {
namespace {

/// Asserts that verify(f) throws a CompileError whose message contains every
/// given substring; returns the error for further checks.
core::CompileError expectInvalid(const Function &f, std::initializer_list<std::string> substrings) {
  try {
    verify(f);
  } catch (const core::CompileError &e) {
    for (const std::string &s : substrings)
      EXPECT_NE(e.message().find(s), std::string::npos)
          << "message \"" << e.message() << "\" lacks \"" << s << "\"";
    return e;
  }
  ADD_FAILURE() << "verify accepted:\n" << print(f);
  return core::CompileError({}, "");
}

Type i32() {
  return Type::scalar(DType::Int32);
}
Type f32() {
  return Type::scalar(DType::Float32);
}
Type tile(DType d, Shape s) {
  return Type::tile(d, std::move(s));
}

// ---- well-formed IR ---------------------------------------------------------

TEST(Verifier, AcceptsTheSampleKernels) {
  EXPECT_NO_THROW(verify(*testing::pointwiseKernel()));
  EXPECT_NO_THROW(verify(*testing::forKernel()));
  EXPECT_NO_THROW(verify(*testing::ifKernel()));
  EXPECT_NO_THROW(verify(*testing::combineReduceKernel()));
  EXPECT_NO_THROW(verify(*testing::dotKernel()));
}

TEST(Verifier, AcceptsNestedRegionsUsingOuterValues) {
  // An if inside a for, both using values of the function body and of the loop.
  Function f("nested");
  Value *n = f.addParameter("n", i32());
  Value *out = f.addParameter("out", Type::pointer(DType::Float32));
  Builder b(f);
  Value *zero = b.constantInt(DType::Int32, 0);
  Value *one = b.constantInt(DType::Int32, 1);
  Value *half = b.constantFloat(DType::Float32, 0.5);
  Op *loop = b.create(OpCode::For, {zero, n, one, half}, {f32()});
  Block *body = b.addRegion(loop, {i32(), f32()});
  b.setInsertionBlock(body);
  Value *isZero = b.cmp(CmpPredicate::Eq, body->arguments[0], zero);
  Op *branch = b.create(OpCode::If, {isZero}, {f32()});
  b.setInsertionBlock(b.addRegion(branch, {}));
  b.yield({half});
  b.setInsertionBlock(b.addRegion(branch, {}));
  b.yield({b.binary(OpCode::Add, body->arguments[1], half)});
  b.setInsertionBlock(body);
  b.yield({branch->result()});
  b.setInsertionBlock(&f.body());
  b.store(out, loop->result(), nullptr);
  EXPECT_NO_THROW(verify(f));
}

TEST(Verifier, AcceptsOtherOpForms) {
  Function f("forms");
  Value *p = f.addParameter("p", Type::pointer(DType::Float32));
  Builder b(f);
  Value *x = b.load(b.splat(p, {2, 4, 8}), nullptr, nullptr);
  Value *y = b.load(b.splat(p, {2, 8, 4}), nullptr, nullptr);
  Value *acc = b.constantFloat(DType::Float32, 0.0, {2, 4, 4});
  Op *dot = b.create(OpCode::Dot, {x, y, acc}, {acc->type}); // batched
  dot->inputPrecision = InputPrecision::TF32;
  Value *flat = b.reshape(dot->result(), {32});
  Value *index = b.arange(0, 32);
  Op *argmin = b.create(OpCode::Reduce, {flat, index}, {f32(), i32()});
  argmin->reduceKind = ReduceKind::ArgMin;
  Op *cummax = b.create(OpCode::Scan, {flat}, {flat->type});
  cummax->reduceKind = ReduceKind::Max;
  cummax->nanMode = NanMode::Propagate;
  b.create(OpCode::Sort, {flat, index}, {flat->type, index->type});
  b.expandDims(b.constantInt(DType::Int32, 3), 0); // scalar -> [1]
  b.bitcast(b.bitcast(p, Type::scalar(DType::Int64)), Type::pointer(DType::Float32));
  b.bitcast(flat, tile(DType::UInt32, {32}));
  b.cast(flat, DType::Bool);
  b.math(MathFn::Fma, {flat, flat, flat});
  b.math(MathFn::Signbit, {flat});
  Value *ok = b.cmp(CmpPredicate::Ge, index, b.constantInt(DType::Int32, 0, {32}));
  b.assertTrue(ok, "index out of bounds");
  b.create(OpCode::AtomicRMW, {b.splat(p, {32}), flat}, {flat->type});
  b.create(OpCode::Barrier, {}, {});
  b.arange(64, 128);
  EXPECT_NO_THROW(verify(f)) << print(f);
}

TEST(Verifier, AcceptsAnEmptyFunction) {
  Function f("empty");
  EXPECT_NO_THROW(verify(f));
}

// ---- types of elementwise ops ----------------------------------------------

TEST(Verifier, RejectsAddTypeMismatch) {
  Function f("k");
  Builder b(f);
  core::SourceLocation loc{"k.py", 7, 12};
  b.setLocation(loc);
  Value *x = b.constantFloat(DType::Float32, 1.0, {128});
  Value *n = b.constantInt(DType::Int32, 1, {128});
  b.create(OpCode::Add, {x, n}, {x->type});
  core::CompileError e =
      expectInvalid(f, {"TileIR verifier: add: operand types differ: fp32[128] vs i32[128]"});
  EXPECT_EQ(e.where().line, 7);
  EXPECT_EQ(e.where().col, 12);
  EXPECT_EQ(std::string(e.what()).rfind("k.py:7:12: error: TileIR verifier: add:", 0), 0u);
}

TEST(Verifier, RejectsWrongResultType) {
  Function f("k");
  Builder b(f);
  Value *x = b.constantFloat(DType::Float32, 1.0, {8});
  b.binary(OpCode::Mul, x, x)->type = tile(DType::Float32, {4});
  expectInvalid(f, {"mul: result type is fp32[4], expected fp32[8]"});
}

TEST(Verifier, RejectsOperandCount) {
  Function f("k");
  Builder b(f);
  Value *x = b.constantFloat(DType::Float32, 1.0);
  b.create(OpCode::Sub, {x}, {x->type});
  expectInvalid(f, {"sub: expects 2 operands, got 1"});
}

TEST(Verifier, RejectsBitwiseOnFloatsAndArithmeticOnBool) {
  Function f("k");
  Builder b(f);
  Value *x = b.constantFloat(DType::Float32, 1.0);
  b.create(OpCode::Shl, {x, x}, {x->type});
  expectInvalid(f, {"shl: operands are fp32, expected integers"});

  Function g("k");
  Builder c(g);
  Value *t = c.constantInt(DType::Bool, 1);
  c.unary(OpCode::Neg, t);
  expectInvalid(g, {"neg: operands are i1, expected integers or floats (not i1)"});
}

TEST(Verifier, RejectsCmpWithNonBoolResult) {
  Function f("k");
  Builder b(f);
  Value *x = b.constantInt(DType::Int32, 1, {16});
  b.cmp(CmpPredicate::Le, x, x)->type = tile(DType::Int32, {16});
  expectInvalid(f, {"cmp: result type is i32[16], expected i1[16]"});
}

TEST(Verifier, RejectsSelectWithNonBoolCondition) {
  Function f("k");
  Builder b(f);
  Value *c = b.constantInt(DType::Int32, 1, {16});
  Value *x = b.constantFloat(DType::Float32, 1.0, {16});
  b.create(OpCode::Select, {c, x, x}, {x->type});
  expectInvalid(f, {"select: condition i32[16] is not i1 of the shape of fp32[16]"});
}

TEST(Verifier, RejectsMathArityAndIntegerOperands) {
  Function f("k");
  Builder b(f);
  Value *x = b.constantFloat(DType::Float32, 1.0);
  Op *pow = b.create(OpCode::Math, {x}, {x->type});
  pow->mathFn = MathFn::Pow;
  expectInvalid(f, {"math: pow takes 2 operands, got 1"});

  Function g("k");
  Builder c(g);
  Value *n = c.constantInt(DType::Int32, 4);
  c.create(OpCode::Math, {n}, {n->type})->mathFn = MathFn::Sqrt;
  expectInvalid(g, {"math: sqrt operands must be of one float type, got i32"});
}

// ---- sources, shapes, conversions ------------------------------------------

TEST(Verifier, RejectsArangeNotPowerOfTwo) {
  Function f("k");
  Builder b(f);
  b.arange(0, 100);
  expectInvalid(f, {"arange: length 100 is not a power of two"});
}

TEST(Verifier, RejectsArangeWithWrongResultOrBounds) {
  Function f("k");
  Builder b(f);
  b.arange(0, 64)->type = tile(DType::Int32, {32});
  expectInvalid(f, {"arange: result type is i32[32], expected i32[64]"});

  Function g("k");
  Builder c(g);
  Op *op = c.create(OpCode::Arange, {}, {tile(DType::Int32, {4})});
  op->start = -4;
  op->end = 0;
  expectInvalid(g, {"arange: bounds -4, 0 must satisfy 0 <= start < end <= 2^31"});
}

TEST(Verifier, RejectsConstantOutOfRange) {
  Function f("k");
  Builder b(f);
  b.constantInt(DType::Int8, 200);
  expectInvalid(f, {"constant: value 200 does not fit i8"});
}

TEST(Verifier, RejectsProgramIdAxis) {
  Function f("k");
  Builder b(f);
  b.programId(3);
  expectInvalid(f, {"program_id: axis 3 is not 0, 1 or 2"});
}

TEST(Verifier, RejectsSplatOfTile) {
  Function f("k");
  Builder b(f);
  Value *x = b.arange(0, 4);
  b.create(OpCode::Splat, {x}, {tile(DType::Int32, {4, 4})});
  expectInvalid(f, {"splat: splats i32[4] to i32[4, 4], expected a scalar to a tile"});
}

TEST(Verifier, RejectsBadBroadcast) {
  Function f("k");
  Builder b(f);
  Value *x = b.reshape(b.arange(0, 8), {8, 1});
  b.broadcast(x, {4, 16});
  expectInvalid(f, {"broadcast: cannot broadcast i32[8, 1] to i32[4, 16]: dimension 0"});
}

TEST(Verifier, RejectsBadExpandDimsReshapeAndPermute) {
  {
    Function f("k");
    Builder b(f);
    b.expandDims(b.arange(0, 8), 1)->type = tile(DType::Int32, {1, 8});
    expectInvalid(f, {"expand_dims: result shape [1, 8], expected [8, 1]"});
  }
  {
    Function f("k");
    Builder b(f);
    Value *x = b.arange(0, 8);
    b.create(OpCode::Reshape, {x}, {tile(DType::Int32, {4, 4})});
    expectInvalid(f, {"reshape: reshapes i32[8] to i32[4, 4]"});
  }
  {
    Function f("k");
    Builder b(f);
    b.permute(b.reshape(b.arange(0, 8), {2, 4}), {1, 0})->definingOp->order = {0, 0};
    expectInvalid(f, {"permute: order is not a permutation of the 2 dimensions of i32[2, 4]"});
  }
}

TEST(Verifier, RejectsBitcastWidthAndPointerCast) {
  Function f("k");
  Builder b(f);
  b.bitcast(b.constantFloat(DType::Float32, 1.0), Type::scalar(DType::Int64));
  expectInvalid(f, {"bitcast: bit widths differ: fp32 to i64"});

  Function g("k");
  Value *p = g.addParameter("p", Type::pointer(DType::Float32));
  Builder c(g);
  c.create(OpCode::Cast, {p}, {Type::scalar(DType::Int64)});
  expectInvalid(g, {"cast: casts *fp32 to i64 (pointers need bitcast)"});
}

// ---- memory -------------------------------------------------------------------

TEST(Verifier, RejectsLoadMaskAndOther) {
  Function f("k");
  Value *p = f.addParameter("p", Type::pointer(DType::Float32));
  Builder b(f);
  Value *ptrs = b.splat(p, {16});
  Value *mask = b.constantInt(DType::Bool, 1, {8});
  b.load(ptrs, mask, nullptr);
  expectInvalid(f, {"load: mask i1[8] is not i1 of the pointer's shape [16]"});

  Function g("k");
  Value *q = g.addParameter("p", Type::pointer(DType::Float32));
  Builder c(g);
  Value *qs = c.splat(q, {16});
  Value *m = c.constantInt(DType::Bool, 1, {16});
  c.load(qs, m, c.constantInt(DType::Int32, 0, {16}));
  expectInvalid(g, {"load: other i32[16] is not of the loaded type fp32[16]"});
}

TEST(Verifier, RejectsStoreValueTypeAndNonPointer) {
  Function f("k");
  Value *p = f.addParameter("p", Type::pointer(DType::Float16));
  Builder b(f);
  b.store(b.splat(p, {8}), b.constantFloat(DType::Float32, 0.0, {8}), nullptr);
  expectInvalid(f, {"store: value fp32[8] is not of the pointed-to type fp16[8]"});

  Function g("k");
  Builder c(g);
  Value *x = c.constantInt(DType::Int64, 0);
  c.create(OpCode::Store, {x, x}, {});
  expectInvalid(g, {"store: operand 0 is i64, expected a pointer"});
}

TEST(Verifier, RejectsAddPtrWithFloatOffset) {
  Function f("k");
  Value *p = f.addParameter("p", Type::pointer(DType::Float32));
  Builder b(f);
  b.create(OpCode::AddPtr, {p, b.constantFloat(DType::Float32, 1.0)}, {p->type});
  expectInvalid(f, {"addptr: offset fp32 is not an integer of the pointer's shape []"});
}

TEST(Verifier, RejectsBitwiseAtomicOnFloats) {
  Function f("k");
  Value *p = f.addParameter("p", Type::pointer(DType::Float32));
  Builder b(f);
  Value *v = b.constantFloat(DType::Float32, 1.0);
  b.create(OpCode::AtomicRMW, {p, v}, {v->type})->atomicKind = AtomicKind::Xor;
  expectInvalid(f, {"atomic_rmw: xor on fp32, expected integers"});
}

// ---- tile-wide ops ---------------------------------------------------------

TEST(Verifier, RejectsReduceAxisOutOfRange) {
  Function f("k");
  Builder b(f);
  Value *x = b.constantFloat(DType::Float32, 0.0, {4, 8});
  b.create(OpCode::Reduce, {x}, {tile(DType::Float32, {4})})->axis = 2;
  expectInvalid(f, {"reduce: axis 2 out of range for rank 2"});
}

TEST(Verifier, RejectsReduceResultShape) {
  Function f("k");
  Builder b(f);
  Value *x = b.constantFloat(DType::Float32, 0.0, {4, 8});
  b.create(OpCode::Reduce, {x}, {tile(DType::Float32, {8})})->axis = 1;
  expectInvalid(f, {"reduce: result 0 has type fp32[8], expected fp32[4]"});
}

TEST(Verifier, RejectsArgMaxScanAndSumOfTwoOperands) {
  Function f("k");
  Builder b(f);
  Value *x = b.constantFloat(DType::Float32, 0.0, {8});
  Value *i = b.arange(0, 8);
  b.create(OpCode::Scan, {x, i}, {x->type, i->type})->reduceKind = ReduceKind::ArgMax;
  expectInvalid(f, {"scan: scan does not support argmax"});

  Function g("k");
  Builder c(g);
  Value *y = c.constantFloat(DType::Float32, 0.0, {8});
  c.create(OpCode::Reduce, {y, y}, {f32(), f32()});
  expectInvalid(g, {"reduce: expects 1 operand, got 2"});
}

TEST(Verifier, RejectsCombineRegionArguments) {
  Function f("k");
  Builder b(f);
  Value *x = b.constantFloat(DType::Float32, 0.0, {8});
  Op *reduce = b.create(OpCode::Reduce, {x}, {f32()});
  reduce->reduceKind = ReduceKind::Combine;
  Block *region = b.addRegion(reduce, {f32()});
  b.setInsertionBlock(region);
  b.yield({region->arguments[0]});
  expectInvalid(f, {"reduce: combine region has 1 argument, expected 2"});
}

TEST(Verifier, RejectsCombineYieldType) {
  Function f("k");
  Builder b(f);
  Value *x = b.constantFloat(DType::Float32, 0.0, {8});
  Op *scan = b.create(OpCode::Scan, {x}, {x->type});
  scan->reduceKind = ReduceKind::Combine;
  Block *region = b.addRegion(scan, {f32(), f32()});
  b.setInsertionBlock(region);
  b.yield({b.constantFloat(DType::Float32, 0.0, {8})});
  expectInvalid(f, {"yield: value 0 has type fp32[8], but the combine region expects fp32"});
}

TEST(Verifier, RejectsDotShapeMismatch) {
  Function f("k");
  Builder b(f);
  Value *a = b.constantFloat(DType::Float16, 0.0, {16, 32});
  Value *c = b.constantFloat(DType::Float16, 0.0, {16, 8});
  Value *acc = b.constantFloat(DType::Float32, 0.0, {16, 8});
  b.create(OpCode::Dot, {a, c, acc}, {acc->type});
  expectInvalid(f, {"dot: shapes [16, 32] x [16, 8] + [16, 8] do not match [M, K] x [K, N] + [M, N]"});
}

TEST(Verifier, RejectsDotMixedInputTypes) {
  Function f("k");
  Builder b(f);
  Value *a = b.constantFloat(DType::Float16, 0.0, {16, 16});
  Value *c = b.constantFloat(DType::Float32, 0.0, {16, 16});
  b.create(OpCode::Dot, {a, c, c}, {c->type});
  expectInvalid(f, {"dot: operand dtypes fp16[16, 16], fp32[16, 16], fp32[16, 16]"});
}

TEST(Verifier, RejectsSortAxis) {
  Function f("k");
  Builder b(f);
  Value *x = b.arange(0, 8);
  b.create(OpCode::Sort, {x}, {x->type})->axis = 1;
  expectInvalid(f, {"sort: axis 1 out of range for rank 1"});
}

// ---- control flow ----------------------------------------------------------

/// for %iv = 0 to 4 step 1 iter_args(%a = 0.0 : fp32), body as given.
struct Loop {
  Function f{"loop"};
  Builder b{f};
  Op *op = nullptr;
  Block *body = nullptr;
  Loop(std::vector<Type> argumentTypes, std::vector<Type> resultTypes) {
    Value *lo = b.constantInt(DType::Int32, 0);
    Value *hi = b.constantInt(DType::Int32, 4);
    Value *step = b.constantInt(DType::Int32, 1);
    Value *init = b.constantFloat(DType::Float32, 0.0);
    op = b.create(OpCode::For, {lo, hi, step, init}, std::move(resultTypes));
    body = b.addRegion(op, argumentTypes);
    b.setInsertionBlock(body);
  }
};

TEST(Verifier, RejectsYieldTypeMismatchInFor) {
  Loop loop({i32(), f32()}, {f32()});
  loop.b.yield({loop.body->arguments[0]});
  expectInvalid(loop.f, {"yield: value 0 has type i32, but the loop expects fp32"});
}

TEST(Verifier, RejectsForBodyArgumentsAndResults) {
  {
    Loop loop({i32()}, {f32()});
    loop.b.yield({});
    expectInvalid(loop.f, {"for: body has 1 argument, expected 2"});
  }
  {
    Loop loop({i32(), f32()}, {i32()});
    loop.b.yield({loop.body->arguments[1]});
    expectInvalid(loop.f, {"for: result 0 has type i32, but its initial value is fp32"});
  }
}

TEST(Verifier, RejectsForWithFloatBounds) {
  Function f("k");
  Builder b(f);
  Value *x = b.constantFloat(DType::Float32, 0.0);
  Op *loop = b.create(OpCode::For, {x, x, x}, {});
  b.setInsertionBlock(b.addRegion(loop, {f32()}));
  b.yield({});
  expectInvalid(f, {"for: bounds fp32, fp32, fp32 must be scalar integers of one type"});
}

TEST(Verifier, RejectsIfWithTileCondition) {
  Function f("k");
  Builder b(f);
  Value *c = b.constantInt(DType::Bool, 1, {4});
  Op *branch = b.create(OpCode::If, {c}, {});
  for (int i = 0; i < 2; ++i) {
    b.setInsertionBlock(b.addRegion(branch, {}));
    b.yield({});
  }
  expectInvalid(f, {"if: condition i1[4] is not a scalar i1"});
}

TEST(Verifier, RejectsIfWithMissingElseYield) {
  Function f("k");
  Builder b(f);
  Value *c = b.constantInt(DType::Bool, 1);
  Op *branch = b.create(OpCode::If, {c}, {i32()});
  b.setInsertionBlock(b.addRegion(branch, {}));
  b.yield({b.constantInt(DType::Int32, 1)});
  b.setInsertionBlock(b.addRegion(branch, {}));
  b.constantInt(DType::Int32, 2);
  expectInvalid(f, {"if: region 1 does not end with yield"});
}

TEST(Verifier, RejectsYieldNotLast) {
  Loop loop({i32(), f32()}, {f32()});
  loop.b.yield({loop.body->arguments[1]});
  loop.b.constantInt(DType::Int32, 0);
  expectInvalid(loop.f, {"yield: yield must be the last op of its region"});
}

TEST(Verifier, RejectsYieldInFunctionBody) {
  Function f("k");
  Builder b(f);
  b.yield({});
  expectInvalid(f, {"yield: yield in the function body"});
}

// ---- SSA visibility --------------------------------------------------------

TEST(Verifier, RejectsUseBeforeDefinition) {
  Function f("k");
  Builder b(f);
  Value *x = b.constantInt(DType::Int32, 1);
  Op *add = b.create(OpCode::Add, {x, x}, {x->type});
  Value *later = b.constantInt(DType::Int32, 2);
  add->operands[1] = later;
  expectInvalid(f, {"add: operand 1 (%2) is used before its definition"});
}

TEST(Verifier, RejectsUseOfOwnResultInRegion) {
  Loop loop({i32(), f32()}, {f32()});
  loop.b.yield({loop.op->result()});
  expectInvalid(loop.f, {"yield: operand 0 (%4) is used before its definition"});
}

TEST(Verifier, RejectsUseFromSiblingRegion) {
  Function f("k");
  Builder b(f);
  Value *c = b.constantInt(DType::Bool, 1);
  Op *branch = b.create(OpCode::If, {c}, {i32()});
  b.setInsertionBlock(b.addRegion(branch, {}));
  Value *inThen = b.constantInt(DType::Int32, 1);
  b.yield({inThen});
  b.setInsertionBlock(b.addRegion(branch, {}));
  b.yield({inThen});
  expectInvalid(f, {"yield: operand 0 (%2) is not visible here: it is defined in a region that "
                    "does not enclose this use"});
}

TEST(Verifier, RejectsUseOfRegionValueAfterTheOp) {
  Loop loop({i32(), f32()}, {f32()});
  Value *inside = loop.b.binary(OpCode::Add, loop.body->arguments[1], loop.body->arguments[1]);
  loop.b.yield({inside});
  loop.b.setInsertionBlock(&loop.f.body());
  loop.b.unary(OpCode::Neg, inside);
  expectInvalid(loop.f, {"neg: operand 0 (%7) is not visible here"});
}

TEST(Verifier, RejectsValueOfAnotherFunction) {
  Function other("other");
  Builder ob(other);
  ob.constantInt(DType::Int32, 0);
  ob.constantInt(DType::Int32, 0);
  Value *foreign = ob.constantInt(DType::Int32, 0);
  Function f("k");
  Builder b(f);
  Value *x = b.constantInt(DType::Int32, 1);
  b.create(OpCode::Add, {x, foreign}, {x->type});
  expectInvalid(f, {"add: operand 1 is not a value of this function"});
}

// ---- the value table -------------------------------------------------------

TEST(Verifier, RejectsValueIdNotMatchingIndex) {
  auto f = testing::pointwiseKernel();
  f->values()[5]->id = 9;
  expectInvalid(*f, {"TileIR verifier: function @triton_poi_fused_add_0: value at index 5 has id 9"});
}

TEST(Verifier, RejectsValueDefinedTwice) {
  Function f("k");
  Builder b(f);
  Value *x = b.constantInt(DType::Int32, 1);
  Op *y = b.create(OpCode::Neg, {x}, {x->type});
  y->results[0] = x;
  expectInvalid(f, {"neg: result 0 (%0) is defined more than once"});
}

TEST(Verifier, RejectsTileParameter) {
  Function f("k");
  f.addParameter("x", tile(DType::Float32, {4}));
  expectInvalid(f, {"parameter x has tile type fp32[4]"});
}

} // namespace
} // namespace npusim::ir
