#pragma once
// The runtime's side of the timing simulator: one simulator for a whole run,
// each launch's execution trace timed in turn, the results added into the
// timing of the step that made the launch (internal to the runtime module).
//
// With timing threads, launches are timed on threads of their own while the
// caller goes on with the next launch's functional run. Every launch starts
// from an idle machine (timing::Simulator::timeLaunch), so each thread has a
// simulator of its own and the launches may be timed in any order; their
// results are added into the steps in submission order, so every figure is
// the one timing them one by one in the caller's thread gives, bit for bit.
// A recorded Chrome trace lays the launches end to end in one simulator: then
// there is one timing thread. The traces that wait are bounded, which bounds
// their memory: at most kQueuedPerThread launches per thread and
// kQueuedTraceBytes of traces; a launch with more waits until the timing
// threads are idle, so that at most it and the next launch's traces exist.
// A launch whose traces outgrow kStreamAboveBytes (or any launch, without
// timing threads) is timed as its instances run (streamLaunch), holding only
// the instances in flight: with timing threads on a thread of its own while
// the caller runs the launch (InstancePipe), else in the caller's thread.
#include "config/hardware.h"
#include "energy/energy.h"
#include "npu/execution.h"
#include "runtime/instance_pipe.h"
#include "runtime/runner.h"
#include "timing/simulator.h"

#include <condition_variable>
#include <deque>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace npusim::runtime {

class NpuTimer {
public:
  /// `threads` 0: every launch is timed in the caller's thread. Reads the
  /// machine's energy table (throws core::InputError for a bad one).
  NpuTimer(const config::HardwareConfig &machine, bool keepTrace, int threads);
  ~NpuTimer();
  NpuTimer(const NpuTimer &) = delete;
  NpuTimer &operator=(const NpuTimer &) = delete;

  static constexpr size_t kQueuedPerThread = 2;
  static constexpr size_t kQueuedTraceBytes = size_t{256} << 20;

  /// Times one launch and adds its cycles, bytes and busy time into the
  /// timing of step `step` (a library call may take several launches).
  /// `program` must outlive the timer. Timed in the caller's thread, errors
  /// are thrown here; otherwise they wait for drain().
  void time(const npu::Program &program, std::vector<npu::InstanceTrace> &&traces,
            const std::string &launchName, size_t step);
  /// Whether launches are timed on timing threads.
  bool threaded() const { return !workers_.empty(); }
  /// Launches whose traces outgrow this are timed as their instances arrive
  /// (streamLaunch), in memory that does not grow with their grid.
  static constexpr size_t kStreamAboveBytes = size_t{32} << 20;

  /// Starts timing a launch as its instances arrive (on a thread of its own
  /// when threaded(), else in the caller's),
  /// after every launch submitted before it has been timed (in memory that
  /// does not grow with the grid: timing::LaunchStream). Returns false, and
  /// starts nothing, when one of those failed (its error: error()).
  bool streamLaunch(const npu::Program &program, const std::string &launchName, size_t step);
  /// The streamed launch's next instance, in increasing instance order.
  void streamInstance(npu::InstanceTrace &&trace);
  /// Ends the streamed launch and adds its timing into its step.
  void endStream();
  /// Drops a streamed launch whose functional run failed (nothing is added).
  void cancelStream();
  /// The instance traces the streamed launch held at most at once.
  int64_t streamPeakHeld() const { return streamPeakHeld_; }

  /// Waits until every launch submitted is timed and added. When one failed,
  /// the launches after it are not added: returns the failed launch's step
  /// (its error: error()).
  std::optional<size_t> drain();
  /// The error of the first launch that failed on a timing thread, if any.
  std::exception_ptr error() const;
  bool failed() const { return error() != nullptr; }
  /// The timing of step `step`, complete after drain(); null if it was not timed.
  const StepTiming *timing(size_t step) const;
  /// CPU time spent timing launches so far, on whichever threads timed them.
  double busyMs() const;
  /// Writes the Chrome/Perfetto trace of every timed launch (after drain()).
  /// Returns the instruction events it kept and left out (the trace keeps
  /// at most timing::TraceRecorder::kDefaultMaxEvents).
  std::pair<int64_t, int64_t> writeTrace(const std::string &path) const;

private:
  struct Launch {
    uint64_t sequence = 0;
    const npu::Program *program = nullptr;
    std::vector<npu::InstanceTrace> traces;
    std::string name;
    size_t step = 0;
    size_t bytes = 0; // the traces' memory, roughly
  };
  struct Timed {
    size_t step = 0;
    timing::LaunchTiming timing;
  };
  void work(timing::Simulator &simulator);
  /// Adds the finished launches that follow the last one added (lock held).
  void addInOrder();

  /// Adds one launch's timing and energy into its step's (lock held or no threads).
  void add(const timing::LaunchTiming &launch, size_t step);
  /// Times the streamed launch's next instance, counting the CPU time it takes.
  void timeInstance(timing::LaunchStream &stream, npu::InstanceTrace &&trace);

  config::HardwareConfig machine_;
  energy::Table energyTable_; // machine_.energy, read once
  std::vector<std::unique_ptr<timing::Simulator>> simulators_; // one per timing thread (or the caller's)
  std::map<size_t, StepTiming> steps_;

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Launch> queue_;
  std::map<uint64_t, Timed> finished_; // timed, waiting for the launches before them
  uint64_t submitted_ = 0, added_ = 0; // launches handed to time() / added into steps_
  size_t busy_ = 0;                    // launches being timed
  size_t queuedBytes_ = 0;             // Launch::bytes over queue_
  bool stopping_ = false;
  double busyMs_ = 0.0;
  std::exception_ptr error_;
  uint64_t errorSequence_ = 0;
  size_t errorStep_ = 0;
  std::vector<std::thread> workers_;
  std::unique_ptr<timing::LaunchStream> stream_; // the streamed launch, if one runs
  std::unique_ptr<InstancePipe> pipe_;           // its instances' way to their timing thread, if threaded
  size_t streamStep_ = 0;
  int64_t streamPeakHeld_ = 0;
};

} // namespace npusim::runtime
