#pragma once
// Shared pieces of the npusim command line: exit codes, the errors that pick
// them, option parsing, and the commands' entry points. See docs/cli.md.
#include "config/hardware.h"

#include <cstdint>
#include <iosfwd>
#include <map>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace npusim::cli {

/// Keep in step with project(... VERSION ...) in CMakeLists.txt.
inline constexpr std::string_view kVersion = "0.1.0";

inline constexpr int kExitOk = 0;
/// The kernel, an input file or the launch failed (compile, input or runtime error).
inline constexpr int kExitError = 1;
/// The command line itself is wrong.
inline constexpr int kExitUsage = 2;

/// A malformed command line: reported with the command's usage, exit 2.
class UsageError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// One option a command accepts ("--grid"); `takesValue` options read the next
/// argument or the text after '='.
struct OptionSpec {
  std::string_view name;
  bool takesValue = false;
  bool repeatable = false;
};

struct ParsedOptions {
  std::vector<std::string> positionals;
  std::map<std::string, std::vector<std::string>, std::less<>> values; // flags without a value hold ""
  bool help = false;

  bool has(std::string_view name) const { return values.find(name) != values.end(); }
  /// Every value of a repeatable option, in command-line order.
  const std::vector<std::string> &all(std::string_view name) const;
  /// The value of a non-repeatable option, if given.
  std::optional<std::string> get(std::string_view name) const;
};

/// The machine `--config` names (a preset or a YAML file), or
/// config::defaultConfig() when the option is not given.
config::HardwareConfig machineOption(const ParsedOptions &options);

/// Parses the arguments after the command name. Throws UsageError for an unknown
/// option, a missing value, or a non-repeatable option given twice.
ParsedOptions parseOptions(std::span<const std::string> args, std::span<const OptionSpec> specs,
                           std::string_view command);

/// For a command's `catch (...)`: prints the exception being handled as
/// docs/cli.md says (a core::CompileError as FILE:LINE:COL: error: ..., any
/// other as FILE: error: ...) and returns kExitError.
int reportKernelFailure(const std::string &file, std::ostream &err);

/// "NAME=VALUE" -> {NAME, VALUE}; throws UsageError naming `flag` otherwise.
std::pair<std::string, std::string> splitAssignment(const std::string &text, std::string_view flag);
/// The whole text as a decimal integer, or nothing.
std::optional<int64_t> parseInteger(std::string_view text);
/// The whole text as a number (int or float syntax, inf, nan), or nothing.
std::optional<double> parseNumber(std::string_view text);

/// Entry points of the commands; `args` follow the command name.
int runCheckKernel(std::span<const std::string> args, std::ostream &out, std::ostream &err);
int runKernel(std::span<const std::string> args, std::ostream &out, std::ostream &err);
int runRun(std::span<const std::string> args, std::ostream &out, std::ostream &err);
int runPresets(std::span<const std::string> args, std::ostream &out, std::ostream &err);
int runCompile(std::span<const std::string> args, std::ostream &out, std::ostream &err);
int runOpt(std::span<const std::string> args, std::ostream &out, std::ostream &err);
int runServe(std::span<const std::string> args, std::ostream &out, std::ostream &err);
int runCompare(std::span<const std::string> args, std::ostream &out, std::ostream &err);
int runSweep(std::span<const std::string> args, std::ostream &out, std::ostream &err);
int runValidate(std::span<const std::string> args, std::ostream &out, std::ostream &err);

extern const char *const kCheckKernelUsage;
extern const char *const kKernelUsage;
extern const char *const kRunUsage;
extern const char *const kPresetsUsage;
extern const char *const kCompileUsage;
extern const char *const kOptUsage;
extern const char *const kServeUsage;
extern const char *const kCompareUsage;
extern const char *const kSweepUsage;
extern const char *const kValidateUsage;

} // namespace npusim::cli
