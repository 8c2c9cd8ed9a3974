// Reads the text form of TileIR (docs/tileir.md §7) back into a Function: the
// inverse of printer.cpp. Text is read line by line; within a line, tokens may
// be separated by any run of spaces, so hand-written test files need not match
// the printer's spacing. Lines that hold only a `//` comment are skipped.
//
// Values keep the ids the text gives them. Ops are first built over
// placeholder values indexed by id; once the whole function is read, the
// function's values are created in id order and the placeholders replaced, so
// that ids may appear in any order in the text (a value made late but placed
// early, as the passes do).
#include "ir/ir.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

namespace npusim::ir {
namespace {

bool isIdentStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

bool isIdentChar(char c) {
  return isIdentStart(c) || (c >= '0' && c <= '9') || c == '.';
}

/// The enum value whose name is `word`, searching first..last.
template <typename E> std::optional<E> enumNamed(std::string_view word, E last) {
  for (int i = 0; i <= static_cast<int>(last); ++i)
    if (name(static_cast<E>(i)) == word)
      return static_cast<E>(i);
  return std::nullopt;
}

std::optional<DType> dtypeNamed(std::string_view word) {
  for (int i = 0; i < core::kNumDTypes; ++i)
    if (core::tritonName(static_cast<DType>(i)) == word)
      return static_cast<DType>(i);
  return std::nullopt;
}

/// One significant line of the text.
struct Line {
  std::string_view text;
  int number = 0;
};

class Parser {
public:
  Parser(std::string_view text, std::string file) : file_(std::move(file)) {
    int number = 0;
    size_t begin = 0;
    while (begin <= text.size()) {
      size_t end = text.find('\n', begin);
      if (end == std::string_view::npos)
        end = text.size();
      ++number;
      std::string_view line = text.substr(begin, end - begin);
      if (!line.empty() && line.back() == '\r')
        line.remove_suffix(1);
      const size_t first = line.find_first_not_of(" \t");
      if (first != std::string_view::npos && line.substr(first, 2) != "//")
        lines_.push_back(Line{line, number});
      begin = end + 1;
    }
  }

  std::unique_ptr<Function> run() {
    if (lines_.empty())
      throw core::CompileError(core::SourceLocation{file_, 1, 1},
                               "TileIR parser: expected 'tile.func @NAME('");
    startLine(0);
    expectWord("tile.func");
    expect('@');
    std::string name = identifier("a function name");
    auto function = std::make_unique<Function>(name);
    std::vector<Value *> parameters;
    std::vector<std::string> parameterNames;
    expect('(');
    if (!accept(')')) {
      do {
        const core::SourceLocation at = next();
        Value *v = definition();
        std::string pname;
        skipSpaces();
        if (peek() != ':')
          pname = parameterName();
        expect(':');
        v->type = type();
        if (v->id != static_cast<int>(parameters.size()))
          fail(at, "parameter " + std::to_string(parameters.size()) + " must be %" +
                       std::to_string(parameters.size()) + " (parameters are numbered first, in order)");
        parameters.push_back(v);
        parameterNames.push_back(std::move(pname));
      } while (accept(','));
      expect(')');
    }
    std::array<int64_t, 3> programs{0, 0, 0};
    skipSpaces();
    if (acceptWord("programs")) {
      expect('(');
      for (size_t axis = 0; axis < 3; ++axis) {
        if (axis)
          expect(',');
        skipSpaces();
        const core::SourceLocation at = here();
        programs[axis] = integer("a program count");
        if (programs[axis] < 0)
          fail(at, "a program count is 0 (unknown) or more");
      }
      expect(')');
    }
    expect('{');
    endOfLine();
    Block body;
    body.arguments = parameters;
    nextLine();
    blockOps(body);
    if (atEnd())
      fail(here(), "expected '}' closing the function");
    expect('}');
    endOfLine();
    if (line_ + 1 < lines_.size()) {
      startLine(line_ + 1);
      fail(here(), "text after the end of the function");
    }
    build(*function, body, parameterNames);
    function->setPrograms(programs);
    verify(*function);
    return function;
  }

private:
  // ------------------------------------------------------------- the cursor

  void startLine(size_t index) {
    line_ = index;
    col_ = 0;
  }
  void nextLine() { startLine(line_ + 1); }
  bool atEnd() const { return line_ >= lines_.size(); }
  std::string_view text() const { return atEnd() ? std::string_view{} : lines_[line_].text; }

  core::SourceLocation here() const {
    if (atEnd()) {
      const int last = lines_.empty() ? 1 : lines_.back().number;
      return core::SourceLocation{file_, last,
                                  static_cast<int>(lines_.empty() ? 1 : lines_.back().text.size() + 1)};
    }
    return core::SourceLocation{file_, lines_[line_].number, static_cast<int>(col_) + 1};
  }

  /// The position of the next token.
  core::SourceLocation next() {
    skipSpaces();
    return here();
  }

  [[noreturn]] void fail(const core::SourceLocation &at, const std::string &what) const {
    throw core::CompileError(at, "TileIR parser: " + what);
  }
  [[noreturn]] void fail(const std::string &what) const { fail(here(), what); }

  void skipSpaces() {
    const std::string_view t = text();
    while (col_ < t.size() && (t[col_] == ' ' || t[col_] == '\t'))
      ++col_;
  }
  char peek() {
    skipSpaces();
    const std::string_view t = text();
    return col_ < t.size() ? t[col_] : '\0';
  }
  /// True at the end of the line or at its trailing `//` comment.
  bool atEndOfLine() {
    skipSpaces();
    return col_ >= text().size() || text().substr(col_, 2) == "//";
  }
  bool accept(char c) {
    if (peek() != c)
      return false;
    ++col_;
    return true;
  }
  void expect(char c) {
    if (!accept(c))
      fail(std::string("expected '") + c + "'" + found());
  }
  std::string found() {
    if (atEndOfLine())
      return " at the end of the line";
    const std::string_view t = text().substr(col_);
    size_t n = 0;
    while (n < t.size() && n < 16 && t[n] != ' ')
      ++n;
    return ", found '" + std::string(t.substr(0, n)) + "'";
  }
  /// A word: identifier characters (letters, digits, '_', '.'), or empty.
  std::string_view word() {
    skipSpaces();
    const std::string_view t = text();
    size_t end = col_;
    while (end < t.size() && isIdentChar(t[end]))
      ++end;
    return t.substr(col_, end - col_);
  }
  bool acceptWord(std::string_view w) {
    if (word() != w)
      return false;
    col_ += w.size();
    return true;
  }
  void expectWord(std::string_view w) {
    if (!acceptWord(w))
      fail("expected '" + std::string(w) + "'" + found());
  }
  std::string identifier(const char *what) {
    const std::string_view w = word();
    if (w.empty() || !isIdentStart(w[0]))
      fail(std::string("expected ") + what + found());
    col_ += w.size();
    return std::string(w);
  }
  void endOfLine() {
    if (!atEndOfLine())
      fail("expected the end of the line" + found());
  }

  int64_t integer(const char *what) {
    skipSpaces();
    const std::string_view t = text();
    int64_t v = 0;
    const auto r = std::from_chars(t.data() + col_, t.data() + t.size(), v);
    if (r.ec != std::errc() || (r.ptr < t.data() + t.size() && isIdentChar(*r.ptr)))
      fail(std::string("expected ") + what + found());
    col_ = static_cast<size_t>(r.ptr - t.data());
    return v;
  }
  int smallInteger(const char *what) {
    const core::SourceLocation at = next();
    const int64_t v = integer(what);
    if (v < INT32_MIN || v > INT32_MAX)
      fail(at, std::string(what) + " out of range");
    return static_cast<int>(v);
  }
  /// `key=` followed by an integer.
  int keyed(std::string_view key) {
    expectWord(key);
    expect('=');
    return smallInteger("an integer");
  }

  /// A double-quoted string with the printer's escapes.
  std::string quoted() {
    expect('"');
    std::string out;
    const std::string_view t = text();
    while (true) {
      if (col_ >= t.size())
        fail("unterminated string");
      const char c = t[col_++];
      if (c == '"')
        return out;
      if (c != '\\') {
        out += c;
        continue;
      }
      out += escaped();
    }
  }
  /// The character of the escape sequence after a backslash.
  char escaped() {
    const std::string_view t = text();
    if (col_ >= t.size())
      fail("unterminated escape");
    const char e = t[col_++];
    switch (e) {
    case '"': return '"';
    case '\\': return '\\';
    case 'n': return '\n';
    case 't': return '\t';
    case 'r': return '\r';
    case 'x': {
      unsigned v = 0;
      const auto r = std::from_chars(t.data() + col_, t.data() + std::min(t.size(), col_ + 2), v, 16);
      if (r.ec != std::errc() || r.ptr != t.data() + col_ + 2)
        fail("expected two hex digits after \\x");
      col_ += 2;
      return static_cast<char>(v);
    }
    default: --col_; fail(std::string("unknown escape '\\") + e + "'");
    }
  }
  /// Reads up to a delimiter, undoing the printer's escapes (names and hints).
  std::string unescapedUntil(std::string_view delimiters) {
    std::string out;
    const std::string_view t = text();
    while (col_ < t.size() && delimiters.find(t[col_]) == std::string_view::npos) {
      const char c = t[col_++];
      out += c == '\\' ? escaped() : c;
    }
    return out;
  }
  std::string parameterName() {
    skipSpaces();
    std::string n = unescapedUntil(": \t");
    if (n.empty())
      fail("expected a parameter name or ':'" + found());
    return n;
  }

  // ----------------------------------------------------------------- values

  Value *placeholder(int id) {
    if (id >= static_cast<int>(values_.size())) {
      values_.resize(id + 1);
      defined_.resize(id + 1);
      firstUse_.resize(id + 1);
    }
    if (!values_[id]) {
      values_[id] = std::make_unique<Value>();
      values_[id]->id = id;
    }
    return values_[id].get();
  }
  int valueId() {
    expect('%');
    const std::string_view t = text();
    int id = 0;
    const auto r = std::from_chars(t.data() + col_, t.data() + t.size(), id);
    if (r.ec != std::errc() || id < 0 || (r.ptr < t.data() + t.size() && isIdentChar(*r.ptr)))
      fail("expected a value id after '%'");
    col_ = static_cast<size_t>(r.ptr - t.data());
    if (id > 10'000'000)
      fail("value id too large");
    return id;
  }
  Value *use() {
    const core::SourceLocation at = next();
    Value *v = placeholder(valueId());
    if (!defined_[v->id] && !firstUse_[v->id].known())
      firstUse_[v->id] = at;
    return v;
  }
  Value *definition() {
    const core::SourceLocation at = next();
    Value *v = placeholder(valueId());
    if (defined_[v->id])
      fail(at, "%" + std::to_string(v->id) + " is defined twice");
    defined_[v->id] = true;
    return v;
  }
  std::vector<Value *> uses() {
    std::vector<Value *> out;
    if (peek() != '%')
      return out;
    do
      out.push_back(use());
    while (accept(','));
    return out;
  }

  Type type() {
    Type t;
    t.isPointer = accept('*');
    const core::SourceLocation at = next();
    const std::string_view w = word();
    const auto dtype = dtypeNamed(w);
    if (!dtype)
      fail(at, "expected a type" + found());
    col_ += w.size();
    t.dtype = *dtype;
    if (text().substr(col_, 1) == "[") {
      ++col_;
      do {
        const core::SourceLocation dimAt = next();
        const int64_t d = integer("a dimension");
        if (d <= 0)
          fail(dimAt, "dimensions must be positive");
        t.shape.push_back(d);
      } while (accept(','));
      expect(']');
    }
    return t;
  }

  /// The optional ` lane=N` after a value's type (the layout pass's choice);
  /// -1 when absent. The verifier checks N against the type.
  int laneAxis() {
    if (word() != "lane")
      return -1;
    const core::SourceLocation at = next();
    const int axis = keyed("lane");
    if (axis < 0)
      fail(at, "a lane axis must be an axis of the tile");
    return axis;
  }

  /// The trailing `// h0, h1, ...` of a line that defines `defined`.
  void hints(const std::vector<Value *> &defined) {
    skipSpaces();
    if (col_ >= text().size())
      return;
    if (text().substr(col_, 2) != "//")
      fail("expected the end of the line" + found());
    col_ += 2;
    for (size_t i = 0; i < defined.size(); ++i) {
      if (i)
        expect(',');
      skipSpaces();
      const core::SourceLocation at = next();
      std::string hint = unescapedUntil(", \t");
      if (hint.empty())
        fail(at, "expected a name hint or '_'");
      if (hint != "_")
        defined[i]->nameHint = std::move(hint);
    }
    if (defined.empty() || !atEndOfLineStrict())
      fail("expected " + std::to_string(defined.size()) + " name hints, one per value the line defines");
  }
  bool atEndOfLineStrict() {
    skipSpaces();
    return col_ >= text().size();
  }

  // -------------------------------------------------------------------- ops

  void blockOps(Block &block) {
    while (!atEnd()) {
      const char c = peek();
      if (c == '}')
        return;
      if (c == '^')
        fail("a region's arguments must come first in the region");
      auto op = opLine();
      block.ops.push_back(std::move(op));
    }
  }

  std::unique_ptr<Op> opLine() {
    auto op = std::make_unique<Op>();
    op->loc = next();
    std::vector<Value *> defined;
    if (peek() == '%') {
      do
        defined.push_back(definition());
      while (accept(','));
      expect('=');
    }
    op->results = defined;
    const core::SourceLocation nameAt = next();
    const std::string_view opName = word();
    const auto code = enumNamed(opName, OpCode::Barrier);
    if (!code)
      fail(nameAt,
           opName.empty() ? "expected an op name" + found() : "unknown op '" + std::string(opName) + "'");
    col_ += opName.size();
    op->code = *code;
    std::vector<Value *> forArguments; // the For header binds its body's arguments
    body(*op, forArguments);
    defined.insert(defined.end(), forArguments.begin(), forArguments.end());
    if (accept(':')) {
      std::vector<std::pair<Type, int>> types; // with the lane axis
      do {
        Type t = type();
        types.emplace_back(std::move(t), laneAxis());
      } while (accept(','));
      if (types.size() != op->results.size())
        fail(nameAt, "the op defines " + std::to_string(op->results.size()) + " values but lists " +
                         std::to_string(types.size()) + " result types");
      for (size_t i = 0; i < types.size(); ++i)
        std::tie(op->results[i]->type, op->results[i]->laneAxis) = types[i];
    } else if (!op->results.empty()) {
      fail("expected ':' and the result types" + found());
    }
    if (op->code == OpCode::For) {
      // The body's carried arguments have the result types and lane axes; the
      // induction variable has the bounds' type, known once the bounds are
      // defined.
      for (size_t i = 1; i < forArguments.size(); ++i) {
        const bool hasResult = i - 1 < op->results.size();
        forArguments[i]->type = hasResult ? op->results[i - 1]->type : Type{};
        forArguments[i]->laneAxis = hasResult ? op->results[i - 1]->laneAxis : -1;
      }
      pendingInductionVariables_.push_back({forArguments.empty() ? nullptr : forArguments[0],
                                            op->operands.empty() ? nullptr : op->operands[0]});
    }
    const bool hasRegions = accept('{');
    hints(defined);
    nextLine();
    if (hasRegions)
      regions(*op, forArguments);
    else if (op->code == OpCode::For)
      fail(nameAt, "a for needs its body region");
    return op;
  }

  void regions(Op &op, const std::vector<Value *> &forArguments) {
    while (true) {
      auto region = std::make_unique<Block>();
      region->parentOp = &op;
      if (op.code == OpCode::For && op.regions.empty()) {
        region->arguments = forArguments;
      } else if (peek() == '^') {
        ++col_;
        expect('(');
        do {
          Value *v = definition();
          expect(':');
          v->type = type();
          v->laneAxis = laneAxis();
          region->arguments.push_back(v);
        } while (accept(','));
        expect(')');
        expect(':');
        hints(region->arguments);
        nextLine();
      }
      blockOps(*region);
      op.regions.push_back(std::move(region));
      if (atEnd())
        fail(op.loc, "region not closed: expected '}'");
      expect('}');
      if (atEndOfLine()) {
        endOfLine();
        nextLine();
        return;
      }
      if (op.code == OpCode::If && op.regions.size() == 1)
        expectWord("else");
      expect('{');
      endOfLine();
      nextLine();
    }
  }

  /// What comes between the op name and the result types.
  void body(Op &op, std::vector<Value *> &forArguments) {
    switch (op.code) {
    case OpCode::Constant: literal(op); return;
    case OpCode::ProgramId:
    case OpCode::NumPrograms: {
      const std::string_view w = word();
      if (w != "x" && w != "y" && w != "z")
        fail("expected a grid axis x, y or z" + found());
      op.axis = w[0] - 'x';
      col_ += 1;
      return;
    }
    case OpCode::Arange:
      op.start = integer("the start");
      expect(',');
      op.end = integer("the end");
      return;
    case OpCode::ExpandDims:
      op.axis = keyed("axis");
      op.operands = uses();
      return;
    case OpCode::Slice:
      op.axis = keyed("axis");
      op.start = keyed("start");
      op.operands = uses();
      return;
    case OpCode::Permute:
      expectWord("order");
      expect('=');
      expect('[');
      do
        op.order.push_back(smallInteger("an axis"));
      while (accept(','));
      expect(']');
      op.operands = uses();
      return;
    case OpCode::Min:
    case OpCode::Max:
      op.nanMode = named(NanMode::Propagate, "a NaN mode (ignore_nan, propagate_nan)");
      op.operands = uses();
      return;
    case OpCode::Math: op.mathFn = named(MathFn::Fma, "a math function"); break;
    case OpCode::Cmp: op.predicate = named(CmpPredicate::Ge, "a predicate (eq, ne, lt, le, gt, ge)"); break;
    case OpCode::Load:
      op.operands = {use()};
      if (accept(',') && keywordOperand(op, "mask") && accept(','))
        keywordOperand(op, "other");
      return;
    case OpCode::AtomicRMW: op.atomicKind = named(AtomicKind::Exchange, "an atomic kind"); [[fallthrough]];
    case OpCode::Store:
      op.operands = {use()};
      expect(',');
      op.operands.push_back(use());
      if (accept(','))
        keywordOperand(op, "mask");
      return;
    case OpCode::Reduce:
    case OpCode::Scan:
      op.reduceKind = named(ReduceKind::Combine, "a reduction kind");
      if (usesNanMode(op.reduceKind))
        op.nanMode = named(NanMode::Propagate, "a NaN mode (ignore_nan, propagate_nan)");
      op.axis = keyed("axis");
      if (op.code == OpCode::Scan)
        op.reverse = acceptWord("reverse");
      break;
    case OpCode::Sort:
      op.axis = keyed("axis");
      op.descending = acceptWord("descending");
      op.stable = acceptWord("stable");
      break;
    case OpCode::Dot: op.inputPrecision = named(InputPrecision::TF32x3, "an input precision"); break;
    case OpCode::For: {
      forArguments.push_back(definition());
      expect('=');
      op.operands.push_back(use());
      expectWord("to");
      op.operands.push_back(use());
      expectWord("step");
      op.operands.push_back(use());
      if (acceptWord("iter_args")) {
        expect('(');
        do {
          forArguments.push_back(definition());
          expect('=');
          op.operands.push_back(use());
        } while (accept(','));
        expect(')');
      }
      return;
    }
    case OpCode::Assert:
      op.operands = {use()};
      expect(',');
      skipSpaces();
      op.message = quoted();
      return;
    default: break;
    }
    op.operands = uses();
  }

  /// `KEYWORD %v` (mask, other); true, to chain the optional ones.
  bool keywordOperand(Op &op, std::string_view keyword) {
    expectWord(keyword);
    op.operands.push_back(use());
    return true;
  }

  template <typename E> E named(E last, const char *what) {
    const core::SourceLocation at = next();
    const std::string_view w = word();
    const auto e = enumNamed(w, last);
    if (!e)
      fail(at, std::string("expected ") + what + found());
    col_ += w.size();
    return *e;
  }

  /// A constant's literal; its meaning depends on the result type, read later.
  void literal(Op &op) {
    skipSpaces();
    const std::string_view t = text();
    size_t end = col_;
    while (end < t.size() && t[end] != ' ' && t[end] != '\t' && t[end] != ':' && t[end] != ',')
      ++end;
    if (end == col_)
      fail("expected a literal" + found());
    pendingLiterals_.push_back({&op, std::string(t.substr(col_, end - col_)), here()});
    col_ = end;
  }

  struct PendingLiteral {
    Op *op;
    std::string text;
    core::SourceLocation at;
  };

  void resolveLiteral(const PendingLiteral &p) {
    Op &op = *p.op;
    const std::string &s = p.text;
    if (op.results.size() != 1)
      fail(p.at, "a constant defines one value");
    const Type &t = op.results[0]->type;
    const char *first = s.data();
    const char *last = s.data() + s.size();
    if (t.isFloat()) {
      if (s == "inf" || s == "-inf") {
        op.constant.floatValue = s[0] == '-' ? -HUGE_VAL : HUGE_VAL;
      } else if (s == "nan") {
        op.constant.floatValue = std::bit_cast<double>(uint64_t{0x7ff8000000000000ULL});
      } else if (s.starts_with("nan(0x") && s.back() == ')') {
        uint64_t bits = 0;
        const auto r = std::from_chars(first + 6, last - 1, bits, 16);
        if (r.ec != std::errc() || r.ptr != last - 1 || !std::isnan(std::bit_cast<double>(bits)))
          fail(p.at, "malformed NaN literal '" + s + "'");
        op.constant.floatValue = std::bit_cast<double>(bits);
      } else {
        double v = 0;
        const auto r = std::from_chars(first, last, v);
        if (r.ec != std::errc() || r.ptr != last)
          fail(p.at, "expected a float literal for " + t.str() + ", found '" + s + "'");
        op.constant.floatValue = v;
      }
      return;
    }
    if (t.isBool() && (s == "true" || s == "false")) {
      op.constant.intValue = s == "true";
    } else if (!t.isPointer && t.dtype == DType::UInt64) {
      uint64_t v = 0;
      const auto r = std::from_chars(first, last, v);
      if (r.ec != std::errc() || r.ptr != last)
        fail(p.at, "expected an unsigned integer literal, found '" + s + "'");
      op.constant.intValue = static_cast<int64_t>(v);
    } else {
      int64_t v = 0;
      const auto r = std::from_chars(first, last, v);
      if (r.ec != std::errc() || r.ptr != last)
        fail(p.at, "expected " + std::string(t.isBool() ? "true or false" : "an integer literal") + " for " +
                       t.str() + ", found '" + s + "'");
      op.constant.intValue = v;
    }
    // As Builder::constantInt does.
    op.constant.floatValue = static_cast<double>(op.constant.intValue);
  }

  // ------------------------------------------------------------ the function

  /// Replaces the placeholders by the function's own values, created in id order.
  void build(Function &function, Block &body, const std::vector<std::string> &parameterNames) {
    // An id the text never names is a value no op defines (a pass removed
    // its op); it keeps its slot so that the other ids stay the same.
    for (size_t id = 0; id < values_.size(); ++id)
      if (values_[id] && !defined_[id])
        fail(firstUse_[id], "%" + std::to_string(id) + " is never defined");
    for (const auto &[iv, lower] : pendingInductionVariables_)
      if (iv && lower)
        iv->type = lower->type;
    for (const PendingLiteral &p : pendingLiterals_)
      resolveLiteral(p);
    std::vector<Value *> real(values_.size());
    for (size_t id = 0; id < values_.size(); ++id) {
      if (!values_[id]) {
        real[id] = function.newValue(Type{});
        continue;
      }
      const Value &v = *values_[id];
      real[id] = id < body.arguments.size() ? function.addParameter(parameterNames[id], v.type)
                                            : function.newValue(v.type, v.nameHint);
      real[id]->laneAxis = v.laneAxis;
    }
    Block &target = function.body();
    target.ops = std::move(body.ops);
    link(target, real);
  }

  void link(Block &block, const std::vector<Value *> &real) {
    for (size_t i = 0; i < block.arguments.size(); ++i) {
      Value *v = real[block.arguments[i]->id];
      v->ownerBlock = &block;
      v->index = static_cast<int>(i);
      block.arguments[i] = v;
    }
    for (auto &op : block.ops) {
      for (Value *&operand : op->operands)
        operand = real[operand->id];
      for (size_t i = 0; i < op->results.size(); ++i) {
        Value *v = real[op->results[i]->id];
        v->definingOp = op.get();
        v->index = static_cast<int>(i);
        op->results[i] = v;
      }
      for (auto &region : op->regions) {
        region->parentOp = op.get();
        link(*region, real);
      }
    }
  }

  std::string file_;
  std::vector<Line> lines_;
  size_t line_ = 0;
  size_t col_ = 0;
  std::vector<std::unique_ptr<Value>> values_; // placeholders by id
  std::vector<bool> defined_;
  std::vector<core::SourceLocation> firstUse_;
  std::vector<PendingLiteral> pendingLiterals_;
  std::vector<std::pair<Value *, Value *>> pendingInductionVariables_; // (iv, lower bound)
};

} // namespace

std::unique_ptr<Function> parse(std::string_view text, const std::string &file) {
  return Parser(text, file).run();
}

} // namespace npusim::ir
