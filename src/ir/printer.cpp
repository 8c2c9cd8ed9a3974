// The text form of TileIR (grammar in docs/tileir.md): one op per line, values
// named by their dense id (%7), attributes spelled out, result types after a
// colon, nested regions indented by two spaces. The printer accepts malformed
// IR too (wrong operand counts, null operands, enum values out of range), so
// that a function the verifier rejects can still be dumped.
#include "ir/ir.h"

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace npusim::ir {
namespace {

/// Escapes a string for a double-quoted literal (assert messages) or a comment.
std::string escape(std::string_view s) {
  std::string out;
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    switch (c) {
    case '"': out += "\\\""; break;
    case '\\': out += "\\\\"; break;
    case '\n': out += "\\n"; break;
    case '\t': out += "\\t"; break;
    case '\r': out += "\\r"; break;
    default:
      if (c < 0x20 || c >= 0x7f) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned>(c));
        out += buf;
      } else {
        out += ch;
      }
    }
  }
  return out;
}

/// Shortest decimal form that reads back to the same double; integral values
/// get ".0" so that a float literal always looks like one. Non-finite values:
/// inf, -inf, nan (the default quiet NaN) or nan(0x<64-bit pattern>).
std::string formatFloat(double v) {
  if (std::isnan(v)) {
    const auto bits = std::bit_cast<uint64_t>(v);
    if (bits == 0x7ff8000000000000ULL)
      return "nan";
    char buf[40];
    std::snprintf(buf, sizeof buf, "nan(0x%016llx)", static_cast<unsigned long long>(bits));
    return buf;
  }
  if (std::isinf(v))
    return v > 0 ? "inf" : "-inf";
  char buf[64];
  const auto result = std::to_chars(buf, buf + sizeof buf, v);
  std::string s(buf, result.ptr);
  if (s.find_first_of(".e") == std::string::npos)
    s += ".0";
  return s;
}

std::string formatConstant(const Op &op) {
  if (op.results.empty() || op.results[0] == nullptr)
    return std::to_string(op.constant.intValue);
  const Type &t = op.results[0]->type;
  if (t.isFloat())
    return formatFloat(op.constant.floatValue);
  if (!t.isPointer && t.dtype == DType::Bool && (op.constant.intValue == 0 || op.constant.intValue == 1))
    return op.constant.intValue ? "true" : "false";
  if (!t.isPointer && t.dtype == DType::UInt64)
    return std::to_string(static_cast<uint64_t>(op.constant.intValue));
  return std::to_string(op.constant.intValue);
}

/// name(e) when e is a value of the enum (e <= last), "?<n>" otherwise.
template <typename E> std::string enumName(E e, E last) {
  if (static_cast<int>(e) > static_cast<int>(last))
    return "?" + std::to_string(static_cast<int>(e));
  return std::string(name(e));
}

std::string opName(OpCode code) {
  return enumName(code, OpCode::Barrier);
}

std::string gridAxis(int axis) {
  if (axis >= 0 && axis <= 2)
    return std::string(1, static_cast<char>('x' + axis));
  return std::to_string(axis);
}

std::string ref(const Value *v) {
  return v ? "%" + std::to_string(v->id) : "<null>";
}

std::string refs(const std::vector<Value *> &values, size_t from = 0) {
  std::string s;
  for (size_t i = from; i < values.size(); ++i) {
    if (i > from)
      s += ", ";
    s += ref(values[i]);
  }
  return s;
}

/// The type, and the lane axis once the layout pass has chosen one.
std::string typeOf(const Value *v) {
  if (!v)
    return "<null>";
  return v->laneAxis >= 0 ? v->type.str() + " lane=" + std::to_string(v->laneAxis) : v->type.str();
}

/// "%20: fp32, %21: i32"
std::string typedRefs(const std::vector<Value *> &values) {
  std::string s;
  for (size_t i = 0; i < values.size(); ++i) {
    if (i)
      s += ", ";
    s += ref(values[i]) + ": " + typeOf(values[i]);
  }
  return s;
}

/// The For header "%iv = %lo to %hi step %st iter_args(%a = %x, ...)" is printed
/// only when the op has the shape that makes it unambiguous.
bool hasForShape(const Op &op) {
  return op.code == OpCode::For && op.operands.size() >= 3 && op.regions.size() == 1 &&
         op.regions[0] != nullptr && op.regions[0]->arguments.size() == op.operands.size() - 2;
}

class Printer {
public:
  std::string run(const Function &function) {
    std::string header = "tile.func @" + function.name() + "(";
    const Block &body = function.body();
    for (size_t i = 0; i < body.arguments.size(); ++i) {
      const Value *v = body.arguments[i];
      if (i)
        header += ", ";
      header += ref(v);
      for (const Parameter &p : function.parameters())
        if (p.value == v && v != nullptr) {
          header += " " + escape(p.name);
          break;
        }
      header += ": " + typeOf(v);
    }
    header += ")";
    if (const auto &g = function.programs(); g[0] || g[1] || g[2])
      header += " programs(" + std::to_string(g[0]) + ", " + std::to_string(g[1]) + ", " + std::to_string(g[2]) + ")";
    line(header + " {", {});
    blockOps(body, 2);
    out_ += "}\n";
    return std::move(out_);
  }

private:
  /// Appends a line; values defined on it that carry a name hint are listed in a
  /// trailing comment, in the order they appear ("_" for those without one).
  void line(std::string text, const std::vector<const Value *> &defined) {
    bool anyHint = false;
    for (const Value *v : defined)
      anyHint = anyHint || (v && !v->nameHint.empty());
    if (anyHint) {
      text += "  // ";
      for (size_t i = 0; i < defined.size(); ++i) {
        if (i)
          text += ", ";
        const Value *v = defined[i];
        text += v && !v->nameHint.empty() ? escape(v->nameHint) : "_";
      }
    }
    out_ += text;
    out_ += '\n';
  }

  void blockOps(const Block &block, int indent) {
    for (const auto &op : block.ops) {
      if (op)
        printOp(*op, indent);
      else
        line(std::string(indent, ' ') + "<null op>", {});
    }
  }

  /// Block arguments that the op header does not bind: "^(%20: fp32, %21: fp32):".
  void regionBody(const Block *region, int indent, bool argsInHeader) {
    if (!region) {
      line(std::string(indent + 2, ' ') + "<null region>", {});
      return;
    }
    if (!argsInHeader && !region->arguments.empty()) {
      std::vector<const Value *> defined(region->arguments.begin(), region->arguments.end());
      line(std::string(indent, ' ') + "^(" + typedRefs(region->arguments) + "):", defined);
    }
    blockOps(*region, indent + 2);
  }

  void printOp(const Op &op, int indent) {
    const std::string pad(indent, ' ');
    std::string s = pad;
    std::vector<const Value *> defined(op.results.begin(), op.results.end());
    if (!op.results.empty())
      s += refs(op.results) + " = ";
    s += opName(op.code);
    const bool forShape = hasForShape(op);
    s += operandsAndAttributes(op, forShape, defined);
    if (!op.results.empty()) {
      s += " : ";
      for (size_t i = 0; i < op.results.size(); ++i) {
        if (i)
          s += ", ";
        s += typeOf(op.results[i]);
      }
    }
    if (op.regions.empty()) {
      line(std::move(s), defined);
      return;
    }
    line(s + " {", defined);
    for (size_t r = 0; r < op.regions.size(); ++r) {
      if (r > 0)
        line(pad + (op.code == OpCode::If && r == 1 ? "} else {" : "} {"), {});
      regionBody(op.regions[r].get(), indent, forShape);
    }
    line(pad + "}", {});
  }

  /// Everything between the op name and the result types, with a leading space
  /// when not empty. Adds the For header's block arguments to defined.
  std::string operandsAndAttributes(const Op &op, bool forShape, std::vector<const Value *> &defined) {
    const auto &ops = op.operands;
    const std::string all = ops.empty() ? "" : " " + refs(ops);
    switch (op.code) {
    case OpCode::Constant: return " " + formatConstant(op) + all;
    case OpCode::ProgramId:
    case OpCode::NumPrograms: return " " + gridAxis(op.axis) + all;
    case OpCode::Arange: return " " + std::to_string(op.start) + ", " + std::to_string(op.end) + all;
    case OpCode::ExpandDims: return " axis=" + std::to_string(op.axis) + all;
    case OpCode::Slice:
      return " axis=" + std::to_string(op.axis) + " start=" + std::to_string(op.start) + all;
    case OpCode::Permute: {
      std::string s = " order=[";
      for (size_t i = 0; i < op.order.size(); ++i)
        s += (i ? ", " : "") + std::to_string(op.order[i]);
      return s + "]" + all;
    }
    case OpCode::Min:
    case OpCode::Max: return " " + enumName(op.nanMode, NanMode::Propagate) + all;
    case OpCode::Math: return " " + enumName(op.mathFn, MathFn::Fma) + all;
    case OpCode::Cmp: return " " + enumName(op.predicate, CmpPredicate::Ge) + all;
    case OpCode::Load:
      if (ops.size() >= 1 && ops.size() <= 3)
        return " " + ref(ops[0]) + (ops.size() >= 2 ? ", mask " + ref(ops[1]) : "") +
               (ops.size() == 3 ? ", other " + ref(ops[2]) : "");
      return all;
    case OpCode::Store:
      if (ops.size() == 3)
        return " " + ref(ops[0]) + ", " + ref(ops[1]) + ", mask " + ref(ops[2]);
      return all;
    case OpCode::AtomicRMW: {
      std::string s = " " + enumName(op.atomicKind, AtomicKind::Exchange);
      if (ops.size() == 3)
        return s + " " + ref(ops[0]) + ", " + ref(ops[1]) + ", mask " + ref(ops[2]);
      return s + all;
    }
    case OpCode::Reduce:
    case OpCode::Scan: {
      std::string s = " " + enumName(op.reduceKind, ReduceKind::Combine);
      if (usesNanMode(op.reduceKind))
        s += " " + enumName(op.nanMode, NanMode::Propagate);
      s += " axis=" + std::to_string(op.axis);
      if (op.code == OpCode::Scan && op.reverse)
        s += " reverse";
      return s + all;
    }
    case OpCode::Sort:
      return " axis=" + std::to_string(op.axis) + (op.descending ? " descending" : "") +
             (op.stable ? " stable" : "") + all;
    case OpCode::Dot: return " " + enumName(op.inputPrecision, InputPrecision::TF32x3) + all;
    case OpCode::For: {
      if (!forShape)
        return all;
      const Block &body = *op.regions[0];
      defined.insert(defined.end(), body.arguments.begin(), body.arguments.end());
      std::string s =
          " " + ref(body.arguments[0]) + " = " + ref(ops[0]) + " to " + ref(ops[1]) + " step " + ref(ops[2]);
      if (ops.size() > 3) {
        s += " iter_args(";
        for (size_t i = 3; i < ops.size(); ++i)
          s += (i > 3 ? ", " : "") + ref(body.arguments[i - 2]) + " = " + ref(ops[i]);
        s += ")";
      }
      return s;
    }
    case OpCode::Assert: return all + ", \"" + escape(op.message) + "\"";
    default: return all;
    }
  }

  std::string out_;
};

} // namespace

std::string print(const Function &function) {
  return Printer().run(function);
}

} // namespace npusim::ir
