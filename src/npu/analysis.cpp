// timingNeedsValues (execution.h): which programs the timing simulator can
// drive from scalars and addresses alone.
#include "npu/execution.h"

#include <functional>
#include <set>
#include <string>

namespace npusim::npu {
namespace {

void forEach(const std::vector<Instruction> &body, const std::function<void(const Instruction &)> &visit) {
  for (const Instruction &in : body) {
    visit(in);
    forEach(in.body, visit);
    forEach(in.elseBody, visit);
  }
}

std::string describe(const Program &program, const Instruction &in) {
  std::string text = "kernel '" + program.kernelName + "': " + std::string(name(in.opcode));
  if (in.loc.known())
    text += " at " + in.loc.str();
  return text;
}

} // namespace

bool timingNeedsValues(const Program &program, std::string *reason) {
  const Instruction *found = nullptr;
  std::string why;
  forEach(program.body, [&](const Instruction &in) {
    if (!found && (in.opcode == Opcode::DmaLoad || in.opcode == Opcode::DmaStore ||
                   in.opcode == Opcode::DmaAtomic) && in.dma.gathered()) {
      found = &in;
      why = "gathers or scatters through an index tile";
    }
  });
  if (!found) {
    // Registers that hold (or are computed from) a value loaded from DRAM.
    std::set<int> loaded;
    bool changed = true;
    auto usesLoaded = [&](const std::vector<ScalarOperand> &operands) {
      for (const ScalarOperand &s : operands)
        if (s.isRegister() && loaded.count(s.reg))
          return true;
      return false;
    };
    while (changed) {
      changed = false;
      forEach(program.body, [&](const Instruction &in) {
        const bool defines = in.opcode == Opcode::SLoad ||
                             ((in.opcode == Opcode::SMove || in.opcode == Opcode::SElementwise) &&
                              usesLoaded(in.scalars));
        if (defines && in.dstReg >= 0 && loaded.insert(in.dstReg).second)
          changed = true;
      });
    }
    forEach(program.body, [&](const Instruction &in) {
      if (found)
        return;
      const bool steers = in.opcode == Opcode::Loop || in.opcode == Opcode::If;
      const bool addresses = in.opcode == Opcode::SLoad || in.opcode == Opcode::SStore;
      if ((steers || addresses) && usesLoaded(in.opcode == Opcode::SStore
                                                  ? std::vector<ScalarOperand>{in.scalars.at(0)}
                                                  : in.scalars)) {
        found = &in;
        why = steers ? "steers control flow with a value loaded from DRAM"
                     : "addresses DRAM with a value loaded from DRAM";
        return;
      }
      const bool dma = in.opcode == Opcode::DmaLoad || in.opcode == Opcode::DmaStore ||
                       in.opcode == Opcode::DmaAtomic;
      if (dma && (usesLoaded({in.dma.base}) || usesLoaded(in.dma.strides))) {
        found = &in;
        why = "addresses DRAM with a value loaded from DRAM";
      }
    });
  }
  if (found && reason)
    *reason = describe(program, *found) + " " + why;
  return found != nullptr;
}

} // namespace npusim::npu
