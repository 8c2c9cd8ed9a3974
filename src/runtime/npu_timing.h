#pragma once
// The runtime's side of the timing simulator: one simulator for a whole run,
// each launch's execution trace timed in turn, the results added into the
// step's StepTiming (internal to the runtime module).
#include "config/hardware.h"
#include "npu/execution.h"
#include "runtime/runner.h"

#include <memory>
#include <string>
#include <vector>

namespace npusim::timing {
class Simulator;
}

namespace npusim::runtime {

class NpuTimer {
public:
  NpuTimer(const config::HardwareConfig &machine, bool keepTrace);
  ~NpuTimer();
  NpuTimer(const NpuTimer &) = delete;
  NpuTimer &operator=(const NpuTimer &) = delete;

  /// Times one launch and adds its cycles, bytes and busy time into `step`
  /// (a library call may take several launches).
  void time(const npu::Program &program, std::vector<npu::InstanceTrace> &&traces, const std::string &launchName,
            StepTiming &step);
  /// Writes the Chrome/Perfetto trace of every timed launch.
  void writeTrace(const std::string &path) const;

private:
  config::HardwareConfig machine_;
  std::unique_ptr<timing::Simulator> simulator_;
};

} // namespace npusim::runtime
