// Typed loops of the vector unit: an element function applied to one lane's
// contiguous slots straight on the scratchpad bytes, with the operation and
// the dtypes chosen once per instruction. Each loop computes what the slot
// path (decode to 64-bit slots, core/element_math.h, encode) computes, bit for
// bit: integer results are the low bits of the 64-bit wrapped result, fp32 and
// fp64 + - * / are correctly rounded either way, comparisons are ordered as
// there, min/max use the same core functions. Functions and dtypes not listed
// here return no kernel and take the slot path.
#include "functional/machine.h"

#include <cstring>
#include <type_traits>

namespace npusim::functional::detail {
namespace {

using npu::ElementOp;

template <class T> inline T load(const uint8_t *p, int64_t k) {
  T v;
  std::memcpy(&v, p + k * static_cast<int64_t>(sizeof(T)), sizeof v);
  return v;
}
template <class T> inline void store(uint8_t *p, int64_t k, T v) {
  std::memcpy(p + k * static_cast<int64_t>(sizeof(T)), &v, sizeof v);
}

/// r[k] = f(x[k], y[k]) over operands of type T and results of type R.
template <class T, class R, class F>
void binaryLoop(uint8_t *r, const uint8_t *x, const uint8_t *y, int64_t n, F f) {
  for (int64_t k = 0; k < n; ++k)
    store<R>(r, k, f(load<T>(x, k), load<T>(y, k)));
}

template <class T, ElementOp Op> void intBinary(uint8_t *r, const uint8_t *const *s, int64_t n) {
  using U = std::make_unsigned_t<T>;
  binaryLoop<T, T>(r, s[0], s[1], n, [](T x, T y) -> T {
    if constexpr (Op == ElementOp::Add)
      return static_cast<T>(static_cast<U>(x) + static_cast<U>(y));
    else if constexpr (Op == ElementOp::Sub)
      return static_cast<T>(static_cast<U>(x) - static_cast<U>(y));
    else if constexpr (Op == ElementOp::Mul)
      return static_cast<T>(static_cast<U>(x) * static_cast<U>(y));
    else if constexpr (Op == ElementOp::And)
      return static_cast<T>(x & y);
    else if constexpr (Op == ElementOp::Or)
      return static_cast<T>(x | y);
    else if constexpr (Op == ElementOp::Xor)
      return static_cast<T>(x ^ y);
    else if constexpr (Op == ElementOp::Min)
      return y < x ? y : x;
    else if constexpr (Op == ElementOp::Max)
      return x < y ? y : x;
    else if constexpr (Op == ElementOp::Div) { // by zero: all bits set; INT_MIN / -1 wraps
      if (y == 0)
        return static_cast<T>(~U{0});
      if constexpr (std::is_signed_v<T>)
        if (y == -1)
          return static_cast<T>(U{0} - static_cast<U>(x));
      return static_cast<T>(x / y);
    } else { // Rem; by zero: x
      if (y == 0)
        return x;
      if constexpr (std::is_signed_v<T>)
        if (y == -1)
          return 0;
      return static_cast<T>(x % y);
    }
  });
}

/// Bool operands are normalised to 0/1, as decoding them does.
template <ElementOp Op> void boolBinary(uint8_t *r, const uint8_t *const *s, int64_t n) {
  binaryLoop<uint8_t, uint8_t>(r, s[0], s[1], n, [](uint8_t x, uint8_t y) -> uint8_t {
    const uint8_t a = x != 0, b = y != 0;
    if constexpr (Op == ElementOp::And)
      return a & b;
    else if constexpr (Op == ElementOp::Or)
      return a | b;
    else
      return a ^ b;
  });
}

template <class T, ElementOp Op> void floatBinary(uint8_t *r, const uint8_t *const *s, int64_t n) {
  binaryLoop<T, T>(r, s[0], s[1], n, [](T x, T y) -> T {
    if constexpr (Op == ElementOp::Add)
      return x + y;
    else if constexpr (Op == ElementOp::Sub)
      return x - y;
    else if constexpr (Op == ElementOp::Mul)
      return x * y;
    else
      return x / y;
  });
}

template <class T, bool Max, bool Propagate>
void floatMinMax(uint8_t *r, const uint8_t *const *s, int64_t n) {
  binaryLoop<T, T>(r, s[0], s[1], n, [](T x, T y) -> T {
    const double a = x, b = y;
    return static_cast<T>(Max ? core::floatMax(a, b, Propagate) : core::floatMin(a, b, Propagate));
  });
}

template <class T, core::CmpPredicate P> void compare(uint8_t *r, const uint8_t *const *s, int64_t n) {
  binaryLoop<T, uint8_t>(r, s[0], s[1], n, [](T x, T y) -> uint8_t {
    if constexpr (P == core::CmpPredicate::Eq)
      return x == y;
    else if constexpr (P == core::CmpPredicate::Ne)
      return x != y;
    else if constexpr (P == core::CmpPredicate::Lt)
      return x < y;
    else if constexpr (P == core::CmpPredicate::Le)
      return x <= y;
    else if constexpr (P == core::CmpPredicate::Gt)
      return x > y;
    else
      return x >= y;
  });
}

/// Floats pass through a double slot on the slot path, which quiets a
/// signalling NaN; so do they here.
template <class T> inline T viaSlot(T v) {
  if constexpr (std::is_floating_point_v<T>)
    return static_cast<T>(static_cast<double>(v));
  else
    return v;
}

template <class T> void select(uint8_t *r, const uint8_t *const *s, int64_t n) {
  for (int64_t k = 0; k < n; ++k)
    store<T>(r, k, viaSlot(s[0][k] != 0 ? load<T>(s[1], k) : load<T>(s[2], k)));
}

template <> void select<bool>(uint8_t *r, const uint8_t *const *s, int64_t n) { // bytes, normalised
  for (int64_t k = 0; k < n; ++k)
    r[k] = (s[0][k] != 0 ? s[1][k] : s[2][k]) != 0;
}

template <class T> void copy(uint8_t *r, const uint8_t *const *s, int64_t n) {
  for (int64_t k = 0; k < n; ++k)
    store<T>(r, k, viaSlot(load<T>(s[0], k)));
}

/// Integer to integer: wraps (C++ conversions are modular); to bool: != 0.
template <class From, class To> void intCast(uint8_t *r, const uint8_t *const *s, int64_t n) {
  for (int64_t k = 0; k < n; ++k)
    store<To>(r, k, static_cast<To>(load<From>(s[0], k)));
}
template <class From> void intToBool(uint8_t *r, const uint8_t *const *s, int64_t n) {
  for (int64_t k = 0; k < n; ++k)
    r[k] = load<From>(s[0], k) != 0;
}

template <class T>
void gather(uint8_t *dst, const int64_t *dstPos, const uint8_t *src, const int64_t *srcPos,
            const int64_t *from, int64_t n) {
  for (int64_t e = 0; e < n; ++e)
    store<T>(dst + dstPos[e], 0, viaSlot(load<T>(src + srcPos[from[e]], 0)));
}
template <>
void gather<bool>(uint8_t *dst, const int64_t *dstPos, const uint8_t *src, const int64_t *srcPos,
                  const int64_t *from, int64_t n) {
  for (int64_t e = 0; e < n; ++e)
    dst[dstPos[e]] = src[srcPos[from[e]]] != 0;
}

template <class T>
void broadcastGroups(uint8_t *dst, const uint8_t *src, const int64_t *restMap, int64_t restDst,
                     int64_t restSrc, int64_t groups) {
  for (int64_t g = 0; g < groups; ++g)
    for (int64_t r = 0; r < restDst; ++r) {
      if constexpr (std::is_same_v<T, bool>)
        dst[g * restDst + r] = src[g * restSrc + restMap[r]] != 0;
      else
        store<T>(dst, g * restDst + r, viaSlot(load<T>(src, g * restSrc + restMap[r])));
    }
}

/// Calls fn(T{}) with the C type of integer dtype d (not Bool); false for others.
template <class Fn> bool withIntType(DType d, Fn &&fn) {
  switch (d) {
  case DType::Int8: fn(int8_t{}); return true;
  case DType::UInt8: fn(uint8_t{}); return true;
  case DType::Int16: fn(int16_t{}); return true;
  case DType::UInt16: fn(uint16_t{}); return true;
  case DType::Int32: fn(int32_t{}); return true;
  case DType::UInt32: fn(uint32_t{}); return true;
  case DType::Int64: fn(int64_t{}); return true;
  case DType::UInt64: fn(uint64_t{}); return true;
  default: return false;
  }
}
/// As withIntType for fp32 and fp64.
template <class Fn> bool withFloatType(DType d, Fn &&fn) {
  switch (d) {
  case DType::Float32: fn(float{}); return true;
  case DType::Float64: fn(double{}); return true;
  default: return false;
  }
}
/// Any dtype stored as its own C type (fp16/bf16 are not: they decode); bool as bool.
template <class Fn> bool withStoredType(DType d, Fn &&fn) {
  if (d == DType::Bool) {
    fn(bool{}); // its own kernels: bytes other than 0 read as 1
    return true;
  }
  return withIntType(d, fn) || withFloatType(d, fn);
}

template <class T> LaneKernel intBinaryKernel(ElementOp op) {
  switch (op) {
  case ElementOp::Add: return intBinary<T, ElementOp::Add>;
  case ElementOp::Sub: return intBinary<T, ElementOp::Sub>;
  case ElementOp::Mul: return intBinary<T, ElementOp::Mul>;
  case ElementOp::Div: return intBinary<T, ElementOp::Div>;
  case ElementOp::Rem: return intBinary<T, ElementOp::Rem>;
  case ElementOp::And: return intBinary<T, ElementOp::And>;
  case ElementOp::Or: return intBinary<T, ElementOp::Or>;
  case ElementOp::Xor: return intBinary<T, ElementOp::Xor>;
  case ElementOp::Min: return intBinary<T, ElementOp::Min>;
  case ElementOp::Max: return intBinary<T, ElementOp::Max>;
  default: return nullptr;
  }
}

template <class T> LaneKernel floatBinaryKernel(ElementOp op, core::NanMode nanMode) {
  const bool propagate = nanMode == core::NanMode::Propagate;
  switch (op) {
  case ElementOp::Add: return floatBinary<T, ElementOp::Add>;
  case ElementOp::Sub: return floatBinary<T, ElementOp::Sub>;
  case ElementOp::Mul: return floatBinary<T, ElementOp::Mul>;
  case ElementOp::Div: return floatBinary<T, ElementOp::Div>;
  case ElementOp::Min: return propagate ? floatMinMax<T, false, true> : floatMinMax<T, false, false>;
  case ElementOp::Max: return propagate ? floatMinMax<T, true, true> : floatMinMax<T, true, false>;
  default: return nullptr;
  }
}

template <class T> LaneKernel compareKernel(core::CmpPredicate p) {
  switch (p) {
  case core::CmpPredicate::Eq: return compare<T, core::CmpPredicate::Eq>;
  case core::CmpPredicate::Ne: return compare<T, core::CmpPredicate::Ne>;
  case core::CmpPredicate::Lt: return compare<T, core::CmpPredicate::Lt>;
  case core::CmpPredicate::Le: return compare<T, core::CmpPredicate::Le>;
  case core::CmpPredicate::Gt: return compare<T, core::CmpPredicate::Gt>;
  case core::CmpPredicate::Ge: return compare<T, core::CmpPredicate::Ge>;
  }
  return nullptr;
}

} // namespace

bool copyElements(DType d, uint8_t *dst, const int64_t *dstPos, const uint8_t *src, const int64_t *srcPos,
                  const int64_t *from, int64_t n) {
  if (d == DType::Bool) {
    gather<bool>(dst, dstPos, src, srcPos, from, n);
    return true;
  }
  return withIntType(d, [&](auto t) { gather<decltype(t)>(dst, dstPos, src, srcPos, from, n); }) ||
         withFloatType(d, [&](auto t) { gather<decltype(t)>(dst, dstPos, src, srcPos, from, n); });
}

bool broadcastLane(DType d, uint8_t *dst, const uint8_t *src, const int64_t *restMap, int64_t restDst,
                   int64_t restSrc, int64_t groups) {
  return withStoredType(
      d, [&](auto t) { broadcastGroups<decltype(t)>(dst, src, restMap, restDst, restSrc, groups); });
}

LaneKernel laneKernel(const npu::ElementFunction &fn, DType result) {
  const DType dt = fn.operandType;
  LaneKernel kernel = nullptr;
  switch (fn.op) {
  case ElementOp::Cmp:
    if (result != DType::Bool || dt == DType::Bool)
      return nullptr;
    if (!withIntType(dt, [&](auto t) { kernel = compareKernel<decltype(t)>(fn.predicate); }))
      withFloatType(dt, [&](auto t) { kernel = compareKernel<decltype(t)>(fn.predicate); });
    return kernel;
  case ElementOp::Select:
    if (result != dt)
      return nullptr;
    withStoredType(dt, [&](auto t) { kernel = select<decltype(t)>; });
    return kernel;
  case ElementOp::Copy:
    if (result != dt || dt == DType::Bool)
      return nullptr;
    withStoredType(dt, [&](auto t) { kernel = copy<decltype(t)>; });
    return kernel;
  case ElementOp::Cast:
    if (result != fn.resultType)
      return nullptr;
    if (result == DType::Bool) {
      withIntType(dt, [&](auto from) { kernel = intToBool<decltype(from)>; });
      return kernel;
    }
    withIntType(dt, [&](auto from) {
      withIntType(result, [&](auto to) { kernel = intCast<decltype(from), decltype(to)>; });
    });
    return kernel;
  default: break;
  }
  // The two-operand arithmetic and logic, Add ... Max in ElementOp's order;
  // the kernel makers return null for the ones they lack (shifts).
  if (fn.op < ElementOp::Add || fn.op > ElementOp::Max || result != dt)
    return nullptr;
  if (dt == DType::Bool) {
    if (fn.op == ElementOp::And)
      return boolBinary<ElementOp::And>;
    if (fn.op == ElementOp::Or)
      return boolBinary<ElementOp::Or>;
    if (fn.op == ElementOp::Xor)
      return boolBinary<ElementOp::Xor>;
    return nullptr;
  }
  if (!withIntType(dt, [&](auto t) { kernel = intBinaryKernel<decltype(t)>(fn.op); }))
    withFloatType(dt, [&](auto t) { kernel = floatBinaryKernel<decltype(t)>(fn.op, fn.nanMode); });
  return kernel;
}

} // namespace npusim::functional::detail
