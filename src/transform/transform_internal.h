#pragma once
// Module-private helpers of the TileIR passes.
#include "ir/ir.h"

#include <map>
#include <memory>
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

} // namespace npusim::transform
