// The host calls (src/reference/host_*.cpp) against naive loops written
// here independently: every expected value is computed element by element from
// the definition, in double, over the same strided storage.
#include "core/error.h"
#include "core/float16.h"
#include "core/operator_call.h"
#include "reference/host_calls.h"
#include "runtime/host_call_values.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <set>
#include <string>
#include <vector>

namespace npusim::reference {
namespace {

using core::DType;
using namespace test;

// ---------------------------------------------------------------- matrix products

// Every operator name the call schemas accept (what the Python package offers
// torch.compile's calls under) is one the host runs, aliases and overloads included.
TEST(LibraryOperators, EverySchemaNameIsImplemented) {
  for (std::string_view op : core::schemaOperators())
    EXPECT_TRUE(reference::isHostCall(op)) << op << " has a schema but no host implementation";
}

TEST(LibraryMatmul, MmWithTransposedAndPaddedOperands) {
  const int64_t M = 5, K = 7, N = 3;
  Buffer a = floats(K * M, 1);       // a stored transposed: a[i, k] at k * M + i
  Buffer b = floats(2 + K * 4, 2);   // b rows padded to 4, offset 2
  Buffer out = filled(M * 5, -77.0); // out rows padded to 5
  matmul(view(a, 0, {M, K}, {1, M}), view(b, 2, {K, N}, {4, 1}), view(out, 0, {M, N}, {5, 1}));
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < 5; ++j) {
      if (j >= N) {
        EXPECT_EQ(el(out, i * 5 + j), -77.0) << "padding written at " << i << "," << j;
        continue;
      }
      double s = 0;
      for (int64_t k = 0; k < K; ++k)
        s += el(a, k * M + i) * el(b, 2 + k * 4 + j);
      expectNear(el(out, i * 5 + j), s, "mm " + std::to_string(i) + "," + std::to_string(j));
    }
}

TEST(LibraryMatmul, MmWiderThanOnePanelOfTheSecondOperand) {
  // 1024 x 1100 doubles are more than the 2^20 read at once (host_matmul.cpp):
  // columns come in panels of 1024 and 76. b is stored transposed, as a
  // linear layer's weight; each element sums its products in order, as here.
  const int64_t M = 3, K = 1024, N = 1100;
  Buffer a = floats(M * K, 3);
  Buffer b = floats(N * K, 4); // b[k, j] at j * K + k
  Buffer out = filled(M * N, -77.0);
  matmul(view(a, 0, {M, K}, {K, 1}), view(b, 0, {K, N}, {1, K}), view(out, 0, {M, N}, {N, 1}));
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      double s = 0;
      for (int64_t k = 0; k < K; ++k)
        s += el(a, i * K + k) * el(b, j * K + k);
      ASSERT_EQ(el(out, i * N + j), static_cast<double>(static_cast<float>(s))) << "mm " << i << "," << j;
    }
}

TEST(LibraryMatmul, AddmmBroadcastsBiasWithBetaAndAlpha) {
  const int64_t M = 4, K = 6, N = 5;
  Buffer a = floats(M * K, 3), b = floats(K * N, 4), bias = floats(N, 5), out = filled(M * N, 0);
  addmm(view(bias, 0, {N}, {1}), view(a, 0, {M, K}, {K, 1}), view(b, 0, {K, N}, {1, K}), 0.5, 2.0,
        view(out, 0, {M, N}, {N, 1}));
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      double s = 0;
      for (int64_t k = 0; k < K; ++k)
        s += el(a, i * K + k) * el(b, j * K + k); // b is read transposed: b[k, j] at j * K + k
      expectNear(el(out, i * N + j), 0.5 * el(bias, j) + 2.0 * s, "addmm");
    }
}

TEST(LibraryMatmul, AddmmWithBetaZeroIgnoresNanInSelf) {
  Buffer a = floats(4, 1), b = floats(4, 2), self = filled(4, std::nan("")), out = filled(4, 0);
  addmm(view(self, 0, {2, 2}, {2, 1}), view(a, 0, {2, 2}, {2, 1}), view(b, 0, {2, 2}, {2, 1}), 0.0, 1.0,
        view(out, 0, {2, 2}, {2, 1}));
  for (int64_t i = 0; i < 4; ++i)
    EXPECT_FALSE(std::isnan(el(out, i)));
}

TEST(LibraryMatmul, BmmAndBaddbmmOverStridedBatches) {
  const int64_t B = 3, M = 4, K = 5, N = 2;
  Buffer a = floats(B * M * K * 2, 6); // batch stride doubled: every other block unused
  Buffer b = floats(B * K * N, 7);
  Buffer self = floats(M * N, 8);
  Buffer out = filled(B * M * N, 0), out2 = filled(B * M * N, 0);
  const TensorView av = view(a, 0, {B, M, K}, {2 * M * K, K, 1});
  const TensorView bv = view(b, 0, {B, K, N}, {K * N, 1, K}); // each batch's b stored transposed
  bmm(av, bv, view(out, 0, {B, M, N}, {M * N, N, 1}));
  baddbmm(view(self, 0, {1, M, N}, {0, N, 1}), av, bv, -1.5, 0.25, view(out2, 0, {B, M, N}, {M * N, N, 1}));
  for (int64_t p = 0; p < B; ++p)
    for (int64_t i = 0; i < M; ++i)
      for (int64_t j = 0; j < N; ++j) {
        double s = 0;
        for (int64_t k = 0; k < K; ++k)
          s += el(a, p * 2 * M * K + i * K + k) * el(b, p * K * N + j * K + k);
        expectNear(el(out, (p * M + i) * N + j), s, "bmm");
        expectNear(el(out2, (p * M + i) * N + j), -1.5 * el(self, i * N + j) + 0.25 * s, "baddbmm");
      }
}

TEST(LibraryMatmul, HalfAndBFloat16AccumulateWideAndRoundOnce) {
  const int64_t M = 3, K = 64, N = 3;
  for (DType t : {DType::Float16, DType::BFloat16}) {
    Buffer a = floats(M * K, 9, t), b = floats(K * N, 10, t), out = filled(M * N, 0, t);
    matmul(view(a, 0, {M, K}, {K, 1}), view(b, 0, {K, N}, {N, 1}), view(out, 0, {M, N}, {N, 1}));
    for (int64_t i = 0; i < M; ++i)
      for (int64_t j = 0; j < N; ++j) {
        double s = 0;
        for (int64_t k = 0; k < K; ++k)
          s += el(a, i * K + k) * el(b, k * N + j);
        const float f = static_cast<float>(s);
        const double rounded = t == DType::Float16 ? core::roundToHalf(f) : core::roundToBFloat16(f);
        EXPECT_EQ(el(out, i * N + j), rounded) << "dtype " << static_cast<int>(t);
      }
  }
}

TEST(LibraryMatmul, ShapeErrorsNameTheOperator) {
  Buffer a = floats(6, 1), out = filled(9, 0);
  try {
    matmul(view(a, 0, {2, 3}, {3, 1}), view(a, 0, {2, 3}, {3, 1}), view(out, 0, {2, 3}, {3, 1}));
    FAIL() << "expected an error";
  } catch (const core::RuntimeError &e) {
    EXPECT_NE(std::string(e.what()).find("aten.mm"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("inner sizes 3 and 2 differ"), std::string::npos) << e.what();
  }
}

// ---------------------------------------------------------------- convolution

struct ConvCase {
  int64_t n, c, h, w, o, kh, kw, groups, sh, sw, ph, pw, dh, dw;
  bool bias, channelsLast;
};

/// Direct convolution from the definition: out[n, o, y, x] = bias[o] +
/// sum over c in o's group, ky, kx of in[n, c, y*s - p + ky*d, ...] * w[o, c', ky, kx].
void checkConv2d(const ConvCase &k) {
  const int64_t oh = (k.h + 2 * k.ph - k.dh * (k.kh - 1) - 1) / k.sh + 1;
  const int64_t ow = (k.w + 2 * k.pw - k.dw * (k.kw - 1) - 1) / k.sw + 1;
  const int64_t cg = k.c / k.groups, og = k.o / k.groups;
  Buffer in = floats(k.n * k.c * k.h * k.w, 11), wt = floats(k.o * cg * k.kh * k.kw, 12),
         bias = floats(k.o, 13);
  Buffer out = filled(k.n * k.o * oh * ow, std::nan(""));
  // Input strides: NCHW or NHWC.
  const std::vector<int64_t> inStride = k.channelsLast
                                            ? std::vector<int64_t>{k.h * k.w * k.c, 1, k.w * k.c, k.c}
                                            : std::vector<int64_t>{k.c * k.h * k.w, k.h * k.w, k.w, 1};
  const std::vector<int64_t> outStride = k.channelsLast
                                             ? std::vector<int64_t>{oh * ow * k.o, 1, ow * k.o, k.o}
                                             : std::vector<int64_t>{k.o * oh * ow, oh * ow, ow, 1};
  const std::vector<int64_t> wStride = k.channelsLast
                                           ? std::vector<int64_t>{k.kh * k.kw * cg, 1, k.kw * cg, cg}
                                           : std::vector<int64_t>{cg * k.kh * k.kw, k.kh * k.kw, k.kw, 1};
  ConvolutionParams p;
  p.stride = {k.sh, k.sw};
  p.padding = {k.ph, k.pw};
  p.dilation = {k.dh, k.dw};
  p.outputPadding = {0, 0};
  p.groups = k.groups;
  const TensorView bv = view(bias, 0, {k.o}, {1});
  convolution(view(in, 0, {k.n, k.c, k.h, k.w}, inStride), view(wt, 0, {k.o, cg, k.kh, k.kw}, wStride),
              k.bias ? &bv : nullptr, p, view(out, 0, {k.n, k.o, oh, ow}, outStride));
  auto at = [](const std::vector<int64_t> &s, int64_t a, int64_t b, int64_t c, int64_t d) {
    return a * s[0] + b * s[1] + c * s[2] + d * s[3];
  };
  for (int64_t n = 0; n < k.n; ++n)
    for (int64_t o = 0; o < k.o; ++o)
      for (int64_t y = 0; y < oh; ++y)
        for (int64_t x = 0; x < ow; ++x) {
          double s = k.bias ? el(bias, o) : 0.0;
          const int64_t g = o / og;
          for (int64_t c = 0; c < cg; ++c)
            for (int64_t ky = 0; ky < k.kh; ++ky)
              for (int64_t kx = 0; kx < k.kw; ++kx) {
                const int64_t iy = y * k.sh - k.ph + ky * k.dh, ix = x * k.sw - k.pw + kx * k.dw;
                if (iy < 0 || iy >= k.h || ix < 0 || ix >= k.w)
                  continue;
                s += el(in, at(inStride, n, g * cg + c, iy, ix)) * el(wt, at(wStride, o, c, ky, kx));
              }
          expectNear(el(out, at(outStride, n, o, y, x)), s,
                     "conv at " + std::to_string(n) + "," + std::to_string(o) + "," + std::to_string(y) +
                         "," + std::to_string(x));
        }
}

TEST(LibraryConvolution, Plain) {
  checkConv2d({1, 3, 8, 8, 4, 3, 3, 1, 1, 1, 0, 0, 1, 1, true, false});
}
TEST(LibraryConvolution, StridePaddingNoBias) {
  checkConv2d({2, 3, 9, 7, 5, 3, 2, 1, 2, 3, 1, 2, 1, 1, false, false});
}
TEST(LibraryConvolution, Dilation) {
  checkConv2d({1, 2, 11, 10, 3, 3, 3, 1, 1, 2, 2, 1, 2, 3, true, false});
}
TEST(LibraryConvolution, Groups) {
  checkConv2d({2, 6, 7, 7, 4, 3, 3, 2, 2, 1, 1, 1, 1, 2, true, false});
}
TEST(LibraryConvolution, DepthwiseChannelsLast) {
  checkConv2d({2, 4, 6, 5, 8, 3, 3, 4, 1, 2, 1, 1, 1, 1, true, true});
}
TEST(LibraryConvolution, ResNetStemShape) {
  checkConv2d({1, 3, 20, 20, 8, 7, 7, 1, 2, 2, 3, 3, 1, 1, false, true});
}

TEST(LibraryConvolution, OneAndThreeSpatialAxes) {
  // 1-d: in [1, 2, 9], w [3, 2, 3], stride 2, padding 1, dilation 2 -> (9 + 2 - 4 - 1) / 2 + 1 = 4.
  Buffer in = floats(18, 21), w = floats(18, 22), out = filled(12, 0);
  ConvolutionParams p;
  p.stride = {2};
  p.padding = {1};
  p.dilation = {2};
  p.outputPadding = {0};
  convolution(view(in, 0, {1, 2, 9}, {18, 9, 1}), view(w, 0, {3, 2, 3}, {6, 3, 1}), nullptr, p,
              view(out, 0, {1, 3, 4}, {12, 4, 1}));
  for (int64_t o = 0; o < 3; ++o)
    for (int64_t x = 0; x < 4; ++x) {
      double s = 0;
      for (int64_t c = 0; c < 2; ++c)
        for (int64_t k = 0; k < 3; ++k) {
          const int64_t ix = x * 2 - 1 + k * 2;
          if (ix >= 0 && ix < 9)
            s += el(in, c * 9 + ix) * el(w, o * 6 + c * 3 + k);
        }
      expectNear(el(out, o * 4 + x), s, "conv1d");
    }
  // 3-d: in [1, 1, 4, 4, 4], w [2, 1, 2, 2, 2], stride 1, padding 0 -> [1, 2, 3, 3, 3].
  Buffer in3 = floats(64, 23), w3 = floats(16, 24), out3 = filled(54, 0);
  ConvolutionParams p3;
  p3.stride = {1, 1, 1};
  p3.padding = {0, 0, 0};
  p3.dilation = {1, 1, 1};
  convolution(view(in3, 0, {1, 1, 4, 4, 4}, {64, 64, 16, 4, 1}),
              view(w3, 0, {2, 1, 2, 2, 2}, {8, 8, 4, 2, 1}), nullptr, p3,
              view(out3, 0, {1, 2, 3, 3, 3}, {54, 27, 9, 3, 1}));
  for (int64_t o = 0; o < 2; ++o)
    for (int64_t z = 0; z < 3; ++z)
      for (int64_t y = 0; y < 3; ++y)
        for (int64_t x = 0; x < 3; ++x) {
          double s = 0;
          for (int64_t a = 0; a < 2; ++a)
            for (int64_t b = 0; b < 2; ++b)
              for (int64_t c = 0; c < 2; ++c)
                s += el(in3, (z + a) * 16 + (y + b) * 4 + (x + c)) * el(w3, o * 8 + a * 4 + b * 2 + c);
          expectNear(el(out3, o * 27 + z * 9 + y * 3 + x), s, "conv3d");
        }
}

TEST(LibraryConvolution, Transposed) {
  // in [1, 4, 3, 4], weight [4, 3, 3, 2] (in channels, out channels per group), groups 2,
  // stride [2, 3], padding [1, 0], dilation [1, 2], output_padding [1, 0].
  const int64_t C = 4, H = 3, W = 4, OG = 3, G = 2, KH = 3, KW = 2, sh = 2, sw = 3, ph = 1, pw = 0, dh = 1,
                dw = 2;
  const int64_t OH = (H - 1) * sh - 2 * ph + dh * (KH - 1) + 1 + 1; // output_padding 1
  const int64_t OW = (W - 1) * sw - 2 * pw + dw * (KW - 1) + 1;
  Buffer in = floats(C * H * W, 31), w = floats(C * OG * KH * KW, 32), bias = floats(OG * G, 33);
  Buffer out = filled(OG * G * OH * OW, 0);
  ConvolutionParams p;
  p.stride = {sh, sw};
  p.padding = {ph, pw};
  p.dilation = {dh, dw};
  p.transposed = true;
  p.outputPadding = {1, 0};
  p.groups = G;
  const TensorView bv = view(bias, 0, {OG * G}, {1});
  convolution(view(in, 0, {1, C, H, W}, {C * H * W, H * W, W, 1}),
              view(w, 0, {C, OG, KH, KW}, {OG * KH * KW, KH * KW, KW, 1}), &bv, p,
              view(out, 0, {1, OG * G, OH, OW}, {OG * G * OH * OW, OH * OW, OW, 1}));
  // Gather form: out[o, y, x] = bias + sum over c in o's group, ky, kx with
  // y = iy * sh - ph + ky * dh (and the same for x) of in[c, iy, ix] * w[c, o % OG, ky, kx].
  const int64_t CG = C / G;
  for (int64_t o = 0; o < OG * G; ++o)
    for (int64_t y = 0; y < OH; ++y)
      for (int64_t x = 0; x < OW; ++x) {
        double s = el(bias, o);
        const int64_t g = o / OG;
        for (int64_t c = g * CG; c < (g + 1) * CG; ++c)
          for (int64_t ky = 0; ky < KH; ++ky)
            for (int64_t kx = 0; kx < KW; ++kx) {
              const int64_t ny = y + ph - ky * dh, nx = x + pw - kx * dw;
              if (ny < 0 || nx < 0 || ny % sh || nx % sw || ny / sh >= H || nx / sw >= W)
                continue;
              s += el(in, (c * H + ny / sh) * W + nx / sw) * el(w, ((c * OG + o % OG) * KH + ky) * KW + kx);
            }
        expectNear(el(out, (o * OH + y) * OW + x), s, "transposed conv");
      }
}

TEST(LibraryConvolution, WrongOutputShapeIsAnError) {
  Buffer in = floats(16, 1), w = floats(9, 2), out = filled(16, 0);
  ConvolutionParams p;
  try {
    convolution(view(in, 0, {1, 1, 4, 4}, {16, 16, 4, 1}), view(w, 0, {1, 1, 3, 3}, {9, 9, 3, 1}), nullptr, p,
                view(out, 0, {1, 1, 4, 4}, {16, 16, 4, 1}));
    FAIL() << "expected an error";
  } catch (const core::RuntimeError &e) {
    EXPECT_NE(
        std::string(e.what()).find("aten.convolution: out has shape [1, 1, 4, 4]; expected [1, 1, 2, 2]"),
        std::string::npos)
        << e.what();
  }
}

// ---------------------------------------------------------------- attention

/// Naive attention from the definition, one (b, h, l) row at a time.
void checkAttention(int64_t B, int64_t H, int64_t HK, int64_t L, int64_t S, int64_t E, int64_t EV,
                    bool causal, int maskKind /*0 none, 1 bool [L, S], 2 float [B, 1, L, S]*/,
                    std::optional<double> scale, int64_t lsePad) {
  Buffer q = floats(B * H * L * E, 41), k = floats(B * HK * S * E, 42), v = floats(B * HK * S * EV, 43);
  Buffer mb = filled(L * S, 0, DType::Bool), mf = floats(B * L * S, 44);
  for (int64_t i = 0; i < L * S; ++i)
    storeIntegerElement(mb, i, (i * 7 + 3) % 5 != 0 || i % S == 0); // key 0 always takes part
  Buffer out = filled(B * H * L * EV, 0), lse = filled(B * H * lsePad, 0);
  // q is laid out [B, L, H, E] (as after a transpose), k and v contiguous.
  const TensorView qv = view(q, 0, {B, H, L, E}, {L * H * E, E, H * E, 1});
  const TensorView maskBool = view(mb, 0, {L, S}, {S, 1});
  const TensorView maskFloat = view(mf, 0, {B, 1, L, S}, {L * S, 0, S, 1});
  AttentionParams p;
  p.isCausal = causal;
  p.scale = scale;
  p.mask = maskKind == 1 ? &maskBool : maskKind == 2 ? &maskFloat : nullptr;
  const TensorView lseView = view(lse, 0, {B, H, lsePad}, {H * lsePad, lsePad, 1});
  scaledDotProductAttention(qv, view(k, 0, {B, HK, S, E}, {HK * S * E, S * E, E, 1}),
                            view(v, 0, {B, HK, S, EV}, {HK * S * EV, S * EV, EV, 1}), p,
                            view(out, 0, {B, H, L, EV}, {H * L * EV, L * EV, EV, 1}), &lseView);
  const double sc = scale ? *scale : 1.0 / std::sqrt(static_cast<double>(E));
  for (int64_t b = 0; b < B; ++b)
    for (int64_t h = 0; h < H; ++h) {
      const int64_t hk = h / (H / HK);
      for (int64_t i = 0; i < L; ++i) {
        std::vector<double> w(static_cast<size_t>(S));
        double total = 0;
        for (int64_t j = 0; j < S; ++j) {
          double s = 0;
          for (int64_t c = 0; c < E; ++c)
            s += el(q, ((b * L + i) * H + h) * E + c) * el(k, ((b * HK + hk) * S + j) * E + c);
          s *= sc;
          bool allowed = !(causal && j > i);
          if (maskKind == 1)
            allowed = allowed && loadIntegerElement(mb, i * S + j) != 0;
          if (maskKind == 2)
            s += el(mf, (b * L + i) * S + j);
          w[static_cast<size_t>(j)] = allowed ? std::exp(s) : 0.0;
          total += w[static_cast<size_t>(j)];
        }
        for (int64_t c = 0; c < EV; ++c) {
          double o = 0;
          for (int64_t j = 0; j < S; ++j)
            o += w[static_cast<size_t>(j)] / total * el(v, ((b * HK + hk) * S + j) * EV + c);
          expectNear(el(out, ((b * H + h) * L + i) * EV + c), o, "attention output");
        }
        expectNear(el(lse, (b * H + h) * lsePad + i), std::log(total), "logsumexp");
      }
      for (int64_t i = L; i < lsePad; ++i)
        EXPECT_EQ(el(lse, (b * H + h) * lsePad + i), std::numeric_limits<double>::infinity());
    }
}

TEST(LibraryAttention, Plain) {
  checkAttention(2, 2, 2, 5, 6, 4, 3, false, 0, std::nullopt, 5);
}
TEST(LibraryAttention, CausalWithScale) {
  checkAttention(1, 3, 3, 6, 6, 8, 8, true, 0, 0.3, 6);
}
TEST(LibraryAttention, BoolMaskAndPaddedLogsumexp) {
  checkAttention(1, 2, 2, 5, 7, 4, 4, false, 1, std::nullopt, 32);
}
TEST(LibraryAttention, FloatMaskCausalGroupedQuery) {
  checkAttention(2, 4, 2, 4, 4, 2, 5, true, 2, std::nullopt, 4);
}

TEST(LibraryAttention, EfficientAttentionCallLeavesPhiloxOutputsUndefined) {
  Buffer q = floats(16, 1), k = floats(16, 2), v = floats(16, 3), out = filled(16, 0), lse = filled(32, 0);
  Buffer seed = filled(1, 0, DType::Int64), offset = filled(1, 0, DType::Int64);
  auto tensor = [](TensorView t) {
    HostCallValue value;
    value.kind = HostCallValue::Kind::Tensor;
    value.tensor = std::move(t);
    return value;
  };
  HostCallValue none, yes, zero, no;
  yes.kind = HostCallValue::Kind::Bool;
  yes.boolValue = true;
  zero.kind = HostCallValue::Kind::Float;
  no.kind = HostCallValue::Kind::Bool;
  const std::vector<HostCallValue> args = {tensor(view(q, 0, {1, 1, 4, 4}, {16, 16, 4, 1})),
                                           tensor(view(k, 0, {1, 1, 4, 4}, {16, 16, 4, 1})),
                                           tensor(view(v, 0, {1, 1, 4, 4}, {16, 16, 4, 1})),
                                           none,
                                           yes,
                                           zero,
                                           no,
                                           none};
  const TensorView o = view(out, 0, {1, 1, 4, 4}, {16, 16, 4, 1}), l = view(lse, 0, {1, 1, 32}, {32, 32, 1});
  const TensorView s = view(seed, 0, {}, {}), f = view(offset, 0, {}, {});
  const std::vector<const TensorView *> outs = {&o, &l, &s, &f};
  const std::vector<bool> defined = runHostCall("aten._scaled_dot_product_efficient_attention", args, outs);
  EXPECT_EQ(defined, (std::vector<bool>{true, true, false, false}));
  EXPECT_EQ(el(lse, 31), std::numeric_limits<double>::infinity());
  EXPECT_TRUE(std::isfinite(el(lse, 3)));
}

// ---------------------------------------------------------------- dispatch and other ops

TEST(LibraryDispatch, UnknownOperatorIsNotImplemented) {
  EXPECT_TRUE(isHostCall("aten.convolution"));
  EXPECT_FALSE(isHostCall("aten.nonzero"));
  try {
    runHostCall("aten.nonzero", {}, {});
    FAIL() << "expected an error";
  } catch (const core::RuntimeError &e) {
    EXPECT_STREQ(e.what(), "library call aten.nonzero is not implemented");
  }
}

TEST(LibraryDispatch, ArgumentErrorsNameThePosition) {
  Buffer a = floats(4, 1);
  const std::vector<HostCallValue> args = {tensorValue(view(a, 0, {2, 2}, {2, 1})), intValue(3)};
  const TensorView o = view(a, 0, {2, 2}, {2, 1});
  const std::vector<const TensorView *> outs = {&o};
  try {
    runHostCall("aten.mm", args, outs);
    FAIL() << "expected an error";
  } catch (const core::RuntimeError &e) {
    EXPECT_STREQ(e.what(), "aten.mm: argument 1 (mat2): expected a tensor, got an integer");
  }
}

TEST(LibraryOps, SoftmaxCumsumAlongAStridedAxis) {
  Buffer x = floats(12, 51), out = filled(12, 0), cs = filled(12, 0);
  const TensorView xv = view(x, 0, {3, 4}, {1, 3}); // transposed storage
  const std::vector<HostCallValue> args = {tensorValue(xv), intValue(1), boolValue(false)};
  const TensorView o = view(out, 0, {3, 4}, {4, 1}), c = view(cs, 0, {3, 4}, {4, 1});
  const std::vector<const TensorView *> outs = {&o}, outs2 = {&c};
  runHostCall("aten._softmax", args, outs);
  const std::vector<HostCallValue> cargs = {tensorValue(xv), intValue(-1)};
  runHostCall("aten.cumsum", cargs, outs2);
  for (int64_t i = 0; i < 3; ++i) {
    double total = 0, run = 0;
    for (int64_t j = 0; j < 4; ++j)
      total += std::exp(el(x, j * 3 + i));
    for (int64_t j = 0; j < 4; ++j) {
      run += el(x, j * 3 + i);
      expectNear(el(out, i * 4 + j), std::exp(el(x, j * 3 + i)) / total, "softmax");
      expectNear(el(cs, i * 4 + j), run, "cumsum");
    }
  }
}

TEST(LibraryOps, NativeLayerNorm) {
  Buffer x = floats(12, 52), w = floats(4, 53), b = floats(4, 54);
  Buffer out = filled(12, 0), mean = filled(3, 0), rstd = filled(3, 0);
  HostCallValue eps;
  eps.kind = HostCallValue::Kind::Float;
  eps.floatValue = 1e-5;
  const std::vector<HostCallValue> args = {tensorValue(view(x, 0, {3, 4}, {4, 1})), listValue({intValue(4)}),
                                           tensorValue(view(w, 0, {4}, {1})),
                                           tensorValue(view(b, 0, {4}, {1})), eps};
  const TensorView o = view(out, 0, {3, 4}, {4, 1}), m = view(mean, 0, {3, 1}, {1, 1}),
                   r = view(rstd, 0, {3, 1}, {1, 1});
  const std::vector<const TensorView *> outs = {&o, &m, &r};
  runHostCall("aten.native_layer_norm", args, outs);
  for (int64_t i = 0; i < 3; ++i) {
    double mu = 0, var = 0;
    for (int64_t j = 0; j < 4; ++j)
      mu += el(x, i * 4 + j) / 4;
    for (int64_t j = 0; j < 4; ++j)
      var += (el(x, i * 4 + j) - mu) * (el(x, i * 4 + j) - mu) / 4;
    expectNear(el(mean, i), mu, "mean");
    expectNear(el(rstd, i), 1 / std::sqrt(var + 1e-5), "rstd");
    for (int64_t j = 0; j < 4; ++j)
      expectNear(el(out, i * 4 + j), (el(x, i * 4 + j) - mu) / std::sqrt(var + 1e-5) * el(w, j) + el(b, j),
                 "ln");
  }
}

TEST(LibraryOps, SortAndTopk) {
  Buffer x = filled(6, 0);
  const double values[] = {3, std::nan(""), -1, 3, 7, 0};
  for (int i = 0; i < 6; ++i)
    storeElement(x, i, values[i]);
  Buffer sv = filled(6, 0), si = filled(6, 0, DType::Int64), tv = filled(2, 0),
         ti = filled(2, 0, DType::Int64);
  const TensorView a = view(sv, 0, {6}, {1}), b = view(si, 0, {6}, {1}), c = view(tv, 0, {2}, {1}),
                   d = view(ti, 0, {2}, {1});
  const std::vector<const TensorView *> sortOuts = {&a, &b}, topOuts = {&c, &d};
  runHostCall("aten.sort",
              std::vector<HostCallValue>{tensorValue(view(x, 0, {6}, {1})), intValue(0), boolValue(false)},
              sortOuts);
  const int64_t order[] = {2, 5, 0, 3, 4, 1}; // ascending, ties stable, NaN last
  for (int i = 0; i < 6; ++i)
    EXPECT_EQ(loadIntegerElement(si, i), order[i]);
  EXPECT_TRUE(std::isnan(el(sv, 5)));
  runHostCall("aten.topk", std::vector<HostCallValue>{tensorValue(view(x, 0, {6}, {1})), intValue(2)},
              topOuts);
  EXPECT_EQ(loadIntegerElement(ti, 0), 1); // NaN is the largest
  EXPECT_EQ(loadIntegerElement(ti, 1), 4);
}

TEST(LibraryOps, MaxPoolWithIndices) {
  Buffer x = floats(2 * 5 * 5, 55), out = filled(2 * 3 * 3, 0), idx = filled(18, 0, DType::Int64);
  const TensorView o = view(out, 0, {1, 2, 3, 3}, {18, 9, 3, 1}),
                   i = view(idx, 0, {1, 2, 3, 3}, {18, 9, 3, 1});
  const std::vector<const TensorView *> outs = {&o, &i};
  runHostCall("aten.max_pool2d_with_indices",
              std::vector<HostCallValue>{tensorValue(view(x, 0, {1, 2, 5, 5}, {50, 25, 5, 1})),
                                         listValue({intValue(3), intValue(3)}),
                                         listValue({intValue(2), intValue(2)}),
                                         listValue({intValue(1), intValue(1)}),
                                         listValue({intValue(1), intValue(1)}), boolValue(false)},
              outs);
  for (int64_t c = 0; c < 2; ++c)
    for (int64_t y = 0; y < 3; ++y)
      for (int64_t xx = 0; xx < 3; ++xx) {
        double best = -INFINITY;
        int64_t at = -1;
        for (int64_t ky = 0; ky < 3; ++ky)
          for (int64_t kx = 0; kx < 3; ++kx) {
            const int64_t iy = y * 2 - 1 + ky, ix = xx * 2 - 1 + kx;
            if (iy >= 0 && iy < 5 && ix >= 0 && ix < 5 && el(x, c * 25 + iy * 5 + ix) > best) {
              best = el(x, c * 25 + iy * 5 + ix);
              at = iy * 5 + ix;
            }
          }
        EXPECT_EQ(el(out, c * 9 + y * 3 + xx), best);
        EXPECT_EQ(loadIntegerElement(idx, c * 9 + y * 3 + xx), at);
      }
}

TEST(LibraryOps, ScatterAddIndexAndEmbeddingBackward) {
  // scatter_add along dim 0 of a [3, 2] tensor.
  Buffer self = floats(6, 56), src = floats(6, 57), index = filled(4, 0, DType::Int64), out = filled(6, 0);
  const int64_t idx[] = {2, 0, 2, 2}; // index [2, 2]
  for (int i = 0; i < 4; ++i)
    storeIntegerElement(index, i, idx[i]);
  const TensorView o = view(out, 0, {3, 2}, {2, 1});
  const std::vector<const TensorView *> outs = {&o};
  runHostCall("aten.scatter_add",
              std::vector<HostCallValue>{tensorValue(view(self, 0, {3, 2}, {2, 1})), intValue(0),
                                         tensorValue(view(index, 0, {2, 2}, {2, 1})),
                                         tensorValue(view(src, 0, {3, 2}, {2, 1}))},
              outs);
  std::vector<double> expected(6);
  for (int i = 0; i < 6; ++i)
    expected[static_cast<size_t>(i)] = el(self, i);
  for (int r = 0; r < 2; ++r)
    for (int c = 0; c < 2; ++c)
      expected[static_cast<size_t>(idx[r * 2 + c] * 2 + c)] += el(src, r * 2 + c);
  for (int i = 0; i < 6; ++i)
    expectNear(el(out, i), expected[static_cast<size_t>(i)], "scatter_add");

  // index(self [3, 4], [None, idx [2]]) -> [3, 2]: columns 3 and -4.
  Buffer table = floats(12, 58), cols = filled(2, 0, DType::Int64), picked = filled(6, 0);
  storeIntegerElement(cols, 0, 3);
  storeIntegerElement(cols, 1, -4);
  HostCallValue none;
  const TensorView p = view(picked, 0, {3, 2}, {2, 1});
  const std::vector<const TensorView *> pouts = {&p};
  runHostCall("aten.index",
              std::vector<HostCallValue>{tensorValue(view(table, 0, {3, 4}, {4, 1})),
                                         listValue({none, tensorValue(view(cols, 0, {2}, {1}))})},
              pouts);
  for (int r = 0; r < 3; ++r) {
    EXPECT_EQ(el(picked, r * 2), el(table, r * 4 + 3));
    EXPECT_EQ(el(picked, r * 2 + 1), el(table, r * 4 + 0));
  }

  // embedding_dense_backward: grad [4, 2], indices [4] = {1, 0, 1, 3}, 4 weights, padding_idx 3.
  Buffer grad = floats(8, 59), ids = filled(4, 0, DType::Int64), gw = filled(8, 0);
  const int64_t ii[] = {1, 0, 1, 3};
  for (int i = 0; i < 4; ++i)
    storeIntegerElement(ids, i, ii[i]);
  const TensorView g = view(gw, 0, {4, 2}, {2, 1});
  const std::vector<const TensorView *> gouts = {&g};
  runHostCall("aten.embedding_dense_backward",
              std::vector<HostCallValue>{tensorValue(view(grad, 0, {4, 2}, {2, 1})),
                                         tensorValue(view(ids, 0, {4}, {1})), intValue(4), intValue(3),
                                         boolValue(true)},
              gouts);
  for (int d = 0; d < 2; ++d) {
    expectNear(el(gw, 0 * 2 + d), el(grad, 1 * 2 + d), "row 0");
    expectNear(el(gw, 1 * 2 + d), (el(grad, 0 * 2 + d) + el(grad, 2 * 2 + d)) / 2,
               "row 1 (scaled by frequency 2)");
    EXPECT_EQ(el(gw, 2 * 2 + d), 0.0);
    EXPECT_EQ(el(gw, 3 * 2 + d), 0.0); // padding_idx
  }
}

TEST(LibraryOps, EmbeddingGathersRowsInIndexShape) {
  // weight [4, 3] = 0.25 * i (row r holds 0.75 r, 0.75 r + 0.25, 0.75 r + 0.5); indices
  // [2, 2] = {{3, 0}, {3, 2}} with padding_idx 3 (only the gradient skips it) -> [2, 2, 3].
  Buffer weight = filled(12, 0), ids = filled(4, 0, DType::Int64), rows = filled(12, -1);
  for (int i = 0; i < 12; ++i)
    storeElement(weight, i, 0.25 * i);
  const int64_t ii[] = {3, 0, 3, 2};
  for (int i = 0; i < 4; ++i)
    storeIntegerElement(ids, i, ii[i]);
  const TensorView o = view(rows, 0, {2, 2, 3}, {6, 3, 1});
  const std::vector<const TensorView *> outs = {&o};
  runHostCall("aten.embedding",
              std::vector<HostCallValue>{tensorValue(view(weight, 0, {4, 3}, {3, 1})),
                                         tensorValue(view(ids, 0, {2, 2}, {2, 1})), intValue(3)},
              outs);
  for (int e = 0; e < 4; ++e)
    for (int d = 0; d < 3; ++d)
      EXPECT_EQ(el(rows, e * 3 + d), 0.75 * static_cast<double>(ii[e]) + 0.25 * d) << e << ", " << d;

  // A transposed weight view (columns of a [3, 4] buffer) gathers the same values.
  Buffer wt = filled(12, 0), picked = filled(3, -1);
  for (int r = 0; r < 4; ++r)
    for (int d = 0; d < 3; ++d)
      storeElement(wt, d * 4 + r, 0.75 * r + 0.25 * d);
  const TensorView p = view(picked, 0, {1, 3}, {3, 1});
  const std::vector<const TensorView *> pouts = {&p};
  runHostCall("aten.embedding",
              std::vector<HostCallValue>{tensorValue(view(wt, 0, {4, 3}, {1, 4})),
                                         tensorValue(view(ids, 3, {1}, {1}))},
              pouts);
  for (int d = 0; d < 3; ++d)
    EXPECT_EQ(el(picked, d), 0.75 * 2 + 0.25 * d); // ids element 3 is 2

  // An index out of range names the argument and the element.
  storeIntegerElement(ids, 1, 4);
  try {
    runHostCall("aten.embedding",
                std::vector<HostCallValue>{tensorValue(view(weight, 0, {4, 3}, {3, 1})),
                                           tensorValue(view(ids, 0, {2, 2}, {2, 1}))},
                outs);
    FAIL() << "index 4 of 4 weights was accepted";
  } catch (const std::exception &e) {
    EXPECT_NE(std::string(e.what()).find("element 1 is 4, out of range for 4 weights"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("indices"), std::string::npos) << e.what();
  }
}

TEST(LibraryOps, ScatterAssignsSourceOrValueAlongADim) {
  // self [2, 3] = 0.5 * i; index [2, 2] = {{2, 0}, {1, 1}} along dim 1:
  // row 0 gets columns 2 and 0, row 1 gets column 1 twice (the second wins).
  Buffer self = filled(6, 0), src = filled(6, 0), index = filled(4, 0, DType::Int64), out = filled(6, -1);
  for (int i = 0; i < 6; ++i) {
    storeElement(self, i, 0.5 * i);
    storeElement(src, i, 10.0 + i); // src [2, 3]; only its [2, 2] corner is read
  }
  const int64_t ix[] = {2, 0, 1, 1};
  for (int i = 0; i < 4; ++i)
    storeIntegerElement(index, i, ix[i]);
  const TensorView o = view(out, 0, {2, 3}, {3, 1});
  const std::vector<const TensorView *> outs = {&o};
  runHostCall("aten.scatter.src",
              std::vector<HostCallValue>{tensorValue(view(self, 0, {2, 3}, {3, 1})), intValue(1),
                                         tensorValue(view(index, 0, {2, 2}, {2, 1})),
                                         tensorValue(view(src, 0, {2, 3}, {3, 1}))},
              outs);
  // src corner: row 0 = 10, 11; row 1 = 13, 14.
  const double fromSource[] = {11.0, 0.5, 10.0, 1.5, 14.0, 2.5};
  for (int i = 0; i < 6; ++i)
    EXPECT_EQ(el(out, i), fromSource[i]) << "src, element " << i;
  // In place with a value, along dim -1.
  const TensorView s = view(self, 0, {2, 3}, {3, 1});
  const std::vector<const TensorView *> inPlace = {&s};
  runHostCall("aten.scatter_.value",
              std::vector<HostCallValue>{tensorValue(s), intValue(-1),
                                         tensorValue(view(index, 0, {2, 2}, {2, 1})), floatValue(-3.0)},
              inPlace);
  const double fromValue[] = {-3.0, 0.5, -3.0, 1.5, -3.0, 2.5};
  for (int i = 0; i < 6; ++i)
    EXPECT_EQ(el(self, i), fromValue[i]) << "value, element " << i;
}

TEST(LibraryOps, IndexPutAssignsAndAccumulatesInIndexOrder) {
  // self [4, 2] = 0..7 (as 0.5 * i); rows {2, 0, 2} get values [3, 2] (rows 10, 20, 30
  // plus column): accumulate sums rows 2's two contributions onto its old value.
  Buffer self = filled(8, 0), vals = filled(6, 0), rows = filled(3, 0, DType::Int64), out = filled(8, -1);
  for (int i = 0; i < 8; ++i)
    storeElement(self, i, 0.5 * i);
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 2; ++c)
      storeElement(vals, r * 2 + c, 10.0 * (r + 1) + c);
  const int64_t rr[] = {2, 0, 2};
  for (int i = 0; i < 3; ++i)
    storeIntegerElement(rows, i, rr[i]);
  const auto args = [&](bool accumulate) {
    return std::vector<HostCallValue>{tensorValue(view(self, 0, {4, 2}, {2, 1})),
                                      listValue({tensorValue(view(rows, 0, {3}, {1}))}),
                                      tensorValue(view(vals, 0, {3, 2}, {2, 1})), boolValue(accumulate)};
  };
  const TensorView o = view(out, 0, {4, 2}, {2, 1});
  const std::vector<const TensorView *> outs = {&o};
  runHostCall("aten.index_put", args(true), outs);
  // Row 0: 0.0 + 20, 0.5 + 21; row 2: 2.0 + 10 + 30, 2.5 + 11 + 31; rows 1, 3 unchanged.
  const double accumulated[] = {20.0, 21.5, 1.0, 1.5, 42.0, 44.5, 3.0, 3.5};
  for (int i = 0; i < 8; ++i)
    EXPECT_EQ(el(out, i), accumulated[i]) << "accumulate, element " << i;
  runHostCall("aten.index_put", args(false), outs);
  // Without accumulate the last write to row 2 wins (30, 31).
  const double assigned[] = {20.0, 21.0, 1.0, 1.5, 30.0, 31.0, 3.0, 3.5};
  for (int i = 0; i < 8; ++i)
    EXPECT_EQ(el(out, i), assigned[i]) << "assign, element " << i;
  // In place: self is the output; a broadcast value [2] goes to every indexed row.
  const TensorView s = view(self, 0, {4, 2}, {2, 1});
  const std::vector<const TensorView *> inPlace = {&s};
  runHostCall("aten.index_put_",
              std::vector<HostCallValue>{tensorValue(s), listValue({tensorValue(view(rows, 0, {3}, {1}))}),
                                         tensorValue(view(vals, 0, {2}, {1})), boolValue(true)},
              inPlace);
  const double inPlaceWant[] = {10.0, 11.5, 1.0, 1.5, 22.0, 24.5, 3.0, 3.5};
  for (int i = 0; i < 8; ++i)
    EXPECT_EQ(el(self, i), inPlaceWant[i]) << "in place, element " << i;
  // An index out of range is an error naming the operator.
  storeIntegerElement(rows, 1, 4);
  EXPECT_THROW(runHostCall("aten.index_put", args(false), outs), core::RuntimeError);
}

TEST(LibraryOps, CopyBroadcastsAndConvertsExactly) {
  Buffer src = filled(3, 0, DType::Int64), dst = filled(6, 0, DType::Int64);
  for (int i = 0; i < 3; ++i)
    storeIntegerElement(src, i, (int64_t{1} << 60) + i);
  const TensorView d = view(dst, 0, {2, 3}, {3, 1});
  const std::vector<const TensorView *> outs = {&d};
  runHostCall("aten.copy_", std::vector<HostCallValue>{tensorValue(d), tensorValue(view(src, 0, {3}, {1}))},
              outs);
  for (int i = 0; i < 6; ++i)
    EXPECT_EQ(loadIntegerElement(dst, i), (int64_t{1} << 60) + i % 3);
}

HostCallValue floatValue(double f) {
  HostCallValue v;
  v.kind = HostCallValue::Kind::Float;
  v.floatValue = f;
  return v;
}

TEST(LibraryElementwise, BinaryBroadcastScalarAndInPlace) {
  Buffer a = floats(6, 61), b = floats(3, 62), out = filled(6, 0);
  const TensorView o = view(out, 0, {2, 3}, {3, 1});
  const std::vector<const TensorView *> outs = {&o};
  runHostCall("aten.add.Tensor",
              std::vector<HostCallValue>{tensorValue(view(a, 0, {2, 3}, {1, 2})),
                                         tensorValue(view(b, 0, {3}, {1})), floatValue(0.5)},
              outs);
  for (int64_t i = 0; i < 2; ++i)
    for (int64_t j = 0; j < 3; ++j)
      EXPECT_EQ(el(out, i * 3 + j),
                static_cast<double>(static_cast<float>(el(a, j * 2 + i) + 0.5 * el(b, j))));
  // mul by a number, then sub_ in place (self is also the result).
  Buffer c = floats(4, 63), d = floats(4, 64);
  const double c0 = el(c, 1), d0 = el(d, 1);
  const TensorView cv = view(c, 0, {4}, {1});
  const std::vector<const TensorView *> cOut = {&cv};
  runHostCall("aten.sub_.Tensor",
              std::vector<HostCallValue>{tensorValue(cv), tensorValue(view(d, 0, {4}, {1})), intValue(2)},
              cOut);
  EXPECT_EQ(el(c, 1), static_cast<double>(static_cast<float>(c0 - 2 * d0)));
  runHostCall("aten.mul.Tensor",
              std::vector<HostCallValue>{tensorValue(view(d, 0, {4}, {1})), floatValue(0.01)}, cOut);
  EXPECT_EQ(el(c, 1), static_cast<double>(static_cast<float>(d0 * 0.01)));
}

TEST(LibraryElementwise, SumThresholdAndLosses) {
  Buffer x = floats(24, 65), sums = filled(3, 0);
  const TensorView s = view(sums, 0, {1, 3, 1}, {3, 1, 1});
  const std::vector<const TensorView *> outs = {&s};
  runHostCall("aten.sum.dim_IntList",
              std::vector<HostCallValue>{tensorValue(view(x, 0, {2, 3, 4}, {12, 4, 1})),
                                         listValue({intValue(0), intValue(-1)}), boolValue(true)},
              outs);
  for (int64_t k = 0; k < 3; ++k) {
    double t = 0;
    for (int64_t i = 0; i < 2; ++i)
      for (int64_t j = 0; j < 4; ++j)
        t += el(x, i * 12 + k * 4 + j);
    expectNear(el(sums, k), t, "sum.dim_IntList");
  }
  // nll_loss with mean reduction and an ignored row, forward and backward.
  Buffer logp = floats(6, 66), target = filled(3, 0, DType::Int64), loss = filled(1, 0), total = filled(1, 0);
  storeIntegerElement(target, 0, 1);
  storeIntegerElement(target, 1, -100);
  storeIntegerElement(target, 2, 0);
  const TensorView l = view(loss, 0, {}, {}), t = view(total, 0, {}, {});
  const std::vector<const TensorView *> lossOuts = {&l, &t};
  HostCallValue none;
  const std::vector<HostCallValue> args = {tensorValue(view(logp, 0, {3, 2}, {2, 1})),
                                           tensorValue(view(target, 0, {3}, {1})), none, intValue(1),
                                           intValue(-100)};
  runHostCall("aten.nll_loss_forward", args, lossOuts);
  expectNear(el(loss, 0), -(el(logp, 1) + el(logp, 4)) / 2, "nll mean");
  EXPECT_EQ(el(total, 0), 2.0);
  Buffer one = filled(1, 1.0), grad = filled(6, 7);
  const TensorView g = view(grad, 0, {3, 2}, {2, 1});
  const std::vector<const TensorView *> gradOuts = {&g};
  runHostCall("aten.nll_loss_backward",
              std::vector<HostCallValue>{tensorValue(view(one, 0, {}, {})), args[0], args[1], none,
                                         intValue(1), intValue(-100), tensorValue(t)},
              gradOuts);
  const double expected[] = {0, -0.5, 0, 0, -0.5, 0};
  for (int i = 0; i < 6; ++i)
    EXPECT_EQ(el(grad, i), expected[i]) << i;
}

TEST(LibraryElementwise, BatchNormTrainingUpdatesRunningStatistics) {
  const int64_t N = 2, C = 3, HW = 4;
  Buffer x = floats(N * C * HW, 67), rm = filled(C, 0.5), rv = filled(C, 2.0);
  Buffer out = filled(N * C * HW, 0), mean = filled(C, 0), invstd = filled(C, 0);
  const TensorView o = view(out, 0, {N, C, 2, 2}, {C * HW, HW, 2, 1}), m = view(mean, 0, {C}, {1}),
                   r = view(invstd, 0, {C}, {1});
  const std::vector<const TensorView *> outs = {&o, &m, &r};
  HostCallValue none;
  runHostCall("aten.native_batch_norm",
              std::vector<HostCallValue>{tensorValue(view(x, 0, {N, C, 2, 2}, {C * HW, HW, 2, 1})), none,
                                         none, tensorValue(view(rm, 0, {C}, {1})),
                                         tensorValue(view(rv, 0, {C}, {1})), boolValue(true), floatValue(0.1),
                                         floatValue(1e-5)},
              outs);
  for (int64_t c = 0; c < C; ++c) {
    double mu = 0, var = 0;
    for (int64_t n = 0; n < N; ++n)
      for (int64_t i = 0; i < HW; ++i)
        mu += el(x, (n * C + c) * HW + i) / (N * HW);
    for (int64_t n = 0; n < N; ++n)
      for (int64_t i = 0; i < HW; ++i)
        var += std::pow(el(x, (n * C + c) * HW + i) - mu, 2) / (N * HW);
    expectNear(el(mean, c), mu, "save_mean");
    expectNear(el(invstd, c), 1 / std::sqrt(var + 1e-5), "save_invstd");
    expectNear(el(rm, c), 0.9 * 0.5 + 0.1 * mu, "running_mean");
    expectNear(el(rv, c), 0.9 * 2.0 + 0.1 * var * (N * HW) / (N * HW - 1), "running_var (unbiased)");
    expectNear(el(out, c * HW + 1), (el(x, c * HW + 1) - mu) / std::sqrt(var + 1e-5), "out");
  }
}

TEST(LibraryTensor, SixteenBitStoresRoundOnceFromDouble) {
  // 1 + 2^-11 + 2^-40 is just above the half-way point between two fp16 values: a
  // single rounding goes up, rounding through fp32 first (to 1 + 2^-11) would tie to even (down).
  Buffer h = filled(1, 0, DType::Float16);
  storeElement(h, 0, 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40));
  EXPECT_EQ(el(h, 0), 1.0 + std::ldexp(1.0, -10));
  Buffer b = filled(1, 0, DType::BFloat16);
  storeElement(b, 0, 1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -40));
  EXPECT_EQ(el(b, 0), 1.0 + std::ldexp(1.0, -7));
  storeElement(h, 0, 65520.0); // rounds past the largest fp16 (65504): infinity
  EXPECT_TRUE(std::isinf(el(h, 0)));
  storeElement(h, 0, std::ldexp(1.0, -25) * 3); // subnormal: 1.5 quanta of 2^-24 -> 2 quanta
  EXPECT_EQ(el(h, 0), std::ldexp(1.0, -23));
}

// The host calls refuse what the NPU library refuses, with the schema's
// messages: too many arguments, and views whose shape and stride differ in
// length (which the host calls used to read past).
TEST(LibraryDispatch, SchemaChecksApplyToHostCalls) {
  Buffer a = floats(12, 1), out = filled(4, 0.0);
  const TensorView square = view(out, 0, {2, 2}, {2, 1});
  const TensorView *outs[] = {&square};
  auto message = [&](const std::string &op, const std::vector<HostCallValue> &args) -> std::string {
    try {
      runHostCall(op, args, outs);
    } catch (const core::RuntimeError &e) {
      return e.what();
    }
    return "no error";
  };
  const HostCallValue m = tensorValue(view(a, 0, {2, 2}, {2, 1}));
  EXPECT_EQ(message("aten.mm", {m, m, m}), "aten.mm: takes at most 2 arguments, got 3");
  EXPECT_EQ(message("aten.mm", {tensorValue(view(a, 0, {2, 2}, {1})), m}),
            "aten.mm: argument 0 (self): shape [2, 2] and stride [1] differ in length");
  EXPECT_EQ(message("aten.zero_", {tensorValue(view(a, 0, {3, 4}, {4}))}),
            "aten.zero_: argument 0 (self): shape [3, 4] and stride [4] differ in length");
  EXPECT_EQ(message("aten.mm.default", {m, m}), "no error"); // 2x2 @ 2x2 into out
}

} // namespace
} // namespace npusim::reference

namespace npusim::reference {
namespace {

using namespace test;

// randint.low_out without recorded values: npusim's own draws, inside [low, high),
// the same on every call, and not all one value.
TEST(LibraryRandom, RandintDrawsWithinTheRangeReproducibly) {
  Buffer a = filled(64, -1.0, DType::Int64), b = filled(64, -2.0, DType::Int64);
  const std::vector<HostCallValue> args = {intValue(-3), intValue(4), intsValue({8, 8})};
  TensorView va = view(a, 0, {8, 8}, {8, 1}), vb = view(b, 0, {8, 8}, {8, 1});
  const TensorView *outA[] = {&va}, *outB[] = {&vb};
  runHostCall("aten.randint.low_out", args, outA);
  runHostCall("aten.randint.low_out", args, outB);
  std::set<int64_t> seen;
  for (int64_t i = 0; i < 64; ++i) {
    const int64_t v = loadIntegerElement(a, i);
    EXPECT_GE(v, -3);
    EXPECT_LT(v, 4);
    EXPECT_EQ(v, loadIntegerElement(b, i)) << i;
    seen.insert(v);
  }
  EXPECT_GE(seen.size(), 5u); // 64 draws of 7 values
  const std::vector<HostCallValue> empty = {intValue(4), intValue(4), intsValue({8, 8})};
  EXPECT_THROW(runHostCall("aten.randint.low_out", empty, outA), core::RuntimeError);
}

} // namespace
} // namespace npusim::reference
