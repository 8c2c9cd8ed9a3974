#pragma once
// The vector GEMM (internal): products of at most kVectorGemmRows rows, the
// query of a decode step's attention or a batch-1 GEMV, on the vector unit
// instead of the arrays. A weight-stationary array loads a whole B tile to
// stream one row through it; the vector unit multiplies B's tile by the row
// broadcast and sums once at the end, so the product runs at the speed B's
// bytes arrive (docs/library-kernels.md, "Vector GEMM").
#include "library/plan_support.h"

#include <optional>

namespace npusim::library::detail {

/// The most rows of A the vector GEMM takes (each row is one more multiply
/// per element of B's tile).
constexpr int64_t kVectorGemmRows = 4;

struct VectorTiles {
  /// The tile's rows are batches (one column of the product per program)
  /// rather than columns of one batch: a product with few columns.
  bool rowsAreBatches = false;
  /// B's tile is [BLOCK_K, BLOCK_R] (its rows contiguous in memory), else
  /// [BLOCK_R, BLOCK_K].
  bool reductionFirst = false;
  int64_t blockR = 1, blockK = 1;
};

/// The tiles of the vector GEMM for `batches` products [m, k] x [k, n], B's
/// strides `bStride` (batch, k, n); nothing when m is over kVectorGemmRows or
/// the grid would pass its limits.
std::optional<VectorTiles> chooseVectorTiles(int64_t m, int64_t n, int64_t k, int64_t batches,
                                             const std::vector<int64_t> &bStride, const MachineShape &machine);

/// The launch of the vector GEMM C = A @ B (rank-3 views, batch first).
KernelLaunch vectorGemmLaunch(const TensorRef &a, const TensorRef &b, const TensorRef &c, const VectorTiles &t);

} // namespace npusim::library::detail
