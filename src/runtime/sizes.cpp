// Dynamic sizes: the expression syntax, the binding and its checks
// (docs/bundle-format.md, "Dynamic sizes").
#include "runtime/sizes_internal.h"

#include "core/error.h"

#include <cctype>
#include <set>
#include <sstream>

namespace npusim::runtime {

namespace {

bool isIdentifier(std::string_view s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_'))
    return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_'))
      return false;
  return true;
}

std::string trim(std::string_view s) {
  size_t a = 0, b = s.size();
  while (a < b && std::isspace(static_cast<unsigned char>(s[a])))
    ++a;
  while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1])))
    --b;
  return std::string(s.substr(a, b - a));
}

} // namespace

SizeBinding parseSizeBinding(const std::string &text, const std::string &what) {
  SizeBinding out;
  std::stringstream items(text);
  std::string item;
  while (std::getline(items, item, ',')) {
    const size_t eq = item.find('=');
    if (eq == std::string::npos)
      throw core::InputError(what + ": '" + trim(item) + "' is not NAME=VALUE");
    const std::string name = trim(std::string_view(item).substr(0, eq));
    const std::string value = trim(std::string_view(item).substr(eq + 1));
    if (!isIdentifier(name))
      throw core::InputError(what + ": '" + name + "' is not a size name");
    size_t used = 0;
    int64_t v = 0;
    try {
      v = std::stoll(value, &used);
    } catch (const std::exception &) {
      used = std::string::npos;
    }
    if (used != value.size() || value.empty())
      throw core::InputError(what + ": " + name + "=" + value + ": the value is not an integer");
    if (!out.emplace(name, v).second)
      throw core::InputError(what + ": " + name + " is given twice");
  }
  if (out.empty())
    throw core::InputError(what + ": no NAME=VALUE given");
  return out;
}

std::string SizeSummary::describe() const {
  std::string s;
  for (const SizeSymbol &sym : symbols)
    s += (s.empty() ? "" : ", ") + sym.name + "=" + std::to_string(sym.value);
  return s;
}

namespace detail {

namespace {

// Recursive descent over the expression syntax, in 64-bit integers with every
// overflow an error.
class Parser {
public:
  Parser(std::string_view text, const std::map<std::string, int64_t> &values, const std::string &where)
      : text_(text), values_(values), where_(where) {}

  int64_t parse(bool comparison) {
    int64_t v = sum();
    skip();
    if (comparison) {
      static const char *const ops[] = {"==", "!=", "<=", ">=", "<", ">"};
      std::string op;
      for (const char *o : ops)
        if (text_.substr(pos_, std::char_traits<char>::length(o)) == o) {
          op = o;
          break;
        }
      if (op.empty())
        fail("expected a comparison (== != < <= > >=)");
      pos_ += op.size();
      const int64_t r = sum();
      v = op == "==" ? v == r : op == "!=" ? v != r : op == "<=" ? v <= r : op == ">=" ? v >= r
                                                        : op == "<"  ? v < r
                                                                     : v > r;
      skip();
    }
    if (pos_ != text_.size())
      fail("unexpected '" + std::string(text_.substr(pos_)) + "'");
    return v;
  }

private:
  [[noreturn]] void fail(const std::string &why) const {
    throw core::InputError(where_ + ": expression '" + std::string(text_) + "': " + why);
  }
  void skip() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_])))
      ++pos_;
  }
  bool eat(std::string_view token) {
    skip();
    if (text_.substr(pos_, token.size()) != token)
      return false;
    pos_ += token.size();
    return true;
  }
  int64_t add(int64_t a, int64_t b) const {
    int64_t r = 0;
    if (__builtin_add_overflow(a, b, &r))
      fail("overflows 64 bits");
    return r;
  }
  int64_t sub(int64_t a, int64_t b) const {
    int64_t r = 0;
    if (__builtin_sub_overflow(a, b, &r))
      fail("overflows 64 bits");
    return r;
  }
  int64_t mul(int64_t a, int64_t b) const {
    int64_t r = 0;
    if (__builtin_mul_overflow(a, b, &r))
      fail("overflows 64 bits");
    return r;
  }
  int64_t floorDiv(int64_t a, int64_t b) const {
    if (b == 0)
      fail("division by zero");
    if (a == INT64_MIN && b == -1)
      fail("overflows 64 bits");
    int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0)))
      --q;
    return q;
  }
  int64_t sum() {
    int64_t v = product();
    for (;;) {
      if (eat("+"))
        v = add(v, product());
      else if (eat("-"))
        v = sub(v, product());
      else
        return v;
    }
  }
  int64_t product() {
    int64_t v = unary();
    for (;;) {
      if (eat("//"))
        v = floorDiv(v, unary());
      else if (eat("*"))
        v = mul(v, unary());
      else if (eat("%")) {
        const int64_t d = unary();
        v = sub(v, mul(floorDiv(v, d), d)); // the sign of the divisor, as Python's
      } else
        return v;
    }
  }
  // Nesting is bounded so that a hostile expression cannot exhaust the stack.
  static constexpr int kMaxDepth = 200;
  struct Deeper {
    explicit Deeper(Parser &p) : p_(p) {
      if (++p_.depth_ > kMaxDepth)
        p_.fail("nested more than " + std::to_string(kMaxDepth) + " deep");
    }
    ~Deeper() { --p_.depth_; }
    Deeper(const Deeper &) = delete;
    Deeper &operator=(const Deeper &) = delete;
    Parser &p_;
  };
  int64_t unary() {
    const Deeper deeper(*this);
    if (eat("-"))
      return sub(0, unary());
    return atom();
  }
  int64_t atom() {
    skip();
    if (eat("(")) {
      const int64_t v = sum();
      if (!eat(")"))
        fail("expected ')'");
      return v;
    }
    const size_t start = pos_;
    if (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
      int64_t v = 0;
      while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
        v = add(mul(v, 10), text_[pos_] - '0');
        ++pos_;
      }
      return v;
    }
    while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_'))
      ++pos_;
    const std::string name(text_.substr(start, pos_ - start));
    if (name.empty())
      fail(pos_ < text_.size() ? "unexpected '" + std::string(1, text_[pos_]) + "'" : "unexpected end");
    if (eat("(")) {
      if (name != "cdiv" && name != "min" && name != "max")
        fail("unknown function '" + name + "' (cdiv, min, max)");
      const int64_t a = sum();
      if (!eat(","))
        fail("expected ',' in " + name + "(a, b)");
      const int64_t b = sum();
      if (!eat(")"))
        fail("expected ')'");
      if (name == "min")
        return std::min(a, b);
      if (name == "max")
        return std::max(a, b);
      return sub(0, floorDiv(sub(0, a), b)); // ceil(a / b)
    }
    auto it = values_.find(name);
    if (it == values_.end())
      fail("unknown symbol '" + name + "'");
    return it->second;
  }

  std::string_view text_;
  const std::map<std::string, int64_t> &values_;
  const std::string &where_;
  size_t pos_ = 0;
  int depth_ = 0;
};

// At sizes the capture also recorded ("recorded_sizes"), puts their steps'
// fingerprints and outputs' fingerprints and references in place of the
// captured ones and sets summary.recorded.
void useRecorded(json::Json &document, json::Json &recorded, const std::string &graphFile, SizeSummary &summary) {
  const json::Node list(recorded, "recorded_sizes", graphFile);
  list.expectArray();
  for (size_t i = 0; i < list.size(); ++i) {
    const json::Node entry = list[i];
    entry.allowKeys({"sizes", "steps", "outputs"});
    const json::Node sizes = entry.at("sizes");
    sizes.expectObject();
    bool match = sizes.raw().size() == summary.symbols.size();
    for (const SizeSymbol &s : summary.symbols) {
      auto v = sizes.find(s.name);
      if (!v)
        sizes.fail("names no value of size " + s.name);
      match = match && v->integer() == s.value;
    }
    if (!match)
      continue;
    const json::Node steps = entry.at("steps");
    steps.expectArray();
    const json::Node outputs = entry.at("outputs");
    outputs.expectArray();
    if (!document.contains("steps") || !document["steps"].is_array() || steps.size() != document["steps"].size())
      steps.fail("has " + std::to_string(steps.size()) + " entries; the bundle has " +
                 std::to_string(document.contains("steps") ? document["steps"].size() : 0) + " steps");
    if (!document.contains("outputs") || !document["outputs"].is_array() ||
        outputs.size() != document["outputs"].size())
      outputs.fail("has " + std::to_string(outputs.size()) + " entries, not one per output");
    for (size_t k = 0; k < steps.size(); ++k) {
      steps[k].expectArray();
      if (document["steps"][k].is_object())
        document["steps"][k]["fingerprints"] = recorded[i]["steps"][k];
    }
    for (size_t k = 0; k < outputs.size(); ++k) {
      const json::Node o = outputs[k];
      o.allowKeys({"fingerprint", "reference"});
      json::Json &out = document["outputs"][k];
      if (!out.is_object())
        continue;
      out.erase("reference");
      out["fingerprint"] = recorded[i]["outputs"][k]["fingerprint"];
      if (o.find("reference"))
        out["reference"] = recorded[i]["outputs"][k]["reference"];
    }
    summary.recorded = true;
    return;
  }
}

// Replaces every {"sym": EXPR} below `node` by its value.
void substitute(json::Json &node, const std::string &path, const std::map<std::string, int64_t> &values,
                const std::string &graphFile) {
  if (node.is_object()) {
    if (node.size() == 1 && node.contains("sym")) {
      const json::Json &e = node["sym"];
      if (!e.is_string())
        throw core::InputError(graphFile + ": " + path + ".sym: expected a string expression");
      node = evaluateSizeExpression(e.get<std::string>(), values, graphFile + ": " + path);
      return;
    }
    for (auto it = node.begin(); it != node.end(); ++it)
      substitute(it.value(), path.empty() ? it.key() : path + "." + it.key(), values, graphFile);
  } else if (node.is_array()) {
    for (size_t i = 0; i < node.size(); ++i)
      substitute(node[i], path + "[" + std::to_string(i) + "]", values, graphFile);
  }
}

} // namespace

int64_t evaluateSizeExpression(std::string_view text, const std::map<std::string, int64_t> &values,
                               const std::string &where, bool comparison) {
  return Parser(text, values, where).parse(comparison);
}

SizeSummary bindSizes(json::Json &document, const std::string &graphFile, const SizeBinding &binding) {
  SizeSummary summary;
  if (!document.is_object())
    return summary; // the loader reports it
  const bool hasSymbols = document.contains("symbols");
  if (!hasSymbols) {
    for (const char *key : {"guards", "recorded_sizes"})
      if (document.contains(key))
        throw core::InputError(graphFile + ": " + key + ": a bundle without symbols has none");
    if (!binding.empty())
      throw core::InputError(graphFile + ": the bundle has no dynamic sizes; cannot set " +
                             binding.begin()->first);
    return summary;
  }
  const json::Json symbolsJson = document["symbols"];
  const json::Json guardsJson = document.contains("guards") ? document["guards"] : json::Json::array();
  const json::Node symbols(symbolsJson, "symbols", graphFile);
  symbols.expectArray();
  std::map<std::string, int64_t> values;
  for (size_t i = 0; i < symbols.size(); ++i) {
    const json::Node s = symbols[i];
    s.allowKeys({"name", "value", "min", "max", "inductor"});
    SizeSymbol sym;
    sym.name = s.at("name").string();
    if (!isIdentifier(sym.name))
      s.at("name").fail("'" + sym.name + "' is not an identifier");
    sym.captured = s.at("value").integer();
    sym.minimum = s.at("min").integer();
    if (auto mx = s.find("max"); mx && !mx->isNull())
      sym.maximum = mx->integer();
    if (sym.captured < sym.minimum || (sym.maximum && sym.captured > *sym.maximum))
      s.at("value").fail("the captured value " + std::to_string(sym.captured) + " lies outside its range");
    if (values.count(sym.name))
      s.at("name").fail("symbol '" + sym.name + "' is declared twice");
    values[sym.name] = sym.captured;
    summary.symbols.push_back(sym);
  }
  for (const auto &[name, v] : binding) {
    if (!values.count(name)) {
      std::string known;
      for (const SizeSymbol &s : summary.symbols)
        known += (known.empty() ? "" : ", ") + s.name;
      throw core::InputError(graphFile + ": no size named '" + name + "'; the bundle's sizes: " + known);
    }
    values[name] = v;
  }
  for (SizeSymbol &s : summary.symbols) {
    s.value = values[s.name];
    summary.atCaptured = summary.atCaptured && s.value == s.captured;
    if (s.value < s.minimum || (s.maximum && s.value > *s.maximum))
      throw core::InputError(graphFile + ": size " + s.name + "=" + std::to_string(s.value) +
                             " lies outside its range [" + std::to_string(s.minimum) + ", " +
                             (s.maximum ? std::to_string(*s.maximum) : std::string("unbounded")) +
                             "] (captured at " + std::to_string(s.captured) + ")");
  }
  const json::Node guards(guardsJson, "guards", graphFile);
  guards.expectArray();
  for (size_t i = 0; i < guards.size(); ++i) {
    const json::Node g = guards[i];
    g.allowKeys({"expr", "checked", "why"});
    const std::string expr = g.at("expr").string();
    if (!g.at("checked").boolean()) {
      summary.guardsNotChecked.push_back(expr);
      continue;
    }
    if (evaluateSizeExpression(expr, values, graphFile + ": " + g.path() + ".expr", true) == 0)
      throw core::InputError(graphFile + ": " + summary.describe() + " fails guard " + g.path() + " '" + expr +
                             "' of the compiled graph");
    ++summary.guardsChecked;
  }
  json::Json recordedJson = document.contains("recorded_sizes") ? document["recorded_sizes"] : json::Json::array();
  document.erase("symbols");
  document.erase("guards");
  document.erase("recorded_sizes");
  substitute(document, "", values, graphFile);
  if (!summary.atCaptured)
    useRecorded(document, recordedJson, graphFile, summary);
  if (!summary.hasFingerprints()) {
    if (document.contains("steps") && document["steps"].is_array())
      for (size_t i = 0; i < document["steps"].size(); ++i) {
        json::Json &st = document["steps"][i];
        if (!st.is_object())
          continue;
        if (st.contains("values"))
          throw core::InputError(graphFile + ": steps[" + std::to_string(i) +
                                 "]: draws random numbers whose values exist only at the captured sizes; "
                                 "it cannot run at " +
                                 summary.describe());
        st.erase("fingerprints");
      }
    if (document.contains("outputs") && document["outputs"].is_array())
      for (json::Json &o : document["outputs"])
        if (o.is_object()) {
          o.erase("reference");
          o.erase("fingerprint");
        }
  }
  return summary;
}

} // namespace detail
} // namespace npusim::runtime
