// Reductions, scans and sort along one axis.
//
// Order of evaluation: a reduction is a sequential left fold along the axis,
// acc = x[0]; acc = f(acc, x[k]) for k = 1, 2, ..., each step rounded to the
// dtype; a scan is the same fold, recording every acc (a reverse scan folds
// from the last element down, i.e. it is the forward scan of the reversed
// sequence). Triton on a GPU uses a tree; float results may differ in the last
// bits, which is what the verification tolerances are for.
#include "reference/kernels.h"

#include "core/sort_network.h"

#include <algorithm>
#include <numeric>

namespace npusim::reference {
namespace {

using ir::ReduceKind;

template <class T, class Better>
void argFold(const T *v, const int64_t *idx, T *rv, int64_t *ri, const AxisSplit &s, Better better) {
  for (int64_t o = 0; o < s.outer; ++o) {
    T *accV = rv + o * s.inner;
    int64_t *accI = ri + o * s.inner;
    std::copy(v + s.at(o, 0, 0), v + s.at(o, 0, 0) + s.inner, accV);
    std::copy(idx + s.at(o, 0, 0), idx + s.at(o, 0, 0) + s.inner, accI);
    for (int64_t k = 1; k < s.length; ++k) {
      const T *rowV = v + s.at(o, k, 0);
      const int64_t *rowI = idx + s.at(o, k, 0);
      for (int64_t in = 0; in < s.inner; ++in)
        if (better(rowV[in], rowI[in], accV[in], accI[in])) {
          accV[in] = rowV[in];
          accI[in] = rowI[in];
        }
    }
  }
}

} // namespace


void reduceOp(ReduceKind kind, ir::NanMode nanMode, DType dt, const Tile &x, Tile &r,
              const AxisSplit &split) {
  if (isFloatType(dt)) {
    visitFloat(dt, [&](auto tag) {
      core::floatReduceStep<decltype(tag)::value>(kind, nanMode,
                                                  [&](auto step) { core::foldAxis(x.f(), r.f(), split, step); });
    });
  } else {
    visitInt(dt, [&](auto tag) {
      core::intReduceStep<decltype(tag)::value>(kind, [&](auto step) { core::foldAxis(x.i(), r.i(), split, step); });
    });
  }
}

void scanOp(ReduceKind kind, ir::NanMode nanMode, DType dt, const Tile &x, Tile &r, const AxisSplit &split,
            bool reverse) {
  if (isFloatType(dt)) {
    visitFloat(dt, [&](auto tag) {
      core::floatReduceStep<decltype(tag)::value>(
          kind, nanMode, [&](auto step) { core::scanAxis(x.f(), r.f(), split, reverse, step); });
    });
  } else {
    visitInt(dt, [&](auto tag) {
      core::intReduceStep<decltype(tag)::value>(
          kind, [&](auto step) { core::scanAxis(x.i(), r.i(), split, reverse, step); });
    });
  }
}

// ArgMax/ArgMin: core::argFloatBetter / argIntBetter decide (ties to the
// smallest index, NaN per nanMode).
void argReduceOp(bool isMax, ir::NanMode nanMode, DType valueType, const Tile &values, const Tile &indices,
                 Tile &rv, Tile &ri, const AxisSplit &split) {
  if (isFloatType(valueType)) {
    const bool propagate = nanMode == ir::NanMode::Propagate;
    argFold(values.f(), indices.i(), rv.f(), ri.i(), split,
            [isMax, propagate](double v, int64_t i, double best, int64_t bi) {
              return core::argFloatBetter(isMax, propagate, v, i, best, bi);
            });
    return;
  }
  visitInt(valueType, [&](auto tag) {
    constexpr DType D = decltype(tag)::value;
    argFold(values.i(), indices.i(), rv.i(), ri.i(), split,
            [isMax](int64_t v, int64_t i, int64_t best, int64_t bi) {
              return core::argIntBetter<D>(isMax, v, i, best, bi);
            });
  });
}

// Sort: Triton's bitonic networks (core/sort_network.h), so that ties, NaN
// and -0/+0 land where the GPU puts them.
void sortOp(DType keyType, const Tile &keys, const Tile *values, const Tile *valid, Tile &rk, Tile *rv,
            const AxisSplit &split, bool descending, bool stable) {
  const core::SortNetwork network = !values  ? core::SortNetwork::TritonSort
                                    : stable ? core::SortNetwork::WithIndexStable
                                             : core::SortNetwork::WithIndex;
  const bool floatKeys = isFloatType(keyType);
  auto sortLines = [&](auto greater, auto equal) {
    for (int64_t o = 0; o < split.outer; ++o)
      for (int64_t in = 0; in < split.inner; ++in) {
        auto element = [&](int64_t p) { return split.at(o, p, in); };
        const core::SortLine line{
            [&](int64_t a, int64_t b) { return greater(element(a), element(b)); },
            [&](int64_t a, int64_t b) { return equal(element(a), element(b)); },
            [&](int64_t a) { return floatKeys && keys.f()[element(a)] != keys.f()[element(a)]; },
            [&](int64_t a, int64_t b) {
              return values->storage() == Storage::Float ? values->f()[element(a)] > values->f()[element(b)]
                                                         : values->i()[element(a)] > values->i()[element(b)];
            },
            [&](int64_t a) { return !valid || valid->i()[element(a)] != 0; }};
        const std::vector<int64_t> at = core::bitonicSort(network, descending, split.length, line);
        for (int64_t k = 0; k < split.length; ++k) {
          const int64_t src = element(at[static_cast<size_t>(k)]), dst = element(k);
          if (keys.storage() == Storage::Float)
            rk.f()[dst] = keys.f()[src];
          else
            rk.i()[dst] = keys.i()[src];
          if (values && values->storage() == Storage::Float)
            rv->f()[dst] = values->f()[src];
          else if (values)
            rv->i()[dst] = values->i()[src];
        }
      }
  };
  if (floatKeys) {
    const double *k = keys.f();
    sortLines([k](int64_t a, int64_t b) { return k[a] > k[b]; },
              [k](int64_t a, int64_t b) { return k[a] == k[b]; });
    return;
  }
  visitInt(keyType, [&](auto tag) {
    constexpr DType D = decltype(tag)::value;
    const int64_t *k = keys.i();
    sortLines([k](int64_t a, int64_t b) { return intLess<D>(k[b], k[a]); },
              [k](int64_t a, int64_t b) { return k[a] == k[b]; });
  });
}

void gatherLane(const Tile &x, const AxisSplit &split, int64_t k, Tile &r) {
  for (int64_t o = 0; o < split.outer; ++o) {
    const int64_t from = split.at(o, k, 0), to = o * split.inner;
    if (x.storage() == Storage::Float)
      std::copy(x.f() + from, x.f() + from + split.inner, r.f() + to);
    else
      std::copy(x.i() + from, x.i() + from + split.inner, r.i() + to);
  }
}

void scatterLane(const Tile &x, const AxisSplit &split, int64_t k, Tile &r) {
  for (int64_t o = 0; o < split.outer; ++o) {
    const int64_t from = o * split.inner, to = split.at(o, k, 0);
    if (x.storage() == Storage::Float)
      std::copy(x.f() + from, x.f() + from + split.inner, r.f() + to);
    else
      std::copy(x.i() + from, x.i() + from + split.inner, r.i() + to);
  }
}

} // namespace npusim::reference
