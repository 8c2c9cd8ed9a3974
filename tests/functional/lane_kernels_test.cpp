// The vector unit's typed loops against the slot path they replace: operands
// widened to 64-bit slots, the core element functions (core/element_math.h),
// the result narrowed to the dtype's bits. Both must give the same bytes for
// every function and dtype the typed loops cover, on values chosen to hit the
// edges: zero divisors, -1 and the most negative integer, NaN, infinities,
// signed zeros, bool bytes other than 0 and 1.
#include "core/numeric.h"
#include "functional/machine.h"

#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <random>
#include <vector>

namespace npusim::functionaltest {
namespace {

using core::DType;
using functional::detail::laneKernel;
using npu::ElementOp;

constexpr int64_t kCount = 300;

/// kCount elements of dtype d as bytes, with edge values mixed in.
std::vector<uint8_t> operand(DType d, std::mt19937_64 &rng, bool nonzeroBool = false) {
  const int size = core::byteSize(d);
  std::vector<uint8_t> bytes(static_cast<size_t>(kCount * size));
  for (int64_t k = 0; k < kCount; ++k) {
    uint64_t bits = rng();
    const unsigned pick = static_cast<unsigned>(rng() % 8);
    if (d == DType::Bool) {
      bits = nonzeroBool ? 1 + rng() % 3 : rng() % 3; // 2 is a true that is not 1
    } else if (d == DType::Float32) {
      const float values[] = {
          0.0f,  -0.0f, std::numeric_limits<float>::infinity(), std::numeric_limits<float>::quiet_NaN(),
          -1.5f, 3.0f};
      bits = std::bit_cast<uint32_t>(
          pick < 6 ? values[pick] : static_cast<float>(static_cast<int64_t>(bits % 200) - 100) / 8.0f);
    } else if (d == DType::Float64) {
      const double values[] = {
          0.0,   -0.0, -std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN(),
          1e300, -2.0};
      bits = std::bit_cast<uint64_t>(
          pick < 6 ? values[pick] : static_cast<double>(static_cast<int64_t>(bits % 200) - 100) / 8.0);
    } else {
      const int w = core::bitsOf(d);
      const uint64_t mostNegative = uint64_t{1} << (w - 1);
      const uint64_t values[] = {0, 1, ~uint64_t{0}, mostNegative, 2, 7};
      bits = pick < 6 ? values[pick] : (pick == 6 ? bits : bits % 64);
    }
    std::memcpy(bytes.data() + k * size, &bits, static_cast<size_t>(size)); // little-endian
  }
  return bytes;
}

/// The slot path: decode, core function, encode.
std::vector<uint8_t> slotPath(const npu::ElementFunction &fn, DType result,
                              const std::vector<std::vector<uint8_t>> &operands,
                              const std::vector<DType> &operandTypes) {
  std::vector<std::vector<double>> f(operands.size(), std::vector<double>(kCount));
  std::vector<std::vector<int64_t>> i(operands.size(), std::vector<int64_t>(kCount));
  for (size_t o = 0; o < operands.size(); ++o)
    for (int64_t k = 0; k < kCount; ++k) {
      const int size = core::byteSize(operandTypes[o]);
      uint64_t bits = 0;
      std::memcpy(&bits, operands[o].data() + k * size, static_cast<size_t>(size));
      if (operandTypes[o] == DType::Bool)
        bits = bits != 0;
      core::fromBits(operandTypes[o], bits, f[o][static_cast<size_t>(k)], i[o][static_cast<size_t>(k)]);
    }
  std::vector<double> rf(kCount);
  std::vector<int64_t> ri(kCount);
  const DType dt = fn.operandType;
  const bool isFloat = core::isFloatType(dt);
  switch (fn.op) {
  case ElementOp::Cmp:
    if (isFloat)
      core::compareFloat(fn.predicate, f[0].data(), f[1].data(), ri.data(), kCount);
    else
      core::compareInt(fn.predicate, core::isUnsignedType(dt), i[0].data(), i[1].data(), ri.data(), kCount);
    break;
  case ElementOp::Select:
    for (int64_t k = 0; k < kCount; ++k) {
      const size_t u = static_cast<size_t>(k);
      rf[u] = i[0][u] ? f[1][u] : f[2][u];
      ri[u] = i[0][u] ? i[1][u] : i[2][u];
    }
    break;
  case ElementOp::Copy:
    rf = f[0];
    ri = i[0];
    break;
  case ElementOp::Cast:
    core::castValues(dt, fn.resultType, core::ConstSlots{f[0].data(), i[0].data()},
                     core::Slots{rf.data(), ri.data()}, kCount);
    break;
  default: {
    const core::BinaryOp op =
        static_cast<core::BinaryOp>(static_cast<int>(fn.op) - static_cast<int>(ElementOp::Add));
    if (isFloat)
      core::binaryFloat(op, fn.nanMode, dt, f[0].data(), f[1].data(), rf.data(), kCount);
    else
      core::binaryInt(op, dt, i[0].data(), i[1].data(), ri.data(), kCount, false);
  }
  }
  const int size = core::byteSize(result);
  std::vector<uint8_t> out(static_cast<size_t>(kCount * size));
  for (int64_t k = 0; k < kCount; ++k) {
    const uint64_t bits = core::toBits(result, rf[static_cast<size_t>(k)], ri[static_cast<size_t>(k)]);
    std::memcpy(out.data() + k * size, &bits, static_cast<size_t>(size));
  }
  return out;
}

void expectSameBytes(const npu::ElementFunction &fn, DType result, const std::vector<DType> &operandTypes,
                     std::mt19937_64 &rng) {
  const functional::detail::LaneKernel kernel = laneKernel(fn, result);
  ASSERT_NE(kernel, nullptr) << "op " << static_cast<int>(fn.op) << " on "
                             << core::tritonName(fn.operandType);
  std::vector<std::vector<uint8_t>> operands;
  for (DType d : operandTypes)
    operands.push_back(operand(d, rng));
  std::vector<uint8_t> got(static_cast<size_t>(kCount * core::byteSize(result)));
  const uint8_t *bytes[3] = {};
  for (size_t o = 0; o < operands.size(); ++o)
    bytes[o] = operands[o].data();
  kernel(got.data(), bytes, kCount);
  EXPECT_EQ(got, slotPath(fn, result, operands, operandTypes))
      << "op " << static_cast<int>(fn.op) << " on " << core::tritonName(fn.operandType) << " -> "
      << core::tritonName(result);
}

npu::ElementFunction function(ElementOp op, DType operandType, DType resultType) {
  npu::ElementFunction fn;
  fn.op = op;
  fn.operandType = operandType;
  fn.resultType = resultType;
  return fn;
}

const DType kInts[] = {DType::Int8,  DType::UInt8,  DType::Int16, DType::UInt16,
                       DType::Int32, DType::UInt32, DType::Int64, DType::UInt64};

TEST(LaneKernels, ArithmeticAndLogicGiveTheSlotPathsBytes) {
  std::mt19937_64 rng(11);
  const ElementOp intOps[] = {ElementOp::Add, ElementOp::Sub, ElementOp::Mul, ElementOp::Div, ElementOp::Rem,
                              ElementOp::And, ElementOp::Or,  ElementOp::Xor, ElementOp::Min, ElementOp::Max};
  for (DType d : kInts)
    for (ElementOp op : intOps)
      expectSameBytes(function(op, d, d), d, {d, d}, rng);
  for (ElementOp op : {ElementOp::And, ElementOp::Or, ElementOp::Xor})
    expectSameBytes(function(op, DType::Bool, DType::Bool), DType::Bool, {DType::Bool, DType::Bool}, rng);
  for (DType d : {DType::Float32, DType::Float64})
    for (ElementOp op :
         {ElementOp::Add, ElementOp::Sub, ElementOp::Mul, ElementOp::Div, ElementOp::Min, ElementOp::Max})
      for (core::NanMode mode : {core::NanMode::Ignore, core::NanMode::Propagate}) {
        npu::ElementFunction fn = function(op, d, d);
        fn.nanMode = mode;
        expectSameBytes(fn, d, {d, d}, rng);
      }
}

TEST(LaneKernels, ComparisonsSelectsCopiesAndCastsGiveTheSlotPathsBytes) {
  std::mt19937_64 rng(12);
  std::vector<DType> types(std::begin(kInts), std::end(kInts));
  types.push_back(DType::Float32);
  types.push_back(DType::Float64);
  for (DType d : types) {
    for (int p = 0; p < 6; ++p) {
      npu::ElementFunction fn = function(ElementOp::Cmp, d, DType::Bool);
      fn.predicate = static_cast<core::CmpPredicate>(p);
      expectSameBytes(fn, DType::Bool, {d, d}, rng);
    }
    expectSameBytes(function(ElementOp::Select, d, d), d, {DType::Bool, d, d}, rng);
    expectSameBytes(function(ElementOp::Copy, d, d), d, {d}, rng);
  }
  expectSameBytes(function(ElementOp::Select, DType::Bool, DType::Bool), DType::Bool,
                  {DType::Bool, DType::Bool, DType::Bool}, rng);
  for (DType from : kInts) {
    for (DType to : kInts)
      expectSameBytes(function(ElementOp::Cast, from, to), to, {from}, rng);
    expectSameBytes(function(ElementOp::Cast, from, DType::Bool), DType::Bool, {from}, rng);
  }
}

TEST(LaneKernels, FunctionsWithoutATypedLoopTakeTheSlotPath) {
  // fp16 arithmetic and float <-> int casts round or saturate: the slot path does that.
  EXPECT_EQ(laneKernel(function(ElementOp::Add, DType::Float16, DType::Float16), DType::Float16), nullptr);
  EXPECT_EQ(laneKernel(function(ElementOp::Cast, DType::Float32, DType::Int32), DType::Int32), nullptr);
  EXPECT_EQ(laneKernel(function(ElementOp::Shl, DType::Int32, DType::Int32), DType::Int32), nullptr);
}

} // namespace
} // namespace npusim::functionaltest
