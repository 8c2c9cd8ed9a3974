// Shape operations: splat, broadcast, permute, slice (reshape and expand_dims keep the
// row-major order and are plain copies in the executor).
#include "reference/kernels.h"

#include <algorithm>

namespace npusim::reference {
namespace {

/// dst (row-major over `shape`) [index] = src[sum index_d * stride_d].
template <class T>
void stridedCopy(const T *src, const ir::Shape &shape, const std::vector<int64_t> &stride, T *dst) {
  const int rank = static_cast<int>(shape.size());
  if (rank == 0) {
    dst[0] = src[0];
    return;
  }
  const int64_t inner = shape[rank - 1];
  const int64_t innerStride = stride[rank - 1];
  const int64_t outerCount = ir::numElements(shape) / inner;
  std::vector<int64_t> index(static_cast<size_t>(rank), 0);
  int64_t base = 0;
  for (int64_t o = 0; o < outerCount; ++o) {
    T *d = dst + o * inner;
    if (innerStride == 0)
      std::fill(d, d + inner, src[base]);
    else if (innerStride == 1)
      std::copy(src + base, src + base + inner, d);
    else
      for (int64_t k = 0; k < inner; ++k)
        d[k] = src[base + k * innerStride];
    for (int dim = rank - 2; dim >= 0; --dim) {
      ++index[dim];
      base += stride[dim];
      if (index[dim] < shape[dim])
        break;
      base -= stride[dim] * shape[dim];
      index[dim] = 0;
    }
  }
}

std::vector<int64_t> rowMajorStrides(const ir::Shape &shape) {
  std::vector<int64_t> stride(shape.size());
  int64_t s = 1;
  for (size_t d = shape.size(); d-- > 0;) {
    stride[d] = s;
    s *= shape[d];
  }
  return stride;
}

/// As stridedCopy, from a's element `first` on.
void stridedCopyTile(const Tile &a, const ir::Shape &shape, const std::vector<int64_t> &stride, Tile &r,
                     int64_t first = 0) {
  if (a.storage() == Storage::Float)
    stridedCopy(a.f() + first, shape, stride, r.f());
  else
    stridedCopy(a.i() + first, shape, stride, r.i());
  if (a.poisoned())
    stridedCopy(a.poison() + first, shape, stride, r.poisonForWrite());
}

std::vector<int64_t> broadcastStrides(const ir::Shape &from, const ir::Shape &to) {
  std::vector<int64_t> stride(to.size(), 0);
  if (!from.empty()) {
    stride = rowMajorStrides(from);
    for (size_t d = 0; d < to.size(); ++d)
      if (from[d] == 1)
        stride[d] = 0;
  }
  return stride;
}

ir::Shape permutedShape(const ir::Shape &from, const std::vector<int> &order, std::vector<int64_t> &stride) {
  const std::vector<int64_t> sourceStride = rowMajorStrides(from);
  ir::Shape to(order.size());
  stride.assign(order.size(), 0);
  for (size_t i = 0; i < order.size(); ++i) {
    to[i] = from[static_cast<size_t>(order[i])];
    stride[i] = sourceStride[static_cast<size_t>(order[i])];
  }
  return to;
}

} // namespace

void splatOp(const Tile &scalar, Tile &r, int64_t n) {
  if (scalar.poisoned() && scalar.poison()[0])
    std::fill(r.poisonForWrite(), r.poisonForWrite() + n, scalar.poison()[0]);
  if (scalar.storage() == Storage::Float)
    std::fill(r.f(), r.f() + n, scalar.f()[0]);
  else
    std::fill(r.i(), r.i() + n, scalar.i()[0]);
}

// Both also carry the operand's poison along.
void broadcastOp(const Tile &a, const ir::Shape &from, const ir::Shape &to, Tile &r) {
  stridedCopyTile(a, to, broadcastStrides(from, to), r);
}

void permuteOp(const Tile &a, const ir::Shape &from, const std::vector<int> &order, Tile &r) {
  std::vector<int64_t> stride;
  const ir::Shape to = permutedShape(from, order, stride);
  stridedCopyTile(a, to, stride, r);
}

void sliceOp(const Tile &a, const ir::Shape &from, int axis, int64_t start, const ir::Shape &to, Tile &r) {
  const std::vector<int64_t> stride = rowMajorStrides(from);
  stridedCopyTile(a, to, stride, r, start * stride[static_cast<size_t>(axis)]);
}

} // namespace npusim::reference
