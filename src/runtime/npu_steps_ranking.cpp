// Ranking the ways to run a launch or a call by their cycles on the timing
// simulator, each from an idle machine on a sample of its instances: the
// near-ties of a compiled kernel's block sizes (fastestTiling) and the
// library kernels that can run a call (fastestKernel).
#include "runtime/npu_steps_internal.h"

#include "core/error.h"
#include "library/library.h"
#include "npu/execution.h"
#include "timing/simulator.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace npusim::runtime {

namespace {

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

/// What a library call's plan and its ranking's cycles depend on: the
/// operator and every argument (tensors by offset, shape, strides and dtype,
/// and their storages by size and by which arguments share one). Not the
/// storages themselves: timeLaunchAlone lays the buffers out afresh in the
/// order of use, so a call on other storages of the same sizes (the next
/// layer's weights) ranks the same and shares the choice.
std::string callSignature(const std::string &op, std::span<const library::CallArgument> args,
                          std::span<const library::TensorRef *const> outs,
                          const std::function<uint64_t(int)> &storageBytes) {
  std::string key = op;
  std::map<int, size_t> storageOrder;
  auto tensor = [&](const library::TensorRef &t) {
    const auto [it, first] = storageOrder.emplace(t.buffer, storageOrder.size());
    key += "|s" + std::to_string(it->second);
    if (first)
      key += "=" + std::to_string(storageBytes(t.buffer)) + "B";
    key += "+" + std::to_string(t.offset) + ":" + std::to_string(static_cast<int>(t.dtype));
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

std::optional<int64_t>
NpuSteps::Impl::timeLaunchAlone(const npu::Program &program, const triton::GridSize &grid,
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
                                    const std::vector<reference::Argument> &arguments,
                                    const std::string &name) {
  // NPUSIM_TILING_TIMED=0 keeps the estimate's choice, for comparisons.
  const char *timedVariable = std::getenv("NPUSIM_TILING_TIMED");
  if (compiled.nearTies.empty() || (timedVariable && std::string_view(timedVariable) == "0"))
    return TimedTiling{&compiled, 0, 0};
  // What the candidates' cycles depend on besides the kernel, its constexprs,
  // scalars and grid (the compiled kernel's key): each buffer's size and the
  // argument's offset into it, as timeLaunchAlone lays them out.
  LaunchBuffers used;
  const std::vector<functional::LaunchArgument> launchArgs = launchArguments(arguments, used);
  std::string layout;
  for (size_t i = 0; i < arguments.size(); ++i)
    layout += arguments[i].buffer ? "|b" + std::to_string(launchArgs[i].buffer) + ":" +
                                        std::to_string(impl_->sizeOf(arguments[i].buffer)) + "+" +
                                        std::to_string(arguments[i].elementOffset)
                                  : std::string("|s");
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
                   cycles ? (std::to_string(*cycles) + " cycles").c_str()
                          : "not timed (its trace needs values)");
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

namespace {

bool sameLaunch(const library::KernelLaunch &a, const library::KernelLaunch &b) {
  if (a.kernelName != b.kernelName || a.source != b.source || a.constexprs != b.constexprs ||
      !std::equal(std::begin(a.grid), std::end(a.grid), std::begin(b.grid)) ||
      a.arguments.size() != b.arguments.size())
    return false;
  for (size_t i = 0; i < a.arguments.size(); ++i) {
    const library::KernelArgument &x = a.arguments[i], &y = b.arguments[i];
    if (x.isPointer != y.isPointer || x.buffer != y.buffer || x.elementOffset != y.elementOffset ||
        x.intValue != y.intValue || x.floatValue != y.floatValue)
      return false;
  }
  return true;
}

bool samePlan(const library::CallPlan &a, const library::CallPlan &b) {
  if (a.launches.size() != b.launches.size() || a.scratch.size() != b.scratch.size())
    return false;
  for (size_t i = 0; i < a.scratch.size(); ++i)
    if (a.scratch[i].dtype != b.scratch[i].dtype || a.scratch[i].elements != b.scratch[i].elements)
      return false;
  for (size_t i = 0; i < a.launches.size(); ++i)
    if (!sameLaunch(a.launches[i], b.launches[i]))
      return false;
  return true;
}

} // namespace

std::string NpuSteps::fastestKernel(const std::string &op, std::span<const library::CallArgument> args,
                                    std::span<const library::TensorRef *const> outs,
                                    const library::MachineShape &shape,
                                    const std::vector<std::unique_ptr<reference::Buffer>> &storages,
                                    const std::vector<std::string> &kernels,
                                    std::string library::MachineShape::*choice) {
  if (impl_->options.mode == Mode::Reference)
    return "";
  // One choice per call and per list of kernels (a convolution chooses its
  // kernel, then the GEMM kernel of a plan made of GEMMs).
  const int scratchBase = library::scratchBufferBase(args, outs);
  auto storageBytes = [&](int buffer) -> uint64_t {
    if (buffer >= 0 && buffer < scratchBase && static_cast<size_t>(buffer) < storages.size())
      return impl_->sizeOf(storages[static_cast<size_t>(buffer)].get());
    return 0; // not a storage of the graph: timeAlone declines to time it
  };
  const std::string key =
      callSignature(op, args, outs, storageBytes) + " among " + library::joinNames(kernels);
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
      library::CallPlan plan = library::planCall(op, args, outs, forced);
      // Kernels whose plans are the same launches (a choice the call's plan
      // does not depend on) are timed once: the first of them stands.
      if (std::none_of(plans.begin(), plans.end(), [&](const auto &p) { return samePlan(p.second, plan); }))
        plans.emplace_back(kernel, std::move(plan));
    } catch (const core::RuntimeError &) {
      // this kernel cannot run the call
    }
  }
  std::string best;
  int64_t bestCycles = 0;
  if (plans.size() >= 2) {
    ++impl_->report.kernelRankings;
    for (const auto &[kernel, plan] : plans) {
      const std::optional<int64_t> cycles = timeAlone(plan, scratchBase, storages);
      if (cycles && (best.empty() || *cycles < bestCycles)) {
        best = kernel;
        bestCycles = *cycles;
      }
    }
  }
  impl_->report.compileMs += millisecondsSince(start);
  impl_->kernelChoices.emplace(key, best);
  return best;
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

} // namespace npusim::runtime
