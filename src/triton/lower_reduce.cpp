// Reductions, scans and sorts: tl.sum/max/min/argmax/reduce/cumsum/sort and
// the triton_helpers reductions (max2, welford, max_with_index, any, ...).
#include "triton/lowering.h"

#include <cmath>

namespace npusim::triton::lowering {

namespace {

using core::DType;

int normalizeAxis(const Lowerer &l, int64_t axis, int rank, ast::Position pos) {
  const int64_t a = axis < 0 ? axis + rank : axis;
  if (a < 0 || a >= rank)
    l.fail(pos, "axis " + std::to_string(axis) + " is out of range for a rank-" + std::to_string(rank) + " tensor");
  return static_cast<int>(a);
}

/// Triton's _pick_sum_dtype: narrow integers accumulate in 32 bits.
DType sumType(DType in) {
  if (core::isInteger(in) && core::bitWidth(in) < 32)
    return core::isSigned(in) || in == DType::Bool ? DType::Int32 : DType::UInt32;
  return in;
}

} // namespace

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

namespace {

/// Values of one or more tensors passed as `input` (a tensor or a tuple of tensors).
std::vector<ir::Value *> tensorsOf(Lowerer &l, const SemaValue &v, ast::Position pos) {
  std::vector<ir::Value *> out;
  if (v.kind == SemaValue::Kind::Tuple)
    for (const SemaValue &e : v.elements)
      out.push_back(l.toTensor(e, pos));
  else
    out.push_back(l.toTensor(v, pos));
  return out;
}

SemaValue packTuple(const std::vector<ir::Value *> &values) {
  std::vector<SemaValue> elements;
  for (ir::Value *v : values)
    elements.push_back(SemaValue::ofTensor(v));
  return SemaValue::ofTuple(std::move(elements));
}

SemaValue pack(const std::vector<ir::Value *> &values) {
  if (values.size() == 1)
    return SemaValue::ofTensor(values[0]);
  std::vector<SemaValue> elements;
  for (ir::Value *v : values)
    elements.push_back(SemaValue::ofTensor(v));
  return SemaValue::ofTuple(std::move(elements));
}

} // namespace

/// Reductions and sorts of `tl` and `triton_helpers`, plus triton_helpers' elementwise helpers.
SemaValue Lowerer::callHelperLibrary(const std::string &qualified, CallArguments &args, ast::Position pos) {
  ir::Builder &b = *builder_;
  const bool fromTl = qualified.rfind("tl.", 0) == 0;
  const std::string name = fromTl ? qualified.substr(3) : qualified;
  auto arg = [&](size_t i, const char *kw) -> const SemaValue & {
    const SemaValue *v = argument(args, i, kw);
    if (!v)
      fail(pos, qualified + "() is missing argument '" + kw + "'");
    return *v;
  };
  auto optional = [&](size_t i, const char *kw) -> const SemaValue * {
    const SemaValue *v = argument(args, i, kw);
    return v && v->kind != SemaValue::Kind::None ? v : nullptr;
  };
  auto flag = [&](size_t i, const char *kw, bool fallback) {
    const SemaValue *v = optional(i, kw);
    if (!v)
      return fallback;
    if (v->kind == SemaValue::Kind::Bool)
      return v->boolValue;
    if (v->kind == SemaValue::Kind::Int)
      return v->intValue != 0;
    fail(pos, qualified + "() argument '" + kw + "' must be a compile-time bool");
  };
  // The axis argument: an int, or None for all axes (INT32_MIN).
  auto axisOf = [&](size_t i, const char *kw, ir::Value *x, bool noneMeansAll) {
    const SemaValue *v = optional(i, kw);
    if (!v) {
      if (!noneMeansAll)
        fail(pos, qualified + "() needs an axis");
      return static_cast<int>(INT32_MIN);
    }
    if (v->kind != SemaValue::Kind::Int)
      fail(pos, qualified + "() axis must be a compile-time int, got " + v->describe());
    return normalizeAxis(*this, v->intValue, x->type.rank(), pos);
  };
  auto indexTile = [&](ir::Value *x, int axis) {
    // arange along `axis`, broadcast to x's shape: the index of each element on that axis.
    ir::Value *idx = b.arange(0, x->type.shape[static_cast<size_t>(axis)]);
    for (int d = 0; d < axis; ++d)
      idx = b.expandDims(idx, 0);
    for (int d = axis + 1; d < x->type.rank(); ++d)
      idx = b.expandDims(idx, d);
    return broadcastTo(idx, x->type.shape, pos);
  };

  if (name == "sum" || name == "xor_sum" || name == "reduce_or" || name == "max" || name == "min" ||
      name == "argmax" || name == "argmin") {
    ir::Value *x = toTensor(arg(0, "input"), pos);
    if (x->type.isScalar())
      fail(pos, qualified + "() needs a tensor, got " + x->type.str());
    const bool isArg = name == "argmax" || name == "argmin";
    int axis = axisOf(1, "axis", x, !isArg);
    const bool keep = flag(isArg ? 3 : (name == "max" || name == "min" ? 4 : 2), "keep_dims", false);
    if (name == "sum") {
      DType out = sumType(x->type.dtype);
      if (const SemaValue *d = optional(3, "dtype")) {
        if (d->kind != SemaValue::Kind::DType)
          fail(pos, "tl.sum() dtype must be a dtype");
        out = d->dtype;
      }
      return pack(reduce({castTo(x, out)}, axis, ir::ReduceKind::Sum, ir::NanMode::Ignore, nullptr, keep, pos));
    }
    if (name == "xor_sum" || name == "reduce_or") {
      if (!x->type.isIntegerOrBool())
        fail(pos, qualified + "() needs integers, got " + x->type.str());
      return pack(reduce({x}, axis, name == "xor_sum" ? ir::ReduceKind::Xor : ir::ReduceKind::Or,
                         ir::NanMode::Ignore, nullptr, keep, pos));
    }
    const bool isMax = name == "max" || name == "argmax";
    const bool indices = isArg || flag(2, "return_indices", false);
    if (x->type.dtype == DType::BFloat16)
      x = castTo(x, DType::Float32);
    if (indices) {
      if (axis == INT32_MIN) {
        x = b.reshape(x, {x->type.numElements()});
        axis = 0;
      }
      auto r = reduce({x, indexTile(x, axis)}, axis, isMax ? ir::ReduceKind::ArgMax : ir::ReduceKind::ArgMin,
                      ir::NanMode::Ignore, nullptr, keep, pos);
      return isArg ? SemaValue::ofTensor(r[1]) : pack(r);
    }
    if (core::bitWidth(x->type.dtype) < 32)
      x = castTo(x, core::isFloat(x->type.dtype) ? DType::Float32 : DType::Int32);
    return pack(reduce({x}, axis, isMax ? ir::ReduceKind::Max : ir::ReduceKind::Min, ir::NanMode::Ignore, nullptr, keep, pos));
  }
  if (name == "reduce") {
    std::vector<ir::Value *> inputs = tensorsOf(*this, arg(0, "input"), pos);
    const int axis = axisOf(1, "axis", inputs[0], true);
    const SemaValue &fn = arg(2, "combine_fn");
    auto results = reduce(inputs, axis, ir::ReduceKind::Combine, ir::NanMode::Ignore, &fn, flag(3, "keep_dims", false), pos);
    return arg(0, "input").kind == SemaValue::Kind::Tuple ? packTuple(results) : pack(results);
  }
  if (name == "cumsum" || name == "cumprod" || name == "associative_scan") {
    std::vector<ir::Value *> inputs = tensorsOf(*this, arg(0, "input"), pos);
    const int64_t rawAxis = optional(1, "axis") ? arg(1, "axis").intValue : 0;
    const int axis = normalizeAxis(*this, rawAxis, inputs[0]->type.rank(), pos);
    if (name == "associative_scan") {
      auto results = scan(inputs, axis, ir::ReduceKind::Combine, &arg(2, "combine_fn"), flag(3, "reverse", false), pos);
      return arg(0, "input").kind == SemaValue::Kind::Tuple ? packTuple(results) : pack(results);
    }
    ir::Value *x = inputs[0];
    if (x->type.dtype == DType::BFloat16)
      x = castTo(x, DType::Float32);
    if (name == "cumsum") {
      DType out = sumType(x->type.dtype);
      if (const SemaValue *d = optional(3, "dtype"); d && d->kind == SemaValue::Kind::DType)
        out = d->dtype;
      x = castTo(x, out);
    }
    return pack(scan({x}, axis, name == "cumsum" ? ir::ReduceKind::Sum : ir::ReduceKind::Prod, nullptr,
                     flag(2, "reverse", false), pos));
  }
  if (name == "sort" || name == "sort_with_index") {
    const bool withIndex = name == "sort_with_index";
    ir::Value *x = toTensor(arg(0, "x"), pos);
    ir::Value *idx = withIndex ? toTensor(arg(1, "idxs"), pos) : nullptr;
    const SemaValue *dimArg = optional(withIndex ? 3 : 1, "dim");
    const bool descending = flag(withIndex ? 5 : 2, "descending", false);
    const bool stable = withIndex && flag(4, "stable", false);
    if (idx) {
      const ir::Shape shape = broadcastShapes(x->type.shape, idx->type.shape, pos);
      x = broadcastTo(x, shape, pos);
      idx = broadcastTo(idx, shape, pos);
    }
    if (x->type.isScalar())
      fail(pos, qualified + "() needs a tensor");
    const int last = x->type.rank() - 1;
    if (dimArg && (dimArg->kind != SemaValue::Kind::Int || normalizeAxis(*this, dimArg->intValue, x->type.rank(), pos) != last))
      fail(pos, qualified + "(): only the last dimension can be sorted");
    std::vector<ir::Value *> operands{x};
    std::vector<ir::Type> types{x->type};
    if (idx) {
      operands.push_back(idx);
      types.push_back(idx->type);
      if (const SemaValue *rnumel = optional(2, "rnumel")) {
        // Elements at or past rnumel are padding: they sort after every valid one.
        SemaValue valid = compare(ast::CompareOperator::Lt, SemaValue::ofTensor(idx), *rnumel, pos);
        operands.push_back(broadcastTo(valid.tensor, x->type.shape, pos));
      }
    }
    ir::Op *op = b.create(ir::OpCode::Sort, operands, types);
    op->axis = last;
    op->descending = descending;
    op->stable = stable;
    return pack(op->results);
  }
  if (name == "max2" || name == "min2" || name == "prod" || name == "any") {
    ir::Value *x = toTensor(arg(0, "a"), pos);
    if (x->type.isScalar())
      fail(pos, qualified + "() needs a tensor");
    const int axis = axisOf(1, "dim", x, false);
    ir::ReduceKind kind = name == "max2" ? ir::ReduceKind::Max
                          : name == "min2" ? ir::ReduceKind::Min
                          : name == "prod" ? ir::ReduceKind::Prod
                                           : ir::ReduceKind::Or;
    if (kind == ir::ReduceKind::Or && !x->type.isIntegerOrBool())
      fail(pos, "triton_helpers.any() needs integers or booleans, got " + x->type.str());
    return pack(reduce({x}, axis, kind, ir::NanMode::Propagate, nullptr, false, pos));
  }
  if (name == "max_with_index" || name == "min_with_index") {
    ir::Value *value = toTensor(arg(0, "value"), pos), *index = toTensor(arg(1, "index"), pos);
    const int axis = axisOf(2, "dim", value, false);
    return pack(reduce({value, index}, axis, name == "max_with_index" ? ir::ReduceKind::ArgMax : ir::ReduceKind::ArgMin,
                       ir::NanMode::Propagate, nullptr, false, pos));
  }
  if (name == "online_softmax_reduce") {
    // A row's (max, sum of exp(x - max)) from the per-column running pairs that
    // online_softmax_combine carried: the row's max, and every column's sum
    // rescaled to it; a column whose max is -inf (no element seen) adds its sum
    // unscaled, as Inductor writes it.
    ir::Value *lhsMax = toTensor(arg(0, "lhs_max"), pos);
    const SemaValue &lhsSum = arg(1, "lhs_sum");
    const int axis = axisOf(2, "dim", lhsMax, false);
    const bool fast = flag(3, "use_fast_math", false);
    ir::Value *outMax = reduce({lhsMax}, axis, ir::ReduceKind::Max, ir::NanMode::Propagate, nullptr, false, pos)[0];
    const SemaValue keptMax = SemaValue::ofTensor(b.expandDims(outMax, axis));
    const SemaValue noMax = compare(ast::CompareOperator::Eq, keptMax, SemaValue::ofFloat(-INFINITY), pos);
    const SemaValue delta = SemaValue::ofTensor(
        select(noMax, SemaValue::ofInt(0), binary(ast::BinaryOperator::Sub, SemaValue::ofTensor(lhsMax), keptMax, pos), pos));
    ir::Value *scaled = toTensor(binary(ast::BinaryOperator::Mul, lhsSum, softmaxExp(delta, fast, pos), pos), pos);
    ir::Value *outSum = reduce({castTo(scaled, sumType(scaled->type.dtype))}, axis, ir::ReduceKind::Sum,
                               ir::NanMode::Ignore, nullptr, false, pos)[0];
    return packTuple({outMax, outSum});
  }
  if (name == "select_one") {
    // The element of each row where the mask holds, as the sum of the masked
    // bit patterns: exact when one element is selected (Inductor's looped scans
    // take a block's last element this way), the wrapped sum of the patterns
    // otherwise, as on the GPU.
    ir::Value *x = toTensor(arg(0, "x"), pos);
    if (x->type.isScalar() || x->type.isPointer)
      fail(pos, qualified + "() needs a tensor of numbers, got " + x->type.str());
    const int axis = axisOf(2, "dim", x, false);
    const bool keep = flag(3, "keep_dims", false);
    const int width = core::bitWidth(x->type.dtype);
    const DType bits = width <= 8 ? DType::Int8 : width == 16 ? DType::Int16 : width == 32 ? DType::Int32 : DType::Int64;
    ir::Value *pattern = x->type.dtype == DType::Bool ? castTo(x, bits)
                         : x->type.dtype == bits   ? x
                                                   : b.bitcast(x, ir::Type::tile(bits, x->type.shape));
    ir::Value *masked = toTensor(binary(ast::BinaryOperator::Mul, SemaValue::ofTensor(pattern), arg(1, "mask"), pos), pos);
    masked = castTo(masked, sumType(bits));
    ir::Value *sum = castTo(reduce({masked}, axis, ir::ReduceKind::Sum, ir::NanMode::Ignore, nullptr, keep, pos)[0], bits);
    if (x->type.dtype == DType::Bool)
      return SemaValue::ofTensor(castTo(sum, DType::Bool));
    return SemaValue::ofTensor(x->type.dtype == bits ? sum : b.bitcast(sum, ir::Type::tile(x->type.dtype, sum->type.shape)));
  }
  if (name == "welford") {
    std::vector<ir::Value *> inputs{toTensor(arg(0, "mean"), pos), toTensor(arg(1, "m2"), pos), toTensor(arg(2, "weight"), pos)};
    const int axis = axisOf(3, "dim", inputs[0], false);
    const SemaValue combine = SemaValue::ofBuiltin("triton_helpers.welford_combine");
    return pack(reduce(inputs, axis, ir::ReduceKind::Combine, ir::NanMode::Ignore, &combine, false, pos));
  }
  if (fromTl)
    fail(pos, "'" + qualified + "' is not supported");
  return callHelperElementwise(name, args, pos);
}

} // namespace npusim::triton::lowering
