#pragma once
// Module-private helpers of the TileIR passes.
#include "ir/ir.h"

#include <functional>
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
std::vector<std::optional<ValueRange>>
valueRanges(const ir::Function &function, const std::function<ValueRange(const ir::Op &)> &arangeRange);

} // namespace npusim::transform
