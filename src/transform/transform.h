#pragma once
// TileIR -> TileIR passes (docs/compiler.md, "TileIR passes"). Each takes a
// verified function and leaves it verified. A pass changes ops, or annotates values
// (the lane axes of `layout`). Values keep their ids: an op a pass removes
// leaves its results' ids unused (no op defines them), so that every other
// value keeps the id that names it in dumps and messages.
#include "config/hardware.h"
#include "ir/ir.h"

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace npusim::transform {

struct Pass {
  std::string_view name; // as `npusim opt --pass=NAME` spells it
  std::string_view summary;
  /// The machine is the one the function is compiled for; passes that do not
  /// depend on it ignore it.
  void (*run)(ir::Function &function, const config::HardwareConfig &machine);
  /// Left out when the compiled program's scratchpad plan overflows (the
  /// compiler then runs the passes again without it): a pass that can only
  /// cost scratchpad, such as hoisting.
  bool droppedOnOverflow = false;
};

/// Every pass, in the order the compiler runs them: the TileIR part of the
/// compiler's pipeline (compiler::pipeline(), docs/compiler.md "Stages"), also
/// the order `npusim opt --list` shows them in.
const std::vector<Pass> &passes();
/// The pass called `name`, or null.
const Pass *findPass(std::string_view name);

/// An op without regions whose results depend only on its operands and
/// attributes (ir::opTraits(code).pure), so that it may be moved or merged.
bool isPureOp(const ir::Op &op);

/// What makes two pure ops equal: opcode, attributes, operands (named by
/// `operandId`) and result types. The `cse` pass names operands by their ids;
/// the compiler's lowering by the value whose state they share. The key is a
/// byte string for comparison only.
std::string equalityKey(const ir::Op &op, const std::function<int(const ir::Value *)> &operandId);

/// Pure ops at the top of a loop body whose operands are defined outside the
/// loop, or by other such ops, move to just before the loop.
void hoistLoopInvariants(ir::Function &function);

/// Sets the lane axis (ir::Value::laneAxis) of every tile value: reductions,
/// dots and their operands first, everything else follows its operands so that
/// elementwise chains need no relayout; scalars get -1. Earlier choices are
/// replaced.
void chooseLaneAxes(ir::Function &function, const config::HardwareConfig &machine);

/// The axis a tile of `shape` spreads over the lanes when nothing asks for
/// another: the largest axis, the last one among equals.
int defaultLaneAxis(const ir::Shape &shape);

/// The lane axis of a tile of shape `to` that gives its elements (in row-major
/// order) the lanes and slots they have in a tile of shape `from` with lane
/// axis `fromLane`, or -1 when none does. `prefer` is tried first.
int sameMappingLaneAxis(const ir::Shape &from, int fromLane, const ir::Shape &to, int prefer, int lanes);

/// A tile axis whose elements from index L on are never observed (stores and
/// atomics there masked off, a dot's K terms there zero in both operands, as
/// ranges of program ids, aranges and constants prove) keeps only its first L
/// elements, L a power of two, in every value that carries it element by
/// element (docs/compiler.md, "Dead lanes"). The observed values do not change.
void shrinkDeadLanes(ir::Function &function);

/// A dot with one K term and an fp32 acc (IEEE precision) becomes `acc +
/// a * b`, a and b cast to fp32 and broadcast to the result's shape: the
/// vector unit's multiply and add, rounded as the dot is.
void expandOuterProductDots(ir::Function &function);

/// In the body of a loop without dots, a bool op (comparison, and, or, not)
/// whose every element the value ranges of ids, aranges, constants and
/// induction variables prove becomes that constant; `and` with a constant true becomes its other operand; a
/// load, store or atomic whose mask is a constant true loses the mask (and a
/// load its `other`). The accessed elements do not change.
void foldProvenMasks(ir::Function &function);

/// A `for` of n >= 2 iterations (n known from constants) whose body is
/// straight-line, loads from memory and has no dot runs two copies of its
/// body per iteration (two iterations: two straight-line copies), with one
/// copy after the loop when n is odd: each copy's loaded tiles have bytes of
/// their own, so one copy's loads overlap the other's compute.
void doubleBufferLoops(ir::Function &function);

/// In a loop body without stores, atomics, asserts, barriers or nested
/// regions, the ops that do not depend on the carried values (offsets,
/// masks, loads and what follows from them alone) move ahead of the others,
/// each group in its order.
void scheduleLoadsEarly(ir::Function &function);

/// Every i32 or i64 sum (adds, subs, products with constants) whose terms
/// hold `c * (a % n)` and `(c * n) * (a / n)` for one value `a` and constants
/// `n != 0`, `c` is rebuilt with `c * a` in their place, repeatedly (`x0 + n *
/// x1` with `x0 = x % n`, `x1 = x / n` is `x`); the old ops stay for their other
/// uses. Exact in wrapping arithmetic.
void recombineDivisions(ir::Function &function);

/// A tile's i32 -> i64 cast of adds, subs and products (through broadcasts
/// and expand_dims) of aranges, splats and constants, which value ranges
/// prove never wrap in i32, is rebuilt in i64 from casts of its leaves
/// (`cast(pid) * B + cast(arange)`): the same values, affine for the lowering.
void widenIndexCasts(ir::Function &function);

/// Where the body's top level computes `(s + arange(0, B)) % C` (i32, B <= C)
/// and a load or store in a loop uses it, the rest of the body from the first
/// such remainder becomes `if (every s >= 0 and s % C <= C - B) {copy} else
/// {original}`, the copy computing `s % C + arange(0, B)` instead: affine
/// offsets in every instance whose rows do not wrap.
void unwrapRemainders(ir::Function &function);

/// In a loop body, an expand_dims or broadcast of a value the body computes
/// by elementwise ops (and shape ops) from splats, aranges, constants and
/// values defined before the loop is replaced by those ops in the result's
/// shape, the shape ops applied to the loop-invariant values instead (which
/// hoisting then takes out of the loop), where the result is at most 32
/// times its operand and takes at most 1/64 of a lane's bank. The result
/// keeps its value.
void sinkBroadcasts(ir::Function &function, const config::HardwareConfig &machine);

/// A `for` whose body has a dot narrower than the systolic array (K or N
/// below the lane count) and whose trip count n >= 4 is known from constants
/// becomes a loop over the first n - n % 4 iterations with four copies of the
/// body, followed by the original loop for the n % 4 left (when any).
void unrollDotLoops(ir::Function &function, const config::HardwareConfig &machine);

/// Where every store of a body with a loop is masked by comparisons whose
/// operands are bounded by scalars of the instance (program ids, arguments,
/// constants and aranges through adds, subtractions and multiplications by
/// constants), the body runs only where those bounds let some store write:
/// `if (test) {body}`, the scalars the test reads computed first; only where
/// the test fails for the instance next to the first along some axis (so
/// that dead instances are likely). The pass leaves a body with atomics,
/// asserts or barriers alone.
void skipDeadInstances(ir::Function &function);

/// An `addptr` whose i32 offset is, through adds, subtractions,
/// multiplications by constants and shape ops, a tile plus splats of scalars
/// becomes `addptr(addptr(p, tile part), splat(scalar part))`, where value
/// ranges show that neither part, nor their sum, wraps.
void splitUniformOffsets(ir::Function &function);

/// A scalar signed-integer add, sub, mul, cast, or div or rem by a positive
/// divisor, whose operands are constants and whose result fits its dtype,
/// becomes the constant it computes (its result keeps its id).
void foldConstants(ir::Function &function);

/// A pure op equal to an earlier visible one (same opcode, attributes,
/// operands and result types) is removed and its uses take the earlier results.
void eliminateCommonSubexpressions(ir::Function &function);

} // namespace npusim::transform
