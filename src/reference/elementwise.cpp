// Elementwise operations: constants, arithmetic, comparisons, select, casts.
#include "reference/kernels.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace npusim::reference {
namespace {

using ir::OpCode;

template <DType D, class F> void floatLoop(const double *a, const double *b, double *r, int64_t n, F f) {
  for (int64_t k = 0; k < n; ++k)
    r[k] = roundFloat<D>(f(a[k], b[k]));
}

template <DType D, class F> void intLoop(const int64_t *a, const int64_t *b, int64_t *r, int64_t n, F f) {
  for (int64_t k = 0; k < n; ++k)
    r[k] = wrapInt<D>(f(a[k], b[k]));
}

[[noreturn]] void unsupported(OpCode code, DType dt) {
  throw Fault("internal: " + std::string(ir::name(code)) + " is not defined on " +
              std::string(core::tritonName(dt)));
}

void floatBinary(OpCode code, ir::NanMode nanMode, DType dt, const double *a, const double *b, double *r,
                 int64_t n) {
  const bool propagate = nanMode == ir::NanMode::Propagate;
  visitFloat(dt, [&](auto tag) {
    constexpr DType D = decltype(tag)::value;
    switch (code) {
    case OpCode::Add: floatLoop<D>(a, b, r, n, [](double x, double y) { return x + y; }); return;
    case OpCode::Sub: floatLoop<D>(a, b, r, n, [](double x, double y) { return x - y; }); return;
    case OpCode::Mul: floatLoop<D>(a, b, r, n, [](double x, double y) { return x * y; }); return;
    case OpCode::Div: floatLoop<D>(a, b, r, n, [](double x, double y) { return x / y; }); return;
    // fmod is exact, so computing it on the widened values is the same as in D.
    case OpCode::Rem: floatLoop<D>(a, b, r, n, [](double x, double y) { return std::fmod(x, y); }); return;
    case OpCode::Min:
      for (int64_t k = 0; k < n; ++k)
        r[k] = floatMin(a[k], b[k], propagate);
      return;
    case OpCode::Max:
      for (int64_t k = 0; k < n; ++k)
        r[k] = floatMax(a[k], b[k], propagate);
      return;
    default: unsupported(code, dt);
    }
  });
}

void intBinary(OpCode code, DType dt, const int64_t *a, const int64_t *b, int64_t *r, int64_t n,
               bool divisionByZeroFaults) {
  visitInt(dt, [&](auto tag) {
    constexpr DType D = decltype(tag)::value;
    constexpr bool kUnsigned = isUnsignedType(D);
    constexpr uint64_t kWidth = static_cast<uint64_t>(bitsOf(D));
    using U = uint64_t;
    switch (code) {
    case OpCode::Add: intLoop<D>(a, b, r, n, [](int64_t x, int64_t y) { return U(x) + U(y); }); return;
    case OpCode::Sub: intLoop<D>(a, b, r, n, [](int64_t x, int64_t y) { return U(x) - U(y); }); return;
    case OpCode::Mul: intLoop<D>(a, b, r, n, [](int64_t x, int64_t y) { return U(x) * U(y); }); return;
    case OpCode::Div:
      intLoop<D>(a, b, r, n, [divisionByZeroFaults](int64_t x, int64_t y) -> U {
        if (y == 0) {
          if (divisionByZeroFaults)
            throw Fault("integer division by zero");
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
    case OpCode::Rem:
      intLoop<D>(a, b, r, n, [divisionByZeroFaults](int64_t x, int64_t y) -> U {
        if (y == 0) {
          if (divisionByZeroFaults)
            throw Fault("integer remainder by zero");
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
    case OpCode::And: intLoop<D>(a, b, r, n, [](int64_t x, int64_t y) { return U(x & y); }); return;
    case OpCode::Or: intLoop<D>(a, b, r, n, [](int64_t x, int64_t y) { return U(x | y); }); return;
    case OpCode::Xor: intLoop<D>(a, b, r, n, [](int64_t x, int64_t y) { return U(x ^ y); }); return;
    // Shift amounts outside [0, width) give 0 (or the sign fill for an
    // arithmetic right shift) instead of undefined behaviour.
    case OpCode::Shl:
      intLoop<D>(a, b, r, n, [](int64_t x, int64_t y) -> U { return U(y) >= kWidth ? 0 : U(x) << U(y); });
      return;
    case OpCode::Shr:
      intLoop<D>(a, b, r, n, [](int64_t x, int64_t y) -> U {
        if constexpr (kUnsigned)
          return U(y) >= kWidth ? 0 : U(x) >> U(y);
        else
          return U(y) >= kWidth ? (x < 0 ? ~U{0} : 0) : U(x >> y);
      });
      return;
    case OpCode::Min:
      intLoop<D>(a, b, r, n, [](int64_t x, int64_t y) { return U(intLess<D>(y, x) ? y : x); });
      return;
    case OpCode::Max:
      intLoop<D>(a, b, r, n, [](int64_t x, int64_t y) { return U(intLess<D>(x, y) ? y : x); });
      return;
    default: unsupported(code, dt);
    }
  });
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
void comparePredicate(ir::CmpPredicate p, const T *a, const T *b, int64_t *r, int64_t n, Less less) {
  switch (p) {
  case ir::CmpPredicate::Eq: compareLoop(a, b, r, n, [](T x, T y) { return x == y; }); return;
  case ir::CmpPredicate::Ne: compareLoop(a, b, r, n, [](T x, T y) { return x != y; }); return;
  case ir::CmpPredicate::Lt: compareLoop(a, b, r, n, [&](T x, T y) { return less(x, y); }); return;
  case ir::CmpPredicate::Le: compareLoop(a, b, r, n, [&](T x, T y) { return less(x, y) || x == y; }); return;
  case ir::CmpPredicate::Gt: compareLoop(a, b, r, n, [&](T x, T y) { return less(y, x); }); return;
  case ir::CmpPredicate::Ge: compareLoop(a, b, r, n, [&](T x, T y) { return less(y, x) || x == y; }); return;
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

} // namespace

void fillConstant(const ir::Type &type, const ir::ConstantValue &value, Tile &r, int64_t n) {
  if (storageOf(type) == Storage::Float) {
    const double v = roundFloatTo(type.dtype, value.floatValue);
    double *out = r.f();
    for (int64_t k = 0; k < n; ++k)
      out[k] = v;
    return;
  }
  int64_t v = value.intValue;
  if (!type.isPointer)
    v = type.dtype == DType::Bool ? (v != 0 ? 1 : 0) : wrapIntTo(type.dtype, static_cast<uint64_t>(v));
  int64_t *out = r.i();
  for (int64_t k = 0; k < n; ++k)
    out[k] = v;
}

void binaryOp(OpCode code, ir::NanMode nanMode, DType dt, const Tile &a, const Tile &b, Tile &r, int64_t n,
              bool divisionByZeroFaults) {
  if (isFloatType(dt))
    floatBinary(code, nanMode, dt, a.f(), b.f(), r.f(), n);
  else
    intBinary(code, dt, a.i(), b.i(), r.i(), n, divisionByZeroFaults);
}

void unaryOp(OpCode code, DType dt, const Tile &a, Tile &r, int64_t n) {
  if (isFloatType(dt)) {
    const double *x = a.f();
    double *out = r.f();
    switch (code) {
    case OpCode::Neg:
      for (int64_t k = 0; k < n; ++k)
        out[k] = -x[k];
      return;
    case OpCode::Abs:
      for (int64_t k = 0; k < n; ++k)
        out[k] = std::fabs(x[k]);
      return;
    default: unsupported(code, dt);
    }
  }
  const int64_t *x = a.i();
  int64_t *out = r.i();
  visitInt(dt, [&](auto tag) {
    constexpr DType D = decltype(tag)::value;
    switch (code) {
    case OpCode::Neg:
      for (int64_t k = 0; k < n; ++k)
        out[k] = wrapInt<D>(uint64_t{0} - static_cast<uint64_t>(x[k]));
      return;
    case OpCode::Not:
      for (int64_t k = 0; k < n; ++k)
        out[k] = wrapInt<D>(~static_cast<uint64_t>(x[k]));
      return;
    case OpCode::Abs:
      for (int64_t k = 0; k < n; ++k) {
        const uint64_t u = static_cast<uint64_t>(x[k]);
        out[k] = (!isUnsignedType(D) && x[k] < 0) ? wrapInt<D>(uint64_t{0} - u) : x[k];
      }
      return;
    default: unsupported(code, dt);
    }
  });
}

void compareOp(ir::CmpPredicate p, const ir::Type &t, const Tile &a, const Tile &b, Tile &r, int64_t n) {
  int64_t *out = r.i();
  if (storageOf(t) == Storage::Float) {
    comparePredicate(p, a.f(), b.f(), out, n, [](double x, double y) { return x < y; });
    return;
  }
  if (!t.isPointer && isUnsignedType(t.dtype))
    comparePredicate(p, a.i(), b.i(), out, n, [](int64_t x, int64_t y) {
      return static_cast<uint64_t>(x) < static_cast<uint64_t>(y);
    });
  else
    comparePredicate(p, a.i(), b.i(), out, n, [](int64_t x, int64_t y) { return x < y; });
}

void selectOp(const Tile &cond, const Tile &a, const Tile &b, Tile &r, int64_t n) {
  const int64_t *c = cond.i();
  if (r.storage() == Storage::Float) {
    const double *x = a.f(), *y = b.f();
    double *out = r.f();
    for (int64_t k = 0; k < n; ++k)
      out[k] = c[k] ? x[k] : y[k];
  } else {
    const int64_t *x = a.i(), *y = b.i();
    int64_t *out = r.i();
    for (int64_t k = 0; k < n; ++k)
      out[k] = c[k] ? x[k] : y[k];
  }
}

void castOp(DType from, DType to, const Tile &a, Tile &r, int64_t n) {
  const bool fromFloat = isFloatType(from), toFloat = isFloatType(to);
  if (fromFloat && toFloat) {
    const double *x = a.f();
    double *out = r.f();
    visitFloat(to, [&](auto tag) {
      for (int64_t k = 0; k < n; ++k)
        out[k] = roundFloat<decltype(tag)::value>(x[k]);
    });
  } else if (fromFloat) {
    const double *x = a.f();
    int64_t *out = r.i();
    visitInt(to, [&](auto tag) {
      for (int64_t k = 0; k < n; ++k)
        out[k] = floatToInt<decltype(tag)::value>(x[k]);
    });
  } else if (toFloat) {
    const int64_t *x = a.i();
    double *out = r.f();
    const bool isUnsigned = isUnsignedType(from);
    visitFloat(to, [&](auto tag) {
      constexpr DType D = decltype(tag)::value;
      if (isUnsigned)
        for (int64_t k = 0; k < n; ++k)
          out[k] = intToFloatT<D, true>(x[k]);
      else
        for (int64_t k = 0; k < n; ++k)
          out[k] = intToFloatT<D, false>(x[k]);
    });
  } else {
    const int64_t *x = a.i();
    int64_t *out = r.i();
    if (to == DType::Bool) {
      for (int64_t k = 0; k < n; ++k)
        out[k] = x[k] != 0 ? 1 : 0;
      return;
    }
    visitInt(to, [&](auto tag) {
      for (int64_t k = 0; k < n; ++k)
        out[k] = wrapInt<decltype(tag)::value>(static_cast<uint64_t>(x[k]));
    });
  }
}

// Bit patterns are kept exactly, except that a signalling NaN passing through
// a float slot may come back quieted (the slots hold floats as double).
void bitcastOp(const ir::Type &from, const ir::Type &to, const Tile &a, Tile &r, int64_t n) {
  if (storageOf(from) == Storage::Int && storageOf(to) == Storage::Int &&
      (from.isPointer || to.isPointer || bitsOf(from.dtype) == 64)) {
    // pointer <-> pointer / int64 / uint64: the encoding is the value.
    std::copy(a.i(), a.i() + n, r.i());
    return;
  }
  const bool fromFloat = storageOf(from) == Storage::Float;
  const bool toFloat = storageOf(to) == Storage::Float;
  for (int64_t k = 0; k < n; ++k) {
    const uint64_t bits = toBits(from.dtype, fromFloat ? a.f()[k] : 0.0, fromFloat ? 0 : a.i()[k]);
    double f = 0.0;
    int64_t i = 0;
    fromBits(to.dtype, bits, f, i);
    if (toFloat)
      r.f()[k] = f;
    else
      r.i()[k] = i;
  }
}

} // namespace npusim::reference
