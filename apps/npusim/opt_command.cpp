// npusim opt FILE.tileir: runs TileIR passes on a text file and prints the
// result, so that each pass can be tested on small hand-written functions.
#include "cli.h"

#include "compiler/compiler.h"
#include "ir/ir.h"
#include "transform/transform.h"

#include <fstream>
#include <ostream>
#include <sstream>

namespace npusim::cli {

const char *const kOptUsage =
    R"(usage: npusim opt [--pass=NAME ...] [--config NAME|FILE] FILE.tileir
       npusim opt --list
       npusim opt --stages

Reads one TileIR function in its text form (docs/tileir.md), verifies it, runs
the passes in the order given (each result verified again) and prints the
function. Without --pass it prints the function as read.

options:
  --pass NAME   run the pass NAME; may be repeated
  --config C    the machine the passes compile for (a preset name or a YAML
                file, default tpuv3-like); `layout` depends on its lanes
  --list        list the passes, one per line: NAME  SUMMARY
  --stages      list every stage of compiling a kernel, in order, one per
                line: NAME  MODULE  SUMMARY (the passes among them)
  --help        show this help

exit status: 0 success; 1 the file cannot be read or is not valid TileIR
(FILE:LINE:COL: error: ... on stderr); 2 the command line is wrong (also an
unknown pass).
)";

namespace {

constexpr OptionSpec kOptOptions[] = {
    {"--pass", true, true},
    {"--config", true, false},
    {"--list", false, false},
    {"--stages", false, false},
};

} // namespace

int runOpt(std::span<const std::string> args, std::ostream &out, std::ostream &err) {
  const ParsedOptions options = parseOptions(args, kOptOptions, "opt");
  if (options.help) {
    out << kOptUsage;
    return kExitOk;
  }
  if (options.has("--list")) {
    if (!options.positionals.empty() || options.has("--pass"))
      throw UsageError("--list takes no file and no --pass");
    for (const transform::Pass &pass : transform::passes())
      out << pass.name << "  " << pass.summary << "\n";
    return kExitOk;
  }
  if (options.has("--stages")) {
    if (!options.positionals.empty() || options.has("--pass") || options.has("--list"))
      throw UsageError("--stages takes no file, no --pass and no --list");
    for (const compiler::Stage &stage : compiler::pipeline())
      out << stage.name << "  " << stage.module << "  " << stage.summary << "\n";
    return kExitOk;
  }
  if (options.positionals.size() != 1)
    throw UsageError(options.positionals.empty() ? "opt needs a .tileir file" : "opt takes one .tileir file");
  std::vector<const transform::Pass *> pipeline;
  for (const std::string &name : options.all("--pass")) {
    const transform::Pass *pass = transform::findPass(name);
    if (!pass)
      throw UsageError("no pass named '" + name + "' (npusim opt --list shows them)");
    pipeline.push_back(pass);
  }
  const std::string &file = options.positionals.front();
  try {
    std::ifstream in(file, std::ios::binary);
    if (!in)
      throw core::InputError("cannot read the file");
    std::stringstream text;
    text << in.rdbuf();
    const config::HardwareConfig machine = machineOption(options);
    const std::unique_ptr<ir::Function> function = ir::parse(text.str(), file);
    for (const transform::Pass *pass : pipeline) {
      pass->run(*function, machine);
      ir::verify(*function);
    }
    out << ir::print(*function);
    return kExitOk;
  } catch (...) {
    return reportKernelFailure(file, err);
  }
}

} // namespace npusim::cli
