// The text form of TileIR, held exactly (docs/tileir.md has the grammar).
#include "ir/builder.h"
#include "ir/kernels_support.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <sstream>

namespace npusim::ir {
namespace {

TEST(Printer, PointwiseKernel) {
  auto f = testing::pointwiseKernel();
  EXPECT_EQ(print(*f),
            R"(tile.func @triton_poi_fused_add_0(%0 in_ptr0: *fp32, %1 out_ptr0: *fp32, %2 xnumel: i32) {
  %3 = program_id x : i32
  %4 = constant 128 : i32
  %5 = mul %3, %4 : i32  // xoffset
  %6 = arange 0, 128 : i32[128]
  %7 = splat %5 : i32[128]
  %8 = add %7, %6 : i32[128]  // xindex
  %9 = splat %2 : i32[128]
  %10 = cmp lt %8, %9 : i1[128]  // xmask
  %11 = splat %0 : *fp32[128]
  %12 = addptr %11, %8 : *fp32[128]
  %13 = constant 0.0 : fp32[128]
  %14 = load %12, mask %10, other %13 : fp32[128]  // tmp0
  %15 = constant 1.0 : fp32[128]
  %16 = add %14, %15 : fp32[128]  // tmp2
  %17 = splat %1 : *fp32[128]
  %18 = addptr %17, %8 : *fp32[128]
  store %18, %16, mask %10
}
)");
}

TEST(Printer, ForWithCarriedValues) {
  // The header line defines, left to right, %7, %8, %9, %10, %11: the comment
  // lists their hints in that order.
  auto f = testing::forKernel();
  EXPECT_EQ(print(*f),
            R"(tile.func @triton_red_fused_sum_0(%0 in_ptr0: *fp32, %1 out_ptr0: *fp32, %2 rnumel: i32) {
  %3 = constant 0.0 : fp32[8, 16]
  %4 = constant 0 : i32
  %5 = constant 16 : i32
  %6 = constant 0 : i32
  %7, %8 = for %9 = %4 to %2 step %5 iter_args(%10 = %3, %11 = %6) : fp32[8, 16], i32 {  // _, _, r0_offset, acc, _
    %12 = arange 0, 16 : i32[16]
    %13 = expand_dims axis=0 %12 : i32[1, 16]
    %14 = broadcast %13 : i32[8, 16]
    %15 = splat %9 : i32[8, 16]
    %16 = add %15, %14 : i32[8, 16]
    %17 = splat %0 : *fp32[8, 16]
    %18 = addptr %17, %16 : *fp32[8, 16]
    %19 = load %18 : fp32[8, 16]
    %20 = add %10, %19 : fp32[8, 16]
    %21 = constant 1 : i32
    %22 = add %11, %21 : i32
    yield %20, %22
  }
  %23 = reduce sum axis=1 %7 : fp32[8]
  %24 = splat %1 : *fp32[8]
  %25 = arange 0, 8 : i32[8]
  %26 = addptr %24, %25 : *fp32[8]
  store %26, %23
  %27 = cast %8 : fp32
  store %1, %27
}
)");
}

TEST(Printer, IfElse) {
  auto f = testing::ifKernel();
  EXPECT_EQ(print(*f), R"(tile.func @triton_poi_if_0(%0 in_ptr0: *fp32, %1 out_ptr0: *fp32) {
  %2 = program_id x : i32
  %3 = constant 0 : i32
  %4 = cmp eq %2, %3 : i1
  %5 = if %4 : fp32 {
    %6 = constant 1.5 : fp32
    yield %6
  } else {
    %7 = load %0 : fp32
    yield %7
  }
  store %1, %5
}
)");
}

TEST(Printer, CombineReduce) {
  auto f = testing::combineReduceKernel();
  EXPECT_EQ(print(*f), R"(tile.func @triton_per_max_with_index_0(%0 in_ptr0: *fp32, %1 out_ptr0: *i32) {
  %2 = splat %0 : *fp32[4, 8]
  %3 = load %2 : fp32[4, 8]
  %4 = arange 0, 8 : i32[8]
  %5 = expand_dims axis=0 %4 : i32[1, 8]
  %6 = broadcast %5 : i32[4, 8]
  %7, %8 = reduce combine axis=1 %3, %6 : fp32[4], i32[4] {
  ^(%9: fp32, %10: i32, %11: fp32, %12: i32):
    %13 = cmp gt %9, %11 : i1
    %14 = select %13, %9, %11 : fp32
    %15 = select %13, %10, %12 : i32
    yield %14, %15
  }
  %16 = splat %1 : *i32[4]
  store %16, %8
}
)");
}

TEST(Printer, Dot) {
  auto f = testing::dotKernel();
  EXPECT_EQ(print(*f),
            R"(tile.func @triton_tem_fused_mm_0(%0 arg_A: *fp16, %1 arg_B: *fp16, %2 out_ptr0: *fp32) {
  %3 = splat %0 : *fp16[16, 32]
  %4 = load %3 : fp16[16, 32]
  %5 = splat %1 : *fp16[32, 8]
  %6 = load %5 : fp16[32, 8]
  %7 = constant 0.0 : fp32[16, 8]
  %8 = dot ieee %4, %6, %7 : fp32[16, 8]
  %9 = splat %2 : *fp32[16, 8]
  store %9, %8
}
)");
}

TEST(Printer, EveryOtherOpAndAttribute) {
  Function f("ops");
  Value *p = f.addParameter("p", Type::pointer(DType::Float32));
  Value *q = f.addParameter("q", Type::pointer(DType::Int64));
  Builder b(f);
  Value *np = b.numPrograms(1);                                               // %2
  Value *pid = b.programId(2);                                                // %3
  Value *x = b.load(b.splat(p, {4, 8}), nullptr, nullptr);                    // %4, %5
  Value *t = b.permute(x, {1, 0});                                            // %6
  Value *flat = b.reshape(t, {32});                                           // %7
  Value *bits = b.bitcast(flat, Type::tile(DType::Int32, {32}));              // %8
  Value *mx = b.minMax(OpCode::Max, flat, flat, NanMode::Propagate);          // %9
  Value *mn = b.minMax(OpCode::Min, mx, flat, NanMode::Ignore);               // %10
  Value *pw = b.math(MathFn::Pow, {mn, flat});                                // %11
  Value *nan = b.math(MathFn::IsNan, {pw});                                   // %12
  Value *neg = b.unary(OpCode::Neg, pw);                                      // %13
  Value *notNan = b.unary(OpCode::Not, nan);                                  // %14
  Value *sel = b.select(notNan, neg, flat);                                   // %15
  Value *ptrs = b.splat(p, {32});                                             // %16
  Op *atomic = b.create(OpCode::AtomicRMW, {ptrs, sel, notNan}, {sel->type}); // %17
  atomic->atomicKind = AtomicKind::Max;
  Op *scan = b.create(OpCode::Scan, {sel}, {sel->type}); // %18
  scan->reduceKind = ReduceKind::Sum;
  scan->reverse = true;
  Value *index = b.arange(0, 32); // %19
  Op *argmax = b.create(OpCode::Reduce, {sel, index},
                        {Type::scalar(DType::Float32), Type::scalar(DType::Int32)}); // %20, %21
  argmax->reduceKind = ReduceKind::ArgMax;
  argmax->nanMode = NanMode::Propagate;
  Op *sort = b.create(OpCode::Sort, {sel, index}, {sel->type, index->type}); // %22, %23
  sort->descending = true;
  sort->stable = true;
  Value *wide = b.bitcast(q, Type::scalar(DType::Int64)); // %24
  b.load(q, b.constantInt(DType::Bool, 1), nullptr);      // %25, %26
  b.assertTrue(notNan, "index \"x\" out of bounds:\n\t0 <= tmp4 < 50257\\");
  b.create(OpCode::Barrier, {}, {});
  Op *loop = b.create(OpCode::For, {pid, np, pid}, {});
  b.addRegion(loop, {pid->type}); // %27
  b.setInsertionBlock(&loop->region());
  b.yield({});
  (void)bits;
  (void)wide;
  EXPECT_EQ(print(f), R"(tile.func @ops(%0 p: *fp32, %1 q: *i64) {
  %2 = num_programs y : i32
  %3 = program_id z : i32
  %4 = splat %0 : *fp32[4, 8]
  %5 = load %4 : fp32[4, 8]
  %6 = permute order=[1, 0] %5 : fp32[8, 4]
  %7 = reshape %6 : fp32[32]
  %8 = bitcast %7 : i32[32]
  %9 = max propagate_nan %7, %7 : fp32[32]
  %10 = min ignore_nan %9, %7 : fp32[32]
  %11 = math pow %10, %7 : fp32[32]
  %12 = math isnan %11 : i1[32]
  %13 = neg %11 : fp32[32]
  %14 = not %12 : i1[32]
  %15 = select %14, %13, %7 : fp32[32]
  %16 = splat %0 : *fp32[32]
  %17 = atomic_rmw max %16, %15, mask %14 : fp32[32]
  %18 = scan sum axis=0 reverse %15 : fp32[32]
  %19 = arange 0, 32 : i32[32]
  %20, %21 = reduce argmax propagate_nan axis=0 %15, %19 : fp32, i32
  %22, %23 = sort axis=0 descending stable %15, %19 : fp32[32], i32[32]
  %24 = bitcast %1 : i64
  %25 = constant true : i1
  %26 = load %1, mask %25 : i64
  assert %14, "index \"x\" out of bounds:\n\t0 <= tmp4 < 50257\\"
  barrier
  for %27 = %3 to %2 step %3 {
    yield
  }
}
)");
}

// Builds "constant <v> : <dtype>" and returns the literal as printed.
std::string printedFloat(double v, DType dtype = DType::Float64) {
  Function f("c");
  Builder b(f);
  b.constantFloat(dtype, v);
  const std::string text = print(f);
  const std::string prefix = "  %0 = constant ";
  const auto begin = text.find(prefix) + prefix.size();
  return text.substr(begin, text.find(" : ", begin) - begin);
}

TEST(Printer, FloatConstantsRoundTrip) {
  EXPECT_EQ(printedFloat(0.1), "0.1");
  EXPECT_EQ(printedFloat(1.0), "1.0");
  EXPECT_EQ(printedFloat(-0.0), "-0.0");
  EXPECT_EQ(printedFloat(1e20), "1e+20");
  EXPECT_EQ(printedFloat(65504.0, DType::Float16), "65504.0");
  EXPECT_EQ(printedFloat(1e-06, DType::Float32), "1e-06");
  EXPECT_EQ(printedFloat(std::numeric_limits<double>::infinity()), "inf");
  EXPECT_EQ(printedFloat(-std::numeric_limits<double>::infinity()), "-inf");
  EXPECT_EQ(printedFloat(std::numeric_limits<double>::quiet_NaN()), "nan");
  EXPECT_EQ(printedFloat(std::bit_cast<double>(uint64_t{0xfff8000000000000})), "nan(0xfff8000000000000)");
  EXPECT_EQ(printedFloat(std::bit_cast<double>(uint64_t{0x7ff0000000000001})), "nan(0x7ff0000000000001)");
  // Every finite literal reads back (strtod) to the same bits.
  for (double v : {1.0 / 3.0, 5e-324, 1.7976931348623157e308, 2.2250738585072014e-308, -123456.789,
                   3.0000000000000004, 0.30000000000000004}) {
    const std::string s = printedFloat(v);
    EXPECT_EQ(std::bit_cast<uint64_t>(std::strtod(s.c_str(), nullptr)), std::bit_cast<uint64_t>(v)) << s;
  }
}

TEST(Printer, IntegerAndBoolConstants) {
  Function f("c");
  Builder b(f);
  b.constantInt(DType::Int8, -5);
  b.constantInt(DType::UInt64, -1);
  b.constantInt(DType::Int64, std::numeric_limits<int64_t>::min());
  b.constantInt(DType::Bool, 0, {2, 2});
  b.constantInt(DType::UInt8, 255, {4});
  EXPECT_EQ(print(f), R"(tile.func @c() {
  %0 = constant -5 : i8
  %1 = constant 18446744073709551615 : u64
  %2 = constant -9223372036854775808 : i64
  %3 = constant false : i1[2, 2]
  %4 = constant 255 : u8[4]
}
)");
}

TEST(Printer, MalformedIrStillPrints) {
  Function f("bad");
  Builder b(f);
  Value *one = b.constantInt(DType::Int32, 1);
  Op *add = b.create(OpCode::Add, {one, nullptr}, {one->type});
  add->results[0]->nameHint = "line\nbreak";
  Op *cmp = b.create(OpCode::Cmp, {one, one}, {Type::scalar(DType::Bool)});
  cmp->predicate = static_cast<CmpPredicate>(42);
  Op *loop = b.create(OpCode::For, {one}, {}); // too few operands for the header form
  b.addRegion(loop, {one->type});
  EXPECT_EQ(print(f), R"(tile.func @bad() {
  %0 = constant 1 : i32
  %1 = add %0, <null> : i32  // line\nbreak
  %2 = cmp ?42 %0, %0 : i1
  for %0 {
  ^(%3: i32):
  }
}
)");
}

TEST(Printer, IsDeterministic) {
  auto a = testing::forKernel();
  auto b = testing::forKernel();
  EXPECT_EQ(print(*a), print(*b));
  EXPECT_EQ(print(*a), print(*a));
}

} // namespace
} // namespace npusim::ir
