#pragma once
// Value storage of the interpreter (internal to the reference module).
//
// One Tile per ir::Value, in a flat array indexed by Value::id. A tile holds its
// elements in row-major order in 64-bit slots: double for float dtypes, int64
// for integers, bools and pointers. Storage is reused between program instances
// and loop iterations: a tile only reallocates when it must grow.
#include "ir/type.h"

#include <cstdint>
#include <cstring>
#include <memory>
#include <utility>

namespace npusim::reference {

enum class Storage : uint8_t { Int, Float };

inline Storage storageOf(const ir::Type &t) {
  return (!t.isPointer && core::isFloat(t.dtype)) ? Storage::Float : Storage::Int;
}

/// A growable array of uninitialised slots.
template <class T> class SlotArray {
public:
  void ensure(int64_t n) {
    if (n > capacity_) {
      data_.reset(new T[static_cast<size_t>(n)]);
      capacity_ = n;
    }
  }
  T *data() { return data_.get(); }
  const T *data() const { return data_.get(); }

private:
  std::unique_ptr<T[]> data_;
  int64_t capacity_ = 0;
};

/// A tile may also carry poison: per element, whether the value was computed
/// from an integer division by zero (see executor.h). Tiles without poison (the
/// usual case) have no poison array.
class Tile {
public:
  /// Makes the tile hold n elements of the given storage, without poison;
  /// contents undefined.
  void define(Storage s, int64_t n) {
    storage_ = s;
    size_ = n;
    poisoned_ = false;
    if (s == Storage::Float)
      floats_.ensure(n);
    else
      ints_.ensure(n);
  }
  void copyFrom(const Tile &other) {
    define(other.storage_, other.size_);
    if (storage_ == Storage::Float)
      std::memcpy(floats_.data(), other.floats_.data(), static_cast<size_t>(size_) * sizeof(double));
    else
      std::memcpy(ints_.data(), other.ints_.data(), static_cast<size_t>(size_) * sizeof(int64_t));
    if (other.poisoned_)
      std::memcpy(poisonForWrite(), other.poison_.data(), static_cast<size_t>(size_));
  }
  void swap(Tile &other) noexcept {
    std::swap(storage_, other.storage_);
    std::swap(size_, other.size_);
    std::swap(ints_, other.ints_);
    std::swap(floats_, other.floats_);
    std::swap(poisoned_, other.poisoned_);
    std::swap(poison_, other.poison_);
  }

  bool poisoned() const { return poisoned_; }
  /// One byte per element, nonzero where poisoned; only valid when poisoned().
  const uint8_t *poison() const { return poison_.data(); }
  /// The poison array, created all clear on first use.
  uint8_t *poisonForWrite() {
    if (!poisoned_) {
      poison_.ensure(size_);
      std::memset(poison_.data(), 0, static_cast<size_t>(size_));
      poisoned_ = true;
    }
    return poison_.data();
  }

  Storage storage() const { return storage_; }
  int64_t size() const { return size_; }
  double *f() { return floats_.data(); }
  const double *f() const { return floats_.data(); }
  int64_t *i() { return ints_.data(); }
  const int64_t *i() const { return ints_.data(); }

private:
  Storage storage_ = Storage::Int;
  int64_t size_ = 0;
  bool poisoned_ = false;
  SlotArray<int64_t> ints_;
  SlotArray<double> floats_;
  SlotArray<uint8_t> poison_;
};

/// Pointer elements: bits 63..48 hold the argument index + 1 (0 is a null or
/// invalid pointer), bits 47..0 the byte offset into that argument's buffer
/// plus 2^47 (so offsets in [-2^47, 2^47) are kept, and adding to an offset is
/// adding to the encoding as long as it stays in that range). Offsets outside
/// it saturate, far outside any buffer.
namespace ptr {
inline constexpr int kOffsetBits = 48;
inline constexpr int64_t kMaxOffset = (int64_t{1} << 47) - 1;
inline constexpr int64_t kMinOffset = -(int64_t{1} << 47);
inline constexpr uint64_t kOffsetMask = (uint64_t{1} << kOffsetBits) - 1;
inline constexpr uint64_t kBias = uint64_t{1} << 47;

/// byteOffset must be within [kMinOffset, kMaxOffset].
inline int64_t encode(uint64_t slot, int64_t byteOffset) {
  return static_cast<int64_t>((slot << kOffsetBits) |
                              ((static_cast<uint64_t>(byteOffset) + kBias) & kOffsetMask));
}
inline uint64_t slot(int64_t p) {
  return static_cast<uint64_t>(p) >> kOffsetBits;
}
inline int64_t offset(int64_t p) {
  return static_cast<int64_t>(static_cast<uint64_t>(p) & kOffsetMask) - static_cast<int64_t>(kBias);
}
} // namespace ptr

} // namespace npusim::reference
