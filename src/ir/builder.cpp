#include "ir/builder.h"

namespace npusim::ir {

Op *Builder::append(std::unique_ptr<Op> op) {
  op->loc = loc_;
  block_->ops.push_back(std::move(op));
  return block_->ops.back().get();
}

Op *Builder::create(OpCode code, std::vector<Value *> operands, std::vector<Type> resultTypes) {
  auto op = std::make_unique<Op>();
  op->code = code;
  op->operands = std::move(operands);
  Op *raw = op.get();
  for (size_t i = 0; i < resultTypes.size(); ++i) {
    Value *v = function_.newValue(std::move(resultTypes[i]));
    v->definingOp = raw;
    v->index = static_cast<int>(i);
    raw->results.push_back(v);
  }
  return append(std::move(op));
}

Block *Builder::addRegion(Op *op, const std::vector<Type> &argumentTypes) {
  auto block = std::make_unique<Block>();
  block->parentOp = op;
  for (const Type &t : argumentTypes) {
    Value *v = function_.newValue(t);
    v->ownerBlock = block.get();
    v->index = static_cast<int>(block->arguments.size());
    block->arguments.push_back(v);
  }
  op->regions.push_back(std::move(block));
  return op->regions.back().get();
}

namespace {
void require(bool ok, const core::SourceLocation &loc, const std::string &what) {
  if (!ok)
    throw core::CompileError(loc, "internal: malformed TileIR: " + what);
}
} // namespace

Value *Builder::constantInt(DType dtype, int64_t v, Shape shape) {
  Op *op = create(OpCode::Constant, {}, {Type::tile(dtype, std::move(shape))});
  op->constant.intValue = v;
  op->constant.floatValue = static_cast<double>(v);
  return op->result();
}

Value *Builder::constantFloat(DType dtype, double v, Shape shape) {
  Op *op = create(OpCode::Constant, {}, {Type::tile(dtype, std::move(shape))});
  op->constant.floatValue = v;
  return op->result();
}

Value *Builder::programId(int axis) {
  Op *op = create(OpCode::ProgramId, {}, {Type::scalar(DType::Int32)});
  op->axis = axis;
  return op->result();
}

Value *Builder::numPrograms(int axis) {
  Op *op = create(OpCode::NumPrograms, {}, {Type::scalar(DType::Int32)});
  op->axis = axis;
  return op->result();
}

Value *Builder::arange(int64_t start, int64_t end) {
  require(end > start, loc_, "arange needs end > start");
  Op *op = create(OpCode::Arange, {}, {Type::tile(DType::Int32, {end - start})});
  op->start = start;
  op->end = end;
  return op->result();
}

Value *Builder::splat(Value *scalar, Shape shape) {
  require(scalar->type.isScalar(), loc_, "splat of a tile");
  return create(OpCode::Splat, {scalar}, {scalar->type.withShape(std::move(shape))})->result();
}

Value *Builder::broadcast(Value *tile, Shape shape) {
  require(tile->type.rank() == static_cast<int>(shape.size()), loc_, "broadcast changes rank");
  return create(OpCode::Broadcast, {tile}, {tile->type.withShape(std::move(shape))})->result();
}

Value *Builder::expandDims(Value *x, int axis) {
  Shape shape = x->type.shape;
  require(axis >= 0 && axis <= static_cast<int>(shape.size()), loc_, "expand_dims axis");
  shape.insert(shape.begin() + axis, 1);
  Op *op = create(OpCode::ExpandDims, {x}, {x->type.withShape(std::move(shape))});
  op->axis = axis;
  return op->result();
}

Value *Builder::reshape(Value *tile, Shape shape) {
  require(numElements(shape) == tile->type.numElements(), loc_, "reshape changes element count");
  return create(OpCode::Reshape, {tile}, {tile->type.withShape(std::move(shape))})->result();
}

Value *Builder::permute(Value *tile, std::vector<int> order) {
  Shape shape;
  for (int d : order)
    shape.push_back(tile->type.shape.at(d));
  Op *op = create(OpCode::Permute, {tile}, {tile->type.withShape(std::move(shape))});
  op->order = std::move(order);
  return op->result();
}

Value *Builder::slice(Value *tile, int axis, int64_t start, int64_t size) {
  require(tile->type.isTile() && axis >= 0 && axis < tile->type.rank() && start >= 0 && size > 0 &&
              start + size <= tile->type.shape.at(static_cast<size_t>(axis)),
          loc_,
          "slice [" + std::to_string(start) + ", " + std::to_string(start + size) + ") of axis " +
              std::to_string(axis) + " of " + tile->type.str());
  Shape shape = tile->type.shape;
  shape[static_cast<size_t>(axis)] = size;
  Op *op = create(OpCode::Slice, {tile}, {tile->type.withShape(std::move(shape))});
  op->axis = axis;
  op->start = start;
  return op->result();
}

Value *Builder::cast(Value *x, DType to) {
  require(!x->type.isPointer, loc_, "cast of a pointer");
  if (x->type.dtype == to)
    return x;
  return create(OpCode::Cast, {x}, {Type::tile(to, x->type.shape)})->result();
}

Value *Builder::bitcast(Value *x, Type to) {
  return create(OpCode::Bitcast, {x}, {std::move(to)})->result();
}

Value *Builder::binary(OpCode code, Value *a, Value *b) {
  if (code == OpCode::AddPtr) {
    require(a->type.isPointer && b->type.isIntegerOrBool() && a->type.shape == b->type.shape, loc_,
            "addptr operands");
    return create(code, {a, b}, {a->type})->result();
  }
  require(a->type == b->type, loc_,
          std::string(name(code)) + " operand types differ: " + a->type.str() + " vs " + b->type.str());
  return create(code, {a, b}, {a->type})->result();
}

Value *Builder::minMax(OpCode code, Value *a, Value *b, NanMode mode) {
  Value *r = binary(code, a, b);
  r->definingOp->nanMode = mode;
  return r;
}

Value *Builder::unary(OpCode code, Value *x) {
  return create(code, {x}, {x->type})->result();
}

Value *Builder::math(MathFn fn, std::vector<Value *> operands) {
  require(static_cast<int>(operands.size()) == arity(fn), loc_, "math arity");
  for (Value *v : operands)
    require(v->type == operands[0]->type && v->type.isFloat(), loc_, "math operand types");
  Type result = producesBool(fn) ? Type::tile(DType::Bool, operands[0]->type.shape) : operands[0]->type;
  Op *op = create(OpCode::Math, std::move(operands), {result});
  op->mathFn = fn;
  return op->result();
}

Value *Builder::cmp(CmpPredicate p, Value *a, Value *b) {
  require(a->type == b->type, loc_, "cmp operand types differ: " + a->type.str() + " vs " + b->type.str());
  Op *op = create(OpCode::Cmp, {a, b}, {Type::tile(DType::Bool, a->type.shape)});
  op->predicate = p;
  return op->result();
}

Value *Builder::select(Value *cond, Value *a, Value *b) {
  require(cond->type.isBool() && a->type == b->type && cond->type.shape == a->type.shape, loc_,
          "select operand types");
  return create(OpCode::Select, {cond, a, b}, {a->type})->result();
}

Value *Builder::load(Value *ptr, Value *mask, Value *other) {
  require(ptr->type.isPointer, loc_, "load from a non-pointer");
  std::vector<Value *> operands{ptr};
  if (mask)
    operands.push_back(mask);
  if (other) {
    require(mask != nullptr, loc_, "load with other but no mask");
    operands.push_back(other);
  }
  return create(OpCode::Load, std::move(operands), {Type::tile(ptr->type.dtype, ptr->type.shape)})->result();
}

void Builder::store(Value *ptr, Value *value, Value *mask) {
  require(ptr->type.isPointer, loc_, "store to a non-pointer");
  std::vector<Value *> operands{ptr, value};
  if (mask)
    operands.push_back(mask);
  create(OpCode::Store, std::move(operands), {});
}

void Builder::assertTrue(Value *cond, std::string message) {
  Op *op = create(OpCode::Assert, {cond}, {});
  op->message = std::move(message);
}

void Builder::yield(std::vector<Value *> values) {
  create(OpCode::Yield, std::move(values), {});
}

} // namespace npusim::ir
