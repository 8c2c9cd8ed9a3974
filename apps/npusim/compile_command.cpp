// npusim compile FILE.py: one kernel compiled for the NPU; its program printed.
#include "cli.h"
#include "kernel_setup.h"

#include "config/hardware.h"
#include "npu/program.h"
#include "driver/driver.h"

#include <ostream>

namespace npusim::cli {

const char *const kCompileUsage =
    R"(usage: npusim compile FILE.py [--config CFG] [--const NAME=VALUE ...] [--arg NAME=VALUE ...] [--dump]

Compiles one Triton kernel file for the NPU and prints one line:

  KERNEL machine=NAME blocks=(NAME=VALUE, ...) grid=(X, Y, Z) tiles=N instructions=N spad_bytes_per_lane=N

For Inductor pointwise and reduction kernels the block sizes are chosen for the
machine (the largest whose scratchpad plan fits) and the grid follows from them;
a block size given with --const is kept. docs/npu.md describes the program.

options:
  --config CFG         the NPU: a preset name (npusim presets) or a YAML file; default tpuv3-like
  --const NAME=VALUE   pin a constexpr (XBLOCK=128)
  --arg NAME=VALUE     an integer scalar argument the grid and block sizes depend on (xnumel=4096);
                       default: the size Inductor baked into the source, else its size hint
  --dump               print the NPU program after the line
  --help               show this help

exit status: 0 the kernel compiled; 1 it did not (FILE:LINE:COL: error: ... on stderr);
2 the command line is wrong.
)";

namespace {

constexpr OptionSpec kCompileOptions[] = {
    {"--config", true, false},
    {"--const", true, true},
    {"--arg", true, true},
    {"--dump", false, false},
};

/// Instructions, nested bodies included.
int64_t countInstructions(const std::vector<npu::Instruction> &body) {
  int64_t n = 0;
  for (const npu::Instruction &i : body)
    n += 1 + countInstructions(i.body) + countInstructions(i.elseBody);
  return n;
}

} // namespace

int runCompile(std::span<const std::string> args, std::ostream &out, std::ostream &err) {
  const ParsedOptions options = parseOptions(args, kCompileOptions, "compile");
  if (options.help) {
    out << kCompileUsage;
    return kExitOk;
  }
  if (options.positionals.size() != 1)
    throw UsageError(options.positionals.empty() ? "compile needs a kernel file"
                                                 : "compile takes one kernel file");
  const std::vector<ConstOption> given = parseConstOptions(options);
  std::map<std::string, int64_t> scalars;
  for (const std::string &text : options.all("--arg")) {
    auto [name, value] = splitAssignment(text, "--arg");
    auto v = parseInteger(value);
    if (!v)
      throw UsageError("--arg " + name + ": '" + value + "' is not an integer");
    scalars[name] = *v;
  }
  const std::string &file = options.positionals.front();
  try {
    const config::HardwareConfig machine = machineOption(options);
    const triton::KernelFile kernel = triton::loadKernelFile(file);
    const triton::KernelMetadata &meta = kernel.metadata;
    const triton::ConstexprBindings bindings = pickConstexprs(meta, given);
    std::vector<std::string> pinned;
    for (const ConstOption &c : given)
      pinned.push_back(c.first);
    for (const auto &[name, value] : meta.bodyConstants)
      scalars.emplace(name, value);
    const std::unique_ptr<driver::NpuKernel> compiled =
        driver::compileForNpu(kernel, bindings, scalars, machine, pinned);
    const std::optional<triton::GridSize> grid = triton::inferGrid(meta, compiled->constexprs, scalars);
    out << meta.kernelName << " machine=" << machine.name
        << " blocks=" << describeConstexprs(meta, compiled->constexprs) << " grid=";
    if (grid)
      out << "(" << grid->x << ", " << grid->y << ", " << grid->z << ")";
    else
      out << "given-at-launch";
    out << " tiles=" << compiled->program.tiles.size()
        << " instructions=" << countInstructions(compiled->program.body)
        << " spad_bytes_per_lane=" << compiled->program.spadBytesUsed << "\n";
    if (options.has("--dump"))
      out << npu::print(compiled->program);
    return kExitOk;
  } catch (...) {
    return reportKernelFailure(file, err);
  }
}

} // namespace npusim::cli
