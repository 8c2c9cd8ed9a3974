#pragma once
// The operations of TileIR and the enums that parameterise them.
//
// Operand conventions (the verifier enforces them, docs/tileir.md describes them):
// elementwise operations take operands of one identical type (the front end
// inserts Splat/Broadcast/Cast first, following Triton's promotion rules), and a
// scalar operation is the same operation on shape [].
#include "core/element_ops.h"

#include <cstdint>
#include <optional>
#include <string_view>

namespace npusim::ir {

enum class OpCode : uint8_t {
  // Sources of values.
  Constant,    // () -> T; every element = constant (a Triton tl.full when T is a tile)
  ProgramId,   // () -> i32 scalar; attr axis
  NumPrograms, // () -> i32 scalar; attr axis
  Arange,      // () -> i32[end-start]; attrs start, end
  // Shape changes; element type unchanged.
  Splat,      // (scalar) -> tile
  Broadcast,  // (tile) -> tile of the result shape, same rank, size-1 dims stretched
  ExpandDims, // (x) -> x with a size-1 dim inserted at attr axis
  Reshape,    // (tile) -> tile with the same number of elements, row-major order
  Permute,    // (tile) -> tile with dims permuted: result dim i = operand dim order[i]
  Slice,      // (tile) -> tile of the result shape: along attr axis the elements
              // [start, start + result extent) of the operand, the other axes whole
  // Conversions.
  Cast,    // (x) -> same shape, result dtype; floats round to nearest even,
           // float->int truncates toward zero, int->int wraps, x->bool is x != 0
  Bitcast, // (x) -> same shape, result dtype of the same bit width (or pointer <-> int64)
  // Elementwise arithmetic; operands and result share one type.
  Add,
  Sub,
  Mul,
  Div, // floats: IEEE division; integers: C division truncating toward zero
  Rem, // floats: fmod (sign of the dividend); integers: C remainder
  And, // bitwise (logical on i1)
  Or,
  Xor,
  Shl,
  Shr, // arithmetic for signed integers, logical for unsigned
  Min, // attr nanMode
  Max, // attr nanMode
  Neg,
  Not, // bitwise complement (logical not on i1)
  Abs,
  Math,   // attr mathFn; one to three operands of one float type (Pow, Atan2, ... take two)
  AddPtr, // (pointer, integer offset in elements) -> pointer, same shape
  Cmp,    // (a, b) -> i1 of the same shape; attr predicate
  Select, // (i1 cond, a, b) -> a's type; all three of one shape
  // Memory.
  Load,      // (ptr[, mask[, other]]) -> values; masked-off elements take other (or 0)
  Store,     // (ptr, value[, mask]) -> (); masked-off elements write nothing
  AtomicRMW, // (ptr, value[, mask]) -> old values; attr atomicKind
  // Tile-wide operations.
  Reduce, // N operands of one shape -> N results with attr axis removed; attr reduceKind;
          // Combine reductions carry a region with 2N arguments that yields N values
  Scan,   // N operands -> N results of the same shapes along attr axis; attr reduceKind,
          // attr reverse; Combine scans carry a combine region like Reduce
  Sort,   // (keys[, values[, i1 valid]]) -> (keys[, values]) sorted along attr axis;
          // attr descending; stable (ties keep their order), values follow their
          // keys, NaN keys order above every number, and elements whose valid is
          // false go after all valid ones in their original order
  Dot,    // (a[M,K], b[K,N], acc[M,N]) -> acc type; products and sums in the acc
          // dtype; attr inputPrecision
  // Control flow.
  For,   // (lower, upper, step, inits...) -> final carried values; region body with
         // arguments (induction variable, carried...) ending in Yield
  If,    // (i1 scalar cond) -> results; regions then, else, each ending in Yield
  Yield, // (values...) terminates a region
  // Checks and hints.
  Assert,  // (i1 cond) -> (); fails the program when an element is false; attr message
  Barrier, // () -> (); tl.debug_barrier
};

using core::arity;
using core::AtomicKind;
using core::CmpPredicate;
using core::InputPrecision;
using core::MathFn;
using core::name;
using core::NanMode;
using core::parseMathFn;
using core::producesBool;
using core::ReduceKind;

std::string_view name(OpCode code);

/// What an op does to memory.
enum class MemoryEffect : uint8_t { None, Read, Write, ReadWrite };

/// The properties of an opcode that passes and interpreters dispatch on, in
/// one table (opcode.cpp) instead of one switch per client.
struct OpTraits {
  /// Result element i depends only on operand elements i, and every operand
  /// has the result's shape (Cast, Bitcast, Add..Abs, Math, AddPtr, Cmp, Select).
  bool elementwise = false;
  /// Elementwise arithmetic of docs/tileir.md §5.4 (Add..Abs): the operands
  /// and the result share one non-pointer type.
  bool arithmetic = false;
  /// The results depend only on the operands and attributes, and the op has no
  /// effect besides them: no memory access, no control flow, no check.
  bool pure = false;
  /// Operand count bounds; maxOperands -1 is unbounded. Math's count depends
  /// on its function (ir::arity), within these bounds.
  int minOperands = 0;
  int maxOperands = 0;
  MemoryEffect memory = MemoryEffect::None;
  /// The op may own regions (For, If; Reduce and Scan with a combine region).
  bool hasRegions = false;
};

/// The traits of `code`; all false (and no operands) for a byte that is no OpCode.
const OpTraits &opTraits(OpCode code);
} // namespace npusim::ir
