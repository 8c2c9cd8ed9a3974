#include "core/dtype.h"

#include <array>

namespace npusim::core {
namespace {

struct DTypeTraits {
  std::string_view triton;
  std::string_view numpy;
  int bytes;
  int bits;
  bool floating;
  bool isSigned;
};

constexpr std::array<DTypeTraits, kNumDTypes> kTraits = {{
    {"i1", "|b1", 1, 1, false, false},
    {"i8", "|i1", 1, 8, false, true},
    {"i16", "<i2", 2, 16, false, true},
    {"i32", "<i4", 4, 32, false, true},
    {"i64", "<i8", 8, 64, false, true},
    {"u8", "|u1", 1, 8, false, false},
    {"u16", "<u2", 2, 16, false, false},
    {"u32", "<u4", 4, 32, false, false},
    {"u64", "<u8", 8, 64, false, false},
    {"fp16", "<f2", 2, 16, true, true},
    {"bf16", "<u2", 2, 16, true, true},
    {"fp32", "<f4", 4, 32, true, true},
    {"fp64", "<f8", 8, 64, true, true},
}};

const DTypeTraits &traits(DType t) { return kTraits[static_cast<size_t>(t)]; }

} // namespace

int byteSize(DType t) { return traits(t).bytes; }
int bitWidth(DType t) { return traits(t).bits; }
bool isFloat(DType t) { return traits(t).floating; }
bool isInteger(DType t) { return !traits(t).floating; }
bool isSigned(DType t) { return traits(t).isSigned; }
std::string_view tritonName(DType t) { return traits(t).triton; }
std::string_view numpyDescriptor(DType t) { return traits(t).numpy; }

std::optional<DType> parseDType(std::string_view name) {
  for (int i = 0; i < kNumDTypes; ++i)
    if (kTraits[i].triton == name)
      return static_cast<DType>(i);
  struct Alias {
    std::string_view name;
    DType type;
  };
  static constexpr Alias kAliases[] = {
      {"bool", DType::Bool},      {"int1", DType::Bool},        {"int8", DType::Int8},
      {"int16", DType::Int16},    {"int32", DType::Int32},      {"int64", DType::Int64},
      {"uint8", DType::UInt8},    {"uint16", DType::UInt16},    {"uint32", DType::UInt32},
      {"uint64", DType::UInt64},  {"float16", DType::Float16},  {"bfloat16", DType::BFloat16},
      {"float32", DType::Float32}, {"float64", DType::Float64}, {"f32", DType::Float32},
      {"f16", DType::Float16},    {"f64", DType::Float64},      {"u1", DType::Bool},
  };
  for (const Alias &a : kAliases)
    if (a.name == name)
      return a.type;
  return std::nullopt;
}

} // namespace npusim::core
