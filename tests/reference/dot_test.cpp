// tl.dot: fp32 (IEEE and tf32), fp16/bf16 inputs, int8 with int32 accumulation,
// batched 3-D, and a Triton mm template looping over K.
#include "reference/kernel_support.h"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>

namespace npusim::reftest {
namespace {

Value *dot(Builder &b, Value *a, Value *bb, Value *acc,
           ir::InputPrecision precision = ir::InputPrecision::IEEE) {
  ir::Op *op = b.create(OpCode::Dot, {a, bb, acc}, {acc->type});
  op->inputPrecision = precision;
  return op->result();
}

std::vector<float> pattern(int n, float scale, int mul, int mod) {
  std::vector<float> v(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i)
    v[static_cast<size_t>(i)] = scale * static_cast<float>((i * mul) % mod - mod / 2) + 1.0f / 3.0f;
  return v;
}

// tf32 rounding written independently of the interpreter: scale the mantissa
// to 11 significant bits and round it to nearest even with nearbyint.
float tf32(float x) {
  int e = 0;
  const double m = std::frexp(static_cast<double>(x), &e); // |m| in [0.5, 1)
  return static_cast<float>(std::ldexp(std::nearbyint(std::ldexp(m, 11)), e - 11));
}

// Reference: c[m][n] = acc[m][n] + sum_k a[m][k] * b[k][n], each product and
// each sum rounded to float, k ascending.
std::vector<float> matmul(const std::vector<float> &a, const std::vector<float> &b,
                          const std::vector<float> &acc, int M, int K, int N) {
  std::vector<float> c = acc;
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) {
      float s = c[static_cast<size_t>(m * N + n)];
      for (int k = 0; k < K; ++k) {
        const float p = a[static_cast<size_t>(m * K + k)] * b[static_cast<size_t>(k * N + n)];
        s = s + p;
      }
      c[static_cast<size_t>(m * N + n)] = s;
    }
  return c;
}

TEST(Dot, Fp32IeeeAndTf32) {
  const int M = 16, K = 8, N = 32;
  const std::vector<float> a = pattern(M * K, 0.37f, 7, 23), b = pattern(K * N, 0.11f, 5, 19),
                           acc = pattern(M * N, 0.5f, 3, 7);
  Buffer ba = makeBuffer("a", DType::Float32, a), bb = makeBuffer("b", DType::Float32, b),
         bc = makeBuffer("acc", DType::Float32, acc);
  Buffer ieee = makeBuffer("ieee", DType::Float32, std::vector<float>(M * N));
  Buffer tf = makeBuffer("tf32", DType::Float32, std::vector<float>(M * N));
  TileKernel k;
  Value *ta = k.input(ba, {M, K}), *tb = k.input(bb, {K, N}), *tc = k.input(bc, {M, N});
  k.output(ieee, dot(k.b, ta, tb, tc));
  k.output(tf, dot(k.b, ta, tb, tc, ir::InputPrecision::TF32));
  k.run();
  EXPECT_EQ(contents<float>(ieee), matmul(a, b, acc, M, K, N));
  std::vector<float> ra, rb;
  for (float v : a)
    ra.push_back(tf32(v));
  for (float v : b)
    rb.push_back(tf32(v));
  const std::vector<float> expected = matmul(ra, rb, acc, M, K, N);
  EXPECT_EQ(contents<float>(tf), expected);
  EXPECT_NE(expected, matmul(a, b, acc, M, K, N)); // the rounding matters for these inputs
}

TEST(Dot, HalfAndBfloat16InputsAccumulateInFp32) {
  const int M = 4, K = 16, N = 8;
  const std::vector<float> a = pattern(M * K, 0.3f, 5, 17), b = pattern(K * N, 0.7f, 3, 11);
  Buffer ha = halfBuffer("ha", a), hb = halfBuffer("hb", b);
  Buffer ga = bfloat16Buffer("ga", a), gb = bfloat16Buffer("gb", b);
  Buffer oh = makeBuffer("oh", DType::Float32, std::vector<float>(M * N));
  Buffer og = makeBuffer("og", DType::Float32, std::vector<float>(M * N));
  TileKernel k;
  Value *zero = k.b.constantFloat(DType::Float32, 0.0, {M, N});
  k.output(oh, dot(k.b, k.input(ha, {M, K}), k.input(hb, {K, N}), zero));
  k.output(og, dot(k.b, k.input(ga, {M, K}), k.input(gb, {K, N}), zero));
  k.run();
  const std::vector<float> zeros(M * N, 0.0f);
  EXPECT_EQ(contents<float>(oh), matmul(halfContents(ha), halfContents(hb), zeros, M, K, N));
  EXPECT_EQ(contents<float>(og), matmul(bfloat16Contents(ga), bfloat16Contents(gb), zeros, M, K, N));
}

TEST(Dot, Int8WithInt32AccumulatorWraps) {
  const int M = 2, K = 64, N = 4;
  std::vector<int8_t> a(M * K), b(K * N);
  for (int i = 0; i < M * K; ++i)
    a[static_cast<size_t>(i)] = static_cast<int8_t>(i % 2 ? -128 : 127 - i % 50);
  for (int i = 0; i < K * N; ++i)
    b[static_cast<size_t>(i)] = static_cast<int8_t>(i % 3 ? -128 : 100);
  std::vector<int32_t> acc(M * N, 2147483000); // forces wrap-around
  acc[1] = -5;
  Buffer ba = makeBuffer("a", DType::Int8, a), bb = makeBuffer("b", DType::Int8, b),
         bc = makeBuffer("acc", DType::Int32, acc),
         out = makeBuffer("out", DType::Int32, std::vector<int32_t>(M * N));
  TileKernel k;
  k.output(out, dot(k.b, k.input(ba, {M, K}), k.input(bb, {K, N}), k.input(bc, {M, N})));
  k.run();
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) {
      uint32_t s = static_cast<uint32_t>(acc[static_cast<size_t>(m * N + n)]);
      for (int kk = 0; kk < K; ++kk)
        s += static_cast<uint32_t>(static_cast<int32_t>(a[static_cast<size_t>(m * K + kk)]) *
                                   static_cast<int32_t>(b[static_cast<size_t>(kk * N + n)]));
      EXPECT_EQ(contents<int32_t>(out)[static_cast<size_t>(m * N + n)], static_cast<int32_t>(s));
    }
}

TEST(Dot, BatchedThreeDimensional) {
  const int B = 3, M = 2, K = 5, N = 3;
  const std::vector<float> a = pattern(B * M * K, 0.25f, 7, 13), b = pattern(B * K * N, 0.5f, 3, 9);
  Buffer ba = makeBuffer("a", DType::Float32, a), bb = makeBuffer("b", DType::Float32, b);
  Buffer out = makeBuffer("out", DType::Float32, std::vector<float>(B * M * N));
  TileKernel k;
  k.output(out, dot(k.b, k.input(ba, {B, M, K}), k.input(bb, {B, K, N}),
                    k.b.constantFloat(DType::Float32, 0.0, {B, M, N})));
  k.run();
  for (int batch = 0; batch < B; ++batch) {
    const std::vector<float> sa(a.begin() + batch * M * K, a.begin() + (batch + 1) * M * K);
    const std::vector<float> sb(b.begin() + batch * K * N, b.begin() + (batch + 1) * K * N);
    const std::vector<float> expected = matmul(sa, sb, std::vector<float>(M * N, 0.0f), M, K, N);
    for (int i = 0; i < M * N; ++i)
      EXPECT_EQ(contents<float>(out)[static_cast<size_t>(batch * M * N + i)],
                expected[static_cast<size_t>(i)]);
  }
}

// The shape of Inductor's mm template: a 2-D grid of [BM, BN] output blocks, a
// loop over K in BK steps carrying the accumulator, tl.dot in the loop body.
std::unique_ptr<ir::Function> mmTemplate(int N, int K, int BM, int BN, int BK) {
  auto owned = std::make_unique<ir::Function>("triton_tem_fused_mm_0");
  ir::Function &fn = *owned;
  Builder b(fn);
  Value *pa = fn.addParameter("arg_A", Type::pointer(DType::Float32));
  Value *pb = fn.addParameter("arg_B", Type::pointer(DType::Float32));
  Value *pc = fn.addParameter("out_ptr0", Type::pointer(DType::Float32));
  auto c32 = [&](int64_t v, ir::Shape s = {}) { return b.constantInt(DType::Int32, v, std::move(s)); };
  Value *rm =
      b.binary(OpCode::Add, b.splat(b.binary(OpCode::Mul, b.programId(0), c32(BM)), {BM}), b.arange(0, BM));
  Value *rn =
      b.binary(OpCode::Add, b.splat(b.binary(OpCode::Mul, b.programId(1), c32(BN)), {BN}), b.arange(0, BN));
  Value *acc0 = b.constantFloat(DType::Float32, 0.0, {BM, BN});
  ir::Op *loop = b.create(OpCode::For, {c32(0), c32(K), c32(BK), acc0}, {acc0->type});
  ir::Block *body = b.addRegion(loop, {Type::scalar(DType::Int32), acc0->type});
  b.setInsertionBlock(body);
  {
    Value *k0 = body->arguments[0];
    Value *rk = b.binary(OpCode::Add, b.splat(k0, {BK}), b.arange(0, BK));
    // A[rm, rk] at rm * K + rk; B[rk, rn] at rk * N + rn.
    Value *aoff = b.binary(OpCode::Add,
                           b.broadcast(b.binary(OpCode::Mul, b.expandDims(rm, 1), c32(K, {BM, 1})), {BM, BK}),
                           b.broadcast(b.expandDims(rk, 0), {BM, BK}));
    Value *boff = b.binary(OpCode::Add,
                           b.broadcast(b.binary(OpCode::Mul, b.expandDims(rk, 1), c32(N, {BK, 1})), {BK, BN}),
                           b.broadcast(b.expandDims(rn, 0), {BK, BN}));
    Value *ta = b.load(pointerPlus(b, pa, aoff), nullptr, nullptr);
    Value *tb = b.load(pointerPlus(b, pb, boff), nullptr, nullptr);
    b.yield({dot(b, ta, tb, body->arguments[1])});
  }
  b.setInsertionBlock(&fn.body());
  Value *coff = b.binary(OpCode::Add,
                         b.broadcast(b.binary(OpCode::Mul, b.expandDims(rm, 1), c32(N, {BM, 1})), {BM, BN}),
                         b.broadcast(b.expandDims(rn, 0), {BM, BN}));
  b.store(pointerPlus(b, pc, coff), loop->result(), nullptr);
  return owned;
}

TEST(Dot, MatmulTemplateLoopOverK) {
  const int M = 64, N = 32, K = 48;
  std::unique_ptr<ir::Function> fn = mmTemplate(N, K, 32, 16, 16);
  const std::vector<float> a = pattern(M * K, 0.05f, 11, 31), b = pattern(K * N, 0.02f, 13, 29);
  Buffer ba = makeBuffer("arg_A", DType::Float32, a), bb = makeBuffer("arg_B", DType::Float32, b);
  Buffer out = makeBuffer("out_ptr0", DType::Float32, std::vector<float>(M * N));
  std::vector<Argument> args{pointerArg(ba), pointerArg(bb), pointerArg(out)};
  reference::runLaunch(*fn, Grid{M / 32, N / 16, 1}, args);
  // The K blocks run in order and each accumulates k ascending, so the result
  // is the plain k-ordered sum.
  EXPECT_EQ(contents<float>(out), matmul(a, b, std::vector<float>(M * N, 0.0f), M, K, N));
}

} // namespace
} // namespace npusim::reftest
