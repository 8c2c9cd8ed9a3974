// npusim: the command line. This file dispatches to the commands and turns the
// command-line errors into exit codes; docs/cli.md describes it all.
#include "cli.h"

#include "core/output_file.h"
#include "sweep/processes.h"

#include <csignal>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

namespace npusim::cli {
namespace {

const char *const kUsage = R"(usage: npusim COMMAND [ARGS...]

commands:
  check-kernel FILE.py   parse, type-check and lower one Triton kernel file
  kernel FILE.py         run one launch of one kernel file on the reference interpreter
  compile FILE.py        compile one kernel for the NPU and print its program
  run BUNDLE             run a captured model bundle on the NPU (values and cycles)
  serve SCENARIO.yaml    serve several bundles together on one NPU (latency, bandwidth)
  compare A.json B.json  which of two runs of one bundle is faster, per step and in total
  sweep SWEEP.yaml       run bundles over a grid or sample of machines, locally or on Dask
  validate SUITE         simulated cycles against a real chip's: errors and their MAE
  presets [NAME]         list the hardware presets, or print one resolved as YAML
  opt FILE.tileir        run TileIR passes on a text file and print the result
  help [COMMAND]         show this help, or a command's

options:
  --help                 show this help
  --version              print the version

'npusim COMMAND --help' describes a command. Exit status: 0 success, 1 the kernel,
an input or the launch failed, 2 the command line is wrong.
)";

using Runner = int (*)(std::span<const std::string>, std::ostream &, std::ostream &);

struct Command {
  std::string_view name;
  const char *const *usage;
  Runner run;
};

const Command kCommands[] = {
    {"check-kernel", &kCheckKernelUsage, runCheckKernel},
    {"kernel", &kKernelUsage, runKernel},
    {"compile", &kCompileUsage, runCompile},
    {"run", &kRunUsage, runRun},
    {"serve", &kServeUsage, runServe},
    {"presets", &kPresetsUsage, runPresets},
    {"opt", &kOptUsage, runOpt},
    {"compare", &kCompareUsage, runCompare},
    {"sweep", &kSweepUsage, runSweep},
    {"validate", &kValidateUsage, runValidate},
};

const Command *findCommand(std::string_view name) {
  for (const Command &c : kCommands)
    if (c.name == name)
      return &c;
  return nullptr;
}

int runCommand(const Command &command, std::span<const std::string> args) {
  const std::string prefix = "npusim " + std::string(command.name) + ": error: ";
  try {
    return command.run(args, std::cout, std::cerr);
  } catch (const UsageError &e) {
    std::cerr << prefix << e.what() << "\n\n" << *command.usage;
    return kExitUsage;
  } catch (const std::exception &e) {
    std::cerr << prefix << "internal error: " << e.what() << "\n";
    return kExitError;
  }
}

int dispatch(const std::vector<std::string> &args) {
  if (args.empty()) {
    std::cerr << kUsage;
    return kExitUsage;
  }
  const std::string &first = args.front();
  if (first == "--version") {
    std::cout << "npusim " << kVersion << "\n";
    return kExitOk;
  }
  if (first == "--help" || first == "-h" || first == "help") {
    if (first == "help" && args.size() > 1) {
      const Command *c = findCommand(args[1]);
      if (!c) {
        std::cerr << "npusim: error: no command '" << args[1] << "'\n\n" << kUsage;
        return kExitUsage;
      }
      std::cout << *c->usage;
      return kExitOk;
    }
    std::cout << kUsage;
    return kExitOk;
  }
  const Command *command = findCommand(first);
  if (!command) {
    std::cerr << "npusim: error: " << (first.starts_with("-") ? "unknown option '" : "unknown command '")
              << first << "'\n\n"
              << kUsage;
    return kExitUsage;
  }
  return runCommand(*command, std::span<const std::string>(args).subspan(1));
}

} // namespace
} // namespace npusim::cli

namespace {

/// A signal that ends the process: the temporary files of unfinished outputs
/// go first (core/output_file.h), then the signal's default action.
void onFatalSignal(int signal) {
  npusim::core::removeTemporaryFiles();
  ::signal(signal, SIG_DFL);
  ::raise(signal);
}

} // namespace

int main(int argc, char **argv) {
  // A task of a sweep ends with the process that started it (sweep/processes.h).
  npusim::sweep::exitWithParentIfAsked();
  // Past a file size limit (ulimit -f) a write fails with EFBIG, which the
  // output's error names, instead of killing the process.
  ::signal(SIGXFSZ, SIG_IGN);
  for (int signal : {SIGINT, SIGTERM, SIGHUP})
    ::signal(signal, onFatalSignal);
  try {
    std::vector<std::string> args(argv + 1, argv + argc);
    return npusim::cli::dispatch(args);
  } catch (...) {
    std::cerr << "npusim: error: internal error\n";
    return npusim::cli::kExitError;
  }
}
