// The homes of a for loop's carried values, decided before the loop is
// lowered (docs/compiler.md, "Control flow"). A home must hold the init as the
// lowering holds it and whatever the body yields. The init gives the narrowest
// form that could do; this analysis follows the lowering's rules for the
// forms of values (a scalar stays in a register only when every operand is
// in one, a pointer stays affine or gathered only when it is advanced by a
// splat) through the body, and widens a home whose yield would not fit. It
// answers "fits" only where the lowering certainly keeps the form, so the
// homes it chooses always hold the yield (the lowering checks that).
#include "compiler/compiler_internal.h"

#include <map>

namespace npusim::compiler {

namespace {

using Kind = ValueState::Kind;
using ir::OpCode;

/// The form the init alone allows.
CarriedForm initialForm(const ValueState &init, const ir::Value *result) {
  if (result->type.isScalar())
    return init.kind == Kind::ScalarTile ? CarriedForm::ScalarTile : CarriedForm::Register;
  if (result->type.isPointer && init.kind == Kind::Tile && init.lazy)
    return CarriedForm::AffinePointer;
  if (result->type.isPointer && init.kind == Kind::Tile && init.tile >= 0 && !init.broadcastOf)
    return CarriedForm::GatherPointer;
  return CarriedForm::Tile;
}

class CarriedFormAnalysis {
public:
  CarriedFormAnalysis(const ir::Op &loop, const ValueStateOf &outside) : outside_(outside) {
    collect(loop.region(0));
  }

  std::vector<CarriedForm> forms(const ir::Op &loop) {
    const size_t n = loop.results.size();
    std::vector<CarriedForm> forms(n);
    for (size_t i = 0; i < n; ++i)
      forms[i] = initialForm(outside_(loop.operands[3 + i]), loop.results[i]);
    const ir::Block &body = loop.region(0);
    registerArguments_[body.arguments[0]] = true; // the induction variable
    for (size_t i = 0; i < n; ++i)
      registerArguments_[body.arguments[1 + i]] = forms[i] == CarriedForm::Register;
    settleRegisters(loop);
    const ir::Op &yield = *body.ops.back();
    for (size_t i = 0; i < n; ++i) {
      if (forms[i] == CarriedForm::Register && !registerArguments_.at(body.arguments[1 + i]))
        forms[i] = CarriedForm::ScalarTile;
      const ValueState &init = outside_(loop.operands[3 + i]);
      if (forms[i] == CarriedForm::GatherPointer &&
          !keepsGather(yield.operands[i], body.arguments[1 + i], init))
        forms[i] = CarriedForm::Tile;
      if (forms[i] == CarriedForm::AffinePointer &&
          !keepsAffine(yield.operands[i], body.arguments[1 + i], init))
        forms[i] = CarriedForm::Tile;
    }
    return forms;
  }

private:
  const ValueStateOf &outside_;
  std::set<const ir::Value *> inside_;
  /// Block arguments of the loop and of the loops in its body: in a register
  /// or not, as assumed so far.
  std::map<const ir::Value *, bool> registerArguments_;
  std::map<const ir::Value *, bool> inRegisterMemo_;

  void collect(const ir::Block &block) {
    inside_.insert(block.arguments.begin(), block.arguments.end());
    for (const auto &op : block.ops) {
      inside_.insert(op->results.begin(), op->results.end());
      for (const auto &region : op->regions)
        collect(*region);
    }
  }

  /// Narrows the register assumptions of `loop`'s scalars to the greatest set
  /// whose yields are in registers (each step only drops assumptions, so it
  /// ends).
  void settleRegisters(const ir::Op &loop) {
    const ir::Block &body = loop.region(0);
    const ir::Op &yield = *body.ops.back();
    for (bool changed = true; changed;) {
      changed = false;
      for (size_t i = 0; i < loop.results.size(); ++i) {
        const ir::Value *argument = body.arguments[1 + i];
        if (registerArguments_.at(argument) && !inRegister(yield.operands[i])) {
          registerArguments_[argument] = false;
          inRegisterMemo_.clear();
          changed = true;
        }
      }
    }
  }

  /// Whether the lowering holds `v` in a scalar register (ValueState::Kind::Scalar).
  bool inRegister(const ir::Value *v) {
    if (!inside_.count(v))
      return outside_(v).kind == Kind::Scalar;
    if (auto it = registerArguments_.find(v); it != registerArguments_.end())
      return it->second;
    if (!v->type.isScalar() || !v->definingOp)
      return false;
    if (auto it = inRegisterMemo_.find(v); it != inRegisterMemo_.end())
      return it->second;
    const bool held = inRegisterUncached(*v->definingOp, v);
    inRegisterMemo_[v] = held;
    return held;
  }

  bool allInRegisters(const std::vector<ir::Value *> &values) {
    for (const ir::Value *v : values)
      if (!inRegister(v))
        return false;
    return true;
  }

  bool inRegisterUncached(const ir::Op &op, const ir::Value *v) {
    switch (op.code) {
    case OpCode::Constant:
    case OpCode::ProgramId:
    case OpCode::NumPrograms: return true;
    case OpCode::AddPtr:
    case OpCode::Load: return allInRegisters(op.operands);
    case OpCode::For: {
      const ir::Block &body = op.region(0);
      registerArguments_[body.arguments[0]] = true;
      for (size_t i = 0; i < op.results.size(); ++i)
        registerArguments_[body.arguments[1 + i]] = inRegister(op.operands[3 + i]);
      settleRegisters(op);
      return registerArguments_.at(body.arguments[1 + v->index]);
    }
    case OpCode::If:
      return inRegister(op.region(0).ops.back()->operands[v->index]) &&
             inRegister(op.region(1).ops.back()->operands[v->index]);
    case OpCode::Arange:
    case OpCode::Splat:
    case OpCode::Broadcast:
    case OpCode::ExpandDims:
    case OpCode::Reshape:
    case OpCode::Permute:
    case OpCode::Slice:
    case OpCode::Store:
    case OpCode::AtomicRMW:
    case OpCode::Reduce:
    case OpCode::Scan:
    case OpCode::Sort:
    case OpCode::Dot:
    case OpCode::Yield:
    case OpCode::Assert:
    case OpCode::Barrier: return false;
    default: // elementwise (lowerElementwise): a bitcast keeps its operand's form
      return allInRegisters(op.operands);
    }
  }

  /// Whether the lowering holds the tile `v` as a lazy splat (a uniform LazyTile).
  bool lazyUniform(const ir::Value *v) {
    if (!inside_.count(v)) {
      const ValueState &st = outside_(v);
      return st.kind == Kind::Tile && st.lazy && st.lazy->uniform();
    }
    if (v->type.isScalar() || !v->definingOp)
      return false;
    const ir::Op &op = *v->definingOp;
    switch (op.code) {
    case OpCode::Constant: return true;
    case OpCode::Splat:
    case OpCode::Broadcast:
    case OpCode::ExpandDims:
    case OpCode::Reshape:
    case OpCode::Slice:
    case OpCode::Permute: return inRegister(op.operands[0]) || lazyUniform(op.operands[0]);
    default: return false;
    }
  }

  /// Whether `v` is held as the gathered home of `argument` (its index tile,
  /// the init's, with a moved base): the argument advanced by splats.
  bool keepsGather(const ir::Value *v, const ir::Value *argument, const ValueState &init) {
    if (v == argument)
      return true;
    if (!inside_.count(v)) {
      const ValueState &st = outside_(v);
      return st.kind == Kind::Tile && !st.lazy && !st.broadcastOf && st.tile == init.tile;
    }
    const ir::Op *op = v->definingOp;
    if (op && op->code == OpCode::AddPtr)
      return keepsGather(op->operands[0], argument, init) && lazyUniform(op->operands[1]);
    if (op && op->code == OpCode::Bitcast)
      return keepsGather(op->operands[0], argument, init);
    return false;
  }

  /// Whether `v` is held as a lazy affine tile with the strides of `init`
  /// (the affine home of `argument`): the argument advanced by splats, whose
  /// addition keeps each stride when it is already 64-bit (the lowering
  /// widens offsets to i64).
  bool keepsAffine(const ir::Value *v, const ir::Value *argument, const ValueState &init) {
    if (v == argument)
      return true;
    if (!inside_.count(v)) {
      const ValueState &st = outside_(v);
      if (!(st.kind == Kind::Tile && st.lazy && st.lazy->strides.size() == init.lazy->strides.size()))
        return false;
      for (size_t a = 0; a < st.lazy->strides.size(); ++a)
        if (!st.lazy->strides[a].sameOperand(init.lazy->strides[a]))
          return false;
      return true;
    }
    const ir::Op *op = v->definingOp;
    if (op && op->code == OpCode::Bitcast)
      return keepsAffine(op->operands[0], argument, init);
    if (!op || op->code != OpCode::AddPtr || !lazyUniform(op->operands[1]))
      return false;
    for (const Scalar &stride : init.lazy->strides)
      if (!stride.isImmediate() && stride.type != DType::Int64)
        return false;
    return keepsAffine(op->operands[0], argument, init);
  }
};

} // namespace

std::vector<CarriedForm> chooseCarriedForms(const ir::Op &loop, const ValueStateOf &outside) {
  return CarriedFormAnalysis(loop, outside).forms(loop);
}

} // namespace npusim::compiler
