// The scalar unit: register operands, scalar arithmetic and scalar memory
// accesses.
#include "functional/machine.h"

#include <cstring>

namespace npusim::functional::detail {

Scalar Machine::scalar(const npu::ScalarOperand &operand) const {
  if (operand.isRegister()) {
    const Scalar &r = regs_[static_cast<size_t>(operand.reg)];
    if (core::isFloatType(program_.scalarRegs[static_cast<size_t>(operand.reg)].dtype))
      return Scalar{core::floatToInt<DType::Int64>(r.f), r.f};
    return Scalar{r.i, static_cast<double>(r.i)};
  }
  return Scalar{operand.intValue, operand.floatValue};
}

int64_t Machine::scalarInt(const npu::ScalarOperand &operand) const {
  if (operand.isRegister() && core::isFloatType(program_.scalarRegs[static_cast<size_t>(operand.reg)].dtype))
    return core::floatToInt<DType::Int64>(regs_[static_cast<size_t>(operand.reg)].f);
  return scalar(operand).i;
}

Scalar Machine::scalarAs(const npu::ScalarOperand &operand, DType d) const {
  Scalar s = scalar(operand);
  if (core::isFloatType(d)) {
    s.f = core::roundFloatTo(d, s.f);
  } else {
    if (operand.isRegister() &&
        core::isFloatType(program_.scalarRegs[static_cast<size_t>(operand.reg)].dtype))
      s.i = core::floatToInt<DType::Int64>(s.f);
    s.i = d == DType::Bool ? (s.i != 0 ? 1 : 0) : core::wrapIntTo(d, static_cast<uint64_t>(s.i));
  }
  return s;
}

void Machine::scalarUnit(const Instruction &in) {
  const auto regType = [&](int r) { return program_.scalarRegs[static_cast<size_t>(r)].dtype; };
  auto set = [&](const Scalar &v) {
    regs_[static_cast<size_t>(in.dstReg)] = scalarValue(v, regType(in.dstReg));
  };
  switch (in.opcode) {
  case npu::Opcode::SMove: set(scalarAs(in.scalars.at(0), regType(in.dstReg))); return;
  case npu::Opcode::SArgument: {
    const LaunchArgument &a = arguments_[static_cast<size_t>(in.argument)];
    set(Scalar{a.intValue, a.floatValue});
    return;
  }
  case npu::Opcode::SProgramId: set(Scalar{pid_[in.axis], 0.0}); return;
  case npu::Opcode::SNumPrograms: {
    const int64_t sizes[3] = {grid_.x, grid_.y, grid_.z};
    set(Scalar{sizes[in.axis], 0.0});
    return;
  }
  case npu::Opcode::SElementwise: {
    const npu::ElementFunction &f = in.function;
    Scalar operands[3];
    core::ConstSlots slots[3];
    for (int k = 0; k < f.arity(); ++k) {
      const DType d = (f.op == npu::ElementOp::Select && k == 0) ? DType::Bool : f.operandType;
      operands[k] = scalarAs(in.scalars.at(static_cast<size_t>(k)), d);
      slots[k] = core::ConstSlots{&operands[k].f, &operands[k].i};
    }
    Values &result = scratch(0);
    result.define(f.op == npu::ElementOp::Cmp ? DType::Bool : f.resultType, 1);
    apply(f, slots, result, 1);
    set(result.isFloat() ? Scalar{0, result.f[0]} : Scalar{result.i[0], 0.0});
    return;
  }
  case npu::Opcode::SLoad:
  case npu::Opcode::SStore: {
    const Pointer p = pointer(in.argument);
    const int64_t element = scalarInt(in.scalars.at(0));
    const int64_t byte = dramByte(p, element, -1);
    // A buffer without contents (an address-only run, DramBuffer): no address
    // or control depends on what this load reads, so 0 stands for it.
    uint8_t *q = p.buffer->bytes ? p.buffer->bytes->data() + byte : nullptr;
    const DType d = program_.arguments[static_cast<size_t>(in.argument)].dtype;
    const bool write = in.opcode == npu::Opcode::SStore;
    addDram(p.buffer->address + static_cast<uint64_t>(byte), static_cast<uint32_t>(p.elementBytes), write);
    (write ? stats_.dmaBytesWritten : stats_.dmaBytesRead) += p.elementBytes;
    if (!write) {
      uint64_t bits = 0;
      if (q)
        std::memcpy(&bits, q, static_cast<size_t>(p.elementBytes));
      Scalar v;
      core::fromBits(d, bits, v.f, v.i);
      set(v);
    } else if (options_.computeValues && q) {
      const Scalar v = scalarAs(in.scalars.at(1), d);
      const uint64_t bits = core::toBits(d, v.f, v.i);
      std::memcpy(q, &bits, static_cast<size_t>(p.elementBytes));
    }
    current_.elements = 1;
    return;
  }
  default: fail("internal: not a scalar instruction");
  }
}

Scalar scalarValue(const Scalar &v, DType d) {
  if (core::isFloatType(d))
    return Scalar{0, core::roundFloatTo(d, v.f)};
  return Scalar{d == DType::Bool ? (v.i != 0 ? 1 : 0) : core::wrapIntTo(d, static_cast<uint64_t>(v.i)), 0.0};
}

} // namespace npusim::functional::detail
