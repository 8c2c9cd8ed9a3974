// Reductions, scans and sorts as registry rows: tl.sum/max/min/argmax/reduce/
// cumsum/sort and Inductor's triton_helpers reductions (max2, welford,
// max_with_index, any, online_softmax_reduce, select_one, ...). The ops they
// build are Lowerer::reduce and Lowerer::scan (lower_reduce.cpp).
#include "triton/builtins_internal.h"

#include <cmath>

namespace npusim::triton::lowering {

namespace {

using core::DType;

/// The arguments of a reduction call: optional ones, the axis, index tiles.
class ReductionCall {
public:
  explicit ReductionCall(BuiltinCall &c) : c_(c) {}

  const SemaValue &arg(size_t i, const char *keyword) const { return c_.args.required(i, keyword); }
  const SemaValue *optional(size_t i, const char *keyword) const {
    return c_.args.has(i, keyword) ? c_.args.get(i, keyword) : nullptr;
  }
  bool flag(size_t i, const char *keyword, bool fallback) const { return c_.args.flag(i, keyword, fallback); }
  ir::Value *tensor(size_t i, const char *keyword) const { return c_.l.toTensor(arg(i, keyword), c_.pos); }

  /// The axis argument: an int, or None for all axes (INT32_MIN) where
  /// `noneMeansAll`.
  int axis(size_t i, const char *keyword, ir::Value *x, bool noneMeansAll) const {
    const SemaValue *v = optional(i, keyword);
    if (!v) {
      if (!noneMeansAll)
        c_.l.fail(c_.pos, c_.name + "() needs an axis");
      return static_cast<int>(INT32_MIN);
    }
    if (v->kind != SemaValue::Kind::Int)
      c_.l.fail(c_.pos, c_.name + "() axis must be a compile-time int, got " + v->describe());
    return normalizeAxis(v->intValue, x->type.rank());
  }
  int normalizeAxis(int64_t axis, int rank) const {
    const int64_t a = axis < 0 ? axis + rank : axis;
    if (a < 0 || a >= rank)
      c_.l.fail(c_.pos, "axis " + std::to_string(axis) + " is out of range for a rank-" +
                            std::to_string(rank) + " tensor");
    return static_cast<int>(a);
  }
  /// arange along `axis`, broadcast to x's shape: the index of each element on that axis.
  ir::Value *indexTile(ir::Value *x, int axis) const {
    ir::Value *idx = c_.b.arange(0, x->type.shape[static_cast<size_t>(axis)]);
    for (int d = 0; d < axis; ++d)
      idx = c_.b.expandDims(idx, 0);
    for (int d = axis + 1; d < x->type.rank(); ++d)
      idx = c_.b.expandDims(idx, d);
    return c_.l.broadcastTo(idx, x->type.shape, c_.pos);
  }
  /// Values of one or more tensors passed as `input` (a tensor or a tuple of tensors).
  std::vector<ir::Value *> tensors(const SemaValue &v) const {
    std::vector<ir::Value *> out;
    if (v.kind == SemaValue::Kind::Tuple)
      for (const SemaValue &e : v.elements)
        out.push_back(c_.l.toTensor(e, c_.pos));
    else
      out.push_back(c_.l.toTensor(v, c_.pos));
    return out;
  }

private:
  BuiltinCall &c_;
};

/// Triton's _pick_sum_dtype: narrow integers accumulate in 32 bits.
DType sumType(DType in) {
  if (core::isInteger(in) && core::bitWidth(in) < 32)
    return core::isSigned(in) || in == DType::Bool ? DType::Int32 : DType::UInt32;
  return in;
}

SemaValue packTuple(const std::vector<ir::Value *> &values) {
  std::vector<SemaValue> elements;
  for (ir::Value *v : values)
    elements.push_back(SemaValue::ofTensor(v));
  return SemaValue::ofTuple(std::move(elements));
}

SemaValue pack(const std::vector<ir::Value *> &values) {
  return values.size() == 1 ? SemaValue::ofTensor(values[0]) : packTuple(values);
}

/// The reductions of tl (sum, xor_sum, reduce_or, max, min, argmax, argmin).
enum class AxisReduction { Sum, XorSum, ReduceOr, Max, Min, ArgMax, ArgMin };

SemaValue reduceAlongAxis(BuiltinCall &c, AxisReduction r) {
  const ReductionCall call(c);
  ir::Value *x = call.tensor(0, "input");
  if (x->type.isScalar())
    c.l.fail(c.pos, c.name + "() needs a tensor, got " + x->type.str());
  const bool isArg = r == AxisReduction::ArgMax || r == AxisReduction::ArgMin;
  const bool isMinMax = r == AxisReduction::Max || r == AxisReduction::Min;
  int axis = call.axis(1, "axis", x, !isArg);
  const bool keep = call.flag(isArg ? 3 : (isMinMax ? 4 : 2), "keep_dims", false);
  if (r == AxisReduction::Sum) {
    DType out = sumType(x->type.dtype);
    if (const SemaValue *d = call.optional(3, "dtype")) {
      if (d->kind != SemaValue::Kind::DType)
        c.l.fail(c.pos, "tl.sum() dtype must be a dtype");
      out = d->dtype;
    }
    return pack(c.l.reduce({c.l.castTo(x, out)}, axis, ir::ReduceKind::Sum, ir::NanMode::Ignore, nullptr,
                           keep, c.pos));
  }
  if (r == AxisReduction::XorSum || r == AxisReduction::ReduceOr) {
    if (!x->type.isIntegerOrBool())
      c.l.fail(c.pos, c.name + "() needs integers, got " + x->type.str());
    return pack(c.l.reduce({x}, axis, r == AxisReduction::XorSum ? ir::ReduceKind::Xor : ir::ReduceKind::Or,
                           ir::NanMode::Ignore, nullptr, keep, c.pos));
  }
  const bool isMax = r == AxisReduction::Max || r == AxisReduction::ArgMax;
  const bool indices = isArg || call.flag(2, "return_indices", false);
  if (x->type.dtype == DType::BFloat16)
    x = c.l.castTo(x, DType::Float32);
  if (indices) {
    if (axis == INT32_MIN) {
      x = c.b.reshape(x, {x->type.numElements()});
      axis = 0;
    }
    auto results = c.l.reduce({x, call.indexTile(x, axis)}, axis,
                              isMax ? ir::ReduceKind::ArgMax : ir::ReduceKind::ArgMin, ir::NanMode::Ignore,
                              nullptr, keep, c.pos);
    return isArg ? SemaValue::ofTensor(results[1]) : pack(results);
  }
  if (core::bitWidth(x->type.dtype) < 32)
    x = c.l.castTo(x, core::isFloat(x->type.dtype) ? DType::Float32 : DType::Int32);
  return pack(c.l.reduce({x}, axis, isMax ? ir::ReduceKind::Max : ir::ReduceKind::Min, ir::NanMode::Ignore,
                         nullptr, keep, c.pos));
}

/// reduce(input, axis, combine_fn, keep_dims)
SemaValue reduceWithCombine(BuiltinCall &c) {
  const ReductionCall call(c);
  std::vector<ir::Value *> inputs = call.tensors(call.arg(0, "input"));
  const int axis = call.axis(1, "axis", inputs[0], true);
  const SemaValue &fn = call.arg(2, "combine_fn");
  auto results = c.l.reduce(inputs, axis, ir::ReduceKind::Combine, ir::NanMode::Ignore, &fn,
                            call.flag(3, "keep_dims", false), c.pos);
  return call.arg(0, "input").kind == SemaValue::Kind::Tuple ? packTuple(results) : pack(results);
}

/// The scans of tl (cumsum, cumprod, associative_scan).
enum class Scan { Cumsum, Cumprod, Associative };

SemaValue scanAlongAxis(BuiltinCall &c, Scan s) {
  const ReductionCall call(c);
  std::vector<ir::Value *> inputs = call.tensors(call.arg(0, "input"));
  const int64_t rawAxis = call.optional(1, "axis") ? call.arg(1, "axis").intValue : 0;
  const int axis = call.normalizeAxis(rawAxis, inputs[0]->type.rank());
  if (s == Scan::Associative) {
    auto results = c.l.scan(inputs, axis, ir::ReduceKind::Combine, &call.arg(2, "combine_fn"),
                            call.flag(3, "reverse", false), c.pos);
    return call.arg(0, "input").kind == SemaValue::Kind::Tuple ? packTuple(results) : pack(results);
  }
  ir::Value *x = inputs[0];
  if (x->type.dtype == DType::BFloat16)
    x = c.l.castTo(x, DType::Float32);
  if (s == Scan::Cumsum) {
    DType out = sumType(x->type.dtype);
    if (const SemaValue *d = call.optional(3, "dtype"); d && d->kind == SemaValue::Kind::DType)
      out = d->dtype;
    x = c.l.castTo(x, out);
  }
  return pack(c.l.scan({x}, axis, s == Scan::Cumsum ? ir::ReduceKind::Sum : ir::ReduceKind::Prod, nullptr,
                       call.flag(2, "reverse", false), c.pos));
}

/// sort(x, dim, descending); sort_with_index(x, idxs, rnumel, dim, stable, descending)
SemaValue sortLastAxis(BuiltinCall &c, bool withIndex) {
  const ReductionCall call(c);
  ir::Value *x = call.tensor(0, "x");
  ir::Value *idx = withIndex ? call.tensor(1, "idxs") : nullptr;
  const SemaValue *dimArg = call.optional(withIndex ? 3 : 1, "dim");
  const bool descending = call.flag(withIndex ? 5 : 2, "descending", false);
  const bool stable = withIndex && call.flag(4, "stable", false);
  if (idx) {
    const ir::Shape shape = c.l.broadcastShapes(x->type.shape, idx->type.shape, c.pos);
    x = c.l.broadcastTo(x, shape, c.pos);
    idx = c.l.broadcastTo(idx, shape, c.pos);
  }
  if (x->type.isScalar())
    c.l.fail(c.pos, c.name + "() needs a tensor");
  const int last = x->type.rank() - 1;
  if (dimArg &&
      (dimArg->kind != SemaValue::Kind::Int || call.normalizeAxis(dimArg->intValue, x->type.rank()) != last))
    c.l.fail(c.pos, c.name + "(): only the last dimension can be sorted");
  std::vector<ir::Value *> operands{x};
  std::vector<ir::Type> types{x->type};
  if (idx) {
    operands.push_back(idx);
    types.push_back(idx->type);
    if (const SemaValue *rnumel = call.optional(2, "rnumel")) {
      // Elements at or past rnumel are padding: they sort after every valid one.
      const SemaValue valid = c.l.compare(ast::CompareOperator::Lt, SemaValue::ofTensor(idx), *rnumel, c.pos);
      operands.push_back(c.l.broadcastTo(valid.tensor, x->type.shape, c.pos));
    }
  }
  ir::Op *op = c.b.create(ir::OpCode::Sort, operands, types);
  op->axis = last;
  op->descending = descending;
  op->stable = stable;
  return pack(op->results);
}

/// max2, min2, prod, any (kind Or): a reduction along `dim` that propagates NaN.
SemaValue helperReduction(BuiltinCall &c, ir::ReduceKind kind) {
  const ReductionCall call(c);
  ir::Value *x = call.tensor(0, "a");
  if (x->type.isScalar())
    c.l.fail(c.pos, c.name + "() needs a tensor");
  const int axis = call.axis(1, "dim", x, false);
  if (kind == ir::ReduceKind::Or && !x->type.isIntegerOrBool())
    c.l.fail(c.pos, c.name + "() needs integers or booleans, got " + x->type.str());
  return pack(c.l.reduce({x}, axis, kind, ir::NanMode::Propagate, nullptr, false, c.pos));
}

/// max_with_index (kind ArgMax), min_with_index (ArgMin)
SemaValue helperReductionWithIndex(BuiltinCall &c, ir::ReduceKind kind) {
  const ReductionCall call(c);
  ir::Value *value = call.tensor(0, "value"), *index = call.tensor(1, "index");
  const int axis = call.axis(2, "dim", value, false);
  return pack(c.l.reduce({value, index}, axis, kind, ir::NanMode::Propagate, nullptr, false, c.pos));
}

/// online_softmax_reduce: a row's (max, sum of exp(x - max)) from the
/// per-column running pairs that online_softmax_combine carried: the row's
/// max, and every column's sum rescaled to it; a column whose max is -inf (no
/// element seen) adds its sum unscaled, as Inductor writes it.
SemaValue helperOnlineSoftmaxReduce(BuiltinCall &c) {
  const ReductionCall call(c);
  ir::Value *lhsMax = call.tensor(0, "lhs_max");
  const SemaValue &lhsSum = call.arg(1, "lhs_sum");
  const int axis = call.axis(2, "dim", lhsMax, false);
  const bool fast = call.flag(3, "use_fast_math", false);
  ir::Value *outMax =
      c.l.reduce({lhsMax}, axis, ir::ReduceKind::Max, ir::NanMode::Propagate, nullptr, false, c.pos)[0];
  const SemaValue keptMax = SemaValue::ofTensor(c.b.expandDims(outMax, axis));
  const SemaValue noMax =
      c.l.compare(ast::CompareOperator::Eq, keptMax, SemaValue::ofFloat(-INFINITY), c.pos);
  const SemaValue delta = SemaValue::ofTensor(
      c.l.select(noMax, SemaValue::ofInt(0),
                 c.l.binary(ast::BinaryOperator::Sub, SemaValue::ofTensor(lhsMax), keptMax, c.pos), c.pos));
  ir::Value *scaled = c.l.toTensor(
      c.l.binary(ast::BinaryOperator::Mul, lhsSum, c.l.softmaxExp(delta, fast, c.pos), c.pos), c.pos);
  ir::Value *outSum = c.l.reduce({c.l.castTo(scaled, sumType(scaled->type.dtype))}, axis, ir::ReduceKind::Sum,
                                 ir::NanMode::Ignore, nullptr, false, c.pos)[0];
  return packTuple({outMax, outSum});
}

/// select_one: the element of each row where the mask holds, as the sum of the
/// masked bit patterns: exact when one element is selected (Inductor's looped
/// scans take a block's last element this way), the wrapped sum of the
/// patterns otherwise, as on the GPU.
SemaValue helperSelectOne(BuiltinCall &c) {
  const ReductionCall call(c);
  ir::Value *x = call.tensor(0, "x");
  if (x->type.isScalar() || x->type.isPointer)
    c.l.fail(c.pos, c.name + "() needs a tensor of numbers, got " + x->type.str());
  const int axis = call.axis(2, "dim", x, false);
  const bool keep = call.flag(3, "keep_dims", false);
  const int width = core::bitWidth(x->type.dtype);
  const DType bits = width <= 8    ? DType::Int8
                     : width == 16 ? DType::Int16
                     : width == 32 ? DType::Int32
                                   : DType::Int64;
  ir::Value *pattern = x->type.dtype == DType::Bool ? c.l.castTo(x, bits)
                       : x->type.dtype == bits      ? x
                                                    : c.b.bitcast(x, ir::Type::tile(bits, x->type.shape));
  ir::Value *masked = c.l.toTensor(
      c.l.binary(ast::BinaryOperator::Mul, SemaValue::ofTensor(pattern), call.arg(1, "mask"), c.pos), c.pos);
  masked = c.l.castTo(masked, sumType(bits));
  ir::Value *sum = c.l.castTo(
      c.l.reduce({masked}, axis, ir::ReduceKind::Sum, ir::NanMode::Ignore, nullptr, keep, c.pos)[0], bits);
  if (x->type.dtype == DType::Bool)
    return SemaValue::ofTensor(c.l.castTo(sum, DType::Bool));
  return SemaValue::ofTensor(
      x->type.dtype == bits ? sum : c.b.bitcast(sum, ir::Type::tile(x->type.dtype, sum->type.shape)));
}

/// welford(mean, m2, weight, dim): the running triples of a row combined.
SemaValue helperWelford(BuiltinCall &c) {
  const ReductionCall call(c);
  std::vector<ir::Value *> inputs{call.tensor(0, "mean"), call.tensor(1, "m2"), call.tensor(2, "weight")};
  const int axis = call.axis(3, "dim", inputs[0], false);
  const SemaValue combine = SemaValue::ofBuiltin("triton_helpers.welford_combine");
  return pack(c.l.reduce(inputs, axis, ir::ReduceKind::Combine, ir::NanMode::Ignore, &combine, false, c.pos));
}

/// The reductions tl and triton_helpers both have, by the name after the module.
const std::vector<BuiltinEntry> &sharedReductions() {
  static const std::vector<BuiltinEntry> kShared = {
      {"sum", member(reduceAlongAxis, AxisReduction::Sum)},
      {"xor_sum", member(reduceAlongAxis, AxisReduction::XorSum)},
      {"reduce_or", member(reduceAlongAxis, AxisReduction::ReduceOr)},
      {"max", member(reduceAlongAxis, AxisReduction::Max)},
      {"min", member(reduceAlongAxis, AxisReduction::Min)},
      {"argmax", member(reduceAlongAxis, AxisReduction::ArgMax)},
      {"argmin", member(reduceAlongAxis, AxisReduction::ArgMin)},
      {"reduce", reduceWithCombine},
      {"cumsum", member(scanAlongAxis, Scan::Cumsum)},
      {"cumprod", member(scanAlongAxis, Scan::Cumprod)},
      {"associative_scan", member(scanAlongAxis, Scan::Associative)},
      {"sort", member(sortLastAxis, false)},
  };
  return kShared;
}

bool registerReductions() {
  for (const BuiltinEntry &entry : sharedReductions()) {
    registerBuiltin("tl." + std::string(entry.name), entry.handler);
    registerBuiltin("triton_helpers." + std::string(entry.name), entry.handler);
  }
  return registerBuiltins({
      {"triton_helpers.sort_with_index", member(sortLastAxis, true)},
      {"triton_helpers.max2", member(helperReduction, ir::ReduceKind::Max)},
      {"triton_helpers.min2", member(helperReduction, ir::ReduceKind::Min)},
      {"triton_helpers.prod", member(helperReduction, ir::ReduceKind::Prod)},
      {"triton_helpers.any", member(helperReduction, ir::ReduceKind::Or)},
      {"triton_helpers.max_with_index", member(helperReductionWithIndex, ir::ReduceKind::ArgMax)},
      {"triton_helpers.min_with_index", member(helperReductionWithIndex, ir::ReduceKind::ArgMin)},
      {"triton_helpers.online_softmax_reduce", helperOnlineSoftmaxReduce},
      {"triton_helpers.select_one", helperSelectOne},
      {"triton_helpers.welford", helperWelford},
  });
}

const bool kReductionsRegistered = registerReductions();

} // namespace

} // namespace npusim::triton::lowering
