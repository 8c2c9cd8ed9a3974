// Reductions, scans and sorts along one axis, on the vector unit (a non-lane
// axis: each lane folds its own slots) or the cross-lane unit (the lane axis).
// The order of evaluation is the reference interpreter's: a sequential left
// fold along the axis, acc = x[0]; acc = f(acc, x[k]) for k = 1, 2, ..., each
// step rounded to the dtype (docs/npu.md), so results are bit-identical.
#include "functional/machine.h"

#include "core/axis_fold.h"
#include "core/sort_network.h"
#include "npu/layout.h"

#include <algorithm>
#include <numeric>

namespace npusim::functional::detail {
namespace {

using npu::Opcode;

} // namespace

void ReduceUnit::execute(const Instruction &in) {
  const bool crossLane = npu::unitOf(in.opcode) == npu::Unit::CrossLane;
  const npu::TileLayout &x = machine.layout(in.srcs.at(0));
  const int64_t axisExtent = x.shape.at(static_cast<size_t>(in.axis));
  const bool onLaneAxis = in.axis == x.laneAxis;
  if (!crossLane && onLaneAxis && axisExtent > 1)
    machine.fail(
        std::string(npu::name(in.opcode)) + " along axis " + std::to_string(in.axis) +
        ", the lane axis: the vector unit cannot combine elements of different lanes (use the cross-lane "
        "unit)");
  if (crossLane && !onLaneAxis)
    machine.fail(std::string(npu::name(in.opcode)) + " along axis " + std::to_string(in.axis) +
                 ", not the lane axis (" + std::to_string(x.laneAxis) +
                 "): a lane-local operation for the vector unit");
  const bool isScan = in.opcode == Opcode::VScan || in.opcode == Opcode::XScan;
  const bool isSort = in.opcode == Opcode::VSort || in.opcode == Opcode::XSort;
  if (!crossLane) {
    // Operands and results must keep each element (or line) in its lane.
    for (int s : in.srcs)
      if (!npu::sameLaneMapping(machine.layout(s), x))
        machine.fail("operands do not share the element -> lane mapping: t" + std::to_string(s) + " and t" +
                     std::to_string(in.srcs[0]));
    for (int t : in.dsts) {
      const npu::TileLayout &d = machine.layout(t);
      bool ok;
      if (isScan || isSort) {
        ok = npu::sameLaneMapping(d, x);
      } else {
        const bool keepsAxis = d.rank() == x.rank();
        const int expectedLaneAxis = keepsAxis || in.axis > x.laneAxis ? x.laneAxis : x.laneAxis - 1;
        const int64_t laneExtent = x.shape[static_cast<size_t>(x.laneAxis)];
        ok = (d.laneAxis == expectedLaneAxis && d.shape[static_cast<size_t>(d.laneAxis)] == laneExtent) ||
             (laneExtent == 1 && d.shape[static_cast<size_t>(d.laneAxis)] == 1);
      }
      if (!ok)
        machine.fail("result t" + std::to_string(t) + " places elements in other lanes than the source t" +
                     std::to_string(in.srcs[0]) + " (a lane would touch another lane's bank)");
    }
  }
  if (!machine.computeValues()) {
    machine.countElements(machine.layout(in.dsts.at(0)).numElements());
    return;
  }
  const Split split = core::splitAxis(x.shape, in.axis);
  const size_t count = in.srcs.size();
  for (size_t k = 0; k < count; ++k)
    machine.readTile(in.srcs[k], machine.scratch(1 + k));
  const int64_t resultSize = isScan || isSort ? x.numElements() : split.outer * split.inner;
  for (size_t k = 0; k < in.dsts.size(); ++k)
    machine.scratch(6 + k).define(machine.layout(in.dsts[k]).dtype, resultSize);
  Values &v = machine.scratch(1);
  Values &r = machine.scratch(6);
  const DType dt = x.dtype;
  const bool propagate = in.function.nanMode == core::NanMode::Propagate;

  try {
    if (isSort) {
      const Values *values = count > 1 ? &machine.scratch(2) : nullptr;
      const Values *valid = count > 2 ? &machine.scratch(3) : nullptr;
      Values *rv = in.dsts.size() > 1 ? &machine.scratch(7) : nullptr;
      const core::SortNetwork network = !values     ? core::SortNetwork::TritonSort
                                        : in.stable ? core::SortNetwork::WithIndexStable
                                                    : core::SortNetwork::WithIndex;
      // The reference's network (core/sort_network.h), element numbers along the line.
      auto sortLines = [&](auto greater, auto equal) {
        for (int64_t o = 0; o < split.outer; ++o)
          for (int64_t i = 0; i < split.inner; ++i) {
            auto element = [&](int64_t p) { return static_cast<size_t>(split.at(o, p, i)); };
            const core::SortLine line{
                [&](int64_t a, int64_t b) { return greater(element(a), element(b)); },
                [&](int64_t a, int64_t b) { return equal(element(a), element(b)); },
                [&](int64_t a) { return v.isFloat() && v.f[element(a)] != v.f[element(a)]; },
                [&](int64_t a, int64_t b) {
                  return values->isFloat() ? values->f[element(a)] > values->f[element(b)]
                                           : values->i[element(a)] > values->i[element(b)];
                },
                [&](int64_t a) { return !valid || valid->i[element(a)] != 0; }};
            const std::vector<int64_t> at = core::bitonicSort(network, in.descending, split.length, line);
            for (int64_t k = 0; k < split.length; ++k) {
              const size_t from = element(at[static_cast<size_t>(k)]);
              const size_t to = element(k);
              if (v.isFloat())
                r.f[to] = v.f[from];
              else
                r.i[to] = v.i[from];
              if (rv && values->isFloat())
                rv->f[to] = values->f[from];
              else if (rv)
                rv->i[to] = values->i[from];
            }
          }
      };
      if (v.isFloat())
        sortLines([&](size_t a, size_t b) { return v.f[a] > v.f[b]; },
                  [&](size_t a, size_t b) { return v.f[a] == v.f[b]; });
      else
        core::visitInt(dt, [&](auto tag) {
          constexpr DType D = decltype(tag)::value;
          sortLines([&](size_t a, size_t b) { return core::intLess<D>(v.i[b], v.i[a]); },
                    [&](size_t a, size_t b) { return v.i[a] == v.i[b]; });
        });
    } else if (in.reduceKind == core::ReduceKind::Combine) {
      combine(in, split, isScan);
    } else if (in.reduceKind == core::ReduceKind::ArgMax || in.reduceKind == core::ReduceKind::ArgMin) {
      const bool isMax = in.reduceKind == core::ReduceKind::ArgMax;
      const Values &idx = machine.scratch(2);
      Values &ri = machine.scratch(7);
      auto argFold = [&](auto better) {
        for (int64_t o = 0; o < split.outer; ++o)
          for (int64_t i = 0; i < split.inner; ++i) {
            size_t best = static_cast<size_t>(split.at(o, 0, i));
            for (int64_t k = 1; k < split.length; ++k) {
              const size_t c = static_cast<size_t>(split.at(o, k, i));
              if (better(c, best))
                best = c;
            }
            const size_t out = static_cast<size_t>(o * split.inner + i);
            if (v.isFloat())
              r.f[out] = v.f[best];
            else
              r.i[out] = v.i[best];
            ri.i[out] = idx.i[best];
          }
      };
      if (v.isFloat())
        argFold([&](size_t c, size_t best) {
          return core::argFloatBetter(isMax, propagate, v.f[c], idx.i[c], v.f[best], idx.i[best]);
        });
      else
        core::visitInt(dt, [&](auto tag) {
          constexpr DType D = decltype(tag)::value;
          argFold([&](size_t c, size_t best) {
            return core::argIntBetter<D>(isMax, v.i[c], idx.i[c], v.i[best], idx.i[best]);
          });
        });
    } else if (v.isFloat()) {
      core::visitFloat(dt, [&](auto tag) {
        core::floatReduceStep<decltype(tag)::value>(in.reduceKind, in.function.nanMode, [&](auto step) {
          if (isScan)
            core::scanAxis(v.f.data(), r.f.data(), split, in.reverse, step);
          else
            core::foldAxis(v.f.data(), r.f.data(), split, step);
        });
      });
    } else {
      core::visitInt(dt, [&](auto tag) {
        core::intReduceStep<decltype(tag)::value>(in.reduceKind, [&](auto step) {
          if (isScan)
            core::scanAxis(v.i.data(), r.i.data(), split, in.reverse, step);
          else
            core::foldAxis(v.i.data(), r.i.data(), split, step);
        });
      });
    }
  } catch (const core::ElementFault &fault) {
    machine.fail(fault.what());
  }
  for (size_t k = 0; k < in.dsts.size(); ++k)
    machine.writeTile(in.dsts[k], machine.scratch(6 + k));
}

// A combine program folds N carried values. Registers 0..N-1 hold the
// accumulators, N..2N-1 the next elements; steps run on all `inner` lines of
// one outer index at once.
void ReduceUnit::combine(const Instruction &in, const Split &split, bool isScan) {
  const npu::CombineProgram &program = *in.combine;
  const size_t count = program.valueTypes.size();
  if (count > 4)
    machine.fail("a combine program carries at most 4 values");
  const size_t numRegs = 2 * count + program.steps.size();
  combineRegs_.resize(numRegs);
  std::vector<DType> regType(numRegs);
  for (size_t k = 0; k < count; ++k)
    regType[k] = regType[count + k] = program.valueTypes[k];
  for (size_t s = 0; s < program.steps.size(); ++s) {
    const auto &step = program.steps[s];
    regType[2 * count + s] = step.isConstant                           ? step.constantType
                             : step.function.op == npu::ElementOp::Cmp ? DType::Bool
                                                                       : step.function.resultType;
  }
  const int64_t inner = split.inner;
  for (size_t k = 0; k < numRegs; ++k)
    combineRegs_[k].define(regType[k], inner);
  auto copyLine = [&](const Values &from, int64_t offset, Values &to, int64_t toOffset) {
    if (from.isFloat())
      std::copy(from.f.begin() + offset, from.f.begin() + offset + inner, to.f.begin() + toOffset);
    else
      std::copy(from.i.begin() + offset, from.i.begin() + offset + inner, to.i.begin() + toOffset);
  };
  for (int64_t o = 0; o < split.outer; ++o) {
    const int64_t first = isScan && in.reverse ? split.length - 1 : 0;
    for (size_t k = 0; k < count; ++k) {
      copyLine(machine.scratch(1 + k), split.at(o, first, 0), combineRegs_[k], 0);
      if (isScan)
        copyLine(combineRegs_[k], 0, machine.scratch(6 + k), split.at(o, first, 0));
    }
    for (int64_t m = 1; m < split.length; ++m) {
      const int64_t kAt = isScan && in.reverse ? split.length - 1 - m : m;
      for (size_t k = 0; k < count; ++k)
        copyLine(machine.scratch(1 + k), split.at(o, kAt, 0), combineRegs_[count + k], 0);
      for (size_t s = 0; s < program.steps.size(); ++s) {
        const auto &step = program.steps[s];
        Values &out = combineRegs_[2 * count + s];
        if (step.isConstant) {
          const Scalar c = machine.scalarAs(step.constant, step.constantType);
          if (out.isFloat())
            std::fill(out.f.begin(), out.f.begin() + inner, c.f);
          else
            std::fill(out.i.begin(), out.i.begin() + inner, c.i);
          continue;
        }
        core::ConstSlots operands[3];
        for (size_t a = 0; a < step.operands.size() && a < 3; ++a)
          operands[a] = combineRegs_.at(static_cast<size_t>(step.operands[a])).in();
        machine.apply(step.function, operands, out, inner);
      }
      // The results become the accumulators, through copies: a result may
      // name an accumulator register itself.
      for (size_t k = 0; k < count; ++k) {
        combineTmp_[k].define(regType[k], inner);
        copyLine(combineRegs_.at(static_cast<size_t>(program.results[k])), 0, combineTmp_[k], 0);
      }
      for (size_t k = 0; k < count; ++k)
        copyLine(combineTmp_[k], 0, combineRegs_[k], 0);
      if (isScan)
        for (size_t k = 0; k < count; ++k)
          copyLine(combineRegs_[k], 0, machine.scratch(6 + k), split.at(o, kAt, 0));
    }
    if (!isScan)
      for (size_t k = 0; k < count; ++k)
        copyLine(combineRegs_[k], 0, machine.scratch(6 + k), o * inner);
  }
}

} // namespace npusim::functional::detail
