#include "kernel_setup.h"

#include "core/error.h"

namespace npusim::cli {

std::vector<ConstOption> parseConstOptions(const ParsedOptions &options) {
  std::vector<ConstOption> out;
  for (const std::string &text : options.all("--const")) {
    auto [name, value] = splitAssignment(text, "--const");
    triton::ConstexprValue v;
    if (value == "True" || value == "true")
      v = true;
    else if (value == "False" || value == "false")
      v = false;
    else if (value == "None")
      v = std::monostate{};
    else if (auto i = parseInteger(value))
      v = *i;
    else if (auto d = parseNumber(value))
      v = *d;
    else
      throw UsageError("--const " + name + ": '" + value +
                       "' is not an integer, a float, True, False or None");
    for (const ConstOption &previous : out)
      if (previous.first == name)
        throw UsageError("--const " + name + " is given more than once");
    out.emplace_back(name, v);
  }
  return out;
}

triton::ConstexprBindings pickConstexprs(const triton::KernelMetadata &metadata,
                                         const std::vector<ConstOption> &given) {
  triton::ConstexprBindings bindings = triton::defaultConstexprs(metadata);
  for (const auto &[name, value] : given) {
    const triton::ParameterSpec *p = metadata.findParameter(name);
    if (!p || !p->isConstexpr) {
      std::string known;
      for (const triton::ParameterSpec &q : metadata.parameters)
        if (q.isConstexpr)
          known += (known.empty() ? "" : ", ") + q.name;
      throw core::InputError(
          "--const " + name + ": '" + name + "' is not a constexpr parameter of '" + metadata.kernelName +
          "'" + (known.empty() ? std::string(" (it has none)") : " (its constexprs: " + known + ")"));
    }
    bindings[name] = value;
  }
  return bindings;
}

std::string describeConstexprs(const triton::KernelMetadata &metadata,
                               const triton::ConstexprBindings &bindings) {
  std::string out = "(";
  bool first = true;
  for (const triton::ParameterSpec &p : metadata.parameters) {
    if (!p.isConstexpr)
      continue;
    std::string value = "?";
    if (auto it = bindings.find(p.name); it != bindings.end())
      value = triton::toString(it->second);
    else if (p.defaultValue)
      value = triton::toString(*p.defaultValue);
    out += (first ? "" : ", ") + p.name + "=" + value;
    first = false;
  }
  return out + ")";
}

std::string describeArguments(const triton::KernelMetadata &metadata) {
  std::string out = "(";
  bool first = true;
  for (const triton::ParameterSpec &p : metadata.parameters) {
    if (p.isConstexpr)
      continue;
    out += (first ? "" : ", ") + p.name + ": " + p.typeString;
    first = false;
  }
  return out + ")";
}

} // namespace npusim::cli
