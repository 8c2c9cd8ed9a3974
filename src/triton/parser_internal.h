#pragma once
// Internal to the parser: the recursive-descent Parser that parser.cpp
// (statements) and parser_expr.cpp (expressions) share. Not an interface.
#include "triton/ast.h"
#include "triton/lexer.h"

#include <deque>
#include <optional>
#include <string>
#include <string_view>

namespace npusim::triton::detail {

/// An expression under construction, with what its parent needs: where its
/// source begins (Python records `(a + b) * c` at the '(' although the inner
/// `a + b` starts at 'a') and the height of its tree, which is bounded so that
/// destroying or walking any tree cannot overflow the stack.
struct Parsed {
  ast::ExprPtr expr;
  ast::Position start;
  int height = 1;
};

class Parser {
public:
  Parser(std::string_view source, std::string fileName);
  ast::Module parseModule();

  /// Recursion of the parser itself: nested brackets, unary operators,
  /// conditional expressions, blocks and elif chains.
  static constexpr int kMaxNesting = 200;
  /// Height of an expression tree, which left-associative chains such as
  /// `a + b + c + ...` grow without recursion.
  static constexpr int kMaxExprHeight = 1000;

private:
  class NestingGuard {
  public:
    NestingGuard(Parser &parser, ast::Position pos);
    ~NestingGuard() { --parser_.nesting_; }
    NestingGuard(const NestingGuard &) = delete;
    NestingGuard &operator=(const NestingGuard &) = delete;

  private:
    Parser &parser_;
  };

  /// Collects a node's children and the height they give it.
  struct NodeBuilder {
    NodeBuilder(ast::ExprKind kind, ast::Position pos, ast::Position start);
    void add(Parsed child);
    void addNull() { expr->operands.push_back(nullptr); }
    ast::ExprPtr expr;
    ast::Position start;
    int height = 1;
  };

  // Token stream (parser.cpp).
  const Token &peek(size_t ahead = 0);
  Token take();
  bool at(TokenKind kind) { return peek().kind == kind; }
  bool accept(TokenKind kind);
  Token expect(TokenKind kind, const std::string &what);
  [[noreturn]] void fail(ast::Position pos, const std::string &message) const;
  [[noreturn]] void failExpected(const Token &found, const std::string &what) const;
  Parsed finish(NodeBuilder &&node) const;

  // Statements (parser.cpp).
  void parseStatement(ast::StmtList &out);
  void parseSimpleStatements(ast::StmtList &out);
  ast::StmtPtr parseSimpleStatement();
  ast::StmtPtr parseExpressionStatement();
  ast::StmtPtr parseDelete();
  ast::StmtPtr parseImport();
  ast::StmtPtr parseFromImport();
  ast::StmtPtr parseIf();
  ast::StmtPtr parseWhile();
  ast::StmtPtr parseFor();
  ast::StmtPtr parseDecorated();
  ast::StmtPtr parseFunctionDef(std::vector<ast::ExprPtr> decorators, ast::Position pos);
  ast::StmtList parseBlock(const std::string &construct, int line);
  ast::StmtList parseElse();
  std::string parseDottedName();
  void checkTarget(const ast::Expr &target, const char *verb) const;

  // Expressions (parser_expr.cpp).
  Parsed parseTestList();
  Parsed parseTargetList();
  Parsed parseTest();
  Parsed parseOrTest();
  Parsed parseAndTest();
  Parsed parseNotTest();
  Parsed parseComparison();
  std::optional<ast::CompareOperator> takeCompareOperator();
  Parsed parseBinary(int level);
  Parsed parseFactor();
  Parsed parsePower();
  Parsed parsePrimary();
  Parsed parseCall(Parsed callee);
  Parsed parseSubscript(Parsed value);
  Parsed parseSubscriptItem();
  Parsed parseAtom();
  Parsed parseIntLiteral(const Token &token, bool negate);
  Parsed parseParenthesized();
  Parsed parseList();
  Parsed parseBraces();

  Lexer lexer_;
  std::deque<Token> lookahead_;
  int nesting_ = 0;
};

} // namespace npusim::triton::detail
