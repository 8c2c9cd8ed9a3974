#pragma once
// The timing simulator's interface: times one kernel launch (a compiled
// program and the traces of its program instances) on the configured NPU and
// reports cycles, unit utilisation, DRAM statistics and the roofline bound.
// docs/timing.md describes the model and derives every formula.
#include "config/hardware.h"
#include "npu/execution.h"
#include "timing/activity.h"
#include "timing/chrome_trace.h"
#include "machine/unit_costs.h"
#include "timing/event_queue.h"
#include "timing/memory_port.h"

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace npusim::timing {

using machine::UnitKind;
using machine::kNumUnitKinds;
using machine::unitKindName;

struct LaunchTiming {
  std::string kernel;
  int64_t instances = 0;
  int64_t instructions = 0;
  /// Instructions a streamed launch appended too late to be sure of their
  /// start (CoreModel::lateInstructions); 0 unless instances differ in the
  /// units they use, or a core lagged the others by more than
  /// LaunchStream::kMaxHeldPerCore instances. Nonzero, the cycles may differ
  /// from the launch's with every instance appended before it started.
  int64_t lateInstructions = 0;
  int64_t cycles = 0; // core clock, ceil(timePs / period)
  TimePs timePs = 0;
  /// Per unit kind (UnitKind order): percent of the launch the unit had an
  /// instruction in flight, averaged over all cores (and over the arrays).
  std::array<double, kNumUnitKinds> busyPercent{};
  int64_t dramBytesRead = 0, dramBytesWritten = 0;
  double achievedBandwidthGBs = 0.0;
  double rowHitRate = 0.0; // hits / (hits + misses + conflicts); 0 without row statistics
  int64_t macs = 0;
  int64_t vectorElementOps = 0;
  /// MACs over what the arrays of all cores could do in the launch's time.
  double systolicUtilisation = 0.0;
  TimePs computeBoundPs = 0, memoryBoundPs = 0;
  TimePs rooflineBoundPs = 0; // max(compute, memory)
  double boundRatio = 1.0;    // timePs / rooflineBoundPs (>= 1)
  MemoryStats memory;
  /// The work of every unit of every core (timing/activity.h), for the energy model.
  Activity activity;

  double busy(UnitKind kind) const { return busyPercent[static_cast<size_t>(kind)]; }
};

/// Memory the timing simulator keeps per executed instruction of a launch (or
/// of a serving placement) until it ends: the core model's record of the
/// instruction, its queue entry and its dependencies. Measured: serving the
/// tiny bundle 2,000 and 20,000 times peaks at 140 and 1160 MiB, 166 bytes per
/// instruction. Callers check a launch's size against the memory with it.
inline constexpr uint64_t kBytesPerTimedInstruction = 170;

/// Builds the memory system behind the cores' port for one launch.
using MemoryFactory = std::function<std::unique_ptr<MemoryPort>(EventQueue &)>;

class CoreModel;

/// One launch timed as its instances arrive (Simulator::beginLaunch). The
/// simulation runs between add() calls as far as it can without an instance
/// not yet given: it holds the instances in flight and a few ahead of them
/// (kLookaheadInstances per core), and those of a core that lags the others
/// up to kMaxHeldPerCore, never the whole launch, and sums every statistic as
/// instructions complete (docs/timing.md, "Memory of a launch").
class LaunchStream {
public:
  /// Instances a core has appended beyond the latest it has started, before
  /// the simulation goes on.
  static constexpr int64_t kLookaheadInstances = 4;
  /// Instances of a core that run at once (CoreModel::limitInstances).
  static constexpr int64_t kInstanceWindow = 8;
  /// Instances a core holds at most. On several cores, a core that lags
  /// behind the others (its instances do more work, or the memory serves it
  /// less) keeps the instances given to it that it has not reached; past this
  /// many the simulation runs on although another core waits for its next
  /// instance, whose instructions may then start late (lateInstructions).
  /// Measured on the pointwise kernels of tests/data/cli with 2 to 16
  /// cores, a core held at most 478 instances, all while the cores' start
  /// evens out (docs/timing.md, "Memory of a launch").
  static constexpr int64_t kMaxHeldPerCore = 1024;

  ~LaunchStream();
  LaunchStream(const LaunchStream &) = delete;
  LaunchStream &operator=(const LaunchStream &) = delete;

  /// The next instance; instances come in increasing instance order (a
  /// core::RuntimeError otherwise). Instance i runs on core i % numCores.
  void add(npu::InstanceTrace &&trace);
  /// Runs the launch to its end; the stream takes no instance after it.
  LaunchTiming finish();

  /// Instance traces held now, and the most held at once so far.
  int64_t heldInstances() const;
  int64_t peakHeldInstances() const { return peakHeld_; }

private:
  friend class Simulator;
  struct Machine;
  LaunchStream(const config::HardwareConfig &config, const MemoryFactory &memoryFactory,
               const npu::Program &program, TraceRecorder *trace, const std::string &launchName);

  const config::HardwareConfig &config_;
  const npu::Program &program_;
  TraceRecorder *trace_;
  std::unique_ptr<Machine> machine_;
  int64_t instances_ = 0, lastInstance_ = -1, peakHeld_ = 0;
  bool finished_ = false;
};

class Simulator {
public:
  /// Uses the memory system the configuration describes (makeMemorySystem).
  explicit Simulator(const config::HardwareConfig &config);
  Simulator(const config::HardwareConfig &config, MemoryFactory memoryFactory);

  /// Times one launch. Instance i runs on core i % numCores; a core runs its
  /// instances in increasing instance order. Every launch starts from an idle
  /// machine with fresh DRAM state (empty queues, closed rows), so its timing
  /// does not depend on the launches before it. `launchName` names the launch in
  /// the trace (default: the kernel's name).
  LaunchTiming timeLaunch(const npu::Program &program, std::vector<npu::InstanceTrace> &&traces,
                          const std::string &launchName = {});
  /// The same launch with its instances given one by one, in increasing
  /// instance order (LaunchStream): same cycles and statistics as
  /// timeLaunch, in memory that does not grow with the number of instances.
  /// `program` and the simulator must outlive the stream; one stream at a
  /// time per simulator when a trace is recorded.
  std::unique_ptr<LaunchStream> beginLaunch(const npu::Program &program, const std::string &launchName = {});

  /// Records a Chrome trace of the following launches (appended one after another).
  void enableTrace(bool enabled, size_t maxEvents = TraceRecorder::kDefaultMaxEvents);
  const TraceRecorder *trace() const { return trace_.get(); }
  /// Writes the recorded trace; throws core::InputError when the file cannot be written.
  void writeChromeTrace(const std::string &path) const;

  const config::HardwareConfig &config() const { return config_; }

private:
  config::HardwareConfig config_;
  MemoryFactory memoryFactory_;
  std::unique_ptr<TraceRecorder> trace_;
};

/// The sum of several launches (a model), for reports.
LaunchTiming accumulate(const std::vector<LaunchTiming> &launches);

} // namespace npusim::timing
