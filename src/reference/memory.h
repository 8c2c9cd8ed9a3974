#pragma once
// Pointer arithmetic and memory access over the launch's argument buffers
// (internal to the reference module). See tile.h for the pointer encoding.
#include "reference/interpreter.h"
#include "reference/kernels.h"

#include <string>
#include <vector>

namespace npusim::reference {

class Memory {
public:
  /// Forgets all buffers; then bind() the pointer arguments.
  void reset(size_t numArguments);
  void bind(size_t argumentIndex, Buffer *buffer);
  /// The pointer value of argument `argumentIndex` at `byteOffset`.
  int64_t pointer(size_t argumentIndex, int64_t byteOffset) const;

  /// r = p + offset * byteSize(pointee), per element.
  void addPtr(DType pointee, DType offsetType, const Tile &p, const Tile &offset, Tile &r, int64_t n) const;
  /// Masked-off elements (mask false) are not accessed and take other (0 without it).
  void load(DType pointee, const Tile &p, const Tile *mask, const Tile *other, Tile &r, int64_t n) const;
  void store(DType pointee, const Tile &p, const Tile &value, const Tile *mask, int64_t n);
  /// Sequential read-modify-write in element order; r gets the old values.
  void atomic(ir::AtomicKind kind, DType pointee, const Tile &p, const Tile &value, const Tile *mask, Tile &r,
              int64_t n);

private:
  friend class Resolver;
  /// The base of the buffer that P[0] addresses, with limit = the last valid
  /// byte offset of an element, when that buffer can be accessed through this
  /// pointee at all; else null.
  uint8_t *uniformAccess(DType pointee, const int64_t *P, int64_t n, int64_t &limit) const;
  /// Whether every active element of P has P[0]'s slot and an aligned offset in [0, limit].
  static bool inBounds(const int64_t *P, const int64_t *M, int64_t n, int64_t size, int64_t limit);
  std::vector<Buffer *> buffers_; // by argument index; null for scalars
};

} // namespace npusim::reference
