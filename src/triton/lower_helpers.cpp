// triton_helpers' elementwise helpers and the math libraries (libdevice,
// tl.math / tl_math, and tl's own math functions).
#include "triton/lowering.h"

#include <cmath>

#include <unordered_map>

namespace npusim::triton::lowering {

namespace {
using BO = ast::BinaryOperator;
using CO = ast::CompareOperator;
} // namespace

SemaValue Lowerer::callHelperElementwise(const std::string &name, CallArguments &args, ast::Position pos) {
  ir::Builder &b = *builder_;
  auto arg = [&](size_t i, const char *kw) -> const SemaValue & {
    const SemaValue *v = argument(args, i, kw);
    if (!v)
      fail(pos, "triton_helpers." + name + "() is missing argument '" + kw + "'");
    return *v;
  };
  auto bin = [&](BO op, const SemaValue &x, const SemaValue &y) { return binary(op, x, y, pos); };
  auto cmp = [&](CO op, const SemaValue &x, const SemaValue &y) { return compare(op, x, y, pos); };
  auto where = [&](const SemaValue &c, const SemaValue &x, const SemaValue &y) {
    return SemaValue::ofTensor(select(c, x, y, pos));
  };

  if (name == "set_driver_to_gpu" || name == "set_driver_to_cpu")
    return SemaValue::none();
  if (name == "maximum" || name == "minimum") {
    // Propagates NaN from either operand, unlike tl.maximum.
    auto [x, y] = promote(arg(0, "a"), arg(1, "b"), false, pos);
    return SemaValue::ofTensor(b.minMax(name == "maximum" ? ir::OpCode::Max : ir::OpCode::Min, x, y,
                                        x->type.isFloat() ? ir::NanMode::Propagate : ir::NanMode::Ignore));
  }
  if (name == "promote_to_tensor") // x + tl.zeros((1,), tl.int1)
    return bin(BO::Add, arg(0, "x"), SemaValue::ofTensor(constant(core::DType::Bool, SemaValue::ofInt(0), {1}, pos)));
  if (name == "is_floating") {
    const SemaValue &x = arg(0, "x");
    if (x.kind == SemaValue::Kind::Float)
      return SemaValue::ofBool(true);
    return SemaValue::ofBool(x.isTensor() && x.tensor->type.isFloat());
  }
  if (name == "div_floor_integer") {
    const SemaValue &a = arg(0, "a"), &c = arg(1, "b");
    SemaValue quot = bin(BO::FloorDiv, a, c);
    SemaValue rem = bin(BO::Mod, a, c);
    SemaValue fixed = where(cmp(CO::NotEq, rem, SemaValue::ofInt(0)), bin(BO::Sub, quot, SemaValue::ofInt(1)), quot);
    SemaValue signsDiffer = cmp(CO::NotEq, cmp(CO::Lt, a, SemaValue::ofInt(0)), cmp(CO::Lt, c, SemaValue::ofInt(0)));
    return where(signsDiffer, fixed, quot);
  }
  if (name == "remainder_integer") {
    const SemaValue &a = arg(0, "a"), &c = arg(1, "b");
    SemaValue rem = bin(BO::Mod, a, c);
    SemaValue signsDiffer = cmp(CO::NotEq, cmp(CO::Lt, a, SemaValue::ofInt(0)), cmp(CO::Lt, c, SemaValue::ofInt(0)));
    SemaValue fix = logical(ast::BoolOperator::And, cmp(CO::NotEq, rem, SemaValue::ofInt(0)), signsDiffer, pos);
    return where(fix, bin(BO::Add, rem, c), rem);
  }
  if (name == "welford_reduce") {
    const SemaValue &value = arg(0, "value"), &mean = arg(1, "mean"), &m2 = arg(2, "m2"), &weight = arg(3, "weight");
    const SemaValue &first = arg(4, "first_iteration");
    ir::Value *w = toTensor(weight, pos), *m2v = toTensor(m2, pos);
    // First iteration: weight 1, mean = value, m2 = 0.
    SemaValue firstWeight = SemaValue::ofTensor(constant(w->type.dtype, SemaValue::ofInt(1), w->type.shape, pos));
    SemaValue firstM2 = SemaValue::ofTensor(constant(m2v->type.dtype, SemaValue::ofInt(0), m2v->type.shape, pos));
    auto firstIteration = [&]() { return SemaValue::ofTuple({value, firstM2, firstWeight}); };
    auto laterIteration = [&]() {
      SemaValue delta = bin(BO::Sub, value, mean);
      SemaValue newWeight = bin(BO::Add, weight, SemaValue::ofInt(1));
      SemaValue newMean = bin(BO::Add, mean, bin(BO::Div, delta, newWeight));
      SemaValue newM2 = bin(BO::Add, m2, bin(BO::Mul, delta, bin(BO::Sub, value, newMean)));
      return SemaValue::ofTuple({newMean, newM2, newWeight});
    };
    if (first.isConstexpr())
      return (first.kind == SemaValue::Kind::Bool ? first.boolValue : first.intValue != 0) ? firstIteration() : laterIteration();
    SemaValue a = firstIteration(), c = laterIteration();
    std::vector<SemaValue> out;
    for (size_t i = 0; i < 3; ++i)
      out.push_back(where(first, a.elements[i], c.elements[i]));
    return SemaValue::ofTuple(std::move(out));
  }
  if (name == "welford_combine") {
    const SemaValue &mean1 = arg(0, "mean_1"), &m21 = arg(1, "m2_1"), &weight1 = arg(2, "weight_1");
    const SemaValue &mean2 = arg(3, "mean_2"), &m22 = arg(4, "m2_2"), &weight2 = arg(5, "weight_2");
    SemaValue delta = bin(BO::Sub, mean2, mean1);
    SemaValue newWeight = bin(BO::Add, weight1, weight2);
    SemaValue w2OverW = where(cmp(CO::Eq, newWeight, SemaValue::ofFloat(0.0)), SemaValue::ofFloat(0.0), bin(BO::Div, weight2, newWeight));
    SemaValue mean = bin(BO::Add, mean1, bin(BO::Mul, delta, w2OverW));
    SemaValue m2 = bin(BO::Add, bin(BO::Add, m21, m22), bin(BO::Mul, bin(BO::Mul, bin(BO::Mul, delta, delta), weight1), w2OverW));
    return SemaValue::ofTuple({mean, m2, newWeight});
  }
  if (name == "exp") {
    const SemaValue *fast = argument(args, 1, "use_fast_math");
    return softmaxExp(arg(0, "x"), fast && fast->isConstexpr() && (fast->kind == SemaValue::Kind::Bool ? fast->boolValue : fast->intValue != 0), pos);
  }
  if (name == "online_softmax_combine") {
    // One step of the online softmax: the running (max, sum) of a column
    // updated by the next element, whose own sum is 1.
    const SemaValue &lhsMax = arg(0, "lhs_max"), &lhsSum = arg(1, "lhs_sum"), &rhsMax = arg(2, "rhs_max");
    const SemaValue *fastArg = argument(args, 3, "use_fast_math");
    if (fastArg && !fastArg->isConstexpr())
      fail(pos, "triton_helpers.online_softmax_combine() use_fast_math must be a compile-time bool");
    const bool fast = fastArg && (fastArg->kind == SemaValue::Kind::Bool ? fastArg->boolValue : fastArg->intValue != 0);
    auto [x, y] = promote(lhsMax, rhsMax, false, pos);
    const SemaValue outMax = SemaValue::ofTensor(b.minMax(ir::OpCode::Max, x, y, ir::NanMode::Propagate));
    const SemaValue noMax = cmp(CO::Eq, outMax, SemaValue::ofFloat(-INFINITY));
    const SemaValue lhsScale = where(noMax, SemaValue::ofFloat(1.0), softmaxExp(bin(BO::Sub, lhsMax, outMax), fast, pos));
    const SemaValue rhsScale = where(noMax, SemaValue::ofFloat(1.0), softmaxExp(bin(BO::Sub, rhsMax, outMax), fast, pos));
    return SemaValue::ofTuple({outMax, bin(BO::Add, bin(BO::Mul, lhsSum, lhsScale), rhsScale)});
  }
  if (name == "device_assert_then") {
    CallArguments assertArgs;
    assertArgs.positional = {arg(0, "cond"), arg(1, "msg")};
    callBuiltin("tl.device_assert", assertArgs, pos);
    return arg(2, "r");
  }
  if (name == "randint64")
    return callRandom(name, args, pos);
  if (name == "maximum_with_index" || name == "minimum_with_index") {
    // The combine step of max_with_index: NaN wins, equal values keep the smaller index.
    const SemaValue &av = arg(0, "a_value"), &ai = arg(1, "a_index"), &bv = arg(2, "b_value"), &bi = arg(3, "b_index");
    const bool isMax = name == "maximum_with_index";
    SemaValue mask = cmp(isMax ? CO::Gt : CO::Lt, av, bv);
    SemaValue equal = cmp(CO::Eq, av, bv);
    const bool floating = (av.isTensor() && av.tensor->type.isFloat()) || av.kind == SemaValue::Kind::Float;
    if (floating) {
      SemaValue aNan = cmp(CO::NotEq, av, av), bNan = cmp(CO::NotEq, bv, bv);
      mask = bin(BO::BitOr, mask, logical(ast::BoolOperator::And, aNan, unary(ast::UnaryOperator::Not, bNan, pos), pos));
      equal = bin(BO::BitOr, equal, logical(ast::BoolOperator::And, aNan, bNan, pos));
    }
    mask = bin(BO::BitOr, mask, bin(BO::BitAnd, equal, cmp(CO::Lt, ai, bi)));
    return SemaValue::ofTuple({where(mask, av, bv), where(mask, ai, bi)});
  }
  if (name == "bucketize_binary_search") {
    const SemaValue &values = arg(0, "values"), &offsets = arg(1, "offsets_ptr");
    const SemaValue &indexType = arg(2, "indexing_dtype"), &right = arg(3, "right");
    const SemaValue &size = arg(4, "OFFSETS_SIZE"), &blockShape = arg(5, "BLOCK_SHAPE");
    if (indexType.kind != SemaValue::Kind::DType || size.kind != SemaValue::Kind::Int || !right.isConstexpr() ||
        blockShape.kind != SemaValue::Kind::Tuple)
      fail(pos, "triton_helpers.bucketize_binary_search() needs compile-time dtype, right, OFFSETS_SIZE and BLOCK_SHAPE");
    ir::Shape shape;
    for (const SemaValue &d : blockShape.elements)
      shape.push_back(d.intValue);
    SemaValue low = SemaValue::ofTensor(constant(indexType.dtype, SemaValue::ofInt(0), shape, pos));
    SemaValue high = SemaValue::ofTensor(constant(indexType.dtype, size, shape, pos));
    const bool closedLeft = right.kind == SemaValue::Kind::Bool ? right.boolValue : right.intValue != 0;
    for (int64_t range = size.intValue + 1; range > 1; range = (range + 1) / 2) {
      SemaValue mid = bin(BO::FloorDiv, bin(BO::Add, high, low), SemaValue::ofInt(2));
      SemaValue inRange = cmp(CO::Lt, mid, size);
      CallArguments load;
      load.positional = {bin(BO::Add, offsets, mid), inRange, SemaValue::ofFloat(0.0)};
      SemaValue bound = callBuiltin("tl.load", load, pos);
      SemaValue above = cmp(closedLeft ? CO::GtE : CO::Gt, values, bound);
      low = where(bin(BO::BitAnd, above, inRange), bin(BO::Add, mid, SemaValue::ofInt(1)), low);
      high = where(above, high, mid);
    }
    return low;
  }
  fail(pos, "'triton_helpers." + name + "' is not supported");
}

SemaValue Lowerer::softmaxExp(const SemaValue &x, bool useFastMath, ast::Position pos) {
  // triton_helpers.exp: exp2(x * log2(e)) with fast math, else exp(x).
  CallArguments call;
  if (!useFastMath) {
    call.positional = {x};
    return callMath("tl.math", "exp", call, pos);
  }
  call.positional = {binary(BO::Mul, x, SemaValue::ofFloat(1.4426950408889634), pos)};
  return callMath("libdevice", "exp2", call, pos);
}

namespace {

struct MathEntry {
  ir::MathFn fn;
  bool boolAsInt32 = false; // libdevice's predicates return i32
};

} // namespace

SemaValue Lowerer::callMath(const std::string &module, const std::string &name, CallArguments &args, ast::Position pos) {
  ir::Builder &b = *builder_;
  const std::string qualified = module + "." + name;
  auto operand = [&](size_t i) -> const SemaValue & {
    if (i >= args.positional.size())
      fail(pos, qualified + "() takes more arguments");
    return args.positional[i];
  };
  auto floatOperand = [&](ir::Value *v) {
    if (v->type.isPointer)
      fail(pos, qualified + "() needs numbers, got " + v->type.str());
    return v->type.isFloat() ? v : castTo(v, core::DType::Float32);
  };
  if (!args.keywords.empty())
    fail(pos, qualified + "() takes positional arguments only");

  if (name == "abs" || name == "fabs" || name == "llabs")
    return SemaValue::ofTensor(b.unary(ir::OpCode::Abs, toTensor(operand(0), pos)));
  if (name == "div_rn" || name == "fdiv" || name == "div") {
    auto [x, y] = promote(operand(0), operand(1), true, pos);
    return SemaValue::ofTensor(b.binary(ir::OpCode::Div, floatOperand(x), floatOperand(y)));
  }
  if (name == "fmin" || name == "fmax" || name == "minimum" || name == "maximum") {
    auto [x, y] = promote(operand(0), operand(1), false, pos);
    const bool isMax = name == "fmax" || name == "maximum";
    return SemaValue::ofTensor(b.minMax(isMax ? ir::OpCode::Max : ir::OpCode::Min, x, y, ir::NanMode::Ignore));
  }
  if (name == "llrint" || name == "lrint") {
    ir::Value *x = floatOperand(toTensor(operand(0), pos));
    return SemaValue::ofTensor(castTo(b.math(ir::MathFn::Round, {x}), core::DType::Int64));
  }
  if (name == "umulhi")
    fail(pos, qualified + "() is not supported");

  static const std::unordered_map<std::string, MathEntry> kTable = {
      {"exp", {ir::MathFn::Exp}},         {"expf", {ir::MathFn::Exp}},       {"exp2", {ir::MathFn::Exp2}},
      {"log", {ir::MathFn::Log}},         {"log2", {ir::MathFn::Log2}},      {"log10", {ir::MathFn::Log10}},
      {"log1p", {ir::MathFn::Log1p}},     {"expm1", {ir::MathFn::Expm1}},    {"sqrt", {ir::MathFn::Sqrt}},
      {"sqrt_rn", {ir::MathFn::Sqrt}},    {"rsqrt", {ir::MathFn::Rsqrt}},    {"sin", {ir::MathFn::Sin}},
      {"cos", {ir::MathFn::Cos}},         {"tan", {ir::MathFn::Tan}},        {"asin", {ir::MathFn::Asin}},
      {"acos", {ir::MathFn::Acos}},       {"atan", {ir::MathFn::Atan}},      {"sinh", {ir::MathFn::Sinh}},
      {"cosh", {ir::MathFn::Cosh}},       {"tanh", {ir::MathFn::Tanh}},      {"asinh", {ir::MathFn::Asinh}},
      {"acosh", {ir::MathFn::Acosh}},     {"atanh", {ir::MathFn::Atanh}},    {"erf", {ir::MathFn::Erf}},
      {"erfc", {ir::MathFn::Erfc}},       {"erfinv", {ir::MathFn::Erfinv}},  {"lgamma", {ir::MathFn::Lgamma}},
      {"floor", {ir::MathFn::Floor}},     {"ceil", {ir::MathFn::Ceil}},      {"trunc", {ir::MathFn::Trunc}},
      {"rint", {ir::MathFn::Round}},      {"nearbyint", {ir::MathFn::Round}}, {"round", {ir::MathFn::RoundAway}},
      {"rcp_rn", {ir::MathFn::Recip}},    {"cbrt", {ir::MathFn::Cbrt}},      {"pow", {ir::MathFn::Pow}},
      {"powf", {ir::MathFn::Pow}},        {"atan2", {ir::MathFn::Atan2}},    {"fmod", {ir::MathFn::Fmod}},
      {"hypot", {ir::MathFn::Hypot}},     {"copysign", {ir::MathFn::Copysign}}, {"nextafter", {ir::MathFn::NextAfter}},
      {"fma", {ir::MathFn::Fma}},         {"isnan", {ir::MathFn::IsNan, true}}, {"isinf", {ir::MathFn::IsInf, true}},
      {"isfinited", {ir::MathFn::IsFinite, true}}, {"finitef", {ir::MathFn::IsFinite, true}},
      {"isfinite", {ir::MathFn::IsFinite, true}}, {"signbit", {ir::MathFn::Signbit, true}},
  };
  auto it = kTable.find(name);
  if (it == kTable.end())
    fail(pos, "'" + qualified + "' is not supported");
  const ir::MathFn fn = it->second.fn;
  const int n = ir::arity(fn);
  if (static_cast<int>(args.positional.size()) != n)
    fail(pos, qualified + "() takes " + std::to_string(n) + " arguments, got " + std::to_string(args.positional.size()));
  std::vector<ir::Value *> operands;
  if (n == 1) {
    operands.push_back(floatOperand(toTensor(operand(0), pos)));
  } else {
    // Operands meet in one type and one shape: fold the promotion over all of
    // them, then promote each against the result.
    SemaValue common = operand(0);
    for (int i = 1; i < n; ++i)
      common = SemaValue::ofTensor(promote(common, operand(static_cast<size_t>(i)), false, pos).first);
    for (int i = 0; i < n; ++i)
      operands.push_back(floatOperand(promote(operand(static_cast<size_t>(i)), common, false, pos).first));
  }
  ir::Value *result = b.math(fn, operands);
  if (ir::producesBool(fn) && module == "libdevice" && it->second.boolAsInt32)
    result = castTo(result, core::DType::Int32);
  return SemaValue::ofTensor(result);
}

} // namespace npusim::triton::lowering
