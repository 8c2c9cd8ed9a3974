// Loads, stores, atomics and pointer arithmetic over the argument buffers.
//
// A pointer element names its argument (and so its buffer) and a byte offset.
// An access of an unmasked element must land inside the buffer, aligned to the
// element size, through a pointer whose pointee has the buffer's element size
// (the pointee dtype equals the buffer dtype unless the kernel bitcast the
// pointer, in which case the bytes are reinterpreted); anything else is an
// error naming the buffer, the element offset and the buffer's size.
// Masked-off elements are never accessed, whatever their pointer holds.
#include "reference/memory.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <string>

namespace npusim::reference {

class Resolver {
public:
  Resolver(const Memory &memory, DType pointee, const char *what)
      : memory_(memory), pointee_(pointee), size_(core::byteSize(pointee)), what_(what) {}

  /// The address of the element that pointer p designates, or a Fault.
  uint8_t *at(int64_t p) {
    const uint64_t slot = ptr::slot(p);
    if (slot != slot_)
      bind(slot);
    const int64_t offset = ptr::offset(p);
    if (offset < 0 || offset > limit_ || (offset & (size_ - 1)) != 0)
      outOfBounds(offset);
    return base_ + offset;
  }

private:
  void bind(uint64_t slot) {
    if (slot == 0 || slot > memory_.buffers_.size() || memory_.buffers_[slot - 1] == nullptr)
      throw Fault(std::string(what_) + " through an invalid pointer (not derived from a pointer argument)");
    Buffer &b = *memory_.buffers_[slot - 1];
    if (core::byteSize(b.dtype) != size_)
      throw Fault(std::string(what_) + " of " + std::string(core::tritonName(pointee_)) + " from buffer '" +
                  b.name + "' of " + std::string(core::tritonName(b.dtype)) + ": element types differ");
    buffer_ = &b;
    base_ = b.bytes.data();
    limit_ = static_cast<int64_t>(b.bytes.size()) - size_;
    slot_ = slot;
  }

  [[noreturn]] void outOfBounds(int64_t offset) const {
    std::string where = (offset & (size_ - 1)) != 0 ? "misaligned byte offset " + std::to_string(offset)
                                                    : "element offset " + std::to_string(offset / size_);
    throw Fault("out-of-bounds " + std::string(what_) + " at " + where + " of buffer '" + buffer_->name +
                "' (buffer size " + std::to_string(buffer_->numElements()) + " elements of " +
                std::string(core::tritonName(buffer_->dtype)) + ")");
  }

  const Memory &memory_;
  DType pointee_;
  int64_t size_;
  const char *what_;
  uint64_t slot_ = ~uint64_t{0};
  Buffer *buffer_ = nullptr;
  uint8_t *base_ = nullptr;
  int64_t limit_ = -1;
};

namespace {

template <DType D> struct IntOf;
template <> struct IntOf<DType::Bool> { using type = uint8_t; };
template <> struct IntOf<DType::Int8> { using type = int8_t; };
template <> struct IntOf<DType::Int16> { using type = int16_t; };
template <> struct IntOf<DType::Int32> { using type = int32_t; };
template <> struct IntOf<DType::Int64> { using type = int64_t; };
template <> struct IntOf<DType::UInt8> { using type = uint8_t; };
template <> struct IntOf<DType::UInt16> { using type = uint16_t; };
template <> struct IntOf<DType::UInt32> { using type = uint32_t; };
template <> struct IntOf<DType::UInt64> { using type = uint64_t; };

template <DType D> double readFloat(const uint8_t *p) {
  if constexpr (D == DType::Float32) {
    float v;
    std::memcpy(&v, p, sizeof v);
    return v;
  } else if constexpr (D == DType::Float64) {
    double v;
    std::memcpy(&v, p, sizeof v);
    return v;
  } else {
    uint16_t h;
    std::memcpy(&h, p, sizeof h);
    return D == DType::Float16 ? core::halfToFloat(h) : core::bfloat16ToFloat(h);
  }
}

template <DType D> void writeFloat(uint8_t *p, double x) {
  if constexpr (D == DType::Float32) {
    const float v = static_cast<float>(x);
    std::memcpy(p, &v, sizeof v);
  } else if constexpr (D == DType::Float64) {
    std::memcpy(p, &x, sizeof x);
  } else {
    // x already holds a value of D, so the conversion through float is exact.
    const uint16_t h = D == DType::Float16 ? core::floatToHalf(static_cast<float>(x))
                                           : core::floatToBFloat16(static_cast<float>(x));
    std::memcpy(p, &h, sizeof h);
  }
}

template <DType D> int64_t readInt(const uint8_t *p) {
  if constexpr (D == DType::Bool) {
    return *p != 0 ? 1 : 0;
  } else {
    typename IntOf<D>::type v;
    std::memcpy(&v, p, sizeof v);
    return static_cast<int64_t>(v);
  }
}

template <DType D> void writeInt(uint8_t *p, int64_t x) {
  if constexpr (D == DType::Bool) {
    *p = x != 0 ? 1 : 0;
  } else {
    const auto v = static_cast<typename IntOf<D>::type>(x);
    std::memcpy(p, &v, sizeof v);
  }
}

} // namespace

void Memory::reset(size_t numArguments) {
  buffers_.assign(numArguments, nullptr);
}

void Memory::bind(size_t argumentIndex, Buffer *buffer) {
  buffers_.at(argumentIndex) = buffer;
}

int64_t Memory::pointer(size_t argumentIndex, int64_t byteOffset) const {
  return ptr::encode(argumentIndex + 1, byteOffset);
}

void Memory::addPtr(DType pointee, DType offsetType, const Tile &p, const Tile &offset, Tile &r,
                    int64_t n) const {
  const int64_t size = core::byteSize(pointee);
  const int64_t *P = p.i(), *O = offset.i();
  int64_t *out = r.i();
  if (bitsOf(offsetType) <= 32) {
    // |offset * size| < 2^35. Adding it to the encoding is right unless the
    // biased offset field leaves [0, 2^48); detect that (branch-free, so the
    // loop vectorizes) and redo those tiles with saturation.
    const int shift = std::countr_zero(static_cast<uint64_t>(size));
    uint64_t outOfRange = 0;
    for (int64_t k = 0; k < n; ++k) {
      const uint64_t delta = static_cast<uint64_t>(O[k]) << shift;
      outOfRange |= ((static_cast<uint64_t>(P[k]) & ptr::kOffsetMask) + delta) >> ptr::kOffsetBits;
      out[k] = static_cast<int64_t>(static_cast<uint64_t>(P[k]) + delta);
    }
    if (outOfRange == 0)
      return;
    for (int64_t k = 0; k < n; ++k) {
      const int64_t next = std::clamp(ptr::offset(P[k]) + O[k] * size, ptr::kMinOffset, ptr::kMaxOffset);
      out[k] = ptr::encode(ptr::slot(P[k]), next);
    }
    return;
  }
  const int64_t limit = ptr::kMaxOffset / size;
  const bool offsetUnsigned64 = offsetType == DType::UInt64;
  for (int64_t k = 0; k < n; ++k) {
    const int64_t o = O[k];
    int64_t next;
    if ((offsetUnsigned64 && o < 0) || o > limit)
      next = ptr::kMaxOffset; // saturates: far outside any buffer
    else if (o < -limit)
      next = ptr::kMinOffset;
    else
      next = std::clamp(ptr::offset(P[k]) + o * size, ptr::kMinOffset, ptr::kMaxOffset);
    out[k] = ptr::encode(ptr::slot(P[k]), next);
  }
}

uint8_t *Memory::uniformAccess(DType pointee, const int64_t *P, int64_t n, int64_t &limit) const {
  if (n == 0)
    return nullptr;
  const uint64_t slot = ptr::slot(P[0]);
  if (slot == 0 || slot > buffers_.size() || buffers_[slot - 1] == nullptr)
    return nullptr;
  Buffer &b = *buffers_[slot - 1];
  const int64_t size = core::byteSize(pointee);
  limit = static_cast<int64_t>(b.bytes.size()) - size;
  if (core::byteSize(b.dtype) != size || limit < 0)
    return nullptr;
  return b.bytes.data();
}

bool Memory::inBounds(const int64_t *P, const int64_t *M, int64_t n, int64_t size, int64_t limit) {
  // Over the active elements: the slot of P[0], offsets within [0, limit],
  // aligned. Inactive elements count as offset 0 (they are not accessed).
  const uint64_t slot = ptr::slot(P[0]);
  uint64_t otherSlots = 0;
  int64_t lo = 0, hi = 0, bits = 0;
  if (M == nullptr) {
    for (int64_t k = 0; k < n; ++k) {
      const int64_t off = ptr::offset(P[k]);
      otherSlots |= ptr::slot(P[k]) ^ slot;
      lo = std::min(lo, off);
      hi = std::max(hi, off);
      bits |= off;
    }
  } else {
    for (int64_t k = 0; k < n; ++k) {
      const bool active = M[k] != 0;
      const int64_t off = active ? ptr::offset(P[k]) : 0;
      otherSlots |= active ? (ptr::slot(P[k]) ^ slot) : 0;
      lo = std::min(lo, off);
      hi = std::max(hi, off);
      bits |= off;
    }
  }
  return otherSlots == 0 && lo >= 0 && hi <= limit && (bits & (size - 1)) == 0;
}

namespace {

// One pass over a load whose pointers probably all lie in one buffer: each
// element reads at its offset clamped into the buffer (always a valid read) and
// the pass records whether any active element needed clamping or has another
// slot. Returns false if so; the caller then takes the checked path.
template <class Slot, class Read>
bool clampedLoad(const int64_t *P, const int64_t *M, const Slot *fallback, const uint8_t *base, int64_t size,
                 int64_t limit, Slot *out, int64_t n, Read read) {
  const uint64_t slot = ptr::slot(P[0]);
  const int64_t alignMask = ~(size - 1);
  uint64_t bad = 0;
  if (M == nullptr) {
    for (int64_t k = 0; k < n; ++k) {
      const int64_t off = ptr::offset(P[k]);
      const int64_t safe = std::clamp(off, int64_t{0}, limit) & alignMask;
      bad |= static_cast<uint64_t>(off ^ safe) | (ptr::slot(P[k]) ^ slot);
      out[k] = read(base + safe);
    }
  } else {
    for (int64_t k = 0; k < n; ++k) {
      const int64_t off = ptr::offset(P[k]);
      const int64_t safe = std::clamp(off, int64_t{0}, limit) & alignMask;
      const Slot v = read(base + safe);
      const bool active = M[k] != 0;
      bad |= active ? static_cast<uint64_t>(off ^ safe) | (ptr::slot(P[k]) ^ slot) : 0;
      out[k] = active ? v : (fallback ? fallback[k] : Slot{0});
    }
  }
  return bad == 0;
}

/// Whether the pointers are consecutive elements (P[k] = P[0] + k * size) and
/// every active one lies in bounds [0, limit], aligned; then `first` is the
/// byte offset of element 0 (which, if inactive, may lie outside).
bool contiguousInBounds(const int64_t *P, const int64_t *M, int64_t n, int64_t size, int64_t limit,
                        int64_t &first) {
  uint64_t expected = static_cast<uint64_t>(P[0]), diff = 0;
  for (int64_t k = 0; k < n; ++k) {
    diff |= static_cast<uint64_t>(P[k]) ^ expected;
    expected += static_cast<uint64_t>(size);
  }
  if (diff != 0)
    return false;
  int64_t lo = 0, hi = n - 1;
  if (M) {
    while (lo < n && M[lo] == 0)
      ++lo;
    if (lo == n) {
      first = 0; // nothing is active
      return true;
    }
    while (M[hi] == 0)
      --hi;
  }
  first = ptr::offset(P[0]);
  return first + lo * size >= 0 && first + hi * size <= limit && (first & (size - 1)) == 0;
}

} // namespace

// Loads and stores first try the common cases: consecutive elements in bounds
// (a straight loop), then every active element in bounds of one buffer (a load
// reads with clamped offsets and checks as it goes; a store checks first, then
// writes); otherwise they go element by element, which finds and reports the
// first bad element.
void Memory::load(DType pointee, const Tile &p, const Tile *mask, const Tile *other, Tile &r,
                  int64_t n) const {
  const int64_t *P = p.i();
  const int64_t *M = mask ? mask->i() : nullptr;
  const int64_t size = core::byteSize(pointee);
  int64_t limit = -1;
  const uint8_t *base = uniformAccess(pointee, P, n, limit);
  Resolver resolve(*this, pointee, "load");
  if (isFloatType(pointee)) {
    double *out = r.f();
    const double *fallback = other ? other->f() : nullptr;
    visitFloat(pointee, [&](auto tag) {
      constexpr DType D = decltype(tag)::value;
      int64_t first = 0;
      if (base && contiguousInBounds(P, M, n, size, limit, first)) {
        for (int64_t k = 0; k < n; ++k)
          out[k] = (M && !M[k]) ? (fallback ? fallback[k] : 0.0) : readFloat<D>(base + (first + k * size));
        return;
      }
      if (base && clampedLoad(P, M, fallback, base, size, limit, out, n,
                              [](const uint8_t *q) { return readFloat<D>(q); }))
        return;
      for (int64_t k = 0; k < n; ++k)
        out[k] = (M && !M[k]) ? (fallback ? fallback[k] : 0.0) : readFloat<D>(resolve.at(P[k]));
    });
  } else {
    int64_t *out = r.i();
    const int64_t *fallback = other ? other->i() : nullptr;
    visitInt(pointee, [&](auto tag) {
      constexpr DType D = decltype(tag)::value;
      int64_t first = 0;
      if (base && contiguousInBounds(P, M, n, size, limit, first)) {
        for (int64_t k = 0; k < n; ++k)
          out[k] = (M && !M[k]) ? (fallback ? fallback[k] : 0) : readInt<D>(base + (first + k * size));
        return;
      }
      if (base && clampedLoad(P, M, fallback, base, size, limit, out, n,
                              [](const uint8_t *q) { return readInt<D>(q); }))
        return;
      for (int64_t k = 0; k < n; ++k)
        out[k] = (M && !M[k]) ? (fallback ? fallback[k] : 0) : readInt<D>(resolve.at(P[k]));
    });
  }
}

void Memory::store(DType pointee, const Tile &p, const Tile &value, const Tile *mask, int64_t n) {
  const int64_t *P = p.i();
  const int64_t *M = mask ? mask->i() : nullptr;
  const int64_t size = core::byteSize(pointee);
  int64_t limit = -1, first = 0;
  uint8_t *base = uniformAccess(pointee, P, n, limit);
  const bool contiguous = base && contiguousInBounds(P, M, n, size, limit, first);
  if (base && !contiguous && !inBounds(P, M, n, size, limit))
    base = nullptr;
  Resolver resolve(*this, pointee, "store");
  auto at = [&](int64_t k) {
    return contiguous ? base + (first + k * size) : base ? base + ptr::offset(P[k]) : resolve.at(P[k]);
  };
  if (isFloatType(pointee)) {
    const double *v = value.f();
    visitFloat(pointee, [&](auto tag) {
      constexpr DType D = decltype(tag)::value;
      for (int64_t k = 0; k < n; ++k)
        if (!M || M[k])
          writeFloat<D>(at(k), v[k]);
    });
  } else {
    const int64_t *v = value.i();
    visitInt(pointee, [&](auto tag) {
      constexpr DType D = decltype(tag)::value;
      for (int64_t k = 0; k < n; ++k)
        if (!M || M[k])
          writeInt<D>(at(k), v[k]);
    });
  }
}

void Memory::atomic(ir::AtomicKind kind, DType pointee, const Tile &p, const Tile &value, const Tile *mask,
                    Tile &r, int64_t n) {
  using ir::AtomicKind;
  Resolver resolve(*this, pointee, "atomic");
  const int64_t *P = p.i();
  const int64_t *M = mask ? mask->i() : nullptr;
  if (isFloatType(pointee)) {
    if (kind == AtomicKind::And || kind == AtomicKind::Or || kind == AtomicKind::Xor)
      throw Fault("internal: bitwise atomic on a float type");
    const double *v = value.f();
    double *out = r.f();
    visitFloat(pointee, [&](auto tag) {
      constexpr DType D = decltype(tag)::value;
      for (int64_t k = 0; k < n; ++k) {
        if (M && !M[k]) {
          out[k] = 0.0;
          continue;
        }
        uint8_t *q = resolve.at(P[k]);
        const double old = readFloat<D>(q);
        out[k] = old;
        writeFloat<D>(q, core::atomicFloat(kind, D, old, v[k]));
      }
    });
    return;
  }
  const int64_t *v = value.i();
  int64_t *out = r.i();
  visitInt(pointee, [&](auto tag) {
    constexpr DType D = decltype(tag)::value;
    for (int64_t k = 0; k < n; ++k) {
      if (M && !M[k]) {
        out[k] = 0;
        continue;
      }
      uint8_t *q = resolve.at(P[k]);
      const int64_t old = readInt<D>(q);
      out[k] = old;
      writeInt<D>(q, core::atomicInt(kind, D, old, v[k]));
    }
  });
}

} // namespace npusim::reference
