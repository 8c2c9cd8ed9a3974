// The TileIR verifier: structure (value table, ownership, SSA visibility in
// structured regions, terminators) and the operand/result conventions of
// opcode.h, as docs/tileir.md states them. Every failure is a
// core::CompileError at the offending op's location whose message starts with
// "TileIR verifier: <op name>: ".
#include "ir/ir.h"

#include <string>
#include <vector>

namespace npusim::ir {
namespace {

std::string valueRef(const Value *v) {
  return "%" + std::to_string(v->id);
}

bool isPowerOfTwo(int64_t n) {
  return n > 0 && (n & (n - 1)) == 0;
}
/// An integer or float that is not i1 (the operand of arithmetic).
bool isNumber(const Type &t) {
  return !t.isPointer && t.dtype != DType::Bool;
}
/// An integer that is not i1.
bool isInteger(const Type &t) {
  return t.isIntegerOrBool() && t.dtype != DType::Bool;
}
bool isScalarInteger(const Type &t) {
  return isInteger(t) && t.isScalar();
}

Shape withoutAxis(Shape shape, int axis) {
  shape.erase(shape.begin() + axis);
  return shape;
}

template <typename E> bool inRange(E e, E last) {
  return static_cast<int>(e) <= static_cast<int>(last);
}

std::string plural(size_t n, const char *word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

class Verifier {
public:
  explicit Verifier(const Function &function)
      : function_(function), state_(function.values().size(), State::Unplaced) {}

  void run() {
    checkValueTable();
    checkParameters();
    if (function_.body().parentOp != nullptr)
      failFunction("the function body has a parent op");
    place(function_.body(), nullptr);
    walk(function_.body(), nullptr);
  }

private:
  /// Where a value stands during the walk: not defined anywhere, defined but
  /// not reached yet, visible here, or defined in a block the walk has left.
  enum class State : uint8_t { Unplaced, Pending, Visible, Closed };

  [[noreturn]] void fail(const Op &op, const std::string &what) const {
    const std::string opName = inRange(op.code, OpCode::Barrier) ? std::string(name(op.code)) : "op";
    throw core::CompileError(op.loc, "TileIR verifier: " + opName + ": " + what);
  }
  [[noreturn]] void failAt(const Op *op, const std::string &what) const {
    if (op)
      fail(*op, what);
    failFunction(what);
  }
  [[noreturn]] void failFunction(const std::string &what) const {
    throw core::CompileError(core::SourceLocation{},
                             "TileIR verifier: function @" + function_.name() + ": " + what);
  }

  bool owned(const Value *v) const {
    return v != nullptr && v->id >= 0 && v->id < function_.numValues() &&
           function_.values()[static_cast<size_t>(v->id)].get() == v;
  }

  // ---- structure ----------------------------------------------------------

  void checkValueTable() const {
    const auto &values = function_.values();
    for (size_t i = 0; i < values.size(); ++i) {
      if (!values[i])
        failFunction("value table entry " + std::to_string(i) + " is null");
      if (values[i]->id != static_cast<int>(i))
        failFunction("value at index " + std::to_string(i) + " has id " + std::to_string(values[i]->id) +
                     " (ids must equal their index)");
    }
  }

  void checkParameters() const {
    const auto &params = function_.parameters();
    const auto &args = function_.body().arguments;
    if (params.size() != args.size())
      failFunction(plural(params.size(), "parameter") + " but " + plural(args.size(), "body argument"));
    for (size_t i = 0; i < params.size(); ++i) {
      const Parameter &p = params[i];
      if (p.value != args[i])
        failFunction("parameter " + p.name + " is not body argument " + std::to_string(i));
      if (p.value == nullptr || p.type != p.value->type)
        failFunction("parameter " + p.name + " type differs from its value's type");
      if (!p.type.isScalar())
        failFunction("parameter " + p.name + " has tile type " + p.type.str() +
                     " (parameters are scalars or scalar pointers)");
    }
  }

  /// Marks a value as defined once, at one place; checks its shape.
  void define(const Value *v, const Op *at, const char *kind, size_t i) {
    const auto what = [&] { return std::string(kind) + " " + std::to_string(i); };
    if (!owned(v))
      failAt(at, what() + " is not a value of this function");
    auto &state = state_[static_cast<size_t>(v->id)];
    if (state != State::Unplaced)
      failAt(at, what() + " (" + valueRef(v) + ") is defined more than once");
    state = State::Pending;
    for (int64_t d : v->type.shape)
      if (d <= 0)
        failAt(at, what() + " (" + valueRef(v) + ") has type " + v->type.str() + ": dimensions must be positive");
    if (v->laneAxis != -1 && (v->laneAxis < 0 || v->laneAxis >= v->type.rank()))
      failAt(at, what() + " (" + valueRef(v) + ") has type " + v->type.str() + " and lane axis " +
                     std::to_string(v->laneAxis) + ", which is not one of its axes");
  }

  /// Pre-pass: every block argument and op result is defined exactly once and
  /// points back at its owner.
  void place(const Block &block, const Op *parent) {
    for (size_t i = 0; i < block.arguments.size(); ++i) {
      const Value *arg = block.arguments[i];
      define(arg, parent, "block argument", i);
      if (arg->ownerBlock != &block || arg->definingOp != nullptr || arg->index != static_cast<int>(i))
        failAt(parent, "block argument " + std::to_string(i) + " (" + valueRef(arg) +
                           ") does not point back at its block");
    }
    for (const auto &opPtr : block.ops) {
      if (!opPtr)
        failAt(parent, "a block holds a null op");
      const Op &op = *opPtr;
      for (size_t i = 0; i < op.results.size(); ++i) {
        const Value *r = op.results[i];
        define(r, &op, "result", i);
        if (r->definingOp != &op || r->index != static_cast<int>(i))
          fail(op, "result " + std::to_string(i) + " (" + valueRef(r) + ") does not point back at its op");
      }
      for (const auto &region : op.regions) {
        if (!region)
          fail(op, "null region");
        if (region->parentOp != &op)
          fail(op, "a region's parentOp is not this op");
        place(*region, &op);
      }
    }
  }

  /// Checks visibility of operands and the op rules, in program order.
  void walk(const Block &block, const Op *parent) {
    for (const Value *arg : block.arguments)
      state_[static_cast<size_t>(arg->id)] = State::Visible;
    for (size_t i = 0; i < block.ops.size(); ++i) {
      const Op &op = *block.ops[i];
      if (op.code == OpCode::Yield && parent == nullptr)
        fail(op, "yield in the function body (only regions end with yield)");
      if (op.code == OpCode::Yield && i + 1 != block.ops.size())
        fail(op, "yield must be the last op of its region");
      checkOperandsVisible(op);
      verifyOp(op);
      for (const auto &region : op.regions)
        walk(*region, &op);
      for (const Value *r : op.results)
        state_[static_cast<size_t>(r->id)] = State::Visible;
    }
    if (parent != nullptr && (block.ops.empty() || block.ops.back()->code != OpCode::Yield))
      fail(*parent, "region does not end with yield");
    for (const Value *arg : block.arguments)
      state_[static_cast<size_t>(arg->id)] = State::Closed;
    for (const auto &op : block.ops)
      for (const Value *r : op->results)
        state_[static_cast<size_t>(r->id)] = State::Closed;
  }

  void checkOperandsVisible(const Op &op) const {
    for (size_t i = 0; i < op.operands.size(); ++i) {
      const Value *v = op.operands[i];
      const auto what = [i] { return "operand " + std::to_string(i); };
      if (v == nullptr)
        fail(op, what() + " is null");
      if (!owned(v))
        fail(op, what() + " is not a value of this function");
      switch (state_[static_cast<size_t>(v->id)]) {
      case State::Visible: break;
      case State::Pending: fail(op, what() + " (" + valueRef(v) + ") is used before its definition");
      case State::Closed:
        fail(op, what() + " (" + valueRef(v) +
                     ") is not visible here: it is defined in a region that does not enclose "
                     "this use");
      case State::Unplaced: fail(op, what() + " (" + valueRef(v) + ") is not defined by any op or block argument");
      }
    }
  }

  // ---- counts -------------------------------------------------------------

  void operands(const Op &op, size_t lo, size_t hi) const {
    const size_t n = op.operands.size();
    if (n >= lo && n <= hi)
      return;
    if (lo == hi)
      fail(op, "expects " + plural(lo, "operand") + ", got " + std::to_string(n));
    fail(op, "expects " + std::to_string(lo) + " to " + plural(hi, "operand") + ", got " + std::to_string(n));
  }
  void operands(const Op &op, size_t n) const { operands(op, n, n); }
  void atLeastOperands(const Op &op, size_t lo) const {
    if (op.operands.size() < lo)
      fail(op, "expects at least " + plural(lo, "operand") + ", got " + std::to_string(op.operands.size()));
  }
  void results(const Op &op, size_t n) const {
    if (op.results.size() != n)
      fail(op, "expects " + plural(n, "result") + ", got " + std::to_string(op.results.size()));
  }
  void regions(const Op &op, size_t n) const {
    if (op.regions.size() != n)
      fail(op, "expects " + plural(n, "region") + ", got " + std::to_string(op.regions.size()));
  }
  /// The common shape of one-result ops without regions.
  void simple(const Op &op, size_t lo, size_t hi) const {
    operands(op, lo, hi);
    results(op, 1);
    regions(op, 0);
  }

  static const Type &operandType(const Op &op, size_t i) { return op.operands[i]->type; }
  static const Type &resultType(const Op &op, size_t i = 0) { return op.results[i]->type; }

  void resultIs(const Op &op, const Type &expected) const {
    if (resultType(op) != expected)
      fail(op, "result type is " + resultType(op).str() + ", expected " + expected.str());
  }

  // ---- per-op rules -------------------------------------------------------

  void verifyOp(const Op &op) {
    if (!inRange(op.code, OpCode::Barrier))
      fail(op, "unknown opcode " + std::to_string(static_cast<int>(op.code)));
    if (opTraits(op.code).arithmetic)
      return verifyElementwise(op);
    switch (op.code) {
    case OpCode::Constant: return verifyConstant(op);
    case OpCode::ProgramId:
    case OpCode::NumPrograms:
      simple(op, 0, 0);
      if (op.axis < 0 || op.axis > 2)
        fail(op, "axis " + std::to_string(op.axis) + " is not 0, 1 or 2");
      return resultIs(op, Type::scalar(DType::Int32));
    case OpCode::Arange: return verifyArange(op);
    case OpCode::Splat:
    case OpCode::Broadcast:
    case OpCode::ExpandDims:
    case OpCode::Reshape:
    case OpCode::Slice:
    case OpCode::Permute: return verifyShapeOp(op);
    case OpCode::Cast:
    case OpCode::Bitcast: return verifyConversion(op);
    case OpCode::Math: return verifyMath(op);
    case OpCode::AddPtr:
      simple(op, 2, 2);
      if (!operandType(op, 0).isPointer)
        fail(op, "operand 0 is " + operandType(op, 0).str() + ", expected a pointer");
      if (!isInteger(operandType(op, 1)) || operandType(op, 1).shape != operandType(op, 0).shape)
        fail(op, "offset " + operandType(op, 1).str() + " is not an integer of the pointer's shape " +
                     shapeString(operandType(op, 0).shape));
      return resultIs(op, operandType(op, 0));
    case OpCode::Cmp:
      simple(op, 2, 2);
      if (!inRange(op.predicate, CmpPredicate::Ge))
        fail(op, "invalid predicate");
      if (operandType(op, 0) != operandType(op, 1))
        fail(op, "operand types differ: " + operandType(op, 0).str() + " vs " + operandType(op, 1).str());
      if (operandType(op, 0).isPointer)
        fail(op, "compares pointers " + operandType(op, 0).str());
      return resultIs(op, Type::tile(DType::Bool, operandType(op, 0).shape));
    case OpCode::Select:
      simple(op, 3, 3);
      if (!operandType(op, 0).isBool() || operandType(op, 0).shape != operandType(op, 1).shape)
        fail(op, "condition " + operandType(op, 0).str() + " is not i1 of the shape of " +
                     operandType(op, 1).str());
      if (operandType(op, 1) != operandType(op, 2))
        fail(op, "operand types differ: " + operandType(op, 1).str() + " vs " + operandType(op, 2).str());
      return resultIs(op, operandType(op, 1));
    case OpCode::Load:
    case OpCode::Store:
    case OpCode::AtomicRMW: return verifyMemory(op);
    case OpCode::Reduce:
    case OpCode::Scan: return verifyReduceOrScan(op);
    case OpCode::Sort: return verifySort(op);
    case OpCode::Dot: return verifyDot(op);
    case OpCode::For: return verifyFor(op);
    case OpCode::If: return verifyIf(op);
    case OpCode::Yield: results(op, 0); return regions(op, 0);
    case OpCode::Assert:
      operands(op, 1);
      results(op, 0);
      regions(op, 0);
      if (!operandType(op, 0).isBool())
        fail(op, "condition " + operandType(op, 0).str() + " is not i1");
      return;
    case OpCode::Barrier:
      operands(op, 0);
      results(op, 0);
      return regions(op, 0);
    default: fail(op, "internal: no rule for this op"); // the arithmetic returned above
    }
  }

  void verifyConstant(const Op &op) const {
    simple(op, 0, 0);
    const Type &t = resultType(op);
    if (t.isPointer)
      fail(op, "pointer constant " + t.str());
    if (t.isFloat())
      return;
    const int64_t v = op.constant.intValue;
    const int bits = core::bitWidth(t.dtype);
    bool ok = true;
    if (t.dtype == DType::Bool)
      ok = v == 0 || v == 1;
    else if (t.dtype == DType::UInt64 || t.dtype == DType::Int64)
      ok = true;
    else if (core::isSigned(t.dtype))
      ok = v >= -(int64_t{1} << (bits - 1)) && v < (int64_t{1} << (bits - 1));
    else
      ok = v >= 0 && v < (int64_t{1} << bits);
    if (!ok)
      fail(op, "value " + std::to_string(v) + " does not fit " + t.str());
  }

  void verifyArange(const Op &op) const {
    simple(op, 0, 0);
    if (op.start < 0 || op.end <= op.start || op.end > (int64_t{1} << 31))
      fail(op, "bounds " + std::to_string(op.start) + ", " + std::to_string(op.end) +
                   " must satisfy 0 <= start < end <= 2^31");
    const int64_t n = op.end - op.start;
    if (!isPowerOfTwo(n))
      fail(op, "length " + std::to_string(n) + " is not a power of two");
    resultIs(op, Type::tile(DType::Int32, {n}));
  }

  void verifyShapeOp(const Op &op) const {
    simple(op, 1, 1);
    const Type &in = operandType(op, 0);
    const Type &out = resultType(op);
    if (in.element() != out.element())
      fail(op, "element type changes from " + in.str() + " to " + out.str());
    switch (op.code) {
    case OpCode::Splat:
      if (!in.isScalar() || !out.isTile())
        fail(op, "splats " + in.str() + " to " + out.str() + ", expected a scalar to a tile");
      return;
    case OpCode::Broadcast: {
      if (!in.isTile() || in.rank() != out.rank())
        fail(op,
             "broadcasts " + in.str() + " to " + out.str() + ", expected a tile to a tile of the same rank");
      for (int d = 0; d < in.rank(); ++d)
        if (in.shape[d] != 1 && in.shape[d] != out.shape[d])
          fail(op, "cannot broadcast " + in.str() + " to " + out.str() + ": dimension " + std::to_string(d));
      return;
    }
    case OpCode::ExpandDims: {
      if (op.axis < 0 || op.axis > in.rank())
        fail(op, "axis " + std::to_string(op.axis) + " out of range for " + in.str());
      Shape expected = in.shape;
      expected.insert(expected.begin() + op.axis, 1);
      if (out.shape != expected)
        fail(op, "result shape " + shapeString(out.shape) + ", expected " + shapeString(expected));
      return;
    }
    case OpCode::Reshape:
      if (!in.isTile() || !out.isTile() || in.numElements() != out.numElements())
        fail(op, "reshapes " + in.str() + " to " + out.str() +
                     ", expected tiles with the same number of elements");
      return;
    case OpCode::Slice: {
      bool ok = in.isTile() && out.isTile() && in.rank() == out.rank() && op.axis >= 0 &&
                op.axis < in.rank() && op.start >= 0;
      for (int d = 0; ok && d < in.rank(); ++d)
        ok = d == op.axis ? out.shape[d] > 0 && op.start + out.shape[d] <= in.shape[d]
                          : out.shape[d] == in.shape[d];
      if (!ok)
        fail(op, "slices " + in.str() + " to " + out.str() + " at axis " + std::to_string(op.axis) +
                     " from " + std::to_string(op.start) +
                     ", expected a window of one axis inside the operand");
      return;
    }
    default: { // Permute
      const auto rank = static_cast<size_t>(in.rank());
      std::vector<bool> seen(rank, false);
      bool ok = op.order.size() == rank;
      for (size_t i = 0; ok && i < rank; ++i) {
        const int d = op.order[i];
        ok = d >= 0 && static_cast<size_t>(d) < rank && !seen[static_cast<size_t>(d)];
        if (ok)
          seen[static_cast<size_t>(d)] = true;
      }
      if (!ok)
        fail(op, "order is not a permutation of the " + std::to_string(rank) + " dimensions of " + in.str());
      Shape expected;
      for (int d : op.order)
        expected.push_back(in.shape[static_cast<size_t>(d)]);
      if (out.shape != expected)
        fail(op, "result shape " + shapeString(out.shape) + ", expected " + shapeString(expected));
      return;
    }
    }
  }

  void verifyConversion(const Op &op) const {
    simple(op, 1, 1);
    const Type &in = operandType(op, 0);
    const Type &out = resultType(op);
    if (in.shape != out.shape)
      fail(op, "shape changes from " + in.str() + " to " + out.str());
    if (op.code == OpCode::Cast) {
      if (in.isPointer || out.isPointer)
        fail(op, "casts " + in.str() + " to " + out.str() + " (pointers need bitcast)");
      return;
    }
    const auto isWord = [](const Type &t) {
      return !t.isPointer && (t.dtype == DType::Int64 || t.dtype == DType::UInt64);
    };
    const bool ok = (in.isPointer || out.isPointer)
                        ? (in.isPointer || isWord(in)) && (out.isPointer || isWord(out))
                        : core::bitWidth(in.dtype) == core::bitWidth(out.dtype);
    if (!ok)
      fail(op, "bit widths differ: " + in.str() + " to " + out.str());
  }

  void verifyElementwise(const Op &op) const {
    const OpTraits &traits = opTraits(op.code);
    const bool unary = traits.maxOperands == 1;
    simple(op, traits.minOperands, traits.maxOperands);
    const Type &t = operandType(op, 0);
    if (!unary && operandType(op, 1) != t)
      fail(op, "operand types differ: " + t.str() + " vs " + operandType(op, 1).str());
    if (t.isPointer)
      fail(op, "operands are pointers " + t.str() + " (use addptr)");
    switch (op.code) {
    case OpCode::And:
    case OpCode::Or:
    case OpCode::Xor:
    case OpCode::Not:
      if (!t.isIntegerOrBool())
        fail(op, "operands are " + t.str() + ", expected integers or i1");
      break;
    case OpCode::Shl:
    case OpCode::Shr:
      if (!isInteger(t))
        fail(op, "operands are " + t.str() + ", expected integers");
      break;
    case OpCode::Min:
    case OpCode::Max:
      if (!inRange(op.nanMode, NanMode::Propagate))
        fail(op, "invalid nan mode");
      [[fallthrough]];
    default:
      if (!isNumber(t))
        fail(op, "operands are " + t.str() + ", expected integers or floats (not i1)");
    }
    resultIs(op, t);
  }

  void verifyMath(const Op &op) const {
    if (!inRange(op.mathFn, MathFn::Fma))
      fail(op, "invalid math function");
    const auto n = static_cast<size_t>(arity(op.mathFn));
    if (op.operands.size() != n)
      fail(op, std::string(name(op.mathFn)) + " takes " + plural(n, "operand") + ", got " +
                   std::to_string(op.operands.size()));
    simple(op, n, n);
    const Type &t = operandType(op, 0);
    for (size_t i = 0; i < n; ++i)
      if (operandType(op, i) != t || !t.isFloat())
        fail(op, std::string(name(op.mathFn)) + " operands must be of one float type, got " +
                     operandType(op, i).str());
    resultIs(op, producesBool(op.mathFn) ? Type::tile(DType::Bool, t.shape) : t);
  }

  void verifyMemory(const Op &op) const {
    const bool load = op.code == OpCode::Load;
    const bool atomic = op.code == OpCode::AtomicRMW;
    operands(op, load ? 1 : 2, 3);
    results(op, op.code == OpCode::Store ? 0 : 1);
    regions(op, 0);
    const Type &ptr = operandType(op, 0);
    if (!ptr.isPointer)
      fail(op, "operand 0 is " + ptr.str() + ", expected a pointer");
    const Type value = Type::tile(ptr.dtype, ptr.shape);
    const size_t maskIndex = load ? 1 : 2;
    if (op.operands.size() > maskIndex) {
      const Type &mask = operandType(op, maskIndex);
      if (!mask.isBool() || mask.shape != ptr.shape)
        fail(op, "mask " + mask.str() + " is not i1 of the pointer's shape " + shapeString(ptr.shape));
    }
    if (load) {
      if (op.operands.size() == 3 && operandType(op, 2) != value)
        fail(op, "other " + operandType(op, 2).str() + " is not of the loaded type " + value.str());
      return resultIs(op, value);
    }
    if (operandType(op, 1) != value)
      fail(op, "value " + operandType(op, 1).str() + " is not of the pointed-to type " + value.str());
    if (!atomic)
      return;
    if (!inRange(op.atomicKind, AtomicKind::Exchange))
      fail(op, "invalid atomic kind");
    const bool bitwise = op.atomicKind == AtomicKind::And || op.atomicKind == AtomicKind::Or ||
                         op.atomicKind == AtomicKind::Xor;
    if (bitwise && !value.isIntegerOrBool())
      fail(op, std::string(name(op.atomicKind)) + " on " + value.str() + ", expected integers");
    if ((op.atomicKind == AtomicKind::Add || op.atomicKind == AtomicKind::Max ||
         op.atomicKind == AtomicKind::Min) &&
        !isNumber(value))
      fail(op, std::string(name(op.atomicKind)) + " on " + value.str() + ", expected numbers");
    resultIs(op, value);
  }

  /// The Yield that ends region r of op, checked against the expected types.
  void checkYield(const Op &op, size_t r, const std::vector<Type> &expected, const std::string &what) const {
    const Block &region = *op.regions[r];
    if (region.ops.empty() || region.ops.back()->code != OpCode::Yield) {
      for (const auto &inner : region.ops)
        if (inner->code == OpCode::Yield)
          fail(*inner, "yield must be the last op of its region");
      fail(op, "region " + std::to_string(r) + " does not end with yield");
    }
    const Op &yield = *region.ops.back();
    if (yield.operands.size() != expected.size())
      fail(yield, "yields " + plural(yield.operands.size(), "value") + ", but " + what + " expects " +
                      std::to_string(expected.size()));
    for (size_t i = 0; i < expected.size(); ++i) {
      const Value *v = yield.operands[i];
      if (v == nullptr)
        fail(yield, "operand " + std::to_string(i) + " is null");
      if (v->type != expected[i])
        fail(yield, "value " + std::to_string(i) + " has type " + v->type.str() + ", but " + what +
                        " expects " + expected[i].str());
    }
  }

  void checkRegionArguments(const Op &op, size_t r, const std::vector<Type> &expected,
                            const std::string &what) const {
    const auto &args = op.regions[r]->arguments;
    if (args.size() != expected.size())
      fail(op, what + " has " + plural(args.size(), "argument") + ", expected " +
                   std::to_string(expected.size()));
    for (size_t i = 0; i < args.size(); ++i)
      if (args[i]->type != expected[i])
        fail(op, what + " argument " + std::to_string(i) + " has type " + args[i]->type.str() +
                     ", expected " + expected[i].str());
  }

  void verifyReduceOrScan(const Op &op) const {
    const bool reduce = op.code == OpCode::Reduce;
    if (!inRange(op.reduceKind, ReduceKind::Combine))
      fail(op, "invalid reduce kind");
    const ReduceKind kind = op.reduceKind;
    const std::string kindName(name(kind));
    atLeastOperands(op, 1);
    const size_t n = op.operands.size();
    results(op, n);
    regions(op, kind == ReduceKind::Combine ? 1 : 0);
    const Type &first = operandType(op, 0);
    for (size_t i = 0; i < n; ++i) {
      const Type &t = operandType(op, i);
      if (!t.isTile() || t.isPointer || t.shape != first.shape)
        fail(op,
             "operand " + std::to_string(i) + " is " + t.str() + ", expected non-pointer tiles of one shape");
    }
    if (op.axis < 0 || op.axis >= first.rank())
      fail(op, "axis " + std::to_string(op.axis) + " out of range for rank " + std::to_string(first.rank()));
    if (!inRange(op.nanMode, NanMode::Propagate))
      fail(op, "invalid nan mode");
    switch (kind) {
    case ReduceKind::Sum:
    case ReduceKind::Prod:
    case ReduceKind::Max:
    case ReduceKind::Min:
      operands(op, 1);
      if (!isNumber(first))
        fail(op, kindName + " of " + first.str() + ", expected integers or floats (not i1)");
      break;
    case ReduceKind::And:
    case ReduceKind::Or:
    case ReduceKind::Xor:
      operands(op, 1);
      if (!first.isIntegerOrBool())
        fail(op, kindName + " of " + first.str() + ", expected integers or i1");
      break;
    case ReduceKind::ArgMax:
    case ReduceKind::ArgMin:
      if (!reduce)
        fail(op, "scan does not support " + kindName);
      operands(op, 2);
      if (!isNumber(first) || !isInteger(operandType(op, 1)))
        fail(op, kindName + " takes (values, integer indices), got " + first.str() + ", " +
                     operandType(op, 1).str());
      break;
    case ReduceKind::Combine: break;
    }
    std::vector<Type> elements;
    for (size_t i = 0; i < n; ++i) {
      const Type &t = operandType(op, i);
      const Type expected = reduce ? t.withShape(withoutAxis(t.shape, op.axis)) : t;
      if (resultType(op, i) != expected)
        fail(op, "result " + std::to_string(i) + " has type " + resultType(op, i).str() + ", expected " +
                     expected.str());
      elements.push_back(t.element());
    }
    if (kind != ReduceKind::Combine)
      return;
    std::vector<Type> args = elements;
    args.insert(args.end(), elements.begin(), elements.end());
    checkRegionArguments(op, 0, args, "combine region");
    checkYield(op, 0, elements, "the combine region");
  }

  void verifySort(const Op &op) const {
    operands(op, 1, 3);
    // A third operand is the i1 validity mask; it has no result.
    const size_t sorted = std::min<size_t>(op.operands.size(), 2);
    results(op, sorted);
    regions(op, 0);
    const Type &keys = operandType(op, 0);
    if (op.operands.size() == 3 && (!operandType(op, 2).isBool() || operandType(op, 2).shape != keys.shape))
      fail(op, "operand 2 (valid) is " + operandType(op, 2).str() + ", expected i1 of the keys' shape");
    for (size_t i = 0; i < sorted; ++i) {
      const Type &t = operandType(op, i);
      if (!t.isTile() || t.isPointer || t.shape != keys.shape)
        fail(op,
             "operand " + std::to_string(i) + " is " + t.str() + ", expected non-pointer tiles of one shape");
      if (resultType(op, i) != t)
        fail(op, "result " + std::to_string(i) + " has type " + resultType(op, i).str() + ", expected " +
                     t.str());
    }
    if (op.axis < 0 || op.axis >= keys.rank())
      fail(op, "axis " + std::to_string(op.axis) + " out of range for rank " + std::to_string(keys.rank()));
  }

  void verifyDot(const Op &op) const {
    simple(op, 3, 3);
    if (!inRange(op.inputPrecision, InputPrecision::TF32x3))
      fail(op, "invalid input precision");
    const Type &a = operandType(op, 0);
    const Type &b = operandType(op, 1);
    const Type &c = operandType(op, 2);
    if (!isNumber(a) || !isNumber(c) || a.dtype != b.dtype || b.isPointer)
      fail(op, "operand dtypes " + a.str() + ", " + b.str() + ", " + c.str() +
                   ": a and b must share one number dtype, acc must be a number");
    const int rank = a.rank();
    const auto dim = [](const Type &t, int i) { return t.shape[static_cast<size_t>(i)]; };
    bool ok = (rank == 2 || rank == 3) && b.rank() == rank && c.rank() == rank;
    if (ok) {
      const int m = rank - 2, k = rank - 1;
      ok = dim(a, k) == dim(b, m) && dim(c, m) == dim(a, m) && dim(c, k) == dim(b, k) &&
           (rank == 2 || (dim(a, 0) == dim(b, 0) && dim(a, 0) == dim(c, 0)));
    }
    if (!ok)
      fail(op, "shapes " + shapeString(a.shape) + " x " + shapeString(b.shape) + " + " +
                   shapeString(c.shape) + " do not match [M, K] x [K, N] + [M, N]" +
                   " (with an optional leading batch dimension)");
    resultIs(op, c);
  }

  void verifyFor(const Op &op) const {
    atLeastOperands(op, 3);
    regions(op, 1);
    const Type &bound = operandType(op, 0);
    for (size_t i = 0; i < 3; ++i)
      if (!isScalarInteger(operandType(op, i)) || operandType(op, i) != bound)
        fail(op, "bounds " + bound.str() + ", " + operandType(op, 1).str() + ", " + operandType(op, 2).str() +
                     " must be scalar integers of one type");
    const size_t carried = op.operands.size() - 3;
    results(op, carried);
    std::vector<Type> types;
    for (size_t i = 0; i < carried; ++i) {
      types.push_back(operandType(op, 3 + i));
      if (resultType(op, i) != types.back())
        fail(op, "result " + std::to_string(i) + " has type " + resultType(op, i).str() +
                     ", but its initial value is " + types.back().str());
    }
    std::vector<Type> args{bound};
    args.insert(args.end(), types.begin(), types.end());
    checkRegionArguments(op, 0, args, "body");
    checkYield(op, 0, types, "the loop");
  }

  void verifyIf(const Op &op) const {
    operands(op, 1);
    regions(op, 2);
    const Type &cond = operandType(op, 0);
    if (!cond.isBool() || !cond.isScalar())
      fail(op, "condition " + cond.str() + " is not a scalar i1");
    std::vector<Type> types;
    for (const Value *r : op.results)
      types.push_back(r->type);
    checkRegionArguments(op, 0, {}, "then region");
    checkRegionArguments(op, 1, {}, "else region");
    checkYield(op, 0, types, "the if");
    checkYield(op, 1, types, "the if");
  }

  const Function &function_;
  std::vector<State> state_;
};

} // namespace

void verify(const Function &function) {
  Verifier(function).run();
}

} // namespace npusim::ir
