// Shape-op sinking (docs/compiler.md, "Sunk broadcasts"). A template's K loop
// builds its operand offsets and masks as `(s + v)[:, None]` broadcast to the
// tile, with `s` a scalar of the iteration and `v` a row vector fixed for the
// instance. Expanding or broadcasting the sum moves elements across lanes in
// every iteration; expanding and broadcasting `v` alone is invariant, so
// hoisting takes it out of the loop, and the sum is then done in the tile's
// shape, lane by lane.
#include "transform/transform.h"
#include "transform/transform_internal.h"

#include <algorithm>
#include <map>
#include <set>

namespace npusim::transform {
namespace {

/// One shape step of a chain, applied to a value in order.
struct ShapeStep {
  ir::OpCode code = ir::OpCode::ExpandDims; // or Broadcast
  int axis = 0;                             // ExpandDims
  ir::Shape shape;                          // Broadcast: the result shape
};

ir::Shape applySteps(ir::Shape shape, const std::vector<ShapeStep> &steps) {
  for (const ShapeStep &step : steps) {
    if (step.code == ir::OpCode::ExpandDims)
      shape.insert(shape.begin() + step.axis, 1);
    else
      shape = step.shape;
  }
  return shape;
}

bool isShapeOp(const ir::Op &op) {
  return (op.code == ir::OpCode::ExpandDims || op.code == ir::OpCode::Broadcast) && op.operands.size() == 1 &&
         op.results.size() == 1;
}

/// An op of the body that no iteration changes: an arange or a constant.
bool invariantLeaf(const ir::Op &op) {
  return op.operands.empty() && op.regions.empty() && isPureOp(op);
}

class Sinker {
public:
  Sinker(ir::Function &function, const std::set<const ir::Value *> &inside)
      : function_(function), inside_(inside) {}

  /// Whether `v` (of the loop body) can be computed in the shape after the
  /// steps from invariant values and splats alone, through at most `depth`
  /// elementwise ops and shape ops of the body.
  bool sinkable(const ir::Value *v, int depth) const {
    if (!inside_.count(v))
      return true;
    const ir::Op *op = v->definingOp;
    if (!op || depth > 12 || !op->regions.empty())
      return false;
    if (op->code == ir::OpCode::Splat || invariantLeaf(*op))
      return true;
    if (!isShapeOp(*op) && !ir::opTraits(op->code).elementwise)
      return false;
    for (const ir::Value *operand : op->operands)
      if (!sinkable(operand, depth + 1))
        return false;
    return true;
  }

  /// `v` after `steps`, built by new ops appended to `out`; `result`, when
  /// given, is the value the top op defines (the replaced shape op's).
  ir::Value *rebuild(ir::Value *v, std::vector<ShapeStep> steps, std::vector<std::unique_ptr<ir::Op>> &out,
                     ir::Value *result = nullptr) {
    const ir::Op *op = v->definingOp;
    const ir::Type type = v->type.withShape(applySteps(v->type.shape, steps));
    if (inside_.count(v) && isShapeOp(*op)) {
      // A shape op of the chain: its step goes first.
      steps.insert(steps.begin(), ShapeStep{op->code, op->axis, op->result()->type.shape});
      return rebuild(op->operands[0], steps, out, result);
    }
    std::unique_ptr<ir::Op> copy;
    if (!inside_.count(v) || invariantLeaf(*op)) {
      // An invariant value: the shape ops themselves, which hoisting takes
      // out of the loop.
      ir::Value *shaped = v;
      for (size_t i = 0; i < steps.size(); ++i) {
        auto step = std::make_unique<ir::Op>();
        step->code = steps[i].code;
        step->axis = steps[i].axis;
        step->loc = location_;
        step->operands = {shaped};
        const ir::Type stepType = shaped->type.withShape(applySteps(shaped->type.shape, {steps[i]}));
        shaped = i + 1 == steps.size() && result ? result : function_.newValue(stepType, v->nameHint);
        shaped->definingOp = step.get();
        shaped->index = 0;
        step->results = {shaped};
        out.push_back(std::move(step));
      }
      return shaped;
    }
    copy = copyOpShell(*op);
    copy->loc = location_;
    if (op->code == ir::OpCode::Splat) {
      copy->operands = op->operands;
    } else {
      for (ir::Value *operand : op->operands)
        copy->operands.push_back(rebuild(operand, steps, out));
    }
    ir::Value *r = result ? result : function_.newValue(type, v->nameHint);
    r->definingOp = copy.get();
    r->index = 0;
    copy->results = {r};
    out.push_back(std::move(copy));
    return r;
  }

  void setLocation(const core::SourceLocation &loc) { location_ = loc; }

private:
  ir::Function &function_;
  const std::set<const ir::Value *> &inside_;
  core::SourceLocation location_;
};

void countEveryUse(const ir::Block &block, std::map<const ir::Value *, int> &uses) {
  for (const auto &op : block.ops) {
    for (const ir::Value *operand : op->operands)
      ++uses[operand];
    for (const auto &region : op->regions)
      countEveryUse(*region, uses);
  }
}

/// Drops the pure ops of `body` (not of nested blocks) whose results nothing
/// uses: the chains a rewrite left behind. Values used only in the body are
/// counted there, so the body alone is scanned.
void removeUnusedPureOps(ir::Block &body) {
  std::map<const ir::Value *, int> uses;
  countEveryUse(body, uses);
  for (size_t i = body.ops.size(); i-- > 0;) {
    const ir::Op &op = *body.ops[i];
    if (!isPureOp(op))
      continue;
    bool used = false;
    for (const ir::Value *r : op.results)
      used = used || uses[r] > 0;
    if (used)
      continue;
    for (const ir::Value *operand : op.operands)
      --uses[operand];
    body.ops.erase(body.ops.begin() + static_cast<std::ptrdiff_t>(i));
  }
}

int64_t elements(const ir::Shape &shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

// The rebuilt ops work on the stretched shape: a broadcast by more than this
// factor costs more vector passes than the cross-lane stretch it saves
// (ResNet-18's library convolutions, [64, 1] -> [64, 512] masks, took 1.8x
// longer with it; the templates' [64, 1] -> [64, 16] run 1.6x faster).
constexpr int64_t kMaxGrowth = 32;

// The stretched invariant values live through the loop once hoisted: each
// may take at most this fraction of a lane's bank (spread evenly over the
// lanes). On edge-8lane, ResNet-18's library convolutions otherwise pass
// half the bank, which their plans keep for a second instance in flight.
constexpr int64_t kBankFraction = 64;

bool smallEnough(const ir::Type &type, const config::HardwareConfig &machine) {
  const int64_t bytes = elements(type.shape) * (type.isPointer ? 8 : core::byteSize(type.dtype));
  const int64_t lanes = std::max(1, machine.lanes);
  return (bytes + lanes - 1) / lanes <= machine.spadBytesPerLane() / kBankFraction;
}

void sinkInLoop(ir::Function &function, ir::Block &body, const config::HardwareConfig &machine) {
  std::set<const ir::Value *> inside;
  collectDefinitions(body, inside);
  Sinker sinker(function, inside);
  std::vector<std::unique_ptr<ir::Op>> ops;
  for (auto &op : body.ops) {
    const bool rewrite =
        isShapeOp(*op) && inside.count(op->operands[0]) &&
        elements(op->result()->type.shape) <= kMaxGrowth * elements(op->operands[0]->type.shape) &&
        smallEnough(op->result()->type, machine) && op->operands[0]->definingOp &&
        !isShapeOp(*op->operands[0]->definingOp) && op->operands[0]->type.isTile() &&
        sinker.sinkable(op->operands[0], 0);
    if (!rewrite) {
      ops.push_back(std::move(op));
      continue;
    }
    // The result keeps its value (and id): its new definition is the top op
    // of the rebuilt chain, its uses stay as they are.
    sinker.setLocation(op->loc);
    ir::Value *result = op->result();
    std::vector<std::unique_ptr<ir::Op>> rebuilt;
    sinker.rebuild(op->operands[0], {ShapeStep{op->code, op->axis, result->type.shape}}, rebuilt, result);
    for (auto &r : rebuilt) {
      for (ir::Value *v : r->results)
        inside.insert(v);
      ops.push_back(std::move(r));
    }
  }
  body.ops = std::move(ops);
  removeUnusedPureOps(body);
}

void visit(ir::Function &function, ir::Block &block, const config::HardwareConfig &machine) {
  for (auto &op : block.ops) {
    for (auto &region : op->regions)
      visit(function, *region, machine);
    if (op->code == ir::OpCode::For && op->regions.size() == 1)
      sinkInLoop(function, op->region(0), machine);
  }
}

} // namespace

void sinkBroadcasts(ir::Function &function, const config::HardwareConfig &machine) {
  visit(function, function.body(), machine);
}

} // namespace npusim::transform
