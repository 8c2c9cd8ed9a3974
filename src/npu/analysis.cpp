// timingNeedsValues (execution.h): which programs the timing simulator can
// drive from scalars and addresses alone.
#include "npu/execution.h"

#include <cstdint>
#include <functional>
#include <map>
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

// A forward dataflow to a fixpoint: a tile or register is "loaded" when it holds,
// or was computed from, a value read from DRAM (a DMA load, a scalar load, the
// old values of an atomic); it carries the set of pointer arguments the values
// came from (a bit each; arguments past 63 share the top bit, so that set then
// means "all of them"). Then each instruction that forms an address, steers
// control or asserts is classified by whether its operands are loaded.
ValueNeed timingValueNeed(const Program &program, std::string *reason, std::vector<int> *arguments) {
  using Sources = uint64_t;
  auto bit = [](int argument) { return Sources{1} << (argument < 63 ? argument : 63); };
  std::map<int, Sources> tiles, regs;
  auto regSources = [&](const ScalarOperand &s) -> Sources {
    if (!s.isRegister())
      return 0;
    auto it = regs.find(s.reg);
    return it == regs.end() ? 0 : it->second;
  };
  auto scalarSources = [&](const std::vector<ScalarOperand> &operands) {
    Sources s = 0;
    for (const ScalarOperand &o : operands)
      s |= regSources(o);
    return s;
  };
  auto tileSources = [&](const std::vector<int> &ids) {
    Sources s = 0;
    for (int t : ids)
      if (auto it = tiles.find(t); it != tiles.end())
        s |= it->second;
    return s;
  };
  bool changed = true;
  while (changed) {
    changed = false;
    forEach(program.body, [&](const Instruction &in) {
      Sources s = tileSources(readTiles(in)) | scalarSources(in.scalars);
      const bool loads = in.opcode == Opcode::DmaLoad || in.opcode == Opcode::DmaAtomic;
      if (loads && in.dma.argument >= 0)
        s |= bit(in.dma.argument);
      if (in.opcode == Opcode::SLoad && in.argument >= 0)
        s |= bit(in.argument);
      if (s == 0)
        return;
      auto merge = [&](Sources &into) {
        if ((into | s) != into) {
          into |= s;
          changed = true;
        }
      };
      for (int t : writtenTiles(in))
        merge(tiles[t]);
      if (in.dstReg >= 0 && in.opcode != Opcode::Loop)
        merge(regs[in.dstReg]);
    });
  }
  // The tiles an address-only run computes (docs/npu.md §7): written only by
  // vector and cross-lane instructions that read only such tiles. A greatest
  // fixpoint: every tile starts computable and loses it through a writer.
  std::set<int> notComputable;
  changed = true;
  while (changed) {
    changed = false;
    forEach(program.body, [&](const Instruction &in) {
      const Unit unit = unitOf(in.opcode);
      bool computes = unit == Unit::Vector || unit == Unit::CrossLane;
      for (int t : readTiles(in))
        computes = computes && !notComputable.count(t);
      if (!computes)
        for (int t : writtenTiles(in))
          changed = notComputable.insert(t).second || changed;
    });
  }
  ValueNeed need = ValueNeed::None;
  Sources needed = 0;
  std::string why;
  auto raise = [&](ValueNeed level, Sources from, const Instruction &in, const std::string &what) {
    needed |= from;
    if (level > need) {
      need = level;
      why = describe(program, in) + " " + what;
    }
  };
  forEach(program.body, [&](const Instruction &in) {
    switch (in.opcode) {
    case Opcode::Loop:
    case Opcode::If:
      if (Sources s = scalarSources(in.scalars))
        raise(ValueNeed::LoadedValues, s, in, "steers control flow with a value loaded from DRAM");
      break;
    case Opcode::SLoad:
    case Opcode::SStore:
      if (Sources s = in.scalars.empty() ? 0 : regSources(in.scalars.at(0)))
        raise(ValueNeed::LoadedValues, s, in, "addresses DRAM with a value loaded from DRAM");
      break;
    case Opcode::DmaLoad:
    case Opcode::DmaStore:
    case Opcode::DmaAtomic: {
      Sources s = regSources(in.dma.base) | scalarSources(in.dma.strides);
      if (in.dma.gathered())
        s |= tileSources({in.dma.indexTile});
      if (s)
        raise(ValueNeed::LoadedValues, s, in, "addresses DRAM with a value loaded from DRAM");
      else if (Sources m = (in.dma.maskTile >= 0 ? tileSources({in.dma.maskTile}) : 0) |
                           scalarSources(in.dma.clipLow) | scalarSources(in.dma.clipHigh))
        raise(ValueNeed::LoadedValues, m, in, "masks a transfer with a value loaded from DRAM");
      else if (in.dma.gathered() && notComputable.count(in.dma.indexTile))
        raise(ValueNeed::OwnValues, 0, in,
              "gathers or scatters through an index tile computed from program ids outside the vector units");
      break;
    }
    case Opcode::Assert:
      if (Sources s = tileSources(in.srcs) | scalarSources(in.scalars))
        raise(ValueNeed::LoadedValues, s, in, "asserts on a value loaded from DRAM");
      else
        raise(ValueNeed::OwnValues, 0, in, "asserts on values it computes");
      break;
    default: break;
    }
  });
  if (need != ValueNeed::None && reason)
    *reason = why;
  if (arguments) {
    arguments->clear();
    for (int a = 0; a < static_cast<int>(program.arguments.size()); ++a)
      if (needed & bit(a))
        arguments->push_back(a);
  }
  return need;
}

bool timingNeedsValues(const Program &program, std::string *reason) {
  return timingValueNeed(program, reason) != ValueNeed::None;
}

} // namespace npusim::npu
