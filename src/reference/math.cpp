// Math functions (tl.math / libdevice). fp32 uses the float versions of the C
// library functions (expf, ...), fp64 the double ones; fp16 and bf16 compute in
// fp32 and round the result once, as Triton's libdevice lowering does.
#include "reference/kernels.h"

#include <cmath>
#include <string>

namespace npusim::reference {
namespace {

using ir::MathFn;

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

void mathOp(MathFn fn, DType dt, const std::vector<const Tile *> &operands, Tile &r, int64_t n) {
  if (static_cast<int>(operands.size()) != ir::arity(fn))
    throw Fault("internal: math." + std::string(ir::name(fn)) + " arity");
  const double *x = operands[0]->f();
  const double *y = operands.size() > 1 ? operands[1]->f() : nullptr;
  double *out = ir::producesBool(fn) ? nullptr : r.f();
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
  case MathFn::IsNan: predicate(x, r.i(), n, [](double v) { return std::isnan(v); }); return;
  case MathFn::IsInf: predicate(x, r.i(), n, [](double v) { return std::isinf(v); }); return;
  case MathFn::IsFinite: predicate(x, r.i(), n, [](double v) { return std::isfinite(v); }); return;
  case MathFn::Signbit: predicate(x, r.i(), n, [](double v) { return std::signbit(v); }); return;
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
  case MathFn::Fma: {
    const double *z = operands[2]->f();
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
  }
  throw Fault("internal: unknown math function");
}

} // namespace npusim::reference
