#pragma once
// NumPy .npy files: the arrays that `npusim kernel` reads as pointer arguments
// and writes back after a launch.
//
// Read: format versions 1.0, 2.0 and 3.0; little-endian (or byte-order-free)
// descriptors |b1 |i1 <i2 <i4 <i8 |u1 <u2 <u4 <u8 <f2 <f4 <f8, with '<', '=' or
// '|' as the byte-order mark ('>' only for one-byte types, where it means
// nothing); C order (Fortran order only where the two agree: at most one axis
// longer than 1). Write: version 1.0 (2.0 when the header does not fit 1.0),
// C order. bf16 has no numpy dtype: it is written as <u2, and a <u2 or <i2 file
// carries it in.
//
// Every malformed file is a core::InputError whose message starts with the file
// name and says what is wrong; sizes are checked against the file's length
// before anything is allocated.
#include "core/dtype.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace npusim::core {

struct NpyArray {
  DType dtype = DType::Float32;
  std::vector<int64_t> shape; // empty for a 0-d array (one element)
  std::vector<uint8_t> bytes; // little-endian elements in C order

  /// Product of the shape (1 for a 0-d array).
  int64_t numElements() const;
};

/// Parses the bytes of a .npy file; `name` is the file name used in messages.
NpyArray parseNpy(std::string_view data, const std::string &name);
/// Reads and parses a .npy file. Throws InputError.
NpyArray readNpy(const std::string &path);

/// The bytes of a version 1.0 .npy file holding `array` (version 2.0 when the
/// header is too long for 1.0). Throws InputError when bytes and shape disagree.
std::string encodeNpy(const NpyArray &array);
/// Writes `array` to `path`. Throws InputError (naming the file) on failure.
void writeNpy(const std::string &path, const NpyArray &array);

} // namespace npusim::core
