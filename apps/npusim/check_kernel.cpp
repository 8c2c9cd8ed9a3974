// npusim check-kernel FILE.py: parse, type-check and lower one kernel file, and
// describe it in one line.
#include "cli.h"
#include "kernel_setup.h"

#include "ir/ir.h"

#include <ostream>

namespace npusim::cli {

const char *const kCheckKernelUsage =
    R"(usage: npusim check-kernel FILE.py [--dump-ir] [--const NAME=VALUE ...]

Parses one Triton kernel file as TorchInductor writes it, lowers it to TileIR
for the chosen constexpr values, verifies it, and prints one line:

  KERNEL kind=KIND args=(NAME: TYPE, ...) constexprs=(NAME=VALUE, ...) grid=GRID_TYPE tileir_ops=N

options:
  --const NAME=VALUE   bind a constexpr (e.g. XBLOCK=128); the others take npusim's defaults
  --dump-ir            also print the TileIR after the line
  --help               show this help

exit status: 0 the kernel is valid; 1 it is not (FILE:LINE:COL: error: ... on stderr);
2 the command line is wrong.
)";

namespace {

constexpr OptionSpec kCheckKernelOptions[] = {
    {"--dump-ir", false, false},
    {"--const", true, true},
};

} // namespace

int runCheckKernel(std::span<const std::string> args, std::ostream &out, std::ostream &err) {
  const ParsedOptions options = parseOptions(args, kCheckKernelOptions, "check-kernel");
  if (options.help) {
    out << kCheckKernelUsage;
    return kExitOk;
  }
  if (options.positionals.size() != 1)
    throw UsageError(options.positionals.empty() ? "check-kernel needs a kernel file"
                                                 : "check-kernel takes one kernel file");
  const std::vector<ConstOption> given = parseConstOptions(options);
  const std::string &file = options.positionals.front();
  try {
    const triton::KernelFile kernel = triton::loadKernelFile(file);
    const triton::KernelMetadata &meta = kernel.metadata;
    const triton::ConstexprBindings bindings = pickConstexprs(meta, given);
    const std::unique_ptr<ir::Function> function = triton::lowerKernel(kernel, bindings);
    out << meta.kernelName << " kind=" << triton::name(meta.kind) << " args=" << describeArguments(meta)
        << " constexprs=" << describeConstexprs(meta, bindings)
        << " grid=" << (meta.gridType.empty() ? std::string("-") : meta.gridType)
        << " tileir_ops=" << function->numOps() << "\n";
    if (options.has("--dump-ir"))
      out << ir::print(*function);
    return kExitOk;
  } catch (...) {
    return reportKernelFailure(file, err);
  }
}

} // namespace npusim::cli
