// Steps on the NPU: compile the kernel, run the program on the functional
// simulator for values and, in the timing modes, time its execution trace;
// with verification, compare every written buffer with the reference
// interpreter on the same inputs. Library calls are in npu_steps_calls.cpp,
// the ranking of tilings and kernels by their cycles in npu_steps_ranking.cpp.
#include "runtime/npu_steps_internal.h"

#include "core/error.h"
#include "core/host_memory.h"
#include "functional/simulator.h"
#include "library/library.h"
#include "npu/execution.h"
#include "runtime/npu_timing.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <tuple>

namespace npusim::runtime {

namespace {

/// Threads that time launches while the caller runs the functional
/// simulator: none with one thread; in full mode one core stays with the
/// functional simulator, in timing mode (whose functional runs mostly
/// compute addresses) every thread times.
int timingThreads(const RunOptions &options) {
  const int threads = effectiveThreads(options);
  if (threads < 2)
    return 0;
  return options.mode == Mode::Timing ? threads : threads - 1;
}

} // namespace

std::string describeBlocks(const NpuKernel &kernel, const triton::KernelMetadata &meta,
                           const std::string &note) {
  // Block sizes only: library kernels also bake sizes and strides in as constexprs.
  auto isBlock = [](const std::string &name) { return name.find("BLOCK") != std::string::npos; };
  std::string text;
  for (const auto &[name, value] : kernel.program.blockSizes)
    if (isBlock(name))
      text += (text.empty() ? "" : ", ") + name + "=" + std::to_string(value);
  if (text.empty())
    for (const triton::ParameterSpec &p : meta.parameters)
      if (p.isConstexpr && !p.defaultValue && isBlock(p.name))
        if (auto it = kernel.constexprs.find(p.name); it != kernel.constexprs.end())
          text += (text.empty() ? "" : ", ") + p.name + "=" + triton::toString(it->second);
  if (text.empty()) // a template's blocks, all kept as its body binds them
    for (const auto &[name, value] : meta.bodyConstexprs)
      if (isBlock(name))
        text += (text.empty() ? "" : ", ") + name + "=" + std::to_string(value);
  text += kernel.blocksChosen ? " (chosen for the machine" + note + ")" : " (the launch's)";
  // A template's blocks that stay as launched, and why: loudly, in the step's report.
  for (size_t i = 0; i < kernel.keptBlocks.size(); ++i)
    text += (i == 0 ? "; kept as launched: " : "; ") + kernel.keptBlocks[i];
  return text;
}

NpuSteps::Impl::Impl(const RunOptions &o, RunReport &r) : options(o), report(r) {
  const std::vector<std::string> &gemmKernels = library::gemmKernels();
  if (!o.gemmKernel.empty() &&
      std::find(gemmKernels.begin(), gemmKernels.end(), o.gemmKernel) == gemmKernels.end())
    throw core::InputError("GEMM kernel '" + o.gemmKernel + "' is not one of " +
                           library::joinNames(gemmKernels));
  const std::vector<std::string> &convKernels = library::convKernels();
  if (!o.convKernel.empty() &&
      std::find(convKernels.begin(), convKernels.end(), o.convKernel) == convKernels.end())
    throw core::InputError("convolution kernel '" + o.convKernel + "' is not one of " +
                           library::joinNames(convKernels));
  const std::vector<std::string> &attentionKernels = library::attentionKernels();
  if (!o.attentionKernel.empty() && std::find(attentionKernels.begin(), attentionKernels.end(),
                                              o.attentionKernel) == attentionKernels.end())
    throw core::InputError("attention kernel '" + o.attentionKernel + "' is not one of " +
                           library::joinNames(attentionKernels));
  if ((o.mode == Mode::Timing || o.mode == Mode::Full) && !o.launchSink)
    timer = std::make_unique<NpuTimer>(o.machine, !o.tracePath.empty(), timingThreads(o));
}

uint64_t NpuSteps::Impl::addressOf(const reference::Buffer *b) {
  auto it = addresses.find(b);
  if (it != addresses.end())
    return it->second;
  const uint64_t address = nextAddress;
  nextAddress += (sizeOf(b) + kBufferAlignment - 1) / kBufferAlignment * kBufferAlignment + kBufferAlignment;
  addresses.emplace(b, address);
  return address;
}

void NpuSteps::Impl::checkScratchpadFits(const npu::Program &program) {
  if (!fitsInMemory.insert(&program).second)
    return;
  const auto needed = static_cast<uint64_t>(functional::scratchpadStorageBytes(program));
  const uint64_t available = core::hostMemoryBytes();
  if (needed > available / 2)
    throw core::InputError("hardware config " + options.machine.source +
                           ": key 'spad_kib_per_lane': " + std::to_string(options.machine.spadKibPerLane) +
                           " KiB per lane on " + std::to_string(options.machine.lanes) +
                           " lanes (key 'lanes'): simulating kernel " + program.kernelName + " takes " +
                           core::bytesText(needed) + " of scratchpad storage, more than " + "half of the " +
                           core::bytesText(available) + " of memory this process may use");
}

void NpuSteps::Impl::execute(const npu::Program &program, const triton::GridSize &grid, LaunchBuffers &used,
                             const std::vector<functional::LaunchArgument> &arguments, bool computeValues,
                             const std::string &launchName, StepResult &result) {
  checkScratchpadFits(program);
  std::vector<functional::DramBuffer> dram;
  for (reference::Buffer *b : used.buffers)
    dram.push_back(dramBuffer(b, addressOf(b)));
  functional::RunOptions runOptions;
  runOptions.numCores = options.machine.numCores;
  runOptions.workspace = &workspace;
  runOptions.computeValues = computeValues || npu::timingNeedsValues(program, nullptr);
  const functional::Grid g{grid.x, grid.y, grid.z};
  TraceCollector collector(launchName, g.size(), options, timer.get(), program, result.index);
  if (timer || options.launchSink)
    runOptions.listener = &collector;
  if (timer) {
    if (result.index != touchedStep) {
      closeTouchedStep();
      touchedStep = result.index;
    }
    collector.touched = &stepTouched;
    for (size_t i = 0; i < used.buffers.size(); ++i)
      stepBuffers[used.buffers[i]] = {dram[i].address, dram[i].address + sizeOf(used.buffers[i])};
  }
  const functional::RunStats stats = functional::run(program, g, dram, arguments, runOptions);
  result.programs += stats.instances;
  ++result.npuLaunches;
  if (options.onInstance && (timer || options.launchSink))
    options.onInstance(stats.instances, stats.instances, true);
  if (timer && collector.streaming()) {
    collector.finish();
    result.timed = true;
  } else if (timer) {
    timer->time(program, std::move(collector.traces), launchName, result.index);
    result.timed = true;
  } else if (options.launchSink) {
    options.launchSink(program, std::move(collector.traces), launchName);
  }
}

NpuSteps::NpuSteps(const RunOptions &options, RunReport &report)
    : impl_(std::make_unique<Impl>(options, report)) {}
NpuSteps::~NpuSteps() = default;

const NpuKernel &NpuSteps::kernelFor(const Step &step, const std::map<std::string, int64_t> &scalars) {
  std::string key = step.name;
  for (const auto &[name, value] : step.constexprs)
    key += "|" + name + "=" + triton::toString(value);
  for (const auto &[name, value] : scalars)
    key += "|" + name + ":" + std::to_string(value);
  // A template's choice depends on the grid it covers.
  const triton::GridSize launchGrid{step.grid[0], step.grid[1], step.grid[2]};
  key += "|grid:" + std::to_string(launchGrid.x) + "x" + std::to_string(launchGrid.y) + "x" +
         std::to_string(launchGrid.z);
  auto it = impl_->kernels.find(key);
  if (it != impl_->kernels.end())
    return *it->second;
  const auto start = Clock::now();
  std::unique_ptr<NpuKernel> kernel = compileForNpu(
      *step.kernel, step.constexprs, scalars, impl_->options.machine, {}, searchThreads(impl_->options),
      launchGrid);
  impl_->report.compileMs += millisecondsSince(start);
  return *impl_->kernels.emplace(key, std::move(kernel)).first->second;
}

void NpuSteps::launch(const Step &step, const ir::Function &referenceFunction,
                      std::vector<reference::Argument> &arguments, bool computeValues, bool verify,
                      StepResult &result) {
  std::map<std::string, int64_t> scalars;
  const auto &params = referenceFunction.parameters();
  for (size_t i = 0; i < params.size(); ++i)
    if (!params[i].type.isPointer && params[i].type.isIntegerOrBool())
      scalars[params[i].name] = arguments[i].scalar.intValue;
  const triton::GridSize launchGrid{step.grid[0], step.grid[1], step.grid[2]};
  const TimedTiling tiling =
      fastestTiling(*step.kernel, kernelFor(step, scalars), scalars, launchGrid, arguments, step.name);
  const NpuKernel &kernel = *tiling.kernel;
  result.blockSizes = describeBlocks(kernel, step.kernel->metadata, tiling.note());
  const triton::GridSize grid = npuGrid(*step.kernel, kernel, scalars, launchGrid);

  LaunchBuffers used;
  for (const reference::Argument &a : arguments)
    if (a.buffer)
      used.indexOf(a.buffer);
  std::vector<std::vector<uint8_t>> expected;
  if (verify) {
    const auto start = Clock::now();
    std::vector<std::vector<uint8_t>> original;
    for (reference::Buffer *b : used.buffers)
      original.push_back(b->bytes);
    reference::runLaunch(referenceFunction, reference::Grid{launchGrid.x, launchGrid.y, launchGrid.z},
                         arguments);
    for (size_t i = 0; i < used.buffers.size(); ++i) {
      expected.push_back(std::move(used.buffers[i]->bytes));
      used.buffers[i]->bytes = std::move(original[i]);
    }
    impl_->report.npuCheckMs += millisecondsSince(start);
  }
  runProgram(kernel.program, grid, arguments, computeValues, step.name, result);
  if (!verify)
    return;
  for (size_t i = 0; i < used.buffers.size(); ++i) {
    ++impl_->report.buffersCompared;
    const Comparison c = compareBuffers(*used.buffers[i], expected[i]);
    if (!c.ok) {
      result.result = Outcome::Diverged;
      result.npuCheck = "differs from the reference";
      result.message = "the NPU program (" + result.blockSizes + ", grid " + std::to_string(grid.x) + "x" +
                       std::to_string(grid.y) + "x" + std::to_string(grid.z) +
                       ") and the reference differ in " + used.buffers[i]->name + ": " + c.message;
      return;
    }
  }
  result.npuCheck = "matches the reference";
}

void NpuSteps::runProgram(const npu::Program &program, const triton::GridSize &grid,
                          std::vector<reference::Argument> &arguments, bool computeValues,
                          const std::string &name, StepResult &result) {
  LaunchBuffers used;
  const std::vector<functional::LaunchArgument> launchArgs = launchArguments(arguments, used);
  impl_->execute(program, grid, used, launchArgs, computeValues, name, result);
}

std::vector<functional::LaunchArgument> launchArguments(const std::vector<reference::Argument> &arguments,
                                                        LaunchBuffers &used) {
  std::vector<functional::LaunchArgument> launchArgs;
  for (const reference::Argument &a : arguments) {
    functional::LaunchArgument l;
    if (a.buffer) {
      l.buffer = used.indexOf(a.buffer);
      l.elementOffset = a.elementOffset;
    } else {
      l.intValue = a.scalar.intValue;
      l.floatValue = a.scalar.floatValue;
    }
    launchArgs.push_back(l);
  }
  return launchArgs;
}

KernelRun runOnNpu(const NpuKernel &kernel, const triton::GridSize &grid,
                   std::vector<reference::Argument> &arguments, const RunOptions &options,
                   const std::string &name) {
  RunReport report;
  NpuSteps npu(options, report);
  StepResult result;
  const auto start = Clock::now();
  npu.runProgram(kernel.program, grid, arguments, options.mode != Mode::Timing, name, result);
  std::vector<StepResult> steps(1, std::move(result));
  if (const std::optional<NpuSteps::TimingFailure> failure = npu.collectTimings(steps))
    throw core::RuntimeError(failure->message);
  result = std::move(steps[0]);
  KernelRun run;
  run.wallMs = millisecondsSince(start);
  try {
    npu.finish();
  } catch (const core::InputError &e) {
    run.traceError = e.what();
  }
  run.traceEventsKept = report.traceEventsKept;
  run.traceEventsDropped = report.traceEventsDropped;
  run.programs = result.programs;
  run.timed = result.timed;
  run.timing = result.timing;
  return run;
}

bool NpuSteps::timingFailed() const {
  return impl_->timer && impl_->timer->failed();
}

std::optional<NpuSteps::TimingFailure> NpuSteps::collectTimings(std::vector<StepResult> &steps) {
  if (!impl_->timer)
    return std::nullopt;
  std::optional<TimingFailure> failure;
  if (const std::optional<size_t> step = impl_->timer->drain()) {
    std::string message = "timing failed";
    try {
      std::rethrow_exception(impl_->timer->error());
    } catch (const std::exception &e) {
      message = e.what();
    } catch (...) {
    }
    failure = TimingFailure{*step, message};
  }
  for (StepResult &s : steps)
    if (const StepTiming *t = impl_->timer->timing(s.index))
      s.timing = *t;
  impl_->report.timingMs = impl_->timer->busyMs();
  return failure;
}

void NpuSteps::Impl::closeTouchedStep() {
  if (stepBuffers.empty())
    return;
  TouchedByBuffer &bytes = touchedByStep[touchedStep];
  for (const auto &[b, range] : stepBuffers)
    bytes[b] = TouchedStorage{static_cast<int64_t>(stepTouched.read.bytesWithin(range.first, range.second)),
                              static_cast<int64_t>(stepTouched.written.bytesWithin(range.first, range.second))};
  stepTouched.read.clear();
  stepTouched.written.clear();
  stepBuffers.clear();
}

std::optional<TouchedByStorage>
NpuSteps::touched(size_t step, const std::vector<std::unique_ptr<reference::Buffer>> &storages) {
  if (step == impl_->touchedStep)
    impl_->closeTouchedStep();
  const auto it = impl_->touchedByStep.find(step);
  if (it == impl_->touchedByStep.end())
    return std::nullopt;
  TouchedByStorage bytes;
  for (size_t id = 0; id < storages.size(); ++id)
    if (const auto b = it->second.find(storages[id].get()); b != it->second.end())
      bytes[static_cast<int64_t>(id)] = b->second;
  return bytes;
}

void NpuSteps::setAbsent(std::map<const reference::Buffer *, int64_t> absent) {
  impl_->absent = std::move(absent);
}

void NpuSteps::finish() {
  if (impl_->timer && !impl_->options.tracePath.empty())
    std::tie(impl_->report.traceEventsKept, impl_->report.traceEventsDropped) =
        impl_->timer->writeTrace(impl_->options.tracePath);
}

} // namespace npusim::runtime
