// Recognising a template kernel's block sizes that may be re-tiled: every use
// of a block constexpr must be one of the forms whose covered index range the
// proof in template_blocks_internal.h holds for; any other use keeps the
// launch's value and says where it is.
#include "driver/template_blocks_internal.h"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>

namespace npusim::driver {

namespace {

namespace ast = triton::ast;
using ast::BinaryOperator;
using ast::Expr;
using ast::ExprKind;

bool isName(const Expr *e, std::string_view name) { return e && e->kind == ExprKind::Name && e->name == name; }

/// `tl.NAME(...)`.
bool isTlCall(const Expr &e, std::string_view function) {
  return e.kind == ExprKind::Call && !e.operands.empty() && e.operands[0]->kind == ExprKind::Attribute &&
         e.operands[0]->name == function && isName(e.operands[0]->operands.at(0).get(), "tl");
}

bool isBinary(const Expr &e, BinaryOperator op) {
  return e.kind == ExprKind::Binary && e.binaryOp == op && e.operands.size() == 2;
}

/// The block B of `tl.arange(0, B)` when B is one of `blocks`.
std::optional<std::string> arangeBlock(const Expr &e, const std::set<std::string> &blocks) {
  if (!isTlCall(e, "arange") || e.operands.size() != 3 || !e.keywords.empty())
    return std::nullopt;
  const Expr &start = *e.operands[1], &end = *e.operands[2];
  if (start.kind != ExprKind::Int || start.intValue != 0 || end.kind != ExprKind::Name || !blocks.count(end.name))
    return std::nullopt;
  return end.name;
}

/// The axis of `tl.program_id(a)` or `tl.program_id(a).to(T)`.
std::optional<int> programIdAxis(const Expr &e) {
  const Expr *call = &e;
  if (e.kind == ExprKind::Call && !e.operands.empty() && e.operands[0]->kind == ExprKind::Attribute &&
      e.operands[0]->name == "to")
    call = e.operands[0]->operands.at(0).get();
  if (!isTlCall(*call, "program_id") || call->operands.size() != 2 || !call->keywords.empty() ||
      call->operands[1]->kind != ExprKind::Int)
    return std::nullopt;
  return static_cast<int>(call->operands[1]->intValue);
}

struct BlockUses {
  int64_t launchValue = 0;
  std::set<int> axes;                   // of program_id(a) * B + arange(0, B)
  int aranges = 0;                      // bare tl.arange(0, B)
  std::vector<std::optional<int64_t>> extents; // C of the reduction loop forms
  std::set<std::string> counts;         // COUNT = (C + B - 1) // B
  std::string bad;                      // the first unrecognised use
};

class Analysis {
public:
  Analysis(const triton::KernelFile &file) : file_(file) {}

  std::map<std::string, BlockUses> run() {
    const auto &body = file_.kernel->body;
    // The blocks: body constexprs some tl.arange is as long as.
    std::set<std::string> all;
    for (const auto &[name, value] : file_.metadata.bodyConstexprs)
      all.insert(name);
    for (const ast::StmtPtr &s : body)
      forEachExpr(*s, [&](const Expr &e) {
        if (auto b = arangeBlock(e, all))
          blocks_.insert(*b);
      });
    for (const std::string &b : blocks_)
      uses_[b].launchValue = file_.metadata.bodyConstexprs.at(b);
    for (const ast::StmtPtr &s : body) {
      countAssignments(*s);
      if (s->kind == ast::StmtKind::Assign && s->targets.size() == 1 && s->targets[0]->kind == ExprKind::Name)
        topLevel_[s->targets[0]->name] = s->value.get();
    }
    for (const ast::StmtPtr &s : body)
      statement(*s, /*topLevel=*/true);
    return std::move(uses_);
  }

  bool numPrograms() const { return numPrograms_; }
  const std::map<int, int> &otherProgramIds() const { return otherProgramIds_; }

private:
  static void forEachExpr(const Expr &e, const std::function<void(const Expr &)> &f) {
    f(e);
    for (const ast::ExprPtr &o : e.operands)
      if (o)
        forEachExpr(*o, f);
    for (const ast::Keyword &k : e.keywords)
      if (k.value)
        forEachExpr(*k.value, f);
  }
  static void forEachExpr(const ast::Stmt &s, const std::function<void(const Expr &)> &f) {
    for (const ast::ExprPtr &t : s.targets)
      forEachExpr(*t, f);
    for (const Expr *e : {s.value.get(), s.annotation.get(), s.test.get(), s.iter.get()})
      if (e)
        forEachExpr(*e, f);
    for (const ast::StmtPtr &c : s.body)
      forEachExpr(*c, f);
    for (const ast::StmtPtr &c : s.orelse)
      forEachExpr(*c, f);
    if (s.function)
      for (const ast::StmtPtr &c : s.function->body)
        forEachExpr(*c, f);
  }

  void countAssignments(const ast::Stmt &s) {
    for (const ast::ExprPtr &t : s.targets)
      forEachExpr(*t, [&](const Expr &e) {
        if (e.kind == ExprKind::Name)
          ++assigned_[e.name];
      });
    for (const ast::StmtPtr &c : s.body)
      countAssignments(*c);
    for (const ast::StmtPtr &c : s.orelse)
      countAssignments(*c);
  }

  /// An integer the kernel fixes: a literal, a body constant or constexpr, a
  /// name bound once at the top level, or their sums, differences, products
  /// and floor quotients (of non-negative integers).
  std::optional<int64_t> evaluate(const Expr &e, int depth = 0) const {
    if (depth > 32)
      return std::nullopt;
    if (e.kind == ExprKind::Int)
      return e.intValue;
    if (e.kind == ExprKind::Name) {
      const auto &meta = file_.metadata;
      if (auto it = meta.bodyConstexprs.find(e.name); it != meta.bodyConstexprs.end() && !blocks_.count(e.name))
        return it->second;
      if (auto it = meta.bodyConstants.find(e.name); it != meta.bodyConstants.end())
        return it->second;
      const auto once = assigned_.find(e.name);
      const auto top = topLevel_.find(e.name);
      if (once != assigned_.end() && once->second == 1 && top != topLevel_.end())
        return evaluate(*top->second, depth + 1);
      return std::nullopt;
    }
    if (e.kind == ExprKind::Binary && e.operands.size() == 2) {
      const auto a = evaluate(*e.operands[0], depth + 1), b = evaluate(*e.operands[1], depth + 1);
      if (!a || !b)
        return std::nullopt;
      switch (e.binaryOp) {
      case BinaryOperator::Add: return *a + *b;
      case BinaryOperator::Sub: return *a - *b;
      case BinaryOperator::Mul: return *a * *b;
      // Python's floor division; only of non-negative integers here.
      case BinaryOperator::FloorDiv:
        return *a >= 0 && *b > 0 ? std::optional<int64_t>(*a / *b) : std::nullopt;
      default: return std::nullopt;
      }
    }
    return std::nullopt;
  }

  void statement(const ast::Stmt &s, bool topLevel) {
    // The block's own binding.
    if (topLevel && s.kind == ast::StmtKind::AnnAssign && s.targets.size() == 1 &&
        s.targets[0]->kind == ExprKind::Name && blocks_.count(s.targets[0]->name))
      return;
    // COUNT = (C + B - 1) // B
    if (topLevel && s.kind == ast::StmtKind::Assign && s.targets.size() == 1 &&
        s.targets[0]->kind == ExprKind::Name && assigned_[s.targets[0]->name] == 1 && s.value &&
        isBinary(*s.value, BinaryOperator::FloorDiv)) {
      const Expr &lhs = *s.value->operands[0], &divisor = *s.value->operands[1];
      if (divisor.kind == ExprKind::Name && blocks_.count(divisor.name) && isBinary(lhs, BinaryOperator::Sub) &&
          lhs.operands[1]->kind == ExprKind::Int && lhs.operands[1]->intValue == 1 &&
          isBinary(*lhs.operands[0], BinaryOperator::Add) && isName(lhs.operands[0]->operands[1].get(), divisor.name)) {
        BlockUses &u = uses_[divisor.name];
        u.extents.push_back(evaluate(*lhs.operands[0]->operands[0]));
        u.counts.insert(s.targets[0]->name);
        expression(*lhs.operands[0]->operands[0]);
        return;
      }
    }
    for (const ast::ExprPtr &t : s.targets)
      expression(*t);
    for (const Expr *e : {s.value.get(), s.test.get(), s.iter.get()})
      if (e)
        expression(*e);
    for (const ast::StmtPtr &c : s.body)
      statement(*c, false);
    for (const ast::StmtPtr &c : s.orelse)
      statement(*c, false);
    if (s.function)
      for (const ast::StmtPtr &c : s.function->body)
        statement(*c, false);
  }

  void unrecognised(const std::string &block, const Expr &at, const std::string &how) {
    BlockUses &u = uses_[block];
    if (u.bad.empty())
      u.bad = how + " at line " + std::to_string(at.pos.line);
  }

  void expression(const Expr &e) {
    // program_id(a)[.to(T)] * B + arange(0, B)
    if (isBinary(e, BinaryOperator::Add)) {
      for (int side = 0; side < 2; ++side) {
        const Expr &product = *e.operands[side], &range = *e.operands[1 - side];
        const auto b = arangeBlock(range, blocks_);
        if (!b || !isBinary(product, BinaryOperator::Mul))
          continue;
        for (int factor = 0; factor < 2; ++factor) {
          const auto axis = programIdAxis(*product.operands[factor]);
          if (axis && isName(product.operands[1 - factor].get(), *b)) {
            uses_[*b].axes.insert(*axis);
            return;
          }
        }
      }
    }
    if (auto b = arangeBlock(e, blocks_)) {
      ++uses_[*b].aranges;
      return;
    }
    if (e.kind == ExprKind::Tuple || e.kind == ExprKind::List) {
      for (const ast::ExprPtr &o : e.operands)
        if (!(o->kind == ExprKind::Name && blocks_.count(o->name)))
          expression(*o);
      return;
    }
    // range(0, C, B)
    if (e.kind == ExprKind::Call && isName(e.operands[0].get(), "range") && e.operands.size() == 4 &&
        e.keywords.empty() && e.operands[1]->kind == ExprKind::Int && e.operands[1]->intValue == 0 &&
        e.operands[3]->kind == ExprKind::Name && blocks_.count(e.operands[3]->name)) {
      uses_[e.operands[3]->name].extents.push_back(evaluate(*e.operands[2]));
      expression(*e.operands[2]);
      return;
    }
    // (i % COUNT) * B
    if (isBinary(e, BinaryOperator::Mul) && e.operands[1]->kind == ExprKind::Name &&
        blocks_.count(e.operands[1]->name) && isBinary(*e.operands[0], BinaryOperator::Mod) &&
        e.operands[0]->operands[1]->kind == ExprKind::Name &&
        uses_[e.operands[1]->name].counts.count(e.operands[0]->operands[1]->name)) {
      expression(*e.operands[0]->operands[0]);
      return;
    }
    if (auto axis = programIdAxis(e))
      ++otherProgramIds_[*axis];
    if (isTlCall(e, "num_programs"))
      numPrograms_ = true;
    if (e.kind == ExprKind::Name && blocks_.count(e.name)) {
      unrecognised(e.name, e, "used outside the tile and reduction forms");
      return;
    }
    for (const ast::ExprPtr &o : e.operands)
      if (o)
        expression(*o);
    for (const ast::Keyword &k : e.keywords)
      if (k.value)
        expression(*k.value);
  }

  const triton::KernelFile &file_;
  std::set<std::string> blocks_;
  std::map<std::string, BlockUses> uses_;
  std::map<std::string, int> assigned_;
  std::map<std::string, const Expr *> topLevel_;
  std::map<int, int> otherProgramIds_;
  bool numPrograms_ = false;
};

} // namespace

TemplateBlocks templateBlocks(const triton::KernelFile &file, const triton::GridSize &launchGrid,
                              const std::vector<std::string> &pinned) {
  TemplateBlocks result;
  Analysis analysis(file);
  const std::map<std::string, BlockUses> uses = analysis.run();
  std::map<int, int> blocksPerAxis;
  for (const auto &[name, u] : uses)
    for (int a : u.axes)
      ++blocksPerAxis[a];
  const int64_t grid[3] = {launchGrid.x, launchGrid.y, launchGrid.z};
  for (const auto &[name, u] : uses) {
    auto keep = [&, name = name](const std::string &why) { result.kept.push_back(name + ": " + why); };
    const bool reductionForms = !u.extents.empty() || !u.counts.empty();
    if (std::find(pinned.begin(), pinned.end(), name) != pinned.end()) {
      keep("pinned");
    } else if (!u.bad.empty()) {
      keep(u.bad);
    } else if (!u.axes.empty()) {
      const int a = *u.axes.begin();
      if (u.axes.size() > 1 || reductionForms || u.aranges > 0)
        keep("tiles more than one axis, or an axis and a reduction");
      else if (a < 0 || a > 2 || grid[a] < 1)
        keep("program_id(" + std::to_string(a) + ") is no axis of the launch's grid");
      else if (blocksPerAxis[a] > 1)
        keep("another block tiles program_id(" + std::to_string(a) + ") too");
      else if (analysis.numPrograms() || analysis.otherProgramIds().count(a))
        keep("program_id(" + std::to_string(a) + ") or num_programs is used outside `program_id * " + name +
             " + arange`");
      else {
        result.parameters.push_back(compiler::BlockParameter{name, grid[a] * u.launchValue, false, true});
        result.gridAxes.push_back(a);
      }
    } else if (reductionForms) {
      // -1: no integer the kernel fixes.
      const int64_t extent = u.extents.empty() ? -1 : u.extents.front().value_or(-1);
      const bool same = std::all_of(u.extents.begin(), u.extents.end(),
                                    [&](const std::optional<int64_t> &c) { return c.value_or(-1) == extent; });
      if (extent <= 0 || !same)
        keep("the reduction's extent is not one integer the kernel fixes");
      else if (extent % u.launchValue != 0)
        keep("the launch's " + std::to_string(u.launchValue) + " does not divide the reduction's extent " +
             std::to_string(extent));
      else {
        result.parameters.push_back(compiler::BlockParameter{name, extent, true, true});
        result.gridAxes.push_back(-1);
      }
    } else {
      keep("neither a tile axis nor a reduction loop");
    }
  }
  return result;
}

} // namespace npusim::driver
