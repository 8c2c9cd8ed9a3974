// A dataflow over TileIR: which dimensions of each value depend on the axis's
// arange, which values are the axis index, and which masks bound it.
#include "compiler/axis_masks.h"

#include <cstdint>
#include <set>
#include <vector>

namespace npusim::compiler {

namespace {

/// What is known of one value. `dependsOn` holds the dimensions d along which
/// element p depends on the arange at coordinate p[d]; `opaque` marks any other
/// dependence (through a reshape, a reduction, a loop-carried value).
struct Facts {
  std::set<int> dependsOn;
  bool opaque = false;
  int indexDim = -1;       // element p equals the axis's program_id * block + p[indexDim]
  bool offset = false;     // a scalar or uniform tile equal to the axis's program_id * block
  std::set<int> boundDims; // the mask is false where the index at p[d] >= numel
  bool bound = false;      // a scalar or uniform tile <= numel

  bool tainted() const { return opaque || !dependsOn.empty(); }
};

class Analysis {
public:
  Analysis(const ir::Function &function, const TiledAxis &axis)
      : axis_(axis), facts_(static_cast<size_t>(function.numValues())) {
    for (const ir::Parameter &p : function.parameters())
      if (p.name == axis.numelArgument)
        facts_[static_cast<size_t>(p.value->id)].bound = true;
  }

  bool run(const ir::Block &block) {
    for (const auto &op : block.ops)
      if (!visit(*op))
        return false;
    return true;
  }

private:
  Facts &of(const ir::Value *v) { return facts_[static_cast<size_t>(v->id)]; }

  static bool sameDimSizes(const ir::Value *from, const ir::Value *to, int dim) {
    return from->type.shape.at(static_cast<size_t>(dim)) == to->type.shape.at(static_cast<size_t>(dim));
  }

  bool isConstant(const ir::Value *v, int64_t value) {
    const ir::Op *def = v->definingOp;
    return def && def->code == ir::OpCode::Constant && def->constant.intValue == value &&
           v->type.isIntegerOrBool() && !v->type.isBool();
  }

  /// Marks every result opaque when an operand depends on the axis.
  void taintResults(const ir::Op &op) {
    bool any = false;
    for (const ir::Value *v : op.operands)
      any = any || of(v).tainted();
    if (any)
      for (const ir::Value *r : op.results)
        of(r).opaque = true;
  }

  bool checkAccess(const ir::Op &op) {
    const ir::Value *pointer = op.operands.at(0);
    const Facts &address = of(pointer);
    if (!address.tainted())
      return true;
    const size_t maskIndex = op.code == ir::OpCode::Load ? 1 : 2;
    if (address.opaque || op.operands.size() <= maskIndex)
      return false;
    const Facts &mask = of(op.operands[maskIndex]);
    for (int d : address.dependsOn)
      if (!mask.boundDims.count(d))
        return false;
    return true;
  }

  void shapeChange(const ir::Op &op, const Facts &in, Facts &out) {
    const ir::Value *operand = op.operands.at(0);
    const ir::Value *result = op.result();
    out.opaque = in.opaque;
    out.offset = in.offset;
    out.bound = in.bound;
    auto map = [&](int d) {
      if (op.code == ir::OpCode::ExpandDims)
        return d >= op.axis ? d + 1 : d;
      return sameDimSizes(operand, result, d) ? d : -1;
    };
    for (int d : in.dependsOn) {
      const int m = map(d);
      if (m < 0)
        out.opaque = true;
      else
        out.dependsOn.insert(m);
    }
    for (int d : in.boundDims)
      if (const int m = map(d); m >= 0)
        out.boundDims.insert(m);
    if (in.indexDim >= 0)
      out.indexDim = map(in.indexDim);
  }

  bool visit(const ir::Op &op) {
    using ir::OpCode;
    const ir::OpTraits &traits = ir::opTraits(op.code);
    switch (op.code) {
    case OpCode::Arange:
      if (op.end - op.start == axis_.block)
        of(op.result()).dependsOn.insert(0);
      return true;
    case OpCode::Constant:
      if (op.result()->type.isIntegerOrBool() && !op.result()->type.isBool() &&
          op.constant.intValue <= axis_.numel)
        of(op.result()).bound = true;
      return true;
    case OpCode::Splat: {
      const Facts in = of(op.operands[0]);
      Facts &out = of(op.result());
      out.opaque = in.tainted();
      out.offset = in.offset;
      out.bound = in.bound;
      return true;
    }
    case OpCode::Broadcast:
    case OpCode::ExpandDims: {
      const Facts in = of(op.operands[0]);
      shapeChange(op, in, of(op.result()));
      return true;
    }
    case OpCode::Load:
    case OpCode::Store:
    case OpCode::AtomicRMW:
      if (!checkAccess(op))
        return false;
      if (!op.results.empty()) {
        // element p of a load reads the address at p: the same dependence
        const Facts address = of(op.operands[0]);
        of(op.result()).dependsOn = address.dependsOn;
        of(op.result()).opaque = address.opaque;
        if (op.code == OpCode::AtomicRMW)
          taintResults(op);
      }
      return true;
    case OpCode::Reduce:
    case OpCode::Scan:
    case OpCode::Sort: return visitCombination(op);
    case OpCode::Dot:
      for (const ir::Value *v : op.operands)
        if (of(v).tainted())
          return false; // out-of-range elements would enter the sums
      break;
    case OpCode::Assert:
      // an out-of-range element might fail the check
      return !of(op.operands.at(0)).tainted();
    case OpCode::For: return visitFor(op);
    default: break;
    }
    if (traits.elementwise) {
      Facts out;
      for (const ir::Value *v : op.operands) {
        out.dependsOn.insert(of(v).dependsOn.begin(), of(v).dependsOn.end());
        out.opaque = out.opaque || of(v).opaque;
      }
      recognise(op, out);
      of(op.result()) = out;
      return true;
    }
    for (const auto &region : op.regions)
      if (!run(*region))
        return false;
    taintResults(op);
    for (const auto &region : op.regions)
      if (!region->ops.empty())
        for (const ir::Value *v : region->ops.back()->operands)
          if (of(v).tainted())
            for (const ir::Value *r : op.results)
              of(r).opaque = true;
    return true;
  }

  /// The index, its offset and its bound, from the ops that build them.
  void recognise(const ir::Op &op, Facts &out) {
    using ir::OpCode;
    const auto &operands = op.operands;
    if (op.code == OpCode::Mul && operands[0]->type.shape.empty()) {
      for (int i = 0; i < 2; ++i) {
        const ir::Op *pid = operands[static_cast<size_t>(i)]->definingOp;
        if (pid && pid->code == OpCode::ProgramId && pid->axis == axis_.programIdAxis &&
            isConstant(operands[static_cast<size_t>(1 - i)], axis_.block))
          out.offset = true;
      }
    }
    if (op.code == OpCode::Add) {
      for (int i = 0; i < 2; ++i) {
        const Facts &a = of(operands[static_cast<size_t>(i)]);
        const Facts &b = of(operands[static_cast<size_t>(1 - i)]);
        const ir::Op *range = operands[static_cast<size_t>(i)]->definingOp;
        if (a.dependsOn.size() == 1 && !a.opaque && range && isArangeLike(operands[static_cast<size_t>(i)]) &&
            b.offset && !b.tainted())
          out.indexDim = *a.dependsOn.begin();
      }
    }
    if (op.code == OpCode::Cmp) {
      const Facts &a = of(operands[0]);
      const Facts &b = of(operands[1]);
      if (op.predicate == ir::CmpPredicate::Lt && a.indexDim >= 0 && b.bound && !b.tainted())
        out.boundDims.insert(a.indexDim);
      if (op.predicate == ir::CmpPredicate::Gt && b.indexDim >= 0 && a.bound && !a.tainted())
        out.boundDims.insert(b.indexDim);
    }
    if (op.code == OpCode::And && op.result()->type.isBool()) {
      for (const ir::Value *v : operands)
        out.boundDims.insert(of(v).boundDims.begin(), of(v).boundDims.end());
    }
  }

  /// An arange of the block's length, possibly expanded and broadcast.
  bool isArangeLike(const ir::Value *v) {
    for (const ir::Op *def = v->definingOp; def;
         def = def->operands.empty() ? nullptr : def->operands[0]->definingOp) {
      if (def->code == ir::OpCode::Arange)
        return def->start == 0 && def->end == axis_.block;
      if (def->code != ir::OpCode::ExpandDims && def->code != ir::OpCode::Broadcast)
        return false;
    }
    return false;
  }

  /// A reduction, scan or sort along a dimension the axis does not run
  /// along: out-of-range elements stay in their own rows, which the masked
  /// stores drop. Along the axis they would enter the combination.
  bool visitCombination(const ir::Op &op) {
    std::set<int> dims;
    for (const ir::Value *v : op.operands) {
      const Facts &in = of(v);
      if (in.opaque || in.dependsOn.count(op.axis))
        return false;
      dims.insert(in.dependsOn.begin(), in.dependsOn.end());
    }
    for (const auto &region : op.regions)
      if (!run(*region))
        return false;
    for (const ir::Value *r : op.results) {
      Facts &out = of(r);
      out = Facts{};
      for (int d : dims)
        out.dependsOn.insert(op.code == ir::OpCode::Reduce && d > op.axis ? d - 1 : d);
    }
    return true;
  }

  /// Merges `from` into the facts of a loop-carried value; true when they grew.
  bool merge(const Facts &from, Facts &into) {
    const size_t before = into.dependsOn.size();
    const bool wasOpaque = into.opaque;
    into.dependsOn.insert(from.dependsOn.begin(), from.dependsOn.end());
    into.opaque = into.opaque || from.opaque;
    return into.dependsOn.size() != before || into.opaque != wasOpaque;
  }

  /// A loop-carried value depends on the axis along the dimensions its init
  /// or any iteration's yield does: the body runs until they stop growing
  /// (at most once per dimension, plus the opaque mark, plus one).
  bool visitFor(const ir::Op &op) {
    const ir::Block &body = op.region();
    for (size_t i = 0; i < 3; ++i)
      if (of(op.operands[i]).tainted())
        of(body.arguments.at(0)).opaque = true;
    std::vector<Facts> carried(op.operands.size() - 3);
    for (size_t i = 0; i < carried.size(); ++i)
      merge(of(op.operands[i + 3]), carried[i]);
    for (bool grew = true; grew;) {
      for (size_t i = 0; i < carried.size(); ++i) {
        Facts &argument = of(body.arguments.at(i + 1));
        argument.dependsOn = carried[i].dependsOn;
        argument.opaque = carried[i].opaque;
      }
      if (!run(body))
        return false;
      grew = false;
      const ir::Op &yield = *body.ops.back();
      for (size_t i = 0; i < carried.size(); ++i)
        grew = merge(of(yield.operands.at(i)), carried[i]) || grew;
    }
    for (size_t i = 0; i < carried.size(); ++i) {
      Facts &result = of(op.results.at(i));
      result.dependsOn = carried[i].dependsOn;
      result.opaque = carried[i].opaque;
    }
    return true;
  }

  const TiledAxis &axis_;
  std::vector<Facts> facts_;
};

} // namespace

bool maskedAlongAxis(const ir::Function &function, const TiledAxis &axis) {
  if (axis.block <= 0 || axis.numel <= 0 || axis.programIdAxis < 0 || axis.programIdAxis > 2)
    return false;
  return Analysis(function, axis).run(function.body());
}

} // namespace npusim::compiler
