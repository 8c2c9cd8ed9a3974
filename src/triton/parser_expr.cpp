// Expressions, with Python's precedence from loosest to tightest:
// conditional, or, and, not, comparisons, | ^ & << >> + - * @ / // %,
// unary + - ~, **, then calls, subscripts and attributes on atoms.
#include "triton/parser_internal.h"

#include <algorithm>
#include <array>
#include <limits>
#include <string>
#include <unordered_set>

namespace npusim::triton::detail {

using ast::BinaryOperator;
using ast::ExprKind;
using ast::Position;

namespace {

constexpr uint64_t kInt64Max = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());

struct BinaryLevel {
  std::array<std::pair<TokenKind, BinaryOperator>, 5> ops;
  size_t count;
};

constexpr std::array<BinaryLevel, 6> kBinaryLevels{{
    {{{{TokenKind::VBar, BinaryOperator::BitOr}}}, 1},
    {{{{TokenKind::Circumflex, BinaryOperator::BitXor}}}, 1},
    {{{{TokenKind::Amper, BinaryOperator::BitAnd}}}, 1},
    {{{{TokenKind::LeftShift, BinaryOperator::LShift}, {TokenKind::RightShift, BinaryOperator::RShift}}}, 2},
    {{{{TokenKind::Plus, BinaryOperator::Add}, {TokenKind::Minus, BinaryOperator::Sub}}}, 2},
    {{{{TokenKind::Star, BinaryOperator::Mul},
       {TokenKind::At, BinaryOperator::MatMul},
       {TokenKind::Slash, BinaryOperator::Div},
       {TokenKind::DoubleSlash, BinaryOperator::FloorDiv},
       {TokenKind::Percent, BinaryOperator::Mod}}},
     5},
}};

/// Tokens that may begin an expression: after a comma they mean the tuple or
/// list goes on, otherwise the comma was a trailing one.
bool startsExpression(TokenKind kind) {
  switch (kind) {
  case TokenKind::Name:
  case TokenKind::Int:
  case TokenKind::Float:
  case TokenKind::String:
  case TokenKind::KwTrue:
  case TokenKind::KwFalse:
  case TokenKind::KwNone:
  case TokenKind::KwNot:
  case TokenKind::KwLambda:
  case TokenKind::KwAwait:
  case TokenKind::KwYield:
  case TokenKind::Ellipsis:
  case TokenKind::LParen:
  case TokenKind::LBracket:
  case TokenKind::LBrace:
  case TokenKind::Plus:
  case TokenKind::Minus:
  case TokenKind::Tilde:
  case TokenKind::Star: return true;
  default: return false;
  }
}

} // namespace

Parser::NodeBuilder::NodeBuilder(ExprKind kind, Position pos, Position startPos)
    : expr(std::make_unique<ast::Expr>()), start(startPos) {
  expr->kind = kind;
  expr->pos = pos;
}

void Parser::NodeBuilder::add(Parsed child) {
  height = std::max(height, child.height + 1);
  expr->operands.push_back(std::move(child.expr));
}

Parsed Parser::finish(NodeBuilder &&node) const {
  if (node.height > kMaxExprHeight)
    fail(node.expr->pos, "expression too deeply nested (limit " + std::to_string(kMaxExprHeight) + ")");
  return Parsed{std::move(node.expr), node.start, node.height};
}

Parsed Parser::parseTestList() {
  Parsed first = parseTest();
  if (!at(TokenKind::Comma))
    return first;
  NodeBuilder tuple(ExprKind::Tuple, first.start, first.start);
  tuple.add(std::move(first));
  while (accept(TokenKind::Comma) && startsExpression(peek().kind))
    tuple.add(parseTest());
  return finish(std::move(tuple));
}

Parsed Parser::parseTargetList() {
  // Targets stop above comparisons, so that `for x in y` leaves the 'in'.
  Parsed first = parseBinary(0);
  if (!at(TokenKind::Comma))
    return first;
  NodeBuilder tuple(ExprKind::Tuple, first.start, first.start);
  tuple.add(std::move(first));
  while (accept(TokenKind::Comma) && startsExpression(peek().kind))
    tuple.add(parseBinary(0));
  return finish(std::move(tuple));
}

Parsed Parser::parseTest() {
  NestingGuard guard(*this, peek().pos);
  Parsed body = parseOrTest();
  if (!accept(TokenKind::KwIf))
    return body;
  Parsed test = parseOrTest();
  if (!accept(TokenKind::KwElse))
    failExpected(peek(), "'else' in the conditional expression");
  Parsed orelse = parseTest();
  NodeBuilder node(ExprKind::IfExp, body.start, body.start);
  node.add(std::move(body));
  node.add(std::move(test));
  node.add(std::move(orelse));
  return finish(std::move(node));
}

Parsed Parser::parseOrTest() {
  Parsed first = parseAndTest();
  if (!at(TokenKind::KwOr))
    return first;
  NodeBuilder node(ExprKind::BoolOp, first.start, first.start);
  node.expr->boolOp = ast::BoolOperator::Or;
  node.add(std::move(first));
  while (accept(TokenKind::KwOr))
    node.add(parseAndTest());
  return finish(std::move(node));
}

Parsed Parser::parseAndTest() {
  Parsed first = parseNotTest();
  if (!at(TokenKind::KwAnd))
    return first;
  NodeBuilder node(ExprKind::BoolOp, first.start, first.start);
  node.expr->boolOp = ast::BoolOperator::And;
  node.add(std::move(first));
  while (accept(TokenKind::KwAnd))
    node.add(parseNotTest());
  return finish(std::move(node));
}

Parsed Parser::parseNotTest() {
  if (!at(TokenKind::KwNot))
    return parseComparison();
  const Position pos = take().pos;
  NestingGuard guard(*this, pos);
  NodeBuilder node(ExprKind::Unary, pos, pos);
  node.expr->unaryOp = ast::UnaryOperator::Not;
  node.add(parseNotTest());
  return finish(std::move(node));
}

std::optional<ast::CompareOperator> Parser::takeCompareOperator() {
  using ast::CompareOperator;
  std::optional<CompareOperator> op;
  switch (peek().kind) {
  case TokenKind::EqEqual: op = CompareOperator::Eq; break;
  case TokenKind::NotEqual: op = CompareOperator::NotEq; break;
  case TokenKind::Less: op = CompareOperator::Lt; break;
  case TokenKind::LessEqual: op = CompareOperator::LtE; break;
  case TokenKind::Greater: op = CompareOperator::Gt; break;
  case TokenKind::GreaterEqual: op = CompareOperator::GtE; break;
  case TokenKind::KwIn: op = CompareOperator::In; break;
  case TokenKind::KwIs:
    take();
    return accept(TokenKind::KwNot) ? CompareOperator::IsNot : CompareOperator::Is;
  case TokenKind::KwNot:
    if (peek(1).kind != TokenKind::KwIn)
      return std::nullopt;
    take();
    op = CompareOperator::NotIn;
    break;
  default: return std::nullopt;
  }
  take();
  return op;
}

Parsed Parser::parseComparison() {
  Parsed first = parseBinary(0);
  std::optional<ast::CompareOperator> op = takeCompareOperator();
  if (!op)
    return first;
  NodeBuilder node(ExprKind::Compare, first.start, first.start);
  node.add(std::move(first));
  for (; op; op = takeCompareOperator()) {
    node.expr->compareOps.push_back(*op);
    node.add(parseBinary(0));
  }
  return finish(std::move(node));
}

Parsed Parser::parseBinary(int level) {
  const BinaryLevel &ops = kBinaryLevels[static_cast<size_t>(level)];
  const bool last = level + 1 == static_cast<int>(kBinaryLevels.size());
  auto operand = [&] { return last ? parseFactor() : parseBinary(level + 1); };
  Parsed left = operand();
  for (;;) {
    const auto end = ops.ops.begin() + static_cast<std::ptrdiff_t>(ops.count);
    const TokenKind kind = peek().kind;
    const auto match = std::find_if(ops.ops.begin(), end, [&](const auto &op) { return op.first == kind; });
    if (match == end)
      return left;
    take();
    NodeBuilder node(ExprKind::Binary, left.start, left.start);
    node.expr->binaryOp = match->second;
    node.add(std::move(left));
    node.add(operand());
    left = finish(std::move(node));
  }
}

Parsed Parser::parseFactor() {
  const TokenKind kind = peek().kind;
  if (kind != TokenKind::Plus && kind != TokenKind::Minus && kind != TokenKind::Tilde)
    return parsePower();
  const Position pos = take().pos;
  // -9223372036854775808 is an int64 although its magnitude is not: fold the
  // minus into the literal, unless a trailer or '**' binds the literal first.
  if (kind == TokenKind::Minus && peek().kind == TokenKind::Int && peek().intValue == kInt64Max + 1) {
    const TokenKind after = peek(1).kind;
    if (after != TokenKind::DoubleStar && after != TokenKind::LParen && after != TokenKind::LBracket &&
        after != TokenKind::Dot) {
      Parsed literal = parseIntLiteral(take(), true);
      literal.expr->pos = literal.start = pos;
      return literal;
    }
  }
  NestingGuard guard(*this, pos);
  NodeBuilder node(ExprKind::Unary, pos, pos);
  node.expr->unaryOp = kind == TokenKind::Plus    ? ast::UnaryOperator::Pos
                       : kind == TokenKind::Minus ? ast::UnaryOperator::Neg
                                                  : ast::UnaryOperator::Invert;
  node.add(parseFactor());
  return finish(std::move(node));
}

Parsed Parser::parsePower() {
  Parsed base = parsePrimary();
  if (!at(TokenKind::DoubleStar))
    return base;
  // The exponent is a factor: `2 ** -x` and right-associative `a ** b ** c`.
  NestingGuard guard(*this, take().pos);
  NodeBuilder node(ExprKind::Binary, base.start, base.start);
  node.expr->binaryOp = BinaryOperator::Pow;
  node.add(std::move(base));
  node.add(parseFactor());
  return finish(std::move(node));
}

Parsed Parser::parsePrimary() {
  Parsed node = parseAtom();
  for (;;) {
    if (at(TokenKind::LParen)) {
      node = parseCall(std::move(node));
    } else if (at(TokenKind::LBracket)) {
      node = parseSubscript(std::move(node));
    } else if (accept(TokenKind::Dot)) {
      NodeBuilder attribute(ExprKind::Attribute, node.start, node.start);
      attribute.expr->name = expect(TokenKind::Name, "an attribute name after '.'").text;
      attribute.add(std::move(node));
      node = finish(std::move(attribute));
    } else {
      return node;
    }
  }
}

Parsed Parser::parseCall(Parsed callee) {
  take(); // '('
  NodeBuilder call(ExprKind::Call, callee.start, callee.start);
  call.add(std::move(callee));
  std::unordered_set<std::string> keywordNames;
  while (!at(TokenKind::RParen)) {
    const Token &token = peek();
    if (token.kind == TokenKind::Star)
      fail(token.pos, "argument unpacking ('*args') is not supported");
    if (token.kind == TokenKind::DoubleStar)
      fail(token.pos, "keyword argument unpacking ('**kwargs') is not supported");
    if (token.kind == TokenKind::Name && peek(1).kind == TokenKind::Equal) {
      ast::Keyword keyword;
      keyword.pos = token.pos;
      keyword.name = take().text;
      take(); // '='
      if (!keywordNames.insert(keyword.name).second)
        fail(keyword.pos, "keyword argument repeated: " + keyword.name);
      Parsed value = parseTest();
      call.height = std::max(call.height, value.height + 1);
      keyword.value = std::move(value.expr);
      call.expr->keywords.push_back(std::move(keyword));
    } else {
      Parsed argument = parseTest();
      if (at(TokenKind::KwFor))
        fail(peek().pos, "generator expressions are not supported");
      if (!call.expr->keywords.empty())
        fail(argument.start, "positional argument follows keyword argument");
      call.add(std::move(argument));
    }
    if (!accept(TokenKind::Comma))
      break;
  }
  expect(TokenKind::RParen, "',' or ')'");
  return finish(std::move(call));
}

Parsed Parser::parseSubscript(Parsed value) {
  take(); // '['
  NodeBuilder subscript(ExprKind::Subscript, value.start, value.start);
  subscript.add(std::move(value));
  Parsed first = parseSubscriptItem();
  if (at(TokenKind::Comma)) {
    NodeBuilder tuple(ExprKind::Tuple, first.start, first.start);
    tuple.add(std::move(first));
    while (accept(TokenKind::Comma) && !at(TokenKind::RBracket))
      tuple.add(parseSubscriptItem());
    first = finish(std::move(tuple));
  }
  subscript.add(std::move(first));
  expect(TokenKind::RBracket, "',' or ']'");
  return finish(std::move(subscript));
}

Parsed Parser::parseSubscriptItem() {
  const Position start = peek().pos;
  std::optional<Parsed> lower;
  if (!at(TokenKind::Colon)) {
    lower = parseTest();
    if (!at(TokenKind::Colon))
      return std::move(*lower);
  }
  take(); // ':'
  NodeBuilder slice(ExprKind::Slice, start, start);
  auto part = [&] {
    if (at(TokenKind::Colon) || at(TokenKind::Comma) || at(TokenKind::RBracket))
      slice.addNull();
    else
      slice.add(parseTest());
  };
  if (lower)
    slice.add(std::move(*lower));
  else
    slice.addNull();
  part();
  if (accept(TokenKind::Colon))
    part();
  else
    slice.addNull();
  return finish(std::move(slice));
}

Parsed Parser::parseIntLiteral(const Token &token, bool negate) {
  NodeBuilder node(ExprKind::Int, token.pos, token.pos);
  if (negate) {
    node.expr->intValue = std::numeric_limits<int64_t>::min();
  } else {
    if (token.intValue > kInt64Max)
      fail(token.pos, "integer literal " + token.text + " does not fit in int64");
    node.expr->intValue = static_cast<int64_t>(token.intValue);
  }
  return finish(std::move(node));
}

Parsed Parser::parseAtom() {
  const Token &token = peek();
  const Position pos = token.pos;
  auto leaf = [&](ExprKind kind) {
    NodeBuilder node(kind, pos, pos);
    return node;
  };
  switch (token.kind) {
  case TokenKind::Name: {
    NodeBuilder node = leaf(ExprKind::Name);
    node.expr->name = take().text;
    return finish(std::move(node));
  }
  case TokenKind::Int: return parseIntLiteral(take(), false);
  case TokenKind::Float: {
    NodeBuilder node = leaf(ExprKind::Float);
    node.expr->floatValue = take().floatValue;
    return finish(std::move(node));
  }
  case TokenKind::String: {
    // Adjacent literals concatenate, also across lines inside brackets.
    NodeBuilder node = leaf(ExprKind::String);
    while (at(TokenKind::String))
      node.expr->text += take().text;
    return finish(std::move(node));
  }
  case TokenKind::KwTrue:
  case TokenKind::KwFalse: {
    NodeBuilder node = leaf(ExprKind::Bool);
    node.expr->boolValue = take().kind == TokenKind::KwTrue;
    return finish(std::move(node));
  }
  case TokenKind::KwNone: take(); return finish(leaf(ExprKind::None));
  case TokenKind::Ellipsis: take(); return finish(leaf(ExprKind::Ellipsis));
  case TokenKind::LParen: return parseParenthesized();
  case TokenKind::LBracket: return parseList();
  case TokenKind::LBrace: return parseBraces();
  case TokenKind::Star: fail(pos, "starred expressions are not supported");
  default: failExpected(token, "an expression");
  }
}

Parsed Parser::parseParenthesized() {
  const Position open = take().pos;
  if (accept(TokenKind::RParen))
    return finish(NodeBuilder(ExprKind::Tuple, open, open));
  Parsed first = parseTest();
  if (at(TokenKind::KwFor))
    fail(peek().pos, "generator expressions are not supported");
  if (accept(TokenKind::RParen)) {
    first.start = open;
    return first;
  }
  if (!at(TokenKind::Comma))
    failExpected(peek(), "',' or ')'");
  NodeBuilder tuple(ExprKind::Tuple, open, open);
  tuple.add(std::move(first));
  while (accept(TokenKind::Comma) && !at(TokenKind::RParen))
    tuple.add(parseTest());
  expect(TokenKind::RParen, "',' or ')'");
  return finish(std::move(tuple));
}

Parsed Parser::parseList() {
  const Position open = take().pos;
  NodeBuilder list(ExprKind::List, open, open);
  while (!at(TokenKind::RBracket)) {
    list.add(parseTest());
    if (at(TokenKind::KwFor))
      fail(peek().pos, "list comprehensions are not supported");
    if (!accept(TokenKind::Comma))
      break;
  }
  expect(TokenKind::RBracket, "',' or ']'");
  return finish(std::move(list));
}

Parsed Parser::parseBraces() {
  const Position open = take().pos;
  auto refuseUnpacking = [&] {
    if (at(TokenKind::DoubleStar))
      fail(peek().pos, "dict unpacking ('**') is not supported");
  };
  NodeBuilder dict(ExprKind::Dict, open, open);
  if (accept(TokenKind::RBrace))
    return finish(std::move(dict));
  refuseUnpacking();
  Parsed first = parseTest();
  if (!at(TokenKind::Colon)) {
    NodeBuilder set(ExprKind::Set, open, open);
    if (at(TokenKind::KwFor))
      fail(peek().pos, "set comprehensions are not supported");
    set.add(std::move(first));
    while (accept(TokenKind::Comma) && !at(TokenKind::RBrace))
      set.add(parseTest());
    expect(TokenKind::RBrace, "',' or '}'");
    return finish(std::move(set));
  }
  take(); // ':'
  dict.add(std::move(first));
  dict.add(parseTest());
  if (at(TokenKind::KwFor))
    fail(peek().pos, "dict comprehensions are not supported");
  while (accept(TokenKind::Comma) && !at(TokenKind::RBrace)) {
    refuseUnpacking();
    dict.add(parseTest());
    expect(TokenKind::Colon, "':' after the dict key");
    dict.add(parseTest());
  }
  expect(TokenKind::RBrace, "',' or '}'");
  return finish(std::move(dict));
}

} // namespace npusim::triton::detail
