// Dead lanes (docs/compiler.md, "Dead lanes"). Tile axes that ops carry
// element by element form classes (union-find over (value, axis)): an
// elementwise op, a load or store ties its operands' axes to its result's, a
// dot ties M, N and K across its operands, a loop its carried values. A class
// whose elements from index L on are never observed is cut to its first L:
// stores and atomics there are masked off, and a dot's K terms there are zero
// in both operands, as value ranges over program ids, aranges and constants
// prove. Reductions, scans, sorts, reshapes, slices and asserts across a class
// keep it whole.
#include "transform/transform.h"
#include "transform/transform_internal.h"

#include <map>
#include <numeric>

namespace npusim::transform {
namespace {

using ir::OpCode;

class AxisClasses {
public:
  explicit AxisClasses(ir::Function &function) {
    for (const auto &value : function.values())
      for (int axis = 0; axis < value->type.rank(); ++axis)
        node(value.get(), axis);
    visit(function.body());
  }

  /// The class of `value`'s `axis`.
  int find(const ir::Value *value, int axis) { return root(node(value, axis)); }
  bool blocked(int cls) { return blocked_.count(root(cls)) > 0; }

private:
  int node(const ir::Value *value, int axis) {
    auto [it, added] = nodes_.try_emplace({value->id, axis}, static_cast<int>(parent_.size()));
    if (added)
      parent_.push_back(it->second);
    return it->second;
  }
  int root(int n) {
    while (parent_[static_cast<size_t>(n)] != n)
      n = parent_[static_cast<size_t>(n)] = parent_[static_cast<size_t>(parent_[static_cast<size_t>(n)])];
    return n;
  }
  void unite(const ir::Value *a, int axisA, const ir::Value *b, int axisB) {
    const int ra = root(node(a, axisA)), rb = root(node(b, axisB));
    if (ra == rb)
      return;
    parent_[static_cast<size_t>(ra)] = rb;
    if (blocked_.erase(ra))
      blocked_.insert(rb);
  }
  /// Ties every axis of `a` to the same axis of `b` (values of one shape).
  void uniteAll(const ir::Value *a, const ir::Value *b) {
    if (a->type.rank() != b->type.rank())
      return blockAll(a), blockAll(b);
    for (int d = 0; d < a->type.rank(); ++d)
      unite(a, d, b, d);
  }
  void block(const ir::Value *value, int axis) { blocked_.insert(root(node(value, axis))); }
  void blockAll(const ir::Value *value) {
    for (int d = 0; d < value->type.rank(); ++d)
      block(value, d);
  }

  void visit(const ir::Block &block) {
    for (const auto &op : block.ops) {
      classify(*op);
      for (const auto &region : op->regions)
        visit(*region);
    }
  }

  void classify(const ir::Op &op) {
    const auto &in = op.operands;
    const auto &out = op.results;
    switch (op.code) {
    case OpCode::Constant:
    case OpCode::ProgramId:
    case OpCode::NumPrograms:
    case OpCode::Arange:
    case OpCode::Splat:
    case OpCode::Barrier: return;
    case OpCode::Broadcast:
      for (int d = 0; d < in[0]->type.rank(); ++d)
        if (in[0]->type.shape[static_cast<size_t>(d)] == out[0]->type.shape[static_cast<size_t>(d)])
          unite(in[0], d, out[0], d);
      return;
    case OpCode::ExpandDims:
      for (int d = 0; d < in[0]->type.rank(); ++d)
        unite(in[0], d, out[0], d < op.axis ? d : d + 1);
      return;
    case OpCode::Permute:
      for (int d = 0; d < out[0]->type.rank(); ++d)
        unite(in[0], op.order[static_cast<size_t>(d)], out[0], d);
      return;
    case OpCode::Slice: // the window's axis is offset, so its elements are not the operand's
      for (int d = 0; d < out[0]->type.rank(); ++d)
        if (d != op.axis)
          unite(in[0], d, out[0], d);
      block(in[0], op.axis);
      block(out[0], op.axis);
      return;
    case OpCode::Load:
    case OpCode::Store:
    case OpCode::AtomicRMW:
      for (const ir::Value *v : in)
        uniteAll(in[0], v);
      for (const ir::Value *v : out)
        uniteAll(in[0], v);
      return;
    case OpCode::Dot: {
      const ir::Value *a = in[0], *b = in[1], *acc = in[2];
      const int rank = a->type.rank();
      uniteAll(acc, out[0]);
      for (int d = 0; d + 2 < rank; ++d)
        unite(a, d, out[0], d), unite(b, d, out[0], d);
      unite(a, rank - 2, out[0], rank - 2);
      unite(b, rank - 1, out[0], rank - 1);
      unite(a, rank - 1, b, rank - 2);
      return;
    }
    case OpCode::For: {
      const ir::Block &body = op.region(0);
      const ir::Op &yield = *body.ops.back();
      for (size_t i = 0; i < out.size(); ++i) {
        uniteAll(in[3 + i], out[i]);
        uniteAll(body.arguments[1 + i], out[i]);
        uniteAll(yield.operands[i], out[i]);
      }
      return;
    }
    case OpCode::If:
      for (const auto &region : op.regions)
        for (size_t i = 0; i < out.size(); ++i)
          uniteAll(region->ops.back()->operands[i], out[i]);
      return;
    case OpCode::Yield: return; // tied by its parent
    case OpCode::Reduce:
      // Every result depends on every operand (argmax's index on the values,
      // a combine region on all its inputs), and the operands share one shape.
      for (size_t i = 0; i < in.size(); ++i) {
        block(in[i], op.axis);
        uniteAll(in[0], in[i]);
        for (int d = 0; d < out[i]->type.rank(); ++d)
          unite(in[i], d < op.axis ? d : d + 1, out[i], d);
      }
      return;
    case OpCode::Scan:
    case OpCode::Sort:
      for (const ir::Value *v : in)
        block(v, op.axis);
      for (const ir::Value *v : out)
        uniteAll(in[0], v);
      for (const ir::Value *v : in)
        uniteAll(in[0], v);
      return;
    default:
      if (ir::opTraits(op.code).elementwise) {
        for (const ir::Value *v : in)
          if (v->type.isTile())
            uniteAll(out[0], v);
        return;
      }
      // Reshape, Assert and anything new: every axis they touch stays whole.
      for (const ir::Value *v : in)
        blockAll(v);
      for (const ir::Value *v : out)
        blockAll(v);
      return;
    }
  }

  std::map<std::pair<int, int>, int> nodes_;
  std::vector<int> parent_;
  std::set<int> blocked_;
};

/// Whether the i1 `mask` is false in every element `ranges` cover.
bool alwaysFalse(const std::vector<std::optional<ValueRange>> &ranges, const ir::Value *mask) {
  const std::optional<ValueRange> &r = ranges[static_cast<size_t>(mask->id)];
  return r.has_value() && r->hi == 0;
}

/// Whether `value` is zero at every element whose `cls` index is past the
/// cut that `ranges` were computed for.
bool zeroPastCut(const ir::Value *value, const std::vector<std::optional<ValueRange>> &ranges) {
  const ir::Op *op = value->definingOp;
  if (!op)
    return false;
  switch (op->code) {
  case OpCode::Constant: return op->constant.intValue == 0 && op->constant.floatValue == 0.0;
  case OpCode::Splat:
  case OpCode::Broadcast:
  case OpCode::ExpandDims:
  case OpCode::Cast: return zeroPastCut(op->operands[0], ranges);
  case OpCode::Load:
    return op->operands.size() >= 2 && alwaysFalse(ranges, op->operands[1]) &&
           (op->operands.size() < 3 || zeroPastCut(op->operands[2], ranges));
  default: return false;
  }
}

/// Calls `f` on every op of `block`, nested ones included.
template <typename F> void forEachOp(ir::Block &block, F &&f) {
  for (auto &op : block.ops) {
    f(*op);
    for (auto &region : op->regions)
      forEachOp(*region, f);
  }
}

/// Whether no element of class `cls` from index `cut` on is observed.
bool deadFrom(ir::Function &function, AxisClasses &classes, int cls, int64_t cut) {
  const auto ranges = valueRanges(function, [&](const ir::Op &arange) {
    const int64_t first = classes.find(arange.result(), 0) == cls ? arange.start + cut : arange.start;
    return ValueRange{first, arange.end - 1};
  });
  const auto hasAxisIn = [&](const ir::Value *v) {
    for (int d = 0; d < v->type.rank(); ++d)
      if (classes.find(v, d) == cls)
        return true;
    return false;
  };
  bool dead = true;
  forEachOp(function.body(), [&](ir::Op &op) {
    if (op.code == OpCode::Store || op.code == OpCode::AtomicRMW) {
      constexpr size_t kMaskIndex = 2;
      if (!hasAxisIn(op.operands[0]))
        return;
      dead = dead && op.operands.size() > kMaskIndex && alwaysFalse(ranges, op.operands[kMaskIndex]);
    } else if (op.code == OpCode::Dot) {
      const ir::Value *a = op.operands[0];
      if (classes.find(a, a->type.rank() - 1) == cls)
        dead = dead && zeroPastCut(a, ranges) && zeroPastCut(op.operands[1], ranges);
    }
  });
  return dead;
}

} // namespace

void shrinkDeadLanes(ir::Function &function) {
  AxisClasses classes(function);
  std::map<int, int64_t> extent; // class -> its size, for classes that may shrink
  for (const auto &value : function.values())
    for (int d = 0; d < value->type.rank(); ++d) {
      const int cls = classes.find(value.get(), d);
      if (value->type.shape[static_cast<size_t>(d)] > 1 && !classes.blocked(cls))
        extent[cls] = value->type.shape[static_cast<size_t>(d)];
    }
  std::map<int, int64_t> cut; // class -> the size it keeps
  for (const auto &[cls, size] : extent) {
    // Cuts at powers of two keep the shapes Triton allows; a smaller cut
    // observing nothing implies every larger one does, so search halving.
    int64_t keep = size;
    for (int64_t c = size / 2; c >= 1 && size % (2 * c) == 0 && deadFrom(function, classes, cls, c); c /= 2)
      keep = c;
    if (keep < size)
      cut[cls] = keep;
  }
  if (cut.empty())
    return;
  for (const auto &value : function.values())
    for (int d = 0; d < value->type.rank(); ++d)
      if (auto it = cut.find(classes.find(value.get(), d)); it != cut.end())
        value->type.shape[static_cast<size_t>(d)] = it->second;
  forEachOp(function.body(), [&](ir::Op &op) {
    if (op.code == OpCode::Arange)
      op.end = op.start + op.result()->type.shape[0];
  });
}

} // namespace npusim::transform
