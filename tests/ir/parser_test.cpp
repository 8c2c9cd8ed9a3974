// The TileIR parser: the inverse of the printer (docs/tileir.md §7), and the
// position of every error it reports.
#include "ir/builder.h"
#include "ir/kernels_support.h"

#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

namespace npusim::ir {
namespace {

/// print(parse(text)) for text the printer wrote.
void expectRoundTrip(const Function &f) {
  const std::string text = print(f);
  auto parsed = parse(text, "t.tileir");
  EXPECT_EQ(print(*parsed), text);
  EXPECT_EQ(parsed->numValues(), f.numValues());
  EXPECT_EQ(parsed->numOps(), f.numOps());
  ASSERT_EQ(parsed->parameters().size(), f.parameters().size());
  for (size_t i = 0; i < f.parameters().size(); ++i) {
    EXPECT_EQ(parsed->parameters()[i].name, f.parameters()[i].name);
    EXPECT_EQ(parsed->parameters()[i].type, f.parameters()[i].type);
    EXPECT_EQ(parsed->parameters()[i].value->id, f.parameters()[i].value->id);
  }
  for (int id = 0; id < f.numValues(); ++id) {
    EXPECT_EQ(parsed->values()[id]->type, f.values()[id]->type) << "%" << id;
    EXPECT_EQ(parsed->values()[id]->nameHint, f.values()[id]->nameHint) << "%" << id;
    EXPECT_EQ(parsed->values()[id]->laneAxis, f.values()[id]->laneAxis) << "%" << id;
  }
}

TEST(Parser, TestKernelsRoundTrip) {
  expectRoundTrip(*testing::pointwiseKernel());
  expectRoundTrip(*testing::forKernel());
  expectRoundTrip(*testing::ifKernel());
  expectRoundTrip(*testing::combineReduceKernel());
  expectRoundTrip(*testing::dotKernel());
}

TEST(Parser, ValuesKeepTheirIdsInAnyOrder) {
  // %5 is defined before %4: the printer writes ids, not positions.
  const std::string text = R"(tile.func @k(%0 n: i32) {
  %5 = constant 2 : i32
  %4 = add %5, %0 : i32  // sum
  %3 = mul %4, %4 : i32
  %1 = constant 1 : i32
  %2 = sub %3, %1 : i32
}
)";
  auto f = parse(text);
  EXPECT_EQ(print(*f), text);
  EXPECT_EQ(f->values()[4]->nameHint, "sum");
  EXPECT_EQ(f->values()[4]->definingOp, f->body().ops[1].get());
  EXPECT_EQ(f->values()[4]->definingOp->operands[0], f->values()[5].get());
}

TEST(Parser, IdsTheTextDoesNotNameStayFree) {
  // A pass that removes an op leaves its result's id unused; the other ids keep theirs.
  const std::string text = "tile.func @k(%0 x: i32) {\n  %3 = add %0, %0 : i32\n}\n";
  auto f = parse(text);
  EXPECT_EQ(f->numValues(), 4);
  EXPECT_EQ(f->values()[1]->definingOp, nullptr);
  EXPECT_EQ(f->values()[1]->ownerBlock, nullptr);
  EXPECT_EQ(print(*f), text);
}

TEST(Parser, ConstantsReadBackBitExactly) {
  Function f("c");
  Builder b(f);
  for (double v : {0.1, -0.0, 5e-324, 1e+20, 65504.0, 1.0 / 3.0, std::numeric_limits<double>::infinity(),
                   -std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN(),
                   std::bit_cast<double>(uint64_t{0xfff8000000000001})})
    b.constantFloat(DType::Float64, v);
  b.constantInt(DType::UInt64, -1);
  b.constantInt(DType::Int64, std::numeric_limits<int64_t>::min());
  b.constantInt(DType::Bool, 1, {2});
  auto parsed = parse(print(f));
  ASSERT_EQ(parsed->body().ops.size(), f.body().ops.size());
  for (size_t i = 0; i < f.body().ops.size(); ++i) {
    const Op &a = *f.body().ops[i];
    const Op &p = *parsed->body().ops[i];
    EXPECT_EQ(std::bit_cast<uint64_t>(p.constant.floatValue), std::bit_cast<uint64_t>(a.constant.floatValue))
        << i;
    EXPECT_EQ(p.constant.intValue, a.constant.intValue) << i;
  }
}

TEST(Parser, StringsAndHintsUnescape) {
  Function f("s");
  Builder b(f);
  Value *one = b.constantInt(DType::Bool, 1);
  one->nameHint = "a\\b";
  b.assertTrue(one, "say \"hi\"\n\ttab \x01");
  auto parsed = parse(print(f));
  EXPECT_EQ(parsed->body().ops[1]->message, "say \"hi\"\n\ttab \x01");
  EXPECT_EQ(parsed->values()[0]->nameHint, "a\\b");
}

TEST(Parser, SpacingAndCommentLinesAreFree) {
  auto f = parse("// a test file\n"
                 "tile.func @k(%0 x:i32){\n"
                 "\n"
                 "    %1   =  add %0,%0  :  i32   //  twice\n"
                 "  // CHECK: add\n"
                 "}\n");
  EXPECT_EQ(print(*f), "tile.func @k(%0 x: i32) {\n  %1 = add %0, %0 : i32  // twice\n}\n");
}

TEST(Parser, OpsGetTheirLineAndColumn) {
  auto f =
      parse("tile.func @k(%0 x: i32) {\n  %1 = add %0, %0 : i32\n    %2 = mul %1, %1 : i32\n}\n", "f.tileir");
  EXPECT_EQ(f->body().ops[0]->loc.str(), "f.tileir:2:3");
  EXPECT_EQ(f->body().ops[1]->loc.str(), "f.tileir:3:5");
}

TEST(Parser, LaneAxesReadBackAndCarriedArgumentsTakeTheirResults) {
  // The layout pass's choice follows the type; a for's carried argument is
  // printed without a type, and takes its result's type and lane axis.
  const std::string text = R"(tile.func @k(%0 n: i32) {
  %1 = constant 0.0 : fp32[4, 8] lane=0
  %2 = constant 1 : i32
  %4, %5 = for %3 = %2 to %0 step %2 iter_args(%6 = %1, %7 = %2) : fp32[4, 8] lane=0, i32 {
    %8 = add %6, %6 : fp32[4, 8] lane=1
    yield %8, %7
  }
}
)";
  auto f = parse(text);
  EXPECT_EQ(print(*f), text);
  EXPECT_EQ(f->values()[1]->laneAxis, 0);
  EXPECT_EQ(f->values()[2]->laneAxis, -1);
  EXPECT_EQ(f->values()[6]->laneAxis, 0);
  EXPECT_EQ(f->values()[7]->laneAxis, -1);
  EXPECT_EQ(f->values()[8]->laneAxis, 1);
  EXPECT_EQ(print(*clone(*f)), text);
}

TEST(Parser, CloneKeepsIdsAndLocations) {
  auto f = testing::forKernel();
  f->body().ops[0]->loc = core::SourceLocation{"k.py", 7, 3};
  auto copy = clone(*f);
  EXPECT_EQ(print(*copy), print(*f));
  EXPECT_EQ(copy->body().ops[0]->loc.str(), "k.py:7:3");
  EXPECT_EQ(copy->name(), f->name());
}

TEST(Parser, TheCompiledGridReadsBackAndClones) {
  const std::string text = "tile.func @k(%0 x: i32) programs(64, 2, 0) {\n}\n";
  const auto f = parse(text);
  EXPECT_EQ(f->programs(), (std::array<int64_t, 3>{64, 2, 0}));
  EXPECT_EQ(print(*f), text);
  EXPECT_EQ(clone(*f)->programs(), f->programs());
  // No grid known: nothing printed.
  EXPECT_EQ(print(*parse("tile.func @k(%0 x: i32) {\n}\n")), "tile.func @k(%0 x: i32) {\n}\n");
}

/// The error parse reports for text, as "LINE:COL: message".
std::string errorOf(const std::string &text) {
  try {
    parse(text, "e.tileir");
  } catch (const core::CompileError &e) {
    const std::string what = e.what();
    const std::string prefix = "e.tileir:";
    EXPECT_EQ(what.rfind(prefix, 0), 0u) << what;
    return what.substr(prefix.size());
  }
  return "no error";
}

TEST(Parser, MalformedTextErrorsAtLineAndColumn) {
  // Columns count from 1 at the first character of the line, as in the text.
  const std::string head = "tile.func @k(%0 x: i32) {\n";
  const std::pair<std::string, std::string> cases[] = {
      {"", "1:1: error: TileIR parser: expected 'tile.func @NAME('"},
      {"func @k() {\n}\n", "1:1: error: TileIR parser: expected 'tile.func', found 'func'"},
      {"tile.func k() {\n}\n", "1:11: error: TileIR parser: expected '@', found 'k()'"},
      {"tile.func @k(%1 x: i32) {\n}\n",
       "1:14: error: TileIR parser: parameter 0 must be %0 (parameters are numbered first, in order)"},
      {"tile.func @k(%0 x: f32) {\n}\n", "1:20: error: TileIR parser: expected a type, found 'f32)'"},
      {head + "  %1 = frob %0 : i32\n}\n", "2:8: error: TileIR parser: unknown op 'frob'"},
      {head + "  %1 = add %0, %0\n}\n",
       "2:18: error: TileIR parser: expected ':' and the result types at the end of the line"},
      {head + "  %1 = add %0, %0 : i32, i32\n}\n",
       "2:8: error: TileIR parser: the op defines 1 values but lists 2 result types"},
      {head + "  %1 = add %0, %0 : i32\n  %1 = add %0, %0 : i32\n}\n",
       "3:3: error: TileIR parser: %1 is defined twice"},
      {head + "  %1 = add %0, %2 : i32\n}\n", "2:16: error: TileIR parser: %2 is never defined"},
      {head + "  %1 = constant 1.5 : i32\n}\n",
       "2:17: error: TileIR parser: expected an integer literal for i32, found '1.5'"},
      {head + "  %1 = constant x : fp32\n}\n",
       "2:17: error: TileIR parser: expected a float literal for fp32, found 'x'"},
      {head + "  %1 = arange 0, 16 : i32[0]\n}\n", "2:27: error: TileIR parser: dimensions must be positive"},
      {head + "  %1 = cmp less %0, %0 : i1\n}\n",
       "2:12: error: TileIR parser: expected a predicate (eq, ne, lt, le, gt, ge), found 'less'"},
      {head + "  %1 = program_id w : i32\n}\n",
       "2:19: error: TileIR parser: expected a grid axis x, y or z, found 'w'"},
      {head + "  %1 = add %0, %0 : i32  // a, b\n}\n",
       "2:30: error: TileIR parser: expected 1 name hints, one per value the line defines"},
      {head + "  assert %0, \"open\n}\n", "2:19: error: TileIR parser: unterminated string"},
      {head + "  assert %0, \"\\q\"\n}\n", "2:16: error: TileIR parser: unknown escape '\\q'"},
      {head + "  %1 = add %0, %0 : i32\n", "2:24: error: TileIR parser: expected '}' closing the function"},
      {head + "}\n}\n", "3:1: error: TileIR parser: text after the end of the function"},
      {head + "  %1 = if %0 : i32 {\n    yield %0\n  } or {\n    yield %0\n  }\n}\n",
       "4:5: error: TileIR parser: expected 'else', found 'or'"},
      {head + "  for %1 = %0 to %0 step %0 iter_args(%2 = %0)\n}\n",
       "2:3: error: TileIR parser: a for needs its body region"},
      {head + "  %1 = splat %0 : i32[8] lane=-1\n}\n",
       "2:26: error: TileIR parser: a lane axis must be an axis of the tile"},
      {head + "  %1 = splat %0 : i32[8] lane\n}\n",
       "2:30: error: TileIR parser: expected '=' at the end of the line"},
      {"tile.func @k(%0 x: i32) programs(4, -1, 1) {\n}\n",
       "1:37: error: TileIR parser: a program count is 0 (unknown) or more"},
      {"tile.func @k(%0 x: i32) programs(4, 1) {\n}\n", "1:38: error: TileIR parser: expected ',', found ')'"},
  };
  for (const auto &[text, expected] : cases)
    EXPECT_EQ(errorOf(text), expected) << text;
}

TEST(Parser, WellFormedTextThatBreaksTypeRulesGetsTheVerifiersError) {
  EXPECT_EQ(errorOf("tile.func @k(%0 x: i32, %1 y: fp32) {\n  %2 = add %0, %1 : i32\n}\n"),
            "2:3: error: TileIR verifier: add: operand types differ: i32 vs fp32");
  // A lane axis is an axis of the value's tile: scalars have none.
  EXPECT_EQ(errorOf("tile.func @k(%0 x: i32) {\n  %1 = splat %0 : i32[8] lane=1\n}\n"),
            "2:3: error: TileIR verifier: splat: result 0 (%1) has type i32[8] and lane axis 1, "
            "which is not one of its axes");
  EXPECT_EQ(errorOf("tile.func @k(%0 x: i32) {\n  %1 = add %0, %0 : i32 lane=0\n}\n"),
            "2:3: error: TileIR verifier: add: result 0 (%1) has type i32 and lane axis 0, "
            "which is not one of its axes");
}

} // namespace
} // namespace npusim::ir
