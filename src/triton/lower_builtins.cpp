// The builtin registry, with its rows for the `tl` core and the Python
// builtins: creation, memory, shapes, casts, dot, checks. The other families
// register their rows from files of their own (builtins_internal.h).
#include "triton/builtins_internal.h"

#include <algorithm>
#include <cmath>
#include <string_view>
#include <unordered_map>
#include <utility>

namespace npusim::triton::lowering {

namespace {

SemaValue tensorValue(ir::Value *v) {
  return SemaValue::ofTensor(v);
}

/// Broadcasts mask/other/value operands of memory operations to the pointer's shape.
ir::Value *memoryOperand(Lowerer &l, const Args &args, ir::Value *ptr, ir::Value *v, const char *what) {
  if (ptr->type.isScalar() && v->type.isTile())
    l.fail(args.pos(), std::string(what) + " cannot be a tensor when the pointer is a scalar");
  return l.broadcastTo(v, ptr->type.shape, args.pos());
}

ir::Value *maskOperand(Lowerer &l, const Args &args, ir::Value *ptr, size_t index) {
  if (!args.has(index, "mask"))
    return nullptr;
  ir::Value *mask = args.tensor(index, "mask");
  if (!mask->type.isBool())
    l.fail(args.pos(), args.name() + "(): the mask must be boolean (i1), got " + mask->type.str());
  return memoryOperand(l, args, ptr, mask, "the mask");
}

ir::Value *pointerOperand(Lowerer &l, const Args &args) {
  ir::Value *ptr = args.tensor(0, "pointer");
  if (!ptr->type.isPointer)
    l.fail(args.pos(), args.name() + "() needs a pointer, got " + ptr->type.str());
  return ptr;
}

/// The value to store or combine atomically: broadcast and converted to the pointee type.
ir::Value *storedValue(Lowerer &l, const Args &args, ir::Value *ptr, const SemaValue &value) {
  ir::Value *v = value.isTensor() ? value.tensor : l.constant(ptr->type.dtype, value, {}, args.pos());
  if (v->type.isPointer)
    l.fail(args.pos(), "cannot store a pointer");
  v = memoryOperand(l, args, ptr, v, "the value");
  return l.castTo(v, ptr->type.dtype);
}

/// min (isMin), max
SemaValue pyMinMax(BuiltinCall &c, bool isMin) {
  if (c.arguments.positional.size() < 2 || !c.arguments.keywords.empty())
    c.l.fail(c.pos, c.name + "() takes two or more positional arguments here");
  SemaValue acc = c.arguments.positional[0];
  for (size_t i = 1; i < c.arguments.positional.size(); ++i) {
    const SemaValue &x = c.arguments.positional[i];
    if (acc.isNumber() && x.isNumber()) {
      const double a =
          acc.kind == SemaValue::Kind::Float
              ? acc.floatValue
              : static_cast<double>(acc.kind == SemaValue::Kind::Bool ? acc.boolValue : acc.intValue);
      const double y = x.kind == SemaValue::Kind::Float
                           ? x.floatValue
                           : static_cast<double>(x.kind == SemaValue::Kind::Bool ? x.boolValue : x.intValue);
      if (isMin ? y < a : y > a)
        acc = x;
      continue;
    }
    auto [p, q] = c.l.promote(acc, x, false, c.pos);
    acc = tensorValue(c.b.minMax(isMin ? ir::OpCode::Min : ir::OpCode::Max, p, q, ir::NanMode::Ignore));
  }
  return acc;
}

/// float, int, bool, abs of a compile-time number.
enum class NumberConversion { Float, Int, Bool, Abs };

SemaValue pyNumberConversion(BuiltinCall &c, NumberConversion to) {
  const SemaValue &x = c.args.required(0, "x");
  if (to == NumberConversion::Float && x.kind == SemaValue::Kind::String) {
    if (x.text == "inf" || x.text == "+inf")
      return SemaValue::ofFloat(INFINITY);
    if (x.text == "-inf")
      return SemaValue::ofFloat(-INFINITY);
    if (x.text == "nan" || x.text == "-nan")
      return SemaValue::ofFloat(NAN);
    char *end = nullptr;
    const double v = std::strtod(x.text.c_str(), &end);
    if (x.text.empty() || *end != '\0')
      c.l.fail(c.pos, "float() cannot convert '" + x.text + "'");
    return SemaValue::ofFloat(v);
  }
  if (!x.isNumber())
    c.l.fail(c.pos, c.name + "() needs a compile-time number, got " + x.describe() +
                        (x.isTensor() ? "; use .to(dtype)" : ""));
  const double d = x.kind == SemaValue::Kind::Float
                       ? x.floatValue
                       : static_cast<double>(x.kind == SemaValue::Kind::Bool ? x.boolValue : x.intValue);
  if (to == NumberConversion::Float)
    return SemaValue::ofFloat(d);
  if (to == NumberConversion::Bool)
    return SemaValue::ofBool(d != 0.0);
  if (to == NumberConversion::Abs)
    return x.kind == SemaValue::Kind::Float ? SemaValue::ofFloat(std::fabs(d))
                                            : SemaValue::ofInt(std::llabs(static_cast<int64_t>(d)));
  if (!std::isfinite(d) || std::fabs(d) > 9.2e18)
    c.l.fail(c.pos, "int() of a value out of range");
  return SemaValue::ofInt(static_cast<int64_t>(d));
}

/// len
SemaValue pyLen(BuiltinCall &c) {
  const SemaValue &x = c.args.required(0, "x");
  if (x.kind == SemaValue::Kind::Tuple)
    return SemaValue::ofInt(static_cast<int64_t>(x.elements.size()));
  if (x.isTensor() && x.tensor->type.isTile())
    return SemaValue::ofInt(x.tensor->type.shape[0]);
  c.l.fail(c.pos, "len() of " + x.describe());
}

/// print, tl.static_print, tl.device_print
SemaValue pyPrint(BuiltinCall &) {
  return SemaValue::none(); // printing has no effect on values
}

/// range, tl.range, tl.static_range
SemaValue pyRange(BuiltinCall &c) {
  c.l.fail(c.pos, c.name + "() can only be used as the iterable of a for loop");
}

/// tl.program_id (count false), tl.num_programs (count true)
SemaValue tlProgramId(BuiltinCall &c, bool count) {
  c.args.noExtra(1, {"axis"});
  const int64_t axis = c.args.integer(0, "axis");
  if (axis < 0 || axis > 2)
    c.l.fail(c.pos, c.name + "() axis must be 0, 1 or 2, got " + std::to_string(axis));
  return tensorValue(count ? c.b.numPrograms(static_cast<int>(axis)) : c.b.programId(static_cast<int>(axis)));
}

/// tl.arange
SemaValue tlArange(BuiltinCall &c) {
  c.args.noExtra(2, {"start", "end"});
  const int64_t start = c.args.integer(0, "start"), end = c.args.integer(1, "end");
  if (end <= start)
    c.l.fail(c.pos,
             "tl.arange() needs end > start, got " + std::to_string(start) + ", " + std::to_string(end));
  if (!isPowerOfTwo(end - start))
    c.l.fail(c.pos, "tl.arange()'s range must be a power of 2, got " + std::to_string(end - start));
  if (end - start > kMaxTileElements || end > INT32_MAX || start < INT32_MIN)
    c.l.fail(c.pos, "tl.arange() range is too large");
  return tensorValue(c.b.arange(start, end));
}

/// tl.full (full true), tl.zeros
SemaValue tlFull(BuiltinCall &c, bool full) {
  c.args.noExtra(full ? 3 : 2, {"shape", "value", "dtype"});
  const ir::Shape shape = c.args.shape(0, "shape");
  c.args.checkShape(shape);
  const core::DType dtype = c.args.dtype(full ? 2 : 1, "dtype");
  const SemaValue value = full ? c.args.required(1, "value") : SemaValue::ofInt(0);
  if (value.isTensor()) {
    if (value.tensor->type.isTile())
      c.l.fail(c.pos, "tl.full() value must be a scalar");
    ir::Value *v = c.l.castTo(value.tensor, dtype);
    return tensorValue(shape.empty() ? v : c.b.splat(v, shape));
  }
  return tensorValue(c.l.constant(dtype, value, shape, c.pos));
}

/// tl.zeros_like
SemaValue tlZerosLike(BuiltinCall &c) {
  ir::Value *x = c.args.tensor(0, "input");
  return tensorValue(c.l.constant(x->type.dtype, SemaValue::ofInt(0), x->type.shape, c.pos));
}

/// tl.load
SemaValue tlLoad(BuiltinCall &c) {
  c.args.noExtra(3, {"pointer", "mask", "other", "boundary_check", "padding_option", "cache_modifier",
                     "eviction_policy", "volatile"});
  if (c.args.has(99, "boundary_check") ||
      (c.args.get(99, "padding_option") &&
       c.args.get(99, "padding_option")->kind == SemaValue::Kind::String &&
       !c.args.get(99, "padding_option")->text.empty()))
    c.l.fail(c.pos, "block pointers (boundary_check, padding_option) are not supported");
  ir::Value *ptr = pointerOperand(c.l, c.args);
  ir::Value *mask = maskOperand(c.l, c.args, ptr, 1);
  ir::Value *other = nullptr;
  if (c.args.has(2, "other")) {
    if (!mask)
      c.l.fail(c.pos, "tl.load(): 'other' needs a mask");
    const SemaValue &o = c.args.required(2, "other");
    ir::Value *ov = o.isTensor() ? o.tensor : c.l.constant(ptr->type.dtype, o, {}, c.pos);
    other = c.l.castTo(memoryOperand(c.l, c.args, ptr, ov, "other"), ptr->type.dtype);
  }
  return tensorValue(c.b.load(ptr, mask, other));
}

/// tl.store
SemaValue tlStore(BuiltinCall &c) {
  c.args.noExtra(3, {"pointer", "value", "mask", "boundary_check", "cache_modifier", "eviction_policy"});
  if (c.args.has(99, "boundary_check"))
    c.l.fail(c.pos, "block pointers (boundary_check) are not supported");
  ir::Value *ptr = pointerOperand(c.l, c.args);
  ir::Value *value = storedValue(c.l, c.args, ptr, c.args.required(1, "value"));
  c.b.store(ptr, value, maskOperand(c.l, c.args, ptr, 2));
  return SemaValue::none();
}

/// tl.atomic_add, tl.atomic_max, tl.atomic_min, tl.atomic_and, tl.atomic_or, tl.atomic_xor, tl.atomic_xchg
SemaValue tlAtomic(BuiltinCall &c, ir::AtomicKind kind) {
  c.args.noExtra(3, {"pointer", "val", "mask", "sem", "scope"});
  ir::Value *ptr = pointerOperand(c.l, c.args);
  ir::Value *value = storedValue(c.l, c.args, ptr, c.args.required(1, "val"));
  std::vector<ir::Value *> operands{ptr, value};
  if (ir::Value *mask = maskOperand(c.l, c.args, ptr, 2))
    operands.push_back(mask);
  ir::Op *op =
      c.b.create(ir::OpCode::AtomicRMW, operands, {ir::Type::tile(ptr->type.dtype, ptr->type.shape)});
  op->atomicKind = kind;
  return tensorValue(op->result());
}

/// tl.where
SemaValue tlWhere(BuiltinCall &c) {
  c.args.noExtra(3, {"condition", "x", "y"});
  return tensorValue(
      c.l.select(c.args.required(0, "condition"), c.args.required(1, "x"), c.args.required(2, "y"), c.pos));
}

/// tl.maximum (op Max), tl.minimum (op Min)
SemaValue tlMinimumMaximum(BuiltinCall &c, ir::OpCode op) {
  c.args.noExtra(3, {"x", "y", "propagate_nan"});
  const SemaValue *nan = c.args.get(2, "propagate_nan");
  const bool propagate = nan && nan->kind == SemaValue::Kind::String && nan->text == "ALL";
  auto [x, y] = c.l.promote(c.args.required(0, "x"), c.args.required(1, "y"), false, c.pos);
  return tensorValue(c.b.minMax(op, x, y, propagate ? ir::NanMode::Propagate : ir::NanMode::Ignore));
}

/// tl.clamp
SemaValue tlClamp(BuiltinCall &c) {
  c.args.noExtra(4, {"x", "min", "max", "propagate_nan"});
  const SemaValue *nan = c.args.get(3, "propagate_nan");
  const ir::NanMode mode = nan && nan->kind == SemaValue::Kind::String && nan->text == "ALL"
                               ? ir::NanMode::Propagate
                               : ir::NanMode::Ignore;
  auto [x, lo] = c.l.promote(c.args.required(0, "x"), c.args.required(1, "min"), false, c.pos);
  ir::Value *lower = c.b.minMax(ir::OpCode::Max, x, lo, mode);
  auto [y, hi] = c.l.promote(SemaValue::ofTensor(lower), c.args.required(2, "max"), false, c.pos);
  return tensorValue(c.b.minMax(ir::OpCode::Min, y, hi, mode));
}

/// tl.cdiv
SemaValue tlCdiv(BuiltinCall &c) {
  const SemaValue &x = c.args.required(0, "x"), &y = c.args.required(1, "div");
  if (x.kind == SemaValue::Kind::Int && y.kind == SemaValue::Kind::Int) {
    if (y.intValue == 0)
      c.l.fail(c.pos, "tl.cdiv() by zero");
    return c.l.binary(ast::BinaryOperator::FloorDiv,
                      c.l.binary(ast::BinaryOperator::Sub, c.l.binary(ast::BinaryOperator::Add, x, y, c.pos),
                                 SemaValue::ofInt(1), c.pos),
                      y, c.pos);
  }
  SemaValue sum = c.l.binary(ast::BinaryOperator::Sub, c.l.binary(ast::BinaryOperator::Add, x, y, c.pos),
                             SemaValue::ofInt(1), c.pos);
  return c.l.binary(ast::BinaryOperator::FloorDiv, sum, y, c.pos);
}

/// tl.multiple_of, tl.max_contiguous, tl.max_constancy
SemaValue tlValueHint(BuiltinCall &c) {
  return c.args.required(0, "input"); // alignment hints change no value
}

/// tl.assume
SemaValue tlAssume(BuiltinCall &) {
  return SemaValue::none();
}

/// tl.debug_barrier
SemaValue tlDebugBarrier(BuiltinCall &c) {
  c.b.create(ir::OpCode::Barrier, {}, {});
  return SemaValue::none();
}

/// tl.static_assert
SemaValue tlStaticAssert(BuiltinCall &c) {
  const SemaValue &cond = c.args.required(0, "cond");
  if (!cond.isConstexpr())
    c.l.fail(c.pos, "tl.static_assert() needs a compile-time condition");
  const bool ok = cond.kind == SemaValue::Kind::Bool  ? cond.boolValue
                  : cond.kind == SemaValue::Kind::Int ? cond.intValue != 0
                                                      : cond.kind != SemaValue::Kind::None;
  if (!ok) {
    const SemaValue *msg = c.args.get(1, "msg");
    c.l.fail(c.pos, "static assertion failed" +
                        (msg && msg->kind == SemaValue::Kind::String ? ": " + msg->text : std::string()));
  }
  return SemaValue::none();
}

/// tl.device_assert
SemaValue tlDeviceAssert(BuiltinCall &c) {
  c.args.noExtra(3, {"cond", "msg", "mask"});
  const SemaValue &condition = c.args.required(0, "cond");
  std::string message;
  if (const SemaValue *m = c.args.get(1, "msg"); m && m->kind == SemaValue::Kind::String)
    message = m->text;
  ir::Value *cond = c.l.toBool(c.l.toTensor(condition, c.pos));
  if (c.args.has(2, "mask")) {
    ir::Value *mask = c.l.toBool(c.args.tensor(2, "mask"));
    const ir::Shape shape = c.l.broadcastShapes(cond->type.shape, mask->type.shape, c.pos);
    cond = c.b.binary(ir::OpCode::Or, c.l.broadcastTo(cond, shape, c.pos),
                      c.b.unary(ir::OpCode::Not, c.l.broadcastTo(mask, shape, c.pos)));
  }
  c.b.assertTrue(cond, message);
  return SemaValue::none();
}

/// tl.broadcast_to
SemaValue tlBroadcastTo(BuiltinCall &c) {
  ir::Value *x = c.args.tensor(0, "input");
  const ir::Shape shape = c.args.shape(1, "shape");
  c.args.checkShape(shape);
  return tensorValue(c.l.broadcastTo(x, shape, c.pos));
}

/// tl.broadcast
SemaValue tlBroadcast(BuiltinCall &c) {
  ir::Value *x = c.args.tensor(0, "input"), *y = c.args.tensor(1, "other");
  const ir::Shape shape = c.l.broadcastShapes(x->type.shape, y->type.shape, c.pos);
  return SemaValue::ofTuple(
      {tensorValue(c.l.broadcastTo(x, shape, c.pos)), tensorValue(c.l.broadcastTo(y, shape, c.pos))});
}

/// tl.reshape, tl.view, tl.ravel (flat: to one axis)
SemaValue tlReshape(BuiltinCall &c, bool flat) {
  ir::Value *x = c.args.tensor(0, "input");
  ir::Shape shape = flat ? ir::Shape{x->type.numElements()} : c.args.shape(1, "shape");
  c.args.checkShape(shape);
  if (ir::numElements(shape) != x->type.numElements())
    c.l.fail(c.pos, c.name + "() cannot turn " + x->type.str() + " into " + ir::shapeString(shape));
  if (x->type.isScalar())
    return tensorValue(c.b.splat(x, shape));
  return tensorValue(shape == x->type.shape ? x : c.b.reshape(x, shape));
}

/// tl.expand_dims
SemaValue tlExpandDims(BuiltinCall &c) {
  ir::Value *x = c.args.tensor(0, "input");
  const SemaValue &axisArg = c.args.required(1, "axis");
  std::vector<SemaValue> axes =
      axisArg.kind == SemaValue::Kind::Tuple ? axisArg.elements : std::vector<SemaValue>{axisArg};
  const int newRank = x->type.rank() + static_cast<int>(axes.size());
  std::vector<int> normalized;
  for (const SemaValue &a : axes) {
    if (a.kind != SemaValue::Kind::Int)
      c.l.fail(c.pos, "tl.expand_dims() axis must be a compile-time int");
    int64_t ax = a.intValue < 0 ? a.intValue + newRank : a.intValue;
    if (ax < 0 || ax >= newRank)
      c.l.fail(c.pos, "tl.expand_dims() axis " + std::to_string(a.intValue) + " out of range");
    normalized.push_back(static_cast<int>(ax));
  }
  std::sort(normalized.begin(), normalized.end());
  for (int ax : normalized)
    x = c.b.expandDims(x, ax);
  return tensorValue(x);
}

/// tl.trans, tl.permute
SemaValue tlPermute(BuiltinCall &c) {
  ir::Value *x = c.args.tensor(0, "input");
  std::vector<int> order;
  if (c.arguments.positional.size() > 1 || c.args.has(1, "dims")) {
    const SemaValue &d = c.args.required(1, "dims");
    std::vector<SemaValue> dims =
        d.kind == SemaValue::Kind::Tuple
            ? d.elements
            : std::vector<SemaValue>(c.arguments.positional.begin() + 1, c.arguments.positional.end());
    for (const SemaValue &v : dims) {
      if (v.kind != SemaValue::Kind::Int)
        c.l.fail(c.pos, c.name + "() dims must be compile-time ints");
      order.push_back(static_cast<int>(v.intValue));
    }
  } else {
    if (x->type.rank() != 2)
      c.l.fail(c.pos, c.name + "() without dims needs a 2-D tensor, got " + x->type.str());
    order = {1, 0};
  }
  std::vector<bool> seen(static_cast<size_t>(x->type.rank()), false);
  if (static_cast<int>(order.size()) != x->type.rank())
    c.l.fail(c.pos, c.name + "() needs one dim per axis of " + x->type.str());
  for (int d : order) {
    if (d < 0 || d >= x->type.rank() || seen[static_cast<size_t>(d)])
      c.l.fail(c.pos, c.name + "() dims must be a permutation of the axes");
    seen[static_cast<size_t>(d)] = true;
  }
  return tensorValue(c.b.permute(x, order));
}

/// tl.cast, tl.to
SemaValue tlCast(BuiltinCall &c) {
  c.args.noExtra(3, {"input", "dtype", "bitcast", "fp_downcast_rounding"});
  ir::Value *x = c.args.tensor(0, "input");
  const core::DType to = c.args.dtype(1, "dtype");
  if (c.args.flag(2, "bitcast", false)) {
    if (x->type.isPointer)
      c.l.fail(c.pos, "bitcast of pointers is not supported");
    if (core::bitWidth(x->type.dtype) != core::bitWidth(to))
      c.l.fail(c.pos, "cannot bitcast " + x->type.str() + " to " + std::string(core::tritonName(to)) +
                          ": the widths differ");
    if (x->type.dtype == to)
      return tensorValue(x);
    return tensorValue(c.b.bitcast(x, ir::Type::tile(to, x->type.shape)));
  }
  if (const SemaValue *r = c.args.get(99, "fp_downcast_rounding");
      r && r->kind == SemaValue::Kind::String && r->text != "rtne")
    c.l.fail(c.pos, "fp_downcast_rounding '" + r->text + "' is not supported");
  if (x->type.isPointer)
    c.l.fail(c.pos, "casting pointers is not supported");
  return tensorValue(c.l.castTo(x, to));
}

/// tl.dot
SemaValue tlDot(BuiltinCall &c) {
  c.args.noExtra(
      7, {"input", "other", "acc", "input_precision", "allow_tf32", "max_num_imprecise_acc", "out_dtype"});
  ir::Value *a = c.args.tensor(0, "input"), *bb = c.args.tensor(1, "other");
  if (a->type.rank() != 2 || bb->type.rank() != 2)
    c.l.fail(c.pos, "tl.dot() needs 2-D operands, got " + a->type.str() + " and " + bb->type.str());
  if (a->type.shape[1] != bb->type.shape[0])
    c.l.fail(c.pos, "tl.dot() inner dimensions differ: " + a->type.str() + " and " + bb->type.str());
  if (a->type.dtype != bb->type.dtype)
    c.l.fail(c.pos,
             "tl.dot() operands must have the same dtype, got " + a->type.str() + " and " + bb->type.str());
  const core::DType in = a->type.dtype;
  core::DType out = core::isFloat(in) ? core::DType::Float32 : core::DType::Int32;
  if (c.args.has(6, "out_dtype"))
    out = c.args.dtype(6, "out_dtype");
  if (in == core::DType::Float64)
    out = core::DType::Float64;
  if (core::isInteger(in) != core::isInteger(out))
    c.l.fail(c.pos, "tl.dot() out_dtype must match the operands' kind (int or float)");
  const ir::Shape shape{a->type.shape[0], bb->type.shape[1]};
  ir::Value *acc = nullptr;
  if (c.args.has(2, "acc")) {
    acc = c.args.tensor(2, "acc");
    if (acc->type.shape != shape)
      c.l.fail(c.pos, "tl.dot() acc must be " + ir::shapeString(shape) + ", got " + acc->type.str());
    out = acc->type.dtype;
  } else {
    acc = c.l.constant(out, SemaValue::ofInt(0), shape, c.pos);
  }
  ir::InputPrecision precision = ir::InputPrecision::TF32;
  if (const SemaValue *p = c.args.get(3, "input_precision"); p && p->kind == SemaValue::Kind::String) {
    if (p->text == "ieee")
      precision = ir::InputPrecision::IEEE;
    else if (p->text == "tf32")
      precision = ir::InputPrecision::TF32;
    else if (p->text == "tf32x3")
      precision = ir::InputPrecision::TF32x3;
    else
      c.l.fail(c.pos, "tl.dot() input_precision '" + p->text + "' is not supported");
  } else if (c.args.has(4, "allow_tf32")) {
    precision = c.args.flag(4, "allow_tf32", true) ? ir::InputPrecision::TF32 : ir::InputPrecision::IEEE;
  }
  if (in != core::DType::Float32)
    precision = ir::InputPrecision::IEEE;
  ir::Op *op = c.b.create(ir::OpCode::Dot, {a, bb, acc}, {acc->type});
  op->inputPrecision = precision;
  return tensorValue(op->result());
}

/// tl.constexpr
SemaValue tlConstexpr(BuiltinCall &c) {
  return c.args.required(0, "value");
}

/// tl.abs
SemaValue tlAbs(BuiltinCall &c) {
  ir::Value *x = c.args.tensor(0, "x");
  return tensorValue(c.b.unary(ir::OpCode::Abs, x));
}

/// Every builtin by the name a kernel calls it by: the rows of this file, and
/// those other files register (registerBuiltin). Names without a dot are
/// Python builtins; a null handler is a name a kernel may mention but not call.
std::unordered_map<std::string, BuiltinHandler> &builtins() {
  static std::unordered_map<std::string, BuiltinHandler> kTable = {
      {"min", member(pyMinMax, true)},
      {"max", member(pyMinMax, false)},
      {"float", member(pyNumberConversion, NumberConversion::Float)},
      {"int", member(pyNumberConversion, NumberConversion::Int)},
      {"bool", member(pyNumberConversion, NumberConversion::Bool)},
      {"abs", member(pyNumberConversion, NumberConversion::Abs)},
      {"len", pyLen},
      {"print", pyPrint},
      {"tl.static_print", pyPrint},
      {"tl.device_print", pyPrint},
      {"range", pyRange},
      {"tl.range", pyRange},
      {"tl.static_range", pyRange},
      {"tl.program_id", member(tlProgramId, false)},
      {"tl.num_programs", member(tlProgramId, true)},
      {"tl.arange", tlArange},
      {"tl.full", member(tlFull, true)},
      {"tl.zeros", member(tlFull, false)},
      {"tl.zeros_like", tlZerosLike},
      {"tl.load", tlLoad},
      {"tl.store", tlStore},
      {"tl.atomic_add", member(tlAtomic, ir::AtomicKind::Add)},
      {"tl.atomic_max", member(tlAtomic, ir::AtomicKind::Max)},
      {"tl.atomic_min", member(tlAtomic, ir::AtomicKind::Min)},
      {"tl.atomic_and", member(tlAtomic, ir::AtomicKind::And)},
      {"tl.atomic_or", member(tlAtomic, ir::AtomicKind::Or)},
      {"tl.atomic_xor", member(tlAtomic, ir::AtomicKind::Xor)},
      {"tl.atomic_xchg", member(tlAtomic, ir::AtomicKind::Exchange)},
      {"tl.where", tlWhere},
      {"tl.maximum", member(tlMinimumMaximum, ir::OpCode::Max)},
      {"tl.minimum", member(tlMinimumMaximum, ir::OpCode::Min)},
      {"tl.clamp", tlClamp},
      {"tl.cdiv", tlCdiv},
      {"tl.multiple_of", tlValueHint},
      {"tl.max_contiguous", tlValueHint},
      {"tl.max_constancy", tlValueHint},
      {"tl.assume", tlAssume},
      {"tl.debug_barrier", tlDebugBarrier},
      {"tl.static_assert", tlStaticAssert},
      {"tl.device_assert", tlDeviceAssert},
      {"tl.broadcast_to", tlBroadcastTo},
      {"tl.broadcast", tlBroadcast},
      {"tl.reshape", member(tlReshape, false)},
      {"tl.view", member(tlReshape, false)},
      {"tl.ravel", member(tlReshape, true)},
      {"tl.expand_dims", tlExpandDims},
      {"tl.trans", tlPermute},
      {"tl.permute", tlPermute},
      {"tl.cast", tlCast},
      {"tl.to", tlCast},
      {"tl.dot", tlDot},
      {"tl.constexpr", tlConstexpr},
      {"tl.abs", tlAbs},
      {"isinstance", nullptr},
  };
  return kTable;
}

/// The modules whose functions a kernel may call: an unknown name in one of
/// them is a builtin npusim lacks, anything else is no kernel code at all.
constexpr std::string_view kLibraryModules[] = {"tl", "libdevice", "triton_helpers"};

} // namespace

bool registerBuiltin(std::string_view name, BuiltinHandler handler) {
  if (!builtins().emplace(std::string(name), std::move(handler)).second)
    throw core::InputError("triton front end: two builtins registered as '" + std::string(name) + "'");
  return true;
}

bool registerBuiltins(std::initializer_list<BuiltinEntry> entries) {
  for (const BuiltinEntry &entry : entries)
    registerBuiltin(entry.name, entry.handler);
  return true;
}

bool isPythonBuiltin(const std::string &name) {
  return name.find('.') == std::string::npos && builtins().count(name) > 0;
}

SemaValue Lowerer::callBuiltin(const std::string &name, CallArguments &callArgs, ast::Position pos) {
  if (auto it = builtins().find(name); it != builtins().end() && it->second) {
    const Args args(*this, name, callArgs, pos);
    BuiltinCall call{*this, name, callArgs, args, pos, *builder_};
    return it->second(call);
  }
  const std::string module = name.substr(0, name.find('.'));
  if (name == "triton.jit" || name == "triton.cdiv" || module == "triton_heuristics")
    fail(pos, "'" + name + "' cannot be called inside a kernel");
  for (std::string_view library : kLibraryModules)
    if (module == library)
      fail(pos, "'" + name + "' is not supported");
  fail(pos, "'" + name + "' is not supported in kernels");
}

} // namespace npusim::triton::lowering
