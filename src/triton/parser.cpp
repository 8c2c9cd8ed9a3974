// Statements and the token stream of the recursive-descent parser; the
// expressions are in parser_expr.cpp.
#include "triton/parser.h"

#include "triton/parser_internal.h"

#include <string>
#include <unordered_set>

namespace npusim::triton {

ast::Module parseModule(std::string_view source, std::string fileName) {
  detail::Parser parser(source, std::move(fileName));
  return parser.parseModule();
}

namespace detail {

using ast::ExprKind;
using ast::StmtKind;
using ast::StmtPtr;

namespace {

StmtPtr newStmt(StmtKind kind, ast::Position pos) {
  auto stmt = std::make_unique<ast::Stmt>();
  stmt->kind = kind;
  stmt->pos = pos;
  return stmt;
}

/// The construct a refused keyword starts, for the message; null if allowed.
const char *refusedConstruct(TokenKind kind) {
  switch (kind) {
  case TokenKind::KwClass: return "class definitions are not supported";
  case TokenKind::KwWith: return "'with' statements are not supported";
  case TokenKind::KwTry:
  case TokenKind::KwExcept:
  case TokenKind::KwFinally: return "'try' statements are not supported";
  case TokenKind::KwAsync: return "'async' functions and statements are not supported";
  case TokenKind::KwRaise: return "'raise' statements are not supported";
  case TokenKind::KwYield: return "'yield' is not supported";
  case TokenKind::KwLambda: return "lambda expressions are not supported";
  case TokenKind::KwAwait: return "'await' is not supported";
  default: return nullptr;
  }
}

bool startsCompoundStatement(TokenKind kind) {
  return kind == TokenKind::KwIf || kind == TokenKind::KwWhile || kind == TokenKind::KwFor ||
         kind == TokenKind::KwDef || kind == TokenKind::At;
}

std::optional<ast::BinaryOperator> augmentedOperator(TokenKind kind) {
  using ast::BinaryOperator;
  switch (kind) {
  case TokenKind::PlusEqual: return BinaryOperator::Add;
  case TokenKind::MinusEqual: return BinaryOperator::Sub;
  case TokenKind::StarEqual: return BinaryOperator::Mul;
  case TokenKind::SlashEqual: return BinaryOperator::Div;
  case TokenKind::DoubleSlashEqual: return BinaryOperator::FloorDiv;
  case TokenKind::PercentEqual: return BinaryOperator::Mod;
  case TokenKind::DoubleStarEqual: return BinaryOperator::Pow;
  case TokenKind::AmperEqual: return BinaryOperator::BitAnd;
  case TokenKind::VBarEqual: return BinaryOperator::BitOr;
  case TokenKind::CircumflexEqual: return BinaryOperator::BitXor;
  case TokenKind::LeftShiftEqual: return BinaryOperator::LShift;
  case TokenKind::RightShiftEqual: return BinaryOperator::RShift;
  case TokenKind::AtEqual: return BinaryOperator::MatMul;
  default: return std::nullopt;
  }
}

/// What an expression is, in "cannot assign to ..." messages.
const char *describeExpr(const ast::Expr &expr) {
  switch (expr.kind) {
  case ExprKind::Int:
  case ExprKind::Float:
  case ExprKind::String: return "literal";
  case ExprKind::Bool: return expr.boolValue ? "True" : "False";
  case ExprKind::None: return "None";
  case ExprKind::Ellipsis: return "ellipsis";
  case ExprKind::Call: return "function call";
  case ExprKind::Compare: return "comparison";
  case ExprKind::IfExp: return "conditional expression";
  case ExprKind::Dict: return "dict literal";
  case ExprKind::Set: return "set display";
  default: return "expression";
  }
}

} // namespace

Parser::Parser(std::string_view source, std::string fileName) : lexer_(source, std::move(fileName)) {}

Parser::NestingGuard::NestingGuard(Parser &parser, ast::Position pos) : parser_(parser) {
  if (++parser_.nesting_ > kMaxNesting) {
    --parser_.nesting_;
    parser_.fail(pos, "nesting too deep (limit " + std::to_string(kMaxNesting) + ")");
  }
}

const Token &Parser::peek(size_t ahead) {
  while (lookahead_.size() <= ahead)
    lookahead_.push_back(lexer_.next());
  return lookahead_[ahead];
}

Token Parser::take() {
  peek();
  Token token = std::move(lookahead_.front());
  lookahead_.pop_front();
  return token;
}

bool Parser::accept(TokenKind kind) {
  if (!at(kind))
    return false;
  take();
  return true;
}

Token Parser::expect(TokenKind kind, const std::string &what) {
  if (!at(kind))
    failExpected(peek(), what);
  return take();
}

void Parser::fail(ast::Position pos, const std::string &message) const {
  lexer_.fail(pos, message);
}

void Parser::failExpected(const Token &found, const std::string &what) const {
  if (found.kind == TokenKind::Indent)
    fail(found.pos, "unexpected indent");
  if (const char *refused = refusedConstruct(found.kind))
    fail(found.pos, refused);
  fail(found.pos, "expected " + what + ", found " + describe(found));
}

ast::Module Parser::parseModule() {
  ast::Module module;
  module.file = lexer_.fileName();
  while (!at(TokenKind::EndOfFile))
    parseStatement(module.body);
  return module;
}

void Parser::parseStatement(ast::StmtList &out) {
  switch (peek().kind) {
  case TokenKind::KwIf: out.push_back(parseIf()); return;
  case TokenKind::KwWhile: out.push_back(parseWhile()); return;
  case TokenKind::KwFor: out.push_back(parseFor()); return;
  case TokenKind::KwDef: out.push_back(parseFunctionDef({}, peek().pos)); return;
  case TokenKind::At: out.push_back(parseDecorated()); return;
  default: parseSimpleStatements(out); return;
  }
}

void Parser::parseSimpleStatements(ast::StmtList &out) {
  do {
    out.push_back(parseSimpleStatement());
  } while (accept(TokenKind::Semicolon) && !at(TokenKind::Newline));
  expect(TokenKind::Newline, "end of line");
}

StmtPtr Parser::parseSimpleStatement() {
  const Token &first = peek();
  const ast::Position pos = first.pos;
  if (const char *refused = refusedConstruct(first.kind))
    fail(pos, refused);
  if (first.kind == TokenKind::Indent)
    fail(pos, "unexpected indent");
  if (startsCompoundStatement(first.kind))
    fail(pos, describe(first.kind) + " cannot follow ':' or ';' on the same line; start it on a "
                                     "line of its own");

  switch (first.kind) {
  case TokenKind::KwPass: take(); return newStmt(StmtKind::Pass, pos);
  case TokenKind::KwBreak: take(); return newStmt(StmtKind::Break, pos);
  case TokenKind::KwContinue: take(); return newStmt(StmtKind::Continue, pos);
  case TokenKind::KwReturn: {
    take();
    auto stmt = newStmt(StmtKind::Return, pos);
    if (!at(TokenKind::Newline) && !at(TokenKind::Semicolon))
      stmt->value = parseTestList().expr;
    return stmt;
  }
  case TokenKind::KwAssert: {
    take();
    auto stmt = newStmt(StmtKind::Assert, pos);
    stmt->test = parseTest().expr;
    if (accept(TokenKind::Comma))
      stmt->value = parseTest().expr;
    return stmt;
  }
  case TokenKind::KwGlobal:
  case TokenKind::KwNonlocal: {
    take();
    auto stmt = newStmt(StmtKind::Global, pos);
    do {
      stmt->names.push_back(expect(TokenKind::Name, "a name").text);
    } while (accept(TokenKind::Comma));
    return stmt;
  }
  case TokenKind::KwDel: return parseDelete();
  case TokenKind::KwImport: return parseImport();
  case TokenKind::KwFrom: return parseFromImport();
  default: return parseExpressionStatement();
  }
}

StmtPtr Parser::parseExpressionStatement() {
  Parsed first = parseTestList();
  auto stmt = newStmt(StmtKind::Expr, first.start);

  if (at(TokenKind::Equal)) {
    stmt->kind = StmtKind::Assign;
    checkTarget(*first.expr, "assign to");
    stmt->targets.push_back(std::move(first.expr));
    while (accept(TokenKind::Equal)) {
      Parsed next = parseTestList();
      if (!at(TokenKind::Equal)) {
        stmt->value = std::move(next.expr);
        break;
      }
      checkTarget(*next.expr, "assign to");
      stmt->targets.push_back(std::move(next.expr));
    }
    return stmt;
  }

  if (at(TokenKind::Colon)) {
    const ExprKind kind = first.expr->kind;
    if (kind == ExprKind::Tuple)
      fail(first.start, "only a single target (not a tuple) can be annotated");
    if (kind != ExprKind::Name && kind != ExprKind::Attribute && kind != ExprKind::Subscript)
      fail(first.start, std::string("illegal target for annotation: ") + describeExpr(*first.expr));
    take();
    stmt->kind = StmtKind::AnnAssign;
    stmt->targets.push_back(std::move(first.expr));
    stmt->annotation = parseTest().expr;
    if (accept(TokenKind::Equal))
      stmt->value = parseTestList().expr;
    return stmt;
  }

  if (auto op = augmentedOperator(peek().kind)) {
    const ExprKind kind = first.expr->kind;
    if (kind != ExprKind::Name && kind != ExprKind::Attribute && kind != ExprKind::Subscript)
      fail(first.start, std::string("illegal target for augmented assignment: ") +
                            (kind == ExprKind::Tuple ? "tuple" : describeExpr(*first.expr)));
    take();
    stmt->kind = StmtKind::AugAssign;
    stmt->augOp = *op;
    stmt->targets.push_back(std::move(first.expr));
    stmt->value = parseTestList().expr;
    return stmt;
  }

  stmt->value = std::move(first.expr);
  return stmt;
}

void Parser::checkTarget(const ast::Expr &target, const char *verb) const {
  switch (target.kind) {
  case ExprKind::Name:
  case ExprKind::Attribute:
  case ExprKind::Subscript: return;
  case ExprKind::Tuple:
  case ExprKind::List:
    // Recursion is bounded by kMaxExprHeight.
    for (const ast::ExprPtr &element : target.operands)
      checkTarget(*element, verb);
    return;
  default: fail(target.pos, std::string("cannot ") + verb + " " + describeExpr(target));
  }
}

StmtPtr Parser::parseDelete() {
  auto stmt = newStmt(StmtKind::Delete, take().pos);
  do {
    Parsed target = parseBinary(0);
    checkTarget(*target.expr, "delete");
    stmt->targets.push_back(std::move(target.expr));
  } while (accept(TokenKind::Comma) && !at(TokenKind::Newline) && !at(TokenKind::Semicolon));
  return stmt;
}

std::string Parser::parseDottedName() {
  std::string name = expect(TokenKind::Name, "a module name").text;
  while (accept(TokenKind::Dot))
    name += "." + expect(TokenKind::Name, "a name after '.'").text;
  return name;
}

StmtPtr Parser::parseImport() {
  auto stmt = newStmt(StmtKind::Import, take().pos);
  for (;;) {
    stmt->names.push_back(parseDottedName());
    stmt->asNames.push_back(accept(TokenKind::KwAs) ? expect(TokenKind::Name, "a name after 'as'").text
                                                    : std::string());
    if (!at(TokenKind::Comma))
      return stmt;
    const ast::Position comma = take().pos;
    if (at(TokenKind::Newline) || at(TokenKind::Semicolon))
      fail(comma, "trailing comma not allowed without surrounding parentheses");
  }
}

StmtPtr Parser::parseFromImport() {
  auto stmt = newStmt(StmtKind::ImportFrom, take().pos);
  // Relative imports keep their dots in the module name: "..pkg".
  while (at(TokenKind::Dot) || at(TokenKind::Ellipsis))
    stmt->module += take().text;
  if (at(TokenKind::Name) || stmt->module.empty())
    stmt->module += parseDottedName();
  expect(TokenKind::KwImport, "'import'");
  if (at(TokenKind::Star))
    fail(peek().pos, "'from ... import *' is not supported");
  const bool parenthesized = accept(TokenKind::LParen);
  for (;;) {
    stmt->names.push_back(expect(TokenKind::Name, "a name to import").text);
    stmt->asNames.push_back(accept(TokenKind::KwAs) ? expect(TokenKind::Name, "a name after 'as'").text
                                                    : std::string());
    if (!at(TokenKind::Comma))
      break;
    const ast::Position comma = take().pos;
    if (parenthesized && at(TokenKind::RParen))
      break;
    if (!parenthesized && (at(TokenKind::Newline) || at(TokenKind::Semicolon)))
      fail(comma, "trailing comma not allowed without surrounding parentheses");
  }
  if (parenthesized)
    expect(TokenKind::RParen, "',' or ')'");
  return stmt;
}

ast::StmtList Parser::parseBlock(const std::string &construct, int line) {
  expect(TokenKind::Colon, "':'");
  ast::StmtList body;
  if (!accept(TokenKind::Newline)) {
    // `if x: return`: simple statements on the header's line.
    parseSimpleStatements(body);
    return body;
  }
  if (!at(TokenKind::Indent))
    fail(peek().pos, "expected an indented block after " + construct + " on line " + std::to_string(line));
  NestingGuard guard(*this, take().pos);
  while (!at(TokenKind::Dedent) && !at(TokenKind::EndOfFile))
    parseStatement(body);
  accept(TokenKind::Dedent);
  return body;
}

ast::StmtList Parser::parseElse() {
  const Token keyword = take();
  return parseBlock("'else' statement", keyword.pos.line);
}

StmtPtr Parser::parseIf() {
  const Token keyword = take(); // 'if' or 'elif'
  auto stmt = newStmt(StmtKind::If, keyword.pos);
  stmt->test = parseTest().expr;
  stmt->body = parseBlock("'" + keyword.text + "' statement", keyword.pos.line);
  if (at(TokenKind::KwElif)) {
    NestingGuard guard(*this, peek().pos);
    stmt->orelse.push_back(parseIf());
  } else if (at(TokenKind::KwElse)) {
    stmt->orelse = parseElse();
  }
  return stmt;
}

StmtPtr Parser::parseWhile() {
  const Token keyword = take();
  auto stmt = newStmt(StmtKind::While, keyword.pos);
  stmt->test = parseTest().expr;
  stmt->body = parseBlock("'while' statement", keyword.pos.line);
  if (at(TokenKind::KwElse))
    stmt->orelse = parseElse();
  return stmt;
}

StmtPtr Parser::parseFor() {
  const Token keyword = take();
  auto stmt = newStmt(StmtKind::For, keyword.pos);
  Parsed target = parseTargetList();
  checkTarget(*target.expr, "assign to");
  stmt->targets.push_back(std::move(target.expr));
  expect(TokenKind::KwIn, "'in'");
  stmt->iter = parseTestList().expr;
  stmt->body = parseBlock("'for' statement", keyword.pos.line);
  if (at(TokenKind::KwElse))
    stmt->orelse = parseElse();
  return stmt;
}

StmtPtr Parser::parseDecorated() {
  const ast::Position pos = peek().pos;
  std::vector<ast::ExprPtr> decorators;
  while (accept(TokenKind::At)) {
    decorators.push_back(parseTest().expr);
    expect(TokenKind::Newline, "end of line after the decorator");
  }
  if (!at(TokenKind::KwDef))
    failExpected(peek(), "'def' after decorators");
  return parseFunctionDef(std::move(decorators), pos);
}

StmtPtr Parser::parseFunctionDef(std::vector<ast::ExprPtr> decorators, ast::Position pos) {
  const Token keyword = take();
  auto stmt = newStmt(StmtKind::FunctionDef, pos);
  stmt->function = std::make_unique<ast::FunctionDef>();
  ast::FunctionDef &function = *stmt->function;
  function.decorators = std::move(decorators);
  function.name = expect(TokenKind::Name, "a function name").text;
  expect(TokenKind::LParen, "'('");
  bool sawDefault = false;
  std::unordered_set<std::string> paramNames;
  while (!at(TokenKind::RParen)) {
    const Token &token = peek();
    if (token.kind == TokenKind::Star)
      fail(token.pos, peek(1).kind == TokenKind::Name ? "'*args' parameters are not supported"
                                                      : "keyword-only parameters ('*') are not supported");
    if (token.kind == TokenKind::DoubleStar)
      fail(token.pos, "'**kwargs' parameters are not supported");
    if (token.kind == TokenKind::Slash)
      fail(token.pos, "positional-only parameters ('/') are not supported");
    const Token name = expect(TokenKind::Name, "a parameter name");
    if (!paramNames.insert(name.text).second)
      fail(name.pos, "duplicate parameter '" + name.text + "' in function definition");
    ast::Parameter param;
    param.pos = name.pos;
    param.name = name.text;
    if (accept(TokenKind::Colon))
      param.annotation = parseTest().expr;
    if (accept(TokenKind::Equal)) {
      param.defaultValue = parseTest().expr;
      sawDefault = true;
    } else if (sawDefault) {
      fail(name.pos, "parameter without a default follows parameter with a default");
    }
    function.params.push_back(std::move(param));
    if (!accept(TokenKind::Comma))
      break;
  }
  expect(TokenKind::RParen, "',' or ')'");
  if (accept(TokenKind::Arrow))
    function.returns = parseTest().expr;
  function.body = parseBlock("function definition", keyword.pos.line);
  return stmt;
}

} // namespace detail
} // namespace npusim::triton
