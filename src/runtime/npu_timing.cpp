// One timing simulator per run; each launch timed on an idle machine and added
// into its step, in the caller's thread or on a timing thread of its own.
#include "runtime/npu_timing.h"

#include "core/error.h"
#include "timing/simulator.h"

#include <algorithm>
#include <ctime>

namespace npusim::runtime {

namespace {

/// CPU time of the calling thread: what timing costs, whether it shares the
/// machine with other work or not.
double threadCpuMs() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

/// Adds one launch's timing into the step's.
void addLaunch(const timing::LaunchTiming &t, StepTiming &step) {
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
  step.lateInstructions += t.lateInstructions;
  step.timeUs += launchUs;
  step.dramBytesRead += t.dramBytesRead;
  step.dramBytesWritten += t.dramBytesWritten;
  step.macs += t.macs;
  step.rooflineUs += static_cast<double>(t.rooflineBoundPs) / 1.0e6;
  step.memoryUs += static_cast<double>(t.memoryBoundPs) / 1.0e6;
  step.computeUs += static_cast<double>(t.computeBoundPs) / 1.0e6;
  step.achievedGBs = step.timeUs > 0.0 ? static_cast<double>(step.dramBytesRead + step.dramBytesWritten) /
                                             (step.timeUs * 1.0e3)
                                       : 0.0;
  step.boundRatio = step.rooflineUs > 0.0 ? step.timeUs / step.rooflineUs : 0.0;
}

} // namespace

void NpuTimer::add(const timing::LaunchTiming &launch, size_t step) {
  StepTiming &timing = steps_[step];
  addLaunch(launch, timing);
  timing.energy.add(energy::estimate(launch, machine_, energyTable_));
}

NpuTimer::NpuTimer(const config::HardwareConfig &machine, bool keepTrace, int threads)
    : machine_(machine), energyTable_(energy::loadTable(machine.energy)) {
  const int simulators = keepTrace ? std::min(threads, 1) : threads;
  for (int k = 0; k < std::max(simulators, 1); ++k) {
    simulators_.push_back(std::make_unique<timing::Simulator>(machine));
    simulators_.back()->enableTrace(keepTrace);
  }
  for (int k = 0; k < simulators; ++k)
    workers_.emplace_back([this, k] { work(*simulators_[static_cast<size_t>(k)]); });
}

NpuTimer::~NpuTimer() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  for (std::thread &w : workers_)
    w.join();
}

void NpuTimer::time(const npu::Program &program, std::vector<npu::InstanceTrace> &&traces,
                    const std::string &launchName, size_t step) {
  if (workers_.empty()) {
    const double start = threadCpuMs();
    const timing::LaunchTiming t = simulators_[0]->timeLaunch(program, std::move(traces), launchName);
    add(t, step);
    busyMs_ += threadCpuMs() - start;
    return;
  }
  size_t bytes = 0;
  for (const npu::InstanceTrace &t : traces) {
    bytes += sizeof t + t.instructions.capacity() * sizeof(npu::ExecutedInstruction);
    for (const npu::ExecutedInstruction &e : t.instructions)
      bytes += e.dram.capacity() * sizeof(npu::DramRun);
  }
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] {
    if (error_)
      return true;
    if (bytes > kQueuedTraceBytes)
      return queue_.empty() && busy_ == 0;
    return queue_.size() < kQueuedPerThread * workers_.size() &&
           (queue_.empty() || queuedBytes_ + bytes <= kQueuedTraceBytes);
  });
  if (error_)
    return; // the run ends at the failed launch's step: later launches are not timed
  queue_.push_back(Launch{submitted_++, &program, std::move(traces), launchName, step, bytes});
  queuedBytes_ += bytes;
  changed_.notify_all();
}

bool NpuTimer::streamLaunch(const npu::Program &program, const std::string &launchName, size_t step) {
  if (stream_)
    throw core::RuntimeError("timing: kernel " + program.kernelName + " began while another launch streamed");
  {
    // Every launch before it timed and added: the streamed one is added last,
    // in order, and the first simulator (a worker's when there are threads)
    // is idle until the stream ends, since only this thread submits launches.
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return error_ || (queue_.empty() && busy_ == 0); });
    if (error_)
      return false;
  }
  stream_ = simulators_[0]->beginLaunch(program, launchName);
  streamStep_ = step;
  // With timing threads, the stream is timed on a thread of its own while
  // this one runs the launch's functional simulation.
  if (threaded())
    pipe_ = std::make_unique<InstancePipe>(
        [this, stream = stream_.get()](npu::InstanceTrace &&trace) { timeInstance(*stream, std::move(trace)); });
  return true;
}

void NpuTimer::timeInstance(timing::LaunchStream &stream, npu::InstanceTrace &&trace) {
  const double start = threadCpuMs();
  stream.add(std::move(trace));
  const double cpu = threadCpuMs() - start;
  std::lock_guard lock(mutex_);
  busyMs_ += cpu;
}

void NpuTimer::streamInstance(npu::InstanceTrace &&trace) {
  if (pipe_)
    pipe_->push(std::move(trace));
  else
    timeInstance(*stream_, std::move(trace));
}

void NpuTimer::cancelStream() {
  pipe_.reset(); // stops the thread that uses the stream first
  stream_.reset();
}

void NpuTimer::endStream() {
  const std::unique_ptr<timing::LaunchStream> stream = std::move(stream_);
  if (const std::unique_ptr<InstancePipe> pipe = std::move(pipe_))
    pipe->close();
  const double start = threadCpuMs();
  const timing::LaunchTiming t = stream->finish();
  streamPeakHeld_ = std::max(streamPeakHeld_, stream->peakHeldInstances());
  std::lock_guard lock(mutex_);
  add(t, streamStep_);
  busyMs_ += threadCpuMs() - start;
}

void NpuTimer::work(timing::Simulator &simulator) {
  std::unique_lock lock(mutex_);
  for (;;) {
    changed_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
    if (queue_.empty())
      return;
    Launch launch = std::move(queue_.front());
    queue_.pop_front();
    queuedBytes_ -= launch.bytes;
    ++busy_;
    lock.unlock();
    std::exception_ptr error;
    Timed timed{launch.step, {}};
    const double start = threadCpuMs();
    try {
      timed.timing = simulator.timeLaunch(*launch.program, std::move(launch.traces), launch.name);
    } catch (...) {
      error = std::current_exception();
    }
    const double cpu = threadCpuMs() - start;
    lock.lock();
    --busy_;
    busyMs_ += cpu;
    if (error) {
      if (!error_ || launch.sequence < errorSequence_) {
        error_ = error;
        errorSequence_ = launch.sequence;
        errorStep_ = launch.step;
      }
      queue_.clear();
      queuedBytes_ = 0;
    } else {
      finished_.emplace(launch.sequence, std::move(timed));
      addInOrder();
    }
    changed_.notify_all();
  }
}

void NpuTimer::addInOrder() {
  for (auto it = finished_.begin(); it != finished_.end() && it->first == added_; it = finished_.erase(it)) {
    if (error_ && it->first > errorSequence_)
      break;
    add(it->second.timing, it->second.step);
    ++added_;
  }
}

std::optional<size_t> NpuTimer::drain() {
  if (workers_.empty())
    return std::nullopt;
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return queue_.empty() && busy_ == 0; });
  if (error_)
    return errorStep_;
  return std::nullopt;
}

std::exception_ptr NpuTimer::error() const {
  std::lock_guard lock(mutex_);
  return error_;
}

double NpuTimer::busyMs() const {
  std::lock_guard lock(mutex_);
  return busyMs_;
}

const StepTiming *NpuTimer::timing(size_t step) const {
  auto it = steps_.find(step);
  return it == steps_.end() ? nullptr : &it->second;
}

std::pair<int64_t, int64_t> NpuTimer::writeTrace(const std::string &path) const {
  simulators_[0]->writeChromeTrace(path);
  const timing::TraceRecorder *trace = simulators_[0]->trace();
  if (!trace)
    return {0, 0};
  return {static_cast<int64_t>(trace->keptEvents()), static_cast<int64_t>(trace->droppedEvents())};
}

} // namespace npusim::runtime
