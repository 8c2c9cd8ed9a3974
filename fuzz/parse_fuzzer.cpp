// libFuzzer entry for the Triton front end. Any bytes must either parse or
// raise core::CompileError at a real position; anything else escaping (another
// exception, a crash, a hang, a sanitizer report, a leak) is a bug.
#include "triton/parser.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace {

/// Lines in the source the way the lexer counts them ("\r\n" and "\r" end a line too).
int countLines(std::string_view source) {
  int lines = 1;
  for (size_t i = 0; i < source.size(); ++i)
    if (source[i] == '\n' || (source[i] == '\r' && (i + 1 == source.size() || source[i + 1] != '\n')))
      ++lines;
  return lines;
}

bool validPosition(npusim::triton::ast::Position pos, int lines) {
  return pos.line >= 1 && pos.line <= lines && pos.col >= 1;
}

bool validExpr(const npusim::triton::ast::Expr &expr, int lines) {
  if (!validPosition(expr.pos, lines))
    return false;
  for (const auto &operand : expr.operands)
    if (operand && !validExpr(*operand, lines))
      return false;
  return std::all_of(expr.keywords.begin(), expr.keywords.end(), [&](const auto &keyword) {
    return validPosition(keyword.pos, lines) && validExpr(*keyword.value, lines);
  });
}

bool validStmts(const npusim::triton::ast::StmtList &stmts, int lines) {
  for (const auto &stmt : stmts) {
    if (!validPosition(stmt->pos, lines))
      return false;
    for (const auto *expr : {stmt->value.get(), stmt->annotation.get(), stmt->test.get(), stmt->iter.get()})
      if (expr && !validExpr(*expr, lines))
        return false;
    for (const auto &target : stmt->targets)
      if (!validExpr(*target, lines))
        return false;
    if (!validStmts(stmt->body, lines) || !validStmts(stmt->orelse, lines))
      return false;
    if (stmt->function && !validStmts(stmt->function->body, lines))
      return false;
  }
  return true;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const std::string_view source(reinterpret_cast<const char *>(data), size);
  const int lines = countLines(source);
  try {
    const npusim::triton::ast::Module module = npusim::triton::parseModule(source, "fuzz.py");
    if (!validStmts(module.body, lines))
      __builtin_trap();
  } catch (const npusim::core::CompileError &error) {
    if (error.where().file != "fuzz.py" || error.where().line < 1 || error.where().line > lines ||
        error.where().col < 1)
      __builtin_trap();
  }
  return 0;
}
