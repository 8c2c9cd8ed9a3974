// Inductor's elementwise `triton_helpers.*` functions as registry rows (its
// reductions are in builtin_reductions.cpp, randint64 in lower_random.cpp).
#include "triton/builtins_internal.h"

#include <cmath>

namespace npusim::triton::lowering {

namespace {

using BO = ast::BinaryOperator;
using CO = ast::CompareOperator;

/// The arithmetic the helpers are written in, on the call's lowerer.
class HelperMath {
public:
  explicit HelperMath(BuiltinCall &c) : c_(c) {}
  const SemaValue &arg(size_t i, const char *keyword) const { return c_.args.required(i, keyword); }
  SemaValue bin(BO op, const SemaValue &x, const SemaValue &y) const { return c_.l.binary(op, x, y, c_.pos); }
  SemaValue cmp(CO op, const SemaValue &x, const SemaValue &y) const {
    return c_.l.compare(op, x, y, c_.pos);
  }
  SemaValue where(const SemaValue &cond, const SemaValue &x, const SemaValue &y) const {
    return SemaValue::ofTensor(c_.l.select(cond, x, y, c_.pos));
  }
  SemaValue both(const SemaValue &x, const SemaValue &y) const {
    return c_.l.logical(ast::BoolOperator::And, x, y, c_.pos);
  }

private:
  BuiltinCall &c_;
};

bool constexprTrue(const SemaValue &v) {
  return v.kind == SemaValue::Kind::Bool ? v.boolValue : v.intValue != 0;
}

/// set_driver_to_gpu, set_driver_to_cpu: no effect inside a kernel.
SemaValue helperNothing(BuiltinCall &) {
  return SemaValue::none();
}

/// maximum (op Max), minimum (op Min): NaN from either operand propagates, unlike tl.maximum.
SemaValue helperMinMax(BuiltinCall &c, ir::OpCode op) {
  auto [x, y] = c.l.promote(c.args.required(0, "a"), c.args.required(1, "b"), false, c.pos);
  return SemaValue::ofTensor(
      c.b.minMax(op, x, y, x->type.isFloat() ? ir::NanMode::Propagate : ir::NanMode::Ignore));
}

/// promote_to_tensor: x + tl.zeros((1,), tl.int1)
SemaValue helperPromoteToTensor(BuiltinCall &c) {
  const SemaValue zero =
      SemaValue::ofTensor(c.l.constant(core::DType::Bool, SemaValue::ofInt(0), {1}, c.pos));
  return c.l.binary(BO::Add, c.args.required(0, "x"), zero, c.pos);
}

/// is_floating
SemaValue helperIsFloating(BuiltinCall &c) {
  const SemaValue &x = c.args.required(0, "x");
  if (x.kind == SemaValue::Kind::Float)
    return SemaValue::ofBool(true);
  return SemaValue::ofBool(x.isTensor() && x.tensor->type.isFloat());
}

/// div_floor_integer: Python's floor division of integers.
SemaValue helperDivFloorInteger(BuiltinCall &c) {
  const HelperMath m(c);
  const SemaValue &a = m.arg(0, "a"), &d = m.arg(1, "b");
  const SemaValue zero = SemaValue::ofInt(0);
  const SemaValue quot = m.bin(BO::FloorDiv, a, d);
  const SemaValue rem = m.bin(BO::Mod, a, d);
  const SemaValue fixed =
      m.where(m.cmp(CO::NotEq, rem, zero), m.bin(BO::Sub, quot, SemaValue::ofInt(1)), quot);
  const SemaValue signsDiffer = m.cmp(CO::NotEq, m.cmp(CO::Lt, a, zero), m.cmp(CO::Lt, d, zero));
  return m.where(signsDiffer, fixed, quot);
}

/// remainder_integer: Python's remainder of integers (the divisor's sign).
SemaValue helperRemainderInteger(BuiltinCall &c) {
  const HelperMath m(c);
  const SemaValue &a = m.arg(0, "a"), &d = m.arg(1, "b");
  const SemaValue zero = SemaValue::ofInt(0);
  const SemaValue rem = m.bin(BO::Mod, a, d);
  const SemaValue signsDiffer = m.cmp(CO::NotEq, m.cmp(CO::Lt, a, zero), m.cmp(CO::Lt, d, zero));
  const SemaValue fix = m.both(m.cmp(CO::NotEq, rem, zero), signsDiffer);
  return m.where(fix, m.bin(BO::Add, rem, d), rem);
}

/// welford_reduce: one value into a running (mean, m2, weight).
SemaValue helperWelfordReduce(BuiltinCall &c) {
  const HelperMath m(c);
  const SemaValue &value = m.arg(0, "value"), &mean = m.arg(1, "mean"), &m2 = m.arg(2, "m2"),
                  &weight = m.arg(3, "weight");
  const SemaValue &first = m.arg(4, "first_iteration");
  ir::Value *w = c.l.toTensor(weight, c.pos), *m2v = c.l.toTensor(m2, c.pos);
  // First iteration: weight 1, mean = value, m2 = 0.
  const SemaValue firstWeight =
      SemaValue::ofTensor(c.l.constant(w->type.dtype, SemaValue::ofInt(1), w->type.shape, c.pos));
  const SemaValue firstM2 =
      SemaValue::ofTensor(c.l.constant(m2v->type.dtype, SemaValue::ofInt(0), m2v->type.shape, c.pos));
  auto firstIteration = [&]() { return SemaValue::ofTuple({value, firstM2, firstWeight}); };
  auto laterIteration = [&]() {
    const SemaValue delta = m.bin(BO::Sub, value, mean);
    const SemaValue newWeight = m.bin(BO::Add, weight, SemaValue::ofInt(1));
    const SemaValue newMean = m.bin(BO::Add, mean, m.bin(BO::Div, delta, newWeight));
    const SemaValue newM2 = m.bin(BO::Add, m2, m.bin(BO::Mul, delta, m.bin(BO::Sub, value, newMean)));
    return SemaValue::ofTuple({newMean, newM2, newWeight});
  };
  if (first.isConstexpr())
    return constexprTrue(first) ? firstIteration() : laterIteration();
  const SemaValue a = firstIteration(), b = laterIteration();
  std::vector<SemaValue> out;
  for (size_t i = 0; i < 3; ++i)
    out.push_back(m.where(first, a.elements[i], b.elements[i]));
  return SemaValue::ofTuple(std::move(out));
}

/// welford_combine: two running (mean, m2, weight) into one.
SemaValue helperWelfordCombine(BuiltinCall &c) {
  const HelperMath m(c);
  const SemaValue &mean1 = m.arg(0, "mean_1"), &m21 = m.arg(1, "m2_1"), &weight1 = m.arg(2, "weight_1");
  const SemaValue &mean2 = m.arg(3, "mean_2"), &m22 = m.arg(4, "m2_2"), &weight2 = m.arg(5, "weight_2");
  const SemaValue delta = m.bin(BO::Sub, mean2, mean1);
  const SemaValue newWeight = m.bin(BO::Add, weight1, weight2);
  const SemaValue w2OverW = m.where(m.cmp(CO::Eq, newWeight, SemaValue::ofFloat(0.0)),
                                    SemaValue::ofFloat(0.0), m.bin(BO::Div, weight2, newWeight));
  const SemaValue mean = m.bin(BO::Add, mean1, m.bin(BO::Mul, delta, w2OverW));
  const SemaValue m2 = m.bin(BO::Add, m.bin(BO::Add, m21, m22),
                             m.bin(BO::Mul, m.bin(BO::Mul, m.bin(BO::Mul, delta, delta), weight1), w2OverW));
  return SemaValue::ofTuple({mean, m2, newWeight});
}

/// exp(x, use_fast_math)
SemaValue helperExp(BuiltinCall &c) {
  const SemaValue *fast = c.args.get(1, "use_fast_math");
  return c.l.softmaxExp(c.args.required(0, "x"), fast && fast->isConstexpr() && constexprTrue(*fast), c.pos);
}

/// online_softmax_combine: one step of the online softmax, the running (max,
/// sum) of a column updated by the next element, whose own sum is 1.
SemaValue helperOnlineSoftmaxCombine(BuiltinCall &c) {
  const HelperMath m(c);
  const SemaValue &lhsMax = m.arg(0, "lhs_max"), &lhsSum = m.arg(1, "lhs_sum"), &rhsMax = m.arg(2, "rhs_max");
  const SemaValue *fastArg = c.args.get(3, "use_fast_math");
  if (fastArg && !fastArg->isConstexpr())
    c.l.fail(c.pos, c.name + "() use_fast_math must be a compile-time bool");
  const bool fast = fastArg && constexprTrue(*fastArg);
  auto [x, y] = c.l.promote(lhsMax, rhsMax, false, c.pos);
  const SemaValue outMax = SemaValue::ofTensor(c.b.minMax(ir::OpCode::Max, x, y, ir::NanMode::Propagate));
  const SemaValue noMax = m.cmp(CO::Eq, outMax, SemaValue::ofFloat(-INFINITY));
  const SemaValue one = SemaValue::ofFloat(1.0);
  const SemaValue lhsScale = m.where(noMax, one, c.l.softmaxExp(m.bin(BO::Sub, lhsMax, outMax), fast, c.pos));
  const SemaValue rhsScale = m.where(noMax, one, c.l.softmaxExp(m.bin(BO::Sub, rhsMax, outMax), fast, c.pos));
  return SemaValue::ofTuple({outMax, m.bin(BO::Add, m.bin(BO::Mul, lhsSum, lhsScale), rhsScale)});
}

/// device_assert_then(cond, msg, r): the assert, then r.
SemaValue helperDeviceAssertThen(BuiltinCall &c) {
  CallArguments assertArgs;
  assertArgs.positional = {c.args.required(0, "cond"), c.args.required(1, "msg")};
  c.l.callBuiltin("tl.device_assert", assertArgs, c.pos);
  return c.args.required(2, "r");
}

/// maximum_with_index (isMax), minimum_with_index: the combine step of
/// max_with_index. NaN wins, equal values keep the smaller index.
SemaValue helperMinMaxWithIndex(BuiltinCall &c, bool isMax) {
  const HelperMath m(c);
  const SemaValue &av = m.arg(0, "a_value"), &ai = m.arg(1, "a_index"), &bv = m.arg(2, "b_value"),
                  &bi = m.arg(3, "b_index");
  SemaValue mask = m.cmp(isMax ? CO::Gt : CO::Lt, av, bv);
  SemaValue equal = m.cmp(CO::Eq, av, bv);
  const bool floating = (av.isTensor() && av.tensor->type.isFloat()) || av.kind == SemaValue::Kind::Float;
  if (floating) {
    const SemaValue aNan = m.cmp(CO::NotEq, av, av), bNan = m.cmp(CO::NotEq, bv, bv);
    mask = m.bin(BO::BitOr, mask, m.both(aNan, c.l.unary(ast::UnaryOperator::Not, bNan, c.pos)));
    equal = m.bin(BO::BitOr, equal, m.both(aNan, bNan));
  }
  mask = m.bin(BO::BitOr, mask, m.bin(BO::BitAnd, equal, m.cmp(CO::Lt, ai, bi)));
  return SemaValue::ofTuple({m.where(mask, av, bv), m.where(mask, ai, bi)});
}

/// bucketize_binary_search: per value, the index of the first offset above it
/// (or at or above it with `right`), by a binary search of loads.
SemaValue helperBucketizeBinarySearch(BuiltinCall &c) {
  const HelperMath m(c);
  const SemaValue &values = m.arg(0, "values"), &offsets = m.arg(1, "offsets_ptr");
  const SemaValue &indexType = m.arg(2, "indexing_dtype"), &right = m.arg(3, "right");
  const SemaValue &size = m.arg(4, "OFFSETS_SIZE"), &blockShape = m.arg(5, "BLOCK_SHAPE");
  if (indexType.kind != SemaValue::Kind::DType || size.kind != SemaValue::Kind::Int || !right.isConstexpr() ||
      blockShape.kind != SemaValue::Kind::Tuple)
    c.l.fail(c.pos, c.name + "() needs compile-time dtype, right, OFFSETS_SIZE and BLOCK_SHAPE");
  ir::Shape shape;
  for (const SemaValue &d : blockShape.elements)
    shape.push_back(d.intValue);
  SemaValue low = SemaValue::ofTensor(c.l.constant(indexType.dtype, SemaValue::ofInt(0), shape, c.pos));
  SemaValue high = SemaValue::ofTensor(c.l.constant(indexType.dtype, size, shape, c.pos));
  const bool closedLeft = constexprTrue(right);
  for (int64_t range = size.intValue + 1; range > 1; range = (range + 1) / 2) {
    const SemaValue mid = m.bin(BO::FloorDiv, m.bin(BO::Add, high, low), SemaValue::ofInt(2));
    const SemaValue inRange = m.cmp(CO::Lt, mid, size);
    CallArguments load;
    load.positional = {m.bin(BO::Add, offsets, mid), inRange, SemaValue::ofFloat(0.0)};
    const SemaValue bound = c.l.callBuiltin("tl.load", load, c.pos);
    const SemaValue above = m.cmp(closedLeft ? CO::GtE : CO::Gt, values, bound);
    low = m.where(m.bin(BO::BitAnd, above, inRange), m.bin(BO::Add, mid, SemaValue::ofInt(1)), low);
    high = m.where(above, high, mid);
  }
  return low;
}

const bool kHelpersRegistered = registerBuiltins({
    {"triton_helpers.set_driver_to_gpu", helperNothing},
    {"triton_helpers.set_driver_to_cpu", helperNothing},
    {"triton_helpers.maximum", member(helperMinMax, ir::OpCode::Max)},
    {"triton_helpers.minimum", member(helperMinMax, ir::OpCode::Min)},
    {"triton_helpers.promote_to_tensor", helperPromoteToTensor},
    {"triton_helpers.is_floating", helperIsFloating},
    {"triton_helpers.div_floor_integer", helperDivFloorInteger},
    {"triton_helpers.remainder_integer", helperRemainderInteger},
    {"triton_helpers.welford_reduce", helperWelfordReduce},
    {"triton_helpers.welford_combine", helperWelfordCombine},
    {"triton_helpers.exp", helperExp},
    {"triton_helpers.online_softmax_combine", helperOnlineSoftmaxCombine},
    {"triton_helpers.device_assert_then", helperDeviceAssertThen},
    {"triton_helpers.maximum_with_index", member(helperMinMaxWithIndex, true)},
    {"triton_helpers.minimum_with_index", member(helperMinMaxWithIndex, false)},
    {"triton_helpers.bucketize_binary_search", helperBucketizeBinarySearch},
});

} // namespace

SemaValue Lowerer::softmaxExp(const SemaValue &x, bool useFastMath, ast::Position pos) {
  // triton_helpers.exp: exp2(x * log2(e)) with fast math, else exp(x).
  CallArguments call;
  if (!useFastMath) {
    call.positional = {x};
    return callBuiltin("tl.math.exp", call, pos);
  }
  call.positional = {binary(BO::Mul, x, SemaValue::ofFloat(1.4426950408889634), pos)};
  return callBuiltin("libdevice.exp2", call, pos);
}

} // namespace npusim::triton::lowering
