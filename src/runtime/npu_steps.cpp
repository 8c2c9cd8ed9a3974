// Steps on the NPU: compile the kernel (or plan the library call), run the
// program on the functional simulator for values and, in the timing modes,
// time its execution trace; with verification, compare every written buffer
// with the reference interpreter (or host call) on the same inputs.
#include "runtime/runner_internal.h"

#include "core/error.h"
#include "core/host_memory.h"
#include "functional/simulator.h"
#include "library/library.h"
#include "npu/execution.h"
#include "runtime/fingerprint.h"
#include "runtime/npu_timing.h"
#include "runtime/touched_bytes.h"
#include "timing/simulator.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <optional>
#include <set>
#include <tuple>

namespace npusim::runtime {

namespace {

using Clock = std::chrono::steady_clock;

double millisecondsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

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

/// Threads the block-size search compiles candidates on: --threads when given.
/// By default one, since on a machine whose cores are busy with other work
/// (resnet18-train at load 4 on two cores) two threads compiled slower than
/// one.
int searchThreads(const RunOptions &options) {
  return options.threads > 0 ? options.threads : 1;
}

/// The instances of a launch that ranking its ways to run times (the first
/// ones, scaled to all): at least `perCore` per core and at least a
/// `divisor`-th of the grid (none when 0), at most all of them.
struct RankingSample {
  size_t perCore = 0;
  size_t divisor = 0;
  size_t instances(size_t all, int cores) const {
    const size_t atLeast = perCore * static_cast<size_t>(std::max(1, cores));
    return std::min(all, std::max(atLeast, divisor > 0 ? (all + divisor - 1) / divisor : 0));
  }
};

/// A library kernel when the runtime ranks the kernels that can run a call
/// (fastestKernel): the first 64 instances per core.
constexpr RankingSample kKernelRanking{64, 0};

/// A near-tie of the block-size search (fastestTiling): the first eighth of
/// the grid, and at least two instances per core (so that two in flight
/// overlap as they do in the launch). A fraction, since near-ties differ
/// tenfold in instance count for the same work; measured on softmax 8192^2
/// (docs/compiler.md, "Timed near-ties"): within 1.1% of each candidate's
/// whole-launch cycles, ranked as the whole launches rank.
constexpr RankingSample kTilingRanking{2, 8};

/// Buffers start at multiples of this in the flat DRAM address space.
constexpr uint64_t kBufferAlignment = 4096;

/// Collects the instance traces of one launch for the timing simulator. A
/// launch whose traces stay small is handed whole to the timer (to a timing
/// thread, while the next launch runs); once they outgrow
/// NpuTimer::kStreamAboveBytes, or when there are no timing threads, the
/// launch is timed as its instances arrive, holding only those in flight.
/// For a launch sink (serving), which keeps launches whole, a launch that
/// would take more than half of the memory the process may use is an error
/// naming the grid, before it fills the memory.
class TraceCollector final : public npu::ExecutionListener {
public:
  TraceCollector(const std::string &kernel, int64_t instances, const RunOptions &options, NpuTimer *timer,
                 const npu::Program &program, size_t step)
      : kernel_(kernel), instances_(instances), options_(options), timer_(timer), program_(program),
        step_(step) {
    if (timer_ && !timer_->threaded())
      startStreaming();
  }
  ~TraceCollector() override {
    if (streaming_ && !finished_)
      timer_->cancelStream();
  }
  TraceCollector(const TraceCollector &) = delete;
  TraceCollector &operator=(const TraceCollector &) = delete;
  /// Where the launch's DRAM runs are gathered (the run's own launches, not
  /// the ones ranked alone at addresses of their own).
  TouchedBytes *touched = nullptr;
  void instanceDone(npu::InstanceTrace &&trace) override {
    ++done_;
    if (touched)
      touched->add(trace);
    if (streaming_) {
      timer_->streamInstance(std::move(trace));
    } else {
      for (const npu::ExecutedInstruction &e : trace.instructions)
        bytes_ += sizeof(npu::ExecutedInstruction) + e.dram.capacity() * sizeof(npu::DramRun) +
                  (timer_ ? 0 : timing::kBytesPerTimedInstruction);
      bytes_ += sizeof(npu::InstanceTrace);
      traces.push_back(std::move(trace));
      if (timer_ && bytes_ > NpuTimer::kStreamAboveBytes)
        startStreaming();
      else if (!timer_ && done_ >= kSample && (done_ & (done_ - 1)) == 0) // again at every doubling
        checkMemory(done_);
    }
    if (options_.onInstance)
      options_.onInstance(done_, instances_, false);
  }
  /// Whether the launch was timed as it ran (then finish() adds it).
  bool streaming() const { return streaming_; }
  /// Ends a streamed launch.
  void finish() {
    finished_ = true;
    if (streaming_)
      timer_->endStream();
  }
  std::vector<npu::InstanceTrace> traces;

private:
  static constexpr int64_t kSample = 64;
  void startStreaming() {
    // A timer whose earlier launch failed takes nothing more: the traces
    // stay here and are dropped, as time() drops later launches.
    if (!timer_->streamLaunch(program_, kernel_, step_))
      return;
    streaming_ = true;
    std::stable_sort(traces.begin(), traces.end(),
                     [](const npu::InstanceTrace &a, const npu::InstanceTrace &b) { return a.instance < b.instance; });
    for (npu::InstanceTrace &trace : traces)
      timer_->streamInstance(std::move(trace));
    traces.clear();
    traces.shrink_to_fit();
  }
  void checkMemory(int64_t done) const {
    const double perInstance = static_cast<double>(bytes_) / static_cast<double>(done);
    const double whole = perInstance * static_cast<double>(instances_);
    const uint64_t available = core::hostMemoryBytes();
    if (whole > static_cast<double>(available / 2))
      throw core::InputError(
          "kernel " + kernel_ + ": timing its grid of " + std::to_string(instances_) +
          " program instances takes about " + core::bytesText(static_cast<uint64_t>(whole)) + " (" +
          std::to_string(static_cast<int64_t>(perInstance)) +
          " bytes per instance; a served launch is held whole), more than half "
          "of the " +
          core::bytesText(available) + " of memory this process may use; time a smaller grid");
  }
  std::string kernel_;
  int64_t instances_;
  const RunOptions &options_;
  NpuTimer *timer_;
  const npu::Program &program_;
  size_t step_;
  bool streaming_ = false, finished_ = false;
  int64_t done_ = 0;
  uint64_t bytes_ = 0;
};

/// The distinct buffers a launch touches, in first-use order.
struct LaunchBuffers {
  std::vector<reference::Buffer *> buffers;
  int indexOf(reference::Buffer *b) {
    for (size_t i = 0; i < buffers.size(); ++i)
      if (buffers[i] == b)
        return static_cast<int>(i);
    buffers.push_back(b);
    return static_cast<int>(buffers.size() - 1);
  }
};

/// The rule of one step's 16-bit float results against the reference's on
/// the same inputs: each side rounds once (runtime/rounding_tolerance.h).
std::optional<ElementRule> oneRounding(core::DType dtype, const std::vector<double> &expected) {
  double absSum = 0.0;
  int64_t finite = 0;
  for (double x : expected)
    if (std::isfinite(x)) {
      absSum += std::fabs(x);
      ++finite;
    }
  return roundingRule(dtype, 1, finite > 0 ? absSum / static_cast<double>(finite) : 0.0, absSum);
}

/// `actual` against `expected` (bytes of the same dtype): floats within
/// rtol = atol = 1e-4 (16-bit floats within one rounding), integers and bools exactly.
Comparison compareBuffers(reference::Buffer &actual, const std::vector<uint8_t> &expected) {
  if (actual.bytes == expected)
    return Comparison{};
  core::NpyArray array;
  array.dtype = actual.dtype;
  array.shape = {actual.numElements()};
  array.bytes = expected;
  reference::TensorView view;
  view.buffer = &actual;
  view.shape = {actual.numElements()};
  view.stride = {1};
  std::optional<ElementRule> rule;
  if (roundingTolerance(actual.dtype, 1) > 0.0) {
    reference::Buffer want;
    want.dtype = actual.dtype;
    want.bytes = expected;
    reference::TensorView wantView = view;
    wantView.buffer = &want;
    rule = oneRounding(actual.dtype, reference::readValues(wantView));
  }
  return compareWithReference(view, array, rule ? &*rule : nullptr);
}

/// The bundle's tensor as the NPU library names it: by storage number.
library::TensorRef libraryTensor(const TensorRef &t,
                                 const std::vector<std::unique_ptr<reference::Buffer>> &storages) {
  return library::TensorRef{static_cast<int>(t.storage), t.offset, t.shape, t.stride,
                            storages[static_cast<size_t>(t.storage)]->dtype};
}

std::string describeBlocks(const NpuKernel &kernel, const triton::KernelMetadata &meta,
                           const std::string &note = "") {
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

} // namespace

struct NpuSteps::Impl {
  const RunOptions &options;
  RunReport &report;
  std::map<std::string, std::unique_ptr<NpuKernel>> kernels;
  /// A library kernel's file by its name, with the source it was parsed from.
  struct LibraryFile {
    std::string source;
    std::unique_ptr<triton::KernelFile> file;
  };
  std::map<std::string, LibraryFile> libraryFiles;
  std::map<const reference::Buffer *, uint64_t> addresses;
  /// Buffers without contents (timing mode): their sizes in bytes.
  std::map<const reference::Buffer *, int64_t> absent;
  uint64_t nextAddress = kBufferAlignment;
  std::unique_ptr<NpuTimer> timer;
  functional::Workspace workspace; // one scratchpad storage for every launch
  /// The library kernel the timing simulator found fastest, by call signature.
  std::map<std::string, std::string> kernelChoices;
  /// The near-tie of a compiled kernel the timing simulator found fastest,
  /// by the compiled kernel and the launch's argument layout.
  std::map<std::pair<const NpuKernel *, std::string>, TimedTiling> tilingChoices;

  Impl(const RunOptions &o, RunReport &r) : options(o), report(r) {
    const std::vector<std::string> &gemmKernels = library::gemmKernels();
    if (!o.gemmKernel.empty() &&
        std::find(gemmKernels.begin(), gemmKernels.end(), o.gemmKernel) == gemmKernels.end())
      throw core::InputError("GEMM kernel '" + o.gemmKernel + "' is not one of " + library::joinNames(gemmKernels));
    const std::vector<std::string> &convKernels = library::convKernels();
    if (!o.convKernel.empty() &&
        std::find(convKernels.begin(), convKernels.end(), o.convKernel) == convKernels.end())
      throw core::InputError("convolution kernel '" + o.convKernel + "' is not one of " + library::joinNames(convKernels));
    const std::vector<std::string> &attentionKernels = library::attentionKernels();
    if (!o.attentionKernel.empty() &&
        std::find(attentionKernels.begin(), attentionKernels.end(), o.attentionKernel) == attentionKernels.end())
      throw core::InputError("attention kernel '" + o.attentionKernel + "' is not one of " +
                             library::joinNames(attentionKernels));
    if ((o.mode == Mode::Timing || o.mode == Mode::Full) && !o.launchSink)
      timer = std::make_unique<NpuTimer>(o.machine, !o.tracePath.empty(), timingThreads(o));
  }

  /// A buffer's size in bytes, whether or not the run holds its contents.
  uint64_t sizeOf(const reference::Buffer *b) const {
    auto it = absent.find(b);
    return it != absent.end() ? static_cast<uint64_t>(it->second) : b->bytes.size();
  }

  /// The simulator's view of a buffer at `address`: without contents when the run holds none.
  functional::DramBuffer dramBuffer(reference::Buffer *b, uint64_t address) const {
    auto it = absent.find(b);
    if (it == absent.end())
      return functional::DramBuffer{b->name, b->dtype, address, &b->bytes, 0};
    return functional::DramBuffer{b->name, b->dtype, address, nullptr, it->second};
  }

  uint64_t addressOf(const reference::Buffer *b) {
    auto it = addresses.find(b);
    if (it != addresses.end())
      return it->second;
    const uint64_t address = nextAddress;
    nextAddress +=
        (sizeOf(b) + kBufferAlignment - 1) / kBufferAlignment * kBufferAlignment + kBufferAlignment;
    addresses.emplace(b, address);
    return address;
  }

  /// The DRAM runs of the step whose launches run now, and the address
  /// ranges of the buffers they use (taken while the buffers live: a call's
  /// scratch buffers are gone when the step ends); each step's bytes in
  /// those buffers once the next step starts.
  size_t touchedStep = 0;
  TouchedBytes stepTouched;
  std::map<const reference::Buffer *, std::pair<uint64_t, uint64_t>> stepBuffers;
  using TouchedByBuffer = std::map<const reference::Buffer *, TouchedStorage>;
  std::map<size_t, TouchedByBuffer> touchedByStep;

  /// Folds the ranges of the step gathered so far into its bytes per buffer.
  void closeTouchedStep() {
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

  /// Programs whose scratchpad storage was checked against the memory.
  std::set<const npu::Program *> fitsInMemory;

  /// The functional simulator stores the banks the program's tiles occupy
  /// (and a shadow of as many bytes): a machine with a huge scratchpad would
  /// otherwise be found out by the operating system's out-of-memory killer.
  void checkScratchpadFits(const npu::Program &program) {
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

  /// One program launch on the functional simulator, timed when a timer exists.
  void execute(const npu::Program &program, const triton::GridSize &grid, LaunchBuffers &used,
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

  /// One launch's cycles alone, from an idle machine, for ranking the ways to
  /// run it: the trace is run without values over addresses of its own, laid
  /// out from the start in the launch's order of use (so the cycles depend on
  /// the launch alone, not on when in the run it is ranked; the run's
  /// addresses are given at first use). Only `sample`'s first instances run
  /// and are timed, scaled to all of them: a launch's instances do the same
  /// work but at the edges. Nothing when the trace needs values (addresses,
  /// masks or control from loaded values).
  std::optional<int64_t> timeLaunchAlone(const npu::Program &program, const triton::GridSize &grid,
                                         const LaunchBuffers &used,
                                         const std::vector<functional::LaunchArgument> &launchArgs,
                                         const std::string &name, const RankingSample &sample) {
    if (npu::timingNeedsValues(program, nullptr))
      return std::nullopt;
    std::vector<functional::DramBuffer> dram;
    uint64_t next = kBufferAlignment;
    for (reference::Buffer *b : used.buffers) {
      dram.push_back(dramBuffer(b, next));
      next += (sizeOf(b) + kBufferAlignment - 1) / kBufferAlignment * kBufferAlignment + kBufferAlignment;
    }
    functional::RunOptions runOptions;
    runOptions.numCores = options.machine.numCores;
    runOptions.workspace = &workspace;
    runOptions.computeValues = false;
    const functional::Grid g{grid.x, grid.y, grid.z};
    checkScratchpadFits(program);
    const size_t instances = static_cast<size_t>(g.size());
    const size_t timed = std::min(instances, sample.instances(instances, runOptions.numCores));
    TraceCollector collector(name, static_cast<int64_t>(timed), options, nullptr, program, 0);
    runOptions.firstInstances = static_cast<int64_t>(timed);
    runOptions.listener = &collector;
    functional::run(program, g, dram, launchArgs, runOptions);
    timing::Simulator simulator(options.machine);
    const int64_t part = simulator.timeLaunch(program, std::move(collector.traces), name).cycles;
    return timed == 0 ? 0 : part * static_cast<int64_t>(instances) / static_cast<int64_t>(timed);
  }
};

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

std::string TimedTiling::note() const {
  std::string text;
  if (timed >= 2)
    text = ": the fastest of " + std::to_string(timed) + " near-ties timed";
  if (untimed > 0)
    text += "; " + std::to_string(untimed) + " near-tie" + (untimed == 1 ? "" : "s") +
            " not timed (trace needs values)";
  return text;
}

TimedTiling NpuSteps::fastestTiling(const triton::KernelFile &file, const NpuKernel &compiled,
                                    const std::map<std::string, int64_t> &scalars,
                                    const triton::GridSize &launchGrid,
                                    const std::vector<reference::Argument> &arguments, const std::string &name) {
  // NPUSIM_TILING_TIMED=0 keeps the estimate's choice, for comparisons.
  const char *timedVariable = std::getenv("NPUSIM_TILING_TIMED");
  if (compiled.nearTies.empty() || (timedVariable && std::string_view(timedVariable) == "0"))
    return TimedTiling{&compiled, 0, 0};
  // What the candidates' cycles depend on besides the kernel, its constexprs,
  // scalars and grid (the compiled kernel's key): each buffer's size and the
  // argument's offset into it, as timeLaunchAlone lays them out.
  std::string layout;
  LaunchBuffers used;
  std::vector<functional::LaunchArgument> launchArgs;
  for (const reference::Argument &a : arguments) {
    functional::LaunchArgument l;
    if (a.buffer) {
      l.buffer = used.indexOf(a.buffer);
      l.elementOffset = a.elementOffset;
      layout += "|b" + std::to_string(l.buffer) + ":" + std::to_string(impl_->sizeOf(a.buffer)) + "+" +
                std::to_string(a.elementOffset);
    } else {
      l.intValue = a.scalar.intValue;
      l.floatValue = a.scalar.floatValue;
      layout += "|s";
    }
    launchArgs.push_back(l);
  }
  const auto key = std::make_pair(&compiled, layout);
  if (auto it = impl_->tilingChoices.find(key); it != impl_->tilingChoices.end())
    return it->second;
  // Part of compiling: the estimate's choice first, then its near-ties in
  // the search's order; the fewest cycles win, the earlier on equal cycles.
  // The estimate's choice stays when it cannot be timed.
  const auto start = Clock::now();
  const char *traceVariable = std::getenv("NPUSIM_TILING_TRACE");
  const bool trace = traceVariable && *traceVariable && std::string_view(traceVariable) != "0";
  std::vector<const NpuKernel *> candidates{&compiled};
  for (const auto &tie : compiled.nearTies)
    candidates.push_back(tie.get());
  TimedTiling choice{&compiled, 0, 0};
  std::optional<int64_t> bestCycles;
  for (const NpuKernel *candidate : candidates) {
    const triton::GridSize grid = npuGrid(file, *candidate, scalars, launchGrid);
    const std::optional<int64_t> cycles =
        impl_->timeLaunchAlone(candidate->program, grid, used, launchArgs, name, kTilingRanking);
    if (trace) {
      std::string blocks;
      for (const auto &[block, value] : candidate->program.blockSizes)
        blocks += (blocks.empty() ? "" : ", ") + block + "=" + std::to_string(value);
      std::fprintf(stderr, "tiling timed %s: %s\n", blocks.c_str(),
                   cycles ? (std::to_string(*cycles) + " cycles").c_str() : "not timed (its trace needs values)");
    }
    if (!cycles) {
      ++choice.untimed;
      continue;
    }
    ++choice.timed;
    if (candidate == &compiled || (bestCycles && *cycles < *bestCycles)) {
      choice.kernel = candidate;
      bestCycles = cycles;
    }
  }
  if (!bestCycles) { // the estimate's choice untimed: nothing to compare with
    choice.untimed += choice.timed;
    choice.timed = 0;
  }
  if (choice.timed > 0) {
    ++impl_->report.nearTieLaunches;
    impl_->report.nearTieTimings += choice.timed;
  }
  impl_->report.compileMs += millisecondsSince(start);
  impl_->tilingChoices.emplace(key, choice);
  return choice;
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
  impl_->execute(program, grid, used, launchArgs, computeValues, name, result);
}

bool NpuSteps::callOnNpu(const std::string &op) {
  return library::isPlanned(op);
}

NpuSteps::PlannedCall NpuSteps::planFor(const Step &step,
                                        const std::vector<std::unique_ptr<reference::Buffer>> &storages) {
  std::vector<library::CallArgument> callArgs;
  callArgs.reserve(step.callArgs.size());
  for (const CallValue &v : step.callArgs)
    callArgs.push_back(core::mapTensors<library::TensorRef>(
        v, [&](const TensorRef &t) { return libraryTensor(t, storages); }));
  std::vector<library::TensorRef> outRefs(step.out.size());
  std::vector<const library::TensorRef *> outPointers(step.out.size(), nullptr);
  for (size_t i = 0; i < step.out.size(); ++i)
    if (step.out[i]) {
      outRefs[i] = libraryTensor(*step.out[i], storages);
      outPointers[i] = &outRefs[i];
    }
  const config::HardwareConfig &machine = impl_->options.machine;
  library::MachineShape shape = library::machineShapeOf(machine);
  shape.mapping = impl_->options.mapping;
  shape.mappingStrategy = impl_->options.mappingStrategy;
  shape.gemmKernel = impl_->options.gemmKernel;
  shape.convKernel = impl_->options.convKernel;
  shape.attentionKernel = impl_->options.attentionKernel;
  if (shape.gemmKernel.empty() && library::isGemmCall(step.name))
    shape.gemmKernel = fastestKernel(step.name, callArgs, outPointers, shape, storages, library::gemmKernels(),
                                     &library::MachineShape::gemmKernel);
  else if (shape.convKernel.empty() && library::isConvolutionCall(step.name))
    shape.convKernel = fastestKernel(step.name, callArgs, outPointers, shape, storages, library::convKernels(),
                                     &library::MachineShape::convKernel);
  else if (shape.attentionKernel.empty() && library::isAttentionCall(step.name))
    shape.attentionKernel = fastestKernel(step.name, callArgs, outPointers, shape, storages,
                                          library::attentionKernels(), &library::MachineShape::attentionKernel);
  PlannedCall planned;
  planned.plan = library::planCall(step.name, callArgs, outPointers, shape);
  // Scratch buffers follow the storages' ids.
  planned.scratchBase = library::scratchBufferBase(callArgs, outPointers);
  return planned;
}

namespace {

/// What a library call's plan and cycles depend on: the operator and every
/// argument (tensors by storage, offset, shape, strides and dtype).
std::string callSignature(const std::string &op, std::span<const library::CallArgument> args,
                          std::span<const library::TensorRef *const> outs) {
  std::string key = op;
  auto tensor = [&](const library::TensorRef &t) {
    key += "|t" + std::to_string(t.buffer) + "+" + std::to_string(t.offset) + ":" +
           std::to_string(static_cast<int>(t.dtype));
    for (size_t i = 0; i < t.shape.size(); ++i)
      key += "," + std::to_string(t.shape[i]) + "/" + std::to_string(t.stride[i]);
    return 0;
  };
  std::function<void(const library::CallArgument &)> value = [&](const library::CallArgument &a) {
    key += "|" + std::to_string(static_cast<int>(a.kind)) + ":";
    if (a.kind == core::CallKind::Tensor)
      tensor(a.tensor);
    key += std::to_string(a.intValue) + "," + std::to_string(a.floatValue) + "," + (a.boolValue ? "1" : "0") +
           "," + a.stringValue + "[";
    for (const library::CallArgument &e : a.list)
      value(e);
    key += "]";
  };
  for (const library::CallArgument &a : args)
    value(a);
  for (const library::TensorRef *o : outs)
    if (o)
      tensor(*o);
  return key;
}

} // namespace

std::optional<int64_t> NpuSteps::timeAlone(const library::CallPlan &plan, int scratchBase,
                                           const std::vector<std::unique_ptr<reference::Buffer>> &storages) {
  // The plan's scratch buffers, without contents (no values are computed),
  // forgotten when the ranking ends.
  std::vector<std::unique_ptr<reference::Buffer>> scratch;
  struct Forget {
    Impl &impl;
    const std::vector<std::unique_ptr<reference::Buffer>> &buffers;
    ~Forget() {
      for (const auto &b : buffers) {
        impl.addresses.erase(b.get());
        impl.absent.erase(b.get());
      }
    }
  } forget{*impl_, scratch};
  for (const library::ScratchBuffer &s : plan.scratch) {
    auto b = std::make_unique<reference::Buffer>();
    b->name = "scratch";
    b->dtype = s.dtype;
    if (const int64_t bytes = s.elements * core::byteSize(s.dtype); bytes > 0)
      impl_->absent[b.get()] = bytes;
    scratch.push_back(std::move(b));
  }
  int64_t cycles = 0;
  for (const library::KernelLaunch &launch : plan.launches) {
    const NpuKernel &kernel = libraryKernel(launch);
    LaunchBuffers used;
    std::vector<functional::LaunchArgument> launchArgs;
    for (const library::KernelArgument &a : launch.arguments) {
      functional::LaunchArgument l;
      if (a.isPointer) {
        reference::Buffer *buffer = nullptr;
        if (a.buffer >= scratchBase && static_cast<size_t>(a.buffer - scratchBase) < scratch.size())
          buffer = scratch[static_cast<size_t>(a.buffer - scratchBase)].get();
        else if (a.buffer >= 0 && a.buffer < scratchBase && static_cast<size_t>(a.buffer) < storages.size())
          buffer = storages[static_cast<size_t>(a.buffer)].get();
        else
          return std::nullopt; // a buffer the plan does not define: not timed alone
        l.buffer = used.indexOf(buffer);
        l.elementOffset = a.elementOffset;
      } else {
        l.intValue = a.intValue;
        l.floatValue = a.floatValue;
      }
      launchArgs.push_back(l);
    }
    const std::optional<int64_t> part = impl_->timeLaunchAlone(
        kernel.program, triton::GridSize{launch.grid[0], launch.grid[1], launch.grid[2]}, used, launchArgs,
        launch.kernelName, kKernelRanking);
    if (!part)
      return std::nullopt;
    cycles += *part;
  }
  return cycles;
}

std::string NpuSteps::fastestKernel(const std::string &op, std::span<const library::CallArgument> args,
                                    std::span<const library::TensorRef *const> outs,
                                    const library::MachineShape &shape,
                                    const std::vector<std::unique_ptr<reference::Buffer>> &storages,
                                    const std::vector<std::string> &kernels,
                                    std::string library::MachineShape::*choice) {
  if (impl_->options.mode == Mode::Reference)
    return "";
  const std::string key = callSignature(op, args, outs);
  if (auto it = impl_->kernelChoices.find(key); it != impl_->kernelChoices.end())
    return it->second;
  // Part of compiling: every kernel that can run the call is planned; with
  // two or more, each is compiled, run for its trace (no values) and timed
  // from an idle machine.
  const auto start = Clock::now();
  std::vector<std::pair<std::string, library::CallPlan>> plans;
  for (const std::string &kernel : kernels) {
    library::MachineShape forced = shape;
    forced.*choice = kernel;
    try {
      plans.emplace_back(kernel, library::planCall(op, args, outs, forced));
    } catch (const core::RuntimeError &) {
      // this kernel cannot run the call
    }
  }
  std::string best;
  int64_t bestCycles = 0;
  if (plans.size() >= 2)
    for (const auto &[kernel, plan] : plans) {
      const std::optional<int64_t> cycles = timeAlone(plan, library::scratchBufferBase(args, outs), storages);
      if (cycles && (best.empty() || *cycles < bestCycles)) {
        best = kernel;
        bestCycles = *cycles;
      }
    }
  impl_->report.compileMs += millisecondsSince(start);
  impl_->kernelChoices.emplace(key, best);
  return best;
}

const NpuKernel &NpuSteps::libraryKernel(const library::KernelLaunch &launch) {
  auto &[source, file] = impl_->libraryFiles[launch.kernelName];
  if (!file) {
    file = std::make_unique<triton::KernelFile>(triton::loadKernel(launch.source, launch.kernelName + ".py"));
    source = launch.source;
  } else if (source != launch.source) {
    // Compiled programs are cached by name and constexprs: a planner that gave
    // two different sources one name would run the first for both.
    throw core::RuntimeError("library kernel " + launch.kernelName +
                             ": two different sources carry this name (a planner must name every "
                             "source it generates uniquely)");
  }
  triton::ConstexprBindings constexprs;
  for (const auto &[name, value] : launch.constexprs)
    constexprs[name] = value;
  std::string key = "library:" + launch.kernelName;
  for (const auto &[name, value] : launch.constexprs)
    key += "|" + name + "=" + std::to_string(value);
  auto &kernel = impl_->kernels[key];
  if (!kernel) {
    const auto start = Clock::now();
    kernel = compileForNpu(*file, constexprs, {}, impl_->options.machine, {}, searchThreads(impl_->options));
    impl_->report.compileMs += millisecondsSince(start);
  }
  return *kernel;
}

std::set<int> NpuSteps::callAddressStorages(const Step &step,
                                            const std::vector<std::unique_ptr<reference::Buffer>> &storages,
                                            std::string &reason) {
  PlannedCall planned;
  try {
    planned = planFor(step, storages);
  } catch (const core::RuntimeError &) {
    return {}; // runs on the host, which computes its values in every mode
  }
  std::set<int> read;
  for (const library::KernelLaunch &launch : planned.plan.launches) {
    std::string why;
    std::vector<int> parameters;
    if (npu::timingValueNeed(libraryKernel(launch).program, &why, &parameters) == npu::ValueNeed::None)
      continue;
    if (reason.empty())
      reason = launch.kernelName + ": " + why;
    for (int p : parameters) {
      const auto a = static_cast<size_t>(p);
      if (a >= launch.arguments.size() || !launch.arguments[a].isPointer)
        continue;
      if (launch.arguments[a].buffer < planned.scratchBase) {
        read.insert(launch.arguments[a].buffer);
        continue;
      }
      // A scratch buffer an earlier launch of the call wrote: all the call
      // reads may matter.
      for (const CallValue &v : step.callArgs)
        core::mapTensors<int>(v, [&](const TensorRef &t) {
          read.insert(static_cast<int>(t.storage));
          return 0;
        });
    }
  }
  return read;
}

std::optional<std::vector<bool>>
NpuSteps::call(const Step &step, std::span<const reference::HostCallValue> args,
               std::span<const reference::TensorView *const> outs,
               const std::vector<std::unique_ptr<reference::Buffer>> &storages, bool computeValues,
               bool verify, StepResult &result) {
  PlannedCall planned;
  try {
    planned = planFor(step, storages);
  } catch (const core::RuntimeError &e) {
    result.message = std::string("ran on the host: no NPU plan: ") + e.what();
    return std::nullopt;
  }
  const library::CallPlan &plan = planned.plan;
  const int base = planned.scratchBase;
  std::vector<std::unique_ptr<reference::Buffer>> scratch;
  for (size_t i = 0; i < plan.scratch.size(); ++i) {
    auto b = std::make_unique<reference::Buffer>();
    b->name = step.name + " scratch " + std::to_string(i);
    b->dtype = plan.scratch[i].dtype;
    const int64_t bytes = plan.scratch[i].elements * core::byteSize(b->dtype);
    // Timing mode holds no scratch contents where the call computes no values.
    if (!computeValues && !verify && bytes > 0)
      impl_->absent[b.get()] = bytes;
    else
      b->bytes.assign(static_cast<size_t>(bytes), 0);
    scratch.push_back(std::move(b));
  }
  auto bufferById = [&](int id) -> reference::Buffer * {
    if (id >= 0 && static_cast<size_t>(id) < storages.size() && id < base)
      return storages[static_cast<size_t>(id)].get();
    const size_t s = static_cast<size_t>(id - base);
    if (id >= base && s < scratch.size())
      return scratch[s].get();
    throw core::RuntimeError("internal error: library plan for " + step.name + " names buffer " +
                             std::to_string(id));
  };

  // The outputs' storages, compared after the NPU run.
  std::vector<reference::Buffer *> outBuffers;
  for (const reference::TensorView *o : outs)
    if (o && std::find(outBuffers.begin(), outBuffers.end(), o->buffer) == outBuffers.end())
      outBuffers.push_back(o->buffer);
  std::vector<std::vector<uint8_t>> expected;
  std::vector<bool> defined = plan.outputDefined;
  if (verify) {
    const auto start = Clock::now();
    std::vector<std::vector<uint8_t>> original;
    for (reference::Buffer *b : outBuffers)
      original.push_back(b->bytes);
    defined = reference::runHostCall(step.name, args, outs);
    for (size_t i = 0; i < outBuffers.size(); ++i) {
      expected.push_back(std::move(outBuffers[i]->bytes));
      outBuffers[i]->bytes = std::move(original[i]);
    }
    impl_->report.npuCheckMs += millisecondsSince(start);
  }

  for (const library::KernelLaunch &launch : plan.launches) {
    const NpuKernel *kernel = &libraryKernel(launch);
    if (result.blockSizes.empty())
      result.blockSizes = describeBlocks(*kernel, impl_->libraryFiles.at(launch.kernelName).file->metadata);
    LaunchBuffers used;
    std::vector<functional::LaunchArgument> launchArgs;
    for (const library::KernelArgument &a : launch.arguments) {
      functional::LaunchArgument l;
      if (a.isPointer) {
        l.buffer = used.indexOf(bufferById(a.buffer));
        l.elementOffset = a.elementOffset;
      } else {
        l.intValue = a.intValue;
        l.floatValue = a.floatValue;
      }
      launchArgs.push_back(l);
    }
    impl_->execute(kernel->program, triton::GridSize{launch.grid[0], launch.grid[1], launch.grid[2]}, used,
                   launchArgs, computeValues, launch.kernelName, result);
  }
  // Scratch buffers die with the call; a later one may get the same host
  // address, so it must not inherit this one's DRAM address.
  for (const auto &b : scratch) {
    impl_->addresses.erase(b.get());
    impl_->absent.erase(b.get());
  }
  if (!verify)
    return plan.outputDefined;
  for (size_t i = 0; i < outs.size(); ++i) {
    if (!outs[i] || (i < defined.size() && !defined[i]))
      continue;
    const size_t b = static_cast<size_t>(std::find(outBuffers.begin(), outBuffers.end(), outs[i]->buffer) -
                                         outBuffers.begin());
    ++impl_->report.buffersCompared;
    // Compare the view only: an output's storage may hold other tensors that
    // the call does not define.
    reference::Buffer expectedBuffer;
    expectedBuffer.dtype = outBuffers[b]->dtype;
    expectedBuffer.bytes = expected[b];
    reference::TensorView expectedView = *outs[i];
    expectedView.buffer = &expectedBuffer;
    core::NpyArray wantArray;
    wantArray.shape = {expectedView.numel()};
    std::optional<ElementRule> rule;
    if (core::isFloat(expectedBuffer.dtype)) {
      const std::vector<double> want = reference::readValues(expectedView);
      wantArray.dtype = core::DType::Float64;
      wantArray.bytes.resize(want.size() * sizeof(double));
      std::memcpy(wantArray.bytes.data(), want.data(), wantArray.bytes.size());
      rule = oneRounding(expectedBuffer.dtype, want);
    } else {
      const std::vector<int64_t> want = reference::readIntegers(expectedView);
      wantArray.dtype = core::DType::Int64;
      wantArray.bytes.resize(want.size() * sizeof(int64_t));
      std::memcpy(wantArray.bytes.data(), want.data(), wantArray.bytes.size());
    }
    const Comparison c = compareWithReference(*outs[i], wantArray, rule ? &*rule : nullptr);
    if (!c.ok) {
      result.result = Outcome::Diverged;
      result.npuCheck = "differs from the reference";
      result.message = "the NPU kernels (" + result.blockSizes + ") and the reference differ in out[" +
                       std::to_string(i) + "]: " + c.message;
      return defined;
    }
  }
  result.npuCheck = "matches the reference";
  return defined;
}

TimedTiling fastestTiling(const triton::KernelFile &file, const NpuKernel &compiled,
                          const std::map<std::string, int64_t> &scalarArguments,
                          const triton::GridSize &launchGrid, std::vector<reference::Argument> &arguments,
                          const RunOptions &options) {
  if (compiled.nearTies.empty())
    return TimedTiling{&compiled, 0, 0};
  RunReport report;
  RunOptions quiet = options;
  quiet.onInstance = nullptr;
  quiet.tracePath.clear();
  NpuSteps npu(quiet, report);
  return npu.fastestTiling(file, compiled, scalarArguments, launchGrid, arguments, file.metadata.kernelName);
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
