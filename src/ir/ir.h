#pragma once
// TileIR: typed SSA over tiles. A Function owns a body Block; a Block holds
// arguments and Ops in order; an Op may own regions (Blocks) for loops,
// conditionals and combine functions. Values are owned by the Function and
// numbered densely, so an interpreter can keep them in a flat array.
#include "core/error.h"
#include "ir/opcode.h"
#include "ir/type.h"

#include <array>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace npusim::ir {

struct Op;
struct Block;

struct Value {
  int id = 0; // dense index in Function::values()
  Type type;
  Op *definingOp = nullptr;    // null for block arguments
  Block *ownerBlock = nullptr; // the block of a block argument
  int index = 0;               // result index, or argument index
  std::string nameHint;        // source variable name, for dumps and messages
  /// The axis of a tile spread over the NPU's lanes, as the `layout` pass
  /// chose it (docs/compiler.md, "Layouts"); -1 for scalars and until chosen.
  /// Printed after the type as `lane=N`.
  int laneAxis = -1;
};

/// A scalar constant; which member is meaningful depends on the dtype.
struct ConstantValue {
  int64_t intValue = 0; // integers and bool (bit pattern for unsigned 64-bit)
  double floatValue = 0.0;
};

struct Block {
  std::vector<Value *> arguments;
  std::vector<std::unique_ptr<Op>> ops;
  Op *parentOp = nullptr; // null for the function body
};

struct Op {
  OpCode code = OpCode::Constant;
  std::vector<Value *> operands;
  std::vector<Value *> results;
  std::vector<std::unique_ptr<Block>> regions;
  core::SourceLocation loc; // line/col of the source construct

  // Attributes; each op uses the ones its OpCode documents.
  int axis = 0;
  int64_t start = 0, end = 0; // Arange
  ConstantValue constant;     // Constant
  std::vector<int> order;     // Permute
  CmpPredicate predicate = CmpPredicate::Eq;
  NanMode nanMode = NanMode::Ignore;
  ReduceKind reduceKind = ReduceKind::Sum;
  AtomicKind atomicKind = AtomicKind::Add;
  InputPrecision inputPrecision = InputPrecision::IEEE;
  MathFn mathFn = MathFn::Exp;
  bool reverse = false;    // Scan
  bool descending = false; // Sort
  bool stable = false;     // Sort with values: sort_with_index(stable=True)
  std::string message;     // Assert

  Value *result(int i = 0) const { return results.at(i); }
  Block &region(int i = 0) const { return *regions.at(i); }
};

/// A kernel argument that exists at run time (constexpr parameters are folded away).
struct Parameter {
  std::string name;
  Type type;    // a scalar or a scalar pointer
  Value *value; // argument of the body block
};

class Function {
public:
  explicit Function(std::string name);
  Function(const Function &) = delete;
  Function &operator=(const Function &) = delete;

  const std::string &name() const { return name_; }
  Block &body() { return body_; }
  const Block &body() const { return body_; }
  const std::vector<Parameter> &parameters() const { return parameters_; }
  const std::vector<std::unique_ptr<Value>> &values() const { return values_; }
  int numValues() const { return static_cast<int>(values_.size()); }
  /// Number of ops, nested regions included.
  int numOps() const;

  /// The grid the function is compiled for: programs along each axis, 0
  /// where unknown (any grid Triton accepts). A program compiled for a launch
  /// knows it (driver::compileForNpu); `widen-index-casts` bounds program ids
  /// by it (docs/compiler.md, "Launch scalars"), and a launch on more programs
  /// is refused. Printed `programs(X, Y, Z)` after the parameters when any is
  /// known.
  const std::array<int64_t, 3> &programs() const { return programs_; }
  void setPrograms(const std::array<int64_t, 3> &programs) { programs_ = programs; }

  /// Creates a value owned by this function (used by the Builder).
  Value *newValue(Type type, std::string nameHint = {});
  Value *addParameter(std::string name, Type type);

private:
  std::string name_;
  Block body_;
  std::vector<Parameter> parameters_;
  std::vector<std::unique_ptr<Value>> values_;
  std::array<int64_t, 3> programs_{0, 0, 0};
};

/// Checks structure and types; throws core::CompileError at the offending op.
void verify(const Function &function);
/// The text form (see docs/tileir.md): stable, one op per line.
std::string print(const Function &function);
/// Reads the text form back (the inverse of print) and verifies the result.
/// Throws core::CompileError at FILE:LINE:COL of the first malformed token, or
/// the verifier's error at the offending op's line.
std::unique_ptr<Function> parse(std::string_view text, const std::string &file = "<tileir>");
/// A copy of `function`: the same value ids, name hints and source locations.
std::unique_ptr<Function> clone(const Function &function);

} // namespace npusim::ir
