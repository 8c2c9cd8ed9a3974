// One timing simulator per run; each launch timed on an idle machine and added
// into its step.
#include "runtime/npu_timing.h"

#include "timing/simulator.h"

namespace npusim::runtime {

NpuTimer::NpuTimer(const config::HardwareConfig &machine, bool keepTrace)
    : machine_(machine), simulator_(std::make_unique<timing::Simulator>(machine)) {
  simulator_->enableTrace(keepTrace);
}

NpuTimer::~NpuTimer() = default;

void NpuTimer::time(const npu::Program &program, std::vector<npu::InstanceTrace> &&traces,
                    const std::string &launchName, StepTiming &step) {
  const timing::LaunchTiming t = simulator_->timeLaunch(program, std::move(traces), launchName);
  // Busy time adds up over the launches of a step, weighted by their length.
  const double previousUs = step.timeUs;
  const double launchUs = static_cast<double>(t.timePs) / 1.0e6;
  std::vector<std::pair<std::string, double>> busy;
  for (int k = 0; k < timing::kNumUnitKinds; ++k) {
    const auto kind = static_cast<timing::UnitKind>(k);
    double before = 0.0;
    for (const auto &[unit, percent] : step.unitBusyPercent)
      if (unit == timing::unitKindName(kind))
        before = percent;
    const double total = previousUs + launchUs;
    const double weighted = total > 0.0 ? (before * previousUs + t.busy(kind) * launchUs) / total : 0.0;
    busy.emplace_back(std::string(timing::unitKindName(kind)), weighted);
  }
  step.unitBusyPercent = std::move(busy);
  const int64_t bytesBefore = step.dramBytesRead + step.dramBytesWritten;
  const int64_t launchBytes = t.dramBytesRead + t.dramBytesWritten;
  if (bytesBefore + launchBytes > 0)
    step.rowHitRate = (step.rowHitRate * static_cast<double>(bytesBefore) +
                       t.rowHitRate * static_cast<double>(launchBytes)) /
                      static_cast<double>(bytesBefore + launchBytes);
  step.cycles += t.cycles;
  step.timeUs += launchUs;
  step.dramBytesRead += t.dramBytesRead;
  step.dramBytesWritten += t.dramBytesWritten;
  step.macs += t.macs;
  step.rooflineUs += static_cast<double>(t.rooflineBoundPs) / 1.0e6;
  step.memoryUs += static_cast<double>(t.memoryBoundPs) / 1.0e6;
  step.achievedGBs = step.timeUs > 0.0 ? static_cast<double>(step.dramBytesRead + step.dramBytesWritten) /
                                             (step.timeUs * 1.0e3)
                                       : 0.0;
  step.boundRatio = step.rooflineUs > 0.0 ? step.timeUs / step.rooflineUs : 0.0;
}

void NpuTimer::writeTrace(const std::string &path) const { simulator_->writeChromeTrace(path); }

} // namespace npusim::runtime
