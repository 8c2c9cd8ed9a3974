#pragma once
// The runtime's side of the timing simulator: one simulator for a whole run,
// each launch's execution trace timed in turn, the results added into the
// timing of the step that made the launch (internal to the runtime module).
//
// With `concurrent`, launches are timed on a thread of their own while the
// caller goes on with the next launch's functional run: the timing thread
// takes them in submission order on the one simulator, so the cycles are
// those of timing them in the caller's thread, bit for bit. At most
// kMaxQueuedLaunches traces wait, which bounds the memory they hold.
#include "config/hardware.h"
#include "npu/execution.h"
#include "runtime/runner.h"

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

namespace npusim::timing {
class Simulator;
}

namespace npusim::runtime {

class NpuTimer {
public:
  NpuTimer(const config::HardwareConfig &machine, bool keepTrace, bool concurrent);
  ~NpuTimer();
  NpuTimer(const NpuTimer &) = delete;
  NpuTimer &operator=(const NpuTimer &) = delete;

  static constexpr size_t kMaxQueuedLaunches = 2;

  /// Times one launch and adds its cycles, bytes and busy time into the
  /// timing of step `step` (a library call may take several launches).
  /// `program` must outlive the timer. Without `concurrent`, errors are
  /// thrown here; with it, they wait for drain().
  void time(const npu::Program &program, std::vector<npu::InstanceTrace> &&traces,
            const std::string &launchName, size_t step);
  /// Waits until every launch submitted is timed. After an error of the
  /// timing thread the launches after it are not timed; drain returns the
  /// step whose launch failed and rethrows nothing (see error()).
  std::optional<size_t> drain();
  /// The error of the timing thread, if any (the step it belongs to: drain()).
  std::exception_ptr error() const;
  /// Whether the timing thread has failed (then later launches are dropped).
  bool failed() const;
  /// The timing of step `step`, complete after drain(); null if it was not timed.
  const StepTiming *timing(size_t step) const;
  /// CPU time spent timing launches so far, on whichever thread timed them.
  double busyMs() const { return busyMs_; }
  /// Writes the Chrome/Perfetto trace of every timed launch (after drain()).
  void writeTrace(const std::string &path) const;

private:
  struct Launch {
    const npu::Program *program = nullptr;
    std::vector<npu::InstanceTrace> traces;
    std::string name;
    size_t step = 0;
  };
  void timeNow(Launch &launch);
  void work();

  config::HardwareConfig machine_;
  std::unique_ptr<timing::Simulator> simulator_;
  std::map<size_t, StepTiming> steps_;
  double busyMs_ = 0.0;

  // The timing thread's queue (concurrent only).
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Launch> queue_;
  bool busy_ = false, stopping_ = false;
  std::exception_ptr error_;
  size_t errorStep_ = 0;
  std::thread worker_;
};

} // namespace npusim::runtime
