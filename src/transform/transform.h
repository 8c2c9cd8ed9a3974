#pragma once
// TileIR -> TileIR passes (docs/compiler.md, "Passes"). Each takes a verified
// function and leaves it verified. Values keep their ids: an op a pass removes
// leaves its results' ids unused (no op defines them), so that every other
// value keeps the id that names it in dumps and messages.
#include "ir/ir.h"

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace npusim::transform {

struct Pass {
  std::string_view name; // as `npusim opt --pass=NAME` spells it
  std::string_view summary;
  void (*run)(ir::Function &function);
};

/// Every pass, in the order `npusim opt --list` shows them.
const std::vector<Pass> &passes();
/// The pass called `name`, or null.
const Pass *findPass(std::string_view name);

/// An op without regions whose results depend only on its operands and
/// attributes (ir::opTraits(code).pure), so that it may be moved or merged.
bool isPureOp(const ir::Op &op);

/// What makes two pure ops equal: opcode, attributes, operands (named by
/// `operandId`) and result types. The `cse` pass names operands by their ids;
/// the compiler's lowering by the value whose state they share.
std::string equalityKey(const ir::Op &op, const std::function<int(const ir::Value *)> &operandId);

/// Pure ops at the top of a loop body whose operands are defined outside the
/// loop, or by other such ops, move to just before the loop.
void hoistLoopInvariants(ir::Function &function);

/// A pure op equal to an earlier visible one (same opcode, attributes,
/// operands and result types) is removed and its uses take the earlier results.
void eliminateCommonSubexpressions(ir::Function &function);

} // namespace npusim::transform
