// Structural checks of a program (validate in program.h).
#include "npu/layout.h"
#include "npu/program.h"

#include <string>

namespace npusim::npu {
namespace {

class Validator {
public:
  explicit Validator(const Program &program) : program_(program) {}

  void run() {
    if (program_.lanes <= 0)
      programError("lanes must be positive, not " + std::to_string(program_.lanes));
    if (program_.spadBytesPerLane <= 0)
      programError("the bank size must be positive");
    for (size_t t = 0; t < program_.tiles.size(); ++t)
      checkTile(static_cast<int>(t));
    body(program_.body);
  }

private:
  [[noreturn]] void programError(const std::string &message) const {
    throw core::CompileError({}, "NPU program '" + program_.kernelName + "': " + message);
  }
  [[noreturn]] void fail(const std::string &message) const {
    throw core::CompileError(current_->loc, "NPU program '" + program_.kernelName + "', instruction #" +
                                                std::to_string(position_) + " " +
                                                std::string(name(current_->opcode)) + ": " + message);
  }

  void checkTile(int t) const {
    const Tile &tile = program_.tiles[static_cast<size_t>(t)];
    const TileLayout &l = tile.layout;
    const std::string what = "tile t" + std::to_string(t) + " (" + tile.name + ")";
    if (l.rank() < 1 || l.rank() > 4)
      programError(what + " has rank " + std::to_string(l.rank()) + " (1 to 4 allowed)");
    for (int64_t extent : l.shape)
      if (extent < 1)
        programError(what + " has an empty axis");
    if (l.laneAxis < 0 || l.laneAxis >= l.rank())
      programError(what + " has lane axis " + std::to_string(l.laneAxis) + " outside its rank");
    if (tile.bankOffset < 0 || tile.bankOffset + l.bytesPerLane(program_.lanes) > program_.spadBytesPerLane)
      programError(what + " occupies bank bytes [" + std::to_string(tile.bankOffset) + ", " +
                   std::to_string(tile.bankOffset + l.bytesPerLane(program_.lanes)) +
                   ") outside the bank of " + std::to_string(program_.spadBytesPerLane) + " bytes");
  }

  const TileLayout &layout(int t) const { return program_.tiles[static_cast<size_t>(t)].layout; }

  void tileIndex(int t, const char *role) const {
    if (t < 0 || t >= static_cast<int>(program_.tiles.size()))
      fail(std::string(role) + " tile index " + std::to_string(t) + " out of range");
  }
  void reg(int r, const char *role) const {
    if (r < 0 || r >= static_cast<int>(program_.scalarRegs.size()))
      fail(std::string(role) + " register " + std::to_string(r) + " out of range");
  }
  void scalar(const ScalarOperand &s) const {
    if (s.isRegister())
      reg(s.reg, "scalar operand");
  }
  void counts(size_t dsts, size_t srcs, size_t scalars) const {
    if (current_->dsts.size() != dsts || current_->srcs.size() != srcs || current_->scalars.size() < scalars)
      fail("expects " + std::to_string(dsts) + " destination and " + std::to_string(srcs) +
           " source tiles and " + std::to_string(scalars) + " scalars");
  }
  void sameShape(int a, int b) const {
    if (layout(a).shape != layout(b).shape)
      fail("tiles t" + std::to_string(a) + " and t" + std::to_string(b) + " differ in shape");
  }
  void dtypeIs(int t, DType d) const {
    if (layout(t).dtype != d)
      fail("tile t" + std::to_string(t) + " must be " + std::string(core::tritonName(d)));
  }
  void pointerArgument(int a) const {
    if (a < 0 || a >= static_cast<int>(program_.arguments.size()) ||
        !program_.arguments[static_cast<size_t>(a)].isPointer)
      fail("argument " + std::to_string(a) + " is not a pointer argument");
  }
  void axisOf(int t, int axis) const {
    if (axis < 0 || axis >= layout(t).rank())
      fail("axis " + std::to_string(axis) + " outside tile t" + std::to_string(t) + "'s rank");
  }

  void dma(const Instruction &in) const {
    pointerArgument(in.dma.argument);
    scalar(in.dma.base);
    scalar(in.dma.fill);
    const int data = in.opcode == Opcode::DmaLoad ? in.dsts.at(0) : in.srcs.at(0);
    if (layout(data).dtype != program_.arguments[static_cast<size_t>(in.dma.argument)].dtype)
      fail("data tile t" + std::to_string(data) + " differs in dtype from the argument's pointee");
    if (in.dma.gathered()) {
      tileIndex(in.dma.indexTile, "index");
      sameShape(in.dma.indexTile, data);
      if (!core::isInteger(layout(in.dma.indexTile).dtype) || layout(in.dma.indexTile).dtype == DType::Bool)
        fail("index tile must hold integers");
    } else {
      if (static_cast<int>(in.dma.strides.size()) != layout(data).rank())
        fail("needs one stride per data tile axis");
      for (const ScalarOperand &s : in.dma.strides)
        scalar(s);
    }
    if (in.dma.clipLow.size() != in.dma.clipHigh.size() ||
        (in.dma.clipped() && static_cast<int>(in.dma.clipHigh.size()) != layout(data).rank()))
      fail("needs no clip bounds or a low and a high one per data tile axis");
    for (const auto *bounds : {&in.dma.clipLow, &in.dma.clipHigh})
      for (const ScalarOperand &s : *bounds) {
        scalar(s);
        if (const DType t = s.isRegister() ? program_.scalarRegs.at(static_cast<size_t>(s.reg)).dtype : DType::Int64;
            !core::isInteger(t) || t == DType::Bool)
          fail("clip bounds must be integers");
      }
    if (in.dma.maskTile >= 0) {
      tileIndex(in.dma.maskTile, "mask");
      sameShape(in.dma.maskTile, data);
      dtypeIs(in.dma.maskTile, DType::Bool);
    }
  }

  void reduction(const Instruction &in, bool crossLane) const {
    if (in.srcs.empty() || in.dsts.size() != in.srcs.size())
      fail("needs as many destination as source tiles");
    axisOf(in.srcs[0], in.axis);
    const TileLayout &x = layout(in.srcs[0]);
    for (int s : in.srcs)
      sameShape(s, in.srcs[0]);
    const bool laneAxis = in.axis == x.laneAxis && x.shape[static_cast<size_t>(in.axis)] > 1;
    if (laneAxis != crossLane && !(crossLane && in.axis == x.laneAxis))
      fail(crossLane ? "reduces along axis " + std::to_string(in.axis) + ", not the lane axis"
                     : "reduces along the lane axis (a cross-lane operation)");
    if (in.reduceKind == core::ReduceKind::Combine) {
      if (!in.combine || in.combine->valueTypes.size() != in.srcs.size())
        fail("a combine reduction needs a combine program with one value per source");
    } else if (in.reduceKind == core::ReduceKind::ArgMax || in.reduceKind == core::ReduceKind::ArgMin) {
      if (in.srcs.size() != 2)
        fail("argmax/argmin take (values, indices)");
    } else if (in.srcs.size() != 1) {
      fail("a builtin reduction takes one source");
    }
    const int64_t expected = x.numElements() / x.shape[static_cast<size_t>(in.axis)];
    for (size_t k = 0; k < in.dsts.size(); ++k) {
      const TileLayout &d = layout(in.dsts[k]);
      if (in.opcode == Opcode::VScan || in.opcode == Opcode::XScan) {
        if (d.shape != x.shape)
          fail("a scan's results have the source shape");
      } else if (d.numElements() != expected) {
        fail("result t" + std::to_string(in.dsts[k]) + " must hold " + std::to_string(expected) + " elements");
      }
      if (d.dtype != layout(in.srcs[k]).dtype)
        fail("result t" + std::to_string(in.dsts[k]) + " differs in dtype from its source");
    }
  }

  void sort(const Instruction &in, bool crossLane) const {
    if (in.srcs.empty() || in.srcs.size() > 3 || in.dsts.empty() || in.dsts.size() > 2 ||
        in.dsts.size() > in.srcs.size())
      fail("takes (keys[, values[, valid]]) and gives (keys[, values])");
    axisOf(in.srcs[0], in.axis);
    for (int s : in.srcs)
      sameShape(s, in.srcs[0]);
    for (size_t k = 0; k < in.dsts.size(); ++k) {
      sameShape(in.dsts[k], in.srcs[k]);
      if (layout(in.dsts[k]).dtype != layout(in.srcs[k]).dtype)
        fail("sorted results keep their sources' dtypes");
    }
    if (in.srcs.size() == 3)
      dtypeIs(in.srcs[2], DType::Bool);
    const TileLayout &x = layout(in.srcs[0]);
    const bool laneAxis = in.axis == x.laneAxis && x.shape[static_cast<size_t>(in.axis)] > 1;
    if (laneAxis != crossLane && !(crossLane && in.axis == x.laneAxis))
      fail(crossLane ? "sorts along a non-lane axis" : "sorts along the lane axis (a cross-lane operation)");
  }

  void instruction(const Instruction &in) {
    current_ = &in;
    ++position_;
    for (int t : in.dsts)
      tileIndex(t, "destination");
    for (int t : in.srcs)
      tileIndex(t, "source");
    for (const ScalarOperand &s : in.scalars)
      scalar(s);
    switch (in.opcode) {
    case Opcode::SMove: reg(in.dstReg, "destination"); counts(0, 0, 1); break;
    case Opcode::SArgument:
      reg(in.dstReg, "destination");
      if (in.argument < 0 || in.argument >= static_cast<int>(program_.arguments.size()) ||
          program_.arguments[static_cast<size_t>(in.argument)].isPointer)
        fail("argument " + std::to_string(in.argument) + " is not a scalar argument");
      break;
    case Opcode::SProgramId:
    case Opcode::SNumPrograms:
      reg(in.dstReg, "destination");
      if (in.axis < 0 || in.axis > 2)
        fail("grid axis must be 0, 1 or 2");
      break;
    case Opcode::SElementwise:
      reg(in.dstReg, "destination");
      counts(0, 0, static_cast<size_t>(in.function.arity()));
      break;
    case Opcode::SLoad: reg(in.dstReg, "destination"); pointerArgument(in.argument); counts(0, 0, 1); break;
    case Opcode::SStore: pointerArgument(in.argument); counts(0, 0, 2); break;
    case Opcode::DmaLoad: counts(1, 0, 0); dma(in); break;
    case Opcode::DmaStore: counts(0, 1, 0); dma(in); break;
    case Opcode::DmaAtomic:
      if (in.srcs.size() != 1 || in.dsts.size() > 1)
        fail("takes one value tile and an optional result tile");
      if (!in.dsts.empty())
        sameShape(in.dsts[0], in.srcs[0]);
      dma(in);
      break;
    case Opcode::VSplat: counts(1, 0, 1); break;
    case Opcode::VIota:
      counts(1, 0, 1);
      counts(1, 0, 1 + static_cast<size_t>(layout(in.dsts[0]).rank()));
      if (!core::isInteger(layout(in.dsts[0]).dtype))
        fail("iota writes an integer tile");
      break;
    case Opcode::VElementwise: {
      counts(1, static_cast<size_t>(in.function.arity()), 0);
      for (int s : in.srcs)
        sameShape(s, in.dsts[0]);
      const DType result = in.function.op == ElementOp::Cmp ? DType::Bool : in.function.resultType;
      if (layout(in.dsts[0]).dtype != result)
        fail("destination dtype differs from the function's result type");
      break;
    }
    case Opcode::VBroadcast:
    case Opcode::XBroadcast: {
      counts(1, 1, 0);
      const TileLayout &s = layout(in.srcs[0]), &d = layout(in.dsts[0]);
      if (s.rank() != d.rank() || s.dtype != d.dtype)
        fail("source and destination differ in rank or dtype");
      for (int a = 0; a < s.rank(); ++a) {
        const int64_t from = s.shape[static_cast<size_t>(a)], to = d.shape[static_cast<size_t>(a)];
        if (from != to && from != 1)
          fail("axis " + std::to_string(a) + " of extent " + std::to_string(from) + " cannot stretch to " +
               std::to_string(to));
        const bool stretchesLaneAxis = a == d.laneAxis && from != to;
        if (in.opcode == Opcode::VBroadcast && stretchesLaneAxis)
          fail("stretches the lane axis (a cross-lane operation)");
      }
      break;
    }
    case Opcode::VReduce:
    case Opcode::VScan: reduction(in, false); break;
    case Opcode::XReduce:
    case Opcode::XScan: reduction(in, true); break;
    case Opcode::VSort: sort(in, false); break;
    case Opcode::XSort: sort(in, true); break;
    case Opcode::XRelayout: {
      counts(1, 1, 0);
      const TileLayout &s = layout(in.srcs[0]), &d = layout(in.dsts[0]);
      if (s.dtype != d.dtype || s.numElements() != d.numElements())
        fail("source and destination differ in dtype or element count");
      if (!in.permutation.empty()) {
        if (static_cast<int>(in.permutation.size()) != s.rank() || d.rank() != s.rank())
          fail("a permutation names every axis once");
        std::vector<bool> seen(in.permutation.size(), false);
        for (size_t a = 0; a < in.permutation.size(); ++a) {
          const int p = in.permutation[a];
          if (p < 0 || p >= s.rank() || seen[static_cast<size_t>(p)])
            fail("a permutation names every axis once");
          seen[static_cast<size_t>(p)] = true;
          if (d.shape[a] != s.shape[static_cast<size_t>(p)])
            fail("destination shape is not the permuted source shape");
        }
      }
      break;
    }
    case Opcode::MLoadWeights:
      counts(0, 1, 0);
      if (in.scalars.size() > 1)
        fail("takes at most one scalar, the bound of the columns that hold weights");
      if (layout(in.srcs[0]).rank() != 2)
        fail("weights come from a rank-2 tile");
      if (in.array < 0 || in.kBlock < 0 || in.nBlock < 0)
        fail("array and block indices must not be negative");
      break;
    case Opcode::MMatmul: {
      counts(1, 1, 0);
      const TileLayout &a = layout(in.srcs[0]), &c = layout(in.dsts[0]);
      if (a.rank() != 2 || c.rank() != 2 || a.shape[0] != c.shape[0])
        fail("needs A[M, K] and C[M, N]");
      // The row bound: rows past it add zeros to C, which only an
      // accumulating matmul may leave out.
      if (in.scalars.size() > 2)
        fail("takes at most two scalars, the bounds of the rows that stream and of the columns");
      if (!in.scalars.empty() && !in.accumulate)
        fail("bounds the rows and columns that stream only when it accumulates");
      if (in.array < 0 || in.kBlock < 0 || in.nBlock < 0)
        fail("array and block indices must not be negative");
      break;
    }
    case Opcode::Loop:
      reg(in.dstReg, "induction");
      counts(0, 0, 3);
      body(in.body);
      break;
    case Opcode::If:
      counts(0, 0, 1);
      body(in.body);
      body(in.elseBody);
      break;
    case Opcode::Barrier: break;
    case Opcode::Assert:
      if (in.srcs.size() > 1 || (in.srcs.empty() && in.scalars.empty()))
        fail("asserts one bool tile or one scalar");
      if (!in.srcs.empty())
        dtypeIs(in.srcs[0], DType::Bool);
      break;
    }
  }

  void body(const std::vector<Instruction> &instructions) {
    for (const Instruction &in : instructions) {
      const Instruction *saved = current_;
      instruction(in);
      current_ = saved;
    }
  }

  const Program &program_;
  const Instruction *current_ = nullptr;
  int position_ = -1;
};

} // namespace

void validate(const Program &program) { Validator(program).run(); }

} // namespace npusim::npu
