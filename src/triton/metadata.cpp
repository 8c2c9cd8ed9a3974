// Reads a kernel file's decorators into KernelMetadata and picks the kernel.
#include "triton/frontend.h"
#include "triton/literal.h"
#include "triton/parser.h"

#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

namespace npusim::triton {

namespace {

bool isJitDecorator(const ast::Expr &decorator) {
  const ast::Expr &callee = decorator.kind == ast::ExprKind::Call ? *decorator.operands.at(0) : decorator;
  const std::string name = dottedName(callee);
  return name == "triton.jit" || name == "jit";
}

/// "triton_heuristics.pointwise(...)" -> "pointwise"; "" if not a heuristics decorator.
std::string heuristicName(const ast::Expr &decorator) {
  if (decorator.kind != ast::ExprKind::Call)
    return {};
  const std::string name = dottedName(*decorator.operands.at(0));
  const std::string prefix = "triton_heuristics.";
  if (name.rfind(prefix, 0) == 0)
    return name.substr(prefix.size());
  return {};
}

KernelKind kindFromHeuristic(const std::string &h) {
  if (h == "pointwise")
    return KernelKind::Pointwise;
  if (h == "reduction" || h == "split_scan" || h == "cooperative_reduction")
    return KernelKind::Reduction;
  if (h == "persistent_reduction")
    return KernelKind::PersistentReduction;
  if (h == "template")
    return KernelKind::Template;
  if (h == "foreach")
    return KernelKind::Foreach;
  return KernelKind::Plain;
}

std::optional<ConstexprValue> constexprFromLiteral(const PyLiteral &lit) {
  switch (lit.kind) {
  case PyLiteral::Kind::None: return ConstexprValue{};
  case PyLiteral::Kind::Bool: return ConstexprValue{lit.boolValue};
  case PyLiteral::Kind::Int: return ConstexprValue{lit.intValue};
  case PyLiteral::Kind::Float: return ConstexprValue{lit.floatValue};
  default: return std::nullopt;
  }
}

class MetadataReader {
public:
  MetadataReader(const std::string &file, KernelMetadata &meta) : file_(file), meta_(meta) {}

  void readHeuristic(const ast::Expr &decorator) {
    for (size_t i = 1; i < decorator.operands.size(); ++i)
      throw core::CompileError(sourceAt(file_, decorator.operands[i]->pos),
                               "Inductor heuristics take keyword arguments only");
    for (const ast::Keyword &kw : decorator.keywords) {
      PyLiteral value = evaluateLiteral(*kw.value, file_);
      if (kw.name == "size_hints")
        readSizeHints(value);
      else if (kw.name == "triton_meta")
        tritonMeta_ = std::move(value);
      else if (kw.name == "inductor_meta")
        inductorMeta_ = std::move(value);
      else if (kw.name == "reduction_hint")
        meta_.reductionHint = lastComponent(value.text);
    }
    if (tritonMeta_.kind != PyLiteral::Kind::Dict)
      throw core::CompileError(sourceAt(file_, decorator.pos),
                               "the heuristics decorator has no triton_meta dict with the kernel signature");
    readTritonMeta();
    if (inductorMeta_.kind == PyLiteral::Kind::Dict)
      readInductorMeta();
  }

  const PyLiteral *signature() const { return tritonMeta_.get("signature"); }
  const PyLiteral *constants() const { return tritonMeta_.get("constants"); }
  /// Where each of meta.mutatedArgNames is written.
  const std::vector<ast::Position> &mutatedPositions() const { return mutatedPositions_; }

private:
  static std::string lastComponent(const std::string &dotted) {
    const size_t dot = dotted.rfind('.');
    return dot == std::string::npos ? dotted : dotted.substr(dot + 1);
  }

  void readSizeHints(const PyLiteral &value) {
    if (value.kind == PyLiteral::Kind::Dict) {
      for (size_t i = 0; i + 1 < value.items.size(); i += 2) {
        const PyLiteral &key = value.items[i], &hint = value.items[i + 1];
        if (key.kind != PyLiteral::Kind::String || hint.kind != PyLiteral::Kind::Int)
          throw core::CompileError(sourceAt(file_, key.pos), "size_hints must map axis names to integers");
        meta_.sizeHints[key.text] = hint.intValue;
      }
    } else if (value.kind == PyLiteral::Kind::List || value.kind == PyLiteral::Kind::Tuple) {
      // The older list form names no axes; keep the hints by position.
      for (size_t i = 0; i < value.items.size(); ++i)
        if (value.items[i].kind == PyLiteral::Kind::Int)
          meta_.sizeHints[std::to_string(i)] = value.items[i].intValue;
    } else {
      throw core::CompileError(sourceAt(file_, value.pos), "size_hints must be a dict, got " + value.describe());
    }
  }

  void readTritonMeta() {
    const PyLiteral *sig = signature();
    if (!sig || sig->kind != PyLiteral::Kind::Dict)
      throw core::CompileError(sourceAt(file_, tritonMeta_.pos), "triton_meta has no 'signature' dict");
    if (const PyLiteral *c = constants(); c && c->kind == PyLiteral::Kind::Dict) {
      for (size_t i = 0; i + 1 < c->items.size(); i += 2)
        if (c->items[i].kind == PyLiteral::Kind::String)
          if (auto v = constexprFromLiteral(c->items[i + 1]))
            meta_.constants[c->items[i].text] = *v;
    }
  }

  void readInductorMeta() {
    if (const PyLiteral *g = inductorMeta_.get("grid_type"); g && g->kind == PyLiteral::Kind::String)
      meta_.gridType = g->text;
    if (const PyLiteral *m = inductorMeta_.get("mutated_arg_names")) {
      if (m->kind != PyLiteral::Kind::List && m->kind != PyLiteral::Kind::Tuple)
        throw core::CompileError(sourceAt(file_, m->pos), "mutated_arg_names must be a list of strings");
      for (const PyLiteral &name : m->items) {
        if (name.kind != PyLiteral::Kind::String)
          throw core::CompileError(sourceAt(file_, name.pos), "mutated_arg_names must be a list of strings");
        meta_.mutatedArgNames.push_back(name.text);
        mutatedPositions_.push_back(name.pos);
      }
    }
    if (const PyLiteral *c = inductorMeta_.get("config_args"); c && c->kind == PyLiteral::Kind::Dict) {
      for (size_t i = 0; i + 1 < c->items.size(); i += 2)
        if (c->items[i].kind == PyLiteral::Kind::String)
          if (auto v = constexprFromLiteral(c->items[i + 1]))
            meta_.configArgs[c->items[i].text] = *v;
    }
    if (const PyLiteral *n = inductorMeta_.get("num_load"); n && n->kind == PyLiteral::Kind::Int)
      meta_.numLoads = static_cast<int>(n->intValue);
    if (const PyLiteral *n = inductorMeta_.get("num_reduction"); n && n->kind == PyLiteral::Kind::Int)
      meta_.numReductions = static_cast<int>(n->intValue);
  }

  const std::string &file_;
  KernelMetadata &meta_;
  PyLiteral tritonMeta_;
  PyLiteral inductorMeta_;
  std::vector<ast::Position> mutatedPositions_;
};

bool isConstexprAnnotation(const ast::Expr *annotation) {
  if (!annotation)
    return false;
  const std::string name = dottedName(*annotation);
  return name == "tl.constexpr" || name == "constexpr" || name == "triton.language.constexpr" ||
         name == "core.constexpr";
}

/// Reads "*fp32", "i32", "constexpr" into a ParameterSpec.
void applyTypeString(ParameterSpec &spec, const std::string &type, const core::SourceLocation &where) {
  spec.typeString = type;
  if (type == "constexpr") {
    spec.isConstexpr = true;
    return;
  }
  std::string element = type;
  if (!element.empty() && element[0] == '*') {
    spec.isPointer = true;
    element = element.substr(1);
    if (element.rfind("k", 0) == 0) // "*k" marks a constant pointer in some versions
      element = element.substr(1);
  }
  auto dtype = core::parseDType(element);
  if (!dtype)
    throw core::CompileError(where, "parameter '" + spec.name + "' has unsupported type '" + type + "'");
  spec.dtype = *dtype;
}

} // namespace

const char *name(KernelKind kind) {
  switch (kind) {
  case KernelKind::Pointwise: return "pointwise";
  case KernelKind::Reduction: return "reduction";
  case KernelKind::PersistentReduction: return "persistent_reduction";
  case KernelKind::Template: return "template";
  case KernelKind::Foreach: return "foreach";
  case KernelKind::Plain: return "jit";
  }
  return "jit";
}

std::string toString(const ConstexprValue &value) {
  if (std::holds_alternative<int64_t>(value))
    return std::to_string(std::get<int64_t>(value));
  if (std::holds_alternative<bool>(value))
    return std::get<bool>(value) ? "True" : "False";
  if (std::holds_alternative<double>(value)) {
    std::ostringstream os;
    os.precision(17);
    os << std::get<double>(value);
    return os.str();
  }
  return "None";
}

const ParameterSpec *KernelMetadata::findParameter(const std::string &paramName) const {
  for (const ParameterSpec &p : parameters)
    if (p.name == paramName)
      return &p;
  return nullptr;
}

std::vector<std::string> KernelMetadata::freeConstexprs() const {
  std::vector<std::string> names;
  for (const ParameterSpec &p : parameters)
    if (p.isConstexpr && !p.defaultValue)
      names.push_back(p.name);
  return names;
}

KernelFile loadKernel(std::string_view source, std::string fileName) {
  KernelFile kf;
  kf.module = parseModule(source, fileName);
  const std::string &file = kf.module.file;

  const ast::FunctionDef *heuristicKernel = nullptr;
  const ast::FunctionDef *lastJit = nullptr;
  const ast::Stmt *kernelStmt = nullptr;
  const ast::Expr *heuristicDecorator = nullptr;
  for (const ast::StmtPtr &stmt : kf.module.body) {
    if (stmt->kind != ast::StmtKind::FunctionDef)
      continue;
    const ast::FunctionDef &fn = *stmt->function;
    bool jit = false;
    const ast::Expr *heuristic = nullptr;
    for (const ast::ExprPtr &d : fn.decorators) {
      if (isJitDecorator(*d))
        jit = true;
      else if (!heuristicName(*d).empty())
        heuristic = d.get();
    }
    if (heuristic && !jit)
      throw core::CompileError(sourceAt(file, stmt->pos), "kernel '" + fn.name + "' has heuristics but no @triton.jit");
    if (heuristic) {
      if (heuristicKernel)
        throw core::CompileError(sourceAt(file, stmt->pos),
                                 "a second kernel '" + fn.name + "' in one file; one kernel per file");
      heuristicKernel = &fn;
      heuristicDecorator = heuristic;
      kernelStmt = stmt.get();
    } else if (jit) {
      lastJit = &fn;
      if (!heuristicKernel)
        kernelStmt = stmt.get();
    }
  }
  kf.kernel = heuristicKernel ? heuristicKernel : lastJit;
  if (!kf.kernel)
    throw core::CompileError(core::SourceLocation{file, 1, 1}, "no @triton.jit kernel in the file");

  KernelMetadata &meta = kf.metadata;
  meta.kernelName = kf.kernel->name;
  meta.location = sourceAt(file, kernelStmt->pos);
  MetadataReader reader(file, meta);
  if (heuristicDecorator) {
    meta.kind = kindFromHeuristic(heuristicName(*heuristicDecorator));
    reader.readHeuristic(*heuristicDecorator);
  }

  // Parameters: names from the def, types from the signature (or annotations).
  const PyLiteral *sig = heuristicDecorator ? reader.signature() : nullptr;
  std::set<std::string> seen;
  for (const ast::Parameter &param : kf.kernel->params) {
    const core::SourceLocation where = sourceAt(file, param.pos);
    if (!seen.insert(param.name).second)
      throw core::CompileError(where, "duplicate parameter '" + param.name + "'");
    ParameterSpec spec;
    spec.name = param.name;
    spec.location = where;
    const PyLiteral *type = sig ? sig->get(param.name) : nullptr;
    if (type) {
      if (type->kind != PyLiteral::Kind::String)
        throw core::CompileError(sourceAt(file, type->pos), "signature type of '" + param.name + "' must be a string");
      applyTypeString(spec, type->text, sourceAt(file, type->pos));
    } else if (isConstexprAnnotation(param.annotation.get())) {
      spec.isConstexpr = true;
      spec.typeString = "constexpr";
    } else if (param.annotation && param.annotation->kind == ast::ExprKind::String) {
      applyTypeString(spec, param.annotation->text, where);
    } else {
      throw core::CompileError(where, "parameter '" + param.name +
                                          "' has no type: it is missing from triton_meta['signature']");
    }
    if (spec.isConstexpr) {
      if (param.defaultValue) {
        if (auto v = constexprFromLiteral(evaluateLiteral(*param.defaultValue, file)))
          spec.defaultValue = *v;
        else
          throw core::CompileError(sourceAt(file, param.defaultValue->pos), "constexpr default must be a number, bool or None");
      } else if (auto c = meta.constants.find(param.name); c != meta.constants.end()) {
        spec.defaultValue = c->second;
      }
    }
    meta.parameters.push_back(std::move(spec));
  }
  if (sig) {
    for (size_t i = 0; i + 1 < sig->items.size(); i += 2) {
      const PyLiteral &key = sig->items[i];
      if (key.kind != PyLiteral::Kind::String)
        throw core::CompileError(sourceAt(file, key.pos), "signature keys must be parameter names");
      if (!meta.findParameter(key.text))
        throw core::CompileError(sourceAt(file, key.pos),
                                 "signature names '" + key.text + "', which is not a parameter of '" + meta.kernelName + "'");
    }
  }
  for (const ast::StmtPtr &stmt : kf.kernel->body) {
    if (stmt->kind != ast::StmtKind::Assign || stmt->targets.size() != 1 ||
        stmt->targets[0]->kind != ast::ExprKind::Name || stmt->value->kind != ast::ExprKind::Int)
      continue;
    const ParameterSpec *p = meta.findParameter(stmt->targets[0]->name);
    if (p && !p->isConstexpr && !p->isPointer && core::isInteger(p->dtype))
      meta.bodyConstants.emplace(p->name, stmt->value->intValue);
  }
  for (const ast::StmtPtr &stmt : kf.kernel->body) {
    if (stmt->kind != ast::StmtKind::AnnAssign || !stmt->value || !stmt->annotation ||
        stmt->targets.size() != 1 || stmt->targets[0]->kind != ast::ExprKind::Name ||
        stmt->value->kind != ast::ExprKind::Int)
      continue;
    const ast::Expr &annotation = *stmt->annotation;
    const bool constexprAnnotation =
        (annotation.kind == ast::ExprKind::Name && annotation.name == "constexpr") ||
        (annotation.kind == ast::ExprKind::Attribute && annotation.name == "constexpr" &&
         annotation.operands.at(0)->kind == ast::ExprKind::Name && annotation.operands[0]->name == "tl");
    if (constexprAnnotation && !meta.findParameter(stmt->targets[0]->name))
      meta.bodyConstexprs.emplace(stmt->targets[0]->name, stmt->value->intValue);
  }
  for (size_t i = 0; i < meta.mutatedArgNames.size(); ++i) {
    const std::string &mutated = meta.mutatedArgNames[i];
    const ParameterSpec *p = meta.findParameter(mutated);
    if (!p || !p->isPointer)
      throw core::CompileError(sourceAt(file, reader.mutatedPositions().at(i)),
                               "mutated_arg_names lists '" + mutated + "', which is not a pointer parameter");
  }
  return kf;
}

KernelFile loadKernelFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw core::CompileError(core::SourceLocation{path, 0, 0}, "cannot read the file");
  std::ostringstream text;
  text << in.rdbuf();
  return loadKernel(text.str(), path);
}

} // namespace npusim::triton
