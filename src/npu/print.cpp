// The text form of a program (docs/npu.md, "Text dump"). Stable: the same
// program gives the same bytes.
#include "npu/program.h"

#include "core/shape.h"

#include <cstdio>
#include <sstream>

namespace npusim::npu {
namespace {

std::string hex(int64_t v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "0x%llx", static_cast<unsigned long long>(v));
  return buffer;
}

std::string number(double v) {
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.17g", v);
  return buffer;
}

class Printer {
public:
  explicit Printer(const Program &program) : p_(program) {}

  std::string run() {
    out_ << "npu.program @" << p_.kernelName << " lanes=" << p_.lanes << " bank=" << p_.spadBytesPerLane
         << " spad_used=" << p_.spadBytesUsed << " instance_stride=" << p_.instanceBankStride << "\n";
    if (!p_.blockSizes.empty()) {
      out_ << "blocks:";
      for (const auto &[blockName, size] : p_.blockSizes)
        out_ << " " << blockName << "=" << size;
      out_ << "\n";
    }
    out_ << "arguments:\n";
    for (size_t a = 0; a < p_.arguments.size(); ++a) {
      const Argument &arg = p_.arguments[a];
      out_ << "  a" << a << " " << arg.name << ": " << (arg.isPointer ? "*" : "")
           << core::tritonName(arg.dtype) << "\n";
    }
    out_ << "registers:\n";
    for (size_t r = 0; r < p_.scalarRegs.size(); ++r)
      out_ << "  r" << r << " " << p_.scalarRegs[r].name << ": " << core::tritonName(p_.scalarRegs[r].dtype)
           << "\n";
    out_ << "tiles:\n";
    for (size_t t = 0; t < p_.tiles.size(); ++t) {
      const Tile &tile = p_.tiles[t];
      out_ << "  t" << t << " " << tile.name << ": " << core::tritonName(tile.layout.dtype)
           << core::shapeString(tile.layout.shape) << " lane_axis=" << tile.layout.laneAxis << " bank" << range(static_cast<int>(t)) << "\n";
    }
    out_ << "body:\n";
    body(p_.body, 1);
    return out_.str();
  }

private:
  std::string range(int t) const {
    if (t < 0 || t >= static_cast<int>(p_.tiles.size()))
      return "[?]";
    const Tile &tile = p_.tiles[static_cast<size_t>(t)];
    return "[" + hex(tile.bankOffset) + "," + hex(tile.bankOffset + tile.layout.bytesPerLane(p_.lanes)) + ")";
  }

  static std::string scalar(const ScalarOperand &s) {
    if (s.isRegister())
      return "r" + std::to_string(s.reg);
    if (s.intValue == 0 && s.floatValue != 0.0)
      return number(s.floatValue);
    return std::to_string(s.intValue);
  }

  static std::string function(const ElementFunction &f) {
    std::string text(name(f.op));
    if (f.op == ElementOp::Math)
      text += "." + std::string(core::name(f.mathFn));
    if (f.op == ElementOp::Cmp)
      text += "." + std::string(core::name(f.predicate));
    text += " " + std::string(core::tritonName(f.operandType));
    if (f.op == ElementOp::Cast || f.op == ElementOp::Bitcast)
      text += "->" + std::string(core::tritonName(f.resultType));
    if ((f.op == ElementOp::Min || f.op == ElementOp::Max) && f.nanMode == core::NanMode::Propagate)
      text += " propagate_nan";
    return text;
  }

  static std::string tiles(const std::vector<int> &list) {
    std::string text;
    for (size_t k = 0; k < list.size(); ++k)
      text += (k ? ", t" : "t") + std::to_string(list[k]);
    return text;
  }

  std::string scalars(const std::vector<ScalarOperand> &list) const {
    std::string text;
    for (size_t k = 0; k < list.size(); ++k)
      text += (k ? ", " : "") + scalar(list[k]);
    return text;
  }

  std::string operation(const Instruction &in) const {
    std::ostringstream s;
    const std::string dst = "r" + std::to_string(in.dstReg);
    switch (in.opcode) {
    case Opcode::SMove: s << dst << " = s.move " << scalars(in.scalars); break;
    case Opcode::SArgument: s << dst << " = s.argument a" << in.argument; break;
    case Opcode::SProgramId: s << dst << " = s.program_id " << in.axis; break;
    case Opcode::SNumPrograms: s << dst << " = s.num_programs " << in.axis; break;
    case Opcode::SElementwise: s << dst << " = s." << function(in.function) << " " << scalars(in.scalars); break;
    case Opcode::SLoad: s << dst << " = s.load a" << in.argument << "[" << scalars(in.scalars) << "]"; break;
    case Opcode::SStore:
      s << "s.store a" << in.argument << "[" << scalar(in.scalars.at(0)) << "] <- " << scalar(in.scalars.at(1));
      break;
    case Opcode::DmaLoad:
    case Opcode::DmaStore:
    case Opcode::DmaAtomic: {
      s << name(in.opcode);
      if (in.opcode == Opcode::DmaAtomic)
        s << "." << core::name(in.dma.atomic);
      if (!in.dsts.empty())
        s << " " << tiles(in.dsts) << " <-";
      s << " a" << in.dma.argument << "[" << scalar(in.dma.base);
      if (in.dma.gathered())
        s << " + t" << in.dma.indexTile << "[i]";
      else
        for (size_t a = 0; a < in.dma.strides.size(); ++a)
          s << " + " << scalar(in.dma.strides[a]) << "*i" << a;
      s << "]";
      if (!in.srcs.empty())
        s << " <- " << tiles(in.srcs);
      if (in.dma.maskTile >= 0)
        s << " mask t" << in.dma.maskTile;
      if (in.dma.clipped()) {
        s << " clip [";
        for (size_t a = 0; a < in.dma.clipHigh.size(); ++a)
          s << (a ? ", " : "") << scalar(in.dma.clipLow[a]) << ":" << scalar(in.dma.clipHigh[a]);
        s << "]";
      }
      if (in.opcode == Opcode::DmaLoad && in.dma.masked())
        s << " fill " << scalar(in.dma.fill);
      break;
    }
    case Opcode::VSplat: s << "v.splat " << tiles(in.dsts) << " <- " << scalars(in.scalars); break;
    case Opcode::VIota: s << "v.iota " << tiles(in.dsts) << " <- " << scalars(in.scalars); break;
    case Opcode::VElementwise: s << "v." << function(in.function) << " " << tiles(in.dsts) << " <- " << tiles(in.srcs); break;
    case Opcode::VReduce:
    case Opcode::VScan:
    case Opcode::XReduce:
    case Opcode::XScan:
      s << name(in.opcode) << "." << core::name(in.reduceKind) << " axis=" << in.axis;
      if (in.function.nanMode == core::NanMode::Propagate)
        s << " propagate_nan";
      if (in.reverse)
        s << " reverse";
      s << " " << tiles(in.dsts) << " <- " << tiles(in.srcs);
      break;
    case Opcode::VSort:
    case Opcode::XSort:
      s << name(in.opcode) << " axis=" << in.axis << (in.descending ? " descending" : "")
        << (in.stable ? " stable" : "") << " " << tiles(in.dsts) << " <- " << tiles(in.srcs);
      break;
    case Opcode::XRelayout:
      s << "x.relayout";
      if (!in.permutation.empty()) {
        s << " perm=";
        for (size_t a = 0; a < in.permutation.size(); ++a)
          s << (a ? "," : "") << in.permutation[a];
      }
      s << " " << tiles(in.dsts) << " <- " << tiles(in.srcs);
      break;
    case Opcode::VBroadcast:
    case Opcode::XBroadcast: s << name(in.opcode) << " " << tiles(in.dsts) << " <- " << tiles(in.srcs); break;
    case Opcode::MLoadWeights:
      s << "m.load_weights array=" << in.array << " k=" << in.kBlock << " n=" << in.nBlock << " <- "
        << tiles(in.srcs);
      if (!in.scalars.empty())
        s << " columns < " << scalars(in.scalars);
      break;
    case Opcode::MMatmul:
      s << "m.matmul array=" << in.array << " k=" << in.kBlock << " n=" << in.nBlock << " "
        << core::name(in.precision) << (in.accumulate ? " accumulate " : " ") << tiles(in.dsts) << " <- "
        << tiles(in.srcs);
      if (!in.scalars.empty())
        s << " rows < " << scalars({in.scalars[0]});
      if (in.scalars.size() > 1)
        s << " columns < " << scalars({in.scalars[1]});
      break;
    case Opcode::Loop: s << "loop r" << in.dstReg << " = " << scalars(in.scalars); break;
    case Opcode::If: s << "if " << scalars(in.scalars); break;
    case Opcode::Barrier: s << "barrier"; break;
    case Opcode::Assert:
      s << "assert " << (in.srcs.empty() ? scalars(in.scalars) : tiles(in.srcs)) << " \"" << in.message << "\"";
      break;
    }
    return s.str();
  }

  void instruction(const Instruction &in, int depth) {
    const std::string indent(static_cast<size_t>(depth) * 2, ' ');
    out_ << indent << operation(in);
    const std::vector<int> reads = readTiles(in), writes = writtenTiles(in);
    if (!reads.empty() || !writes.empty()) {
      out_ << "   ;";
      if (!reads.empty()) {
        out_ << " reads";
        for (int t : reads)
          out_ << " t" << t << range(t);
      }
      if (!writes.empty()) {
        out_ << " writes";
        for (int t : writes)
          out_ << " t" << t << range(t);
      }
    }
    if (in.loc.known())
      out_ << (reads.empty() && writes.empty() ? "   ; " : " ") << "@" << in.loc.str();
    if (in.opcode == Opcode::Loop || in.opcode == Opcode::If) {
      out_ << " {\n";
      body(in.body, depth + 1);
      if (in.opcode == Opcode::If && !in.elseBody.empty()) {
        out_ << indent << "} else {\n";
        body(in.elseBody, depth + 1);
      }
      out_ << indent << "}";
    }
    out_ << "\n";
  }

  void body(const std::vector<Instruction> &instructions, int depth) {
    for (const Instruction &in : instructions)
      instruction(in, depth);
  }

  const Program &p_;
  std::ostringstream out_;
};

} // namespace

std::string print(const Program &program) { return Printer(program).run(); }

} // namespace npusim::npu
