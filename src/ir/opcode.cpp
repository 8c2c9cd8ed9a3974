#include "ir/opcode.h"

#include <iterator>

namespace npusim::ir {

std::string_view name(OpCode code) {
  static constexpr std::string_view kNames[] = {
      "constant", "program_id", "num_programs", "arange",  "splat",  "broadcast", "expand_dims", "reshape",
      "permute",  "slice",      "cast",         "bitcast", "add",    "sub",       "mul",         "div",
      "rem",      "and",        "or",           "xor",     "shl",    "shr",       "min",         "max",
      "neg",      "not",        "abs",          "math",    "addptr", "cmp",       "select",      "load",
      "store",    "atomic_rmw", "reduce",       "scan",    "sort",   "dot",       "for",         "if",
      "yield",    "assert",     "barrier"};
  return kNames[static_cast<size_t>(code)];
}

namespace {

constexpr OpTraits source() {
  return OpTraits{false, false, true, 0, 0, MemoryEffect::None, false};
}
constexpr OpTraits shapeOp() {
  return OpTraits{false, false, true, 1, 1, MemoryEffect::None, false};
}
constexpr OpTraits elementwise(int operands) {
  return OpTraits{true, false, true, operands, operands, MemoryEffect::None, false};
}
constexpr OpTraits arithmetic(int operands) {
  return OpTraits{true, true, true, operands, operands, MemoryEffect::None, false};
}

// In OpCode order.
constexpr OpTraits kTraits[] = {
    source(),                                                            // Constant
    source(),                                                            // ProgramId
    source(),                                                            // NumPrograms
    source(),                                                            // Arange
    shapeOp(),                                                           // Splat
    shapeOp(),                                                           // Broadcast
    shapeOp(),                                                           // ExpandDims
    shapeOp(),                                                           // Reshape
    shapeOp(),                                                           // Permute
    shapeOp(),                                                           // Slice
    elementwise(1),                                                      // Cast
    elementwise(1),                                                      // Bitcast
    arithmetic(2),                                                       // Add
    arithmetic(2),                                                       // Sub
    arithmetic(2),                                                       // Mul
    arithmetic(2),                                                       // Div
    arithmetic(2),                                                       // Rem
    arithmetic(2),                                                       // And
    arithmetic(2),                                                       // Or
    arithmetic(2),                                                       // Xor
    arithmetic(2),                                                       // Shl
    arithmetic(2),                                                       // Shr
    arithmetic(2),                                                       // Min
    arithmetic(2),                                                       // Max
    arithmetic(1),                                                       // Neg
    arithmetic(1),                                                       // Not
    arithmetic(1),                                                       // Abs
    OpTraits{true, false, true, 1, 3, MemoryEffect::None, false},        // Math
    elementwise(2),                                                      // AddPtr
    elementwise(2),                                                      // Cmp
    elementwise(3),                                                      // Select
    OpTraits{false, false, false, 1, 3, MemoryEffect::Read, false},      // Load
    OpTraits{false, false, false, 2, 3, MemoryEffect::Write, false},     // Store
    OpTraits{false, false, false, 2, 3, MemoryEffect::ReadWrite, false}, // AtomicRMW
    OpTraits{false, false, true, 1, -1, MemoryEffect::None, true},       // Reduce
    OpTraits{false, false, true, 1, -1, MemoryEffect::None, true},       // Scan
    OpTraits{false, false, true, 1, 3, MemoryEffect::None, false},       // Sort
    OpTraits{false, false, true, 3, 3, MemoryEffect::None, false},       // Dot
    OpTraits{false, false, false, 3, -1, MemoryEffect::None, true},      // For
    OpTraits{false, false, false, 1, 1, MemoryEffect::None, true},       // If
    OpTraits{false, false, false, 0, -1, MemoryEffect::None, false},     // Yield
    OpTraits{false, false, false, 1, 1, MemoryEffect::None, false},      // Assert
    OpTraits{false, false, false, 0, 0, MemoryEffect::None, false},      // Barrier
};
static_assert(std::size(kTraits) == static_cast<size_t>(OpCode::Barrier) + 1, "one row per OpCode");

} // namespace

const OpTraits &opTraits(OpCode code) {
  static constexpr OpTraits kNone{};
  const auto i = static_cast<size_t>(code);
  return i < std::size(kTraits) ? kTraits[i] : kNone; // malformed IR may hold any byte
}

} // namespace npusim::ir
