// The vector unit (lane-local: splat, iota, elementwise, broadcast) and the
// cross-lane unit's data movement (broadcast along the lane axis, relayout).
#include "functional/machine.h"

#include "core/shape.h"
#include "npu/layout.h"

#include <algorithm>

namespace npusim::functional::detail {
namespace {

using npu::ElementOp;
using npu::Opcode;

core::BinaryOp binaryOf(ElementOp op) {
  switch (op) {
  case ElementOp::Add: return core::BinaryOp::Add;
  case ElementOp::Sub: return core::BinaryOp::Sub;
  case ElementOp::Mul: return core::BinaryOp::Mul;
  case ElementOp::Div: return core::BinaryOp::Div;
  case ElementOp::Rem: return core::BinaryOp::Rem;
  case ElementOp::And: return core::BinaryOp::And;
  case ElementOp::Or: return core::BinaryOp::Or;
  case ElementOp::Xor: return core::BinaryOp::Xor;
  case ElementOp::Shl: return core::BinaryOp::Shl;
  case ElementOp::Shr: return core::BinaryOp::Shr;
  case ElementOp::Min: return core::BinaryOp::Min;
  default: return core::BinaryOp::Max;
  }
}

std::string shapeText(const npu::TileLayout &l) {
  return std::string(core::tritonName(l.dtype)) + core::shapeString(l.shape) + " lane axis " +
         std::to_string(l.laneAxis);
}

/// The row-major source element of every destination element of a
/// broadcast or relayout, walked with an odometer.
void sourceElements(const npu::Instruction &in, const npu::TileLayout &s, const npu::TileLayout &d,
                    std::vector<int64_t> &from) {
  const int64_t n = d.numElements();
  from.resize(static_cast<size_t>(n));
  if (in.opcode == Opcode::XRelayout && in.permutation.empty()) {
    for (int64_t e = 0; e < n; ++e) // row-major order is kept: element e is element e
      from[static_cast<size_t>(e)] = e;
    return;
  }
  const int rank = d.rank();
  std::vector<int64_t> srcStride(static_cast<size_t>(s.rank()), 0);
  int64_t stride = 1;
  for (int a = s.rank() - 1; a >= 0; --a) {
    srcStride[static_cast<size_t>(a)] = stride;
    stride *= s.shape[static_cast<size_t>(a)];
  }
  std::vector<int64_t> step(static_cast<size_t>(rank), 0);
  for (int a = 0; a < rank; ++a) {
    if (in.opcode == Opcode::XRelayout)
      step[static_cast<size_t>(a)] = srcStride[static_cast<size_t>(in.permutation[static_cast<size_t>(a)])];
    else
      step[static_cast<size_t>(a)] =
          s.shape[static_cast<size_t>(a)] == 1 ? 0 : srcStride[static_cast<size_t>(a)];
  }
  // The last axis in a loop of its own, the others walked with an odometer.
  const size_t last = static_cast<size_t>(rank - 1);
  const int64_t inner = d.shape[last], innerStep = step[last];
  std::vector<int64_t> index(static_cast<size_t>(rank), 0);
  int64_t at = 0;
  for (int64_t e = 0; e < n; e += inner) {
    int64_t *row = from.data() + e;
    for (int64_t j = 0; j < inner; ++j)
      row[j] = at + j * innerStep;
    for (int a = rank - 2; a >= 0; --a) {
      const size_t ua = static_cast<size_t>(a);
      at += step[ua];
      if (++index[ua] < d.shape[ua])
        break;
      at -= step[ua] * index[ua];
      index[ua] = 0;
    }
  }
}

} // namespace

void Machine::apply(const npu::ElementFunction &fn, const core::ConstSlots *x, Values &r, int64_t n) {
  const DType dt = fn.operandType;
  try {
    switch (fn.op) {
    case ElementOp::Copy:
      if (core::isFloatType(dt))
        std::copy(x[0].f, x[0].f + n, r.f.data());
      else
        std::copy(x[0].i, x[0].i + n, r.i.data());
      return;
    case ElementOp::Add:
    case ElementOp::Sub:
    case ElementOp::Mul:
    case ElementOp::Div:
    case ElementOp::Rem:
    case ElementOp::And:
    case ElementOp::Or:
    case ElementOp::Xor:
    case ElementOp::Shl:
    case ElementOp::Shr:
    case ElementOp::Min:
    case ElementOp::Max:
      if (core::isFloatType(dt))
        core::binaryFloat(binaryOf(fn.op), fn.nanMode, dt, x[0].f, x[1].f, r.f.data(), n);
      else // division by zero gives RISC-V's values, as in TileIR
        core::binaryInt(binaryOf(fn.op), dt, x[0].i, x[1].i, r.i.data(), n, false);
      return;
    case ElementOp::Neg:
    case ElementOp::Not:
    case ElementOp::Abs: {
      const core::UnaryOp op = fn.op == ElementOp::Neg   ? core::UnaryOp::Neg
                               : fn.op == ElementOp::Not ? core::UnaryOp::Not
                                                         : core::UnaryOp::Abs;
      if (core::isFloatType(dt))
        core::unaryFloat(op, dt, x[0].f, r.f.data(), n);
      else
        core::unaryInt(op, dt, x[0].i, r.i.data(), n);
      return;
    }
    case ElementOp::Math:
      core::mathValues(fn.mathFn, dt, x[0].f, x[1].f, x[2].f, r.f.data(), r.i.data(), n);
      return;
    case ElementOp::Cmp:
      if (core::isFloatType(dt))
        core::compareFloat(fn.predicate, x[0].f, x[1].f, r.i.data(), n);
      else
        core::compareInt(fn.predicate, core::isUnsignedType(dt), x[0].i, x[1].i, r.i.data(), n);
      return;
    case ElementOp::Select:
      if (core::isFloatType(dt))
        for (int64_t k = 0; k < n; ++k)
          r.f[static_cast<size_t>(k)] = x[0].i[k] ? x[1].f[k] : x[2].f[k];
      else
        for (int64_t k = 0; k < n; ++k)
          r.i[static_cast<size_t>(k)] = x[0].i[k] ? x[1].i[k] : x[2].i[k];
      return;
    case ElementOp::Cast: core::castValues(dt, fn.resultType, x[0], r.out(), n); return;
    case ElementOp::Bitcast: core::bitcastValues(dt, fn.resultType, x[0], r.out(), n); return;
    }
  } catch (const core::ElementFault &fault) {
    fail(fault.what());
  }
}

bool VectorUnit::broadcastByLane(const Instruction &in) {
  const int dst = in.dsts.at(0), src = in.srcs.at(0);
  const npu::TileLayout &d = machine.layout(dst), &s = machine.layout(src);
  const size_t a = static_cast<size_t>(d.laneAxis);
  if (s.dtype != d.dtype || s.laneAxis != d.laneAxis || s.rank() != d.rank() || s.shape[a] != d.shape[a] ||
      d.numElements() == 0)
    return false;
  // Slot g * rest + r of a lane holds lane group g (of the lane axis) and the
  // r-th row-major index r of the other axes: the source slot of destination
  // slot r of a group is the same in every group and every lane.
  const int64_t extent = d.shape[a], restDst = d.numElements() / extent, restSrc = s.numElements() / extent;
  restMap_.resize(static_cast<size_t>(restDst));
  std::vector<int64_t> index(d.shape.size(), 0), srcStride(d.shape.size(), 0);
  int64_t stride = 1;
  for (size_t ax = d.shape.size(); ax-- > 0;)
    if (ax != a) {
      srcStride[ax] = s.shape[ax] == 1 ? 0 : stride;
      stride *= s.shape[ax];
    }
  for (int64_t r = 0; r < restDst; ++r) {
    int64_t from = 0;
    for (size_t ax = 0; ax < d.shape.size(); ++ax)
      from += index[ax] * srcStride[ax];
    restMap_[static_cast<size_t>(r)] = from;
    for (size_t ax = d.shape.size(); ax-- > 0;) {
      if (ax == a)
        continue;
      if (++index[ax] < d.shape[ax])
        break;
      index[ax] = 0;
    }
  }
  machine.checkTileWritten(src);
  for (int lane = 0; lane < std::min<int64_t>(machine.lanes(), extent); ++lane) {
    const int64_t groups = (extent - lane + machine.lanes() - 1) / machine.lanes();
    if (!broadcastLane(d.dtype, machine.laneBytes(dst, lane), machine.laneBytes(src, lane), restMap_.data(),
                       restDst, restSrc, groups))
      return false; // a dtype without a typed copy: before any lane is written
    machine.markLaneWritten(dst, lane, groups * restDst);
  }
  machine.countElements(d.numElements());
  return true;
}

void VectorUnit::execute(const Instruction &in) {
  const int dst = in.dsts.at(0);
  const npu::TileLayout &d = machine.layout(dst);
  const int64_t n = d.numElements();
  if (!machine.computeValues()) {
    machine.countElements(n);
    return;
  }
  Values &r = machine.scratch(0);
  switch (in.opcode) {
  case Opcode::VSplat: {
    const Scalar v = machine.scalarAs(in.scalars.at(0), d.dtype);
    if (d.dtype != DType::Bool) { // a bool splat stores 0/1 only through the slot path
      machine.fillTile(dst, core::toBits(d.dtype, v.f, v.i));
      return;
    }
    r.define(d.dtype, n);
    if (r.isFloat())
      std::fill(r.f.begin(), r.f.begin() + n, v.f);
    else
      std::fill(r.i.begin(), r.i.begin() + n, v.i);
    break;
  }
  case Opcode::VIota: {
    if (core::isFloatType(d.dtype))
      machine.fail("iota of a float type");
    r.define(d.dtype, n);
    const int rank = d.rank();
    std::vector<int64_t> index(static_cast<size_t>(rank), 0), step(static_cast<size_t>(rank));
    for (int a = 0; a < rank; ++a)
      step[static_cast<size_t>(a)] = machine.scalarInt(in.scalars.at(static_cast<size_t>(1 + a)));
    const int64_t start = machine.scalarInt(in.scalars.at(0));
    // Wrapping arithmetic in uint64, the last axis in a loop of its own.
    const size_t last = static_cast<size_t>(rank - 1);
    const int64_t inner = rank > 0 ? d.shape[last] : 1;
    const uint64_t innerStep = rank > 0 ? static_cast<uint64_t>(step[last]) : 0;
    uint64_t rowStart = static_cast<uint64_t>(start);
    int64_t *out = r.i.data();
    for (int64_t e = 0; e < n; e += inner) {
      for (int64_t j = 0; j < inner; ++j)
        out[e + j] = static_cast<int64_t>(rowStart + static_cast<uint64_t>(j) * innerStep);
      for (int a = rank - 2; a >= 0; --a) {
        const size_t ua = static_cast<size_t>(a);
        rowStart += static_cast<uint64_t>(step[ua]);
        if (++index[ua] < d.shape[ua])
          break;
        rowStart -= static_cast<uint64_t>(step[ua]) * static_cast<uint64_t>(index[ua]);
        index[ua] = 0;
      }
    }
    // writeTile stores an integer's low bytes, which wrapping to the dtype
    // keeps: only a bool (its lowest bit) needs a pass.
    if (d.dtype == DType::Bool)
      for (int64_t e = 0; e < n; ++e)
        out[e] &= 1;
    break;
  }
  case Opcode::VElementwise: {
    const npu::ElementFunction &fn = in.function;
    core::ConstSlots operands[3];
    for (size_t k = 0; k < in.srcs.size(); ++k) {
      const npu::TileLayout &s = machine.layout(in.srcs[k]);
      if (!npu::sameLaneMapping(s, d))
        machine.fail(
            "operands do not share the element -> lane mapping (a lane would touch another lane's bank): "
            "source t" +
            std::to_string(in.srcs[k]) + " " + shapeText(s) + ", destination t" + std::to_string(dst) + " " +
            shapeText(d));
    }
    // Operands with one element -> lane mapping also share the slot of every
    // element, so each lane's slot prefix is processed as one contiguous run.
    const int64_t laneExtent = d.shape[static_cast<size_t>(d.laneAxis)];
    const int64_t rest = n / laneExtent;
    const int64_t usedLanes = std::min<int64_t>(machine.lanes(), laneExtent);
    // The typed loop reads slot k of each operand just before it writes slot
    // k of the result: an operand may be the result's own bytes, but not
    // overlap them shifted (tiles with disjoint lifetimes share bytes).
    auto overlapsShifted = [&](int src) {
      const npu::Tile &a = machine.program().tiles[static_cast<size_t>(src)],
                      &out = machine.program().tiles[static_cast<size_t>(dst)];
      const int64_t aEnd = a.bankOffset + a.layout.bytesPerLane(machine.lanes()),
                    rEnd = out.bankOffset + out.layout.bytesPerLane(machine.lanes());
      const bool same =
          a.bankOffset == out.bankOffset && core::byteSize(a.layout.dtype) == core::byteSize(d.dtype);
      return !same && a.bankOffset < rEnd && out.bankOffset < aEnd;
    };
    const LaneKernel kernel =
        std::none_of(in.srcs.begin(), in.srcs.end(), overlapsShifted) ? laneKernel(fn, d.dtype) : nullptr;
    if (kernel) {
      const uint8_t *bytes[3] = {};
      // An operand of the result's shape that is complete has every lane's
      // prefix written, and a complete result's shadow is set already: the
      // per-lane checks and marks of those are skipped (many small tiles
      // make them a large part of the instruction's cost).
      bool checked[3] = {};
      for (size_t k = 0; k < in.srcs.size(); ++k)
        checked[k] = machine.tileComplete(in.srcs[k]);
      const bool marked = machine.tileComplete(dst);
      // Lane l holds ceil((laneExtent - l) / lanes) groups: one more than
      // laneExtent / lanes in the first laneExtent % lanes lanes.
      const int64_t fewer = laneExtent / machine.lanes() * rest, more = fewer + rest,
                    withMore = laneExtent % machine.lanes();
      for (int lane = 0; lane < usedLanes; ++lane) {
        const int64_t count = lane < withMore ? more : fewer;
        for (size_t k = 0; k < in.srcs.size(); ++k) {
          if (!checked[k])
            machine.checkLaneWritten(in.srcs[k], lane, count);
          bytes[k] = machine.laneBytes(in.srcs[k], lane);
        }
        kernel(machine.laneBytes(dst, lane), bytes, count);
        if (!marked)
          machine.markLaneWritten(dst, lane, count);
      }
      machine.noteTileWritten(dst);
      // Every lane's whole prefix: the result and each operand are complete.
      machine.markComplete(dst);
      for (int src : in.srcs)
        machine.markComplete(src);
      machine.countElements(n);
      return;
    }
    for (int lane = 0; lane < usedLanes; ++lane) {
      const int64_t count = (laneExtent - lane + machine.lanes() - 1) / machine.lanes() * rest;
      for (size_t k = 0; k < in.srcs.size(); ++k) {
        Values &v = machine.scratch(1 + k);
        machine.readLane(in.srcs[k], lane, count, v);
        operands[k] = v.in();
      }
      r.define(d.dtype, count);
      machine.apply(fn, operands, r, count);
      machine.writeLane(dst, lane, count, r);
    }
    machine.countElements(n);
    return;
  }
  case Opcode::VBroadcast:
  case Opcode::XBroadcast:
  case Opcode::XRelayout: {
    const int src = in.srcs.at(0);
    const npu::TileLayout &s = machine.layout(src);
    if (in.opcode == Opcode::VBroadcast) {
      const bool sameLanes =
          (s.laneAxis == d.laneAxis &&
           s.shape[static_cast<size_t>(s.laneAxis)] == d.shape[static_cast<size_t>(d.laneAxis)]) ||
          (s.shape[static_cast<size_t>(s.laneAxis)] == 1 && d.shape[static_cast<size_t>(d.laneAxis)] == 1);
      if (!sameLanes)
        machine.fail("broadcast moves elements between lanes (a cross-lane operation): source t" +
                     std::to_string(src) + " " + shapeText(s) + ", destination t" + std::to_string(dst) +
                     " " + shapeText(d));
    }
    const npu::Tile &st = machine.program().tiles[static_cast<size_t>(src)],
                    &dt = machine.program().tiles[static_cast<size_t>(dst)];
    const bool overlap = st.bankOffset < dt.bankOffset + d.bytesPerLane(machine.lanes()) &&
                         dt.bankOffset < st.bankOffset + s.bytesPerLane(machine.lanes());
    if (in.opcode == Opcode::VBroadcast && !overlap && broadcastByLane(in))
      return;
    std::vector<int64_t> &from = sourceIndex_;
    sourceElements(in, s, d, from);
    if (s.dtype == d.dtype && !overlap) {
      machine.checkTileWritten(src);
      const Machine::TileBytes x = machine.tileBytes(src), y = machine.tileBytes(dst);
      if (copyElements(d.dtype, y.data, y.pos, x.data, x.pos, from.data(), n)) {
        machine.markTileWritten(dst);
        machine.countElements(n);
        return;
      }
    }
    Values &x = machine.scratch(1);
    machine.readTile(src, x);
    r.define(d.dtype, n);
    for (int64_t e = 0; e < n; ++e)
      if (x.isFloat())
        r.f[static_cast<size_t>(e)] = x.f[static_cast<size_t>(from[static_cast<size_t>(e)])];
      else
        r.i[static_cast<size_t>(e)] = x.i[static_cast<size_t>(from[static_cast<size_t>(e)])];
    break;
  }
  default: machine.fail("internal: not a vector instruction");
  }
  machine.writeTile(dst, r);
}

} // namespace npusim::functional::detail
