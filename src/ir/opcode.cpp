#include "ir/opcode.h"

namespace npusim::ir {

std::string_view name(OpCode code) {
  static constexpr std::string_view kNames[] = {
      "constant", "program_id", "num_programs", "arange", "splat", "broadcast", "expand_dims",
      "reshape", "permute", "cast", "bitcast", "add", "sub", "mul", "div", "rem", "and", "or",
      "xor", "shl", "shr", "min", "max", "neg", "not", "abs", "math", "addptr", "cmp",
      "select", "load", "store", "atomic_rmw", "reduce", "scan", "sort", "dot", "for", "if",
      "yield", "assert", "barrier"};
  return kNames[static_cast<size_t>(code)];
}

} // namespace npusim::ir
