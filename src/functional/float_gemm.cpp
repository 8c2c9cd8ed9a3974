// The fp32 multiply of the systolic arrays: C[M, N] += A[M, K] B[K, N] with
// every product and every sum rounded to float and each C element summed over
// k in increasing order, so it gives exactly what a scalar loop gives. The
// kernel keeps a block of MR rows x NV vectors of C in vector registers over
// the whole k loop; products and sums stay separate operations (no fused
// multiply-add, which rounds once: the module is compiled with
// -ffp-contract=off).
//
// Each instruction set gets a variant whose vector is that unit's register
// width (16 floats for AVX-512, 8 for AVX2, 4 for SSE2): a vector wider than
// the registers would be split into several and spill the accumulators to the
// stack, which made the AVX2 path several times slower than its registers
// allow. The variant is chosen once, from what the host supports; every
// variant computes the same bits.
#include "functional/machine.h"

namespace npusim::functional::detail {
namespace {

// Everything below is inlined into the variants, so that it compiles for each
// variant's vector unit (and no vector crosses a call).

/// MR rows and NV vectors of W columns of C, from column n on.
template <int W, int MR, int NV>
[[gnu::always_inline]] inline void block(const float *a, const float *b, float *c, int64_t rows, int64_t ld,
                                         int64_t m, int64_t n) {
  typedef float Vec __attribute__((vector_size(W * sizeof(float))));
  Vec acc[MR][NV];
  for (int r = 0; r < MR; ++r)
    for (int v = 0; v < NV; ++v)
      __builtin_memcpy(&acc[r][v], c + (m + r) * ld + n + v * W, sizeof(Vec));
  for (int64_t k = 0; k < rows; ++k) {
    Vec bk[NV];
    for (int v = 0; v < NV; ++v)
      __builtin_memcpy(&bk[v], b + k * ld + n + v * W, sizeof(Vec));
    for (int r = 0; r < MR; ++r) {
      const float x = a[(m + r) * rows + k]; // broadcast by the vector-scalar product
      for (int v = 0; v < NV; ++v) {
        const Vec product = x * bk[v];
        acc[r][v] = acc[r][v] + product;
      }
    }
  }
  for (int r = 0; r < MR; ++r)
    for (int v = 0; v < NV; ++v)
      __builtin_memcpy(c + (m + r) * ld + n + v * W, &acc[r][v], sizeof(Vec));
}

template <int W, int MR>
[[gnu::always_inline]] inline void rowBlock(const float *a, const float *b, float *c, int64_t rows,
                                            int64_t ld, int64_t m) {
  static_assert(kFloat32GemmWidth % W == 0, "a row of C is a whole number of vectors");
  int64_t n = 0;
  for (; n + 2 * W <= ld; n += 2 * W)
    block<W, MR, 2>(a, b, c, rows, ld, m, n);
  for (; n < ld; n += W)
    block<W, MR, 1>(a, b, c, rows, ld, m, n);
}

/// MR = 4 rows x 2 vectors keeps 8 accumulators, 2 rows of B and a broadcast
/// in registers: 11 of the 16 that SSE2 and AVX2 have.
template <int W>
[[gnu::always_inline]] inline void multiply(const float *a, const float *b, float *c, int64_t M, int64_t rows,
                                            int64_t ld) {
  int64_t m = 0;
  for (; m + 4 <= M; m += 4)
    rowBlock<W, 4>(a, b, c, rows, ld, m);
  for (; m < M; ++m)
    rowBlock<W, 1>(a, b, c, rows, ld, m);
}

__attribute__((target("avx512f"))) void multiplyAvx512(const float *a, const float *b, float *c, int64_t M,
                                                       int64_t rows, int64_t ld) {
  multiply<16>(a, b, c, M, rows, ld);
}

__attribute__((target("avx2"))) void multiplyAvx2(const float *a, const float *b, float *c, int64_t M,
                                                  int64_t rows, int64_t ld) {
  multiply<8>(a, b, c, M, rows, ld);
}

void multiplySse2(const float *a, const float *b, float *c, int64_t M, int64_t rows, int64_t ld) {
  multiply<4>(a, b, c, M, rows, ld);
}

} // namespace

std::vector<Float32GemmVariant> float32GemmVariants() {
  std::vector<Float32GemmVariant> variants;
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f"))
    variants.push_back({"avx512f", multiplyAvx512});
  if (__builtin_cpu_supports("avx2"))
    variants.push_back({"avx2", multiplyAvx2});
  variants.push_back({"sse2", multiplySse2});
  return variants;
}

void multiplyFloat32(const float *a, const float *b, float *c, int64_t M, int64_t rows, int64_t ld) {
  static const Float32GemmKernel kernel = float32GemmVariants().front().kernel;
  kernel(a, b, c, M, rows, ld);
}

} // namespace npusim::functional::detail
