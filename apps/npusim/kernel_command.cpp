// npusim kernel FILE.py: one launch of one kernel file, on the reference
// interpreter or compiled for the NPU (functional, timing or full), with inputs
// from .npy files or the generator, outputs to .npy.
#include "cli.h"
#include "kernel_setup.h"
#include "launch_args.h"
#include "outputs.h"
#include "progress.h"

#include "config/hardware.h"
#include "core/npy.h"
#include "core/output_file.h"
#include "driver/driver.h"
#include "reference/interpreter.h"
#include "runtime/kernels.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <ostream>

namespace npusim::cli {

const char *const kKernelUsage =
    R"(usage: npusim kernel FILE.py [--grid X[,Y[,Z]]] [--const NAME=VALUE ...]
                      [--arg NAME=VALUE|NAME=PATH.npy ...] [--size NAME=ELEMENTS ...]
                      [--seed N] [--out DIR] [--mode reference|functional|timing|full]
                      [--config CFG] [--trace OUT.json] [--quiet]

Runs one launch of one Triton kernel file and writes every pointer argument, after
the launch, to DIR/NAME.npy as a 1-D array of the signature's element type (bf16 as
<u2). The reference interpreter runs it by default; the other modes compile it for
the NPU and run the program on the functional simulator (values), the timing
simulator (cycles; outputs not written) or both (full).

options:
  --arg NAME=VALUE      a scalar argument (xnumel=1024, eps=1e-5); every scalar must be given
  --arg NAME=PATH.npy   a pointer argument's buffer: a .npy array whose element size matches
                        the signature's element type, read as raw bytes of that type
  --size NAME=ELEMENTS  the element count of a generated buffer (a pointer argument not given
                        with --arg); default: the product of the kernel's *numel arguments
  --seed N              seed of the generated buffers (default 0): floats uniform in [-1, 1),
                        integers in [0, 100), bools 0, 1, 0, 1, ...
  --const NAME=VALUE    bind a constexpr (XBLOCK=128); the others take npusim's defaults (on
                        the NPU: block sizes chosen for the machine)
  --grid X[,Y[,Z]]      the launch grid; default: Inductor's rule for the kernel's grid type
                        (required for FixedGrid kernels)
  --out DIR             where the .npy outputs go (default ./npusim-out)
  --mode MODE           reference (default), functional, timing or full
  --config CFG          the NPU of the other modes: a preset name or a YAML file (default tpuv3-like)
  --trace OUT.json      timing and full modes: a Chrome/Perfetto trace of the launch
  --quiet               no progress line (timing and full modes; it shows only when
                        stderr is a terminal)
  --help                show this help

exit status: 0 the launch ran; 1 the kernel, an input or the launch failed (out-of-bounds
access, failed device_assert); 2 the command line is wrong.
)";

namespace {

constexpr OptionSpec kKernelOptions[] = {
    {"--grid", true, false},  {"--const", true, true},   {"--arg", true, true},   {"--size", true, true},
    {"--seed", true, false},  {"--out", true, false},    {"--mode", true, false}, {"--config", true, false},
    {"--trace", true, false}, {"--quiet", false, false},
};

struct KernelOptions {
  std::string file;
  std::optional<triton::GridSize> grid;
  std::vector<ConstOption> constants;
  std::vector<ArgOption> args;
  std::vector<SizeOption> sizes;
  uint64_t seed = 0;
  std::string outDir = "npusim-out";
  runtime::Mode mode = runtime::Mode::Reference;
  std::optional<std::string> config; // --config, or the default machine
  std::string tracePath;
  bool traceGiven = false; // --trace, even with an empty path (an error)
  bool quiet = false;
};

triton::GridSize parseGrid(const std::string &text) {
  triton::GridSize grid;
  int64_t *dims[] = {&grid.x, &grid.y, &grid.z};
  size_t start = 0;
  for (int axis = 0;; ++axis) {
    const size_t comma = text.find(',', start);
    const std::string part =
        text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    auto v = parseInteger(part);
    if (axis >= 3 || !v || *v < 1)
      throw UsageError("--grid expects X[,Y[,Z]] with positive integers, got '" + text + "'");
    *dims[axis] = *v;
    if (comma == std::string::npos)
      return grid;
    start = comma + 1;
  }
}

KernelOptions readOptions(const ParsedOptions &options) {
  KernelOptions k;
  if (options.positionals.size() != 1)
    throw UsageError(options.positionals.empty() ? "kernel needs a kernel file"
                                                 : "kernel takes one kernel file");
  k.file = options.positionals.front();
  if (auto mode = options.get("--mode")) {
    if (*mode == "functional")
      k.mode = runtime::Mode::Functional;
    else if (*mode == "timing")
      k.mode = runtime::Mode::Timing;
    else if (*mode == "full")
      k.mode = runtime::Mode::Full;
    else if (*mode != "reference")
      throw UsageError("--mode expects reference, functional, timing or full, got '" + *mode + "'");
  }
  if (auto config = options.get("--config"))
    k.config = *config;
  if (auto trace = options.get("--trace")) {
    if (k.mode != runtime::Mode::Timing && k.mode != runtime::Mode::Full)
      throw UsageError("--trace needs cycles: use --mode full or timing");
    k.tracePath = *trace;
    k.traceGiven = true;
  }
  k.quiet = options.has("--quiet");
  if (auto grid = options.get("--grid"))
    k.grid = parseGrid(*grid);
  k.constants = parseConstOptions(options);
  for (const std::string &text : options.all("--arg")) {
    auto [name, value] = splitAssignment(text, "--arg");
    if (value.empty())
      throw UsageError("--arg " + name + " has an empty value");
    k.args.push_back({name, value});
  }
  for (const std::string &text : options.all("--size")) {
    auto [name, value] = splitAssignment(text, "--size");
    auto n = parseInteger(value);
    if (!n || *n < 0)
      throw UsageError("--size " + name + ": '" + value + "' is not a non-negative integer");
    k.sizes.push_back({name, *n});
  }
  if (auto seed = options.get("--seed")) {
    auto n = parseInteger(*seed);
    if (!n || *n < 0)
      throw UsageError("--seed expects a non-negative integer, got '" + *seed + "'");
    k.seed = static_cast<uint64_t>(*n);
  }
  if (auto out = options.get("--out")) {
    if (out->empty())
      throw UsageError("--out needs a directory");
    k.outDir = *out;
  }
  return k;
}

std::string gridString(const reference::Grid &g) {
  return "(" + std::to_string(g.x) + ", " + std::to_string(g.y) + ", " + std::to_string(g.z) + ")";
}

/// Writes every pointer argument to DIR/NAME.npy (each file whole or not at
/// all), and reports every file that failed, with `traceError` (the trace of
/// the launch, already written or not) among them.
void writeOutputs(const std::string &dir, const LaunchArguments &launch, const std::string &traceError = "") {
  std::string errors = traceError;
  const auto failed = [&errors](const std::string &message) {
    errors += (errors.empty() ? "" : "\n") + message;
  };
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec || !std::filesystem::is_directory(dir)) {
    failed("--out " + dir + ": cannot create the directory" + (ec ? ": " + ec.message() : ""));
    throw core::InputError(errors);
  }
  for (const PointerArgument &ptr : launch.pointers) {
    core::NpyArray array;
    array.dtype = ptr.buffer->dtype;
    array.shape = {ptr.buffer->numElements()};
    array.bytes = ptr.buffer->bytes;
    try {
      core::writeNpy((std::filesystem::path(dir) / (ptr.parameter->name + ".npy")).string(), array);
    } catch (const core::InputError &e) {
      failed(e.what());
    }
  }
  if (!errors.empty())
    throw core::InputError(errors);
}

/// The launch compiled for the NPU: block sizes chosen for the machine unless
/// pinned with --const (all of them when --grid fixes the grid).
int launchOnNpu(const KernelOptions &k, const triton::KernelFile &kernel,
                const triton::ConstexprBindings &bindings, LaunchArguments &args, std::ostream &out,
                std::ostream &err) {
  const triton::KernelMetadata &meta = kernel.metadata;
  runtime::RunOptions options;
  options.mode = k.mode;
  options.machine = k.config ? config::loadConfig(*k.config) : config::defaultConfig();
  options.tracePath = k.tracePath;
  std::vector<std::string> pinned;
  for (const ConstOption &c : k.constants)
    pinned.push_back(c.first);
  if (k.grid)
    pinned = meta.freeConstexprs();
  const auto compileStart = std::chrono::steady_clock::now();
  // With every block size pinned the launch's grid is known before compiling,
  // and the program is compiled for it (docs/compiler.md, "Launch scalars").
  std::optional<triton::GridSize> fixedGrid = k.grid;
  const std::vector<std::string> free = meta.freeConstexprs();
  if (!fixedGrid && std::all_of(free.begin(), free.end(), [&](const std::string &name) {
        return std::find(pinned.begin(), pinned.end(), name) != pinned.end();
      }))
    fixedGrid = triton::inferGrid(meta, bindings, args.integerScalars);
  const std::unique_ptr<driver::NpuKernel> estimated =
      driver::compileForNpu(kernel, bindings, args.integerScalars, options.machine, pinned, 1, fixedGrid);
  std::optional<triton::GridSize> grid = k.grid;
  if (!grid)
    grid = triton::inferGrid(meta, estimated->constexprs, args.integerScalars);
  if (!grid)
    throw core::InputError("kernel has grid type " +
                           (meta.gridType.empty() ? std::string("(none)") : meta.gridType) + "; give --grid");
  // The search's near-ties timed on this launch, as a bundle's steps are.
  const runtime::TimedTiling tiling =
      runtime::fastestTiling(kernel, *estimated, args.integerScalars, *grid, args.arguments, options);
  const driver::NpuKernel *compiled = tiling.kernel;
  grid = driver::npuGrid(kernel, *compiled, args.integerScalars, *grid);
  const std::chrono::duration<double, std::milli> compileWall =
      std::chrono::steady_clock::now() - compileStart;
  ProgressLine progress(err, !k.quiet);
  if (progress.shown())
    options.onInstance = [&progress](int64_t done, int64_t total, bool timing) {
      progress.update(static_cast<size_t>(done), static_cast<size_t>(total),
                      timing ? "timing the launch" : "program instances", timing);
    };
  const runtime::KernelRun result =
      runtime::runOnNpu(*compiled, *grid, args.arguments, options, meta.kernelName);
  progress.clear();
  if (k.mode != runtime::Mode::Timing)
    writeOutputs(k.outDir, args, result.traceError);
  else if (!result.traceError.empty())
    throw core::InputError(result.traceError);
  char text[96];
  std::snprintf(text, sizeof text, " compile_ms=%.3f wall_ms=%.3f", compileWall.count(), result.wallMs);
  out << meta.kernelName << " mode=" << runtime::name(k.mode) << " machine=" << options.machine.name
      << " grid=" << gridString(reference::Grid{grid->x, grid->y, grid->z})
      << " constexprs=" << describeConstexprs(meta, compiled->constexprs) << " programs=" << result.programs;
  if (tiling.timed > 0)
    out << " near_ties_timed=" << tiling.timed;
  if (tiling.untimed > 0)
    out << " near_ties_untimed=" << tiling.untimed;
  if (result.timed) {
    char timing[160];
    std::snprintf(timing, sizeof timing, " cycles=%lld time_us=%.3f roofline_us=%.3f",
                  static_cast<long long>(result.timing.cycles), result.timing.timeUs,
                  result.timing.rooflineUs);
    out << timing;
    if (result.timing.lateInstructions > 0)
      out << " late_instructions=" << result.timing.lateInstructions;
  }
  out << text;
  if (k.mode != runtime::Mode::Timing)
    out << " out=" << k.outDir;
  out << "\n";
  if (result.timed && result.timing.lateInstructions > 0)
    err << k.file << ": note: " << result.timing.lateInstructions
        << " instructions started later than with every program instance appended before the launch began "
           "(docs/timing.md, \"Memory of a launch\"); the cycles may differ\n";
  if (result.traceEventsDropped > 0)
    err << k.file
        << ": note: " << traceCapNote(k.tracePath, result.traceEventsKept, result.traceEventsDropped) << "\n";
  return kExitOk;
}

int launch(const KernelOptions &k, std::ostream &out, std::ostream &err) {
  // The outputs' paths before any work: a bad one would fail only at the end.
  if (!k.tracePath.empty() || k.traceGiven)
    core::checkOutputPath(k.tracePath, k.tracePath.empty() ? "--trace" : "--trace " + k.tracePath);
  if (k.mode != runtime::Mode::Timing)
    core::checkOutputDirectory(k.outDir, "--out " + k.outDir);
  const triton::KernelFile kernel = triton::loadKernelFile(k.file);
  const triton::KernelMetadata &meta = kernel.metadata;
  const triton::ConstexprBindings bindings = pickConstexprs(meta, k.constants);
  const std::unique_ptr<ir::Function> function = triton::lowerKernel(kernel, bindings);
  LaunchArguments args = bindArguments(meta, *function, k.args, k.sizes, k.seed);

  if (k.mode != runtime::Mode::Reference)
    return launchOnNpu(k, kernel, bindings, args, out, err);
  std::optional<triton::GridSize> grid = k.grid;
  if (!grid)
    grid = triton::inferGrid(meta, bindings, args.integerScalars);
  if (!grid)
    throw core::InputError("kernel has grid type " +
                           (meta.gridType.empty() ? std::string("(none)") : meta.gridType) + "; give --grid");
  const reference::Grid launchGrid{grid->x, grid->y, grid->z};

  const auto start = std::chrono::steady_clock::now();
  const reference::LaunchStats stats = reference::runLaunch(*function, launchGrid, args.arguments);
  const std::chrono::duration<double, std::milli> wall = std::chrono::steady_clock::now() - start;

  writeOutputs(k.outDir, args);
  char wallText[32];
  std::snprintf(wallText, sizeof wallText, "%.3f", wall.count());
  out << meta.kernelName << " grid=" << gridString(launchGrid)
      << " constexprs=" << describeConstexprs(meta, bindings) << " programs=" << stats.programs
      << " wall_ms=" << wallText << " out=" << k.outDir << "\n";
  return kExitOk;
}

} // namespace

int runKernel(std::span<const std::string> args, std::ostream &out, std::ostream &err) {
  const ParsedOptions options = parseOptions(args, kKernelOptions, "kernel");
  if (options.help) {
    out << kKernelUsage;
    return kExitOk;
  }
  const KernelOptions k = readOptions(options);
  try {
    return launch(k, out, err);
  } catch (...) {
    return reportKernelFailure(k.file, err);
  }
}

} // namespace npusim::cli
