#pragma once
// Element types of tensors and tiles, as Triton and PyTorch name them.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace npusim::core {

enum class DType : uint8_t {
  Bool,
  Int8,
  Int16,
  Int32,
  Int64,
  UInt8,
  UInt16,
  UInt32,
  UInt64,
  Float16,
  BFloat16,
  Float32,
  Float64,
};

inline constexpr int kNumDTypes = 13;

/// Size of one element in bytes (bool is stored as one byte, as in PyTorch).
int byteSize(DType t);
/// Width in bits of the value (1 for bool).
int bitWidth(DType t);
bool isFloat(DType t);
bool isInteger(DType t); // includes bool
bool isSigned(DType t);  // signed integers and floats

/// Triton's spelling: fp32, fp16, bf16, fp64, i1, i8..i64, u8..u64.
std::string_view tritonName(DType t);
/// Accepts Triton's spellings and a few aliases (int32, float32, bool, ...).
std::optional<DType> parseDType(std::string_view name);
/// numpy's dtype descriptor (e.g. "<f4", "|b1"); bf16 has none and maps to "<u2".
std::string_view numpyDescriptor(DType t);

} // namespace npusim::core
