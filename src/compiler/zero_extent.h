#pragma once
// Where a tile is provably zero (internal to the compiler): the dot lowering
// asks it which K blocks of a product can contribute nothing, so that a dot
// whose operands are masked past a constant K issues no matmul for the
// blocks past it (docs/compiler.md, "Dot").
#include "ir/ir.h"

#include <optional>

namespace npusim::compiler {

/// The smallest index `c` along `axis` such that every element of the bool
/// tile `mask` whose index along `axis` is at least `c` is false, whatever
/// its other indices; nothing when no such bound is proven. Proven forms:
/// a constant false, `and` of masks (either operand's bound), broadcast and
/// expand_dims (the axis followed), and `x < n`, `x <= n`, `n > x`, `n >= x`
/// for a signed integer constant `n` and an `x` that is `s * i + o` along the
/// axis (`i` the index, `s >= 1` and `o` constants: an arange plus or times
/// constants, broadcast or expanded) and the same at every other index.
std::optional<int64_t> falseFrom(const ir::Value *mask, int axis);

/// The same for a tile whose elements past the bound are all +0: a load
/// whose mask is false there and whose `other` is 0 (or absent), a cast,
/// permute, broadcast or expand_dims of such a tile, or a zero constant.
std::optional<int64_t> zeroFrom(const ir::Value *tile, int axis);

} // namespace npusim::compiler
