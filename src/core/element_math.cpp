// Element operations on slot arrays (see element_math.h). The float loops
// compute in double and round to the dtype after each operation: for fp16,
// bf16 and fp32 +, -, *, / and fmod that is the correctly rounded result.
#include "core/element_math.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace npusim::core {
namespace {

template <DType D, class F> void floatLoop(const double *a, const double *b, double *r, int64_t n, F f) {
  for (int64_t k = 0; k < n; ++k)
    r[k] = roundFloat<D>(f(a[k], b[k]));
}

template <DType D, class F> void intLoop(const int64_t *a, const int64_t *b, int64_t *r, int64_t n, F f) {
  for (int64_t k = 0; k < n; ++k)
    r[k] = wrapInt<D>(f(a[k], b[k]));
}

[[noreturn]] void unsupported(std::string_view op, DType dt) {
  throw ElementFault("internal: " + std::string(op) + " is not defined on " + std::string(tritonName(dt)));
}

template <class F> void compareLoop(const double *a, const double *b, int64_t *r, int64_t n, F f) {
  for (int64_t k = 0; k < n; ++k)
    r[k] = f(a[k], b[k]) ? 1 : 0;
}
template <class F> void compareLoop(const int64_t *a, const int64_t *b, int64_t *r, int64_t n, F f) {
  for (int64_t k = 0; k < n; ++k)
    r[k] = f(a[k], b[k]) ? 1 : 0;
}

// Ordered comparisons: any predicate but Ne is false when an operand is NaN
// (the C++ operators already behave so on doubles).
template <class T, class Less>
void comparePredicate(CmpPredicate p, const T *a, const T *b, int64_t *r, int64_t n, Less less) {
  switch (p) {
  case CmpPredicate::Eq: compareLoop(a, b, r, n, [](T x, T y) { return x == y; }); return;
  case CmpPredicate::Ne: compareLoop(a, b, r, n, [](T x, T y) { return x != y; }); return;
  case CmpPredicate::Lt: compareLoop(a, b, r, n, [&](T x, T y) { return less(x, y); }); return;
  case CmpPredicate::Le: compareLoop(a, b, r, n, [&](T x, T y) { return less(x, y) || x == y; }); return;
  case CmpPredicate::Gt: compareLoop(a, b, r, n, [&](T x, T y) { return less(y, x); }); return;
  case CmpPredicate::Ge: compareLoop(a, b, r, n, [&](T x, T y) { return less(y, x) || x == y; }); return;
  }
}

/// Integer of dtype From to float dtype To, rounded once.
template <DType To, bool Unsigned> double intToFloatT(int64_t v) {
  if constexpr (To == DType::Float64) {
    return Unsigned ? static_cast<double>(static_cast<uint64_t>(v)) : static_cast<double>(v);
  } else if constexpr (To == DType::Float32) {
    return Unsigned ? static_cast<double>(static_cast<float>(static_cast<uint64_t>(v)))
                    : static_cast<double>(static_cast<float>(v));
  } else {
    // Below 2^53 the double is exact and roundFloat rounds once.
    if (v >= 0 && v < (int64_t{1} << 53))
      return roundFloat<To>(static_cast<double>(v));
    if (!Unsigned && v < 0 && v > -(int64_t{1} << 53))
      return roundFloat<To>(static_cast<double>(v));
    return roundFloat<To>(intToDoubleRoundOdd(v, Unsigned));
  }
}

template <class F> void unaryMath(DType dt, const double *x, double *r, int64_t n, F f) {
  visitFloat(dt, [&](auto tag) {
    constexpr DType D = decltype(tag)::value;
    if constexpr (D == DType::Float64) {
      for (int64_t k = 0; k < n; ++k)
        r[k] = f(x[k]);
    } else {
      for (int64_t k = 0; k < n; ++k)
        r[k] = fromFloat32<D>(f(static_cast<float>(x[k])));
    }
  });
}

template <class F> void binaryMath(DType dt, const double *x, const double *y, double *r, int64_t n, F f) {
  visitFloat(dt, [&](auto tag) {
    constexpr DType D = decltype(tag)::value;
    if constexpr (D == DType::Float64) {
      for (int64_t k = 0; k < n; ++k)
        r[k] = f(x[k], y[k]);
    } else {
      for (int64_t k = 0; k < n; ++k)
        r[k] = fromFloat32<D>(f(static_cast<float>(x[k]), static_cast<float>(y[k])));
    }
  });
}

template <class F> void predicate(const double *x, int64_t *r, int64_t n, F f) {
  for (int64_t k = 0; k < n; ++k)
    r[k] = f(x[k]) ? 1 : 0;
}

} // namespace

std::string_view name(BinaryOp op) {
  switch (op) {
  case BinaryOp::Add: return "add";
  case BinaryOp::Sub: return "sub";
  case BinaryOp::Mul: return "mul";
  case BinaryOp::Div: return "div";
  case BinaryOp::Rem: return "rem";
  case BinaryOp::And: return "and";
  case BinaryOp::Or: return "or";
  case BinaryOp::Xor: return "xor";
  case BinaryOp::Shl: return "shl";
  case BinaryOp::Shr: return "shr";
  case BinaryOp::Min: return "min";
  case BinaryOp::Max: return "max";
  }
  return "?";
}

std::string_view name(UnaryOp op) {
  switch (op) {
  case UnaryOp::Neg: return "neg";
  case UnaryOp::Not: return "not";
  case UnaryOp::Abs: return "abs";
  }
  return "?";
}

void binaryFloat(BinaryOp op, NanMode nanMode, DType dt, const double *a, const double *b, double *r,
                 int64_t n) {
  const bool propagate = nanMode == NanMode::Propagate;
  visitFloat(dt, [&](auto tag) {
    constexpr DType D = decltype(tag)::value;
    switch (op) {
    case BinaryOp::Add: floatLoop<D>(a, b, r, n, [](double x, double y) { return x + y; }); return;
    case BinaryOp::Sub: floatLoop<D>(a, b, r, n, [](double x, double y) { return x - y; }); return;
    case BinaryOp::Mul: floatLoop<D>(a, b, r, n, [](double x, double y) { return x * y; }); return;
    case BinaryOp::Div: floatLoop<D>(a, b, r, n, [](double x, double y) { return x / y; }); return;
    // fmod is exact, so computing it on the widened values is the same as in D.
    case BinaryOp::Rem: floatLoop<D>(a, b, r, n, [](double x, double y) { return std::fmod(x, y); }); return;
    case BinaryOp::Min:
      for (int64_t k = 0; k < n; ++k)
        r[k] = floatMin(a[k], b[k], propagate);
      return;
    case BinaryOp::Max:
      for (int64_t k = 0; k < n; ++k)
        r[k] = floatMax(a[k], b[k], propagate);
      return;
    default: unsupported(name(op), dt);
    }
  });
}

void binaryInt(BinaryOp op, DType dt, const int64_t *a, const int64_t *b, int64_t *r, int64_t n,
               bool divisionByZeroFaults) {
  visitInt(dt, [&](auto tag) {
    constexpr DType D = decltype(tag)::value;
    constexpr bool kUnsigned = isUnsignedType(D);
    constexpr uint64_t kWidth = static_cast<uint64_t>(bitsOf(D));
    using U = uint64_t;
    switch (op) {
    case BinaryOp::Add: intLoop<D>(a, b, r, n, [](int64_t x, int64_t y) { return U(x) + U(y); }); return;
    case BinaryOp::Sub: intLoop<D>(a, b, r, n, [](int64_t x, int64_t y) { return U(x) - U(y); }); return;
    case BinaryOp::Mul: intLoop<D>(a, b, r, n, [](int64_t x, int64_t y) { return U(x) * U(y); }); return;
    case BinaryOp::Div:
      intLoop<D>(a, b, r, n, [divisionByZeroFaults](int64_t x, int64_t y) -> U {
        if (y == 0) {
          if (divisionByZeroFaults)
            throw ElementFault("integer division by zero");
          return ~U{0};
        }
        if constexpr (kUnsigned && kWidth <= 32)
          return U(static_cast<uint32_t>(x) / static_cast<uint32_t>(y)); // 32-bit division is faster
        else if constexpr (kUnsigned)
          return U(x) / U(y);
        else if (y == -1)
          return U{0} - U(x); // INT_MIN / -1 wraps to INT_MIN
        else if constexpr (kWidth <= 32)
          return U(static_cast<int64_t>(static_cast<int32_t>(x) / static_cast<int32_t>(y)));
        else
          return U(x / y);
      });
      return;
    case BinaryOp::Rem:
      intLoop<D>(a, b, r, n, [divisionByZeroFaults](int64_t x, int64_t y) -> U {
        if (y == 0) {
          if (divisionByZeroFaults)
            throw ElementFault("integer remainder by zero");
          return U(x);
        }
        if constexpr (kUnsigned && kWidth <= 32)
          return U(static_cast<uint32_t>(x) % static_cast<uint32_t>(y));
        else if constexpr (kUnsigned)
          return U(x) % U(y);
        else if (y == -1)
          return 0;
        else if constexpr (kWidth <= 32)
          return U(static_cast<int64_t>(static_cast<int32_t>(x) % static_cast<int32_t>(y)));
        else
          return U(x % y);
      });
      return;
    case BinaryOp::And: intLoop<D>(a, b, r, n, [](int64_t x, int64_t y) { return U(x & y); }); return;
    case BinaryOp::Or: intLoop<D>(a, b, r, n, [](int64_t x, int64_t y) { return U(x | y); }); return;
    case BinaryOp::Xor: intLoop<D>(a, b, r, n, [](int64_t x, int64_t y) { return U(x ^ y); }); return;
    // Shift amounts outside [0, width) give 0 (or the sign fill for an
    // arithmetic right shift) instead of undefined behaviour.
    case BinaryOp::Shl:
      intLoop<D>(a, b, r, n, [](int64_t x, int64_t y) -> U { return U(y) >= kWidth ? 0 : U(x) << U(y); });
      return;
    case BinaryOp::Shr:
      intLoop<D>(a, b, r, n, [](int64_t x, int64_t y) -> U {
        if constexpr (kUnsigned)
          return U(y) >= kWidth ? 0 : U(x) >> U(y);
        else
          return U(y) >= kWidth ? (x < 0 ? ~U{0} : 0) : U(x >> y);
      });
      return;
    case BinaryOp::Min:
      intLoop<D>(a, b, r, n, [](int64_t x, int64_t y) { return U(intLess<D>(y, x) ? y : x); });
      return;
    case BinaryOp::Max:
      intLoop<D>(a, b, r, n, [](int64_t x, int64_t y) { return U(intLess<D>(x, y) ? y : x); });
      return;
    }
  });
}

void unaryFloat(UnaryOp op, DType dt, const double *x, double *r, int64_t n) {
  switch (op) {
  case UnaryOp::Neg:
    for (int64_t k = 0; k < n; ++k)
      r[k] = -x[k];
    return;
  case UnaryOp::Abs:
    for (int64_t k = 0; k < n; ++k)
      r[k] = std::fabs(x[k]);
    return;
  case UnaryOp::Not: break;
  }
  unsupported(name(op), dt);
}

void unaryInt(UnaryOp op, DType dt, const int64_t *x, int64_t *r, int64_t n) {
  visitInt(dt, [&](auto tag) {
    constexpr DType D = decltype(tag)::value;
    switch (op) {
    case UnaryOp::Neg:
      for (int64_t k = 0; k < n; ++k)
        r[k] = wrapInt<D>(uint64_t{0} - static_cast<uint64_t>(x[k]));
      return;
    case UnaryOp::Not:
      for (int64_t k = 0; k < n; ++k)
        r[k] = wrapInt<D>(~static_cast<uint64_t>(x[k]));
      return;
    case UnaryOp::Abs:
      for (int64_t k = 0; k < n; ++k) {
        const uint64_t u = static_cast<uint64_t>(x[k]);
        r[k] = (!isUnsignedType(D) && x[k] < 0) ? wrapInt<D>(uint64_t{0} - u) : x[k];
      }
      return;
    }
  });
}

void compareFloat(CmpPredicate p, const double *a, const double *b, int64_t *r, int64_t n) {
  comparePredicate(p, a, b, r, n, [](double x, double y) { return x < y; });
}

void compareInt(CmpPredicate p, bool isUnsigned, const int64_t *a, const int64_t *b, int64_t *r, int64_t n) {
  if (isUnsigned)
    comparePredicate(p, a, b, r, n, [](int64_t x, int64_t y) {
      return static_cast<uint64_t>(x) < static_cast<uint64_t>(y);
    });
  else
    comparePredicate(p, a, b, r, n, [](int64_t x, int64_t y) { return x < y; });
}

void castValues(DType from, DType to, ConstSlots x, Slots r, int64_t n) {
  const bool fromFloat = isFloatType(from), toFloat = isFloatType(to);
  if (fromFloat && toFloat) {
    visitFloat(to, [&](auto tag) {
      for (int64_t k = 0; k < n; ++k)
        r.f[k] = roundFloat<decltype(tag)::value>(x.f[k]);
    });
  } else if (fromFloat) {
    visitInt(to, [&](auto tag) {
      for (int64_t k = 0; k < n; ++k)
        r.i[k] = floatToInt<decltype(tag)::value>(x.f[k]);
    });
  } else if (toFloat) {
    const bool isUnsigned = isUnsignedType(from);
    visitFloat(to, [&](auto tag) {
      constexpr DType D = decltype(tag)::value;
      if (isUnsigned)
        for (int64_t k = 0; k < n; ++k)
          r.f[k] = intToFloatT<D, true>(x.i[k]);
      else
        for (int64_t k = 0; k < n; ++k)
          r.f[k] = intToFloatT<D, false>(x.i[k]);
    });
  } else if (to == DType::Bool) {
    for (int64_t k = 0; k < n; ++k)
      r.i[k] = x.i[k] != 0 ? 1 : 0;
  } else {
    visitInt(to, [&](auto tag) {
      for (int64_t k = 0; k < n; ++k)
        r.i[k] = wrapInt<decltype(tag)::value>(static_cast<uint64_t>(x.i[k]));
    });
  }
}

// Bit patterns are kept exactly, except that a signalling NaN passing through
// a float slot may come back quieted (the slots hold floats as double).
void bitcastValues(DType from, DType to, ConstSlots x, Slots r, int64_t n) {
  const bool fromFloat = isFloatType(from), toFloat = isFloatType(to);
  for (int64_t k = 0; k < n; ++k) {
    const uint64_t bits = toBits(from, fromFloat ? x.f[k] : 0.0, fromFloat ? 0 : x.i[k]);
    double f = 0.0;
    int64_t i = 0;
    fromBits(to, bits, f, i);
    if (toFloat)
      r.f[k] = f;
    else
      r.i[k] = i;
  }
}

double atomicFloat(AtomicKind kind, DType dt, double old, double value) {
  switch (kind) {
  case AtomicKind::Add: return roundFloatTo(dt, old + value);
  case AtomicKind::Max: return floatMax(old, value, false);
  case AtomicKind::Min: return floatMin(old, value, false);
  case AtomicKind::Exchange: return value;
  default: throw ElementFault("internal: bitwise atomic on a float type");
  }
}

int64_t atomicInt(AtomicKind kind, DType dt, int64_t old, int64_t value) {
  const bool isUnsigned = isUnsignedType(dt);
  const auto less = [isUnsigned](int64_t a, int64_t b) {
    return isUnsigned ? static_cast<uint64_t>(a) < static_cast<uint64_t>(b) : a < b;
  };
  switch (kind) {
  case AtomicKind::Add: return wrapIntTo(dt, static_cast<uint64_t>(old) + static_cast<uint64_t>(value));
  case AtomicKind::Max: return less(old, value) ? value : old;
  case AtomicKind::Min: return less(value, old) ? value : old;
  case AtomicKind::And: return old & value;
  case AtomicKind::Or: return old | value;
  case AtomicKind::Xor: return old ^ value;
  case AtomicKind::Exchange: return value;
  }
  return value;
}

void mathValues(MathFn fn, DType dt, const double *x, const double *y, const double *z, double *out,
                int64_t *boolOut, int64_t n) {
  switch (fn) {
  case MathFn::Exp: unaryMath(dt, x, out, n, [](auto v) { return std::exp(v); }); return;
  case MathFn::Exp2: unaryMath(dt, x, out, n, [](auto v) { return std::exp2(v); }); return;
  case MathFn::Log: unaryMath(dt, x, out, n, [](auto v) { return std::log(v); }); return;
  case MathFn::Log2: unaryMath(dt, x, out, n, [](auto v) { return std::log2(v); }); return;
  case MathFn::Log10: unaryMath(dt, x, out, n, [](auto v) { return std::log10(v); }); return;
  case MathFn::Log1p: unaryMath(dt, x, out, n, [](auto v) { return std::log1p(v); }); return;
  case MathFn::Expm1: unaryMath(dt, x, out, n, [](auto v) { return std::expm1(v); }); return;
  case MathFn::Sqrt: unaryMath(dt, x, out, n, [](auto v) { return std::sqrt(v); }); return;
  case MathFn::Rsqrt: unaryMath(dt, x, out, n, [](auto v) { return decltype(v)(1) / std::sqrt(v); }); return;
  case MathFn::Sin: unaryMath(dt, x, out, n, [](auto v) { return std::sin(v); }); return;
  case MathFn::Cos: unaryMath(dt, x, out, n, [](auto v) { return std::cos(v); }); return;
  case MathFn::Tan: unaryMath(dt, x, out, n, [](auto v) { return std::tan(v); }); return;
  case MathFn::Asin: unaryMath(dt, x, out, n, [](auto v) { return std::asin(v); }); return;
  case MathFn::Acos: unaryMath(dt, x, out, n, [](auto v) { return std::acos(v); }); return;
  case MathFn::Atan: unaryMath(dt, x, out, n, [](auto v) { return std::atan(v); }); return;
  case MathFn::Sinh: unaryMath(dt, x, out, n, [](auto v) { return std::sinh(v); }); return;
  case MathFn::Cosh: unaryMath(dt, x, out, n, [](auto v) { return std::cosh(v); }); return;
  case MathFn::Tanh: unaryMath(dt, x, out, n, [](auto v) { return std::tanh(v); }); return;
  case MathFn::Asinh: unaryMath(dt, x, out, n, [](auto v) { return std::asinh(v); }); return;
  case MathFn::Acosh: unaryMath(dt, x, out, n, [](auto v) { return std::acosh(v); }); return;
  case MathFn::Atanh: unaryMath(dt, x, out, n, [](auto v) { return std::atanh(v); }); return;
  case MathFn::Erf: unaryMath(dt, x, out, n, [](auto v) { return std::erf(v); }); return;
  case MathFn::Erfc: unaryMath(dt, x, out, n, [](auto v) { return std::erfc(v); }); return;
  case MathFn::Erfinv:
    // Computed in double and rounded once (libdevice's erfinvf is within 2 ulp).
    unaryMath(dt, x, out, n, [](auto v) { return static_cast<decltype(v)>(erfinv(v)); });
    return;
  case MathFn::Lgamma: unaryMath(dt, x, out, n, [](auto v) { return std::lgamma(v); }); return;
  case MathFn::Floor: unaryMath(dt, x, out, n, [](auto v) { return std::floor(v); }); return;
  case MathFn::Ceil: unaryMath(dt, x, out, n, [](auto v) { return std::ceil(v); }); return;
  case MathFn::Trunc: unaryMath(dt, x, out, n, [](auto v) { return std::trunc(v); }); return;
  // rint in the default rounding mode: nearest, ties to even.
  case MathFn::Round: unaryMath(dt, x, out, n, [](auto v) { return std::rint(v); }); return;
  case MathFn::RoundAway: unaryMath(dt, x, out, n, [](auto v) { return std::round(v); }); return;
  case MathFn::Recip: unaryMath(dt, x, out, n, [](auto v) { return decltype(v)(1) / v; }); return;
  case MathFn::Cbrt: unaryMath(dt, x, out, n, [](auto v) { return std::cbrt(v); }); return;
  case MathFn::IsNan: predicate(x, boolOut, n, [](double v) { return std::isnan(v); }); return;
  case MathFn::IsInf: predicate(x, boolOut, n, [](double v) { return std::isinf(v); }); return;
  case MathFn::IsFinite: predicate(x, boolOut, n, [](double v) { return std::isfinite(v); }); return;
  case MathFn::Signbit: predicate(x, boolOut, n, [](double v) { return std::signbit(v); }); return;
  case MathFn::Pow: binaryMath(dt, x, y, out, n, [](auto a, auto b) { return std::pow(a, b); }); return;
  case MathFn::Atan2: binaryMath(dt, x, y, out, n, [](auto a, auto b) { return std::atan2(a, b); }); return;
  case MathFn::Fmod: binaryMath(dt, x, y, out, n, [](auto a, auto b) { return std::fmod(a, b); }); return;
  case MathFn::Hypot: binaryMath(dt, x, y, out, n, [](auto a, auto b) { return std::hypot(a, b); }); return;
  case MathFn::Copysign:
    binaryMath(dt, x, y, out, n, [](auto a, auto b) { return std::copysign(a, b); });
    return;
  case MathFn::NextAfter:
    // The next representable value of the operand's own format.
    for (int64_t k = 0; k < n; ++k)
      out[k] = nextAfterIn(dt, x[k], y[k]);
    return;
  case MathFn::Fma:
    visitFloat(dt, [&](auto tag) {
      constexpr DType D = decltype(tag)::value;
      if constexpr (D == DType::Float64) {
        for (int64_t k = 0; k < n; ++k)
          out[k] = std::fma(x[k], y[k], z[k]);
      } else {
        for (int64_t k = 0; k < n; ++k)
          out[k] = fromFloat32<D>(
              std::fma(static_cast<float>(x[k]), static_cast<float>(y[k]), static_cast<float>(z[k])));
      }
    });
    return;
  }
  throw ElementFault("internal: unknown math function");
}

} // namespace npusim::core
