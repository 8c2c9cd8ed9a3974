// The fp32 multiply of the systolic arrays: C[M, N] += A[M, K] B[K, N] with
// every product and every sum rounded to float and each C element summed over
// k in increasing order, so it gives exactly what a scalar loop gives. The
// kernel keeps a block of MR rows x NR columns of C in vector registers over
// the whole k loop; products and sums stay separate operations (no fused
// multiply-add, which rounds once: the module is compiled with
// -ffp-contract=off). target_clones picks the widest vector unit of the host
// at load time; every variant computes the same bits.
#include "functional/machine.h"

namespace npusim::functional::detail {
namespace {

constexpr int kWidth = static_cast<int>(kFloat32GemmWidth);
typedef float Vec __attribute__((vector_size(kWidth * sizeof(float))));

// Everything below is inlined into the clones of multiplyFloat32, so that it
// compiles for each clone's vector unit (and no vector crosses a call).

/// MR rows and NV vectors of columns of C, from column n on.
template <int MR, int NV>
[[gnu::always_inline]] inline void block(const float *a, const float *b, float *c, int64_t rows, int64_t ld,
                                         int64_t m, int64_t n) {
  Vec acc[MR][NV];
  for (int r = 0; r < MR; ++r)
    for (int v = 0; v < NV; ++v)
      __builtin_memcpy(&acc[r][v], c + (m + r) * ld + n + v * kWidth, sizeof(Vec));
  for (int64_t k = 0; k < rows; ++k) {
    Vec bk[NV];
    for (int v = 0; v < NV; ++v)
      __builtin_memcpy(&bk[v], b + k * ld + n + v * kWidth, sizeof(Vec));
    for (int r = 0; r < MR; ++r) {
      const float x = a[(m + r) * rows + k];
      const Vec av = {x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x};
      for (int v = 0; v < NV; ++v) {
        const Vec product = av * bk[v];
        acc[r][v] = acc[r][v] + product;
      }
    }
  }
  for (int r = 0; r < MR; ++r)
    for (int v = 0; v < NV; ++v)
      __builtin_memcpy(c + (m + r) * ld + n + v * kWidth, &acc[r][v], sizeof(Vec));
}

template <int MR>
[[gnu::always_inline]] inline void rowBlock(const float *a, const float *b, float *c, int64_t rows,
                                            int64_t ld, int64_t m) {
  int64_t n = 0;
  for (; n + 2 * kWidth <= ld; n += 2 * kWidth)
    block<MR, 2>(a, b, c, rows, ld, m, n);
  for (; n < ld; n += kWidth)
    block<MR, 1>(a, b, c, rows, ld, m, n);
}

} // namespace

__attribute__((target_clones("avx512f", "avx2", "default"))) void
multiplyFloat32(const float *a, const float *b, float *c, int64_t M, int64_t rows, int64_t ld) {
  int64_t m = 0;
  for (; m + 4 <= M; m += 4)
    rowBlock<4>(a, b, c, rows, ld, m);
  for (; m < M; ++m)
    rowBlock<1>(a, b, c, rows, ld, m);
}

} // namespace npusim::functional::detail
