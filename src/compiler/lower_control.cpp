// Structured control flow (docs/compiler.md "Control flow"). A for loop becomes
// a Loop whose induction variable is a scalar register; each carried value
// gets a fixed home (a register, a tile, or for a pointer tile advanced by a
// scalar each iteration an affine form whose base register is the home),
// chosen before the loop from its init and what its body yields
// (carried_forms.cpp); the inits are copied there before the loop and the
// yielded values at the end of the body, as one parallel copy. An if becomes
// an If whose branches copy their yielded values into the result homes.
#include "compiler/lowering_internal.h"

#include <set>
#include <stdexcept>

namespace npusim::compiler {

using Kind = ValueState::Kind;

void ControlLowerer::assignCarried(const std::vector<const ir::Value *> &sources,
                                   const std::vector<ValueState> &targets,
                                   const std::vector<CarriedForm> &forms) {
  // What the copies write, to find sources that an earlier copy would clobber.
  std::set<int> writtenRegs, writtenRoots;
  for (size_t i = 0; i < targets.size(); ++i) {
    if (forms[i] == CarriedForm::Register)
      writtenRegs.insert(targets[i].scalar.operand.reg);
    else if (forms[i] == CarriedForm::AffinePointer)
      writtenRegs.insert(targets[i].lazy->base.operand.reg);
    else if (forms[i] == CarriedForm::GatherPointer)
      writtenRegs.insert(targets[i].gatherBase.operand.reg);
    else
      writtenRoots.insert(cx.storageRoot.at(targets[i].tile));
  }
  auto readsWritten = [&](const ValueState &st) {
    if (st.kind == Kind::Scalar)
      return !st.scalar.isImmediate() && writtenRegs.count(st.scalar.operand.reg) > 0;
    if (st.lazy) {
      if (!st.lazy->base.isImmediate() && writtenRegs.count(st.lazy->base.operand.reg))
        return true;
      for (const Scalar &stride : st.lazy->strides)
        if (!stride.isImmediate() && writtenRegs.count(stride.operand.reg))
          return true;
      return false;
    }
    if (!st.gatherBase.isImmediate() && writtenRegs.count(st.gatherBase.operand.reg))
      return true;
    return st.tile >= 0 && writtenRoots.count(cx.storageRoot.at(st.tile)) > 0;
  };
  auto isOwnHome = [&](const ValueState &st, size_t i) {
    const ValueState &t = targets[i];
    switch (forms[i]) {
    case CarriedForm::Register: return st.kind == Kind::Scalar && st.scalar.sameOperand(t.scalar);
    case CarriedForm::AffinePointer: return st.lazy && st.lazy->base.sameOperand(t.lazy->base);
    case CarriedForm::GatherPointer:
      return !st.lazy && st.tile == t.tile && st.gatherBase.sameOperand(t.gatherBase);
    default: return st.tile >= 0 && !st.lazy && !st.hasGatherBase() && st.tile == t.tile;
    }
  };

  // Stage 0: pending broadcasts are done before any home changes.
  for (size_t i = 0; i < sources.size(); ++i)
    if (cx.state(sources[i]).broadcastOf &&
        (forms[i] == CarriedForm::Tile || forms[i] == CarriedForm::ScalarTile))
      cx.tileOf(sources[i], cx.tiles.at(targets[i].tile).layout.laneAxis);

  // Stage 1: sources that another copy overwrites move to temporaries first.
  std::vector<ValueState> staged(sources.size());
  std::vector<bool> skip(sources.size(), false), wasStaged(sources.size(), false);
  for (size_t i = 0; i < sources.size(); ++i) {
    const ValueState &st = cx.state(sources[i]);
    staged[i] = st;
    if (isOwnHome(st, i)) {
      skip[i] = true;
      continue;
    }
    if (!readsWritten(st))
      continue;
    const ir::Value *v = sources[i];
    wasStaged[i] = true;
    if (st.kind == Kind::Scalar) {
      const int reg = cx.newRegister(st.scalar.type, "tmp");
      npu::Instruction &move = cx.emit(npu::Opcode::SMove);
      move.dstReg = reg;
      move.scalars = {st.scalar.operand};
      staged[i].scalar.operand = ScalarOperand::ofRegister(reg);
    } else if (forms[i] == CarriedForm::GatherPointer) {
      const int reg = cx.newRegister(DType::Int64, "tmp");
      npu::Instruction &move = cx.emit(npu::Opcode::SMove);
      move.dstReg = reg;
      move.scalars = {st.gatherBase.operand};
      staged[i].gatherBase = Scalar{ScalarOperand::ofRegister(reg), DType::Int64};
    } else if (st.lazy && forms[i] == CarriedForm::AffinePointer) {
      const int reg = cx.newRegister(DType::Int64, "tmp");
      npu::Instruction &move = cx.emit(npu::Opcode::SMove);
      move.dstReg = reg;
      move.scalars = {st.lazy->base.operand};
      staged[i].lazy->base = Scalar{ScalarOperand::ofRegister(reg), DType::Int64};
    } else {
      const int axis = v->type.isScalar() ? 0 : cx.tiles.at(targets[i].tile).layout.laneAxis;
      const int src = v->type.isScalar() ? cx.scalarTileOf(v) : cx.tileOf(v, axis);
      const npu::TileLayout layout = cx.tiles.at(src).layout;
      const int tmp = cx.newTile(layout.dtype, layout.shape, layout.laneAxis, "tmp");
      cx.copyTile(src, tmp);
      staged[i].kind = v->type.isScalar() ? Kind::ScalarTile : Kind::Tile;
      staged[i].tile = tmp;
      staged[i].lazy.reset();
    }
  }

  // Stage 2: the copies into the homes.
  for (size_t i = 0; i < sources.size(); ++i) {
    if (skip[i])
      continue;
    const ValueState &st = staged[i];
    const ValueState &t = targets[i];
    const ir::Value *v = sources[i];
    switch (forms[i]) {
    case CarriedForm::Register: {
      npu::Instruction &move = cx.emit(npu::Opcode::SMove);
      move.dstReg = t.scalar.operand.reg;
      move.scalars = {st.scalar.operand};
      break;
    }
    case CarriedForm::AffinePointer: {
      npu::Instruction &move = cx.emit(npu::Opcode::SMove);
      move.dstReg = t.lazy->base.operand.reg;
      move.scalars = {st.lazy->base.operand};
      break;
    }
    case CarriedForm::GatherPointer: {
      npu::Instruction &move = cx.emit(npu::Opcode::SMove);
      move.dstReg = t.gatherBase.operand.reg;
      move.scalars = {st.gatherBase.operand};
      break;
    }
    case CarriedForm::ScalarTile:
    case CarriedForm::Tile: {
      if (st.kind == Kind::Scalar || (st.kind == Kind::Tile && st.lazy)) {
        LazyTile lazy =
            st.kind == Kind::Scalar ? LazyTile{st.scalar, {cx.immediate(DType::Int64, 0)}} : *st.lazy;
        const npu::TileLayout &layout = cx.tiles.at(t.tile).layout;
        if (lazy.strides.size() != layout.shape.size())
          lazy.strides.assign(layout.shape.size(), cx.immediate(DType::Int64, 0));
        npu::Instruction &fill = cx.emit(lazy.uniform() ? npu::Opcode::VSplat : npu::Opcode::VIota);
        fill.dsts = {t.tile};
        fill.scalars.push_back(lazy.base.operand);
        if (!lazy.uniform())
          for (const Scalar &stride : lazy.strides)
            fill.scalars.push_back(stride.operand);
        break;
      }
      int src = st.tile;
      if (!wasStaged[i]) // the value in the home's layout
        src = v->type.isScalar() ? cx.scalarTileOf(v) : cx.tileOf(v, cx.tiles.at(t.tile).layout.laneAxis);
      cx.copyTile(src, t.tile);
      break;
    }
    }
  }
}

void ControlLowerer::stretchBroadcastsBefore(const ir::Op &loop) {
  // A broadcast is done where a user asks for it (docs/compiler.md, "Values");
  // a user in the body would stretch it again in every iteration.
  std::set<const ir::Value *> inside;
  std::vector<const ir::Value *> used;
  auto scan = [&](auto &self, const ir::Block &block) -> void {
    inside.insert(block.arguments.begin(), block.arguments.end());
    for (const auto &inner : block.ops) {
      used.insert(used.end(), inner->operands.begin(), inner->operands.end());
      inside.insert(inner->results.begin(), inner->results.end());
      for (const auto &region : inner->regions)
        self(self, *region);
    }
  };
  for (const auto &region : loop.regions)
    scan(scan, *region);
  for (const ir::Value *v : used) {
    if (inside.count(v) || v->type.isScalar())
      continue;
    const ValueState &st = cx.state(v);
    if (st.kind == ValueState::Kind::Tile && st.tile < 0 && !st.lazy && st.broadcastOf)
      cx.tileOf(v, cx.laneAxisOf(v));
  }
}

void ControlLowerer::lowerFor(const ir::Op &op) {
  stretchBroadcastsBefore(op);
  const std::vector<CarriedForm> forms =
      chooseCarriedForms(op, [this](const ir::Value *v) -> const ValueState & { return cx.state(v); });
  const size_t n = op.results.size();
  const Scalar lower = cx.scalarOf(op.operands[0]);
  const Scalar upper = cx.scalarOf(op.operands[1]);
  const Scalar step = cx.scalarOf(op.operands[2]);
  if (step.isImmediate() && step.operand.intValue == 0)
    cx.unsupported("a for loop whose step is 0");
  cx.currentOp = &op;
  std::vector<ValueState> homes(n);
  std::vector<const ir::Value *> inits;
  for (size_t i = 0; i < n; ++i) {
    const ir::Value *init = op.operands[3 + i];
    const ir::Value *result = op.results[i];
    inits.push_back(init);
    ValueState &home = homes[i];
    home.argument = cx.state(init).argument;
    const DType type = result->type.isPointer ? DType::Int64 : result->type.dtype;
    switch (forms[i]) {
    case CarriedForm::Register:
      home.kind = Kind::Scalar;
      home.scalar = Scalar{ScalarOperand::ofRegister(cx.newRegister(type, cx.nameOf(result))), type};
      break;
    case CarriedForm::ScalarTile:
      home.kind = Kind::ScalarTile;
      home.tile = cx.newTile(type, {1}, 0, cx.nameOf(result));
      break;
    case CarriedForm::Tile:
      home.kind = Kind::Tile;
      home.tile = cx.newTile(type, result->type.shape, cx.laneAxisOf(result), cx.nameOf(result));
      break;
    case CarriedForm::AffinePointer:
      home.kind = Kind::Tile;
      home.lazy = *cx.state(init).lazy;
      home.lazy->base =
          Scalar{ScalarOperand::ofRegister(cx.newRegister(DType::Int64, cx.nameOf(result))), DType::Int64};
      break;
    case CarriedForm::GatherPointer:
      // The index tile is the init's and never changes; only the base moves.
      home.kind = Kind::Tile;
      home.tile = cx.state(init).tile;
      home.gatherBase =
          Scalar{ScalarOperand::ofRegister(cx.newRegister(DType::Int64, cx.nameOf(result))), DType::Int64};
      break;
    }
  }
  assignCarried(inits, homes, forms);

  const ir::Block &body = op.region(0);
  const DType ivType = op.operands[0]->type.dtype;
  const int iv = cx.newRegister(ivType, cx.nameOf(body.arguments[0]));
  std::vector<npu::Instruction> bodyCode;
  std::vector<npu::Instruction> *outer = cx.out;
  cx.out = &bodyCode;
  cx.enterScope();
  cx.setScalar(body.arguments[0], Scalar{ScalarOperand::ofRegister(iv), ivType});
  for (size_t i = 0; i < n; ++i) {
    cx.state(body.arguments[i + 1]) = homes[i];
    if (homes[i].tile >= 0 && !homes[i].hasGatherBase())
      cx.setTile(body.arguments[i + 1], homes[i].tile);
  }
  lowerBlock(body);
  const ir::Op &yield = *body.ops.back();
  std::vector<const ir::Value *> yielded(yield.operands.begin(), yield.operands.end());
  for (size_t i = 0; i < n; ++i) {
    const ValueState &y = cx.state(yielded[i]);
    if (op.results[i]->type.isPointer && y.argument != homes[i].argument)
      cx.unsupported("a loop-carried pointer that moves to another argument");
    bool fits = true;
    if (forms[i] == CarriedForm::Register)
      fits = y.kind == Kind::Scalar;
    if (forms[i] == CarriedForm::GatherPointer)
      fits = y.kind == Kind::Tile && !y.lazy && !y.broadcastOf && y.tile == homes[i].tile;
    if (forms[i] == CarriedForm::AffinePointer) {
      fits = y.kind == Kind::Tile && y.lazy && y.lazy->strides.size() == homes[i].lazy->strides.size();
      for (size_t a = 0; fits && a < y.lazy->strides.size(); ++a)
        fits = y.lazy->strides[a].sameOperand(homes[i].lazy->strides[a]);
    }
    if (!fits) // chooseCarriedForms answers "fits" only where it is sure
      throw std::logic_error("the home chosen for carried value " + cx.nameOf(op.results[i]) +
                             " cannot hold what the loop body yields");
  }
  cx.currentOp = &yield;
  assignCarried(yielded, homes, forms);
  cx.currentOp = &op;
  cx.leaveScope();
  cx.out = outer;
  npu::Instruction &loop = cx.emit(npu::Opcode::Loop);
  loop.dstReg = iv;
  loop.scalars = {lower.operand, upper.operand, step.operand};
  loop.body = std::move(bodyCode);
  for (size_t i = 0; i < n; ++i) {
    cx.state(op.results[i]) = homes[i];
    if (homes[i].tile >= 0 && !homes[i].hasGatherBase())
      cx.setTile(op.results[i], homes[i].tile);
  }
}

void ControlLowerer::lowerIf(const ir::Op &op) {
  const Scalar cond = cx.scalarOf(op.operands[0]);
  const size_t n = op.results.size();
  std::vector<npu::Instruction> branches[2];
  std::vector<npu::Instruction> *outer = cx.out;
  for (int b = 0; b < 2; ++b) {
    cx.out = &branches[b];
    cx.enterScope();
    lowerBlock(op.region(b));
    cx.leaveScope();
  }
  // The result homes, from what the branches yield.
  std::vector<CarriedForm> forms(n);
  std::vector<ValueState> homes(n);
  for (size_t i = 0; i < n; ++i) {
    const ir::Value *result = op.results[i];
    const ValueState &a = cx.state(op.region(0).ops.back()->operands[i]);
    const ValueState &b = cx.state(op.region(1).ops.back()->operands[i]);
    if (result->type.isPointer && a.argument != b.argument)
      cx.unsupported("an if whose branches yield pointers into different arguments");
    const DType type = result->type.isPointer ? DType::Int64 : result->type.dtype;
    ValueState &home = homes[i];
    home.argument = a.argument;
    if (result->type.isScalar() && a.kind == Kind::Scalar && b.kind == Kind::Scalar) {
      forms[i] = CarriedForm::Register;
      home.kind = Kind::Scalar;
      home.scalar = Scalar{ScalarOperand::ofRegister(cx.newRegister(type, cx.nameOf(result))), type};
    } else if (result->type.isScalar()) {
      forms[i] = CarriedForm::ScalarTile;
      home.kind = Kind::ScalarTile;
      home.tile = cx.newTile(type, {1}, 0, cx.nameOf(result));
    } else {
      forms[i] = CarriedForm::Tile;
      home.kind = Kind::Tile;
      home.tile = cx.newTile(type, result->type.shape, cx.laneAxisOf(result), cx.nameOf(result));
    }
  }
  for (int b = 0; b < 2; ++b) {
    cx.out = &branches[b];
    cx.enterScope();
    const ir::Op &yield = *op.region(b).ops.back();
    cx.currentOp = &yield;
    assignCarried(std::vector<const ir::Value *>(yield.operands.begin(), yield.operands.end()), homes, forms);
    cx.currentOp = &op;
    cx.leaveScope();
  }
  cx.out = outer;
  npu::Instruction &branch = cx.emit(npu::Opcode::If);
  branch.scalars = {cond.operand};
  branch.body = std::move(branches[0]);
  branch.elseBody = std::move(branches[1]);
  for (size_t i = 0; i < n; ++i) {
    cx.state(op.results[i]) = homes[i];
    if (homes[i].tile >= 0)
      cx.setTile(op.results[i], homes[i].tile);
  }
}

void ControlLowerer::lowerAssert(const ir::Op &op) {
  const ir::Value *cond = op.operands[0];
  if (cond->type.isScalar() && cx.state(cond).kind == ValueState::Kind::Scalar) {
    const Scalar c = cx.scalarOf(cond);
    cx.emit(npu::Opcode::Assert).scalars = {c.operand};
  } else {
    const int tile = cond->type.isScalar() ? cx.scalarTileOf(cond) : cx.tileOf(cond, cx.laneAxisOf(cond));
    cx.emit(npu::Opcode::Assert).srcs = {tile};
  }
  cx.out->back().message = op.message;
}

void ControlLowerer::lowerBarrier() {
  cx.emit(npu::Opcode::Barrier);
}

} // namespace npusim::compiler
