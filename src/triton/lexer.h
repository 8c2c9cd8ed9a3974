#pragma once
// Tokenizer for the Python subset of Triton kernel files. It follows Python's
// tokenizer rules (NEWLINE/INDENT/DEDENT, implicit line joining inside
// brackets, backslash continuation) and refuses, with a position, whatever the
// parser could not represent: f-strings, bytes, complex literals, ':='.
#include "triton/ast.h"

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

namespace npusim::triton {

// Grouped by category, which one name per line would hide.
// clang-format off
enum class TokenKind {
  EndOfFile,
  Newline,
  Indent,
  Dedent,
  Name,
  Int,
  Float,
  String,
  // Keywords.
  KwFalse, KwNone, KwTrue, KwAnd, KwAs, KwAssert, KwAsync, KwAwait, KwBreak,
  KwClass, KwContinue, KwDef, KwDel, KwElif, KwElse, KwExcept, KwFinally,
  KwFor, KwFrom, KwGlobal, KwIf, KwImport, KwIn, KwIs, KwLambda, KwNonlocal,
  KwNot, KwOr, KwPass, KwRaise, KwReturn, KwTry, KwWhile, KwWith, KwYield,
  // Delimiters and operators.
  LParen, RParen, LBracket, RBracket, LBrace, RBrace,
  Comma, Colon, Semicolon, Dot, Ellipsis, Arrow, At, Equal,
  EqEqual, NotEqual, Less, LessEqual, Greater, GreaterEqual,
  Plus, Minus, Star, Slash, DoubleSlash, Percent, DoubleStar,
  Amper, VBar, Circumflex, Tilde, LeftShift, RightShift,
  PlusEqual, MinusEqual, StarEqual, SlashEqual, DoubleSlashEqual, PercentEqual,
  DoubleStarEqual, AmperEqual, VBarEqual, CircumflexEqual, LeftShiftEqual,
  RightShiftEqual, AtEqual,
};
// clang-format on

/// How a token kind reads in a message: "'+'", "'if'", "end of line", ...
std::string describe(TokenKind kind);

struct Token {
  TokenKind kind = TokenKind::EndOfFile;
  ast::Position pos;
  /// Name: the identifier. String: the value, escapes resolved. Int, Float:
  /// the literal as written.
  std::string text;
  /// Int: the magnitude. Python ints are unbounded, so the lexer only refuses
  /// what does not fit 64 bits; the parser decides what fits int64 (it folds
  /// -9223372036854775808, whose magnitude does not).
  uint64_t intValue = 0;
  double floatValue = 0.0;
};

/// Describes one token for a message: "name 'x'", "integer literal 12", "'('".
std::string describe(const Token &token);

class Lexer {
public:
  /// The source may hold anything: NUL bytes and invalid UTF-8 are reported
  /// here, at their position, before any token.
  Lexer(std::string_view source, std::string fileName);

  /// The next token; after the end, EndOfFile again and again.
  /// Throws core::CompileError on malformed input.
  Token next();

  const std::string &fileName() const { return fileName_; }

  [[noreturn]] void fail(ast::Position pos, const std::string &message) const;

  /// Python's own limits (MAXLEVEL, MAXINDENT).
  static constexpr int kMaxBrackets = 200;
  static constexpr int kMaxIndentLevels = 100;

private:
  struct Bracket {
    char open;
    ast::Position pos;
  };
  struct Indentation {
    int col;    // tabs to the next multiple of 8
    int altCol; // tabs count 1: the two disagree when tabs and spaces mix
  };

  void validateEncoding() const;
  bool atEnd() const { return pos_ >= src_.size(); }
  char peekChar(size_t ahead = 0) const;
  void advance();
  ast::Position here() const { return {line_, col_}; }

  /// Reads the indentation of a new line; false for a blank or comment line.
  bool startLine();
  void finishFile();
  Token lexToken();
  Token lexName();
  Token lexNumber();
  Token lexString(ast::Position start, std::string_view prefix);
  void lexEscape(std::string &out);
  uint32_t readHexDigits(int count, ast::Position escapePos, const char *what);
  Token lexOperator();

  std::string src_;
  std::string fileName_;
  size_t pos_ = 0;
  int line_ = 1;
  int col_ = 1;
  bool atLineStart_ = true;
  bool lineHasTokens_ = false;
  bool finished_ = false;
  ast::Position lastTokenEnd_{1, 1};
  std::vector<Bracket> brackets_;
  std::vector<Indentation> indents_{{0, 0}};
  std::deque<Token> pending_;
};

} // namespace npusim::triton
