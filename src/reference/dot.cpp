// tl.dot: acc + a x b. The inputs are first converted to the accumulator's
// dtype (with InputPrecision::TF32, fp32 inputs are then rounded to tf32: 10
// mantissa bits, nearest, ties to even); every product and every sum is
// rounded to the accumulator's dtype, and each output element accumulates
// over k in increasing order, starting from acc. No fused multiply-add is used
// (the build does not contract a * b + c). TF32x3 emulates full fp32
// precision on a GPU and is computed here as IEEE.
// Integer dots (int8 inputs, int32 accumulator) wrap at the accumulator width.
#include "reference/kernels.h"

#include <algorithm>
#include <cstring>

namespace npusim::reference {
namespace {

struct DotShape {
  int64_t batch = 1, m = 0, k = 0, n = 0;
};

DotShape dotShape(const ir::Type &a, const ir::Type &b) {
  DotShape s;
  const int r = a.rank();
  if (r == 3)
    s.batch = a.shape[0];
  s.m = a.shape[static_cast<size_t>(r - 2)];
  s.k = a.shape[static_cast<size_t>(r - 1)];
  s.n = b.shape[static_cast<size_t>(r - 1)];
  return s;
}

// c[m, n] += a[m, k] * b[k, n] in float, k ascending for every (m, n), each
// product and sum rounded to float. The main part runs a register-blocked
// micro-kernel on 4 x 8 blocks of c, four floats at a time with GCC/Clang
// vector extensions (plain SSE2 on x86-64: separate multiply and add, no FMA);
// the edges use a scalar loop in the same order.
typedef float Float4 __attribute__((vector_size(16)));

void floatMatmul(const float *a, const float *b, float *c, const DotShape &s) {
  constexpr int64_t kRows = 4, kCols = 8;
  auto scalarElement = [&](int64_t m, int64_t n) {
    float x = c[m * s.n + n];
    for (int64_t k = 0; k < s.k; ++k) {
      const float product = a[m * s.k + k] * b[k * s.n + n];
      x = x + product;
    }
    c[m * s.n + n] = x;
  };
  int64_t m0 = 0;
  for (; m0 + kRows <= s.m; m0 += kRows) {
    int64_t n0 = 0;
    for (; n0 + kCols <= s.n; n0 += kCols) {
      Float4 acc[kRows][2];
      for (int64_t i = 0; i < kRows; ++i)
        for (int64_t j = 0; j < 2; ++j)
          std::memcpy(&acc[i][j], c + (m0 + i) * s.n + n0 + 4 * j, sizeof(Float4));
      for (int64_t k = 0; k < s.k; ++k) {
        Float4 b0, b1;
        std::memcpy(&b0, b + k * s.n + n0, sizeof(Float4));
        std::memcpy(&b1, b + k * s.n + n0 + 4, sizeof(Float4));
        for (int64_t i = 0; i < kRows; ++i) {
          const float av = a[(m0 + i) * s.k + k];
          const Float4 splat = {av, av, av, av};
          const Float4 p0 = splat * b0, p1 = splat * b1;
          acc[i][0] = acc[i][0] + p0;
          acc[i][1] = acc[i][1] + p1;
        }
      }
      for (int64_t i = 0; i < kRows; ++i)
        for (int64_t j = 0; j < 2; ++j)
          std::memcpy(c + (m0 + i) * s.n + n0 + 4 * j, &acc[i][j], sizeof(Float4));
    }
    for (; n0 < s.n; ++n0)
      for (int64_t i = 0; i < kRows; ++i)
        scalarElement(m0 + i, n0);
  }
  for (; m0 < s.m; ++m0)
    for (int64_t n = 0; n < s.n; ++n)
      scalarElement(m0, n);
}

/// The tile's values converted to dtype `to` (as Cast does), in `scratch` when a
/// conversion is needed.
const Tile &convert(const ir::Type &t, DType to, const Tile &x, Tile &scratch) {
  if (t.dtype == to)
    return x;
  const int64_t n = t.numElements();
  scratch.define(isFloatType(to) ? Storage::Float : Storage::Int, n);
  castOp(t.dtype, to, x, scratch, n);
  return scratch;
}

} // namespace

void dotOp(const ir::Type &aType, const ir::Type &bType, const ir::Type &accType,
           ir::InputPrecision precision, const Tile &a, const Tile &b, const Tile &acc, Tile &r,
           DotScratch &scratch) {
  const DotShape s = dotShape(aType, bType);
  const DType accD = accType.dtype;
  const Tile &ca = convert(aType, accD, a, scratch.convertedA);
  const Tile &cb = convert(bType, accD, b, scratch.convertedB);
  const int64_t aSize = s.m * s.k, bSize = s.k * s.n, cSize = s.m * s.n;

  if (accD == DType::Float32) {
    const bool tf32 = precision == ir::InputPrecision::TF32;
    scratch.a.resize(static_cast<size_t>(aSize));
    scratch.b.resize(static_cast<size_t>(bSize));
    scratch.c.resize(static_cast<size_t>(cSize));
    for (int64_t batch = 0; batch < s.batch; ++batch) {
      const double *pa = ca.f() + batch * aSize, *pb = cb.f() + batch * bSize, *pc = acc.f() + batch * cSize;
      for (int64_t i = 0; i < aSize; ++i) {
        const float v = static_cast<float>(pa[i]);
        scratch.a[static_cast<size_t>(i)] = tf32 ? roundToTF32(v) : v;
      }
      for (int64_t i = 0; i < bSize; ++i) {
        const float v = static_cast<float>(pb[i]);
        scratch.b[static_cast<size_t>(i)] = tf32 ? roundToTF32(v) : v;
      }
      for (int64_t i = 0; i < cSize; ++i)
        scratch.c[static_cast<size_t>(i)] = static_cast<float>(pc[i]);
      floatMatmul(scratch.a.data(), scratch.b.data(), scratch.c.data(), s);
      double *out = r.f() + batch * cSize;
      for (int64_t i = 0; i < cSize; ++i)
        out[i] = static_cast<double>(scratch.c[static_cast<size_t>(i)]);
    }
    return;
  }

  if (!isFloatType(accD)) {
    // Wrapping at the end is the same as wrapping every step (arithmetic mod 2^w).
    std::vector<uint64_t> c(static_cast<size_t>(cSize));
    visitInt(accD, [&](auto tag) {
      constexpr DType D = decltype(tag)::value;
      for (int64_t batch = 0; batch < s.batch; ++batch) {
        const int64_t *pa = ca.i() + batch * aSize, *pb = cb.i() + batch * bSize,
                      *pc = acc.i() + batch * cSize;
        for (int64_t i = 0; i < cSize; ++i)
          c[static_cast<size_t>(i)] = static_cast<uint64_t>(pc[i]);
        for (int64_t m = 0; m < s.m; ++m)
          for (int64_t k = 0; k < s.k; ++k) {
            const uint64_t av = static_cast<uint64_t>(pa[m * s.k + k]);
            uint64_t *crow = c.data() + m * s.n;
            const int64_t *brow = pb + k * s.n;
            for (int64_t n = 0; n < s.n; ++n)
              crow[n] += av * static_cast<uint64_t>(brow[n]);
          }
        int64_t *out = r.i() + batch * cSize;
        for (int64_t i = 0; i < cSize; ++i)
          out[i] = wrapInt<D>(c[static_cast<size_t>(i)]);
      }
    });
    return;
  }

  // fp16, bf16 and fp64 accumulators: in double, rounded to the dtype each step.
  visitFloat(accD, [&](auto tag) {
    constexpr DType D = decltype(tag)::value;
    for (int64_t batch = 0; batch < s.batch; ++batch) {
      const double *pa = ca.f() + batch * aSize, *pb = cb.f() + batch * bSize, *pc = acc.f() + batch * cSize;
      double *out = r.f() + batch * cSize;
      std::copy(pc, pc + cSize, out);
      for (int64_t m = 0; m < s.m; ++m)
        for (int64_t k = 0; k < s.k; ++k) {
          const double av = pa[m * s.k + k];
          double *crow = out + m * s.n;
          const double *brow = pb + k * s.n;
          for (int64_t n = 0; n < s.n; ++n)
            crow[n] = roundFloat<D>(crow[n] + roundFloat<D>(av * brow[n]));
        }
    }
  });
}

} // namespace npusim::reference
