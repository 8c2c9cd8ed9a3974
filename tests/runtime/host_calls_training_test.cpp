// aten.convolution_backward, aten._grouped_mm, transformers.grouped_mm_fallback
// and aten.histc on the host, against naive loops written here from the
// definitions (and hand arithmetic for histc).
#include "core/error.h"
#include "reference/host_calls.h"
#include "runtime/host_call_values.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

namespace npusim::reference {
namespace {

using namespace test;

HostCallValue none() {
  return HostCallValue{};
}

// ---------------------------------------------------------------- convolution_backward

struct BackwardCase {
  int64_t n, c, h, w, o, kh, kw, groups, sh, sw, ph, pw, dh, dw;
  std::vector<bool> mask;
};

/// Gradients from the definition of the forward convolution
///   y[n, o, oy, ox] = b[o] + sum_{c, ky, kx} x[n, g*cg + c, oy*s - p + ky*d, ...] * w[o, c, ky, kx]:
/// every term adds dy * w to dx, dy * x to dw, and dy to db.
void checkBackward(const BackwardCase &k) {
  const int64_t oh = (k.h + 2 * k.ph - k.dh * (k.kh - 1) - 1) / k.sh + 1;
  const int64_t ow = (k.w + 2 * k.pw - k.dw * (k.kw - 1) - 1) / k.sw + 1;
  const int64_t cg = k.c / k.groups, og = k.o / k.groups;
  const int64_t nx = k.n * k.c * k.h * k.w, nw = k.o * cg * k.kh * k.kw, ny = k.n * k.o * oh * ow;
  Buffer x = floats(nx, 21), wt = floats(nw, 22), dy = floats(ny, 23);
  constexpr double kUnwrittenValue = -555.0;
  Buffer dx = filled(nx, kUnwrittenValue), dw = filled(nw, kUnwrittenValue), db = filled(k.o, kUnwrittenValue);
  // x channels-last, the others contiguous.
  const std::vector<int64_t> xStride = {k.h * k.w * k.c, 1, k.w * k.c, k.c};
  const std::vector<int64_t> wStride = {cg * k.kh * k.kw, k.kh * k.kw, k.kw, 1};
  const std::vector<int64_t> yStride = {k.o * oh * ow, oh * ow, ow, 1};
  const TensorView xv = view(x, 0, {k.n, k.c, k.h, k.w}, xStride),
                   wv = view(wt, 0, {k.o, cg, k.kh, k.kw}, wStride);
  const TensorView dxv = view(dx, 0, {k.n, k.c, k.h, k.w}, xStride),
                   dwv = view(dw, 0, {k.o, cg, k.kh, k.kw}, wStride);
  const TensorView dbv = view(db, 0, {k.o}, {1});
  const std::vector<HostCallValue> args = {
      tensorValue(view(dy, 0, {k.n, k.o, oh, ow}, yStride)),
      tensorValue(xv),
      tensorValue(wv),
      intsValue({k.o}),
      intsValue({k.sh, k.sw}),
      intsValue({k.ph, k.pw}),
      intsValue({k.dh, k.dw}),
      boolValue(false),
      intsValue({0, 0}),
      intValue(k.groups),
      listValue({boolValue(k.mask[0]), boolValue(k.mask[1]), boolValue(k.mask[2])})};
  const std::vector<const TensorView *> outs = {&dxv, &dwv, &dbv};
  const std::vector<bool> defined = runHostCall("aten.convolution_backward", args, outs);
  EXPECT_EQ(defined, k.mask);

  std::vector<double> ex(static_cast<size_t>(nx)), ew(static_cast<size_t>(nw)), eb(static_cast<size_t>(k.o));
  auto at = [](const std::vector<int64_t> &s, int64_t a, int64_t b, int64_t c, int64_t d) {
    return a * s[0] + b * s[1] + c * s[2] + d * s[3];
  };
  for (int64_t n = 0; n < k.n; ++n)
    for (int64_t o = 0; o < k.o; ++o)
      for (int64_t y = 0; y < oh; ++y)
        for (int64_t xo = 0; xo < ow; ++xo) {
          const double g = el(dy, at(yStride, n, o, y, xo));
          eb[static_cast<size_t>(o)] += g;
          for (int64_t c = 0; c < cg; ++c)
            for (int64_t ky = 0; ky < k.kh; ++ky)
              for (int64_t kx = 0; kx < k.kw; ++kx) {
                const int64_t iy = y * k.sh - k.ph + ky * k.dh, ix = xo * k.sw - k.pw + kx * k.dw;
                if (iy < 0 || iy >= k.h || ix < 0 || ix >= k.w)
                  continue;
                const int64_t xi = at(xStride, n, (o / og) * cg + c, iy, ix), wi = at(wStride, o, c, ky, kx);
                ex[static_cast<size_t>(xi)] += g * el(wt, wi);
                ew[static_cast<size_t>(wi)] += g * el(x, xi);
              }
        }
  for (int64_t i = 0; i < nx; ++i)
    if (k.mask[0])
      expectNear(el(dx, i), ex[static_cast<size_t>(i)], "grad_input element " + std::to_string(i));
    else
      EXPECT_EQ(el(dx, i), kUnwrittenValue) << "grad_input written although output_mask[0] is false";
  for (int64_t i = 0; i < nw; ++i)
    if (k.mask[1])
      expectNear(el(dw, i), ew[static_cast<size_t>(i)], "grad_weight element " + std::to_string(i));
    else
      EXPECT_EQ(el(dw, i), kUnwrittenValue) << "grad_weight written although output_mask[1] is false";
  for (int64_t i = 0; i < k.o; ++i)
    if (k.mask[2])
      expectNear(el(db, i), eb[static_cast<size_t>(i)], "grad_bias element " + std::to_string(i));
    else
      EXPECT_EQ(el(db, i), kUnwrittenValue) << "grad_bias written although output_mask[2] is false";
}

TEST(LibraryConvolutionBackward, Plain) {
  checkBackward({2, 3, 5, 5, 4, 3, 3, 1, 1, 1, 0, 0, 1, 1, {true, true, true}});
}
TEST(LibraryConvolutionBackward, GroupsStridePaddingDilation) {
  checkBackward({2, 4, 7, 6, 6, 3, 2, 2, 2, 1, 1, 2, 1, 2, {true, true, true}});
}
TEST(LibraryConvolutionBackward, DepthwiseStridedWithoutInputGradient) {
  checkBackward({1, 4, 6, 6, 8, 3, 3, 4, 2, 2, 1, 1, 1, 1, {false, true, true}});
}
TEST(LibraryConvolutionBackward, InputGradientOnlyWithLargeStride) {
  // Stride 3 over a 2-wide kernel leaves input pixels no output reads: their gradient is 0.
  checkBackward({2, 2, 8, 8, 3, 2, 2, 1, 3, 3, 0, 0, 1, 1, {true, false, false}});
}

TEST(LibraryConvolutionBackward, TransposedIsAnError) {
  Buffer a = floats(64, 1);
  const TensorView t = view(a, 0, {1, 1, 2, 2}, {4, 4, 2, 1});
  const std::vector<HostCallValue> args = {tensorValue(t),
                                           tensorValue(t),
                                           tensorValue(t),
                                           none(),
                                           intsValue({1, 1}),
                                           intsValue({0, 0}),
                                           intsValue({1, 1}),
                                           boolValue(true),
                                           intsValue({0, 0}),
                                           intValue(1),
                                           listValue({boolValue(true), boolValue(true), boolValue(false)})};
  const std::vector<const TensorView *> outs = {&t, &t, nullptr};
  try {
    runHostCall("aten.convolution_backward", args, outs);
    FAIL() << "expected an error";
  } catch (const core::RuntimeError &e) {
    EXPECT_STREQ(e.what(), "aten.convolution_backward: argument 7 (transposed): the gradients of transposed "
                           "convolutions are not implemented");
  }
}

// ---------------------------------------------------------------- grouped matrix products

Buffer offsets(const std::vector<int64_t> &values) {
  Buffer b = filled(static_cast<int64_t>(values.size()), 0, core::DType::Int32);
  for (size_t i = 0; i < values.size(); ++i)
    storeIntegerElement(b, static_cast<int64_t>(i), values[i]);
  return b;
}

// Uneven groups over 9 rows: rows 0-2 use mat2[0], group 1 is empty, rows 3-6
// use mat2[2], rows 7 and 8 belong to no group (0).
TEST(LibraryGroupedMm, RowGroupsOfUnevenSizes) {
  const int64_t M = 9, K = 5, N = 3, G = 3;
  Buffer a = floats(M * K, 31), b = floats(G * N * K, 32), offs = offsets({3, 3, 7});
  for (const char *op : {"aten._grouped_mm", "transformers.grouped_mm_fallback"}) {
    Buffer out = filled(M * N, -9.0);
    const TensorView o = view(out, 0, {M, N}, {N, 1});
    // mat2 as [G, K, N] with column-major matrices (an nn.Linear weight seen through .transpose(-2, -1)).
    std::vector<HostCallValue> args = {tensorValue(view(a, 0, {M, K}, {K, 1})),
                                       tensorValue(view(b, 0, {G, K, N}, {N * K, 1, K})),
                                       tensorValue(view(offs, 0, {G}, {1}))};
    const std::vector<const TensorView *> outs = {&o};
    runHostCall(op, args, outs);
    for (int64_t i = 0; i < M; ++i)
      for (int64_t j = 0; j < N; ++j) {
        const int64_t g = i < 3 ? 0 : i < 7 ? 2 : -1;
        double s = 0;
        for (int64_t q = 0; g >= 0 && q < K; ++q)
          s += el(a, i * K + q) * el(b, g * N * K + j * K + q);
        expectNear(el(out, i * N + j), s,
                   std::string(op) + " at " + std::to_string(i) + "," + std::to_string(j));
      }
  }
}

TEST(LibraryGroupedMm, ColumnGroupsAndReductionGroupsAndBatched) {
  const int64_t M = 4, K = 6, N = 7, G = 3;
  Buffer a3 = floats(G * M * K, 41), b2 = floats(K * N, 42), offsN = offsets({2, 6, 7});
  Buffer out = filled(M * N, -9.0);
  const TensorView o = view(out, 0, {M, N}, {N, 1});
  runHostCall("aten._grouped_mm",
              std::vector<HostCallValue>{tensorValue(view(a3, 0, {G, M, K}, {M * K, K, 1})),
                                         tensorValue(view(b2, 0, {K, N}, {N, 1})),
                                         tensorValue(view(offsN, 0, {G}, {1}))},
              std::vector<const TensorView *>{&o});
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      const int64_t g = j < 2 ? 0 : j < 6 ? 1 : 2;
      double s = 0;
      for (int64_t q = 0; q < K; ++q)
        s += el(a3, g * M * K + i * K + q) * el(b2, q * N + j);
      expectNear(el(out, i * N + j), s, "3-D x 2-D at " + std::to_string(i) + "," + std::to_string(j));
    }

  // 2-D x 2-D: group g sums k over offs[g-1]..offs[g]; group 1 is empty (0).
  Buffer a2 = floats(M * K, 43), offsK = offsets({4, 4, 6});
  Buffer out3 = filled(G * M * N, -9.0);
  const TensorView o3 = view(out3, 0, {G, M, N}, {M * N, N, 1});
  runHostCall("aten._grouped_mm",
              std::vector<HostCallValue>{tensorValue(view(a2, 0, {M, K}, {K, 1})),
                                         tensorValue(view(b2, 0, {K, N}, {N, 1})),
                                         tensorValue(view(offsK, 0, {G}, {1}))},
              std::vector<const TensorView *>{&o3});
  const int64_t k0[] = {0, 4, 4}, k1[] = {4, 4, 6};
  for (int64_t g = 0; g < G; ++g)
    for (int64_t i = 0; i < M; ++i)
      for (int64_t j = 0; j < N; ++j) {
        double s = 0;
        for (int64_t q = k0[g]; q < k1[g]; ++q)
          s += el(a2, i * K + q) * el(b2, q * N + j);
        expectNear(el(out3, (g * M + i) * N + j), s, "2-D x 2-D group " + std::to_string(g));
      }

  // 3-D x 3-D without offs: a batched product.
  Buffer b3 = floats(G * K * N, 44);
  runHostCall("aten._grouped_mm",
              std::vector<HostCallValue>{tensorValue(view(a3, 0, {G, M, K}, {M * K, K, 1})),
                                         tensorValue(view(b3, 0, {G, K, N}, {K * N, N, 1}))},
              std::vector<const TensorView *>{&o3});
  for (int64_t g = 0; g < G; ++g)
    for (int64_t i = 0; i < M; ++i)
      for (int64_t j = 0; j < N; ++j) {
        double s = 0;
        for (int64_t q = 0; q < K; ++q)
          s += el(a3, (g * M + i) * K + q) * el(b3, (g * K + q) * N + j);
        expectNear(el(out3, (g * M + i) * N + j), s, "3-D x 3-D group " + std::to_string(g));
      }
}

TEST(LibraryGroupedMm, BadOffsetsAreErrors) {
  Buffer a = floats(20, 1), b = floats(40, 2), offs = offsets({3, 2});
  Buffer out = filled(12, 0);
  const TensorView o = view(out, 0, {4, 3}, {3, 1});
  const std::vector<HostCallValue> args = {tensorValue(view(a, 0, {4, 5}, {5, 1})),
                                           tensorValue(view(b, 0, {2, 5, 3}, {15, 3, 1})),
                                           tensorValue(view(offs, 0, {2}, {1}))};
  try {
    runHostCall("aten._grouped_mm", args, std::vector<const TensorView *>{&o});
    FAIL() << "expected an error";
  } catch (const core::RuntimeError &e) {
    EXPECT_STREQ(e.what(), "aten._grouped_mm: argument 2 (offs): offs[1] = 2: offsets must be nondecreasing, "
                           "from 0 to at most 4");
  }
}

// ---------------------------------------------------------------- histc

std::vector<double> histc(Buffer &in, int64_t n, int64_t bins, double lo, double hi) {
  Buffer out = filled(bins, -1.0);
  const TensorView o = view(out, 0, {bins}, {1});
  runHostCall("aten.histc",
              std::vector<HostCallValue>{tensorValue(view(in, 0, {n}, {1})), intValue(bins), floatValue(lo),
                                         floatValue(hi)},
              std::vector<const TensorView *>{&o});
  std::vector<double> r;
  for (int64_t i = 0; i < bins; ++i)
    r.push_back(el(out, i));
  return r;
}

TEST(LibraryHistc, BinsEdgesAndIgnoredElements) {
  // bins of width 0.75 over [0, 3]: 0 -> 0; 1 -> 1.33 -> 1; 2.5 -> 3.33 -> 3;
  // 3 -> 4, the last bin (3); -1, 4 and NaN are outside.
  const std::vector<double> values = {0.0, 1.0, 2.5, 3.0, -1.0, std::nan(""), 4.0};
  Buffer in = filled(7, 0);
  for (int64_t i = 0; i < 7; ++i)
    storeElement(in, i, values[static_cast<size_t>(i)]);
  EXPECT_EQ(histc(in, 7, 4, 0, 3), (std::vector<double>{1, 1, 0, 2}));
}

TEST(LibraryHistc, EqualBoundsTakeTheDataRange) {
  // min = max = 0: the range is the data's, [-2, 6]; 4 bins of width 2:
  // -2 -> 0, 1 -> 1.5 -> 1, 6 -> 4 -> 3, 5.9 -> 3.95 -> 3.
  Buffer in = filled(4, 0);
  const double values[] = {-2.0, 1.0, 6.0, 5.9};
  for (int64_t i = 0; i < 4; ++i)
    storeElement(in, i, values[i]);
  EXPECT_EQ(histc(in, 4, 4, 0, 0), (std::vector<double>{1, 1, 0, 2}));
  // All equal (2): the range widens to [1, 3]; 2 bins: 2 -> 1.
  Buffer same = filled(3, 2.0);
  EXPECT_EQ(histc(same, 3, 2, 0, 0), (std::vector<double>{0, 3}));
}

TEST(LibraryHistc, InvalidRangeIsAnError) {
  Buffer in = filled(3, 1.0);
  try {
    histc(in, 3, 4, 2, 1);
    FAIL() << "expected an error";
  } catch (const core::RuntimeError &e) {
    EXPECT_NE(std::string(e.what()).find("aten.histc: argument 2 (min): max must be larger than min"),
              std::string::npos)
        << e.what();
  }
}

} // namespace
} // namespace npusim::reference
