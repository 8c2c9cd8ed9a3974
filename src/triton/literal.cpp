#include "triton/literal.h"

namespace npusim::triton {

const PyLiteral *PyLiteral::get(const std::string &key) const {
  if (kind != Kind::Dict)
    return nullptr;
  for (size_t i = 0; i + 1 < items.size(); i += 2)
    if (items[i].kind == Kind::String && items[i].text == key)
      return &items[i + 1];
  return nullptr;
}

std::string PyLiteral::describe() const {
  switch (kind) {
  case Kind::None: return "None";
  case Kind::Bool: return "a bool";
  case Kind::Int: return "an int";
  case Kind::Float: return "a float";
  case Kind::String: return "a string";
  case Kind::List: return "a list";
  case Kind::Tuple: return "a tuple";
  case Kind::Set: return "a set";
  case Kind::Dict: return "a dict";
  case Kind::Call: return "a call of " + text;
  case Kind::Name: return "the name " + text;
  }
  return "a value";
}

std::string dottedName(const ast::Expr &expr) {
  if (expr.kind == ast::ExprKind::Name)
    return expr.name;
  if (expr.kind == ast::ExprKind::Attribute && expr.operands.size() == 1 && expr.operands[0]) {
    std::string base = dottedName(*expr.operands[0]);
    return base.empty() ? std::string() : base + "." + expr.name;
  }
  return {};
}

PyLiteral evaluateLiteral(const ast::Expr &expr, const std::string &file) {
  PyLiteral lit;
  lit.pos = expr.pos;
  using K = ast::ExprKind;
  switch (expr.kind) {
  case K::None: lit.kind = PyLiteral::Kind::None; return lit;
  case K::Bool: lit.kind = PyLiteral::Kind::Bool; lit.boolValue = expr.boolValue; return lit;
  case K::Int: lit.kind = PyLiteral::Kind::Int; lit.intValue = expr.intValue; return lit;
  case K::Float: lit.kind = PyLiteral::Kind::Float; lit.floatValue = expr.floatValue; return lit;
  case K::String: lit.kind = PyLiteral::Kind::String; lit.text = expr.text; return lit;
  case K::Unary:
    if (expr.unaryOp == ast::UnaryOperator::Neg || expr.unaryOp == ast::UnaryOperator::Pos) {
      PyLiteral inner = evaluateLiteral(*expr.operands.at(0), file);
      const bool neg = expr.unaryOp == ast::UnaryOperator::Neg;
      if (inner.kind == PyLiteral::Kind::Int) {
        // -(INT64_MIN) cannot happen: the parser's literals are non-negative.
        if (neg)
          inner.intValue = -inner.intValue;
        inner.pos = expr.pos;
        return inner;
      }
      if (inner.kind == PyLiteral::Kind::Float) {
        if (neg)
          inner.floatValue = -inner.floatValue;
        inner.pos = expr.pos;
        return inner;
      }
    }
    break;
  case K::List:
  case K::Tuple:
  case K::Set:
  case K::Dict:
    lit.kind = expr.kind == K::List    ? PyLiteral::Kind::List
               : expr.kind == K::Tuple ? PyLiteral::Kind::Tuple
               : expr.kind == K::Set   ? PyLiteral::Kind::Set
                                       : PyLiteral::Kind::Dict;
    for (const ast::ExprPtr &item : expr.operands)
      lit.items.push_back(evaluateLiteral(*item, file));
    return lit;
  case K::Name:
  case K::Attribute: {
    std::string name = dottedName(expr);
    if (!name.empty()) {
      // Names in decorator metadata are opaque (e.g. __file__, ReductionHint.INNER).
      lit.kind = PyLiteral::Kind::Name;
      lit.text = name;
      return lit;
    }
    break;
  }
  case K::Call: {
    std::string name = dottedName(*expr.operands.at(0));
    if (name.empty())
      break;
    lit.kind = PyLiteral::Kind::Call;
    lit.text = name;
    for (size_t i = 1; i < expr.operands.size(); ++i)
      lit.items.push_back(evaluateLiteral(*expr.operands[i], file));
    for (const ast::Keyword &kw : expr.keywords) {
      lit.keywords.push_back(kw.name);
      lit.items.push_back(evaluateLiteral(*kw.value, file));
    }
    return lit;
  }
  default:
    break;
  }
  throw core::CompileError(sourceAt(file, expr.pos), "expected a literal value in kernel metadata");
}

} // namespace npusim::triton
