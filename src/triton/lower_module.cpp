// Kernel entry, globals, statements, structured control flow and inlining.
#include "triton/literal.h"
#include "triton/lowering.h"

#include <algorithm>
#include <set>

namespace npusim::triton {

namespace lowering {

namespace {

constexpr int kMaxInlineDepth = 64;
constexpr int kMaxStaticIterations = 1 << 16;
constexpr int64_t kMaxStatementsLowered = 4'000'000;
constexpr int kMaxValues = 2'000'000;

/// Canonical name of an imported module path, or "" for modules whose members
/// kernels never call (hints, DeviceProperties, ...).
std::string canonicalModule(const std::string &path) {
  if (path == "triton")
    return "triton";
  if (path == "triton.language" || path == "triton.language.core")
    return "tl";
  if (path == "triton.language.math" || path == "torch._inductor.runtime.triton_helpers.math")
    return "tl.math";
  if (path.find("libdevice") != std::string::npos)
    return "libdevice";
  if (path == "torch._inductor.runtime.triton_helpers" || path == "triton_helpers")
    return "triton_helpers";
  if (path == "torch._inductor.runtime.triton_heuristics" || path == "triton_heuristics")
    return "triton_heuristics";
  return "opaque:" + path;
}

void collectAssigned(const ast::Expr &target, std::set<std::string> &names) {
  if (target.kind == ast::ExprKind::Name)
    names.insert(target.name);
  else if (target.kind == ast::ExprKind::Tuple || target.kind == ast::ExprKind::List)
    for (const ast::ExprPtr &e : target.operands)
      collectAssigned(*e, names);
}

/// Names a statement list may assign (syntactically), nested blocks included.
void collectAssigned(const ast::StmtList &body, std::set<std::string> &names) {
  for (const ast::StmtPtr &s : body) {
    for (const ast::ExprPtr &t : s->targets)
      if (s->kind != ast::StmtKind::Delete)
        collectAssigned(*t, names);
    collectAssigned(s->body, names);
    collectAssigned(s->orelse, names);
  }
}

bool containsReturn(const ast::StmtList &body) {
  for (const ast::StmtPtr &s : body)
    if (s->kind == ast::StmtKind::Return || containsReturn(s->body) || containsReturn(s->orelse))
      return true;
  return false;
}

/// True when every path through the statements ends in a return.
bool alwaysReturns(const ast::StmtList &body) {
  for (const ast::StmtPtr &s : body) {
    if (s->kind == ast::StmtKind::Return)
      return true;
    if (s->kind == ast::StmtKind::If && alwaysReturns(s->body) && alwaysReturns(s->orelse))
      return true;
  }
  return false;
}

} // namespace

/// Lowers the statements of one function body (the kernel's or an inlined helper's).
class StatementLowerer {
public:
  StatementLowerer(Lowerer &lowerer, bool isKernel) : l_(lowerer), isKernel_(isKernel) {}

  bool returned() const { return returned_; }
  SemaValue &returnValue() { return returnValue_; }

  void lowerList(const std::vector<const ast::Stmt *> &stmts, Scope &scope) {
    for (size_t i = 0; i < stmts.size() && !returned_; ++i) {
      const ast::Stmt &s = *stmts[i];
      if (s.kind == ast::StmtKind::If && (containsReturn(s.body) || containsReturn(s.orelse))) {
        SemaValue cond = evalCondition(*s.test, scope);
        if (cond.isConstexpr()) {
          lowerList(pointers(truthy(cond, s.pos) ? s.body : s.orelse), scope);
          continue;
        }
        // A run-time condition with a return in one branch: the statements after
        // the `if` run only on the other path, so they move into that branch.
        std::vector<const ast::Stmt *> rest(stmts.begin() + static_cast<long>(i) + 1, stmts.end());
        std::vector<const ast::Stmt *> thenStmts = pointers(s.body), elseStmts = pointers(s.orelse);
        if (alwaysReturns(s.body) && !containsReturn(s.orelse))
          elseStmts.insert(elseStmts.end(), rest.begin(), rest.end());
        else if (alwaysReturns(s.orelse) && !containsReturn(s.body))
          thenStmts.insert(thenStmts.end(), rest.begin(), rest.end());
        else if (!(alwaysReturns(s.body) && alwaysReturns(s.orelse)))
          l_.fail(s.pos, "a return inside a run-time conditional must end one of its branches");
        if (!isKernel_)
          l_.fail(s.pos, "a helper function cannot return from inside a run-time conditional");
        lowerRuntimeIf(cond.tensor, thenStmts, elseStmts, scope, s.pos, /*withResults=*/false);
        returned_ = true; // both paths have now run to their end
        return;
      }
      lowerStmt(s, scope);
    }
  }

  static std::vector<const ast::Stmt *> pointers(const ast::StmtList &list) {
    std::vector<const ast::Stmt *> out;
    for (const ast::StmtPtr &s : list)
      out.push_back(s.get());
    return out;
  }

private:
  bool truthy(const SemaValue &v, ast::Position pos) {
    switch (v.kind) {
    case SemaValue::Kind::Bool: return v.boolValue;
    case SemaValue::Kind::Int: return v.intValue != 0;
    case SemaValue::Kind::Float: return v.floatValue != 0.0;
    case SemaValue::Kind::None: return false;
    case SemaValue::Kind::String: return !v.text.empty();
    case SemaValue::Kind::Tuple: return !v.elements.empty();
    default: l_.fail(pos, "cannot use " + v.describe() + " as a condition");
    }
  }

  /// A condition: a constexpr, or a run-time scalar converted to i1.
  SemaValue evalCondition(const ast::Expr &test, Scope &scope) {
    SemaValue cond = l_.eval(test, scope);
    if (!cond.isTensor())
      return cond;
    if (cond.tensor->type.isTile())
      l_.fail(test.pos, "a run-time condition must be a scalar, got " + cond.describe() +
                            "; use tl.where for element-wise choices");
    if (cond.tensor->type.isPointer)
      l_.fail(test.pos, "cannot use a pointer as a condition");
    l_.builder().setLocation(l_.location(test.pos));
    return SemaValue::ofTensor(l_.toBool(cond.tensor));
  }

  void assign(const ast::Expr &target, SemaValue value, Scope &scope) {
    if (target.kind == ast::ExprKind::Name) {
      scope[target.name] = std::move(value);
      return;
    }
    if (target.kind == ast::ExprKind::Tuple || target.kind == ast::ExprKind::List) {
      if (value.kind != SemaValue::Kind::Tuple)
        l_.fail(target.pos, "cannot unpack " + value.describe() + " into " +
                                std::to_string(target.operands.size()) + " names");
      if (value.elements.size() != target.operands.size())
        l_.fail(target.pos, "cannot unpack " + std::to_string(value.elements.size()) + " values into " +
                                std::to_string(target.operands.size()) + " names");
      for (size_t i = 0; i < target.operands.size(); ++i)
        assign(*target.operands[i], value.elements[i], scope);
      return;
    }
    l_.fail(target.pos, "only names and tuples of names can be assigned to in a kernel");
  }

  void lowerStmt(const ast::Stmt &s, Scope &scope) {
    l_.builder().setLocation(l_.location(s.pos));
    if (++l_.statementsLowered_ > kMaxStatementsLowered || l_.function_->numValues() > kMaxValues)
      l_.fail(s.pos, "the kernel unrolls into too much code (compile-time loops or recursion too large)");
    switch (s.kind) {
    case ast::StmtKind::Expr:
      if (s.value->kind != ast::ExprKind::String) // docstrings
        l_.eval(*s.value, scope);
      return;
    case ast::StmtKind::Assign: {
      SemaValue value = l_.eval(*s.value, scope);
      for (const ast::ExprPtr &t : s.targets)
        assign(*t, value, scope);
      return;
    }
    case ast::StmtKind::AnnAssign: {
      if (!s.value)
        return; // a bare annotation declares nothing at run time
      SemaValue value = l_.eval(*s.value, scope);
      const std::string annotation = s.annotation ? dottedName(*s.annotation) : "";
      const bool isConstexpr = annotation == "tl.constexpr" || annotation == "constexpr";
      if (isConstexpr && value.isTensor())
        l_.fail(s.value->pos, "a tl.constexpr must be a compile-time value, got " + value.describe());
      // A body constexpr the bindings name takes their value (a template's
      // block size chosen for the machine); the metadata lists which may be.
      if (isConstexpr && isKernel_ && s.targets.at(0)->kind == ast::ExprKind::Name &&
          l_.file_.metadata.bodyConstexprs.count(s.targets[0]->name))
        if (auto it = l_.constexprs_.find(s.targets[0]->name);
            it != l_.constexprs_.end() && std::holds_alternative<int64_t>(it->second))
          value = SemaValue::ofInt(std::get<int64_t>(it->second));
      assign(*s.targets.at(0), std::move(value), scope);
      return;
    }
    case ast::StmtKind::AugAssign: {
      const ast::Expr &target = *s.targets.at(0);
      if (target.kind != ast::ExprKind::Name)
        l_.fail(target.pos, "augmented assignment needs a name");
      SemaValue current = l_.eval(target, scope);
      SemaValue rhs = l_.eval(*s.value, scope);
      l_.builder().setLocation(l_.location(s.pos));
      scope[target.name] = l_.binary(s.augOp, current, rhs, s.pos);
      return;
    }
    case ast::StmtKind::If: {
      SemaValue cond = evalCondition(*s.test, scope);
      if (cond.isConstexpr()) {
        lowerList(pointers(truthy(cond, s.pos) ? s.body : s.orelse), scope);
        return;
      }
      lowerRuntimeIf(cond.tensor, pointers(s.body), pointers(s.orelse), scope, s.pos, true);
      return;
    }
    case ast::StmtKind::For: lowerFor(s, scope); return;
    case ast::StmtKind::While: lowerWhile(s, scope); return;
    case ast::StmtKind::Return:
      if (loopDepth_ > 0)
        l_.fail(s.pos, "return inside a loop is not supported");
      if (s.value) {
        if (isKernel_)
          l_.fail(s.pos, "a kernel cannot return a value");
        returnValue_ = l_.eval(*s.value, scope);
      }
      returned_ = true;
      return;
    case ast::StmtKind::Pass: return;
    case ast::StmtKind::Break:
    case ast::StmtKind::Continue:
      l_.fail(s.pos, std::string("'") + (s.kind == ast::StmtKind::Break ? "break" : "continue") +
                         "' is not supported in Triton kernels");
    case ast::StmtKind::Import:
    case ast::StmtKind::ImportFrom: l_.fail(s.pos, "imports belong at the top of the file");
    case ast::StmtKind::FunctionDef: l_.fail(s.pos, "nested function definitions are not supported");
    case ast::StmtKind::Assert: {
      SemaValue test = l_.eval(*s.test, scope);
      std::string message = "assertion failed";
      if (s.value) {
        SemaValue m = l_.eval(*s.value, scope);
        if (m.kind == SemaValue::Kind::String)
          message = m.text;
      }
      if (!test.isConstexpr())
        l_.fail(s.pos, "assert needs a compile-time condition; use tl.device_assert for run-time checks");
      if (!truthy(test, s.pos))
        l_.fail(s.pos, "static assertion failed: " + message);
      return;
    }
    case ast::StmtKind::Global: l_.fail(s.pos, "global and nonlocal are not supported in Triton kernels");
    case ast::StmtKind::Delete:
      for (const ast::ExprPtr &t : s.targets) {
        if (t->kind != ast::ExprKind::Name || !scope.erase(t->name))
          l_.fail(t->pos, "cannot delete this target");
      }
      return;
    }
  }

  /// Converts a value that flows out of a region (loop-carried or an if result) to a tensor.
  ir::Value *regionValue(const SemaValue &v, const std::string &name, ast::Position pos) {
    if (v.isTensor())
      return v.tensor;
    if (v.isNumber())
      return l_.toTensor(v, pos);
    l_.fail(pos, "'" + name + "' holds " + v.describe() + ", which cannot change inside a loop or a run-time conditional");
  }

  void lowerRuntimeIf(ir::Value *cond, const std::vector<const ast::Stmt *> &thenStmts,
                      const std::vector<const ast::Stmt *> &elseStmts, Scope &scope, ast::Position pos,
                      bool withResults) {
    ir::Builder &b = l_.builder();
    b.setLocation(l_.location(pos));
    ir::Op *op = b.create(ir::OpCode::If, {cond}, {});
    ir::Block *outer = b.insertionBlock();

    Scope thenScope = scope, elseScope = scope;
    ir::Block *thenBlock = b.addRegion(op, {});
    ir::Block *elseBlock = b.addRegion(op, {});
    const bool savedReturned = returned_;
    b.setInsertionBlock(thenBlock);
    lowerList(thenStmts, thenScope);
    const bool thenReturned = returned_;
    returned_ = savedReturned;
    b.setInsertionBlock(elseBlock);
    lowerList(elseStmts, elseScope);
    const bool elseReturned = returned_;
    returned_ = savedReturned;

    // Results: names both paths define that differ from before, or that were defined before.
    std::vector<std::string> names;
    if (withResults && !thenReturned && !elseReturned) {
      for (const auto &[name, value] : thenScope) {
        auto inElse = elseScope.find(name);
        if (inElse == elseScope.end())
          continue;
        auto before = scope.find(name);
        const bool changedThen = before == scope.end() || !sameBinding(before->second, value);
        const bool changedElse = before == scope.end() || !sameBinding(before->second, inElse->second);
        if (changedThen || changedElse)
          names.push_back(name);
      }
    }
    std::vector<ir::Value *> thenValues, elseValues;
    b.setInsertionBlock(thenBlock);
    for (const std::string &n : names)
      thenValues.push_back(regionValue(thenScope[n], n, pos));
    b.setLocation(l_.location(pos));
    b.yield(thenValues);
    b.setInsertionBlock(elseBlock);
    for (const std::string &n : names)
      elseValues.push_back(regionValue(elseScope[n], n, pos));
    b.setLocation(l_.location(pos));
    b.yield(elseValues);
    b.setInsertionBlock(outer);
    for (size_t i = 0; i < names.size(); ++i) {
      if (thenValues[i]->type != elseValues[i]->type)
        l_.fail(pos, "'" + names[i] + "' is " + thenValues[i]->type.str() + " in the then branch but " +
                         elseValues[i]->type.str() + " in the else branch");
      ir::Value *result = b.function().newValue(thenValues[i]->type, names[i]);
      result->definingOp = op;
      result->index = static_cast<int>(i);
      op->results.push_back(result);
      scope[names[i]] = SemaValue::ofTensor(result);
    }
  }

  static bool sameBinding(const SemaValue &a, const SemaValue &b) {
    if (a.kind != b.kind)
      return false;
    switch (a.kind) {
    case SemaValue::Kind::Tensor: return a.tensor == b.tensor;
    case SemaValue::Kind::Int: return a.intValue == b.intValue;
    case SemaValue::Kind::Float: return a.floatValue == b.floatValue;
    case SemaValue::Kind::Bool: return a.boolValue == b.boolValue;
    case SemaValue::Kind::None: return true;
    default: return true; // modules, functions, dtypes, tuples: only rebound statically
    }
  }

  void lowerFor(const ast::Stmt &s, Scope &scope) {
    if (!s.orelse.empty())
      l_.fail(s.pos, "for ... else is not supported in Triton kernels");
    const ast::Expr &iter = *s.iter;
    if (iter.kind != ast::ExprKind::Call)
      l_.fail(iter.pos, "a kernel loop must iterate over range(...), tl.range(...) or tl.static_range(...)");
    SemaValue callee = l_.eval(*iter.operands.at(0), scope);
    const bool isRange = callee.kind == SemaValue::Kind::Builtin &&
                         (callee.text == "range" || callee.text == "tl.range" || callee.text == "tl.static_range");
    if (!isRange)
      l_.fail(iter.pos, "a kernel loop must iterate over range(...), tl.range(...) or tl.static_range(...)");
    std::vector<SemaValue> bounds;
    for (size_t i = 1; i < iter.operands.size(); ++i)
      bounds.push_back(l_.eval(*iter.operands[i], scope));
    for (const ast::Keyword &kw : iter.keywords) // num_stages, loop_unroll_factor, ...: hints
      if (kw.name == "step")
        bounds.push_back(l_.eval(*kw.value, scope));
    if (bounds.empty() || bounds.size() > 3)
      l_.fail(iter.pos, "range takes one to three bounds");
    SemaValue lo = SemaValue::ofInt(0), hi, step = SemaValue::ofInt(1);
    if (bounds.size() == 1) {
      hi = bounds[0];
    } else {
      lo = bounds[0];
      hi = bounds[1];
      if (bounds.size() == 3)
        step = bounds[2];
    }
    const bool allConst = lo.kind == SemaValue::Kind::Int && hi.kind == SemaValue::Kind::Int &&
                          step.kind == SemaValue::Kind::Int;
    if (callee.text == "tl.static_range") {
      if (!allConst)
        l_.fail(iter.pos, "tl.static_range needs compile-time integer bounds");
      unroll(s, scope, lo.intValue, hi.intValue, step.intValue);
      return;
    }
    for (const SemaValue *v : {&lo, &hi, &step})
      if (!(v->kind == SemaValue::Kind::Int || (v->isTensor() && v->tensor->type.isScalar() &&
                                                 v->tensor->type.isIntegerOrBool() && !v->tensor->type.isBool())))
        l_.fail(iter.pos, "loop bounds must be integer scalars, got " + v->describe());
    if (allConst && step.intValue == 0)
      l_.fail(iter.pos, "range step must not be zero");
    lowerRuntimeFor(s, scope, lo, hi, step);
  }

  void unroll(const ast::Stmt &s, Scope &scope, int64_t lo, int64_t hi, int64_t step) {
    if (step == 0)
      l_.fail(s.iter->pos, "range step must not be zero");
    int count = 0;
    for (int64_t i = lo; step > 0 ? i < hi : i > hi; i += step) {
      if (++count > kMaxStaticIterations)
        l_.fail(s.iter->pos, "tl.static_range unrolls too many iterations");
      assign(*s.targets.at(0), SemaValue::ofInt(i), scope);
      ++loopDepth_;
      lowerList(pointers(s.body), scope);
      --loopDepth_;
      if (returned_)
        l_.fail(s.pos, "return inside a loop is not supported");
    }
  }

  void lowerRuntimeFor(const ast::Stmt &s, Scope &scope, const SemaValue &lo, const SemaValue &hi,
                       const SemaValue &step) {
    ir::Builder &b = l_.builder();
    b.setLocation(l_.location(s.pos));
    // The induction variable takes the widest bound type (i32 unless a bound is i64).
    core::DType ivType = core::DType::Int32;
    for (const SemaValue *v : {&lo, &hi, &step}) {
      if (v->isTensor() && core::bitWidth(v->tensor->type.dtype) > 32)
        ivType = v->tensor->type.dtype;
      if (v->kind == SemaValue::Kind::Int && (v->intValue > INT32_MAX || v->intValue < INT32_MIN))
        ivType = core::DType::Int64;
    }
    auto bound = [&](const SemaValue &v) {
      return v.isTensor() ? l_.castTo(v.tensor, ivType) : l_.constant(ivType, v, {}, s.iter->pos);
    };
    ir::Value *loV = bound(lo), *hiV = bound(hi), *stepV = bound(step);

    std::set<std::string> assignedInBody;
    collectAssigned(s.body, assignedInBody);
    std::set<std::string> targetNames;
    collectAssigned(*s.targets.at(0), targetNames);
    if (s.targets.at(0)->kind != ast::ExprKind::Name)
      l_.fail(s.targets.at(0)->pos, "the loop variable must be a single name");
    std::vector<std::string> carried;
    std::vector<ir::Value *> inits;
    for (const std::string &name : assignedInBody) {
      auto it = scope.find(name);
      if (it == scope.end() || targetNames.count(name))
        continue;
      if (!it->second.isTensor() && !it->second.isNumber())
        continue; // e.g. a dtype or module rebound inside: checked when yielded
      carried.push_back(name);
      inits.push_back(regionValue(it->second, name, s.pos));
    }
    std::vector<ir::Value *> operands{loV, hiV, stepV};
    operands.insert(operands.end(), inits.begin(), inits.end());
    ir::Op *op = b.create(ir::OpCode::For, operands, {});
    std::vector<ir::Type> argTypes{ir::Type::scalar(ivType)};
    for (ir::Value *v : inits)
      argTypes.push_back(v->type);
    ir::Block *body = b.addRegion(op, argTypes);
    ir::Block *outer = b.insertionBlock();

    Scope bodyScope = scope;
    body->arguments[0]->nameHint = s.targets[0]->name;
    bodyScope[s.targets[0]->name] = SemaValue::ofTensor(body->arguments[0]);
    for (size_t i = 0; i < carried.size(); ++i) {
      body->arguments[i + 1]->nameHint = carried[i];
      bodyScope[carried[i]] = SemaValue::ofTensor(body->arguments[i + 1]);
    }
    b.setInsertionBlock(body);
    ++loopDepth_;
    lowerList(pointers(s.body), bodyScope);
    --loopDepth_;
    if (returned_)
      l_.fail(s.pos, "return inside a loop is not supported");
    std::vector<ir::Value *> yields;
    for (size_t i = 0; i < carried.size(); ++i) {
      ir::Value *v = regionValue(bodyScope[carried[i]], carried[i], s.pos);
      if (v->type != inits[i]->type)
        l_.fail(s.pos, "loop-carried '" + carried[i] + "' is " + inits[i]->type.str() +
                           " before the loop but " + v->type.str() + " at the end of its body");
      yields.push_back(v);
    }
    b.setLocation(l_.location(s.pos));
    b.yield(yields);
    b.setInsertionBlock(outer);
    for (size_t i = 0; i < carried.size(); ++i) {
      ir::Value *result = b.function().newValue(inits[i]->type, carried[i]);
      result->definingOp = op;
      result->index = static_cast<int>(i);
      op->results.push_back(result);
      scope[carried[i]] = SemaValue::ofTensor(result);
    }
    // Names that only the body defines do not outlive it, as in Triton.
    for (const auto &[name, value] : bodyScope)
      if (!scope.count(name) && !value.isTensor() && !targetNames.count(name))
        scope[name] = value; // compile-time values stay visible (rebinding checked above)
  }

  void lowerWhile(const ast::Stmt &s, Scope &scope) {
    if (!s.orelse.empty())
      l_.fail(s.pos, "while ... else is not supported in Triton kernels");
    for (int count = 0;; ++count) {
      SemaValue cond = l_.eval(*s.test, scope);
      if (!cond.isConstexpr())
        l_.fail(s.test->pos, "while loops need a compile-time condition; use a for loop over tl.range");
      if (!truthy(cond, s.pos))
        return;
      if (count >= kMaxStaticIterations)
        l_.fail(s.pos, "while loop runs more than " + std::to_string(kMaxStaticIterations) + " iterations at compile time");
      ++loopDepth_;
      lowerList(pointers(s.body), scope);
      --loopDepth_;
      if (returned_)
        l_.fail(s.pos, "return inside a loop is not supported");
    }
  }

  Lowerer &l_;
  bool isKernel_;
  int loopDepth_ = 0; // a return inside a loop cannot be made structured
  bool returned_ = false;
  SemaValue returnValue_;
};

Lowerer::Lowerer(const KernelFile &file, const ConstexprBindings &constexprs)
    : file_(file), constexprs_(constexprs) {}

core::SourceLocation Lowerer::location(ast::Position pos) const {
  return core::SourceLocation{file_.module.file, pos.line, pos.col};
}

void Lowerer::fail(ast::Position pos, const std::string &message) const {
  throw core::CompileError(location(pos), message);
}

void Lowerer::bindGlobals() {
  for (const ast::StmtPtr &s : file_.module.body) {
    switch (s->kind) {
    case ast::StmtKind::Import:
      for (size_t i = 0; i < s->names.size(); ++i) {
        const std::string &path = s->names[i];
        if (!s->asNames[i].empty())
          globals_[s->asNames[i]] = SemaValue::ofModule(canonicalModule(path));
        else // `import a.b` binds `a`
          globals_[path.substr(0, path.find('.'))] = SemaValue::ofModule(canonicalModule(path.substr(0, path.find('.'))));
      }
      break;
    case ast::StmtKind::ImportFrom:
      for (size_t i = 0; i < s->names.size(); ++i) {
        const std::string bound = s->asNames[i].empty() ? s->names[i] : s->asNames[i];
        const std::string path = s->module + "." + s->names[i];
        const std::string canonical = canonicalModule(path);
        if (canonical.rfind("opaque:", 0) == 0 && canonicalModule(s->module) == "tl")
          globals_[bound] = SemaValue::ofBuiltin("tl." + s->names[i]); // from triton.language import ...
        else
          globals_[bound] = SemaValue::ofModule(canonical);
      }
      break;
    case ast::StmtKind::FunctionDef: {
      SemaValue fn;
      fn.kind = SemaValue::Kind::Function;
      fn.function = s->function.get();
      fn.text = s->function->name;
      globals_[s->function->name] = fn;
      break;
    }
    case ast::StmtKind::Assign:
    case ast::StmtKind::AnnAssign: {
      // Module-level constants (FOO: tl.constexpr = 3) are compile-time values.
      if (!s->value)
        break;
      Scope none;
      SemaValue v = eval(*s->value, none);
      if (v.isTensor())
        fail(s->pos, "module-level values must be compile-time constants");
      for (const ast::ExprPtr &t : s->targets)
        if (t->kind == ast::ExprKind::Name)
          globals_[t->name] = v;
      break;
    }
    case ast::StmtKind::Expr: // triton_helpers.set_driver_to_gpu(), docstrings: nothing to lower
    case ast::StmtKind::Pass:
      break;
    default:
      fail(s->pos, "unsupported statement at module level");
    }
  }
}

SemaValue Lowerer::inlineFunction(const ast::FunctionDef &fn, CallArguments args, ast::Position pos) {
  if (++inlineDepth_ > kMaxInlineDepth)
    fail(pos, "helper functions nest more than " + std::to_string(kMaxInlineDepth) + " calls deep (recursion?)");
  Scope scope = globals_;
  size_t next = 0;
  for (const ast::Parameter &p : fn.params) {
    const SemaValue *v = nullptr;
    for (auto &[name, value] : args.keywords)
      if (name == p.name)
        v = &value;
    if (!v && next < args.positional.size())
      v = &args.positional[next++];
    if (v) {
      scope[p.name] = *v;
    } else if (p.defaultValue) {
      Scope empty = globals_;
      scope[p.name] = eval(*p.defaultValue, empty);
    } else {
      fail(pos, "call of '" + fn.name + "' is missing argument '" + p.name + "'");
    }
  }
  if (next < args.positional.size())
    fail(pos, "'" + fn.name + "' takes " + std::to_string(fn.params.size()) + " arguments, got " +
                  std::to_string(args.positional.size()));
  for (const auto &keyword : args.keywords) {
    const std::string &name = keyword.first;
    const bool known = std::any_of(fn.params.begin(), fn.params.end(), [&](const ast::Parameter &p) { return p.name == name; });
    if (!known)
      fail(pos, "'" + fn.name + "' has no parameter '" + name + "'");
  }
  StatementLowerer body(*this, /*isKernel=*/false);
  body.lowerList(StatementLowerer::pointers(fn.body), scope);
  --inlineDepth_;
  return body.returnValue();
}

std::unique_ptr<ir::Function> Lowerer::run() {
  const KernelMetadata &meta = file_.metadata;
  function_ = std::make_unique<ir::Function>(meta.kernelName);
  builder_ = std::make_unique<ir::Builder>(*function_);
  builder_->setLocation(meta.location);
  bindGlobals();

  for (const auto &[name, value] : constexprs_) {
    const ParameterSpec *p = meta.findParameter(name);
    if (!p && meta.bodyConstexprs.count(name)) {
      if (!std::holds_alternative<int64_t>(value))
        throw core::CompileError(meta.location, "body constexpr '" + name + "' of '" + meta.kernelName +
                                                    "' takes an integer, got " + toString(value));
      continue;
    }
    if (!p || !p->isConstexpr)
      throw core::CompileError(meta.location, "'" + name + "' is not a constexpr parameter of '" + meta.kernelName + "'");
  }
  Scope scope = globals_;
  for (const ParameterSpec &p : meta.parameters) {
    if (p.isConstexpr) {
      ConstexprValue v;
      if (auto it = constexprs_.find(p.name); it != constexprs_.end())
        v = it->second;
      else if (p.defaultValue)
        v = *p.defaultValue;
      else
        throw core::CompileError(p.location, "constexpr '" + p.name + "' of '" + meta.kernelName +
                                                    "' has no value; bind it (e.g. --const " + p.name + "=128)");
      if (std::holds_alternative<int64_t>(v))
        scope[p.name] = SemaValue::ofInt(std::get<int64_t>(v));
      else if (std::holds_alternative<double>(v))
        scope[p.name] = SemaValue::ofFloat(std::get<double>(v));
      else if (std::holds_alternative<bool>(v))
        scope[p.name] = SemaValue::ofBool(std::get<bool>(v));
      else
        scope[p.name] = SemaValue::none();
      continue;
    }
    ir::Type type = p.isPointer ? ir::Type::pointer(p.dtype) : ir::Type::scalar(p.dtype);
    scope[p.name] = SemaValue::ofTensor(function_->addParameter(p.name, type));
  }
  StatementLowerer body(*this, /*isKernel=*/true);
  body.lowerList(StatementLowerer::pointers(file_.kernel->body), scope);
  ir::verify(*function_);
  return std::move(function_);
}

const SemaValue *argument(const CallArguments &args, size_t index, const std::string &keyword) {
  for (const auto &[name, value] : args.keywords)
    if (name == keyword)
      return &value;
  if (index < args.positional.size())
    return &args.positional[index];
  return nullptr;
}

} // namespace lowering

std::unique_ptr<ir::Function> lowerKernel(const KernelFile &file, const ConstexprBindings &constexprs) {
  lowering::Lowerer lowerer(file, constexprs);
  return lowerer.run();
}

} // namespace npusim::triton
