// The Reduce and Scan ops with their combine regions; the builtins that build
// them (tl.sum, tl.cumsum, triton_helpers.max2, ...) are in builtin_reductions.cpp.
#include "triton/lowering.h"

namespace npusim::triton::lowering {

void Lowerer::lowerCombineRegion(ir::Op *op, const SemaValue &combine, ast::Position pos) {
  // The combine function runs on scalars: (left operands..., right operands...) -> combined.
  ir::Builder &b = *builder_;
  std::vector<ir::Type> argTypes;
  for (int twice = 0; twice < 2; ++twice)
    for (ir::Value *v : op->operands)
      argTypes.push_back(v->type.element());
  ir::Block *region = b.addRegion(op, argTypes);
  ir::Block *outer = b.insertionBlock();
  b.setInsertionBlock(region);
  std::vector<SemaValue> args;
  for (ir::Value *a : region->arguments)
    args.push_back(SemaValue::ofTensor(a));
  SemaValue result = invoke(combine, std::move(args), pos);
  std::vector<SemaValue> parts = result.kind == SemaValue::Kind::Tuple ? result.elements : std::vector<SemaValue>{result};
  if (parts.size() != op->operands.size())
    fail(pos, "the combine function returns " + std::to_string(parts.size()) + " values for " +
                  std::to_string(op->operands.size()) + " inputs");
  std::vector<ir::Value *> yields;
  for (size_t i = 0; i < parts.size(); ++i) {
    ir::Value *v = toTensor(parts[i], pos);
    if (v->type.isTile())
      fail(pos, "the combine function must return scalars, got " + v->type.str());
    yields.push_back(castTo(v, argTypes[i].dtype));
  }
  b.yield(yields);
  b.setInsertionBlock(outer);
}

std::vector<ir::Value *> Lowerer::reduce(std::vector<ir::Value *> inputs, int axis, ir::ReduceKind kind,
                                         ir::NanMode nanMode, const SemaValue *combine, bool keepDims,
                                         ast::Position pos) {
  ir::Builder &b = *builder_;
  ir::Shape shape = inputs[0]->type.shape;
  for (ir::Value *v : inputs)
    shape = broadcastShapes(shape, v->type.shape, pos);
  if (shape.empty())
    fail(pos, "cannot reduce a scalar");
  for (ir::Value *&v : inputs) {
    v = broadcastTo(v, shape, pos);
    if (v->type.isPointer)
      fail(pos, "cannot reduce pointers");
  }
  const bool allAxes = axis == INT32_MIN;
  if (allAxes) {
    const int64_t n = ir::numElements(shape);
    for (ir::Value *&v : inputs)
      if (v->type.rank() != 1)
        v = b.reshape(v, {n});
    shape = {n};
    axis = 0;
  }
  ir::Shape resultShape = shape;
  resultShape.erase(resultShape.begin() + axis);
  std::vector<ir::Type> resultTypes;
  for (ir::Value *v : inputs)
    resultTypes.push_back(v->type.withShape(resultShape));
  ir::Op *op = b.create(ir::OpCode::Reduce, inputs, resultTypes);
  op->axis = axis;
  op->reduceKind = kind;
  op->nanMode = nanMode;
  if (kind == ir::ReduceKind::Combine)
    lowerCombineRegion(op, *combine, pos);
  std::vector<ir::Value *> results = op->results;
  if (keepDims)
    for (ir::Value *&r : results)
      r = b.expandDims(r, axis);
  return results;
}

std::vector<ir::Value *> Lowerer::scan(std::vector<ir::Value *> inputs, int axis, ir::ReduceKind kind,
                                       const SemaValue *combine, bool reverse, ast::Position pos) {
  ir::Builder &b = *builder_;
  ir::Shape shape = inputs[0]->type.shape;
  for (ir::Value *v : inputs)
    shape = broadcastShapes(shape, v->type.shape, pos);
  if (shape.empty())
    fail(pos, "cannot scan a scalar");
  for (ir::Value *&v : inputs)
    v = broadcastTo(v, shape, pos);
  std::vector<ir::Type> types;
  for (ir::Value *v : inputs)
    types.push_back(v->type);
  ir::Op *op = b.create(ir::OpCode::Scan, inputs, types);
  op->axis = axis;
  op->reduceKind = kind;
  op->reverse = reverse;
  if (kind == ir::ReduceKind::Combine)
    lowerCombineRegion(op, *combine, pos);
  return op->results;
}

} // namespace npusim::triton::lowering
