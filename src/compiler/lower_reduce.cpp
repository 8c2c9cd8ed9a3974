// Reductions, scans and sorts: in-lane (V*) when the axis is not the lane
// axis, across lanes (X*) when it is. Combine regions become CombinePrograms.
#include "compiler/lowering_internal.h"

#include <unordered_map>

namespace npusim::compiler {

using ir::OpCode;

std::shared_ptr<const npu::CombineProgram> ReduceLowerer::combineProgram(const ir::Block &region) {
  auto program = std::make_shared<npu::CombineProgram>();
  std::unordered_map<int, int> registerOf; // value id -> combine register
  const size_t n = region.arguments.size() / 2;
  for (size_t i = 0; i < region.arguments.size(); ++i) {
    registerOf[region.arguments[i]->id] = static_cast<int>(i);
    if (i < n)
      program->valueTypes.push_back(region.arguments[i]->type.dtype);
  }
  int next = static_cast<int>(region.arguments.size());
  const ir::Op *saved = cx.currentOp;
  for (const auto &opPtr : region.ops) {
    const ir::Op &op = *opPtr;
    cx.currentOp = &op;
    if (op.code == OpCode::Yield) {
      for (const ir::Value *v : op.operands) {
        auto it = registerOf.find(v->id);
        if (it == registerOf.end())
          cx.unsupported("a combine region that yields a value defined outside it");
        program->results.push_back(it->second);
      }
      continue;
    }
    npu::CombineProgram::Step step;
    if (op.code == OpCode::Constant) {
      const ir::Value *r = op.result();
      step.isConstant = true;
      step.constantType = r->type.dtype;
      step.constant = core::isFloat(r->type.dtype) ? ScalarOperand::immediateFloat(op.constant.floatValue)
                                                   : ScalarOperand::immediate(op.constant.intValue);
    } else {
      if (op.results.size() != 1 || !op.regions.empty() || op.result()->type.isTile())
        cx.unsupported(std::string(ir::name(op.code)) + " inside a combine region");
      step.function = cx.elementFunction(op);
      for (const ir::Value *v : op.operands) {
        auto it = registerOf.find(v->id);
        if (it == registerOf.end())
          cx.unsupported("a combine region that reads a value defined outside it");
        step.operands.push_back(it->second);
      }
    }
    program->steps.push_back(std::move(step));
    registerOf[op.result()->id] = next++;
  }
  cx.currentOp = saved;
  return program;
}

void ReduceLowerer::lowerReduce(const ir::Op &op) {
  lowerCombining(op, false);
}

void ReduceLowerer::lowerScan(const ir::Op &op) {
  lowerCombining(op, true);
}

void ReduceLowerer::lowerCombining(const ir::Op &op, bool scan) {
  const ir::Value *first = op.operands[0];
  const int axis = cx.laneAxisOf(first);
  const bool acrossLanes = axis == op.axis;
  // A scan keeps its operands' shape and lane axis; a reduction drops its
  // axis (a scalar result is a [1] tile), and across lanes its result takes
  // the lane axis the `layout` pass gave it.
  const ir::Value *r0 = op.results[0];
  const bool scalar = !scan && r0->type.isScalar();
  int dstAxis = axis;
  if (!scan)
    dstAxis = scalar ? 0 : acrossLanes ? cx.laneAxisOf(r0) : (axis > op.axis ? axis - 1 : axis);
  npu::Instruction instruction;
  for (const ir::Value *v : op.operands)
    instruction.srcs.push_back(cx.tileOf(v, axis));
  for (const ir::Value *r : op.results)
    instruction.dsts.push_back(cx.newTile(r->type.dtype,
                                          scalar ? ir::Shape{1} : (scan ? r->type.shape : r0->type.shape),
                                          dstAxis, cx.nameOf(r)));
  if (op.reduceKind == core::ReduceKind::Combine)
    instruction.combine = combineProgram(op.region(0));
  const npu::Opcode opcode = scan ? (acrossLanes ? npu::Opcode::XScan : npu::Opcode::VScan)
                                  : (acrossLanes ? npu::Opcode::XReduce : npu::Opcode::VReduce);
  npu::Instruction &emitted = cx.emit(opcode);
  emitted.srcs = instruction.srcs;
  emitted.dsts = instruction.dsts;
  emitted.axis = op.axis;
  emitted.reduceKind = op.reduceKind;
  if (scan)
    emitted.reverse = op.reverse;
  emitted.function.nanMode = op.nanMode;
  emitted.function.operandType = first->type.dtype;
  emitted.function.resultType = first->type.dtype;
  emitted.combine = instruction.combine;
  for (size_t i = 0; i < op.results.size(); ++i)
    cx.setTile(op.results[i], instruction.dsts[i]);
}

void ReduceLowerer::lowerSort(const ir::Op &op) {
  const ir::Value *first = op.operands[0];
  const int axis = cx.laneAxisOf(first);
  const bool acrossLanes = axis == op.axis;
  std::vector<int> srcs, dsts;
  for (const ir::Value *v : op.operands)
    srcs.push_back(cx.tileOf(v, axis));
  for (const ir::Value *r : op.results)
    dsts.push_back(cx.newTile(r->type.dtype, r->type.shape, axis, cx.nameOf(r)));
  npu::Instruction &emitted = cx.emit(acrossLanes ? npu::Opcode::XSort : npu::Opcode::VSort);
  emitted.srcs = srcs;
  emitted.dsts = dsts;
  emitted.axis = op.axis;
  emitted.descending = op.descending;
  emitted.stable = op.stable;
  emitted.function.operandType = first->type.dtype;
  emitted.function.resultType = first->type.dtype;
  for (size_t i = 0; i < op.results.size(); ++i)
    cx.setTile(op.results[i], dsts[i]);
}

} // namespace npusim::compiler
