#pragma once
// What the files of NpuSteps share (internal to the runtime module): its
// state (NpuSteps::Impl: the compiled kernels, every buffer's DRAM address,
// the timer), the buffers of one launch, the collector of a launch's
// instance traces, the comparison of buffers with the reference, and the
// sample that ranking times. npu_steps.cpp runs the steps;
// npu_steps_calls.cpp plans and runs library calls; npu_steps_ranking.cpp
// ranks kernels and tilings by their cycles; npu_steps_traces.cpp collects
// traces for the timing simulator; npu_steps_compare.cpp compares buffers.
#include "functional/simulator.h"
#include "npu/execution.h"
#include "runtime/clock_internal.h"
#include "runtime/fingerprint.h"
#include "runtime/kernels.h"
#include "runtime/npu_steps.h"
#include "runtime/npu_timing.h"
#include "runtime/runner.h"
#include "runtime/touched_bytes.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace npusim::runtime {

/// Threads the block-size search compiles candidates on: --threads when given.
/// By default one, since on a machine whose cores are busy with other work
/// (resnet18-train at load 4 on two cores) two threads compiled slower than
/// one.
inline int searchThreads(const RunOptions &options) {
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

/// Buffers start at multiples of this in the flat DRAM address space.
inline constexpr uint64_t kBufferAlignment = 4096;

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
  void instanceDone(npu::InstanceTrace &&trace) override;
  /// Whether the launch was timed as it ran (then finish() adds it).
  bool streaming() const { return streaming_; }
  /// Ends a streamed launch.
  void finish();
  std::vector<npu::InstanceTrace> traces;

private:
  static constexpr int64_t kSample = 64;
  void startStreaming();
  void checkMemory(int64_t done) const;
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

/// The functional simulator's arguments of a launch: each buffer by its index
/// in `used` (added at first use) with the argument's element offset, each
/// scalar by its value.
std::vector<functional::LaunchArgument> launchArguments(const std::vector<reference::Argument> &arguments,
                                                        LaunchBuffers &used);

/// The rule of one step's 16-bit float results against the reference's on
/// the same inputs: each side rounds once (runtime/rounding_tolerance.h).
std::optional<ElementRule> oneRounding(core::DType dtype, const std::vector<double> &expected);

/// `actual` against `expected` (bytes of the same dtype): floats within
/// rtol = atol = 1e-4 (16-bit floats within one rounding), integers and bools exactly.
Comparison compareBuffers(reference::Buffer &actual, const std::vector<uint8_t> &expected);

/// The block sizes of a compiled kernel, for a step's report; `note` follows
/// "chosen for the machine" when the compiler chose them.
std::string describeBlocks(const NpuKernel &kernel, const triton::KernelMetadata &meta,
                           const std::string &note = "");

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

  Impl(const RunOptions &o, RunReport &r);

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

  /// A buffer's flat DRAM address, laid out at its first use.
  uint64_t addressOf(const reference::Buffer *b);

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
  void closeTouchedStep();

  /// Programs whose scratchpad storage was checked against the memory.
  std::set<const npu::Program *> fitsInMemory;

  /// The functional simulator stores the banks the program's tiles occupy
  /// (and a shadow of as many bytes): a machine with a huge scratchpad would
  /// otherwise be found out by the operating system's out-of-memory killer.
  void checkScratchpadFits(const npu::Program &program);

  /// One program launch on the functional simulator, timed when a timer exists.
  void execute(const npu::Program &program, const triton::GridSize &grid, LaunchBuffers &used,
               const std::vector<functional::LaunchArgument> &arguments, bool computeValues,
               const std::string &launchName, StepResult &result);

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
                                         const std::string &name, const RankingSample &sample);
};

} // namespace npusim::runtime
