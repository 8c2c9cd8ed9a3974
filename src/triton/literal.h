#pragma once
// Python literals of decorator arguments (dicts, lists, tuples, strings,
// numbers, and opaque calls such as DeviceProperties(...) or set()), evaluated
// from the syntax tree without running any Python.
#include "core/error.h"
#include "triton/ast.h"

#include <string>
#include <vector>

namespace npusim::triton {

/// A position in `file` as an error's location.
inline core::SourceLocation sourceAt(const std::string &file, ast::Position pos) {
  return core::SourceLocation{file, pos.line, pos.col};
}

struct PyLiteral {
  enum class Kind { None, Bool, Int, Float, String, List, Tuple, Set, Dict, Call, Name };
  Kind kind = Kind::None;
  ast::Position pos;
  bool boolValue = false;
  int64_t intValue = 0;
  double floatValue = 0.0;
  std::string text;             // String value; Call and Name: the dotted name
  std::vector<PyLiteral> items; // List/Tuple/Set elements; Dict: key, value, key, value...;
                                // Call: positional arguments then keyword values
  std::vector<std::string> keywords; // Call: names of the trailing keyword arguments

  /// For a Dict: the value of a string key, or nullptr.
  const PyLiteral *get(const std::string &key) const;
  bool isNumber() const { return kind == Kind::Int || kind == Kind::Float || kind == Kind::Bool; }
  std::string describe() const; // "a dict", "a string", ... for messages
};

/// Evaluates a literal expression; anything else (a variable of the kernel, an
/// operator other than unary minus) is a CompileError at its position.
PyLiteral evaluateLiteral(const ast::Expr &expr, const std::string &file);

/// "a.b.c" for a chain of Name/Attribute nodes, or "" if expr is not one.
std::string dottedName(const ast::Expr &expr);

} // namespace npusim::triton
