// npusim validate SUITE: simulated cycles against a real chip's, with the
// mean absolute error (docs/validation.md).
#include "cli.h"
#include "outputs.h"
#include "progress.h"

#include "config/hardware.h"
#include "core/error.h"
#include "core/output_file.h"
#include "validation/validation.h"

#include <cstdio>
#include <exception>
#include <functional>
#include <ostream>

namespace npusim::cli {

const char *const kValidateUsage =
    R"(usage: npusim validate SUITE [--config CFG] [--check] [--report OUT.json] [--html OUT.html]
                       [--png OUT.png] [--threads N] [--quiet]

Times every bundle of a validation suite (SUITE.yaml, or a directory holding
suite.yaml; docs/validation.md) in timing mode and prints, per workload, the
silicon's cycles, npusim's and the error, then the mean absolute error (MAE).

options:
  --config CFG     the machine (default: the suite's own 'machine')
  --check          exit 1 when a workload fails or the MAE is above the suite's
                   max_mae_percent
  --report OUT     write the result as JSON
  --html OUT       write a page with the error charts and the table
  --png OUT        write the error chart as a PNG image
  --threads N      threads per run (as npusim run --threads)
  --quiet          no progress line on a terminal
  --help           show this help

exit status: 0 validated (and, with --check, within the limit); 1 a suite or
bundle is unreadable, a workload failed with --check, or the MAE is above the
limit with --check; 2 the command line is wrong.
)";

namespace {

constexpr OptionSpec kValidateOptions[] = {{"--config", true, false}, {"--check", false, false},
                                   {"--report", true, false}, {"--html", true, false},
                                   {"--png", true, false},    {"--threads", true, false},
                                   {"--quiet", false, false}};

/// A writer of `content` as the output of `option` (docs/cli.md, "Output files").
std::function<void(const std::string &)> whole(const char *option, std::string content) {
  return [option, content = std::move(content)](const std::string &file) {
    core::writeFileAtomically(file, content, std::string(option) + " " + file);
  };
}

} // namespace

int runValidate(std::span<const std::string> args, std::ostream &out, std::ostream &err) {
  const ParsedOptions options = parseOptions(args, kValidateOptions, "validate");
  if (options.help) {
    out << kValidateUsage;
    return kExitOk;
  }
  if (options.positionals.size() != 1)
    throw UsageError("validate takes one suite (a suite.yaml or its directory)");
  validation::Options runOptions;
  if (auto text = options.get("--threads")) {
    const std::optional<int64_t> n = parseInteger(*text);
    if (!n || *n < 1 || *n > 1024)
      throw UsageError("--threads expects an integer from 1 to 1024, got '" + *text + "'");
    runOptions.threads = static_cast<int>(*n);
  }
  const std::string &path = options.positionals.front();
  OutputFiles outputs;
  for (const char *option : {"--report", "--html", "--png"})
    outputs.add(options, option);
  if (!outputs.check(path, err))
    return kExitError;
  try {
    const validation::Suite suite = validation::loadSuite(path);
    const config::HardwareConfig machine = config::loadConfig(options.get("--config").value_or(suite.machine));
    ProgressLine progress(err, !options.has("--quiet"));
    if (progress.shown())
      runOptions.onWorkload = [&progress](size_t i, size_t n, const std::string &name) {
        progress.update(i, n, "workload " + std::to_string(i + 1) + " of " + std::to_string(n) + ": " + name);
      };
    const validation::Result result = validation::runSuite(suite, machine, runOptions);
    progress.clear();
    out << validation::table(result);
    if (options.has("--report"))
      outputs.write("--report", whole("--report", validation::reportJson(result)), path, err);
    if (options.has("--html"))
      outputs.write("--html", whole("--html", validation::page(result).str()), path, err);
    if (options.has("--png"))
      outputs.write("--png", whole("--png", validation::plot(result).png()), path, err);
    if (outputs.failed())
      return kExitError;
    if (options.has("--check") && !result.withinLimit()) {
      err << path << ": error: "
          << (result.failed > 0 ? std::to_string(result.failed) + " workloads failed"
                                : "the MAE is above the suite's max_mae_percent")
          << "\n";
      return kExitError;
    }
    return kExitOk;
  } catch (const std::exception &e) {
    err << path << ": error: " << e.what() << "\n";
  }
  return kExitError;
}

} // namespace npusim::cli
