// The `tl` namespace and Python builtins: creation, memory, shapes, casts, dot,
// checks. Reductions live in lower_reduce.cpp, library math in lower_helpers.cpp.
#include "triton/lowering.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace npusim::triton::lowering {

namespace {

constexpr int64_t kMaxTileElements = 1 << 20; // Triton's TRITON_MAX_TENSOR_NUMEL

bool isPowerOfTwo(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

/// Argument access with messages that name the function and the parameter.
class Args {
public:
  Args(Lowerer &l, const std::string &fn, CallArguments &a, ast::Position pos) : l_(l), fn_(fn), a_(a), pos_(pos) {}

  const SemaValue *get(size_t index, const std::string &keyword) const { return argument(a_, index, keyword); }
  bool has(size_t index, const std::string &keyword) const {
    const SemaValue *v = get(index, keyword);
    return v && v->kind != SemaValue::Kind::None;
  }
  const SemaValue &required(size_t index, const std::string &keyword) const {
    const SemaValue *v = get(index, keyword);
    if (!v)
      l_.fail(pos_, fn_ + "() is missing argument '" + keyword + "'");
    return *v;
  }
  ir::Value *tensor(size_t index, const std::string &keyword) const {
    const SemaValue &v = required(index, keyword);
    if (v.isTensor())
      return v.tensor;
    if (v.isNumber())
      return l_.toTensor(v, pos_);
    l_.fail(pos_, fn_ + "() argument '" + keyword + "' must be a tensor, got " + v.describe());
  }
  int64_t integer(size_t index, const std::string &keyword) const {
    const SemaValue &v = required(index, keyword);
    if (v.kind == SemaValue::Kind::Int)
      return v.intValue;
    if (v.kind == SemaValue::Kind::Bool)
      return v.boolValue;
    l_.fail(pos_, fn_ + "() argument '" + keyword + "' must be a compile-time int, got " + v.describe());
  }
  bool flag(size_t index, const std::string &keyword, bool fallback) const {
    const SemaValue *v = get(index, keyword);
    if (!v || v->kind == SemaValue::Kind::None)
      return fallback;
    if (v->kind == SemaValue::Kind::Bool)
      return v->boolValue;
    if (v->kind == SemaValue::Kind::Int)
      return v->intValue != 0;
    l_.fail(pos_, fn_ + "() argument '" + keyword + "' must be a compile-time bool, got " + v->describe());
  }
  core::DType dtype(size_t index, const std::string &keyword) const {
    const SemaValue &v = required(index, keyword);
    if (v.kind != SemaValue::Kind::DType)
      l_.fail(pos_, fn_ + "() argument '" + keyword + "' must be a dtype, got " + v.describe());
    return v.dtype;
  }
  /// A shape: a tuple/list of ints, or the remaining positional ints (x.reshape(2, 4)).
  ir::Shape shape(size_t index, const std::string &keyword) const {
    const SemaValue &v = required(index, keyword);
    std::vector<SemaValue> dims;
    if (v.kind == SemaValue::Kind::Tuple)
      dims = v.elements;
    else
      for (size_t i = index; i < a_.positional.size(); ++i)
        dims.push_back(a_.positional[i]);
    ir::Shape shape;
    for (const SemaValue &d : dims) {
      if (d.kind != SemaValue::Kind::Int)
        l_.fail(pos_, fn_ + "() shape entries must be compile-time ints, got " + d.describe());
      shape.push_back(d.intValue);
    }
    return shape;
  }
  void checkShape(const ir::Shape &shape) const {
    int64_t n = 1;
    for (size_t i = 0; i < shape.size(); ++i) {
      if (!isPowerOfTwo(shape[i]))
        l_.fail(pos_, fn_ + "(): shape entry " + std::to_string(i) + " is " + std::to_string(shape[i]) +
                          ", not a power of 2");
      n *= shape[i];
      if (n > kMaxTileElements)
        l_.fail(pos_, fn_ + "(): a tile of " + ir::shapeString(shape) + " exceeds " +
                          std::to_string(kMaxTileElements) + " elements");
    }
  }
  void noExtra(size_t maxPositional, std::initializer_list<const char *> keywords) const {
    if (a_.positional.size() > maxPositional)
      l_.fail(pos_, fn_ + "() takes at most " + std::to_string(maxPositional) + " positional arguments");
    for (const auto &[name, value] : a_.keywords) {
      bool ok = false;
      for (const char *k : keywords)
        ok |= name == k;
      if (!ok)
        l_.fail(pos_, fn_ + "() got an unexpected keyword argument '" + name + "'");
    }
  }
  const std::string &name() const { return fn_; }
  ast::Position pos() const { return pos_; }

private:
  Lowerer &l_;
  const std::string &fn_;
  CallArguments &a_;
  ast::Position pos_;
};

} // namespace

namespace {

SemaValue tensorValue(ir::Value *v) { return SemaValue::ofTensor(v); }

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

} // namespace

SemaValue Lowerer::callBuiltin(const std::string &name, CallArguments &callArgs, ast::Position pos) {
  Args args(*this, name, callArgs, pos);
  ir::Builder &b = *builder_;
  const std::string prefix = name.substr(0, name.find('.'));
  if (prefix == "triton_helpers")
    return callHelperLibrary(name.substr(15), callArgs, pos);
  if (prefix == "libdevice")
    return callMath("libdevice", name.substr(10), callArgs, pos);
  if (name.rfind("tl.math.", 0) == 0)
    return callMath("tl.math", name.substr(8), callArgs, pos);
  if (name == "triton.jit" || name == "triton.cdiv")
    fail(pos, "'" + name + "' cannot be called inside a kernel");
  if (name == "triton_heuristics" || prefix == "triton_heuristics")
    fail(pos, "'" + name + "' cannot be called inside a kernel");

  // ---- Python builtins ----
  if (name == "min" || name == "max") {
    if (callArgs.positional.size() < 2 || !callArgs.keywords.empty())
      fail(pos, name + "() takes two or more positional arguments here");
    SemaValue acc = callArgs.positional[0];
    for (size_t i = 1; i < callArgs.positional.size(); ++i) {
      const SemaValue &x = callArgs.positional[i];
      if (acc.isNumber() && x.isNumber()) {
        const double a = acc.kind == SemaValue::Kind::Float ? acc.floatValue : static_cast<double>(acc.kind == SemaValue::Kind::Bool ? acc.boolValue : acc.intValue);
        const double c = x.kind == SemaValue::Kind::Float ? x.floatValue : static_cast<double>(x.kind == SemaValue::Kind::Bool ? x.boolValue : x.intValue);
        if (name == "min" ? c < a : c > a)
          acc = x;
        continue;
      }
      auto [p, q] = promote(acc, x, false, pos);
      acc = tensorValue(b.minMax(name == "min" ? ir::OpCode::Min : ir::OpCode::Max, p, q, ir::NanMode::Ignore));
    }
    return acc;
  }
  if (name == "float" || name == "int" || name == "bool" || name == "abs") {
    const SemaValue &x = args.required(0, "x");
    if (name == "float" && x.kind == SemaValue::Kind::String) {
      if (x.text == "inf" || x.text == "+inf")
        return SemaValue::ofFloat(INFINITY);
      if (x.text == "-inf")
        return SemaValue::ofFloat(-INFINITY);
      if (x.text == "nan" || x.text == "-nan")
        return SemaValue::ofFloat(NAN);
      char *end = nullptr;
      const double v = std::strtod(x.text.c_str(), &end);
      if (x.text.empty() || *end != '\0')
        fail(pos, "float() cannot convert '" + x.text + "'");
      return SemaValue::ofFloat(v);
    }
    if (!x.isNumber())
      fail(pos, name + "() needs a compile-time number, got " + x.describe() + (x.isTensor() ? "; use .to(dtype)" : ""));
    const double d = x.kind == SemaValue::Kind::Float ? x.floatValue : static_cast<double>(x.kind == SemaValue::Kind::Bool ? x.boolValue : x.intValue);
    if (name == "float")
      return SemaValue::ofFloat(d);
    if (name == "bool")
      return SemaValue::ofBool(d != 0.0);
    if (name == "abs")
      return x.kind == SemaValue::Kind::Float ? SemaValue::ofFloat(std::fabs(d)) : SemaValue::ofInt(std::llabs(static_cast<int64_t>(d)));
    if (!std::isfinite(d) || std::fabs(d) > 9.2e18)
      fail(pos, "int() of a value out of range");
    return SemaValue::ofInt(static_cast<int64_t>(d));
  }
  if (name == "len") {
    const SemaValue &x = args.required(0, "x");
    if (x.kind == SemaValue::Kind::Tuple)
      return SemaValue::ofInt(static_cast<int64_t>(x.elements.size()));
    if (x.isTensor() && x.tensor->type.isTile())
      return SemaValue::ofInt(x.tensor->type.shape[0]);
    fail(pos, "len() of " + x.describe());
  }
  if (name == "print" || name == "tl.static_print" || name == "tl.device_print")
    return SemaValue::none(); // printing has no effect on values
  if (name == "range" || name == "tl.range" || name == "tl.static_range")
    fail(pos, name + "() can only be used as the iterable of a for loop");

  // ---- tl ----
  if (name == "tl.program_id" || name == "tl.num_programs") {
    args.noExtra(1, {"axis"});
    const int64_t axis = args.integer(0, "axis");
    if (axis < 0 || axis > 2)
      fail(pos, name + "() axis must be 0, 1 or 2, got " + std::to_string(axis));
    return tensorValue(name == "tl.program_id" ? b.programId(static_cast<int>(axis)) : b.numPrograms(static_cast<int>(axis)));
  }
  if (name == "tl.arange") {
    args.noExtra(2, {"start", "end"});
    const int64_t start = args.integer(0, "start"), end = args.integer(1, "end");
    if (end <= start)
      fail(pos, "tl.arange() needs end > start, got " + std::to_string(start) + ", " + std::to_string(end));
    if (!isPowerOfTwo(end - start))
      fail(pos, "tl.arange()'s range must be a power of 2, got " + std::to_string(end - start));
    if (end - start > kMaxTileElements || end > INT32_MAX || start < INT32_MIN)
      fail(pos, "tl.arange() range is too large");
    return tensorValue(b.arange(start, end));
  }
  if (name == "tl.full" || name == "tl.zeros") {
    const bool full = name == "tl.full";
    args.noExtra(full ? 3 : 2, {"shape", "value", "dtype"});
    const ir::Shape shape = args.shape(0, "shape");
    args.checkShape(shape);
    const core::DType dtype = args.dtype(full ? 2 : 1, "dtype");
    const SemaValue value = full ? args.required(1, "value") : SemaValue::ofInt(0);
    if (value.isTensor()) {
      if (value.tensor->type.isTile())
        fail(pos, "tl.full() value must be a scalar");
      ir::Value *v = castTo(value.tensor, dtype);
      return tensorValue(shape.empty() ? v : b.splat(v, shape));
    }
    return tensorValue(constant(dtype, value, shape, pos));
  }
  if (name == "tl.zeros_like") {
    ir::Value *x = args.tensor(0, "input");
    return tensorValue(constant(x->type.dtype, SemaValue::ofInt(0), x->type.shape, pos));
  }
  if (name == "tl.load") {
    args.noExtra(3, {"pointer", "mask", "other", "boundary_check", "padding_option", "cache_modifier",
                     "eviction_policy", "volatile"});
    if (args.has(99, "boundary_check") || (args.get(99, "padding_option") && args.get(99, "padding_option")->kind == SemaValue::Kind::String && !args.get(99, "padding_option")->text.empty()))
      fail(pos, "block pointers (boundary_check, padding_option) are not supported");
    ir::Value *ptr = pointerOperand(*this, args);
    ir::Value *mask = maskOperand(*this, args, ptr, 1);
    ir::Value *other = nullptr;
    if (args.has(2, "other")) {
      if (!mask)
        fail(pos, "tl.load(): 'other' needs a mask");
      const SemaValue &o = args.required(2, "other");
      ir::Value *ov = o.isTensor() ? o.tensor : constant(ptr->type.dtype, o, {}, pos);
      other = castTo(memoryOperand(*this, args, ptr, ov, "other"), ptr->type.dtype);
    }
    return tensorValue(b.load(ptr, mask, other));
  }
  if (name == "tl.store") {
    args.noExtra(3, {"pointer", "value", "mask", "boundary_check", "cache_modifier", "eviction_policy"});
    if (args.has(99, "boundary_check"))
      fail(pos, "block pointers (boundary_check) are not supported");
    ir::Value *ptr = pointerOperand(*this, args);
    ir::Value *value = storedValue(*this, args, ptr, args.required(1, "value"));
    b.store(ptr, value, maskOperand(*this, args, ptr, 2));
    return SemaValue::none();
  }
  if (name.rfind("tl.atomic_", 0) == 0) {
    static const std::unordered_map<std::string, ir::AtomicKind> kinds = {
        {"tl.atomic_add", ir::AtomicKind::Add}, {"tl.atomic_max", ir::AtomicKind::Max},
        {"tl.atomic_min", ir::AtomicKind::Min}, {"tl.atomic_and", ir::AtomicKind::And},
        {"tl.atomic_or", ir::AtomicKind::Or},   {"tl.atomic_xor", ir::AtomicKind::Xor},
        {"tl.atomic_xchg", ir::AtomicKind::Exchange}};
    auto kind = kinds.find(name);
    if (kind == kinds.end())
      fail(pos, name + "() is not supported");
    args.noExtra(3, {"pointer", "val", "mask", "sem", "scope"});
    ir::Value *ptr = pointerOperand(*this, args);
    ir::Value *value = storedValue(*this, args, ptr, args.required(1, "val"));
    std::vector<ir::Value *> operands{ptr, value};
    if (ir::Value *mask = maskOperand(*this, args, ptr, 2))
      operands.push_back(mask);
    ir::Op *op = b.create(ir::OpCode::AtomicRMW, operands, {ir::Type::tile(ptr->type.dtype, ptr->type.shape)});
    op->atomicKind = kind->second;
    return tensorValue(op->result());
  }
  if (name == "tl.where") {
    args.noExtra(3, {"condition", "x", "y"});
    return tensorValue(select(args.required(0, "condition"), args.required(1, "x"), args.required(2, "y"), pos));
  }
  if (name == "tl.maximum" || name == "tl.minimum") {
    args.noExtra(3, {"x", "y", "propagate_nan"});
    const SemaValue *nan = args.get(2, "propagate_nan");
    const bool propagate = nan && nan->kind == SemaValue::Kind::String && nan->text == "ALL";
    auto [x, y] = promote(args.required(0, "x"), args.required(1, "y"), false, pos);
    return tensorValue(b.minMax(name == "tl.maximum" ? ir::OpCode::Max : ir::OpCode::Min, x, y,
                                propagate ? ir::NanMode::Propagate : ir::NanMode::Ignore));
  }
  if (name == "tl.clamp") {
    args.noExtra(4, {"x", "min", "max", "propagate_nan"});
    const SemaValue *nan = args.get(3, "propagate_nan");
    const ir::NanMode mode = nan && nan->kind == SemaValue::Kind::String && nan->text == "ALL" ? ir::NanMode::Propagate : ir::NanMode::Ignore;
    auto [x, lo] = promote(args.required(0, "x"), args.required(1, "min"), false, pos);
    ir::Value *lower = b.minMax(ir::OpCode::Max, x, lo, mode);
    auto [y, hi] = promote(SemaValue::ofTensor(lower), args.required(2, "max"), false, pos);
    return tensorValue(b.minMax(ir::OpCode::Min, y, hi, mode));
  }
  if (name == "tl.cdiv") {
    const SemaValue &x = args.required(0, "x"), &y = args.required(1, "div");
    if (x.kind == SemaValue::Kind::Int && y.kind == SemaValue::Kind::Int) {
      if (y.intValue == 0)
        fail(pos, "tl.cdiv() by zero");
      return binary(ast::BinaryOperator::FloorDiv,
                    binary(ast::BinaryOperator::Sub, binary(ast::BinaryOperator::Add, x, y, pos), SemaValue::ofInt(1), pos), y, pos);
    }
    SemaValue sum = binary(ast::BinaryOperator::Sub, binary(ast::BinaryOperator::Add, x, y, pos), SemaValue::ofInt(1), pos);
    return binary(ast::BinaryOperator::FloorDiv, sum, y, pos);
  }
  if (name == "tl.multiple_of" || name == "tl.max_contiguous" || name == "tl.max_constancy")
    return args.required(0, "input"); // alignment hints change no value
  if (name == "tl.assume")
    return SemaValue::none();
  if (name == "tl.debug_barrier") {
    b.create(ir::OpCode::Barrier, {}, {});
    return SemaValue::none();
  }
  if (name == "tl.static_assert") {
    const SemaValue &cond = args.required(0, "cond");
    if (!cond.isConstexpr())
      fail(pos, "tl.static_assert() needs a compile-time condition");
    const bool ok = cond.kind == SemaValue::Kind::Bool ? cond.boolValue
                    : cond.kind == SemaValue::Kind::Int ? cond.intValue != 0
                                                        : cond.kind != SemaValue::Kind::None;
    if (!ok) {
      const SemaValue *msg = args.get(1, "msg");
      fail(pos, "static assertion failed" + (msg && msg->kind == SemaValue::Kind::String ? ": " + msg->text : std::string()));
    }
    return SemaValue::none();
  }
  if (name == "tl.device_assert") {
    args.noExtra(3, {"cond", "msg", "mask"});
    const SemaValue &c = args.required(0, "cond");
    std::string message;
    if (const SemaValue *m = args.get(1, "msg"); m && m->kind == SemaValue::Kind::String)
      message = m->text;
    ir::Value *cond = toBool(toTensor(c, pos));
    if (args.has(2, "mask")) {
      ir::Value *mask = toBool(args.tensor(2, "mask"));
      const ir::Shape shape = broadcastShapes(cond->type.shape, mask->type.shape, pos);
      cond = b.binary(ir::OpCode::Or, broadcastTo(cond, shape, pos), b.unary(ir::OpCode::Not, broadcastTo(mask, shape, pos)));
    }
    b.assertTrue(cond, message);
    return SemaValue::none();
  }
  if (name == "tl.broadcast_to") {
    ir::Value *x = args.tensor(0, "input");
    const ir::Shape shape = args.shape(1, "shape");
    args.checkShape(shape);
    return tensorValue(broadcastTo(x, shape, pos));
  }
  if (name == "tl.broadcast") {
    ir::Value *x = args.tensor(0, "input"), *y = args.tensor(1, "other");
    const ir::Shape shape = broadcastShapes(x->type.shape, y->type.shape, pos);
    return SemaValue::ofTuple({tensorValue(broadcastTo(x, shape, pos)), tensorValue(broadcastTo(y, shape, pos))});
  }
  if (name == "tl.reshape" || name == "tl.view" || name == "tl.ravel") {
    ir::Value *x = args.tensor(0, "input");
    ir::Shape shape = name == "tl.ravel" ? ir::Shape{x->type.numElements()} : args.shape(1, "shape");
    args.checkShape(shape);
    if (ir::numElements(shape) != x->type.numElements())
      fail(pos, name + "() cannot turn " + x->type.str() + " into " + ir::shapeString(shape));
    if (x->type.isScalar())
      return tensorValue(b.splat(x, shape));
    return tensorValue(shape == x->type.shape ? x : b.reshape(x, shape));
  }
  if (name == "tl.expand_dims") {
    ir::Value *x = args.tensor(0, "input");
    const SemaValue &axisArg = args.required(1, "axis");
    std::vector<SemaValue> axes = axisArg.kind == SemaValue::Kind::Tuple ? axisArg.elements : std::vector<SemaValue>{axisArg};
    const int newRank = x->type.rank() + static_cast<int>(axes.size());
    std::vector<int> normalized;
    for (const SemaValue &a : axes) {
      if (a.kind != SemaValue::Kind::Int)
        fail(pos, "tl.expand_dims() axis must be a compile-time int");
      int64_t ax = a.intValue < 0 ? a.intValue + newRank : a.intValue;
      if (ax < 0 || ax >= newRank)
        fail(pos, "tl.expand_dims() axis " + std::to_string(a.intValue) + " out of range");
      normalized.push_back(static_cast<int>(ax));
    }
    std::sort(normalized.begin(), normalized.end());
    for (int ax : normalized)
      x = b.expandDims(x, ax);
    return tensorValue(x);
  }
  if (name == "tl.trans" || name == "tl.permute") {
    ir::Value *x = args.tensor(0, "input");
    std::vector<int> order;
    if (callArgs.positional.size() > 1 || args.has(1, "dims")) {
      const SemaValue &d = args.required(1, "dims");
      std::vector<SemaValue> dims = d.kind == SemaValue::Kind::Tuple
                                        ? d.elements
                                        : std::vector<SemaValue>(callArgs.positional.begin() + 1, callArgs.positional.end());
      for (const SemaValue &v : dims) {
        if (v.kind != SemaValue::Kind::Int)
          fail(pos, name + "() dims must be compile-time ints");
        order.push_back(static_cast<int>(v.intValue));
      }
    } else {
      if (x->type.rank() != 2)
        fail(pos, name + "() without dims needs a 2-D tensor, got " + x->type.str());
      order = {1, 0};
    }
    std::vector<bool> seen(static_cast<size_t>(x->type.rank()), false);
    if (static_cast<int>(order.size()) != x->type.rank())
      fail(pos, name + "() needs one dim per axis of " + x->type.str());
    for (int d : order) {
      if (d < 0 || d >= x->type.rank() || seen[static_cast<size_t>(d)])
        fail(pos, name + "() dims must be a permutation of the axes");
      seen[static_cast<size_t>(d)] = true;
    }
    return tensorValue(b.permute(x, order));
  }
  if (name == "tl.cast" || name == "tl.to") {
    args.noExtra(3, {"input", "dtype", "bitcast", "fp_downcast_rounding"});
    ir::Value *x = args.tensor(0, "input");
    const core::DType to = args.dtype(1, "dtype");
    if (args.flag(2, "bitcast", false)) {
      if (x->type.isPointer)
        fail(pos, "bitcast of pointers is not supported");
      if (core::bitWidth(x->type.dtype) != core::bitWidth(to))
        fail(pos, "cannot bitcast " + x->type.str() + " to " + std::string(core::tritonName(to)) +
                      ": the widths differ");
      if (x->type.dtype == to)
        return tensorValue(x);
      return tensorValue(b.bitcast(x, ir::Type::tile(to, x->type.shape)));
    }
    if (const SemaValue *r = args.get(99, "fp_downcast_rounding"); r && r->kind == SemaValue::Kind::String && r->text != "rtne")
      fail(pos, "fp_downcast_rounding '" + r->text + "' is not supported");
    if (x->type.isPointer)
      fail(pos, "casting pointers is not supported");
    return tensorValue(castTo(x, to));
  }
  if (name == "tl.dot") {
    args.noExtra(7, {"input", "other", "acc", "input_precision", "allow_tf32", "max_num_imprecise_acc", "out_dtype"});
    ir::Value *a = args.tensor(0, "input"), *bb = args.tensor(1, "other");
    if (a->type.rank() != 2 || bb->type.rank() != 2)
      fail(pos, "tl.dot() needs 2-D operands, got " + a->type.str() + " and " + bb->type.str());
    if (a->type.shape[1] != bb->type.shape[0])
      fail(pos, "tl.dot() inner dimensions differ: " + a->type.str() + " and " + bb->type.str());
    if (a->type.dtype != bb->type.dtype)
      fail(pos, "tl.dot() operands must have the same dtype, got " + a->type.str() + " and " + bb->type.str());
    const core::DType in = a->type.dtype;
    core::DType out = core::isFloat(in) ? core::DType::Float32 : core::DType::Int32;
    if (args.has(6, "out_dtype"))
      out = args.dtype(6, "out_dtype");
    if (in == core::DType::Float64)
      out = core::DType::Float64;
    if (core::isInteger(in) != core::isInteger(out))
      fail(pos, "tl.dot() out_dtype must match the operands' kind (int or float)");
    const ir::Shape shape{a->type.shape[0], bb->type.shape[1]};
    ir::Value *acc = nullptr;
    if (args.has(2, "acc")) {
      acc = args.tensor(2, "acc");
      if (acc->type.shape != shape)
        fail(pos, "tl.dot() acc must be " + ir::shapeString(shape) + ", got " + acc->type.str());
      out = acc->type.dtype;
    } else {
      acc = constant(out, SemaValue::ofInt(0), shape, pos);
    }
    ir::InputPrecision precision = ir::InputPrecision::TF32;
    if (const SemaValue *p = args.get(3, "input_precision"); p && p->kind == SemaValue::Kind::String) {
      if (p->text == "ieee")
        precision = ir::InputPrecision::IEEE;
      else if (p->text == "tf32")
        precision = ir::InputPrecision::TF32;
      else if (p->text == "tf32x3")
        precision = ir::InputPrecision::TF32x3;
      else
        fail(pos, "tl.dot() input_precision '" + p->text + "' is not supported");
    } else if (args.has(4, "allow_tf32")) {
      precision = args.flag(4, "allow_tf32", true) ? ir::InputPrecision::TF32 : ir::InputPrecision::IEEE;
    }
    if (in != core::DType::Float32)
      precision = ir::InputPrecision::IEEE;
    ir::Op *op = b.create(ir::OpCode::Dot, {a, bb, acc}, {acc->type});
    op->inputPrecision = precision;
    return tensorValue(op->result());
  }
  if (name == "tl.constexpr")
    return args.required(0, "value");
  if (name == "tl.abs") {
    ir::Value *x = args.tensor(0, "x");
    return tensorValue(b.unary(ir::OpCode::Abs, x));
  }
  if (name == "tl.sigmoid") {
    // Triton defines it as 1 / (1 + exp(-x)).
    SemaValue x = args.required(0, "x");
    CallArguments expArgs;
    expArgs.positional.push_back(unary(ast::UnaryOperator::Neg, SemaValue::ofTensor(toTensor(x, pos)), pos));
    SemaValue e = callMath("tl.math", "exp", expArgs, pos);
    return binary(ast::BinaryOperator::Div, SemaValue::ofInt(1), binary(ast::BinaryOperator::Add, SemaValue::ofInt(1), e, pos), pos);
  }
  static const char *kRandom[] = {"tl.randint", "tl.randint4x", "tl.rand", "tl.rand4x", "tl.randn", "tl.randn4x"};
  for (const char *r : kRandom)
    if (name == r)
      return callRandom(name.substr(3), callArgs, pos);
  static const char *kReductions[] = {"tl.sum", "tl.max", "tl.min", "tl.argmax", "tl.argmin", "tl.xor_sum",
                                      "tl.reduce_or", "tl.reduce", "tl.cumsum", "tl.cumprod",
                                      "tl.associative_scan", "tl.sort", "tl.flip", "tl.topk"};
  for (const char *r : kReductions)
    if (name == r)
      return callHelperLibrary(name, callArgs, pos); // shared with triton_helpers' reductions
  if (name.rfind("tl.", 0) == 0) {
    const std::string fn = name.substr(3);
    static const char *kMath[] = {"exp", "exp2", "log", "log2", "cos", "sin", "sqrt", "sqrt_rn", "rsqrt",
                                  "floor", "ceil", "erf", "fma", "div_rn", "fdiv", "abs", "umulhi"};
    for (const char *m : kMath)
      if (fn == m)
        return callMath("tl", fn, callArgs, pos);
    fail(pos, "'" + name + "' is not supported");
  }
  fail(pos, "'" + name + "' is not supported in kernels");
}

} // namespace npusim::triton::lowering
