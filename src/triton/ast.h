#pragma once
// Syntax tree of the Python subset that Triton kernels (as TorchInductor writes
// them) use. The parser builds it; semantic analysis lowers it to TileIR.
//
// Nodes are plain structs with a kind tag and generic child slots: the table at
// each kind says which slots it uses. Every node carries its source position
// (line and column of its first character, both from 1).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace npusim::triton::ast {

struct Position {
  int line = 0;
  int col = 0;
};

enum class BinaryOperator { Add, Sub, Mul, Div, FloorDiv, Mod, Pow, BitAnd, BitOr, BitXor, LShift, RShift, MatMul };
enum class UnaryOperator { Neg, Pos, Invert, Not };
enum class BoolOperator { And, Or };
enum class CompareOperator { Eq, NotEq, Lt, LtE, Gt, GtE, Is, IsNot, In, NotIn };

/// Python spelling of an operator ("+", "//", "not", "is not", ...).
const char *spelling(BinaryOperator op);
const char *spelling(UnaryOperator op);
const char *spelling(BoolOperator op);
const char *spelling(CompareOperator op);

enum class ExprKind {
  Name,      // name
  Int,       // intValue
  Float,     // floatValue
  String,    // text (escapes resolved, adjacent literals concatenated)
  Bool,      // boolValue
  None,      //
  Ellipsis,  // ...
  Binary,    // binaryOp; operands[0] op operands[1]
  Unary,     // unaryOp; operands[0]
  BoolOp,    // boolOp; operands (two or more)
  Compare,   // compareOps (n); operands (n+1): a < b <= c
  IfExp,     // operands[0] if operands[1] else operands[2]   (body, test, orelse)
  Call,      // operands[0] is the callee; operands[1..] positional args; keywords
  Attribute, // operands[0].name
  Subscript, // operands[0][operands[1]]; several indices are a Tuple in operands[1]
  Slice,     // lower:upper:step; absent parts are null pointers in operands[0..2]
  Tuple,     // operands
  List,      // operands
  Dict,      // operands alternate key, value, key, value, ...
  Set,       // operands ({a, b}); the empty set is written set() and is a Call
};

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

struct Keyword {
  Position pos;
  std::string name;
  ExprPtr value;
};

struct Expr {
  ExprKind kind = ExprKind::None;
  Position pos;
  std::string name; // Name: identifier; Attribute: attribute name
  std::string text; // String
  int64_t intValue = 0;
  double floatValue = 0.0;
  bool boolValue = false;
  BinaryOperator binaryOp = BinaryOperator::Add;
  UnaryOperator unaryOp = UnaryOperator::Neg;
  BoolOperator boolOp = BoolOperator::And;
  std::vector<CompareOperator> compareOps;
  std::vector<ExprPtr> operands; // may hold null pointers only for Slice
  std::vector<Keyword> keywords; // Call only
};

enum class StmtKind {
  Expr,         // value
  Assign,       // targets (a = b = value: several), value
  AnnAssign,    // targets[0]: annotation = value (value may be null)
  AugAssign,    // targets[0] augOp= value
  For,          // targets[0] (Name or Tuple) in iter: body (orelse refused by sema)
  While,        // while test: body
  If,           // if test: body else: orelse (elif is an If alone in orelse)
  Return,       // return value (value may be null)
  Pass,         //
  Break,        //
  Continue,     //
  Import,       // import names[i] as asNames[i]  (asNames[i] empty when absent)
  ImportFrom,   // from module import names[i] as asNames[i]
  FunctionDef,  // function
  Assert,       // assert test, value
  Global,       // global names / nonlocal names
  Delete,       // del targets
};

struct Stmt;
using StmtPtr = std::unique_ptr<Stmt>;
using StmtList = std::vector<StmtPtr>;

struct Parameter {
  Position pos;
  std::string name;
  ExprPtr annotation;   // may be null
  ExprPtr defaultValue; // may be null
};

struct FunctionDef {
  std::string name;
  std::vector<ExprPtr> decorators; // each the expression after '@'
  std::vector<Parameter> params;
  ExprPtr returns; // "-> annotation", may be null
  StmtList body;
};

struct Stmt {
  StmtKind kind = StmtKind::Pass;
  Position pos;
  std::vector<ExprPtr> targets;
  ExprPtr value; // Expr, Assign, AnnAssign, AugAssign, Return, Assert (message)
  ExprPtr annotation;
  ExprPtr test;  // If, While, Assert
  ExprPtr iter;  // For
  BinaryOperator augOp = BinaryOperator::Add;
  StmtList body;
  StmtList orelse;
  std::string module; // ImportFrom
  std::vector<std::string> names;
  std::vector<std::string> asNames;
  std::unique_ptr<FunctionDef> function;
};

/// One parsed file.
struct Module {
  std::string file; // path as given, used in every diagnostic
  StmtList body;
};

} // namespace npusim::triton::ast
