// The math libraries as registry rows: every function of `libdevice` and
// `tl.math` (Inductor's `tl_math` and `triton_helpers.math` resolve to it),
// and the math functions Triton has in `tl` itself. A function is a math op of
// TileIR (ir::MathFn) or one of a few special lowerings (abs, division,
// min/max without NaN propagation, round to integer).
#include "triton/builtins_internal.h"

#include <vector>

namespace npusim::triton::lowering {

namespace {

/// The positional operands of a math call; keywords are refused.
class MathOperands {
public:
  explicit MathOperands(BuiltinCall &c) : c_(c) {
    if (!c.arguments.keywords.empty())
      c.l.fail(c.pos, c.name + "() takes positional arguments only");
  }
  const SemaValue &at(size_t i) const {
    if (i >= c_.arguments.positional.size())
      c_.l.fail(c_.pos, c_.name + "() takes more arguments");
    return c_.arguments.positional[i];
  }
  size_t count() const { return c_.arguments.positional.size(); }
  /// A number operand as a float tile (integers converted to fp32).
  ir::Value *floatOperand(ir::Value *v) const {
    if (v->type.isPointer)
      c_.l.fail(c_.pos, c_.name + "() needs numbers, got " + v->type.str());
    return v->type.isFloat() ? v : c_.l.castTo(v, core::DType::Float32);
  }

private:
  BuiltinCall &c_;
};

/// A math op of TileIR. `boolAsInt32`: libdevice's predicates return i32.
SemaValue mathFunction(BuiltinCall &c, ir::MathFn fn, bool boolAsInt32) {
  const MathOperands operand(c);
  const int n = ir::arity(fn);
  if (static_cast<int>(operand.count()) != n)
    c.l.fail(c.pos,
             c.name + "() takes " + std::to_string(n) + " arguments, got " + std::to_string(operand.count()));
  std::vector<ir::Value *> operands;
  if (n == 1) {
    operands.push_back(operand.floatOperand(c.l.toTensor(operand.at(0), c.pos)));
  } else {
    // Operands meet in one type and one shape: fold the promotion over all of
    // them, then promote each against the result.
    SemaValue common = operand.at(0);
    for (int i = 1; i < n; ++i)
      common =
          SemaValue::ofTensor(c.l.promote(common, operand.at(static_cast<size_t>(i)), false, c.pos).first);
    for (int i = 0; i < n; ++i)
      operands.push_back(
          operand.floatOperand(c.l.promote(operand.at(static_cast<size_t>(i)), common, false, c.pos).first));
  }
  ir::Value *result = c.b.math(fn, operands);
  if (ir::producesBool(fn) && boolAsInt32)
    result = c.l.castTo(result, core::DType::Int32);
  return SemaValue::ofTensor(result);
}

/// abs, fabs, llabs
SemaValue mathAbs(BuiltinCall &c) {
  const MathOperands operand(c);
  return SemaValue::ofTensor(c.b.unary(ir::OpCode::Abs, c.l.toTensor(operand.at(0), c.pos)));
}

/// div_rn, fdiv, div: true division in floating point.
SemaValue mathDivide(BuiltinCall &c) {
  const MathOperands operand(c);
  auto [x, y] = c.l.promote(operand.at(0), operand.at(1), true, c.pos);
  return SemaValue::ofTensor(c.b.binary(ir::OpCode::Div, operand.floatOperand(x), operand.floatOperand(y)));
}

/// fmin, minimum (op Min), fmax, maximum (op Max): a NaN operand loses.
SemaValue mathMinMax(BuiltinCall &c, ir::OpCode op) {
  const MathOperands operand(c);
  auto [x, y] = c.l.promote(operand.at(0), operand.at(1), false, c.pos);
  return SemaValue::ofTensor(c.b.minMax(op, x, y, ir::NanMode::Ignore));
}

/// llrint, lrint: rounded to the nearest even integer, as int64.
SemaValue mathRoundToInteger(BuiltinCall &c) {
  const MathOperands operand(c);
  ir::Value *x = operand.floatOperand(c.l.toTensor(operand.at(0), c.pos));
  return SemaValue::ofTensor(c.l.castTo(c.b.math(ir::MathFn::Round, {x}), core::DType::Int64));
}

/// A name a library has that the NPU cannot compute.
SemaValue mathUnsupported(BuiltinCall &c) {
  c.l.fail(c.pos, c.name + "() is not supported");
}

struct MathRow {
  std::string_view name;
  ir::MathFn fn;
  bool boolAsInt32 = false; // with libdevice's i32 predicates
};

/// The math functions of libdevice and tl.math, by the name after the module.
constexpr MathRow kMathFunctions[] = {
    {"exp", ir::MathFn::Exp},
    {"expf", ir::MathFn::Exp},
    {"exp2", ir::MathFn::Exp2},
    {"log", ir::MathFn::Log},
    {"log2", ir::MathFn::Log2},
    {"log10", ir::MathFn::Log10},
    {"log1p", ir::MathFn::Log1p},
    {"expm1", ir::MathFn::Expm1},
    {"sqrt", ir::MathFn::Sqrt},
    {"sqrt_rn", ir::MathFn::Sqrt},
    {"rsqrt", ir::MathFn::Rsqrt},
    {"sin", ir::MathFn::Sin},
    {"cos", ir::MathFn::Cos},
    {"tan", ir::MathFn::Tan},
    {"asin", ir::MathFn::Asin},
    {"acos", ir::MathFn::Acos},
    {"atan", ir::MathFn::Atan},
    {"sinh", ir::MathFn::Sinh},
    {"cosh", ir::MathFn::Cosh},
    {"tanh", ir::MathFn::Tanh},
    {"asinh", ir::MathFn::Asinh},
    {"acosh", ir::MathFn::Acosh},
    {"atanh", ir::MathFn::Atanh},
    {"erf", ir::MathFn::Erf},
    {"erfc", ir::MathFn::Erfc},
    {"erfinv", ir::MathFn::Erfinv},
    {"lgamma", ir::MathFn::Lgamma},
    {"floor", ir::MathFn::Floor},
    {"ceil", ir::MathFn::Ceil},
    {"trunc", ir::MathFn::Trunc},
    {"rint", ir::MathFn::Round},
    {"nearbyint", ir::MathFn::Round},
    {"round", ir::MathFn::RoundAway},
    {"rcp_rn", ir::MathFn::Recip},
    {"cbrt", ir::MathFn::Cbrt},
    {"pow", ir::MathFn::Pow},
    {"powf", ir::MathFn::Pow},
    {"atan2", ir::MathFn::Atan2},
    {"fmod", ir::MathFn::Fmod},
    {"hypot", ir::MathFn::Hypot},
    {"copysign", ir::MathFn::Copysign},
    {"nextafter", ir::MathFn::NextAfter},
    {"fma", ir::MathFn::Fma},
    {"isnan", ir::MathFn::IsNan, true},
    {"isinf", ir::MathFn::IsInf, true},
    {"isfinited", ir::MathFn::IsFinite, true},
    {"finitef", ir::MathFn::IsFinite, true},
    {"isfinite", ir::MathFn::IsFinite, true},
    {"signbit", ir::MathFn::Signbit, true},
};

/// The special lowerings of libdevice and tl.math, by the name after the module.
const std::vector<BuiltinEntry> &specialFunctions() {
  static const std::vector<BuiltinEntry> kSpecial = {
      {"abs", mathAbs},
      {"fabs", mathAbs},
      {"llabs", mathAbs},
      {"div_rn", mathDivide},
      {"fdiv", mathDivide},
      {"div", mathDivide},
      {"fmin", member(mathMinMax, ir::OpCode::Min)},
      {"minimum", member(mathMinMax, ir::OpCode::Min)},
      {"fmax", member(mathMinMax, ir::OpCode::Max)},
      {"maximum", member(mathMinMax, ir::OpCode::Max)},
      {"llrint", mathRoundToInteger},
      {"lrint", mathRoundToInteger},
      {"umulhi", mathUnsupported},
  };
  return kSpecial;
}

/// The math functions Triton has in `tl` itself (tl.exp, ...).
constexpr std::string_view kTlMathFunctions[] = {"exp",  "exp2",    "log",   "log2",  "cos",  "sin",
                                                 "sqrt", "sqrt_rn", "rsqrt", "floor", "ceil", "erf",
                                                 "fma",  "div_rn",  "fdiv",  "umulhi"};

/// Registers `module.name` for every function of the libraries above that
/// `wanted` accepts.
template <typename Wanted> void registerMathModule(std::string_view module, bool boolAsInt32, Wanted wanted) {
  const std::string prefix = std::string(module) + ".";
  for (const BuiltinEntry &special : specialFunctions())
    if (wanted(special.name))
      registerBuiltin(prefix + std::string(special.name), special.handler);
  for (const MathRow &row : kMathFunctions)
    if (wanted(row.name)) {
      const ir::MathFn fn = row.fn;
      const bool asInt32 = boolAsInt32 && row.boolAsInt32;
      registerBuiltin(prefix + std::string(row.name),
                      [fn, asInt32](BuiltinCall &c) { return mathFunction(c, fn, asInt32); });
    }
}

bool registerMathLibraries() {
  const auto every = [](std::string_view) { return true; };
  registerMathModule("libdevice", true, every);
  registerMathModule("tl.math", false, every);
  registerMathModule("tl", false, [](std::string_view name) {
    for (std::string_view tl : kTlMathFunctions)
      if (tl == name)
        return true;
    return false;
  });
  return true;
}

const bool kMathRegistered = registerMathLibraries();

} // namespace

} // namespace npusim::triton::lowering
