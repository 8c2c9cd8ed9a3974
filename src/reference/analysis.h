#pragma once
// The interpreter's input check: checks a function before it runs and
// precomputes what the executor needs (internal to the reference module). It
// is not the TileIR verifier (ir::verify, the language's rules, a
// core::CompileError at compile time): the interpreter does not trust its
// input, even verified IR, because its tile loops index storage by the types
// they find: malformed IR (an operand used before its definition, mismatched
// types, a region without its terminator, absurd shapes) is refused here with
// a core::RuntimeError naming the kernel, the op and its source location, so
// that the tile loops can rely on every operand having the expected storage
// and element count.
#include "ir/ir.h"
#include "reference/tile.h"

#include <unordered_map>
#include <vector>

namespace npusim::reference {

struct Analysis {
  std::vector<int64_t> numElements;             // by value id
  std::vector<Storage> storage;                 // by value id
  std::vector<const ir::Block *> definingBlock; // by value id
  /// Combine regions of Reduce/Scan made only of elementwise scalar ops: the
  /// executor runs them on all lanes of the reduction at once.
  std::unordered_map<const ir::Block *, bool> lanewise;
};

/// The input check, then the analysis; throws core::RuntimeError for malformed IR.
Analysis checkInterpreterInput(const ir::Function &function, int64_t maxTileElements);

} // namespace npusim::reference
