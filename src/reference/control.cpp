// Control flow (For, If), checks (Assert), and the reductions and scans that
// call back into the executor: those with a combine region.
#include "reference/executor.h"

#include <algorithm>
#include <string>

namespace npusim::reference {
namespace {

void copySlot(const Tile &from, int64_t i, Tile &to, int64_t j) {
  if (from.storage() == Storage::Float)
    to.f()[j] = from.f()[i];
  else
    to.i()[j] = from.i()[i];
}

/// Restores a variable when a scope ends, also on an exception.
class Restore {
public:
  Restore(int64_t &variable, int64_t value) : variable_(variable), saved_(variable) { variable_ = value; }
  ~Restore() { variable_ = saved_; }
  Restore(const Restore &) = delete;
  Restore &operator=(const Restore &) = delete;

private:
  int64_t &variable_;
  int64_t saved_;
};

} // namespace

void Executor::transfer(const ir::Op &yield, const ir::Block &region,
                        const std::vector<ir::Value *> &destinations, size_t firstDestination,
                        size_t numDestinations) {
  if (transferScratch_.size() < numDestinations)
    transferScratch_.resize(numDestinations);
  for (size_t i = 0; i < numDestinations; ++i) {
    const ir::Value *src = yield.operands[i];
    // A value computed by an op of the region itself is dead once the region
    // has yielded it (it is recomputed before any later use), so it can be
    // moved instead of copied, unless it is yielded twice.
    bool movable =
        src->definingOp != nullptr && analysis_.definingBlock[static_cast<size_t>(src->id)] == &region;
    for (size_t j = 0; movable && j < numDestinations; ++j)
      movable = j == i || yield.operands[j] != src;
    if (movable)
      transferScratch_[i].swap(tile(src));
    else
      transferScratch_[i].copyFrom(tile(src));
  }
  for (size_t i = 0; i < numDestinations; ++i)
    tile(destinations[firstDestination + i]).swap(transferScratch_[i]);
}

// for iv in range(lower, upper, step): a positive step runs while iv < upper, a
// negative one while iv > upper; step 0 is an error. The trip count is computed
// up front without overflow, and iv = lower + t * step never leaves [lower, upper].
void Executor::runFor(const ir::Op &op) {
  const int64_t lower = scalarInt(op.operands[0]);
  const int64_t upper = scalarInt(op.operands[1]);
  const int64_t step = scalarInt(op.operands[2]);
  if (step == 0)
    throw Fault("for loop with step 0");
  using U = uint64_t;
  U trips = 0;
  if (step > 0 && lower < upper) {
    const U span = U(upper) - U(lower), stride = U(step);
    trips = span / stride + (span % stride != 0 ? 1 : 0);
  } else if (step < 0 && lower > upper) {
    const U span = U(lower) - U(upper), stride = U{0} - U(step);
    trips = span / stride + (span % stride != 0 ? 1 : 0);
  }
  if (trips > U(options_.maxLoopIterations))
    throw Fault("for loop of " + std::to_string(trips) + " iterations (range(" + std::to_string(lower) +
                ", " + std::to_string(upper) + ", " + std::to_string(step) + ")) exceeds the limit of " +
                std::to_string(options_.maxLoopIterations));
  const ir::Block &body = op.region(0);
  const auto &args = body.arguments;
  const size_t carried = op.operands.size() - 3;
  for (size_t j = 0; j < carried; ++j)
    tile(args[1 + j]).copyFrom(in(op, 3 + j));
  const ir::Value *iv = args[0];
  const DType ivType = iv->type.dtype;
  for (U t = 0; t < trips; ++t) {
    def(iv).i()[0] = wrapIntTo(ivType, U(lower) + t * U(step));
    const ir::Op *yield = runBlock(body);
    transfer(*yield, body, args, 1, carried);
  }
  for (size_t j = 0; j < carried; ++j)
    tile(op.results[j]).swap(tile(args[1 + j]));
}

void Executor::runIf(const ir::Op &op) {
  const bool cond = scalarInt(op.operands[0]) != 0;
  if (!cond && op.regions.size() < 2)
    return;
  const ir::Block &region = op.region(cond ? 0 : 1);
  const ir::Op *yield = runBlock(region);
  transfer(*yield, region, op.results, 0, op.results.size());
}

void Executor::runAssert(const ir::Op &op) {
  const Tile &cond = in(op, 0);
  const int64_t n = count(op.operands[0]);
  for (int64_t k = 0; k < n; ++k)
    if (cond.i()[k] == 0)
      throw Fault("device assertion failed: " + op.message +
                  (n > 1 ? " (element " + std::to_string(k) + " of the condition is false)" : std::string()));
}

void Executor::runReduce(const ir::Op &op) {
  const ir::Type &t = op.operands[0]->type;
  const AxisSplit split = splitAxis(t.shape, op.axis);
  switch (op.reduceKind) {
  case ir::ReduceKind::Combine: runCombine(op, false); return;
  case ir::ReduceKind::ArgMax:
  case ir::ReduceKind::ArgMin: {
    Tile &rv = def(op.results[0]);
    Tile &ri = def(op.results[1]);
    argReduceOp(op.reduceKind == ir::ReduceKind::ArgMax, op.nanMode, t.dtype, in(op, 0), in(op, 1), rv, ri,
                split);
    return;
  }
  default: reduceOp(op.reduceKind, op.nanMode, t.dtype, in(op, 0), def(op.results[0]), split); return;
  }
}

void Executor::runScan(const ir::Op &op) {
  if (op.reduceKind == ir::ReduceKind::Combine) {
    runCombine(op, true);
    return;
  }
  const ir::Type &t = op.operands[0]->type;
  scanOp(op.reduceKind, op.nanMode, t.dtype, in(op, 0), def(op.results[0]), splitAxis(t.shape, op.axis),
         op.reverse);
}

// A combine region folds the N operands along the axis: the accumulators are
// the region's first N arguments, the next element its last N, and the yield
// gives the new accumulators: acc = x[0]; acc = combine(acc, x[k]) for k = 1,
// 2, ... (a reverse scan starts from the last element and walks down). When
// the region is made of scalar elementwise ops only, it runs once per k on all
// lanes (outer x inner positions) at once; otherwise lane by lane.
void Executor::runCombine(const ir::Op &op, bool isScan) {
  const size_t n = op.operands.size();
  const ir::Block &region = op.region(0);
  const auto &args = region.arguments;
  const AxisSplit split = splitAxis(op.operands[0]->type.shape, op.axis);
  const bool reverse = isScan && op.reverse;
  const int64_t first = reverse ? split.length - 1 : 0;
  auto position = [&](int64_t m) { return reverse ? split.length - 1 - m : m; };
  std::vector<Tile *> results;
  for (const ir::Value *r : op.results)
    results.push_back(&def(r));

  // Poison produced inside the region (a division by zero in the combine
  // function) is tracked coarsely: it poisons every result element.
  uint8_t regionPoison = 0;
  auto combineStep = [&]() {
    transfer(*runBlock(region), region, args, 0, n);
    for (size_t j = 0; j < n; ++j) {
      const Tile &acc = tile(args[j]);
      for (int64_t k = 0; acc.poisoned() && k < acc.size(); ++k)
        regionPoison = std::max(regionPoison, acc.poison()[k]);
    }
  };
  auto finish = [&]() {
    if (regionPoison)
      for (Tile *r : results)
        poisonAll(*r, regionPoison);
  };
  const auto found = analysis_.lanewise.find(&region);
  if (found != analysis_.lanewise.end() && found->second && lanes_ == 1) {
    Restore lanes(lanes_, split.lanes());
    for (size_t j = 0; j < n; ++j) {
      gatherLane(in(op, j), split, first, def(args[j]));
      if (isScan)
        scatterLane(tile(args[j]), split, first, *results[j]);
    }
    for (int64_t m = 1; m < split.length; ++m) {
      const int64_t k = position(m);
      for (size_t j = 0; j < n; ++j)
        gatherLane(in(op, j), split, k, def(args[n + j]));
      combineStep();
      if (isScan)
        for (size_t j = 0; j < n; ++j)
          scatterLane(tile(args[j]), split, k, *results[j]);
    }
    if (!isScan)
      for (size_t j = 0; j < n; ++j)
        results[j]->copyFrom(tile(args[j]));
    finish();
    return;
  }

  for (int64_t o = 0; o < split.outer; ++o)
    for (int64_t lane = 0; lane < split.inner; ++lane) {
      for (size_t j = 0; j < n; ++j) {
        copySlot(in(op, j), split.at(o, first, lane), def(args[j]), 0);
        if (isScan)
          copySlot(tile(args[j]), 0, *results[j], split.at(o, first, lane));
      }
      for (int64_t m = 1; m < split.length; ++m) {
        const int64_t k = position(m);
        for (size_t j = 0; j < n; ++j)
          copySlot(in(op, j), split.at(o, k, lane), def(args[n + j]), 0);
        combineStep();
        if (isScan)
          for (size_t j = 0; j < n; ++j)
            copySlot(tile(args[j]), 0, *results[j], split.at(o, k, lane));
      }
      if (!isScan)
        for (size_t j = 0; j < n; ++j)
          copySlot(tile(args[j]), 0, *results[j], o * split.inner + lane);
    }
  finish();
}

} // namespace npusim::reference
