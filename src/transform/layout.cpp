// The `layout` pass: lane-axis choice (docs/compiler.md, "Layouts"), written
// into the function as ir::Value::laneAxis, which the lowering reads.
//
// Two walks over the function. The backward pass records what the ops that
// care ask of their operands: a reduction wants its kept axis on the lanes when
// that axis fills them (the reduction then stays inside each lane), otherwise
// the reduced axis (a cross-lane reduction); a dot wants A[M, K] and B[K, N]
// with K on the lanes and C[M, N] with N. These wishes flow backwards through
// elementwise ops, broadcasts and expand_dims to the values they come from, but
// not from a load or store to its offsets and mask, which the DMA reads in any
// layout. The forward pass gives every other value the layout its operands
// make free, so a chain of elementwise ops and broadcasts needs no relayout.
#include "transform/transform.h"

#include <algorithm>

namespace npusim::transform {

namespace {

using ir::OpCode;

struct Wish {
  int axis = -1;
  int strength = 0; // 0: none
};

/// Ops through which a wish passes from the result to the operands: the
/// elementwise ones, and those whose result keeps its operand's shape and
/// element positions (broadcast stretches only size-1 axes).
bool passesWishes(OpCode code) {
  return ir::opTraits(code).elementwise || code == OpCode::Broadcast || code == OpCode::Load ||
         code == OpCode::AtomicRMW || code == OpCode::Scan || code == OpCode::Sort;
}

/// Elementwise ops on numbers, whose users' wishes (a dot's) they inherit.
bool isArithmetic(OpCode code) {
  return ir::opTraits(code).elementwise && code != OpCode::AddPtr;
}

class Planner {
public:
  Planner(ir::Function &function, const config::HardwareConfig &machine)
      : function_(function), lanes_(machine.lanes),
        reduceMinorAcrossLanes_(machine.reduceMinorAcrossLanes != 0), wishes_(function.numValues()),
        laneAxis_(function.numValues(), -1), affine_(function.numValues(), 0) {}

  void run() {
    // Three backward sweeps carry wishes around loops (yield -> carried value -> init).
    for (int sweep = 0; sweep < 3; ++sweep)
      backward(function_.body());
    forward(function_.body());
    for (const auto &v : function_.values())
      v->laneAxis = laneAxis_[v->id];
  }

private:
  void wish(const ir::Value *v, int axis, int strength) {
    if (!v || v->type.isScalar() || axis < 0 || axis >= v->type.rank() || strength <= 0)
      return;
    Wish &w = wishes_[v->id];
    if (strength > w.strength)
      w = Wish{axis, strength};
  }

  int reductionLaneAxis(const ir::Shape &shape, int axis) const {
    // A machine whose vector memory keeps DRAM's minor axis on the lanes reduces
    // over that axis across them: rows on the lanes would take a transpose
    // through the cross-lane unit first, as much work as the reduction itself.
    if (reduceMinorAcrossLanes_ && axis == static_cast<int>(shape.size()) - 1 && shape[axis] >= lanes_)
      return axis;
    int kept = -1;
    for (int a = 0; a < static_cast<int>(shape.size()); ++a)
      if (a != axis && (kept < 0 || shape[a] >= shape[kept]))
        kept = a;
    if (kept >= 0 && shape[kept] >= lanes_)
      return kept;
    return axis;
  }

  void backward(const ir::Block &block) {
    for (auto it = block.ops.rbegin(); it != block.ops.rend(); ++it)
      backwardOp(**it);
  }

  void backwardOp(const ir::Op &op) {
    for (auto r = op.regions.rbegin(); r != op.regions.rend(); ++r)
      backward(**r);
    Wish result = op.results.empty() ? Wish{} : wishes_[op.results[0]->id];
    // A load nothing else steers gets its data's default layout.
    if (op.code == OpCode::Load && result.strength == 0 && !op.results[0]->type.isScalar()) {
      wish(op.results[0], defaultLaneAxis(op.results[0]->type.shape), 1);
      result = wishes_[op.results[0]->id];
    }
    switch (op.code) {
    case OpCode::Reduce: {
      const ir::Shape &shape = op.operands[0]->type.shape;
      const int axis = reductionLaneAxis(shape, op.axis);
      for (const ir::Value *operand : op.operands)
        wish(operand, axis, 3);
      return;
    }
    case OpCode::Dot: {
      const int rank = op.operands[0]->type.rank();
      wish(op.operands[0], rank - 1, 3);
      wish(op.operands[1], rank - 2, 3);
      wish(op.operands[2], rank - 1, 3);
      wish(op.result(), rank - 1, 3);
      return;
    }
    case OpCode::ExpandDims:
      if (result.strength > 0 && result.axis != op.axis)
        wish(op.operands[0], result.axis < op.axis ? result.axis : result.axis - 1, result.strength);
      return;
    case OpCode::Permute:
      if (result.strength > 0)
        wish(op.operands[0], op.order.at(result.axis), result.strength);
      return;
    case OpCode::Slice:
      // A window keeps its operand's lane axis (it is a view of its bytes),
      // which must not be the sliced one: that wish stops here.
      if (result.axis != op.axis)
        wish(op.operands[0], result.axis, result.strength);
      return;
    case OpCode::Store: {
      Wish value = wishes_[op.operands[1]->id];
      if (value.strength == 0 && !op.operands[1]->type.isScalar())
        value = Wish{defaultLaneAxis(op.operands[1]->type.shape), 1};
      // The pointer and mask, read by the DMA in any layout, take what their
      // own operands make free (a row vector broadcast over the columns
      // stays with its rows on the lanes).
      wish(op.operands[1], value.axis, value.strength);
      return;
    }
    case OpCode::For: {
      const ir::Block &body = op.region(0);
      const ir::Op &yield = *body.ops.back();
      for (size_t i = 0; i < op.results.size(); ++i) {
        Wish w = wishes_[op.results[i]->id];
        for (const ir::Value *v : {body.arguments[i + 1], yield.operands[i]})
          if (wishes_[v->id].strength > w.strength)
            w = wishes_[v->id];
        wish(op.results[i], w.axis, w.strength);
        wish(body.arguments[i + 1], w.axis, w.strength);
        wish(op.operands[3 + i], w.axis, w.strength);
        wish(yield.operands[i], w.axis, w.strength);
      }
      return;
    }
    case OpCode::If:
      for (size_t i = 0; i < op.results.size(); ++i) {
        const Wish w = wishes_[op.results[i]->id];
        for (const auto &region : op.regions)
          wish(region->ops.back()->operands[i], w.axis, w.strength);
      }
      return;
    default: break;
    }
    // Arithmetic follows the strongest wish of its result or its operands (a
    // dot's result wants its layout kept by the accumulation that uses it).
    Wish merged = result;
    if (isArithmetic(op.code) && !op.results.empty())
      for (const ir::Value *operand : op.operands)
        if (operand->type.shape == op.results[0]->type.shape &&
            wishes_[operand->id].strength > merged.strength)
          merged = wishes_[operand->id];
    if (merged.strength > result.strength)
      wish(op.results[0], merged.axis, merged.strength);
    const Wish &chosen = merged;
    if (op.code == OpCode::Load && !op.results[0]->type.isScalar()) {
      // The DMA takes its offsets and mask in any layout: they are computed
      // in the layout that suits their own arithmetic, not the data's (a
      // template's [BLOCK_M, BLOCK_K] gather offsets with K on the lanes
      // would use 16 of 128 lanes). Only `other`, selected into the data,
      // follows the data's wish.
      const ir::Shape &shape = op.results[0]->type.shape;
      for (size_t i = 0; i < op.operands.size(); ++i)
        if (op.operands[i]->type.rank() == op.results[0]->type.rank())
          wish(op.operands[i], i < 2 ? defaultLaneAxis(shape) : chosen.axis, i < 2 ? 1 : chosen.strength);
      return;
    }
    if (passesWishes(op.code) && chosen.strength > 0)
      for (const ir::Value *operand : op.operands)
        if (!op.results.empty() && operand->type.rank() == op.results[0]->type.rank())
          wish(operand, chosen.axis, chosen.strength);
  }

  void set(const ir::Value *v, int derived) {
    if (v->type.isScalar())
      return;
    const Wish &w = wishes_[v->id];
    int axis = w.strength > 0 ? w.axis : derived;
    if (axis < 0 || axis >= v->type.rank())
      axis = defaultLaneAxis(v->type.shape);
    laneAxis_[v->id] = axis;
  }

  int laneOf(const ir::Value *v) const { return laneAxis_[v->id]; }

  void forward(const ir::Block &block) {
    for (const ir::Value *argument : block.arguments)
      if (laneAxis_[argument->id] < 0)
        set(argument, -1);
    for (const auto &op : block.ops)
      forwardOp(*op);
  }

  void forwardOp(const ir::Op &op) {
    if (op.results.size() == 1)
      affine_[op.results[0]->id] = isAffine(op);
    switch (op.code) {
    case OpCode::Arange:
      for (const ir::Value *r : op.results)
        set(r, 0);
      return;
    case OpCode::ExpandDims: {
      const ir::Value *x = op.operands[0];
      const int from = x->type.isScalar() ? -1 : laneOf(x);
      set(op.result(), from < 0 ? -1 : (from >= op.axis ? from + 1 : from));
      return;
    }
    case OpCode::Reshape:
      set(op.result(), sameMappingLaneAxis(op.operands[0]->type.shape, laneOf(op.operands[0]),
                                           op.result()->type.shape, -1, lanes_));
      return;
    case OpCode::Slice: laneAxis_[op.result()->id] = laneOf(op.operands[0]); return; // a view of its bytes
    case OpCode::Permute: {
      const int from = laneOf(op.operands[0]);
      const auto position = std::find(op.order.begin(), op.order.end(), from) - op.order.begin();
      set(op.result(), static_cast<int>(position));
      return;
    }
    case OpCode::Reduce: {
      const int from = laneOf(op.operands[0]);
      for (const ir::Value *r : op.results)
        set(r, from == op.axis ? -1 : (from > op.axis ? from - 1 : from));
      return;
    }
    case OpCode::Dot:
      for (const ir::Value *r : op.results)
        laneAxis_[r->id] = r->type.rank() - 1;
      return;
    case OpCode::For: {
      const ir::Block &body = op.region(0);
      for (size_t i = 0; i < op.results.size(); ++i) {
        const ir::Value *init = op.operands[3 + i];
        set(op.results[i], init->type.isScalar() ? -1 : laneOf(init));
        if (!body.arguments[i + 1]->type.isScalar())
          laneAxis_[body.arguments[i + 1]->id] = laneAxis_[op.results[i]->id];
      }
      forward(body);
      return;
    }
    case OpCode::If:
      for (const auto &region : op.regions)
        forward(*region);
      for (size_t i = 0; i < op.results.size(); ++i) {
        const ir::Value *y = op.region(0).ops.back()->operands[i];
        set(op.results[i], y->type.isScalar() ? -1 : laneOf(y));
      }
      return;
    default: break;
    }
    for (const auto &region : op.regions)
      forward(*region);
    // The first same-shaped operand that is materialised leads: an affine
    // one (aranges and splats) costs the same in any layout, while a
    // materialised row vector broadcast over the columns needs a cross-lane
    // broadcast unless its rows are on the lanes.
    int derived = -1;
    for (int pass = 0; pass < 2 && derived < 0; ++pass)
      for (const ir::Value *operand : op.operands)
        if (!op.results.empty() && operand->type.isTile() &&
            operand->type.shape == op.results[0]->type.shape && (pass == 1 || !affine_[operand->id])) {
          derived = laneOf(operand);
          break;
        }
    if (derived < 0 && op.code == OpCode::Broadcast && op.operands[0]->type.isTile())
      derived = laneOf(op.operands[0]);
    for (const ir::Value *r : op.results)
      set(r, derived);
  }

  /// Whether `op`'s result is affine in the tile's indices, built from
  /// aranges, splats and constants (the lowering holds such values lazily).
  bool isAffine(const ir::Op &op) const {
    auto all = [&] {
      return std::all_of(op.operands.begin(), op.operands.end(),
                         [&](const ir::Value *v) { return v->type.isScalar() || affine_[v->id]; });
    };
    switch (op.code) {
    case OpCode::Arange:
    case OpCode::Splat:
    case OpCode::Constant: return true;
    case OpCode::Broadcast:
    case OpCode::ExpandDims:
    case OpCode::Cast:
    case OpCode::Add:
    case OpCode::Sub:
    case OpCode::AddPtr: return all();
    case OpCode::Mul:
      return all() && std::any_of(op.operands.begin(), op.operands.end(), [](const ir::Value *v) {
               return v->type.isScalar() || (v->definingOp && (v->definingOp->code == OpCode::Splat ||
                                                               v->definingOp->code == OpCode::Constant));
             });
    default: return false;
    }
  }

  ir::Function &function_;
  int lanes_;
  bool reduceMinorAcrossLanes_;
  std::vector<Wish> wishes_;
  std::vector<int> laneAxis_; // by value id, -1 for scalars
  std::vector<char> affine_;  // by value id, set by the forward pass
};

} // namespace

int defaultLaneAxis(const ir::Shape &shape) {
  int best = 0;
  for (int a = 0; a < static_cast<int>(shape.size()); ++a)
    if (shape[a] >= shape[best])
      best = a;
  return best;
}

namespace {

// lane and slot of the element with row-major index `flat` in a tile.
std::pair<int64_t, int64_t> placeOf(const ir::Shape &shape, int laneAxis, int64_t flat, int lanes) {
  const int rank = static_cast<int>(shape.size());
  std::vector<int64_t> index(rank);
  for (int a = rank - 1; a >= 0; --a) {
    index[a] = flat % shape[a];
    flat /= shape[a];
  }
  int64_t rest = 0;
  for (int a = 0; a < rank; ++a)
    if (a != laneAxis)
      rest = rest * shape[a] + index[a];
  int64_t restSize = 1;
  for (int a = 0; a < rank; ++a)
    if (a != laneAxis)
      restSize *= shape[a];
  return {index[laneAxis] % lanes, (index[laneAxis] / lanes) * restSize + rest};
}

bool sameMapping(const ir::Shape &from, int fromLane, const ir::Shape &to, int toLane, int lanes) {
  const int64_t n = ir::numElements(from);
  if (n != ir::numElements(to))
    return false;
  // Large tiles are compared on a sample; shapes that differ only by size-1
  // axes (the common case) agree everywhere or fail early.
  const int64_t step = n > (int64_t{1} << 16) ? n / 4099 + 1 : 1;
  for (int64_t e = 0; e < n; e += step)
    if (placeOf(from, fromLane, e, lanes) != placeOf(to, toLane, e, lanes))
      return false;
  return placeOf(from, fromLane, n - 1, lanes) == placeOf(to, toLane, n - 1, lanes);
}

} // namespace

int sameMappingLaneAxis(const ir::Shape &from, int fromLane, const ir::Shape &to, int prefer, int lanes) {
  if (prefer >= 0 && prefer < static_cast<int>(to.size()) && sameMapping(from, fromLane, to, prefer, lanes))
    return prefer;
  for (int a = static_cast<int>(to.size()) - 1; a >= 0; --a)
    if (a != prefer && sameMapping(from, fromLane, to, a, lanes))
      return a;
  return -1;
}

void chooseLaneAxes(ir::Function &function, const config::HardwareConfig &machine) {
  Planner(function, machine).run();
}

} // namespace npusim::transform
