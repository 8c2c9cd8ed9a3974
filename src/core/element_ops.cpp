#include "core/element_ops.h"

#include <array>

namespace npusim::core {
namespace {

struct MathFnInfo {
  std::string_view name;
  int arity;
  bool boolResult;
};

// Indexed by MathFn; the order must match the enum.
constexpr std::array<MathFnInfo, 44> kMathFns = {{
    {"exp", 1, false},    {"exp2", 1, false},   {"log", 1, false},     {"log2", 1, false},
    {"log10", 1, false},  {"log1p", 1, false},  {"expm1", 1, false},   {"sqrt", 1, false},
    {"rsqrt", 1, false},  {"sin", 1, false},    {"cos", 1, false},     {"tan", 1, false},
    {"asin", 1, false},   {"acos", 1, false},   {"atan", 1, false},    {"sinh", 1, false},
    {"cosh", 1, false},   {"tanh", 1, false},   {"asinh", 1, false},   {"acosh", 1, false},
    {"atanh", 1, false},  {"erf", 1, false},    {"erfc", 1, false},    {"erfinv", 1, false},
    {"lgamma", 1, false}, {"floor", 1, false},  {"ceil", 1, false},    {"trunc", 1, false},
    {"round", 1, false},  {"round_away", 1, false}, {"recip", 1, false}, {"cbrt", 1, false},
    {"isnan", 1, true},   {"isinf", 1, true},   {"isfinite", 1, true}, {"signbit", 1, true},
    {"pow", 2, false},    {"atan2", 2, false},  {"fmod", 2, false},    {"hypot", 2, false},
    {"copysign", 2, false}, {"nextafter", 2, false}, {"fma", 3, false}, {"", 0, false},
}};

const MathFnInfo &info(MathFn f) { return kMathFns[static_cast<size_t>(f)]; }

} // namespace

std::string_view name(CmpPredicate p) {
  static constexpr std::string_view kNames[] = {"eq", "ne", "lt", "le", "gt", "ge"};
  return kNames[static_cast<size_t>(p)];
}

std::string_view name(NanMode m) { return m == NanMode::Ignore ? "ignore_nan" : "propagate_nan"; }

std::string_view name(ReduceKind k) {
  static constexpr std::string_view kNames[] = {"sum", "prod", "max", "min", "and",
                                                "or", "xor", "argmax", "argmin", "combine"};
  return kNames[static_cast<size_t>(k)];
}

std::string_view name(AtomicKind k) {
  static constexpr std::string_view kNames[] = {"add", "max", "min", "and", "or", "xor", "xchg"};
  return kNames[static_cast<size_t>(k)];
}

std::string_view name(InputPrecision p) {
  static constexpr std::string_view kNames[] = {"ieee", "tf32", "tf32x3"};
  return kNames[static_cast<size_t>(p)];
}

std::string_view name(MathFn f) { return info(f).name; }
int arity(MathFn f) { return info(f).arity; }
bool producesBool(MathFn f) { return info(f).boolResult; }

std::optional<MathFn> parseMathFn(std::string_view n) {
  for (size_t i = 0; i + 1 < kMathFns.size(); ++i)
    if (kMathFns[i].name == n)
      return static_cast<MathFn>(i);
  return std::nullopt;
}

} // namespace npusim::core
