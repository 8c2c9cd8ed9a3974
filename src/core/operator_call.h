#pragma once
// Library calls (docs/library-calls.md): the operators a bundle calls instead
// of launching a kernel. One positional argument value, the schema of every
// operator (argument names, defaults, arity, result names) and typed access to
// a call's arguments checked against it. The host implementations
// (reference::runHostCall) and the NPU library (library::planCall) both read
// their arguments through CallArgs, so that both accept and refuse the same
// calls with the same messages.
//
// CallValue is templated on how a tensor argument is named: the bundle names a
// storage by number (runtime::TensorRef), the NPU library a buffer by number
// (library::TensorRef), the host implementations point at the buffer
// (reference::TensorView). Any of them has `shape` and `stride`.
#include "core/error.h"
#include "core/shape.h"

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace npusim::core {

enum class CallKind { None, Int, Float, Bool, String, Tensor, List };

/// "None", "an integer", "a tensor", ...
const char *kindName(CallKind kind);

/// The non-tensor part of an argument. Strings "nan", "inf" and "-inf" are floats.
struct CallScalar {
  CallKind kind = CallKind::None;
  int64_t intValue = 0;
  double floatValue = 0.0;
  bool boolValue = false;
  std::string stringValue;
};

/// One positional argument of a call, as the bundle spells it.
template <typename Tensor> struct CallValue : CallScalar {
  using Kind = CallKind;
  Tensor tensor;
  std::vector<CallValue> list;
};

/// The same value with every tensor (lists included) replaced by f(tensor).
template <typename To, typename From, typename F> CallValue<To> mapTensors(const CallValue<From> &v, F &&f) {
  CallValue<To> r;
  static_cast<CallScalar &>(r) = v;
  if (v.kind == CallKind::Tensor)
    r.tensor = f(v.tensor);
  r.list.reserve(v.list.size());
  for (const CallValue<From> &e : v.list)
    r.list.push_back(mapTensors<To>(e, f));
  return r;
}

/// One argument of an operator's schema. `fallback` is the value a missing
/// trailing argument takes, spelt as in PyTorch's schemas: "1", "-1", "1.0",
/// "False", "None", "[1]", "[]"; empty when the argument is required.
struct ArgumentSchema {
  std::string_view name;
  std::string_view fallback;
};

struct OperatorSchema {
  std::vector<std::string_view> names;   // the operator and its overloads that share the schema
  std::vector<ArgumentSchema> arguments; // positional order; their count is the arity
  std::vector<std::string_view> results;
};

/// `op` without a trailing ".default": "aten.X.default" means "aten.X".
std::string_view withoutDefault(std::string_view op);
/// The schema of `op` (withoutDefault). Null when no schema names it.
const OperatorSchema *findSchema(std::string_view op);
/// The scaled-dot-product attention variants (efficient, flash, cuDNN, CPU
/// flash): one operator in four schemas.
const std::vector<std::string_view> &attentionOperators();
/// Their backward operators, in the same order.
const std::vector<std::string_view> &attentionBackwardOperators();

/// Operator name -> implementation (a host call, an NPU planner), looked up
/// by withoutDefault(op).
template <typename Impl> class OperatorTable {
public:
  struct Entry {
    std::string_view name;
    Impl impl;
  };
  OperatorTable(std::initializer_list<Entry> entries) : entries_(entries) {}
  /// `impl` under each of `names`.
  void add(const std::vector<std::string_view> &names, const Impl &impl) {
    for (std::string_view name : names)
      entries_.push_back({name, impl});
  }
  const Entry *find(std::string_view op) const {
    const std::string_view name = withoutDefault(op);
    for (const Entry &e : entries_)
      if (e.name == name)
        return &e;
    return nullptr;
  }
  std::vector<std::string> names() const {
    std::vector<std::string> r;
    for (const Entry &e : entries_)
      r.emplace_back(e.name);
    return r;
  }

private:
  std::vector<Entry> entries_;
};
/// Every operator name that has a schema.
std::vector<std::string_view> schemaOperators();

/// The untyped half of CallArgs (core/operator_call.cpp).
class CallArgsBase {
public:
  std::string_view op() const { return op_; }
  const OperatorSchema &schema() const { return *schema_; }
  /// Arguments given (missing trailing ones take their fallbacks).
  size_t size() const { return scalars_.size(); }
  bool isTensor(size_t i) const { return i < scalars_.size() && scalars_[i]->kind == CallKind::Tensor; }
  /// The position of the argument the schema names so; nothing when it has none.
  std::optional<size_t> position(std::string_view name) const;
  /// Whether argument i is given and not None.
  bool isGiven(size_t i) const { return i < scalars_.size() && scalars_[i]->kind != CallKind::None; }

  int64_t integer(size_t i, std::string_view name) const;
  std::optional<int64_t> optionalInteger(size_t i, std::string_view name) const;
  double number(size_t i, std::string_view name) const;
  std::optional<double> optionalNumber(size_t i, std::string_view name) const;
  bool boolean(size_t i, std::string_view name) const;

  size_t numOuts() const { return numOuts_; }

  /// Throws core::RuntimeError "OP: argument I (NAME): message".
  [[noreturn]] void fail(size_t i, std::string_view name, const std::string &message) const;
  /// Throws core::RuntimeError "OP: message".
  [[noreturn]] void fail(const std::string &message) const;

protected:
  CallArgsBase(std::string_view op, const OperatorSchema *schema, size_t numOuts);
  void bind(std::vector<const CallScalar *> scalars);
  /// Argument i, checked to be named `name` by the schema; null when not given.
  const CallScalar *at(size_t i, std::string_view name) const;
  /// The schema's fallback of argument i parsed as a value (throws when it has none).
  CallScalar fallback(size_t i, std::string_view name) const;
  /// The schema's list fallback of argument i ("[1]", "[]").
  std::vector<int64_t> fallbackIntegers(size_t i, std::string_view name) const;
  void checkTensor(size_t i, std::string_view name, std::span<const int64_t> shape,
                   std::span<const int64_t> stride) const;
  void checkOut(size_t i, std::span<const int64_t> shape, std::span<const int64_t> stride) const;
  std::string resultName(size_t i) const;

private:
  std::string_view op_;
  const OperatorSchema *schema_;
  std::vector<const CallScalar *> scalars_;
  size_t numOuts_;
};

/// The positional arguments and results of one call, with typed accessors.
/// Each accessor names the argument as the schema does (a mismatch is an
/// internal error) and a missing argument takes the schema's fallback; errors
/// name the operator, the argument's position and its name. Construction
/// throws for an operator without a schema and for more arguments than the
/// schema has. Tensors are checked to have as many strides as sizes.
template <typename Tensor> class CallArgs : public CallArgsBase {
public:
  using Value = CallValue<Tensor>;

  CallArgs(std::string_view op, std::span<const Value> args, std::span<const Tensor *const> outs)
      : CallArgs(op, findSchema(op), args, outs) {}
  /// With a schema of the caller's choice (an overload told apart by its arguments).
  CallArgs(std::string_view op, const OperatorSchema *schema, std::span<const Value> args,
           std::span<const Tensor *const> outs)
      : CallArgsBase(op, schema, outs.size()), args_(args), outs_(outs) {
    std::vector<const CallScalar *> scalars;
    scalars.reserve(args.size());
    for (const Value &v : args)
      scalars.push_back(&v);
    bind(std::move(scalars));
  }

  const Tensor &tensor(size_t i, std::string_view name) const {
    const CallScalar *v = at(i, name);
    if (!v)
      fail(i, name, "missing");
    if (v->kind != CallKind::Tensor)
      fail(i, name, std::string("expected a tensor, got ") + kindName(v->kind));
    const Tensor &t = args_[i].tensor;
    checkTensor(i, name, t.shape, t.stride);
    return t;
  }
  /// Null when missing or None.
  const Tensor *optionalTensor(size_t i, std::string_view name) const {
    const CallScalar *v = at(i, name);
    if (!v || v->kind == CallKind::None)
      return nullptr;
    return &tensor(i, name);
  }
  /// A list of integers (or one integer, as PyTorch's int[] accepts).
  std::vector<int64_t> integers(size_t i, std::string_view name) const {
    const CallScalar *v = at(i, name);
    if (!v)
      return schema().arguments[i].fallback.starts_with('[') ? fallbackIntegers(i, name)
                                                             : std::vector<int64_t>{integer(i, name)};
    if (v->kind == CallKind::Int)
      return {v->intValue};
    if (v->kind != CallKind::List)
      fail(i, name, std::string("expected a list of integers, got ") + kindName(v->kind));
    std::vector<int64_t> r;
    for (const Value &e : args_[i].list) {
      if (e.kind != CallKind::Int)
        fail(i, name, std::string("expected a list of integers, but an element is ") + kindName(e.kind));
      r.push_back(e.intValue);
    }
    return r;
  }
  const std::vector<Value> &list(size_t i, std::string_view name) const {
    const CallScalar *v = at(i, name);
    if (!v)
      fail(i, name, "missing");
    if (v->kind != CallKind::List)
      fail(i, name, std::string("expected a list, got ") + kindName(v->kind));
    return args_[i].list;
  }

  /// Result i, which must be given.
  const Tensor &out(size_t i) const {
    const Tensor *t = optionalOut(i);
    if (!t)
      fail("result " + std::to_string(i) + " (" + resultName(i) + ") is not given in out");
    return *t;
  }
  /// Result i when given, else null.
  const Tensor *optionalOut(size_t i) const {
    if (i >= outs_.size() || !outs_[i])
      return nullptr;
    checkOut(i, outs_[i]->shape, outs_[i]->stride);
    return outs_[i];
  }
  /// Every positional argument and every result as given (for numbering
  /// buffers after all that the call names).
  std::span<const Value> values() const { return args_; }
  std::span<const Tensor *const> outs() const { return outs_; }

private:
  std::span<const Value> args_;
  std::span<const Tensor *const> outs_;
};

/// The operands of a grouped matrix product, read alike by both
/// implementations: aten._grouped_mm (self, mat2, offs, bias) and
/// transformers.grouped_mm_fallback (input, weight, offs) are one operator in
/// two schemas. A bias is refused, as PyTorch refuses it.
template <typename Tensor> struct GroupedMmOperands {
  bool fallback;             // transformers.grouped_mm_fallback
  const char *aName, *bName; // the schema's names of a and b
  const Tensor &a, &b;
  const Tensor *offs; // group offsets; null when not given
  const Tensor &out;
};

template <typename Tensor> GroupedMmOperands<Tensor> groupedMmOperands(const CallArgs<Tensor> &call) {
  const bool fallback = call.op().starts_with("transformers.");
  const char *aName = fallback ? "input" : "self", *bName = fallback ? "weight" : "mat2";
  const Tensor &a = call.tensor(0, aName), &b = call.tensor(1, bName);
  const Tensor *offs = call.optionalTensor(2, "offs");
  if (!fallback && call.optionalTensor(3, "bias"))
    call.fail(3, "bias", "a bias is not supported (PyTorch: \"Bias not supported yet\")");
  return {fallback, aName, bName, a, b, offs, call.out(0)};
}

} // namespace npusim::core
