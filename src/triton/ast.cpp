#include "triton/ast.h"

namespace npusim::triton::ast {

const char *spelling(BinaryOperator op) {
  switch (op) {
  case BinaryOperator::Add: return "+";
  case BinaryOperator::Sub: return "-";
  case BinaryOperator::Mul: return "*";
  case BinaryOperator::Div: return "/";
  case BinaryOperator::FloorDiv: return "//";
  case BinaryOperator::Mod: return "%";
  case BinaryOperator::Pow: return "**";
  case BinaryOperator::BitAnd: return "&";
  case BinaryOperator::BitOr: return "|";
  case BinaryOperator::BitXor: return "^";
  case BinaryOperator::LShift: return "<<";
  case BinaryOperator::RShift: return ">>";
  case BinaryOperator::MatMul: return "@";
  }
  return "?";
}

const char *spelling(UnaryOperator op) {
  switch (op) {
  case UnaryOperator::Neg: return "-";
  case UnaryOperator::Pos: return "+";
  case UnaryOperator::Invert: return "~";
  case UnaryOperator::Not: return "not";
  }
  return "?";
}

const char *spelling(BoolOperator op) {
  switch (op) {
  case BoolOperator::And: return "and";
  case BoolOperator::Or: return "or";
  }
  return "?";
}

const char *spelling(CompareOperator op) {
  switch (op) {
  case CompareOperator::Eq: return "==";
  case CompareOperator::NotEq: return "!=";
  case CompareOperator::Lt: return "<";
  case CompareOperator::LtE: return "<=";
  case CompareOperator::Gt: return ">";
  case CompareOperator::GtE: return ">=";
  case CompareOperator::Is: return "is";
  case CompareOperator::IsNot: return "is not";
  case CompareOperator::In: return "in";
  case CompareOperator::NotIn: return "not in";
  }
  return "?";
}

} // namespace npusim::triton::ast
