#include "reference/analysis.h"

#include "reference/numeric.h"

#include <algorithm>
#include <string>

namespace npusim::reference {
namespace {

using ir::OpCode;
using ir::Type;

constexpr int kMaxRegionDepth = 64;

bool isInt(const Type &t) {
  return !t.isPointer && core::isInteger(t.dtype);
}
bool isFloatT(const Type &t) {
  return !t.isPointer && core::isFloat(t.dtype);
}
bool isBoolT(const Type &t) {
  return !t.isPointer && t.dtype == DType::Bool;
}
bool sameElement(const Type &a, const Type &b) {
  return a.dtype == b.dtype && a.isPointer == b.isPointer;
}

class InterpreterInputCheck {
public:
  InterpreterInputCheck(const ir::Function &function, int64_t maxTileElements)
      : function_(function), maxTileElements_(maxTileElements) {
    const size_t n = static_cast<size_t>(function.numValues());
    visible_.assign(n, 0);
    defined_.assign(n, 0);
    result_.numElements.assign(n, 0);
    result_.storage.assign(n, Storage::Int);
    result_.definingBlock.assign(n, nullptr);
  }

  Analysis run() {
    const ir::Block &body = function_.body();
    const auto &params = function_.parameters();
    if (params.size() != body.arguments.size())
      fail(nullptr, "the function has " + std::to_string(params.size()) + " parameters but its body has " +
                        std::to_string(body.arguments.size()) + " arguments");
    for (size_t i = 0; i < params.size(); ++i) {
      if (params[i].value != body.arguments[i])
        fail(nullptr, "parameter '" + params[i].name + "' is not the body argument " + std::to_string(i));
      if (params[i].type.isTile())
        fail(nullptr, "parameter '" + params[i].name + "' is a tile (" + params[i].type.str() + ")");
    }
    block(body, 0, nullptr);
    return std::move(result_);
  }

private:
  [[noreturn]] void fail(const ir::Op *op, const std::string &what) const {
    std::string where;
    if (op) {
      where = std::string(" at ") +
              (op->loc.known() || !op->loc.file.empty() ? op->loc.str() : "<unknown location>") + ", op " +
              std::string(ir::name(op->code));
    }
    throw core::RuntimeError("kernel '" + function_.name() + "': malformed TileIR (interpreter input check)" +
                             where + ": " + what);
  }

  void own(const ir::Value *v, const ir::Op *op) const {
    if (v == nullptr)
      fail(op, "null value");
    if (v->id < 0 || v->id >= function_.numValues() ||
        function_.values()[static_cast<size_t>(v->id)].get() != v)
      fail(op, "value %" + std::to_string(v->id) + " does not belong to this function");
  }

  void define(const ir::Value *v, const ir::Block *b, const ir::Op *op) {
    own(v, op);
    const size_t id = static_cast<size_t>(v->id);
    if (defined_[id])
      fail(op, "value %" + std::to_string(v->id) + " is defined twice");
    defined_[id] = 1;
    visible_[id] = 1;
    const Type &t = v->type;
    if (static_cast<uint8_t>(t.dtype) >= core::kNumDTypes)
      fail(op, "value %" + std::to_string(v->id) + " has an invalid dtype");
    int64_t n = 1;
    for (int64_t d : t.shape) {
      if (d < 1 || d > maxTileElements_ || n > maxTileElements_ / d)
        fail(op, "value %" + std::to_string(v->id) + " has shape " + ir::shapeString(t.shape) +
                     " (dims must be >= 1 and the tile at most " + std::to_string(maxTileElements_) +
                     " elements)");
      n *= d;
    }
    result_.numElements[id] = n;
    result_.storage[id] = storageOf(t);
    result_.definingBlock[id] = b;
  }

  void use(const ir::Value *v, const ir::Op *op) const {
    own(v, op);
    if (!visible_[static_cast<size_t>(v->id)])
      fail(op, "value %" + std::to_string(v->id) + " is used where it is not defined");
  }

  void block(const ir::Block &b, int depth, const ir::Op *parent) {
    if (depth > kMaxRegionDepth)
      fail(parent, "regions nested deeper than " + std::to_string(kMaxRegionDepth));
    for (const ir::Value *arg : b.arguments)
      define(arg, &b, parent);
    const bool isRegion = parent != nullptr;
    for (size_t i = 0; i < b.ops.size(); ++i) {
      const ir::Op *op = b.ops[i].get();
      if (op == nullptr)
        fail(parent, "null op");
      const bool last = i + 1 == b.ops.size();
      if (op->code == OpCode::Yield) {
        if (!last)
          fail(op, "yield before the end of its block");
        if (!isRegion && !op->operands.empty())
          fail(op, "yield with values in the function body");
        for (const ir::Value *v : op->operands)
          use(v, op);
        if (!op->results.empty() || !op->regions.empty())
          fail(op, "yield with results or regions");
        continue;
      }
      check(*op, depth);
      for (const ir::Value *r : op->results)
        define(r, &b, op);
      checkResultTypes(*op);
    }
    if (isRegion && (b.ops.empty() || b.ops.back()->code != OpCode::Yield))
      fail(parent, "a region does not end with a yield");
    for (const ir::Value *arg : b.arguments)
      visible_[static_cast<size_t>(arg->id)] = 0;
    for (const auto &op : b.ops)
      for (const ir::Value *r : op->results)
        visible_[static_cast<size_t>(r->id)] = 0;
  }

  static const ir::Op &terminator(const ir::Block &b) { return *b.ops.back(); }

  void counts(const ir::Op &op, size_t minOperands, size_t maxOperands, size_t results,
              size_t regions) const {
    if (op.operands.size() < minOperands || op.operands.size() > maxOperands)
      fail(&op, "takes " + std::to_string(minOperands) +
                    (maxOperands != minOperands ? " to " + std::to_string(maxOperands) : std::string()) +
                    " operands, has " + std::to_string(op.operands.size()));
    if (op.results.size() != results)
      fail(&op, "has " + std::to_string(op.results.size()) + " results, expected " + std::to_string(results));
    if (op.regions.size() != regions)
      fail(&op, "has " + std::to_string(op.regions.size()) + " regions, expected " + std::to_string(regions));
  }

  /// The operand counts ir::opTraits gives `op`'s opcode (a fixed range), and
  /// `results` results and `regions` regions.
  void traitCounts(const ir::Op &op, size_t results, size_t regions) const {
    const ir::OpTraits &traits = ir::opTraits(op.code);
    counts(op, static_cast<size_t>(traits.minOperands), static_cast<size_t>(traits.maxOperands), results,
           regions);
  }

  void need(bool ok, const ir::Op &op, const std::string &what) const {
    if (!ok)
      fail(&op, what);
  }

  void expectType(const ir::Op &op, const Type &actual, const Type &expected, const std::string &what) const {
    if (!(actual == expected))
      fail(&op, what + " is " + actual.str() + ", expected " + expected.str());
  }

  // Checks a region's yield against the given value types.
  void yieldTypes(const ir::Op &op, const ir::Block &region, const std::vector<Type> &types) const {
    const ir::Op &y = terminator(region);
    need(y.operands.size() == types.size(), op,
         "region yields " + std::to_string(y.operands.size()) + " values, expected " +
             std::to_string(types.size()));
    for (size_t i = 0; i < types.size(); ++i)
      expectType(op, y.operands[i]->type, types[i], "yielded value " + std::to_string(i));
  }

  void regionArguments(const ir::Op &op, const ir::Block &region, const std::vector<Type> &types) const {
    need(region.arguments.size() == types.size(), op,
         "region has " + std::to_string(region.arguments.size()) + " arguments, expected " +
             std::to_string(types.size()));
    for (size_t i = 0; i < types.size(); ++i) {
      own(region.arguments[i], &op);
      expectType(op, region.arguments[i]->type, types[i], "region argument " + std::to_string(i));
    }
  }

  bool isLanewise(const ir::Block &region) const {
    for (const ir::Value *arg : region.arguments)
      if (!arg->type.isScalar())
        return false;
    for (const auto &op : region.ops) {
      // Elementwise ops on numbers (pointers have no lanes to combine),
      // constants, and the region's yield.
      const bool elementwise = ir::opTraits(op->code).elementwise && op->code != OpCode::AddPtr;
      if (!elementwise && op->code != OpCode::Constant && op->code != OpCode::Yield &&
          op->code != OpCode::Barrier)
        return false;
      if (!op->regions.empty())
        return false;
      for (const ir::Value *r : op->results)
        if (!r->type.isScalar())
          return false;
    }
    return true;
  }

  void check(const ir::Op &op, int depth) {
    for (const ir::Value *v : op.operands)
      use(v, &op);
    for (const ir::Value *r : op.results)
      own(r, &op);
    for (const auto &region : op.regions)
      if (region == nullptr)
        fail(&op, "null region");
    const auto &in = op.operands;
    auto T = [&](size_t i) -> const Type & { return in[i]->type; };
    if (const ir::OpTraits &traits = ir::opTraits(op.code); traits.arithmetic) {
      traitCounts(op, 1, 0);
      if (traits.maxOperands == 2) {
        expectType(op, T(1), T(0), "second operand");
        need(!T(0).isPointer, op, "operands are pointers");
      }
      return;
    }
    switch (op.code) {
    case OpCode::Constant:
    case OpCode::Barrier: traitCounts(op, op.code == OpCode::Constant ? 1 : 0, 0); return;
    case OpCode::ProgramId:
    case OpCode::NumPrograms:
      traitCounts(op, 1, 0);
      need(op.axis >= 0 && op.axis <= 2, op, "axis must be 0, 1 or 2");
      return;
    case OpCode::Arange:
      traitCounts(op, 1, 0);
      need(op.end > op.start, op, "arange needs end > start");
      return;
    case OpCode::Splat:
    case OpCode::Broadcast:
    case OpCode::ExpandDims:
    case OpCode::Reshape:
    case OpCode::Permute:
    case OpCode::Slice:
    case OpCode::Cast:
    case OpCode::Bitcast: traitCounts(op, 1, 0); return;
    case OpCode::Math:
      need(static_cast<uint8_t>(op.mathFn) <= static_cast<uint8_t>(ir::MathFn::Fma), op,
           "unknown math function");
      counts(op, static_cast<size_t>(ir::arity(op.mathFn)), static_cast<size_t>(ir::arity(op.mathFn)), 1, 0);
      for (size_t i = 0; i < in.size(); ++i)
        expectType(op, T(i), T(0), "operand " + std::to_string(i));
      need(isFloatT(T(0)), op, "math on " + T(0).str() + " (float operands expected)");
      return;
    case OpCode::AddPtr:
      traitCounts(op, 1, 0);
      need(T(0).isPointer, op, "first operand is not a pointer");
      need(isInt(T(1)) && T(1).shape == T(0).shape, op, "offset is " + T(1).str());
      return;
    case OpCode::Cmp:
      traitCounts(op, 1, 0);
      expectType(op, T(1), T(0), "second operand");
      need(static_cast<uint8_t>(op.predicate) <= static_cast<uint8_t>(ir::CmpPredicate::Ge), op,
           "unknown predicate");
      return;
    case OpCode::Select:
      traitCounts(op, 1, 0);
      expectType(op, T(0), Type::tile(DType::Bool, T(1).shape), "condition");
      expectType(op, T(2), T(1), "third operand");
      return;
    case OpCode::Load:
      traitCounts(op, 1, 0);
      need(T(0).isPointer, op, "load from a non-pointer");
      if (in.size() > 1)
        expectType(op, T(1), Type::tile(DType::Bool, T(0).shape), "mask");
      if (in.size() > 2)
        expectType(op, T(2), Type::tile(T(0).dtype, T(0).shape), "other");
      return;
    case OpCode::Store:
      traitCounts(op, 0, 0);
      need(T(0).isPointer, op, "store to a non-pointer");
      expectType(op, T(1), Type::tile(T(0).dtype, T(0).shape), "stored value");
      if (in.size() > 2)
        expectType(op, T(2), Type::tile(DType::Bool, T(0).shape), "mask");
      return;
    case OpCode::AtomicRMW:
      traitCounts(op, 1, 0);
      need(T(0).isPointer, op, "atomic on a non-pointer");
      need(static_cast<uint8_t>(op.atomicKind) <= static_cast<uint8_t>(ir::AtomicKind::Exchange), op,
           "unknown atomic kind");
      expectType(op, T(1), Type::tile(T(0).dtype, T(0).shape), "value");
      if (in.size() > 2)
        expectType(op, T(2), Type::tile(DType::Bool, T(0).shape), "mask");
      need(!core::isFloat(T(0).dtype) ||
               (op.atomicKind != ir::AtomicKind::And && op.atomicKind != ir::AtomicKind::Or &&
                op.atomicKind != ir::AtomicKind::Xor),
           op, "bitwise atomic on a float type");
      return;
    case OpCode::Reduce:
    case OpCode::Scan: checkReduce(op, depth); return;
    case OpCode::Sort:
      traitCounts(op, std::min<size_t>(in.size(), 2), 0); // (keys[, values[, valid]])
      need(T(0).rank() >= 1 && op.axis >= 0 && op.axis < T(0).rank(), op, "axis out of range");
      need(!T(0).isPointer, op, "sort keys are pointers");
      if (in.size() > 1)
        need(T(1).shape == T(0).shape, op, "keys and values differ in shape");
      if (in.size() > 2)
        need(T(2).shape == T(0).shape && T(2).dtype == core::DType::Bool && !T(2).isPointer, op,
             "the valid mask is not i1 of the keys' shape");
      return;
    case OpCode::Dot: {
      traitCounts(op, 1, 0);
      const int r = T(0).rank();
      need((r == 2 || r == 3) && T(1).rank() == r && T(2).rank() == r, op, "dot operands must be 2-D or 3-D");
      const auto &a = T(0).shape, &b = T(1).shape, &c = T(2).shape;
      const size_t m = static_cast<size_t>(r - 2), k = static_cast<size_t>(r - 1);
      need(a[k] == b[m] && c[m] == a[m] && c[k] == b[k] && (r == 2 || (a[0] == b[0] && a[0] == c[0])), op,
           "dot shapes " + T(0).str() + " x " + T(1).str() + " + " + T(2).str() + " do not agree");
      need(!T(0).isPointer && !T(1).isPointer && !T(2).isPointer, op, "dot of pointers");
      need(core::isFloat(T(2).dtype) || (isInt(T(0)) && isInt(T(1))), op,
           "an integer accumulator needs integer inputs");
      need(static_cast<uint8_t>(op.inputPrecision) <= static_cast<uint8_t>(ir::InputPrecision::TF32x3), op,
           "unknown input precision");
      return;
    }
    case OpCode::For: {
      need(in.size() >= 3, op, "for needs lower, upper and step");
      counts(op, in.size(), in.size(), in.size() - 3, 1);
      for (size_t i = 0; i < 3; ++i)
        need(isInt(T(i)) && T(i).isScalar() && T(i).dtype != DType::Bool, op,
             "loop bounds must be integer scalars, not " + T(i).str());
      const ir::Block &body = op.region(0);
      std::vector<Type> carried;
      for (size_t i = 3; i < in.size(); ++i)
        carried.push_back(T(i));
      std::vector<Type> args{T(0)};
      args.insert(args.end(), carried.begin(), carried.end());
      regionArguments(op, body, args);
      block(body, depth + 1, &op);
      yieldTypes(op, body, carried);
      return;
    }
    case OpCode::If: {
      need(in.size() == 1 && T(0) == Type::scalar(DType::Bool), op, "if needs one i1 scalar condition");
      need(op.regions.size() == 1 || op.regions.size() == 2, op, "if needs one or two regions");
      need(op.regions.size() == 2 || op.results.empty(), op, "an if with results needs an else region");
      std::vector<Type> types;
      for (const ir::Value *r : op.results)
        types.push_back(r->type);
      for (const auto &region : op.regions) {
        regionArguments(op, *region, {});
        block(*region, depth + 1, &op);
        yieldTypes(op, *region, types);
      }
      return;
    }
    case OpCode::Assert:
      traitCounts(op, 0, 0);
      need(isBoolT(T(0)), op, "assert condition is " + T(0).str());
      return;
    case OpCode::Yield: return;
    default: break; // the arithmetic returned above; anything else is no opcode
    }
    fail(&op, "unknown opcode " + std::to_string(static_cast<int>(op.code)));
  }

  void checkReduce(const ir::Op &op, int depth) {
    const bool isScan = op.code == OpCode::Scan;
    const auto &in = op.operands;
    const size_t n = in.size();
    need(n >= 1, op, "needs operands");
    const bool combine = op.reduceKind == ir::ReduceKind::Combine;
    counts(op, n, n, n, combine ? 1 : 0);
    const Type &first = in[0]->type;
    need(first.rank() >= 1 && op.axis >= 0 && op.axis < first.rank(), op, "axis out of range");
    for (const ir::Value *v : in) {
      need(v->type.shape == first.shape, op, "operands differ in shape");
      need(!v->type.isPointer, op, "reduction of pointers");
    }
    using ir::ReduceKind;
    switch (op.reduceKind) {
    case ReduceKind::ArgMax:
    case ReduceKind::ArgMin:
      need(!isScan, op, "argmax/argmin scans are not supported");
      need(n == 2 && isInt(in[1]->type), op, "argmax/argmin take (values, integer indices)");
      return;
    case ReduceKind::Combine: {
      const ir::Block &region = op.region(0);
      std::vector<Type> halves;
      for (const ir::Value *v : in)
        halves.push_back(Type::scalar(v->type.dtype));
      std::vector<Type> args = halves;
      args.insert(args.end(), halves.begin(), halves.end());
      regionArguments(op, region, args);
      block(region, depth + 1, &op);
      yieldTypes(op, region, halves);
      result_.lanewise[&region] = isLanewise(region);
      return;
    }
    case ReduceKind::Sum:
    case ReduceKind::Prod:
    case ReduceKind::Max:
    case ReduceKind::Min: need(n == 1, op, "takes one operand"); return;
    case ReduceKind::And:
    case ReduceKind::Or:
    case ReduceKind::Xor:
      need(n == 1 && isInt(first), op, "bitwise reduction needs one integer operand");
      return;
    }
    fail(&op, "unknown reduce kind");
  }

  // Result types, checked once the results are defined (their shapes are sane).
  void checkResultTypes(const ir::Op &op) const {
    const auto &in = op.operands;
    auto T = [&](size_t i) -> const Type & { return in[i]->type; };
    auto R = [&](size_t i) -> const Type & { return op.results[i]->type; };
    switch (op.code) {
    case OpCode::ProgramId:
    case OpCode::NumPrograms:
      need(isInt(R(0)) && R(0).isScalar() && R(0).dtype != DType::Bool, op,
           "result must be an integer scalar");
      return;
    case OpCode::Arange:
      need(isInt(R(0)) && R(0).rank() == 1 &&
               static_cast<uint64_t>(R(0).shape[0]) ==
                   static_cast<uint64_t>(op.end) - static_cast<uint64_t>(op.start),
           op, "result must be a 1-D integer tile of end - start elements");
      return;
    case OpCode::Splat:
      need(T(0).isScalar() && sameElement(T(0), R(0)), op, "splat of " + T(0).str() + " to " + R(0).str());
      return;
    case OpCode::Broadcast: {
      bool ok = sameElement(T(0), R(0)) && (T(0).isScalar() || T(0).rank() == R(0).rank());
      for (int d = 0; ok && d < T(0).rank(); ++d)
        ok = T(0).shape[d] == R(0).shape[d] || T(0).shape[d] == 1;
      need(ok, op, "broadcast of " + T(0).str() + " to " + R(0).str());
      return;
    }
    case OpCode::ExpandDims: {
      ir::Shape s = T(0).shape;
      bool ok = op.axis >= 0 && op.axis <= T(0).rank();
      if (ok)
        s.insert(s.begin() + op.axis, 1);
      need(ok && sameElement(T(0), R(0)) && s == R(0).shape, op,
           "expand_dims of " + T(0).str() + " at " + std::to_string(op.axis) + " to " + R(0).str());
      return;
    }
    case OpCode::Reshape:
      need(sameElement(T(0), R(0)) && ir::numElements(T(0).shape) == ir::numElements(R(0).shape), op,
           "reshape of " + T(0).str() + " to " + R(0).str());
      return;
    case OpCode::Slice: {
      bool ok = T(0).isTile() && R(0).rank() == T(0).rank() && sameElement(T(0), R(0)) && op.axis >= 0 &&
                op.axis < T(0).rank() && op.start >= 0;
      for (int d = 0; ok && d < T(0).rank(); ++d)
        ok = d == op.axis ? R(0).shape[d] > 0 && op.start + R(0).shape[d] <= T(0).shape[d]
                          : R(0).shape[d] == T(0).shape[d];
      need(ok, op, "slice of " + T(0).str() + " to " + R(0).str());
      return;
    }
    case OpCode::Permute: {
      const int r = T(0).rank();
      bool ok = static_cast<int>(op.order.size()) == r && R(0).rank() == r && sameElement(T(0), R(0));
      std::vector<int> sorted = op.order;
      std::sort(sorted.begin(), sorted.end());
      for (int d = 0; ok && d < r; ++d)
        ok = sorted[static_cast<size_t>(d)] == d;
      for (int d = 0; ok && d < r; ++d)
        ok = R(0).shape[d] == T(0).shape[static_cast<size_t>(op.order[static_cast<size_t>(d)])];
      need(ok, op, "permute of " + T(0).str() + " to " + R(0).str());
      return;
    }
    case OpCode::Cast:
      need(!T(0).isPointer && !R(0).isPointer && T(0).shape == R(0).shape, op,
           "cast of " + T(0).str() + " to " + R(0).str());
      return;
    case OpCode::Bitcast: {
      const Type &a = T(0), &b = R(0);
      bool ok = a.shape == b.shape;
      if (a.isPointer || b.isPointer) {
        auto wide = [](const Type &t) {
          return t.isPointer || (t.dtype == DType::Int64 || t.dtype == DType::UInt64);
        };
        ok = ok && wide(a) && wide(b);
      } else {
        ok = ok && (bitsOf(a.dtype) == bitsOf(b.dtype)) && (a.dtype != DType::Bool || b.dtype == DType::Bool);
      }
      need(ok, op, "bitcast of " + a.str() + " to " + b.str());
      return;
    }
    case OpCode::Add:
    case OpCode::Sub:
    case OpCode::Mul:
    case OpCode::Div:
    case OpCode::Rem:
    case OpCode::Min:
    case OpCode::Max:
    case OpCode::Neg:
    case OpCode::Abs:
      expectType(op, R(0), T(0), "result");
      need(!T(0).isPointer, op, "arithmetic on pointers");
      return;
    case OpCode::And:
    case OpCode::Or:
    case OpCode::Xor:
    case OpCode::Shl:
    case OpCode::Shr:
    case OpCode::Not:
      expectType(op, R(0), T(0), "result");
      need(isInt(T(0)), op, "bitwise operation on " + T(0).str());
      return;
    case OpCode::Math:
      expectType(op, R(0), ir::producesBool(op.mathFn) ? Type::tile(DType::Bool, T(0).shape) : T(0),
                 "result");
      return;
    case OpCode::AddPtr: expectType(op, R(0), T(0), "result"); return;
    case OpCode::Cmp: expectType(op, R(0), Type::tile(DType::Bool, T(0).shape), "result"); return;
    case OpCode::Select: expectType(op, R(0), T(1), "result"); return;
    case OpCode::Load:
    case OpCode::AtomicRMW: expectType(op, R(0), Type::tile(T(0).dtype, T(0).shape), "result"); return;
    case OpCode::Reduce:
      for (size_t i = 0; i < in.size(); ++i) {
        ir::Shape s = T(i).shape;
        s.erase(s.begin() + op.axis);
        expectType(op, R(i), Type::tile(T(i).dtype, s), "result " + std::to_string(i));
      }
      if (op.reduceKind != ir::ReduceKind::Combine && op.reduceKind != ir::ReduceKind::ArgMax &&
          op.reduceKind != ir::ReduceKind::ArgMin)
        need(isInt(T(0)) || isFloatT(T(0)), op, "reduction of " + T(0).str());
      return;
    case OpCode::Scan:
    case OpCode::Sort:
      for (size_t i = 0; i < op.results.size(); ++i)
        expectType(op, R(i), T(i), "result " + std::to_string(i));
      return;
    case OpCode::Dot: expectType(op, R(0), T(2), "result"); return;
    case OpCode::For:
      for (size_t i = 0; i < op.results.size(); ++i)
        expectType(op, R(i), T(i + 3), "result " + std::to_string(i));
      return;
    default: return;
    }
  }

  const ir::Function &function_;
  int64_t maxTileElements_;
  std::vector<char> visible_, defined_;
  Analysis result_;
};

} // namespace

Analysis checkInterpreterInput(const ir::Function &function, int64_t maxTileElements) {
  return InterpreterInputCheck(function, maxTileElements).run();
}

} // namespace npusim::reference
