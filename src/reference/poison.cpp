// Propagation of division-by-zero poison through the tile operations. Rules
// are per element where the operation is elementwise, and conservative where it
// mixes elements (a reduction is poisoned if any element it combines is). A
// poison byte is 0 (clean) or the id of a division that produced it; combining
// keeps the largest id, so a poisoned element names one of its divisions.
#include "reference/kernels.h"

#include <algorithm>

namespace npusim::reference {

void orPoison(const Tile &a, Tile &r) {
  if (!a.poisoned())
    return;
  const uint8_t *p = a.poison();
  uint8_t *out = r.poisonForWrite();
  for (int64_t k = 0; k < r.size(); ++k)
    out[k] = std::max(out[k], p[k]);
}

void selectPoison(const Tile &cond, const Tile &a, const Tile &b, Tile &r) {
  if (!cond.poisoned() && !a.poisoned() && !b.poisoned())
    return;
  const int64_t *c = cond.i();
  uint8_t *out = r.poisonForWrite();
  for (int64_t k = 0; k < r.size(); ++k) {
    const Tile &chosen = c[k] ? a : b;
    const uint8_t fromCond = cond.poisoned() ? cond.poison()[k] : 0;
    const uint8_t fromValue = chosen.poisoned() ? chosen.poison()[k] : 0;
    out[k] = std::max({out[k], fromCond, fromValue});
  }
}

void reducePoison(const Tile &x, const AxisSplit &split, Tile &r) {
  if (!x.poisoned())
    return;
  uint8_t *out = r.poisonForWrite();
  for (int64_t o = 0; o < split.outer; ++o)
    for (int64_t k = 0; k < split.length; ++k)
      for (int64_t in = 0; in < split.inner; ++in)
        out[o * split.inner + in] = std::max(out[o * split.inner + in], x.poison()[split.at(o, k, in)]);
}

void scanPoison(const Tile &x, const AxisSplit &split, bool reverse, Tile &r) {
  if (!x.poisoned())
    return;
  uint8_t *out = r.poisonForWrite();
  for (int64_t o = 0; o < split.outer; ++o)
    for (int64_t in = 0; in < split.inner; ++in) {
      uint8_t running = 0;
      for (int64_t m = 0; m < split.length; ++m) {
        const int64_t at = split.at(o, reverse ? split.length - 1 - m : m, in);
        running = std::max(running, x.poison()[at]);
        out[at] = std::max(out[at], running);
      }
    }
}

void linePoison(const Tile &x, const AxisSplit &split, Tile &r) {
  if (!x.poisoned())
    return;
  uint8_t *out = r.poisonForWrite();
  for (int64_t o = 0; o < split.outer; ++o)
    for (int64_t in = 0; in < split.inner; ++in) {
      uint8_t any = 0;
      for (int64_t k = 0; k < split.length; ++k)
        any = std::max(any, x.poison()[split.at(o, k, in)]);
      for (int64_t k = 0; any && k < split.length; ++k)
        out[split.at(o, k, in)] = std::max(out[split.at(o, k, in)], any);
    }
}

void dotPoison(const ir::Type &aType, const ir::Type &bType, const Tile &a, const Tile &b, const Tile &acc,
               Tile &r) {
  if (!a.poisoned() && !b.poisoned() && !acc.poisoned())
    return;
  const int rank = aType.rank();
  const int64_t batch = rank == 3 ? aType.shape[0] : 1;
  const int64_t m = aType.shape[static_cast<size_t>(rank - 2)],
                kk = aType.shape[static_cast<size_t>(rank - 1)];
  const int64_t n = bType.shape[static_cast<size_t>(rank - 1)];
  uint8_t *out = r.poisonForWrite();
  orPoison(acc, r);
  std::vector<uint8_t> rows(static_cast<size_t>(m)), cols(static_cast<size_t>(n));
  for (int64_t bi = 0; bi < batch; ++bi) {
    std::fill(rows.begin(), rows.end(), uint8_t{0});
    std::fill(cols.begin(), cols.end(), uint8_t{0});
    for (int64_t i = 0; a.poisoned() && i < m; ++i)
      for (int64_t k = 0; k < kk; ++k)
        rows[static_cast<size_t>(i)] =
            std::max(rows[static_cast<size_t>(i)], a.poison()[(bi * m + i) * kk + k]);
    for (int64_t k = 0; b.poisoned() && k < kk; ++k)
      for (int64_t j = 0; j < n; ++j)
        cols[static_cast<size_t>(j)] =
            std::max(cols[static_cast<size_t>(j)], b.poison()[(bi * kk + k) * n + j]);
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j)
        out[(bi * m + i) * n + j] =
            std::max({out[(bi * m + i) * n + j], rows[static_cast<size_t>(i)], cols[static_cast<size_t>(j)]});
  }
}

void poisonAll(Tile &r, uint8_t id) {
  uint8_t *out = r.poisonForWrite();
  for (int64_t k = 0; k < r.size(); ++k)
    out[k] = std::max(out[k], id);
}

} // namespace npusim::reference
