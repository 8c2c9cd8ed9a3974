// The operator schemas and CallArgs: fallbacks, arity, names and the checks
// both the host calls and the NPU library get from them.
#include "core/operator_call.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace npusim::core {
namespace {

struct Tensor {
  std::vector<int64_t> shape, stride;
};

using Value = CallValue<Tensor>;
using Args = CallArgs<Tensor>;

Value tensor(std::vector<int64_t> shape, std::vector<int64_t> stride) {
  Value v;
  v.kind = CallKind::Tensor;
  v.tensor = Tensor{std::move(shape), std::move(stride)};
  return v;
}

Value integer(int64_t i) {
  Value v;
  v.kind = CallKind::Int;
  v.intValue = i;
  return v;
}

Value string(std::string s) {
  Value v;
  v.kind = CallKind::String;
  v.stringValue = std::move(s);
  return v;
}

std::string messageOf(const std::function<void()> &f) {
  try {
    f();
  } catch (const RuntimeError &e) {
    return e.what();
  }
  return "(no error)";
}

TEST(OperatorSchema, DefaultOverloadAndFamilies) {
  ASSERT_NE(findSchema("aten.addmm"), nullptr);
  EXPECT_EQ(findSchema("aten.addmm.default"), findSchema("aten.addmm"));
  EXPECT_EQ(findSchema("aten.mm"), findSchema("aten._int_mm"));
  EXPECT_EQ(findSchema("aten.nonzero"), nullptr);
  EXPECT_EQ(withoutDefault("aten.mm.default"), "aten.mm");
  EXPECT_EQ(withoutDefault(".default"), ".default");
  // _convolution is convolution plus four flags.
  EXPECT_EQ(findSchema("aten.convolution")->arguments.size(), 9u);
  EXPECT_EQ(findSchema("aten._convolution")->arguments.size(), 13u);
  EXPECT_EQ(findSchema("aten._convolution")->arguments[8].name, "groups");
  for (std::string_view op : attentionOperators())
    EXPECT_NE(findSchema(op), nullptr) << op;
}

TEST(OperatorSchema, FallbacksOfMissingTrailingArguments) {
  const Value self = tensor({2, 3}, {3, 1}), mat = tensor({3, 4}, {4, 1});
  const std::vector<Value> given = {self, mat, mat};
  const std::vector<const Tensor *> outs = {&self.tensor};
  const Args addmm("aten.addmm", given, outs);
  EXPECT_EQ(addmm.number(3, "beta"), 1.0); // beta=1
  EXPECT_EQ(addmm.number(4, "alpha"), 1.0);
  const std::vector<Value> conv = {tensor({1, 1, 4, 4}, {16, 16, 4, 1}), tensor({1, 1, 3, 3}, {9, 9, 3, 1})};
  const Args c("aten.convolution", conv, outs);
  EXPECT_EQ(c.optionalTensor(2, "bias"), nullptr);
  EXPECT_EQ(c.integers(3, "stride"), std::vector<int64_t>{1});
  EXPECT_EQ(c.integers(4, "padding"), std::vector<int64_t>{0});
  EXPECT_FALSE(c.boolean(6, "transposed"));
  EXPECT_EQ(c.integer(8, "groups"), 1);
  const std::vector<Value> topk = {self, integer(2)};
  const Args t("aten.topk", topk, outs);
  EXPECT_EQ(t.integer(2, "dim"), -1);
  EXPECT_TRUE(t.boolean(3, "largest"));
  const std::vector<Value> sum = {self};
  EXPECT_TRUE(Args("aten.sum.dim_IntList", sum, outs).integers(1, "dim").empty()); // dim=[]
  EXPECT_EQ(Args("aten.sort", sum, outs).position("descending"), std::optional<size_t>(2));
}

TEST(OperatorSchema, ErrorsNameTheCallAndTheArgument) {
  const Value self = tensor({2, 3}, {3, 1});
  const std::vector<const Tensor *> outs = {&self.tensor};
  const std::vector<Value> two = {self, self}, three = {self, self, self};
  EXPECT_EQ(messageOf([&] { Args("aten.mm", three, outs); }), "aten.mm: takes at most 2 arguments, got 3");
  const std::vector<Value> skewed = {tensor({2, 3}, {1}), self};
  EXPECT_EQ(messageOf([&] { Args("aten.mm", skewed, outs).tensor(0, "self"); }),
            "aten.mm: argument 0 (self): shape [2, 3] and stride [1] differ in length");
  const Tensor badOut{{2, 2}, {2}};
  const std::vector<const Tensor *> badOuts = {&badOut};
  EXPECT_EQ(messageOf([&] { Args("aten.mm", two, badOuts).out(0); }),
            "aten.mm: result 0 (out): shape [2, 2] and stride [2] differ in length");
  const std::vector<Value> word = {self, self, self, string("half")};
  EXPECT_EQ(messageOf([&] { Args("aten.addmm", word, outs).number(3, "beta"); }),
            "aten.addmm: argument 3 (beta): expected a number, got a string");
  EXPECT_EQ(messageOf([&] { Args("aten.mm", two, outs).tensor(1, "other"); }),
            "aten.mm: internal error: argument 1 read as other, which the schema does not name so");
  EXPECT_EQ(messageOf([&] { Args("aten.mm", two, outs).out(1); }),
            "aten.mm: result 1 (result 1) is not given in out");
  EXPECT_EQ(messageOf([&] { Args("aten.mm", std::span<const Value>{}, outs).tensor(0, "self"); }),
            "aten.mm: argument 0 (self): missing");
  EXPECT_EQ(messageOf([&] { Args("aten.nonzero", std::span<const Value>{}, outs); }),
            "library call aten.nonzero has no schema");
}

TEST(OperatorSchema, NumbersSpelledAsStrings) {
  const Value self = tensor({1}, {1});
  const std::vector<const Tensor *> outs = {&self.tensor};
  const std::vector<Value> args = {self, self, self, string("-inf"), string("nan")};
  const Args c("aten.addmm", args, outs);
  EXPECT_EQ(c.number(3, "beta"), -HUGE_VAL);
  EXPECT_TRUE(std::isnan(c.number(4, "alpha")));
}

TEST(OperatorSchema, MapTensorsKeepsScalarsAndLists) {
  Value list;
  list.kind = CallKind::List;
  list.list = {tensor({2}, {1}), integer(7)};
  const CallValue<int> mapped =
      mapTensors<int>(list, [](const Tensor &t) { return static_cast<int>(t.shape[0]); });
  ASSERT_EQ(mapped.list.size(), 2u);
  EXPECT_EQ(mapped.list[0].kind, CallKind::Tensor);
  EXPECT_EQ(mapped.list[0].tensor, 2);
  EXPECT_EQ(mapped.list[1].intValue, 7);
}

} // namespace
} // namespace npusim::core
