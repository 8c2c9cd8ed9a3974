#pragma once
// Internal to the front end: the lowering of a kernel's syntax tree to TileIR.
//
// Lowering evaluates the kernel the way Triton's code generator does: Python
// values known at compile time (constexprs, dtypes, tuples, modules, helper
// functions) are folded, and everything else becomes TileIR. Helper @triton.jit
// functions are inlined at each call.
#include "ir/builder.h"
#include "triton/frontend.h"

#include <map>
#include <string>
#include <vector>

namespace npusim::triton::lowering {

/// What a name or expression denotes while lowering.
struct SemaValue {
  enum class Kind {
    None,
    Int,
    Float,
    Bool,
    String,
    DType,       // tl.float32 ...
    Tensor,      // a TileIR value (scalar or tile)
    Tuple,       // elements (Python tuples and lists, shapes)
    Module,      // text: canonical module ("tl", "tl.math", "libdevice", "triton_helpers", ...)
    Builtin,     // text: qualified function name ("tl.load", "triton_helpers.maximum", "range")
    Function,    // a @triton.jit helper defined in the file
    BoundMethod, // text: method name; elements[0]: the receiver (tensor or dtype)
  };
  Kind kind = Kind::None;
  int64_t intValue = 0;
  double floatValue = 0.0;
  bool boolValue = false;
  std::string text;
  core::DType dtype = core::DType::Int32;
  ir::Value *tensor = nullptr;
  std::vector<SemaValue> elements;
  const ast::FunctionDef *function = nullptr;

  static SemaValue none() { return {}; }
  static SemaValue ofInt(int64_t v);
  static SemaValue ofFloat(double v);
  static SemaValue ofBool(bool v);
  static SemaValue ofString(std::string s);
  static SemaValue ofDType(core::DType d);
  static SemaValue ofTensor(ir::Value *v);
  static SemaValue ofTuple(std::vector<SemaValue> elements);
  static SemaValue ofModule(std::string name);
  static SemaValue ofBuiltin(std::string name);

  bool isNumber() const { return kind == Kind::Int || kind == Kind::Float || kind == Kind::Bool; }
  bool isConstexpr() const { return kind != Kind::Tensor; }
  bool isTensor() const { return kind == Kind::Tensor; }
  /// "an int", "a tensor of fp32[64]", ... for messages.
  std::string describe() const;
};

using Scope = std::map<std::string, SemaValue>;

/// Positional and keyword arguments of a call, evaluated.
struct CallArguments {
  std::vector<SemaValue> positional;
  std::vector<std::pair<std::string, SemaValue>> keywords;
  std::vector<ast::Position> positions; // of positional arguments
};

/// Whether `name` is a Python builtin a kernel may name (range, min, len, ...):
/// the dotless names of the builtin table in lower_builtins.cpp.
bool isPythonBuiltin(const std::string &name);

class Lowerer {
public:
  Lowerer(const KernelFile &file, const ConstexprBindings &constexprs);
  std::unique_ptr<ir::Function> run();

  // --- used across the lowering files ---
  [[noreturn]] void fail(ast::Position pos, const std::string &message) const;
  core::SourceLocation location(ast::Position pos) const;
  ir::Builder &builder() { return *builder_; }

  // Expressions (lower_expr.cpp).
  SemaValue eval(const ast::Expr &expr, Scope &scope);
  SemaValue call(const SemaValue &callee, CallArguments args, ast::Position pos);

  // Arithmetic and typing (lower_arith.cpp).
  ir::Value *toTensor(const SemaValue &v, ast::Position pos);
  ir::Value *constant(core::DType dtype, const SemaValue &number, ir::Shape shape, ast::Position pos);
  SemaValue binary(ast::BinaryOperator op, const SemaValue &a, const SemaValue &b, ast::Position pos);
  SemaValue compare(ast::CompareOperator op, const SemaValue &a, const SemaValue &b, ast::Position pos);
  SemaValue unary(ast::UnaryOperator op, const SemaValue &x, ast::Position pos);
  SemaValue logical(ast::BoolOperator op, const SemaValue &a, const SemaValue &b, ast::Position pos);
  ir::Value *castTo(ir::Value *v, core::DType to);
  ir::Value *broadcastTo(ir::Value *v, const ir::Shape &shape, ast::Position pos);
  ir::Shape broadcastShapes(const ir::Shape &a, const ir::Shape &b, ast::Position pos);
  /// Promotes two operands to a common type and shape as Triton's arithmetic does.
  std::pair<ir::Value *, ir::Value *> promote(const SemaValue &a, const SemaValue &b, bool divOrMod,
                                              ast::Position pos);
  ir::Value *select(const SemaValue &cond, const SemaValue &a, const SemaValue &b, ast::Position pos);
  ir::Value *toBool(ir::Value *v);

  /// Calls the builtin registered as `name` (tl.*, Python builtins, libdevice.*,
  /// tl.math.*, triton_helpers.*; builtins_internal.h, lower_builtins.cpp).
  SemaValue callBuiltin(const std::string &name, CallArguments &args, ast::Position pos);
  /// triton_helpers.exp(x, use_fast_math), which the online softmax helpers call
  /// (builtin_helpers.cpp).
  SemaValue softmaxExp(const SemaValue &x, bool useFastMath, ast::Position pos);
  /// Reduce over axis (axis < 0 for all axes) with a named kind or a combine callee.
  std::vector<ir::Value *> reduce(std::vector<ir::Value *> inputs, int axis, ir::ReduceKind kind,
                                  ir::NanMode nanMode, const SemaValue *combine, bool keepDims,
                                  ast::Position pos);
  std::vector<ir::Value *> scan(std::vector<ir::Value *> inputs, int axis, ir::ReduceKind kind,
                                const SemaValue *combine, bool reverse, ast::Position pos);
  /// Adds the combine region of a Reduce/Scan op by inlining `combine` on scalars.
  void lowerCombineRegion(ir::Op *op, const SemaValue &combine, ast::Position pos);
  /// Inlines a helper function (or calls a builtin) on already-lowered values.
  SemaValue invoke(const SemaValue &callee, std::vector<SemaValue> args, ast::Position pos);

private:
  friend class StatementLowerer;
  // Statements and functions (lower_module.cpp).
  void bindGlobals();
  SemaValue inlineFunction(const ast::FunctionDef &fn, CallArguments args, ast::Position pos);

  const KernelFile &file_;
  const ConstexprBindings &constexprs_;
  std::unique_ptr<ir::Function> function_;
  std::unique_ptr<ir::Builder> builder_;
  Scope globals_;
  int inlineDepth_ = 0;
  int64_t statementsLowered_ = 0; // bounds compile-time unrolling of hostile input
};

/// Looks an argument up by keyword, then by position; nullptr when absent.
const SemaValue *argument(const CallArguments &args, size_t index, const std::string &keyword);

} // namespace npusim::triton::lowering
