// Outer-product dots (docs/compiler.md, "Outer-product dots"). A dot with one
// K term keeps a single row of the systolic array busy while it pays the
// array's fill and drain; on the vector unit it is one multiply and one add
// per element, with the same roundings as the dot's (the product in the acc
// dtype, then the sum).
#include "ir/builder.h"
#include "transform/transform.h"

namespace npusim::transform {
namespace {

using ir::OpCode;

bool isOuterProduct(const ir::Op &op) {
  if (op.code != OpCode::Dot || op.inputPrecision != ir::InputPrecision::IEEE)
    return false;
  // The reference sums an fp32 dot term by term in fp32; narrower accs
  // round once at the end, which a multiply and an add would not.
  return op.operands[0]->type.shape.back() == 1 && op.result()->type.dtype == ir::DType::Float32;
}

/// `x` in `dtype`, broadcast to `shape`, built by `builder`.
ir::Value *widened(ir::Builder &builder, ir::Value *x, const ir::Shape &shape, ir::DType dtype) {
  ir::Value *v = x->type.dtype == dtype ? x : builder.cast(x, dtype);
  return v->type.shape == shape ? v : builder.broadcast(v, shape);
}

void outerProductBlock(ir::Function &function, ir::Block &block) {
  for (size_t i = 0; i < block.ops.size(); ++i) {
    ir::Op &op = *block.ops[i];
    for (auto &region : op.regions)
      outerProductBlock(function, *region);
    if (!isOuterProduct(op))
      continue;
    ir::Value *result = op.result();
    const ir::Shape shape = result->type.shape;
    const ir::DType dtype = result->type.dtype;
    ir::Block built;
    ir::Builder builder(function);
    builder.setInsertionBlock(&built);
    builder.setLocation(op.loc);
    ir::Value *a = widened(builder, op.operands[0], shape, dtype);
    ir::Value *b = widened(builder, op.operands[1], shape, dtype);
    ir::Value *product = builder.binary(OpCode::Mul, a, b);
    builder.binary(OpCode::Add, op.operands[2], product);
    // The sum defines the dot's result, so that its uses and id stay.
    ir::Op &sum = *built.ops.back();
    sum.results[0] = result;
    result->definingOp = &sum;
    result->index = 0;
    const size_t n = built.ops.size();
    block.ops.erase(block.ops.begin() + static_cast<std::ptrdiff_t>(i));
    block.ops.insert(block.ops.begin() + static_cast<std::ptrdiff_t>(i),
                     std::make_move_iterator(built.ops.begin()), std::make_move_iterator(built.ops.end()));
    i += n - 1;
  }
}

} // namespace

void expandOuterProductDots(ir::Function &function) {
  outerProductBlock(function, function.body());
}

} // namespace npusim::transform
