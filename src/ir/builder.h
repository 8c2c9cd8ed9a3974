#pragma once
// Creates ops at the end of a block and checks their operand types as it goes,
// so that malformed IR is caught where it is made.
#include "ir/ir.h"

namespace npusim::ir {

class Builder {
public:
  explicit Builder(Function &function) : function_(function), block_(&function.body()) {}

  Function &function() { return function_; }
  Block *insertionBlock() const { return block_; }
  void setInsertionBlock(Block *block) { block_ = block; }
  /// Source position stamped on every op created from now on.
  void setLocation(core::SourceLocation loc) { loc_ = std::move(loc); }
  const core::SourceLocation &location() const { return loc_; }

  /// Generic creation: the op's results get the given types.
  Op *create(OpCode code, std::vector<Value *> operands, std::vector<Type> resultTypes);
  /// Adds an empty region to op with arguments of the given types.
  Block *addRegion(Op *op, const std::vector<Type> &argumentTypes);

  // Convenience constructors.
  Value *constantInt(DType dtype, int64_t v, Shape shape = {});
  Value *constantFloat(DType dtype, double v, Shape shape = {});
  Value *programId(int axis);
  Value *numPrograms(int axis);
  Value *arange(int64_t start, int64_t end);
  Value *splat(Value *scalar, Shape shape);
  Value *broadcast(Value *tile, Shape shape);
  Value *expandDims(Value *x, int axis);
  Value *reshape(Value *tile, Shape shape);
  Value *permute(Value *tile, std::vector<int> order);
  /// Elements [start, start + size) of `axis`, the other axes whole.
  Value *slice(Value *tile, int axis, int64_t start, int64_t size);
  Value *cast(Value *x, DType to);
  Value *bitcast(Value *x, Type to);
  Value *binary(OpCode code, Value *a, Value *b); // Add..Shr, AddPtr
  Value *minMax(OpCode code, Value *a, Value *b, NanMode mode);
  Value *unary(OpCode code, Value *x); // Neg, Not, Abs
  Value *math(MathFn fn, std::vector<Value *> operands);
  Value *cmp(CmpPredicate p, Value *a, Value *b);
  Value *select(Value *cond, Value *a, Value *b);
  Value *load(Value *ptr, Value *mask, Value *other); // mask/other may be null
  void store(Value *ptr, Value *value, Value *mask);  // mask may be null
  void assertTrue(Value *cond, std::string message);
  void yield(std::vector<Value *> values);

private:
  Op *append(std::unique_ptr<Op> op);

  Function &function_;
  Block *block_;
  core::SourceLocation loc_;
};

} // namespace npusim::ir
