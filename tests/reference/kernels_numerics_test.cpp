// End-to-end tests of the reference interpreter's numerics and memory
// semantics on kernels written the way TorchInductor writes them
// (tests/data/kernels/*.py): reduced-precision floats, integer division,
// wrap-around, NaN, libdevice, atomics, control flow, and memory faults. As in
// kernels_test.cpp, every expected value comes from a plain C++ computation
// below, never from the interpreter.
#include "reference/kernel_harness.h"

#include "core/error.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

namespace npusim::reference {
namespace {

using core::DType;
using harness::allClose;
using harness::allEqual;
using harness::bitsOf;
using harness::ceilDiv;
using harness::compileKernel;
using harness::contents;
using harness::floatsOf;
using harness::intArg;
using harness::kInf;
using harness::kNaN;
using harness::kSentinel;
using harness::kTol;
using harness::makeBuffer;
using harness::outputBuffer;
using harness::pointerArg;
using harness::randomFloats;
using harness::randomInts;
using harness::widen;

// ---------------------------------------------------------------------------
// 13. bf16 and fp16: loads widened to fp32, fp32 arithmetic, rounded back to
// nearest even. The conversions below are written from the formats'
// definitions, independently of core/float16.h.

/// Rounds a finite value to a binary format with `mantissaBits` fraction bits
/// and smallest normal exponent `minExp` (subnormals below), ties to even.
double roundToFormat(double v, int mantissaBits, int minExp) {
  if (v == 0.0 || !std::isfinite(v))
    return v;
  int e = 0;
  std::frexp(std::fabs(v), &e); // |v| = m * 2^e with m in [0.5, 1)
  const int lead = std::max(e - 1, minExp);
  const double quantum = std::ldexp(1.0, lead - mantissaBits);
  return std::copysign(std::nearbyint(std::fabs(v) / quantum) * quantum, v); // default mode: ties to even
}

uint16_t encode16(float f, int mantissaBits, int minExp, int bias, double maxFinite, uint16_t nanBits) {
  const uint16_t sign = std::signbit(f) ? 0x8000 : 0;
  if (std::isnan(f))
    return static_cast<uint16_t>(sign | nanBits);
  const uint16_t infBits = static_cast<uint16_t>(((1 << (15 - mantissaBits)) - 1) << mantissaBits);
  if (std::isinf(f))
    return static_cast<uint16_t>(sign | infBits);
  const double r = std::fabs(roundToFormat(f, mantissaBits, minExp));
  if (r > maxFinite)
    return static_cast<uint16_t>(sign | infBits);
  if (r < std::ldexp(1.0, minExp)) // subnormal or zero: a multiple of the smallest quantum
    return static_cast<uint16_t>(sign | static_cast<uint16_t>(r / std::ldexp(1.0, minExp - mantissaBits)));
  int e = 0;
  std::frexp(r, &e);
  const int exponent = e - 1;
  const double fraction = r / std::ldexp(1.0, exponent) - 1.0; // in [0, 1)
  const auto mantissa = static_cast<uint16_t>(fraction * (1 << mantissaBits));
  return static_cast<uint16_t>(sign | ((exponent + bias) << mantissaBits) | mantissa);
}

float decode16(uint16_t h, int mantissaBits, int bias) {
  const int expBits = 15 - mantissaBits;
  const int exponent = (h >> mantissaBits) & ((1 << expBits) - 1);
  const int mantissa = h & ((1 << mantissaBits) - 1);
  double v;
  if (exponent == (1 << expBits) - 1)
    v = mantissa ? NAN : INFINITY;
  else if (exponent == 0)
    v = std::ldexp(static_cast<double>(mantissa), 1 - bias - mantissaBits);
  else
    v = std::ldexp(static_cast<double>((1 << mantissaBits) + mantissa), exponent - bias - mantissaBits);
  return static_cast<float>((h & 0x8000) ? -v : v);
}

uint16_t toHalf(float f) {
  return encode16(f, 10, -14, 15, 65504.0, 0x7e00);
}
float fromHalf(uint16_t h) {
  return decode16(h, 10, 15);
}
uint16_t toBf16(float f) {
  return encode16(f, 7, -126, 127, std::ldexp(255.0, 120), 0x7fc0);
}
float fromBf16(uint16_t h) {
  return decode16(h, 7, 127);
}

TEST(KernelReducedPrecisionTest, ConvertersOfThisTestAreRight) {
  // Known encodings, to trust the converters the next test relies on.
  EXPECT_EQ(toHalf(1.0f), 0x3c00);
  EXPECT_EQ(toHalf(65504.0f), 0x7bff);
  EXPECT_EQ(toHalf(65519.0f), 0x7bff);
  EXPECT_EQ(toHalf(65520.0f), 0x7c00); // halfway to 2^16 rounds (to even) to infinity
  EXPECT_EQ(toHalf(std::ldexp(1.0f, -24)), 0x0001);
  EXPECT_EQ(toHalf(std::ldexp(1.0f, -25)), 0x0000);        // tie to even: 0
  EXPECT_EQ(toHalf(std::ldexp(3.0f, -25)), 0x0002);        // tie to even: 2
  EXPECT_EQ(toHalf(1.0f + std::ldexp(1.0f, -11)), 0x3c00); // tie to even, down
  EXPECT_EQ(toHalf(1.0f + std::ldexp(3.0f, -11)), 0x3c02); // tie to even, up
  EXPECT_EQ(toHalf(-2.5f), 0xc100);
  EXPECT_EQ(toBf16(1.0f), 0x3f80);
  EXPECT_EQ(toBf16(1.0f + std::ldexp(1.0f, -8)), 0x3f80);       // tie to even, down
  EXPECT_EQ(toBf16(1.0f + std::ldexp(3.0f, -8)), 0x3f82);       // tie to even, up
  EXPECT_EQ(toBf16(std::numeric_limits<float>::max()), 0x7f80); // rounds up to infinity
  EXPECT_EQ(toBf16(std::ldexp(1.0f, -133)), 0x0001);
  EXPECT_EQ(fromHalf(0x3555), 0.333251953125f);
  EXPECT_EQ(fromBf16(0xc0a0), -5.0f);
  EXPECT_EQ(fromHalf(0x0001), std::ldexp(1.0f, -24));
}

TEST(KernelReducedPrecisionTest, Bf16AndFp16ArithmeticIsBitExact) {
  auto k = compileKernel("triton_poi_fused__to_copy_add_div_mul_sub_0.py", {{"XBLOCK", 128}});
  constexpr int n = 300;
  std::vector<float> a = randomFloats(n, 29, -4, 4), b = randomFloats(n, 30, -4, 4);
  std::vector<float> c = randomFloats(n, 31, -4, 4), d = randomFloats(n, 32, -4, 4);
  // Magnitudes that overflow fp16, and fp16 subnormals.
  for (int i = 0; i < 20; ++i) {
    c[i] = 250.0f + 7.0f * static_cast<float>(i);
    d[i] = 300.0f - 3.0f * static_cast<float>(i);
    c[20 + i] = std::ldexp(1.0f + 0.01f * static_cast<float>(i), -10);
    d[20 + i] = std::ldexp(1.0f + 0.03f * static_cast<float>(i), -11);
    a[i] = std::ldexp(1.0f + 0.1f * static_cast<float>(i), 100);
    b[i] = std::ldexp(1.0f, 40);
  }
  std::vector<uint16_t> ha(n), hb(n), hc(n), hd(n);
  for (int i = 0; i < n; ++i) {
    ha[i] = toBf16(a[i]);
    hb[i] = toBf16(b[i]);
    hc[i] = toHalf(c[i]);
    hd[i] = toHalf(d[i]);
  }
  Buffer in0 = makeBuffer("arg0_1", DType::BFloat16, ha), in1 = makeBuffer("arg1_1", DType::BFloat16, hb);
  Buffer in2 = makeBuffer("arg2_1", DType::Float16, hc), in3 = makeBuffer("arg3_1", DType::Float16, hd);
  Buffer out0 = makeBuffer("buf0", DType::BFloat16, std::vector<uint16_t>(n, 0xdead));
  Buffer out1 = makeBuffer("buf1", DType::Float16, std::vector<uint16_t>(n, 0xdead));
  std::vector<Argument> args{pointerArg(in0),  pointerArg(in1),  pointerArg(in2), pointerArg(in3),
                             pointerArg(out0), pointerArg(out1), intArg(n)};
  runLaunch(*k.function, Grid{ceilDiv(n, 128), 1, 1}, args);

  std::vector<uint16_t> e0(n), e1(n);
  for (int i = 0; i < n; ++i) {
    const float x0 = fromBf16(ha[i]), x1 = fromBf16(hb[i]);
    const float t2 = x0 * x1;
    const float t4 = t2 + 0.1f;
    const float t5 = t4 - x0;
    e0[i] = toBf16(t5);
    const float y0 = fromHalf(hc[i]), y1 = fromHalf(hd[i]);
    const float t9 = y0 * y1;
    const float t10 = y0 - y1;
    const float t12 = t10 / 3.0f;
    const float t13 = t9 + t12;
    e1[i] = toHalf(t13);
  }
  EXPECT_EQ(e1[0], 0x7c00); // the overflow cases are there
  EXPECT_TRUE(allEqual(contents<uint16_t>(out0), e0));
  EXPECT_TRUE(allEqual(contents<uint16_t>(out1), e1));
}

// ---------------------------------------------------------------------------
// 14. Integer division: // and % truncate (C), the floor forms floor.

int64_t floorDiv(int64_t a, int64_t b) {
  const int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
int64_t floorMod(int64_t a, int64_t b) {
  const int64_t r = a % b;
  return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}

class KernelIntegerDivisionTest : public ::testing::TestWithParam<int64_t> {};

TEST_P(KernelIntegerDivisionTest, TruncatingAndFlooringOnInt32AndInt64) {
  const int64_t xblock = GetParam();
  auto k = compileKernel("triton_poi_fused_div_floor_divide_fmod_remainder_0.py", {{"XBLOCK", xblock}});
  constexpr int n = 100;
  std::vector<int32_t> a(n), b(n);
  std::vector<int64_t> c(n), d(n);
  const std::vector<int64_t> ra = randomInts(n, 33, -100, 100), rb = randomInts(n, 34, -7, 7);
  const std::vector<int64_t> rc = randomInts(n, 35, -1000000, 1000000), rd = randomInts(n, 36, -9, 9);
  for (int i = 0; i < n; ++i) {
    a[i] = static_cast<int32_t>(ra[i]);
    b[i] = static_cast<int32_t>(rb[i] == 0 ? 3 : rb[i]);
    c[i] = rc[i] * 1000003; // beyond 32 bits
    d[i] = rd[i] == 0 ? -4 : rd[i];
  }
  const int32_t fixedA[] = {-7, 7, -7, 7, -6, 0, -1, 1, 2147483647, -2147483647};
  const int32_t fixedB[] = {2, -2, -2, 2, 3, -5, 7, -7, -2, 2};
  for (int i = 0; i < 10; ++i) {
    a[i] = fixedA[i];
    b[i] = fixedB[i];
    c[i] = static_cast<int64_t>(fixedA[i]) * 4294967296LL + 1;
    d[i] = fixedB[i] * 3;
  }
  Buffer in0 = makeBuffer("arg0_1", DType::Int32, a), in1 = makeBuffer("arg1_1", DType::Int32, b);
  Buffer in2 = makeBuffer("arg2_1", DType::Int64, c), in3 = makeBuffer("arg3_1", DType::Int64, d);
  std::vector<Buffer> outs;
  outs.reserve(10);
  for (int i = 0; i < 10; ++i)
    outs.push_back(i < 5 ? makeBuffer("buf" + std::to_string(i), DType::Int32, std::vector<int32_t>(n, -77))
                         : makeBuffer("buf" + std::to_string(i), DType::Int64, std::vector<int64_t>(n, -77)));
  std::vector<Argument> args{pointerArg(in0), pointerArg(in1), pointerArg(in2), pointerArg(in3)};
  for (Buffer &o : outs)
    args.push_back(pointerArg(o));
  args.push_back(intArg(n));
  // With XBLOCK = 128 the 28 masked-off lanes load 0 divisors: they must not fault.
  runLaunch(*k.function, Grid{ceilDiv(n, xblock), 1, 1}, args);

  std::vector<int64_t> truncQ(n), truncR(n), floorQ(n), floorR(n), truncQ64(n), truncR64(n), floorQ64(n),
      floorR64(n);
  for (int i = 0; i < n; ++i) {
    truncQ[i] = a[i] / b[i];
    truncR[i] = a[i] % b[i];
    floorQ[i] = floorDiv(a[i], b[i]);
    floorR[i] = floorMod(a[i], b[i]);
    truncQ64[i] = c[i] / d[i];
    truncR64[i] = c[i] % d[i];
    floorQ64[i] = floorDiv(c[i], d[i]);
    floorR64[i] = floorMod(c[i], d[i]);
  }
  EXPECT_EQ(truncQ[0], -3);
  EXPECT_EQ(floorQ[0], -4);
  EXPECT_EQ(truncR[0], -1);
  EXPECT_EQ(floorR[0], 1);
  EXPECT_TRUE(allEqual(contents<int32_t>(outs[0]), truncQ)) << "int32 //";
  EXPECT_TRUE(allEqual(contents<int32_t>(outs[1]), truncR)) << "int32 %";
  EXPECT_TRUE(allEqual(contents<int32_t>(outs[2]), floorQ)) << "int32 div_floor_integer";
  EXPECT_TRUE(allEqual(contents<int32_t>(outs[3]), floorR)) << "int32 remainder_integer";
  EXPECT_TRUE(allEqual(contents<int32_t>(outs[4]), floorQ)) << "int32 inline floor division";
  EXPECT_TRUE(allEqual(contents<int64_t>(outs[5]), truncQ64)) << "int64 //";
  EXPECT_TRUE(allEqual(contents<int64_t>(outs[6]), truncR64)) << "int64 %";
  EXPECT_TRUE(allEqual(contents<int64_t>(outs[7]), floorQ64)) << "int64 div_floor_integer";
  EXPECT_TRUE(allEqual(contents<int64_t>(outs[8]), floorR64)) << "int64 remainder_integer";
  EXPECT_TRUE(allEqual(contents<int64_t>(outs[9]), floorR64)) << "int64 inline remainder";
}

INSTANTIATE_TEST_SUITE_P(XBlocks, KernelIntegerDivisionTest, ::testing::Values(4, 128));

TEST(KernelIntegerDivisionReductionTest, PaddingLanesDividingByZeroAreMaskedBeforeTheSum) {
  // Lanes 50..63 of each row (and whole rows past xnumel) load 0 divisors;
  // tl.where drops their quotients before tl.sum, so the launch is valid.
  for (int64_t xblock : {1, 8}) {
    SCOPED_TRACE("XBLOCK " + std::to_string(xblock));
    auto k = compileKernel("triton_per_fused_div_floor_divide_sum_0.py", {{"XBLOCK", xblock}});
    const std::vector<int64_t> a = randomInts(6 * 50, 59, -1000, 1000);
    std::vector<int64_t> b = randomInts(6 * 50, 60, -9, 9);
    for (int64_t &v : b)
      v = v == 0 ? 5 : v;
    Buffer in0 = makeBuffer("arg0_1", DType::Int64, a), in1 = makeBuffer("arg1_1", DType::Int64, b);
    Buffer q = makeBuffer("buf0", DType::Int64, std::vector<int64_t>(6, -7));
    Buffer r = makeBuffer("buf1", DType::Int64, std::vector<int64_t>(6, -7));
    std::vector<Argument> args{pointerArg(in0), pointerArg(in1), pointerArg(q),
                               pointerArg(r),   intArg(6),       intArg(50)};
    runLaunch(*k.function, Grid{ceilDiv(6, xblock), 1, 1}, args);
    std::vector<int64_t> eq(6, 0), er(6, 0);
    for (int row = 0; row < 6; ++row)
      for (int c = 0; c < 50; ++c) {
        eq[row] += floorDiv(a[row * 50 + c], b[row * 50 + c]);
        er[row] += a[row * 50 + c] % b[row * 50 + c];
      }
    EXPECT_TRUE(allEqual(contents<int64_t>(q), eq));
    EXPECT_TRUE(allEqual(contents<int64_t>(r), er));
  }
}

// ---------------------------------------------------------------------------
// 15. Numerics and memory semantics.

TEST(KernelNumericsTest, Int8ArithmeticWrapsAround) {
  auto k = compileKernel("triton_poi_fused_add_mul_sub_0.py", {{"XBLOCK", 64}});
  constexpr int n = 200;
  std::vector<int8_t> a(n), b(n);
  const std::vector<int64_t> ra = randomInts(n, 37, -128, 127), rb = randomInts(n, 38, -128, 127);
  for (int i = 0; i < n; ++i) {
    a[i] = static_cast<int8_t>(ra[i]);
    b[i] = static_cast<int8_t>(rb[i]);
  }
  a[0] = 127, b[0] = 1;   // 128 wraps to -128
  a[1] = -128, b[1] = -1; // -129 wraps to 127; (-128) * (-1) wraps to -128
  a[2] = 100, b[2] = 100; // 200 wraps to -56; 10000 wraps to 16
  Buffer in0 = makeBuffer("arg0_1", DType::Int8, a), in1 = makeBuffer("arg1_1", DType::Int8, b);
  Buffer sum = makeBuffer("buf0", DType::Int8, std::vector<int8_t>(n, 0));
  Buffer prod = makeBuffer("buf1", DType::Int8, std::vector<int8_t>(n, 0));
  Buffer diff = makeBuffer("buf2", DType::Int8, std::vector<int8_t>(n, 0));
  std::vector<Argument> args{pointerArg(in0),  pointerArg(in1),  pointerArg(sum),
                             pointerArg(prod), pointerArg(diff), intArg(n)};
  runLaunch(*k.function, Grid{ceilDiv(n, 64), 1, 1}, args);
  std::vector<int8_t> eSum(n), eProd(n), eDiff(n);
  for (int i = 0; i < n; ++i) { // C++20: conversion to int8_t is modulo 2^8
    eSum[i] = static_cast<int8_t>(a[i] + b[i]);
    eProd[i] = static_cast<int8_t>(a[i] * b[i]);
    eDiff[i] = static_cast<int8_t>(a[i] - b[i]);
  }
  EXPECT_EQ(eSum[0], -128);
  EXPECT_EQ(eSum[2], -56);
  EXPECT_EQ(eProd[2], 16);
  EXPECT_TRUE(allEqual(contents<int8_t>(sum), eSum));
  EXPECT_TRUE(allEqual(contents<int8_t>(prod), eProd));
  EXPECT_TRUE(allEqual(contents<int8_t>(diff), eDiff));
}

TEST(KernelNumericsTest, CastsBoolLoadsAndBitwiseOpsOnNegativeInt64) {
  auto k = compileKernel(
      "triton_poi_fused__to_copy_abs_bitwise_and_bitwise_not_bitwise_xor_lshift_rshift_where_0.py",
      {{"XBLOCK", 16}});
  constexpr int n = 40;
  std::vector<float> f = randomFloats(n, 56, -1000.0f, 1000.0f);
  std::vector<int64_t> a = randomInts(n, 57, -(int64_t{1} << 40), int64_t{1} << 40);
  const std::vector<int64_t> rm = randomInts(n, 58, 0, 1);
  std::vector<uint8_t> m(rm.begin(), rm.end());
  f[0] = -2.75f; // truncates to -2
  f[1] = 2.75f;
  f[2] = kNaN;  // NaN != 0: casts to True
  f[3] = -0.0f; // -0.0 == 0: casts to False
  f[4] = 0.0f;
  a[0] = (int64_t{1} << 24) + 1; // not representable in fp32: rounds to even, 2^24
  a[1] = (int64_t{1} << 24) + 3; // rounds up to 2^24 + 4
  a[2] = -(int64_t{1} << 40) - 1;
  a[3] = -1;
  a[4] = 300;  // wraps to 44 as int8
  a[5] = -129; // wraps to 127 as int8
  Buffer in0 = makeBuffer("arg0_1", DType::Float32, f), in1 = makeBuffer("arg1_1", DType::Int64, a);
  Buffer in2 = makeBuffer("arg2_1", DType::Bool, m);
  Buffer o0 = makeBuffer("buf0", DType::Int32, std::vector<int32_t>(n, 0));
  Buffer o1 = outputBuffer("buf1", n, 0);
  Buffer o2 = makeBuffer("buf2", DType::Int8, std::vector<int8_t>(n, 0));
  Buffer o3 = makeBuffer("buf3", DType::Bool, std::vector<uint8_t>(n, 7));
  Buffer o4 = outputBuffer("buf4", n, 0);
  std::vector<Buffer> o64;
  o64.reserve(6);
  for (int i = 5; i <= 10; ++i)
    o64.push_back(makeBuffer("buf" + std::to_string(i), DType::Int64, std::vector<int64_t>(n, 0)));
  std::vector<Argument> args{pointerArg(in0), pointerArg(in1), pointerArg(in2), pointerArg(o0),
                             pointerArg(o1),  pointerArg(o2),  pointerArg(o3),  pointerArg(o4)};
  for (Buffer &b : o64)
    args.push_back(pointerArg(b));
  args.push_back(intArg(n));
  runLaunch(*k.function, Grid{ceilDiv(n, 16), 1, 1}, args);

  std::vector<int32_t> e0(n);
  std::vector<float> e1(n), e4(n);
  std::vector<int8_t> e2(n);
  std::vector<uint8_t> e3(n);
  std::vector<int64_t> eShr(n), eShl(n), eNot(n), eAnd(n), eXor(n), eAbs(n);
  for (int i = 0; i < n; ++i) {
    e0[i] = std::isnan(f[i]) ? 0 : static_cast<int32_t>(f[i]); // truncation toward zero
    e1[i] = static_cast<float>(a[i]);                          // round to nearest even
    e2[i] = static_cast<int8_t>(a[i]);                         // modulo 2^8 (C++20)
    e3[i] = f[i] != 0.0f ? 1 : 0;
    e4[i] = m[i] ? f[i] : -1.0f;
    eShr[i] = a[i] >> 3; // arithmetic (C++20)
    eShl[i] = static_cast<int64_t>(static_cast<uint64_t>(a[i]) << 2);
    eNot[i] = ~a[i];
    eAnd[i] = a[i] & 255;
    eXor[i] = a[i] ^ -7;
    eAbs[i] = a[i] < 0 ? -a[i] : a[i];
  }
  EXPECT_EQ(e1[0], 16777216.0f);
  EXPECT_EQ(e1[1], 16777220.0f);
  EXPECT_EQ(e2[4], 44);
  EXPECT_EQ(e2[5], 127);
  std::vector<int32_t> got0 = contents<int32_t>(o0);
  got0[2] = e0[2]; // fptosi of NaN is undefined in Triton: not compared
  EXPECT_TRUE(allEqual(got0, e0)) << "fp32 -> int32";
  EXPECT_TRUE(allEqual(bitsOf(contents<float>(o1)), bitsOf(e1))) << "int64 -> fp32";
  EXPECT_TRUE(allEqual(contents<int8_t>(o2), e2)) << "int64 -> int8";
  EXPECT_TRUE(allEqual(contents<uint8_t>(o3), e3)) << "fp32 -> int1";
  EXPECT_TRUE(allEqual(bitsOf(contents<float>(o4)), bitsOf(e4))) << "tl.where on an i1 load";
  EXPECT_TRUE(allEqual(contents<int64_t>(o64[0]), eShr)) << ">>";
  EXPECT_TRUE(allEqual(contents<int64_t>(o64[1]), eShl)) << "<<";
  EXPECT_TRUE(allEqual(contents<int64_t>(o64[2]), eNot)) << "~";
  EXPECT_TRUE(allEqual(contents<int64_t>(o64[3]), eAnd)) << "&";
  EXPECT_TRUE(allEqual(contents<int64_t>(o64[4]), eXor)) << "^";
  EXPECT_TRUE(allEqual(contents<int64_t>(o64[5]), eAbs)) << "tl_math.abs";
}

TEST(KernelMemoryTest, ScalarLoadsBroadcastToTheBlock) {
  for (int64_t xblock : {32, 128}) {
    SCOPED_TRACE("XBLOCK " + std::to_string(xblock));
    auto k = compileKernel("triton_poi_fused_add_copy__mul_0.py", {{"XBLOCK", xblock}});
    const std::vector<float> x = randomFloats(100, 61, -1, 1);
    Buffer in0 = makeBuffer("arg0_1", DType::Float32, x);
    Buffer scale = makeBuffer("arg1_1", DType::Float32, std::vector<float>{0.375f});
    Buffer step = makeBuffer("arg2_1", DType::Int64, std::vector<int64_t>{41});
    Buffer out = outputBuffer("buf0", 100);
    Buffer nextStep = makeBuffer("arg3_1", DType::Int64, std::vector<int64_t>{0});
    std::vector<Argument> args{pointerArg(in0), pointerArg(scale),    pointerArg(step),
                               pointerArg(out), pointerArg(nextStep), intArg(100)};
    runLaunch(*k.function, Grid{ceilDiv(100, xblock), 1, 1}, args);
    std::vector<float> expected(100);
    for (int i = 0; i < 100; ++i)
      expected[i] = x[i] * 0.375f;
    EXPECT_TRUE(allEqual(bitsOf(floatsOf(out, 100)), bitsOf(expected)));
    EXPECT_EQ(contents<int64_t>(nextStep), std::vector<int64_t>{42});
  }
}

TEST(KernelNumericsTest, NaNThroughWhereAndTheTwoMaximums) {
  auto k = compileKernel("triton_poi_fused_fmax_maximum_minimum_nan_to_num_neg_remainder_where_0.py",
                         {{"XBLOCK", 16}});
  const std::vector<float> a{kNaN, 1.0f,  kNaN, 2.0f,   -1.0f, kInf,  -kInf, kNaN,
                             0.0f, -7.5f, 7.0f, -0.25f, 3.0f,  -kInf, 1e30f, 4.0f};
  const std::vector<float> b{1.0f, kNaN, kNaN,  3.0f,  -5.0f, kNaN, 1.0f, -kInf,
                             0.5f, 2.0f, -2.5f, 0.25f, kInf,  kNaN, 3.0f, 4.5f};
  Buffer in0 = makeBuffer("arg0_1", DType::Float32, a), in1 = makeBuffer("arg1_1", DType::Float32, b);
  std::vector<Buffer> outs;
  outs.reserve(9);
  for (int i = 0; i < 9; ++i)
    outs.push_back(outputBuffer("buf" + std::to_string(i), 16, 0));
  std::vector<Argument> args{pointerArg(in0), pointerArg(in1)};
  for (Buffer &o : outs)
    args.push_back(pointerArg(o));
  args.push_back(intArg(16));
  runLaunch(*k.function, Grid{1, 1, 1}, args);

  std::vector<double> helperMax(16), helperMin(16), tlMax(16), tlMin(16), nanToZero(16), whereNan(16),
      relu(16);
  std::vector<float> neg(16), rem(16);
  for (int i = 0; i < 16; ++i) {
    const float x = a[i], y = b[i];
    // triton_helpers.maximum: where(a > b or a != a, a, b): NaN in either operand wins.
    helperMax[i] = (x > y || std::isnan(x)) ? x : y;
    helperMin[i] = (x < y || std::isnan(x)) ? x : y;
    // tl.maximum without propagate_nan is maxnum: a NaN operand loses to a number.
    tlMax[i] = std::fmax(x, y);
    tlMin[i] = std::fmin(x, y);
    nanToZero[i] = std::isnan(x) ? 0.0 : x;
    whereNan[i] = x > 0.0f ? x : NAN;
    relu[i] = (0.0f > x || std::isnan(0.0f)) ? 0.0f : x;
    // Triton's unary minus is 0 - x: -(+0.0) is +0.0.
    neg[i] = 0.0f - x;
    // Float % is frem: C's fmod, the sign of the dividend.
    rem[i] = std::fmod(x, y);
  }
  EXPECT_FALSE(std::signbit(neg[8]));
  EXPECT_EQ(rem[9], -1.5f);
  EXPECT_EQ(rem[10], 2.0f);
  EXPECT_TRUE(std::isnan(helperMax[1]));
  EXPECT_EQ(tlMax[1], 1.0);
  EXPECT_TRUE(std::isnan(relu[0]));
  EXPECT_TRUE(allClose(contents<float>(outs[0]), helperMax, 0.0, 0.0)) << "triton_helpers.maximum";
  EXPECT_TRUE(allClose(contents<float>(outs[1]), helperMin, 0.0, 0.0)) << "triton_helpers.minimum";
  EXPECT_TRUE(allClose(contents<float>(outs[2]), tlMax, 0.0, 0.0)) << "tl.maximum";
  EXPECT_TRUE(allClose(contents<float>(outs[3]), tlMin, 0.0, 0.0)) << "tl.minimum";
  EXPECT_TRUE(allClose(contents<float>(outs[4]), nanToZero, 0.0, 0.0)) << "tl.where(isnan(x), 0, x)";
  EXPECT_TRUE(allClose(contents<float>(outs[5]), whereNan, 0.0, 0.0)) << "tl.where(x > 0, x, nan)";
  EXPECT_TRUE(allClose(contents<float>(outs[6]), relu, 0.0, 0.0)) << "triton_helpers.maximum(0, x)";
  EXPECT_TRUE(allEqual(bitsOf(contents<float>(outs[7])), bitsOf(neg))) << "-x";
  EXPECT_TRUE(allEqual(bitsOf(contents<float>(outs[8])), bitsOf(rem))) << "x % y on floats";
}

TEST(KernelNumericsTest, LibdeviceFunctionsMatchTheCppLibrary) {
  auto k = compileKernel("triton_poi_fused_erf_exp_isnan_log1p_pow_rsqrt_tanh_0.py", {{"XBLOCK", 64}});
  constexpr int n = 200;
  const std::vector<float> x = randomFloats(n, 39, 0.05f, 3.0f);
  std::vector<float> y = randomFloats(n, 40, -2.0f, 2.0f);
  for (int i = 0; i < n; i += 17)
    y[i] = kNaN;
  Buffer in0 = makeBuffer("arg0_1", DType::Float32, x), in1 = makeBuffer("arg1_1", DType::Float32, y);
  std::vector<Buffer> outs;
  outs.reserve(7);
  for (int i = 0; i < 6; ++i)
    outs.push_back(outputBuffer("buf" + std::to_string(i), n));
  outs.push_back(makeBuffer("buf6", DType::Bool, std::vector<uint8_t>(n + 16, 7)));
  std::vector<Argument> args{pointerArg(in0), pointerArg(in1)};
  for (Buffer &o : outs)
    args.push_back(pointerArg(o));
  args.push_back(intArg(n));
  runLaunch(*k.function, Grid{ceilDiv(n, 64), 1, 1}, args);

  std::vector<double> eExp(n), eLog1p(n), eErf(n), eTanh(n), eRsqrt(n), ePow(n);
  std::vector<uint8_t> eIsNan(n + 16, 7);
  for (int i = 0; i < n; ++i) {
    const double v = x[i];
    eExp[i] = std::exp(v);
    eLog1p[i] = std::log1p(v);
    eErf[i] = std::erf(v);
    eTanh[i] = std::tanh(v);
    eRsqrt[i] = 1.0 / std::sqrt(v);
    ePow[i] = std::pow(v, static_cast<double>(y[i]));
    eIsNan[i] = std::isnan(y[i]) ? 1 : 0;
  }
  constexpr double rtol = 1e-5, atol = 1e-7;
  EXPECT_TRUE(allClose(floatsOf(outs[0], n), eExp, rtol, atol)) << "exp";
  EXPECT_TRUE(allClose(floatsOf(outs[1], n), eLog1p, rtol, atol)) << "log1p";
  EXPECT_TRUE(allClose(floatsOf(outs[2], n), eErf, rtol, atol)) << "erf";
  EXPECT_TRUE(allClose(floatsOf(outs[3], n), eTanh, rtol, atol)) << "tanh";
  EXPECT_TRUE(allClose(floatsOf(outs[4], n), eRsqrt, rtol, atol)) << "rsqrt";
  EXPECT_TRUE(allClose(floatsOf(outs[5], n), ePow, rtol, atol)) << "pow";
  EXPECT_TRUE(allEqual(contents<uint8_t>(outs[6]), eIsNan)) << "isnan";
}

TEST(KernelMemoryTest, AtomicAddAccumulatesRepeatedIndices) {
  for (int64_t xblock : {64, 256}) {
    SCOPED_TRACE("XBLOCK " + std::to_string(xblock));
    auto k = compileKernel("triton_poi_fused_index_add_0.py", {{"XBLOCK", xblock}});
    constexpr int n = 200;
    const std::vector<int64_t> idx = randomInts(n, 41, -16, 15);
    const std::vector<int64_t> vals = randomInts(n, 42, -8, 8);
    std::vector<float> v(vals.begin(), vals.end()); // integers: every order of additions is exact
    std::vector<float> init(16);
    for (int i = 0; i < 16; ++i)
      init[i] = 100.0f * static_cast<float>(i);
    Buffer in0 = makeBuffer("arg0_1", DType::Int64, idx), in1 = makeBuffer("arg1_1", DType::Float32, v);
    Buffer out = makeBuffer("buf0", DType::Float32, init);
    std::vector<Argument> args{pointerArg(in0), pointerArg(in1), pointerArg(out), intArg(n)};
    runLaunch(*k.function, Grid{ceilDiv(n, xblock), 1, 1}, args);
    std::vector<double> expected = widen(init);
    for (int i = 0; i < n; ++i)
      expected[idx[i] < 0 ? idx[i] + 16 : idx[i]] += v[i];
    EXPECT_TRUE(allClose(contents<float>(out), expected, 0.0, 0.0));
  }
}

TEST(KernelControlFlowTest, EarlyReturnOnARunTimeCondition) {
  auto k = compileKernel("triton_poi_fused_mul_0.py", {{"XBLOCK", 128}});
  constexpr int n = 300;
  const std::vector<float> x = randomFloats(n, 43, -1, 1);
  Buffer in = makeBuffer("arg0_1", DType::Float32, x);
  Buffer out = outputBuffer("buf0", n);
  Buffer marks = makeBuffer("buf1", DType::Int32, std::vector<int32_t>(5, 0));
  std::vector<Argument> args{pointerArg(in), pointerArg(out), pointerArg(marks), intArg(n)};
  // Three programs cover 300 elements; programs 3 and 4 return before any store.
  runLaunch(*k.function, Grid{5, 1, 1}, args);
  std::vector<float> expected(n);
  for (int i = 0; i < n; ++i)
    expected[i] = x[i] * 2.0f;
  EXPECT_TRUE(allEqual(bitsOf(floatsOf(out, n)), bitsOf(expected)));
  EXPECT_TRUE(allEqual(contents<int32_t>(marks), std::vector<int32_t>{1, 1, 1, 0, 0}));
}

TEST(KernelControlFlowTest, TlRangeLoopWithRunTimeBounds) {
  auto k = compileKernel("triton_red_fused_sum_1.py", {{"XBLOCK", 2}, {"R0_BLOCK", 128}});
  struct Case {
    int rows, cols, stride;
  };
  for (const Case c : {Case{5, 1000, 1000}, Case{3, 37, 40}, Case{4, 0, 8}}) {
    SCOPED_TRACE("rows " + std::to_string(c.rows) + " cols " + std::to_string(c.cols));
    const std::vector<float> x = randomFloats(static_cast<size_t>(std::max(1, c.rows * c.stride)), 44, -1, 1);
    Buffer in = makeBuffer("arg0_1", DType::Float32, x);
    Buffer out = outputBuffer("buf0", c.rows);
    std::vector<Argument> args{pointerArg(in), pointerArg(out), intArg(c.stride), intArg(c.rows),
                               intArg(c.cols)};
    runLaunch(*k.function, Grid{ceilDiv(c.rows, 2), 1, 1}, args);
    std::vector<double> expected(c.rows, 0.0);
    for (int r = 0; r < c.rows; ++r)
      for (int j = 0; j < c.cols; ++j)
        expected[r] += x[r * c.stride + j];
    EXPECT_TRUE(allClose(floatsOf(out, c.rows), expected, kTol, kTol));
  }
}

TEST(KernelMemoryTest, MaskedOffOutOfRangeAddressesDoNotFault) {
  for (int64_t xblock : {16, 128}) {
    SCOPED_TRACE("XBLOCK " + std::to_string(xblock));
    auto k = compileKernel("triton_poi_fused_constant_pad_nd_0.py", {{"XBLOCK", xblock}});
    const std::vector<float> x = randomFloats(4 * 16, 45, -1, 1);
    // Exactly the tensor: the first padding lane addresses element -1, the last element 64.
    Buffer in = makeBuffer("arg0_1", DType::Float32, x);
    Buffer out = outputBuffer("buf0", 4 * 18);
    std::vector<Argument> args{pointerArg(in), pointerArg(out), intArg(72)};
    runLaunch(*k.function, Grid{ceilDiv(72, xblock), 1, 1}, args);
    std::vector<float> expected(72);
    for (int r = 0; r < 4; ++r)
      for (int c = 0; c < 18; ++c)
        expected[r * 18 + c] = (c >= 1 && c <= 16) ? x[r * 16 + c - 1] : 0.0f;
    EXPECT_TRUE(allEqual(bitsOf(floatsOf(out, 72)), bitsOf(expected)));
  }
}

TEST(KernelMemoryTest, UnmaskedOutOfBoundsLoadNamesTheBuffer) {
  auto k = compileKernel("triton_poi_fused_clone_1.py", {{"XBLOCK", 64}});
  // In bounds: a plain copy.
  {
    const std::vector<float> x = randomFloats(256, 46, -1, 1);
    Buffer in = makeBuffer("arg0_1", DType::Float32, x);
    Buffer out = outputBuffer("buf0", 256, 0);
    std::vector<Argument> args{pointerArg(in), pointerArg(out), intArg(256)};
    runLaunch(*k.function, Grid{4, 1, 1}, args);
    EXPECT_TRUE(allEqual(bitsOf(contents<float>(out)), bitsOf(x)));
  }
  // The output holds 200 elements; program 3 writes 192..255.
  {
    const std::vector<float> x = randomFloats(256, 51, -1, 1);
    Buffer in = makeBuffer("arg0_1", DType::Float32, x);
    Buffer out = outputBuffer("buf3", 200, 0);
    std::vector<Argument> args{pointerArg(in), pointerArg(out), intArg(256)};
    try {
      runLaunch(*k.function, Grid{4, 1, 1}, args);
      ADD_FAILURE() << "no error for an out-of-bounds store";
    } catch (const core::RuntimeError &e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("buf3"), std::string::npos) << what;
      EXPECT_NE(what.find("program (3, 0, 0)"), std::string::npos) << what;
    }
  }
  // The input holds 200 elements; program 3 reads 192..255.
  const std::vector<float> x = randomFloats(200, 47, -1, 1);
  Buffer in = makeBuffer("primals_7", DType::Float32, x);
  Buffer out = outputBuffer("buf0", 256, 0);
  std::vector<Argument> args{pointerArg(in), pointerArg(out), intArg(256)};
  try {
    runLaunch(*k.function, Grid{4, 1, 1}, args);
    ADD_FAILURE() << "no error for an out-of-bounds load";
  } catch (const core::RuntimeError &e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("primals_7"), std::string::npos) << what;
    EXPECT_NE(what.find("triton_poi_fused_clone_1"), std::string::npos) << what;
    EXPECT_NE(what.find("program (3, 0, 0)"), std::string::npos) << what;
  }
}

} // namespace
} // namespace npusim::reference
