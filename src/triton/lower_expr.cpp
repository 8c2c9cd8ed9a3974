// Expressions: names, constants, attributes, subscripts, calls and the
// compile-time folding of Python values.
#include "triton/literal.h"
#include "triton/lowering.h"

#include <cmath>

namespace npusim::triton::lowering {

SemaValue SemaValue::ofInt(int64_t v) {
  SemaValue s;
  s.kind = Kind::Int;
  s.intValue = v;
  return s;
}
SemaValue SemaValue::ofFloat(double v) {
  SemaValue s;
  s.kind = Kind::Float;
  s.floatValue = v;
  return s;
}
SemaValue SemaValue::ofBool(bool v) {
  SemaValue s;
  s.kind = Kind::Bool;
  s.boolValue = v;
  return s;
}
SemaValue SemaValue::ofString(std::string text) {
  SemaValue s;
  s.kind = Kind::String;
  s.text = std::move(text);
  return s;
}
SemaValue SemaValue::ofDType(core::DType d) {
  SemaValue s;
  s.kind = Kind::DType;
  s.dtype = d;
  return s;
}
SemaValue SemaValue::ofTensor(ir::Value *v) {
  SemaValue s;
  s.kind = Kind::Tensor;
  s.tensor = v;
  return s;
}
SemaValue SemaValue::ofTuple(std::vector<SemaValue> elements) {
  SemaValue s;
  s.kind = Kind::Tuple;
  s.elements = std::move(elements);
  return s;
}
SemaValue SemaValue::ofModule(std::string name) {
  SemaValue s;
  s.kind = Kind::Module;
  s.text = std::move(name);
  return s;
}
SemaValue SemaValue::ofBuiltin(std::string name) {
  SemaValue s;
  s.kind = Kind::Builtin;
  s.text = std::move(name);
  return s;
}

std::string SemaValue::describe() const {
  switch (kind) {
  case Kind::None: return "None";
  case Kind::Int: return "the int " + std::to_string(intValue);
  case Kind::Float: return "a float";
  case Kind::Bool: return boolValue ? "True" : "False";
  case Kind::String: return "a string";
  case Kind::DType: return "the dtype " + std::string(core::tritonName(dtype));
  case Kind::Tensor:
    return std::string(tensor->type.isTile() ? "a tensor of " : "a scalar of ") + tensor->type.str();
  case Kind::Tuple: return "a tuple of " + std::to_string(elements.size());
  case Kind::Module: return "the module " + text;
  case Kind::Builtin: return "the function " + text;
  case Kind::Function: return "the function " + text;
  case Kind::BoundMethod: return "the method " + text;
  }
  return "a value";
}

namespace {

/// Members of `tl` that are values rather than functions.
bool tlMember(const std::string &name, SemaValue &out) {
  if (auto d = core::parseDType(name)) {
    out = SemaValue::ofDType(*d);
    return true;
  }
  if (name == "math" || name == "extra" || name == "core" || name == "standard") {
    out = SemaValue::ofModule(name == "math" ? "tl.math" : "tl." + name);
    return true;
  }
  if (name == "PropagateNan") {
    out = SemaValue::ofModule("tl.PropagateNan");
    return true;
  }
  return false;
}

int64_t pyFloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0)))
    --q;
  return q;
}

int64_t pyMod(int64_t a, int64_t b) {
  int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0)))
    r += b;
  return r;
}

double asDouble(const SemaValue &v) {
  switch (v.kind) {
  case SemaValue::Kind::Int: return static_cast<double>(v.intValue);
  case SemaValue::Kind::Bool: return v.boolValue ? 1.0 : 0.0;
  default: return v.floatValue;
  }
}

int64_t asInt(const SemaValue &v) {
  return v.kind == SemaValue::Kind::Bool ? (v.boolValue ? 1 : 0) : v.intValue;
}

} // namespace

/// Python arithmetic on compile-time numbers (ints fold exactly; overflow is an error).
static SemaValue foldBinary(const Lowerer &l, ast::BinaryOperator op, const SemaValue &a, const SemaValue &b,
                            ast::Position pos) {
  using Op = ast::BinaryOperator;
  const bool isFloat = a.kind == SemaValue::Kind::Float || b.kind == SemaValue::Kind::Float;
  if (op == Op::Div) {
    if (asDouble(b) == 0.0)
      l.fail(pos, "division by zero in a compile-time expression");
    return SemaValue::ofFloat(asDouble(a) / asDouble(b));
  }
  if (isFloat) {
    const double x = asDouble(a), y = asDouble(b);
    switch (op) {
    case Op::Add: return SemaValue::ofFloat(x + y);
    case Op::Sub: return SemaValue::ofFloat(x - y);
    case Op::Mul: return SemaValue::ofFloat(x * y);
    case Op::Pow: return SemaValue::ofFloat(std::pow(x, y));
    case Op::FloorDiv:
    case Op::Mod:
      if (y == 0.0)
        l.fail(pos, "division by zero in a compile-time expression");
      if (op == Op::FloorDiv)
        return SemaValue::ofFloat(std::floor(x / y));
      return SemaValue::ofFloat(x - std::floor(x / y) * y);
    default: l.fail(pos, std::string("operator '") + ast::spelling(op) + "' needs integer operands");
    }
  }
  const int64_t x = asInt(a), y = asInt(b);
  int64_t r = 0;
  switch (op) {
  case Op::Add:
    if (__builtin_add_overflow(x, y, &r))
      l.fail(pos, "integer overflow in a compile-time expression");
    return SemaValue::ofInt(r);
  case Op::Sub:
    if (__builtin_sub_overflow(x, y, &r))
      l.fail(pos, "integer overflow in a compile-time expression");
    return SemaValue::ofInt(r);
  case Op::Mul:
    if (__builtin_mul_overflow(x, y, &r))
      l.fail(pos, "integer overflow in a compile-time expression");
    return SemaValue::ofInt(r);
  case Op::FloorDiv:
  case Op::Mod:
    if (y == 0)
      l.fail(pos, "division by zero in a compile-time expression");
    if (x == INT64_MIN && y == -1)
      l.fail(pos, "integer overflow in a compile-time expression");
    return SemaValue::ofInt(op == Op::FloorDiv ? pyFloorDiv(x, y) : pyMod(x, y));
  case Op::Pow: {
    if (y < 0)
      return SemaValue::ofFloat(std::pow(static_cast<double>(x), static_cast<double>(y)));
    int64_t result = 1;
    for (int64_t i = 0; i < y; ++i) {
      if (__builtin_mul_overflow(result, x, &result))
        l.fail(pos, "integer overflow in a compile-time expression");
      if (result == 0 || result == 1)
        break;
    }
    return SemaValue::ofInt(result);
  }
  case Op::BitAnd: return SemaValue::ofInt(x & y);
  case Op::BitOr: return SemaValue::ofInt(x | y);
  case Op::BitXor: return SemaValue::ofInt(x ^ y);
  case Op::LShift:
    if (y < 0 || y >= 63)
      l.fail(pos, "shift count out of range in a compile-time expression");
    return SemaValue::ofInt(static_cast<int64_t>(static_cast<uint64_t>(x) << y));
  case Op::RShift:
    if (y < 0)
      l.fail(pos, "negative shift count");
    return SemaValue::ofInt(y >= 63 ? (x < 0 ? -1 : 0) : x >> y);
  default: l.fail(pos, std::string("operator '") + ast::spelling(op) + "' is not supported here");
  }
}

static bool foldCompare(ast::CompareOperator op, const SemaValue &a, const SemaValue &b) {
  using C = ast::CompareOperator;
  if (op == C::Is || op == C::IsNot) {
    bool same = a.kind == b.kind;
    if (same && a.kind == SemaValue::Kind::Bool)
      same = a.boolValue == b.boolValue;
    else if (same && a.kind == SemaValue::Kind::DType)
      same = a.dtype == b.dtype && a.boolValue == b.boolValue;
    else if (same && a.kind == SemaValue::Kind::Int)
      same = a.intValue == b.intValue;
    return op == C::Is ? same : !same;
  }
  if (a.kind == SemaValue::Kind::None || b.kind == SemaValue::Kind::None) {
    const bool eq = a.kind == b.kind;
    return op == C::Eq ? eq : op == C::NotEq ? !eq : false;
  }
  if (a.kind == SemaValue::Kind::DType || b.kind == SemaValue::Kind::DType ||
      a.kind == SemaValue::Kind::String || b.kind == SemaValue::Kind::String) {
    bool eq = a.kind == b.kind &&
              (a.kind == SemaValue::Kind::DType ? a.dtype == b.dtype && a.boolValue == b.boolValue
                                                : a.text == b.text);
    return op == C::Eq ? eq : !eq;
  }
  const bool isFloat = a.kind == SemaValue::Kind::Float || b.kind == SemaValue::Kind::Float;
  auto cmp = [&](auto x, auto y) {
    switch (op) {
    case C::Eq: return x == y;
    case C::NotEq: return x != y;
    case C::Lt: return x < y;
    case C::LtE: return x <= y;
    case C::Gt: return x > y;
    case C::GtE: return x >= y;
    default: return false;
    }
  };
  return isFloat ? cmp(asDouble(a), asDouble(b)) : cmp(asInt(a), asInt(b));
}

SemaValue Lowerer::eval(const ast::Expr &e, Scope &scope) {
  using K = ast::ExprKind;
  builder_->setLocation(location(e.pos));
  switch (e.kind) {
  case K::Int: return SemaValue::ofInt(e.intValue);
  case K::Float: return SemaValue::ofFloat(e.floatValue);
  case K::Bool: return SemaValue::ofBool(e.boolValue);
  case K::None: return SemaValue::none();
  case K::String: return SemaValue::ofString(e.text);
  case K::Ellipsis: fail(e.pos, "'...' is not supported in kernels");
  case K::Name: {
    if (auto it = scope.find(e.name); it != scope.end())
      return it->second;
    if (auto it = globals_.find(e.name); it != globals_.end())
      return it->second;
    if (isPythonBuiltin(e.name))
      return SemaValue::ofBuiltin(e.name);
    fail(e.pos, "name '" + e.name + "' is not defined");
  }
  case K::Attribute: {
    SemaValue base = eval(*e.operands.at(0), scope);
    builder_->setLocation(location(e.pos));
    switch (base.kind) {
    case SemaValue::Kind::Module: {
      if (base.text == "triton" && e.name == "language")
        return SemaValue::ofModule("tl");
      if (base.text == "tl") {
        SemaValue member;
        if (tlMember(e.name, member))
          return member;
      }
      if (base.text == "tl.extra" || base.text == "tl.extra.cuda") {
        if (e.name == "libdevice")
          return SemaValue::ofModule("libdevice");
        return SemaValue::ofModule(base.text + "." + e.name);
      }
      if (base.text == "tl.PropagateNan")
        return SemaValue::ofString(e.name); // NONE / ALL
      if (base.text == "triton_helpers" && (e.name == "libdevice" || e.name == "math"))
        return SemaValue::ofModule(e.name == "math" ? "tl.math" : "libdevice");
      if (base.text == "tl.math" || base.text == "libdevice") {
        if (auto d = core::parseDType(e.name); d && base.text == "tl.math")
          return SemaValue::ofDType(*d);
      }
      if (base.text.rfind("opaque:", 0) == 0)
        fail(e.pos, "'" + base.text.substr(7) + "." + e.name + "' cannot be used inside a kernel");
      return SemaValue::ofBuiltin(base.text + "." + e.name);
    }
    case SemaValue::Kind::Tensor: {
      const ir::Type &t = base.tensor->type;
      if (e.name == "dtype") {
        SemaValue d = SemaValue::ofDType(t.dtype);
        d.boolValue = t.isPointer; // a pointer dtype; .element_ty gives the pointee
        return d;
      }
      if (e.name == "shape") {
        std::vector<SemaValue> dims;
        for (int64_t d : t.shape)
          dims.push_back(SemaValue::ofInt(d));
        return SemaValue::ofTuple(std::move(dims));
      }
      if (e.name == "numel")
        return SemaValue::ofInt(t.numElements());
      if (e.name == "T") {
        CallArguments args;
        args.positional.push_back(base);
        return callBuiltin("tl.trans", args, e.pos);
      }
      SemaValue m;
      m.kind = SemaValue::Kind::BoundMethod;
      m.text = e.name;
      m.elements.push_back(base);
      return m;
    }
    case SemaValue::Kind::DType: {
      if (e.name == "element_ty") {
        if (!base.boolValue)
          fail(e.pos, "'element_ty' is only defined for pointer dtypes");
        return SemaValue::ofDType(base.dtype);
      }
      if (e.name == "primitive_bitwidth" || e.name == "int_bitwidth")
        return SemaValue::ofInt(base.boolValue ? 64 : core::bitWidth(base.dtype));
      SemaValue m;
      m.kind = SemaValue::Kind::BoundMethod;
      m.text = e.name;
      m.elements.push_back(base);
      return m;
    }
    default: fail(e.pos, "cannot take attribute '" + e.name + "' of " + base.describe());
    }
  }
  case K::Binary: {
    SemaValue a = eval(*e.operands.at(0), scope);
    SemaValue b = eval(*e.operands.at(1), scope);
    builder_->setLocation(location(e.pos));
    if (a.isNumber() && b.isNumber())
      return foldBinary(*this, e.binaryOp, a, b, e.pos);
    if (e.binaryOp == ast::BinaryOperator::Add && a.kind == SemaValue::Kind::Tuple &&
        b.kind == SemaValue::Kind::Tuple) {
      std::vector<SemaValue> all = a.elements;
      all.insert(all.end(), b.elements.begin(), b.elements.end());
      return SemaValue::ofTuple(std::move(all));
    }
    if (e.binaryOp == ast::BinaryOperator::Mul && a.kind == SemaValue::Kind::Tuple &&
        b.kind == SemaValue::Kind::Int) {
      if (b.intValue < 0 || b.intValue * static_cast<int64_t>(a.elements.size()) > 64)
        fail(e.pos, "tuple repetition out of range");
      std::vector<SemaValue> all;
      for (int64_t i = 0; i < b.intValue; ++i)
        all.insert(all.end(), a.elements.begin(), a.elements.end());
      return SemaValue::ofTuple(std::move(all));
    }
    return binary(e.binaryOp, a, b, e.pos);
  }
  case K::Unary: {
    SemaValue x = eval(*e.operands.at(0), scope);
    builder_->setLocation(location(e.pos));
    if (x.isNumber() || x.kind == SemaValue::Kind::None) {
      switch (e.unaryOp) {
      case ast::UnaryOperator::Not:
        return SemaValue::ofBool(x.kind == SemaValue::Kind::None
                                     ? true
                                     : !foldCompare(ast::CompareOperator::NotEq, x, SemaValue::ofInt(0)));
      case ast::UnaryOperator::Neg:
        if (x.kind == SemaValue::Kind::Float)
          return SemaValue::ofFloat(-x.floatValue);
        if (x.kind == SemaValue::Kind::None)
          break;
        if (asInt(x) == INT64_MIN)
          fail(e.pos, "integer overflow in a compile-time expression");
        return SemaValue::ofInt(-asInt(x));
      case ast::UnaryOperator::Pos:
        if (x.kind == SemaValue::Kind::None)
          break;
        return x.kind == SemaValue::Kind::Bool ? SemaValue::ofInt(asInt(x)) : x;
      case ast::UnaryOperator::Invert:
        if (x.kind == SemaValue::Kind::Float || x.kind == SemaValue::Kind::None)
          break;
        return SemaValue::ofInt(~asInt(x));
      }
      fail(e.pos, std::string("bad operand for unary '") + ast::spelling(e.unaryOp) + "': " + x.describe());
    }
    return unary(e.unaryOp, x, e.pos);
  }
  case K::BoolOp: {
    SemaValue acc = eval(*e.operands.at(0), scope);
    for (size_t i = 1; i < e.operands.size(); ++i) {
      if (acc.isConstexpr()) {
        // Python short-circuit on compile-time values.
        const bool truth = acc.kind == SemaValue::Kind::None ? false
                           : acc.isNumber()
                               ? foldCompare(ast::CompareOperator::NotEq, acc, SemaValue::ofInt(0))
                               : true;
        if ((e.boolOp == ast::BoolOperator::And) != truth)
          return acc;
        acc = eval(*e.operands[i], scope);
        continue;
      }
      SemaValue rhs = eval(*e.operands[i], scope);
      builder_->setLocation(location(e.pos));
      acc = logical(e.boolOp, acc, rhs, e.pos);
    }
    return acc;
  }
  case K::Compare: {
    SemaValue left = eval(*e.operands.at(0), scope);
    SemaValue result;
    for (size_t i = 0; i < e.compareOps.size(); ++i) {
      SemaValue right = eval(*e.operands.at(i + 1), scope);
      builder_->setLocation(location(e.pos));
      SemaValue r;
      const ast::CompareOperator op = e.compareOps[i];
      if (op == ast::CompareOperator::In || op == ast::CompareOperator::NotIn)
        fail(e.pos, "'in' is not supported in kernels");
      if (left.isConstexpr() && right.isConstexpr())
        r = SemaValue::ofBool(foldCompare(op, left, right));
      else
        r = compare(op, left, right, e.pos);
      result = i == 0 ? r : logical(ast::BoolOperator::And, result, r, e.pos);
      left = right;
    }
    return result;
  }
  case K::IfExp: {
    SemaValue test = eval(*e.operands.at(1), scope);
    if (!test.isConstexpr())
      fail(e.pos, "a conditional expression needs a compile-time condition; use tl.where for tensors");
    const bool truth = test.kind == SemaValue::Kind::None ? false
                       : test.isNumber() ? foldCompare(ast::CompareOperator::NotEq, test, SemaValue::ofInt(0))
                                         : true;
    return eval(*e.operands.at(truth ? 0 : 2), scope);
  }
  case K::Call: {
    SemaValue callee = eval(*e.operands.at(0), scope);
    CallArguments args;
    for (size_t i = 1; i < e.operands.size(); ++i) {
      args.positional.push_back(eval(*e.operands[i], scope));
      args.positions.push_back(e.operands[i]->pos);
    }
    for (const ast::Keyword &kw : e.keywords)
      args.keywords.emplace_back(kw.name, eval(*kw.value, scope));
    builder_->setLocation(location(e.pos));
    return call(callee, std::move(args), e.pos);
  }
  case K::Subscript: {
    SemaValue base = eval(*e.operands.at(0), scope);
    const ast::Expr &index = *e.operands.at(1);
    if (base.kind == SemaValue::Kind::Tuple) {
      SemaValue i = eval(index, scope);
      if (i.kind != SemaValue::Kind::Int)
        fail(index.pos, "a tuple index must be a compile-time int");
      int64_t n = static_cast<int64_t>(base.elements.size());
      int64_t k = i.intValue < 0 ? i.intValue + n : i.intValue;
      if (k < 0 || k >= n)
        fail(index.pos, "tuple index out of range");
      return base.elements[static_cast<size_t>(k)];
    }
    if (!base.isTensor())
      fail(e.pos, "cannot index " + base.describe());
    // Tensor indexing: ':' keeps an axis, None adds one of size 1, and
    // `a:b` with compile-time ints keeps the window [a, b) of an axis (an
    // npusim extension the library kernels use; docs/frontend.md).
    std::vector<const ast::Expr *> items;
    if (index.kind == K::Tuple)
      for (const ast::ExprPtr &it : index.operands)
        items.push_back(it.get());
    else
      items.push_back(&index);
    ir::Value *v = base.tensor;
    int axis = 0, kept = 0;
    for (const ast::Expr *it : items) {
      if (it->kind == K::None) {
        builder_->setLocation(location(e.pos));
        v = builder_->expandDims(v, axis);
        ++axis;
      } else if (it->kind == K::Slice && !it->operands[0] && !it->operands[1] && !it->operands[2]) {
        ++axis;
        ++kept;
      } else if (it->kind == K::Slice && !it->operands[2] && axis < v->type.rank()) {
        const int64_t extent = v->type.shape[static_cast<size_t>(axis)];
        auto bound = [&](const ast::ExprPtr &b, int64_t absent) {
          if (!b)
            return absent;
          const SemaValue value = eval(*b, scope);
          if (value.kind != SemaValue::Kind::Int)
            fail(b->pos, "a tensor slice's bounds must be compile-time ints");
          return value.intValue < 0 ? value.intValue + extent : value.intValue;
        };
        const int64_t start = bound(it->operands[0], 0), stop = bound(it->operands[1], extent);
        if (start < 0 || stop > extent || start >= stop)
          fail(it->pos, "slice [" + std::to_string(start) + ":" + std::to_string(stop) + "] of an axis of " +
                            std::to_string(extent) +
                            " elements: a window must be nonempty and inside the axis");
        builder_->setLocation(location(e.pos));
        v = builder_->slice(v, axis, start, stop - start);
        ++axis;
        ++kept;
      } else {
        fail(it->pos, "tensors can only be indexed with ':', None and 'a:b' of compile-time ints");
      }
    }
    if (kept > base.tensor->type.rank())
      fail(e.pos, "too many indices for " + base.describe());
    return SemaValue::ofTensor(v);
  }
  case K::Tuple:
  case K::List: {
    std::vector<SemaValue> elements;
    for (const ast::ExprPtr &it : e.operands)
      elements.push_back(eval(*it, scope));
    return SemaValue::ofTuple(std::move(elements));
  }
  case K::Slice: fail(e.pos, "a slice is only allowed as a tensor index");
  case K::Dict:
  case K::Set: fail(e.pos, "dicts and sets are not supported inside kernels");
  }
  fail(e.pos, "unsupported expression");
}

SemaValue Lowerer::invoke(const SemaValue &callee, std::vector<SemaValue> args, ast::Position pos) {
  CallArguments call;
  call.positional = std::move(args);
  return this->call(callee, std::move(call), pos);
}

SemaValue Lowerer::call(const SemaValue &callee, CallArguments args, ast::Position pos) {
  switch (callee.kind) {
  case SemaValue::Kind::Function: return inlineFunction(*callee.function, std::move(args), pos);
  case SemaValue::Kind::Builtin: return callBuiltin(callee.text, args, pos);
  case SemaValue::Kind::BoundMethod: {
    const SemaValue &receiver = callee.elements.at(0);
    if (receiver.kind == SemaValue::Kind::DType) {
      const core::DType d = receiver.dtype;
      const std::string &m = callee.text;
      if (m == "is_floating")
        return SemaValue::ofBool(core::isFloat(d));
      if (m == "is_int")
        return SemaValue::ofBool(core::isInteger(d));
      if (m == "is_int_signed")
        return SemaValue::ofBool(core::isInteger(d) && core::isSigned(d));
      if (m == "is_int_unsigned")
        return SemaValue::ofBool(core::isInteger(d) && !core::isSigned(d));
      if (m == "is_bool" || m == "is_int1")
        return SemaValue::ofBool(d == core::DType::Bool);
      if (m.rfind("is_", 0) == 0) {
        if (auto other = core::parseDType(m.substr(3)))
          return SemaValue::ofBool(*other == d);
      }
      fail(pos, "dtype has no method '" + m + "'");
    }
    args.positional.insert(args.positional.begin(), receiver);
    return callBuiltin("tl." + callee.text, args, pos);
  }
  case SemaValue::Kind::DType:
    fail(pos, "dtypes are not callable; use x.to(" + std::string(core::tritonName(callee.dtype)) + ")");
  default: fail(pos, callee.describe() + " is not callable");
  }
}

} // namespace npusim::triton::lowering
