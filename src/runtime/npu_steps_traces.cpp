// TraceCollector (runtime/npu_steps_internal.h): a launch's instance traces
// for the timing simulator, handed whole to the timer, streamed to it as they
// arrive, or kept whole for a launch sink with a check of the memory they take.
#include "runtime/npu_steps_internal.h"

#include "core/error.h"
#include "core/host_memory.h"
#include "timing/simulator.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>

namespace npusim::runtime {

void TraceCollector::instanceDone(npu::InstanceTrace &&trace) {
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

void TraceCollector::finish() {
  finished_ = true;
  if (streaming_)
    timer_->endStream();
}

void TraceCollector::startStreaming() {
  // A timer whose earlier launch failed takes nothing more: the traces
  // stay here and are dropped, as time() drops later launches.
  if (!timer_->streamLaunch(program_, kernel_, step_))
    return;
  streaming_ = true;
  std::stable_sort(
      traces.begin(), traces.end(),
      [](const npu::InstanceTrace &a, const npu::InstanceTrace &b) { return a.instance < b.instance; });
  for (npu::InstanceTrace &trace : traces)
    timer_->streamInstance(std::move(trace));
  traces.clear();
  traces.shrink_to_fit();
}

void TraceCollector::checkMemory(int64_t done) const {
  const double perInstance = static_cast<double>(bytes_) / static_cast<double>(done);
  const double whole = perInstance * static_cast<double>(instances_);
  const uint64_t available = core::hostMemoryBytes();
  if (whole > static_cast<double>(available / 2))
    throw core::InputError("kernel " + kernel_ + ": timing its grid of " + std::to_string(instances_) +
                           " program instances takes about " + core::bytesText(static_cast<uint64_t>(whole)) +
                           " (" + std::to_string(static_cast<int64_t>(perInstance)) +
                           " bytes per instance; a served launch is held whole), more than half "
                           "of the " +
                           core::bytesText(available) +
                           " of memory this process may use; time a smaller grid");
}

} // namespace npusim::runtime
