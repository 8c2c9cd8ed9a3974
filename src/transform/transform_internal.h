#pragma once
// Module-private helpers of the TileIR passes.
#include "ir/ir.h"

#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <vector>

namespace npusim::transform {

/// A new op with `op`'s code, location and attributes, and no operands,
/// results or regions.
std::unique_ptr<ir::Op> copyOpShell(const ir::Op &op);

/// Adds every value `block` defines (its arguments, its ops' results, and
/// those of their regions) to `defined`.
void collectDefinitions(const ir::Block &block, std::set<const ir::Value *> &defined);

/// Copies `from`'s ops (with their regions) to the end of `to`, with fresh
/// values; operands are renamed through `renamed` (a value not in it stands
/// for itself), and every copied result and region argument is added to it.
void copyOps(ir::Function &function, const std::vector<const ir::Op *> &from, ir::Block &to,
             std::map<const ir::Value *, ir::Value *> &renamed);

/// The value of a scalar integer computed from constants alone (constants,
/// casts and integer arithmetic of them).
std::optional<int64_t> constantInt(const ir::Value *v, int depth = 0);

/// A `for` whose start, bound and step fold to constants: its start, step and
/// number of iterations.
struct LoopTrips {
  int64_t lo = 0, step = 1, trips = 0;
};
std::optional<LoopTrips> constantTrips(const ir::Op &loop);

/// How `unrollLoop` copies a loop of `trips` iterations from `lo` by `step`:
/// a loop over the first `trips - trips % factor` iterations with `factor`
/// copies of the body per iteration, then the rest as straight-line copies
/// (all of them when `full`). Each carried value listed in `accumulators`
/// (by position) only accumulates a dot; the odd copies add to a second
/// accumulator of their own, summed with the first after the loop.
struct UnrollPlan {
  int64_t lo = 0, step = 1, trips = 0, factor = 2;
  bool full = false;
  std::vector<size_t> accumulators;
};

/// Replaces the loop at `position` of `parent` by its unrolled form.
void unrollLoop(ir::Function &function, ir::Block &parent, size_t position, const UnrollPlan &plan);

/// How many operands of ops in `block` (nested blocks included) are `v`.
int countUses(const ir::Block &block, const ir::Value *v);

/// Moves the ops of `built` (made there by a Builder, in order) into `block`
/// just before position `position`; returns how many moved.
size_t spliceBefore(ir::Block &block, size_t position, ir::Block &built);

/// Every operand of `block` (nested blocks included) that `replacement` maps
/// becomes the value it maps to.
void replaceUses(ir::Block &block, const std::map<const ir::Value *, ir::Value *> &replacement);

/// The immediate of an i32 constant (a scalar or tile, or a splat, broadcast
/// or expand_dims of one) within +-2^16, so that its products with i32 ranges
/// fit 64 bits; nothing otherwise.
std::optional<int64_t> smallInt32Constant(const ir::Value *v);

/// The integers a value's elements take, both ends included.
struct ValueRange {
  int64_t lo = 0, hi = 0;
};

/// The range of every signed-integer and bool value of `function` (indexed
/// by value id; empty for pointers, floats and unsigned integers), each
/// arange taking the range `arangeRange` gives it: a caller that narrows some
/// aranges learns the values those elements alone can reach.
/// Program ids range over Triton's grid limits, or with `withinGrid` over the
/// grid the function is compiled for (ir::Function::programs) where known.
std::vector<std::optional<ValueRange>>
valueRanges(const ir::Function &function, const std::function<ValueRange(const ir::Op &)> &arangeRange,
            bool withinGrid = false);

/// The range of an i32 offset, which the passes prove offsets stay within.
constexpr int64_t kInt32Min = std::numeric_limits<int32_t>::min();
constexpr int64_t kInt32Max = std::numeric_limits<int32_t>::max();

} // namespace npusim::transform
