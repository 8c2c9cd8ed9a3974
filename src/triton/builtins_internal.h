#pragma once
// The builtins of kernels (internal to the front end, docs/frontend.md): the
// `tl` functions, the Python builtins, the math libraries (`libdevice.*`,
// `tl.math.*`) and Inductor's `triton_helpers.*`, each a handler registered
// under the full name a kernel calls it by, which is the only place a
// builtin's name is compared. The `tl` core and the Python builtins are rows of
// the table in lower_builtins.cpp; a family in a file of its own registers its
// rows at namespace scope there (builtin_math.cpp, builtin_helpers.cpp,
// builtin_reductions.cpp, lower_random.cpp), a single builtin in one line
// (builtin_sigmoid.cpp shows one):
//
//   const bool kRegistered = registerBuiltin("tl.my_function", tlMyFunction);
#include "core/error.h"
#include "triton/lowering.h"

#include <functional>
#include <initializer_list>
#include <string>
#include <string_view>

namespace npusim::triton::lowering {

inline constexpr int64_t kMaxTileElements = 1 << 20; // Triton's TRITON_MAX_TENSOR_NUMEL

inline bool isPowerOfTwo(int64_t v) {
  return v > 0 && (v & (v - 1)) == 0;
}

/// Argument access with messages that name the function and the parameter.
class Args {
public:
  Args(Lowerer &l, const std::string &fn, CallArguments &a, ast::Position pos)
      : l_(l), fn_(fn), a_(a), pos_(pos) {}

  const SemaValue *get(size_t index, const std::string &keyword) const {
    return argument(a_, index, keyword);
  }
  bool has(size_t index, const std::string &keyword) const {
    const SemaValue *v = get(index, keyword);
    return v && v->kind != SemaValue::Kind::None;
  }
  const SemaValue &required(size_t index, const std::string &keyword) const {
    const SemaValue *v = get(index, keyword);
    if (!v)
      l_.fail(pos_, fn_ + "() is missing argument '" + keyword + "'");
    return *v;
  }
  ir::Value *tensor(size_t index, const std::string &keyword) const {
    const SemaValue &v = required(index, keyword);
    if (v.isTensor())
      return v.tensor;
    if (v.isNumber())
      return l_.toTensor(v, pos_);
    l_.fail(pos_, fn_ + "() argument '" + keyword + "' must be a tensor, got " + v.describe());
  }
  int64_t integer(size_t index, const std::string &keyword) const {
    const SemaValue &v = required(index, keyword);
    if (v.kind == SemaValue::Kind::Int)
      return v.intValue;
    if (v.kind == SemaValue::Kind::Bool)
      return v.boolValue;
    l_.fail(pos_, fn_ + "() argument '" + keyword + "' must be a compile-time int, got " + v.describe());
  }
  bool flag(size_t index, const std::string &keyword, bool fallback) const {
    const SemaValue *v = get(index, keyword);
    if (!v || v->kind == SemaValue::Kind::None)
      return fallback;
    if (v->kind == SemaValue::Kind::Bool)
      return v->boolValue;
    if (v->kind == SemaValue::Kind::Int)
      return v->intValue != 0;
    l_.fail(pos_, fn_ + "() argument '" + keyword + "' must be a compile-time bool, got " + v->describe());
  }
  core::DType dtype(size_t index, const std::string &keyword) const {
    const SemaValue &v = required(index, keyword);
    if (v.kind != SemaValue::Kind::DType)
      l_.fail(pos_, fn_ + "() argument '" + keyword + "' must be a dtype, got " + v.describe());
    return v.dtype;
  }
  /// A shape: a tuple/list of ints, or the remaining positional ints (x.reshape(2, 4)).
  ir::Shape shape(size_t index, const std::string &keyword) const {
    const SemaValue &v = required(index, keyword);
    std::vector<SemaValue> dims;
    if (v.kind == SemaValue::Kind::Tuple)
      dims = v.elements;
    else
      for (size_t i = index; i < a_.positional.size(); ++i)
        dims.push_back(a_.positional[i]);
    ir::Shape shape;
    for (const SemaValue &d : dims) {
      if (d.kind != SemaValue::Kind::Int)
        l_.fail(pos_, fn_ + "() shape entries must be compile-time ints, got " + d.describe());
      shape.push_back(d.intValue);
    }
    return shape;
  }
  void checkShape(const ir::Shape &shape) const {
    int64_t n = 1;
    for (size_t i = 0; i < shape.size(); ++i) {
      if (!isPowerOfTwo(shape[i]))
        l_.fail(pos_, fn_ + "(): shape entry " + std::to_string(i) + " is " + std::to_string(shape[i]) +
                          ", not a power of 2");
      n *= shape[i];
      if (n > kMaxTileElements)
        l_.fail(pos_, fn_ + "(): a tile of " + ir::shapeString(shape) + " exceeds " +
                          std::to_string(kMaxTileElements) + " elements");
    }
  }
  void noExtra(size_t maxPositional, std::initializer_list<const char *> keywords) const {
    if (a_.positional.size() > maxPositional)
      l_.fail(pos_, fn_ + "() takes at most " + std::to_string(maxPositional) + " positional arguments");
    for (const auto &[name, value] : a_.keywords) {
      bool ok = false;
      for (const char *k : keywords)
        ok |= name == k;
      if (!ok)
        l_.fail(pos_, fn_ + "() got an unexpected keyword argument '" + name + "'");
    }
  }
  const std::string &name() const { return fn_; }
  ast::Position pos() const { return pos_; }

private:
  Lowerer &l_;
  const std::string &fn_;
  CallArguments &a_;
  ast::Position pos_;
};

/// What a builtin's handler gets: the lowerer, the qualified name it was
/// called by, the arguments (raw and with checked access) and the builder.
struct BuiltinCall {
  Lowerer &l;
  const std::string &name;
  CallArguments &arguments;
  const Args &args;
  ast::Position pos;
  ir::Builder &b;
};

/// The lowering of one builtin. A family of builtins shares a function and
/// registers one handler per name, each binding what tells the names apart
/// (a reduction kind, a math function), so no handler asks for its name.
using BuiltinHandler = std::function<SemaValue(BuiltinCall &)>;

/// Registers `handler` as the builtin `name`; a name registered twice (or a
/// row of the table) throws core::InputError. Returns true.
bool registerBuiltin(std::string_view name, BuiltinHandler handler);

/// The handler of one member of a family: `lower(call, variant)`, where the
/// variant (a reduction kind, a math function, a flag) tells the members apart.
template <class Variant> BuiltinHandler member(SemaValue (*lower)(BuiltinCall &, Variant), Variant variant) {
  return [lower, variant](BuiltinCall &c) { return lower(c, variant); };
}

/// One registry row: the full name a kernel calls and its lowering.
struct BuiltinEntry {
  std::string_view name;
  BuiltinHandler handler;
};

/// Registers every row (registerBuiltin). Returns true.
bool registerBuiltins(std::initializer_list<BuiltinEntry> entries);

} // namespace npusim::triton::lowering
