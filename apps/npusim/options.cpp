// Option parsing for the npusim commands: `--name VALUE`, `--name=VALUE`,
// repeatable options, `--help`, and `--` to end the options.
#include "cli.h"

#include "core/error.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <ostream>

namespace npusim::cli {

const std::vector<std::string> &ParsedOptions::all(std::string_view name) const {
  static const std::vector<std::string> kNone;
  auto it = values.find(name);
  return it == values.end() ? kNone : it->second;
}

std::optional<std::string> ParsedOptions::get(std::string_view name) const {
  auto it = values.find(name);
  if (it == values.end() || it->second.empty())
    return std::nullopt;
  return it->second.back();
}

config::HardwareConfig machineOption(const ParsedOptions &options) {
  const std::optional<std::string> nameOrPath = options.get("--config");
  return nameOrPath ? config::loadConfig(*nameOrPath) : config::defaultConfig();
}

ParsedOptions parseOptions(std::span<const std::string> args, std::span<const OptionSpec> specs,
                           std::string_view command) {
  ParsedOptions parsed;
  bool optionsEnded = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string &arg = args[i];
    if (optionsEnded || arg.size() < 2 || arg[0] != '-') {
      parsed.positionals.push_back(arg);
      continue;
    }
    if (arg == "--") {
      optionsEnded = true;
      continue;
    }
    if (arg == "--help" || arg == "-h") {
      parsed.help = true;
      continue;
    }
    const size_t eq = arg.find('=');
    const std::string name = arg.substr(0, eq);
    const OptionSpec *spec = nullptr;
    for (const OptionSpec &s : specs)
      if (s.name == name)
        spec = &s;
    if (!spec)
      throw UsageError("unknown option '" + name + "' for 'npusim " + std::string(command) + "'");
    std::string value;
    if (spec->takesValue) {
      if (eq != std::string::npos) {
        value = arg.substr(eq + 1);
      } else {
        if (i + 1 >= args.size())
          throw UsageError("option '" + name + "' needs a value");
        value = args[++i];
      }
    } else if (eq != std::string::npos) {
      throw UsageError("option '" + name + "' takes no value");
    }
    auto &slot = parsed.values[name];
    if (!slot.empty() && !spec->repeatable)
      throw UsageError("option '" + name + "' is given more than once");
    slot.push_back(std::move(value));
  }
  return parsed;
}

std::pair<std::string, std::string> splitAssignment(const std::string &text, std::string_view flag) {
  const size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0)
    throw UsageError(std::string(flag) + " expects NAME=VALUE, got '" + text + "'");
  return {text.substr(0, eq), text.substr(eq + 1)};
}

std::optional<int64_t> parseInteger(std::string_view text) {
  if (!text.empty() && text[0] == '+')
    text.remove_prefix(1);
  int64_t value = 0;
  const char *end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end)
    return std::nullopt;
  return value;
}

std::optional<double> parseNumber(std::string_view text) {
  if (text.empty() || text.size() > 64)
    return std::nullopt;
  // strtod also takes inf, nan and hex floats; from_chars would refuse a leading '+'.
  const std::string copy(text);
  char *end = nullptr;
  const double value = std::strtod(copy.c_str(), &end);
  if (end != copy.c_str() + copy.size() || std::isspace(static_cast<unsigned char>(copy[0])))
    return std::nullopt;
  return value;
}

int reportKernelFailure(const std::string &file, std::ostream &err) {
  try {
    throw;
  } catch (const core::CompileError &e) {
    err << e.what() << "\n";
  } catch (const std::exception &e) {
    err << file << ": error: " << e.what() << "\n";
  } catch (...) {
    err << file << ": error: internal error (unknown exception)\n";
  }
  return kExitError;
}

} // namespace npusim::cli
