#include "triton/lexer.h"

#include "core/error.h"

#include <array>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <system_error>

namespace npusim::triton {

namespace {

struct Spelling {
  TokenKind kind;
  std::string_view text;
};

// clang-format off
constexpr std::array<Spelling, 35> kKeywords{{
    {TokenKind::KwFalse, "False"},       {TokenKind::KwNone, "None"},
    {TokenKind::KwTrue, "True"},         {TokenKind::KwAnd, "and"},
    {TokenKind::KwAs, "as"},             {TokenKind::KwAssert, "assert"},
    {TokenKind::KwAsync, "async"},       {TokenKind::KwAwait, "await"},
    {TokenKind::KwBreak, "break"},       {TokenKind::KwClass, "class"},
    {TokenKind::KwContinue, "continue"}, {TokenKind::KwDef, "def"},
    {TokenKind::KwDel, "del"},           {TokenKind::KwElif, "elif"},
    {TokenKind::KwElse, "else"},         {TokenKind::KwExcept, "except"},
    {TokenKind::KwFinally, "finally"},   {TokenKind::KwFor, "for"},
    {TokenKind::KwFrom, "from"},         {TokenKind::KwGlobal, "global"},
    {TokenKind::KwIf, "if"},             {TokenKind::KwImport, "import"},
    {TokenKind::KwIn, "in"},             {TokenKind::KwIs, "is"},
    {TokenKind::KwLambda, "lambda"},     {TokenKind::KwNonlocal, "nonlocal"},
    {TokenKind::KwNot, "not"},           {TokenKind::KwOr, "or"},
    {TokenKind::KwPass, "pass"},         {TokenKind::KwRaise, "raise"},
    {TokenKind::KwReturn, "return"},     {TokenKind::KwTry, "try"},
    {TokenKind::KwWhile, "while"},       {TokenKind::KwWith, "with"},
    {TokenKind::KwYield, "yield"},
}};

// Longest spellings first, so the first match is the longest one.
constexpr std::array<Spelling, 47> kOperators{{
    {TokenKind::Ellipsis, "..."},        {TokenKind::DoubleStarEqual, "**="},
    {TokenKind::DoubleSlashEqual, "//="}, {TokenKind::LeftShiftEqual, "<<="},
    {TokenKind::RightShiftEqual, ">>="},  {TokenKind::Arrow, "->"},
    {TokenKind::DoubleStar, "**"},        {TokenKind::DoubleSlash, "//"},
    {TokenKind::LeftShift, "<<"},         {TokenKind::RightShift, ">>"},
    {TokenKind::LessEqual, "<="},         {TokenKind::GreaterEqual, ">="},
    {TokenKind::EqEqual, "=="},           {TokenKind::NotEqual, "!="},
    {TokenKind::PlusEqual, "+="},         {TokenKind::MinusEqual, "-="},
    {TokenKind::StarEqual, "*="},         {TokenKind::SlashEqual, "/="},
    {TokenKind::PercentEqual, "%="},      {TokenKind::AmperEqual, "&="},
    {TokenKind::VBarEqual, "|="},         {TokenKind::CircumflexEqual, "^="},
    {TokenKind::AtEqual, "@="},
    {TokenKind::EndOfFile, ":="}, // recognised only to be refused
    {TokenKind::LParen, "("},
    {TokenKind::RParen, ")"},             {TokenKind::LBracket, "["},
    {TokenKind::RBracket, "]"},           {TokenKind::LBrace, "{"},
    {TokenKind::RBrace, "}"},             {TokenKind::Comma, ","},
    {TokenKind::Colon, ":"},              {TokenKind::Semicolon, ";"},
    {TokenKind::Dot, "."},                {TokenKind::At, "@"},
    {TokenKind::Equal, "="},              {TokenKind::Less, "<"},
    {TokenKind::Greater, ">"},            {TokenKind::Plus, "+"},
    {TokenKind::Minus, "-"},              {TokenKind::Star, "*"},
    {TokenKind::Slash, "/"},              {TokenKind::Percent, "%"},
    {TokenKind::Amper, "&"},              {TokenKind::VBar, "|"},
    {TokenKind::Circumflex, "^"},         {TokenKind::Tilde, "~"},
}};
// clang-format on

bool isDigit(char c) {
  return c >= '0' && c <= '9';
}
bool isNameStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool isNameChar(char c) {
  return isNameStart(c) || isDigit(c);
}
bool isContinuationByte(char c) {
  return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}
bool isAscii(char c) {
  return static_cast<unsigned char>(c) < 0x80;
}

int digitValue(char c) {
  if (isDigit(c))
    return c - '0';
  if (c >= 'a' && c <= 'z')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'Z')
    return c - 'A' + 10;
  return 99;
}

std::string hex(uint32_t value, int width) {
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "%0*X", width, value);
  return buffer;
}

void appendUtf8(std::string &out, uint32_t cp) {
  auto byte = [&](uint32_t b) { out.push_back(static_cast<char>(b)); };
  if (cp < 0x80) {
    byte(cp);
  } else if (cp < 0x800) {
    byte(0xC0 | (cp >> 6));
    byte(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    byte(0xE0 | (cp >> 12));
    byte(0x80 | ((cp >> 6) & 0x3F));
    byte(0x80 | (cp & 0x3F));
  } else {
    byte(0xF0 | (cp >> 18));
    byte(0x80 | ((cp >> 12) & 0x3F));
    byte(0x80 | ((cp >> 6) & 0x3F));
    byte(0x80 | (cp & 0x3F));
  }
}

/// Length of the well-formed UTF-8 sequence at s[i], or 0 (RFC 3629: no
/// overlong forms, no surrogates, nothing past U+10FFFF).
size_t utf8SequenceLength(std::string_view s, size_t i) {
  auto at = [&](size_t k) { return k < s.size() ? static_cast<unsigned char>(s[k]) : 0u; };
  unsigned lead = at(i);
  auto cont = [&](size_t k, unsigned lo, unsigned hi) { return at(k) >= lo && at(k) <= hi; };
  if (lead < 0x80)
    return 1;
  if (lead >= 0xC2 && lead <= 0xDF)
    return cont(i + 1, 0x80, 0xBF) ? 2 : 0;
  if (lead >= 0xE0 && lead <= 0xEF) {
    unsigned lo = lead == 0xE0 ? 0xA0 : 0x80, hi = lead == 0xED ? 0x9F : 0xBF;
    return cont(i + 1, lo, hi) && cont(i + 2, 0x80, 0xBF) ? 3 : 0;
  }
  if (lead >= 0xF0 && lead <= 0xF4) {
    unsigned lo = lead == 0xF0 ? 0x90 : 0x80, hi = lead == 0xF4 ? 0x8F : 0xBF;
    return cont(i + 1, lo, hi) && cont(i + 2, 0x80, 0xBF) && cont(i + 3, 0x80, 0xBF) ? 4 : 0;
  }
  return 0;
}

uint32_t decodeUtf8(std::string_view s, size_t i) {
  size_t n = utf8SequenceLength(s, i);
  auto b = [&](size_t k) { return static_cast<uint32_t>(static_cast<unsigned char>(s[i + k])); };
  switch (n) {
  case 2: return ((b(0) & 0x1F) << 6) | (b(1) & 0x3F);
  case 3: return ((b(0) & 0x0F) << 12) | ((b(1) & 0x3F) << 6) | (b(2) & 0x3F);
  case 4: return ((b(0) & 0x07) << 18) | ((b(1) & 0x3F) << 12) | ((b(2) & 0x3F) << 6) | (b(3) & 0x3F);
  default: return n == 1 ? b(0) : 0xFFFD;
  }
}

std::string describeChar(std::string_view s, size_t i) {
  uint32_t cp = decodeUtf8(s, i);
  if (cp > 0x20 && cp < 0x7F)
    return std::string("'") + static_cast<char>(cp) + "'";
  return "U+" + hex(cp, 4);
}

} // namespace

std::string describe(TokenKind kind) {
  switch (kind) {
  case TokenKind::EndOfFile: return "end of file";
  case TokenKind::Newline: return "end of line";
  case TokenKind::Indent: return "indent";
  case TokenKind::Dedent: return "dedent";
  case TokenKind::Name: return "name";
  case TokenKind::Int:
  case TokenKind::Float: return "number";
  case TokenKind::String: return "string literal";
  default: break;
  }
  for (const Spelling &s : kKeywords)
    if (s.kind == kind)
      return "'" + std::string(s.text) + "'";
  for (const Spelling &s : kOperators)
    if (s.kind == kind)
      return "'" + std::string(s.text) + "'";
  return "token";
}

std::string describe(const Token &token) {
  switch (token.kind) {
  case TokenKind::Name: return "name '" + token.text + "'";
  case TokenKind::Int:
  case TokenKind::Float: return "number " + token.text;
  default: return describe(token.kind);
  }
}

Lexer::Lexer(std::string_view source, std::string fileName) : fileName_(std::move(fileName)) {
  // Universal newlines, as Python reads source files.
  src_.reserve(source.size());
  for (size_t i = 0; i < source.size(); ++i) {
    if (source[i] == '\r') {
      src_.push_back('\n');
      if (i + 1 < source.size() && source[i + 1] == '\n')
        ++i;
    } else {
      src_.push_back(source[i]);
    }
  }
  if (src_.compare(0, 3, "\xEF\xBB\xBF") == 0)
    src_.erase(0, 3);
  validateEncoding();
}

void Lexer::fail(ast::Position pos, const std::string &message) const {
  throw core::CompileError({fileName_, pos.line, pos.col}, message);
}

void Lexer::validateEncoding() const {
  int line = 1, col = 1;
  for (size_t i = 0; i < src_.size();) {
    if (src_[i] == '\0')
      fail({line, col}, "source code cannot contain NUL bytes");
    size_t n = utf8SequenceLength(src_, i);
    if (n == 0)
      fail({line, col}, "invalid UTF-8 byte 0x" + hex(static_cast<unsigned char>(src_[i]), 2));
    if (src_[i] == '\n') {
      ++line;
      col = 1;
    } else {
      ++col;
    }
    i += n;
  }
}

char Lexer::peekChar(size_t ahead) const {
  return pos_ + ahead < src_.size() ? src_[pos_ + ahead] : '\0';
}

void Lexer::advance() {
  if (atEnd())
    return;
  char c = src_[pos_++];
  if (c == '\n') {
    ++line_;
    col_ = 1;
  } else if (atEnd() || !isContinuationByte(src_[pos_])) {
    // Columns count characters: the bytes of one UTF-8 sequence share one.
    ++col_;
  }
}

Token Lexer::next() {
  for (;;) {
    if (!pending_.empty()) {
      Token token = std::move(pending_.front());
      pending_.pop_front();
      return token;
    }
    if (finished_)
      return Token{TokenKind::EndOfFile, here(), {}, 0, 0.0};
    if (atLineStart_) {
      if (startLine())
        atLineStart_ = false;
      continue;
    }
    while (peekChar() == ' ' || peekChar() == '\t' || peekChar() == '\f')
      advance();
    if (atEnd()) {
      finishFile();
      continue;
    }
    char c = peekChar();
    if (c == '#') {
      while (!atEnd() && peekChar() != '\n')
        advance();
      continue;
    }
    if (c == '\\') {
      ast::Position backslash = here();
      advance();
      if (atEnd())
        fail(backslash, "unexpected end of file after line continuation character");
      if (peekChar() != '\n')
        fail(backslash, "unexpected character after line continuation character");
      advance();
      continue;
    }
    if (c == '\n') {
      if (brackets_.empty() && lineHasTokens_) {
        Token newline{TokenKind::Newline, lastTokenEnd_, {}, 0, 0.0};
        advance();
        atLineStart_ = true;
        lineHasTokens_ = false;
        return newline;
      }
      advance();
      atLineStart_ = brackets_.empty();
      continue;
    }
    Token token = lexToken();
    lineHasTokens_ = true;
    lastTokenEnd_ = here();
    return token;
  }
}

bool Lexer::startLine() {
  int col = 0, altCol = 0;
  for (;; advance()) {
    char c = peekChar();
    if (c == ' ') {
      ++col;
      ++altCol;
    } else if (c == '\t') {
      col = (col / 8 + 1) * 8;
      ++altCol;
    } else if (c == '\f') {
      col = altCol = 0;
    } else {
      break;
    }
  }
  if (atEnd()) {
    finishFile();
    return false;
  }
  if (peekChar() == '#') {
    while (!atEnd() && peekChar() != '\n')
      advance();
  }
  if (peekChar() == '\n') {
    advance();
    return false;
  }
  if (atEnd()) {
    finishFile();
    return false;
  }

  // Python's rule: the indentation must compare the same way whether a tab
  // counts up to the next multiple of 8 or as one column.
  const ast::Position pos = here();
  const char *inconsistent = "inconsistent use of tabs and spaces in indentation";
  if (col == indents_.back().col) {
    if (altCol != indents_.back().altCol)
      fail(pos, inconsistent);
  } else if (col > indents_.back().col) {
    if (altCol <= indents_.back().altCol)
      fail(pos, inconsistent);
    if (static_cast<int>(indents_.size()) > kMaxIndentLevels)
      fail(pos, "too many levels of indentation (limit " + std::to_string(kMaxIndentLevels) + ")");
    indents_.push_back({col, altCol});
    pending_.push_back(Token{TokenKind::Indent, pos, {}, 0, 0.0});
  } else {
    while (indents_.size() > 1 && col < indents_.back().col) {
      indents_.pop_back();
      pending_.push_back(Token{TokenKind::Dedent, pos, {}, 0, 0.0});
    }
    if (col != indents_.back().col)
      fail(pos, "unindent does not match any outer indentation level");
    if (altCol != indents_.back().altCol)
      fail(pos, inconsistent);
  }
  return true;
}

void Lexer::finishFile() {
  if (!brackets_.empty())
    fail(brackets_.back().pos, std::string("'") + brackets_.back().open + "' was never closed");
  if (lineHasTokens_)
    pending_.push_back(Token{TokenKind::Newline, lastTokenEnd_, {}, 0, 0.0});
  lineHasTokens_ = false;
  for (; indents_.size() > 1; indents_.pop_back())
    pending_.push_back(Token{TokenKind::Dedent, here(), {}, 0, 0.0});
  pending_.push_back(Token{TokenKind::EndOfFile, here(), {}, 0, 0.0});
  finished_ = true;
}

Token Lexer::lexToken() {
  char c = peekChar();
  if (isNameStart(c))
    return lexName();
  if (isDigit(c) || (c == '.' && isDigit(peekChar(1))))
    return lexNumber();
  if (c == '\'' || c == '"')
    return lexString(here(), {});
  if (!isAscii(c))
    fail(here(), "unexpected character " + describeChar(src_, pos_) +
                     " (non-ASCII characters are allowed only in strings and comments)");
  return lexOperator();
}

Token Lexer::lexName() {
  const ast::Position start = here();
  const size_t begin = pos_;
  while (isNameChar(peekChar()))
    advance();
  std::string_view word(src_.data() + begin, pos_ - begin);
  if (peekChar() == '\'' || peekChar() == '"') {
    std::string lower;
    for (char ch : word)
      lower.push_back(ch >= 'A' && ch <= 'Z' ? static_cast<char>(ch - 'A' + 'a') : ch);
    if (lower == "r" || lower == "u" || lower == "b" || lower == "f" || lower == "br" || lower == "rb" ||
        lower == "fr" || lower == "rf")
      return lexString(start, lower);
  }
  for (const Spelling &k : kKeywords)
    if (k.text == word)
      return Token{k.kind, start, std::string(word), 0, 0.0};
  return Token{TokenKind::Name, start, std::string(word), 0, 0.0};
}

Token Lexer::lexNumber() {
  const ast::Position start = here();
  const size_t begin = pos_;
  auto spelling = [&] { return src_.substr(begin, pos_ - begin); };
  auto rejectTrailingName = [&](const char *kind) {
    if (isNameChar(peekChar()) || !isAscii(peekChar()))
      fail(start, std::string("invalid ") + kind + " literal");
  };

  if (peekChar() == '0' && (peekChar(1) == 'x' || peekChar(1) == 'X' || peekChar(1) == 'o' ||
                            peekChar(1) == 'O' || peekChar(1) == 'b' || peekChar(1) == 'B')) {
    const char base = static_cast<char>(peekChar(1) | 0x20);
    const int radix = base == 'x' ? 16 : base == 'o' ? 8 : 2;
    const char *kind = base == 'x' ? "hexadecimal" : base == 'o' ? "octal" : "binary";
    advance();
    advance();
    uint64_t value = 0;
    bool any = false, overflow = false;
    for (;;) {
      if (peekChar() == '_') {
        advance();
        if (digitValue(peekChar()) >= radix)
          fail(here(), std::string("invalid ") + kind + " literal");
      }
      const int digit = digitValue(peekChar());
      if (digit >= radix) {
        if (isDigit(peekChar()))
          fail(here(), std::string("invalid digit '") + peekChar() + "' in " + kind + " literal");
        break;
      }
      if (value > (std::numeric_limits<uint64_t>::max() - static_cast<uint64_t>(digit)) /
                      static_cast<uint64_t>(radix))
        overflow = true;
      value = value * static_cast<uint64_t>(radix) + static_cast<uint64_t>(digit);
      any = true;
      advance();
    }
    if (!any)
      fail(here(), std::string("invalid ") + kind + " literal");
    rejectTrailingName(kind);
    if (overflow)
      fail(start, "integer literal " + spelling() + " does not fit in 64 bits");
    return Token{TokenKind::Int, start, spelling(), value, 0.0};
  }

  // Decimal: digit groups may be separated by single underscores.
  std::string digits; // what from_chars reads: no underscores
  auto readDigits = [&] {
    for (;;) {
      digits.push_back(peekChar());
      advance();
      if (peekChar() == '_') {
        advance();
        if (!isDigit(peekChar()))
          fail(start, "invalid decimal literal");
      } else if (!isDigit(peekChar())) {
        return;
      }
    }
  };
  bool isFloat = false;
  if (isDigit(peekChar()))
    readDigits();
  const std::string intPart = digits;
  if (peekChar() == '.') {
    isFloat = true;
    digits.push_back('.');
    advance();
    if (isDigit(peekChar()))
      readDigits();
  }
  if (peekChar() == 'e' || peekChar() == 'E') {
    const char sign = peekChar(1);
    if (isDigit(sign) || ((sign == '+' || sign == '-') && isDigit(peekChar(2)))) {
      isFloat = true;
      digits.push_back('e');
      advance();
      if (sign == '+' || sign == '-') {
        digits.push_back(sign);
        advance();
      }
      readDigits();
    }
  }
  if (peekChar() == 'j' || peekChar() == 'J')
    fail(start, "complex literals are not supported");
  rejectTrailingName("decimal");

  if (isFloat) {
    double value = 0.0;
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (ec == std::errc::result_out_of_range)
      value = std::strtod(digits.c_str(), nullptr); // inf or 0, as Python gives
    (void)end;
    return Token{TokenKind::Float, start, spelling(), 0, value};
  }
  if (intPart.size() > 1 && intPart[0] == '0' && intPart.find_first_not_of('0') != std::string::npos)
    fail(start, "leading zeros in decimal integer literals are not permitted; use an 0o prefix "
                "for octal integers");
  uint64_t value = 0;
  for (char d : intPart) {
    const uint64_t digit = static_cast<uint64_t>(d - '0');
    if (value > (std::numeric_limits<uint64_t>::max() - digit) / 10)
      fail(start, "integer literal " + spelling() + " does not fit in 64 bits");
    value = value * 10 + digit;
  }
  return Token{TokenKind::Int, start, spelling(), value, 0.0};
}

Token Lexer::lexString(ast::Position start, std::string_view prefix) {
  if (prefix.find('f') != std::string_view::npos)
    fail(start, "f-strings are not supported");
  if (prefix.find('b') != std::string_view::npos)
    fail(start, "bytes literals are not supported");
  const bool raw = prefix.find('r') != std::string_view::npos;
  const char quote = peekChar();
  const bool triple = peekChar(1) == quote && peekChar(2) == quote;
  for (int i = triple ? 3 : 1; i > 0; --i)
    advance();

  std::string value;
  for (;;) {
    if (atEnd() || (peekChar() == '\n' && !triple))
      fail(start, triple ? "unterminated triple-quoted string literal" : "unterminated string literal");
    const char c = peekChar();
    if (c == quote) {
      if (!triple) {
        advance();
        break;
      }
      if (peekChar(1) == quote && peekChar(2) == quote) {
        advance();
        advance();
        advance();
        break;
      }
    }
    if (c == '\\' && !raw) {
      lexEscape(value);
      continue;
    }
    if (c == '\\') {
      // A raw string keeps the backslash and the character it protects.
      value.push_back(c);
      advance();
      if (atEnd())
        continue;
    }
    value.push_back(peekChar());
    advance();
  }
  return Token{TokenKind::String, start, std::move(value), 0, 0.0};
}

void Lexer::lexEscape(std::string &out) {
  const ast::Position backslash = here();
  advance();
  if (atEnd())
    return; // the caller reports the unterminated literal
  const char c = peekChar();
  auto simple = [&](char value) {
    out.push_back(value);
    advance();
  };
  switch (c) {
  case '\n': advance(); return;
  case '\\':
  case '\'':
  case '"': simple(c); return;
  case 'a': simple('\a'); return;
  case 'b': simple('\b'); return;
  case 'f': simple('\f'); return;
  case 'n': simple('\n'); return;
  case 'r': simple('\r'); return;
  case 't': simple('\t'); return;
  case 'v': simple('\v'); return;
  case 'N': fail(backslash, "\\N{...} escapes are not supported");
  case 'x':
  case 'u':
  case 'U': {
    advance();
    const int count = c == 'x' ? 2 : c == 'u' ? 4 : 8;
    const char *what = c == 'x' ? "\\xXX" : c == 'u' ? "\\uXXXX" : "\\UXXXXXXXX";
    const uint32_t cp = readHexDigits(count, backslash, what);
    if (cp > 0x10FFFF)
      fail(backslash, "illegal Unicode character in \\U escape");
    if (cp >= 0xD800 && cp <= 0xDFFF)
      fail(backslash, "surrogate code points are not supported in string literals");
    appendUtf8(out, cp);
    return;
  }
  default: break;
  }
  if (c >= '0' && c <= '7') {
    uint32_t cp = 0;
    for (int i = 0; i < 3 && peekChar() >= '0' && peekChar() <= '7'; ++i) {
      cp = cp * 8 + static_cast<uint32_t>(peekChar() - '0');
      advance();
    }
    appendUtf8(out, cp);
    return;
  }
  // Python keeps an unknown escape as written.
  out.push_back('\\');
}

uint32_t Lexer::readHexDigits(int count, ast::Position escapePos, const char *what) {
  uint32_t value = 0;
  for (int i = 0; i < count; ++i) {
    const int digit = digitValue(peekChar());
    if (digit >= 16)
      fail(escapePos, std::string("truncated ") + what + " escape");
    value = value * 16 + static_cast<uint32_t>(digit);
    advance();
  }
  return value;
}

Token Lexer::lexOperator() {
  const ast::Position start = here();
  for (const Spelling &op : kOperators) {
    if (src_.compare(pos_, op.text.size(), op.text) != 0)
      continue;
    if (op.text == ":=")
      fail(start, "assignment expressions (':=') are not supported");
    for (size_t i = 0; i < op.text.size(); ++i)
      advance();
    const char c = op.text[0];
    if (c == '(' || c == '[' || c == '{') {
      if (static_cast<int>(brackets_.size()) >= kMaxBrackets)
        fail(start, "too many nested parentheses (limit " + std::to_string(kMaxBrackets) + ")");
      brackets_.push_back({c, start});
    } else if (c == ')' || c == ']' || c == '}') {
      if (brackets_.empty())
        fail(start, std::string("unmatched '") + c + "'");
      const Bracket open = brackets_.back();
      const char expected = open.open == '(' ? ')' : open.open == '[' ? ']' : '}';
      if (c != expected) {
        std::string message = std::string("closing parenthesis '") + c +
                              "' does not match opening parenthesis '" + open.open + "'";
        if (open.pos.line != start.line)
          message += " on line " + std::to_string(open.pos.line);
        fail(start, message);
      }
      brackets_.pop_back();
    }
    return Token{op.kind, start, std::string(op.text), 0, 0.0};
  }
  fail(start, "unexpected character " + describeChar(src_, pos_));
}

} // namespace npusim::triton
