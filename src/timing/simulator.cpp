#include "timing/simulator.h"

#include "core/error.h"
#include "core/output_file.h"
#include "timing/core/core_model.h"
#include "timing/core/instruction_catalog.h"
#include "timing/core/memory_interface.h"
#include "timing/memory/memory_system.h"

#include <algorithm>
#include <cmath>
#include <fstream>

namespace npusim::timing {

Simulator::Simulator(const config::HardwareConfig &config)
    : Simulator(config, [config](EventQueue &queue) { return makeMemorySystem(config, queue); }) {}

Simulator::Simulator(const config::HardwareConfig &config, MemoryFactory memoryFactory)
    : config_(config), memoryFactory_(std::move(memoryFactory)) {
  if (config_.numCores <= 0)
    throw core::InputError("timing: hardware '" + config_.name + "' has " + std::to_string(config_.numCores) +
                           " cores");
  if (config_.coreFreqMhz <= 0.0)
    throw core::InputError("timing: hardware '" + config_.name + "' has no core clock");
}

void Simulator::enableTrace(bool enabled, size_t maxEvents) {
  if (!enabled)
    trace_.reset();
  else if (!trace_)
    trace_ = std::make_unique<TraceRecorder>(maxEvents);
}

void Simulator::writeChromeTrace(const std::string &path) const {
  core::OutputFile file(path, "--trace " + path);
  if (trace_)
    trace_->write(file.stream());
  else
    TraceRecorder().write(file.stream());
  file.commit();
}

/// The machine of one launch: the event queue, the memory system behind it
/// and the cores, which point at each other (hence on the heap, in place).
struct LaunchStream::Machine {
  EventQueue queue;
  std::unique_ptr<MemoryPort> memory;
  InstructionCatalog catalog;
  uint64_t nextRequestId = 1;
  std::vector<std::unique_ptr<MemoryInterface>> interfaces;
  std::vector<std::unique_ptr<CoreModel>> cores;
  std::vector<int64_t> instancesOnCore;
  size_t firstToRetry = 0;
  StreamGate gate; // what pauses the queue (CoreModel::streamInstances)
  bool started = false;

  Machine(const config::HardwareConfig &config, const npu::Program &program) : catalog(program, config) {}

  /// Starts the cores once none waits for instances, then runs the queue
  /// until one does and none holds more than its cap (or, after the last
  /// instance, to the end).
  void advance() {
    if (gate.pause != 0)
      return;
    if (!started) {
      started = true;
      for (auto &core : cores)
        core->start();
    }
    queue.run(&gate.pause);
  }
};

LaunchStream::LaunchStream(const config::HardwareConfig &config, const MemoryFactory &memoryFactory,
                           const npu::Program &program, TraceRecorder *trace, const std::string &launchName)
    : config_(config), program_(program), trace_(trace), machine_(std::make_unique<Machine>(config, program)) {
  Machine &m = *machine_;
  m.memory = memoryFactory(m.queue);
  if (!m.memory)
    throw core::RuntimeError("timing: the memory factory built no memory system");
  if (trace_)
    trace_->beginLaunch(launchName.empty() ? program.kernelName : launchName, config_.numCores,
                        m.catalog.slots().slotNames());
  for (int core = 0; core < config_.numCores; ++core) {
    m.interfaces.push_back(std::make_unique<MemoryInterface>(core, config_.dmaOutstandingRequests,
                                                             config_.dmaRequestBytes, m.queue, *m.memory,
                                                             m.nextRequestId));
    m.cores.push_back(
        std::make_unique<CoreModel>(core, config_, m.catalog, m.queue, *m.interfaces.back(), trace_));
    m.cores.back()->limitInstances(kInstanceWindow);
    m.cores.back()->streamInstances(&m.gate, kLookaheadInstances, kMaxHeldPerCore);
  }
  m.instancesOnCore.assign(static_cast<size_t>(config_.numCores), 0);
  m.memory->setCompletionCallback([&m, trace](const MemoryRequest &request, TimePs at) {
    if (request.core < 0 || static_cast<size_t>(request.core) >= m.interfaces.size())
      throw core::RuntimeError("timing: memory completed a request of unknown core " +
                               std::to_string(request.core));
    if (trace)
      trace->addDramTransfer(at, request.bytes, request.write);
    m.interfaces[static_cast<size_t>(request.core)]->complete(request, at);
  });
  // Cores retry in round-robin order starting one further each time: no core
  // starves under back-pressure, and ties resolve the same way every run.
  m.memory->setRetryCallback([&m] {
    const size_t count = m.interfaces.size();
    for (size_t k = 0; k < count; ++k)
      m.interfaces[(m.firstToRetry + k) % count]->pump();
    m.firstToRetry = (m.firstToRetry + 1) % count;
  });
}

LaunchStream::~LaunchStream() = default;

int64_t LaunchStream::heldInstances() const {
  int64_t held = 0;
  for (const auto &core : machine_->cores)
    held += core->heldInstances();
  return held;
}

void LaunchStream::add(npu::InstanceTrace &&trace) {
  if (finished_)
    throw core::RuntimeError("timing: kernel " + program_.kernelName + ": an instance after the launch ended");
  if (trace.instance < lastInstance_ || trace.instance < 0)
    throw core::RuntimeError("timing: kernel " + program_.kernelName + ": instance " +
                             std::to_string(trace.instance) + " came after instance " +
                             std::to_string(lastInstance_) + "; a launch takes its instances in increasing order");
  lastInstance_ = trace.instance;
  ++instances_;
  Machine &m = *machine_;
  const auto core = static_cast<size_t>(trace.instance % config_.numCores);
  // Double buffering: every other instance on a core uses the second copy.
  const int64_t shift = m.instancesOnCore[core] % 2 == 1 ? program_.instanceBankStride : 0;
  m.cores[core]->addInstance(std::move(trace), shift);
  ++m.instancesOnCore[core];
  peakHeld_ = std::max(peakHeld_, heldInstances());
  m.advance();
}

LaunchTiming Simulator::timeLaunch(const npu::Program &program, std::vector<npu::InstanceTrace> &&traces,
                                   const std::string &launchName) {
  std::vector<npu::InstanceTrace> launchTraces = std::move(traces);
  std::stable_sort(launchTraces.begin(), launchTraces.end(),
                   [](const npu::InstanceTrace &a, const npu::InstanceTrace &b) { return a.instance < b.instance; });
  const std::unique_ptr<LaunchStream> stream = beginLaunch(program, launchName);
  for (npu::InstanceTrace &trace : launchTraces)
    stream->add(std::move(trace));
  return stream->finish();
}

std::unique_ptr<LaunchStream> Simulator::beginLaunch(const npu::Program &program, const std::string &launchName) {
  return std::unique_ptr<LaunchStream>(new LaunchStream(config_, memoryFactory_, program, trace_.get(), launchName));
}

LaunchTiming LaunchStream::finish() {
  if (finished_)
    throw core::RuntimeError("timing: kernel " + program_.kernelName + ": the launch was finished twice");
  finished_ = true;
  Machine &m = *machine_;
  for (auto &core : m.cores)
    core->endSupply();
  m.advance();
  const npu::Program &program = program_;
  const std::vector<std::unique_ptr<CoreModel>> &cores = m.cores;
  const std::unique_ptr<MemoryPort> &memory = m.memory;

  LaunchTiming timing;
  timing.kernel = program.kernelName;
  timing.instances = instances_;
  const TimePs period = periodPs(config_.coreFreqMhz);
  double computeBoundCycles = 0.0;
  for (auto &core : cores) {
    if (const int64_t left = core->unfinished(); left > 0)
      throw core::RuntimeError("timing: kernel " + program.kernelName + ": " + std::to_string(left) +
                               " instructions never completed");
    const CoreStats stats = core->stats();
    timing.lateInstructions += core->lateInstructions();
    timing.instructions += stats.instructions;
    timing.timePs = std::max(timing.timePs, stats.endPs);
    timing.macs += stats.macs;
    timing.vectorElementOps += stats.vectorElementOps;
    timing.activity.add(stats.activity);
    computeBoundCycles = std::max({computeBoundCycles, stats.vectorBoundCycles, stats.matmulBoundCycles});
    for (int kind = 0; kind < kNumUnitKinds; ++kind)
      timing.busyPercent[static_cast<size_t>(kind)] += static_cast<double>(stats.busyPs[static_cast<size_t>(kind)]);
  }
  timing.memory = memory->stats();
  timing.cycles = (timing.timePs + period - 1) / period;
  for (double &busy : timing.busyPercent)
    busy = timing.timePs > 0 ? 100.0 * busy / static_cast<double>(timing.timePs) / config_.numCores : 0.0;

  timing.dramBytesRead = timing.memory.bytesRead;
  timing.dramBytesWritten = timing.memory.bytesWritten;
  const auto dramBytes = static_cast<double>(timing.dramBytesRead + timing.dramBytesWritten);
  if (timing.timePs > 0)
    timing.achievedBandwidthGBs = dramBytes / static_cast<double>(timing.timePs) * 1000.0;
  const int64_t rowAccesses = timing.memory.rowHits + timing.memory.rowMisses + timing.memory.rowConflicts;
  if (rowAccesses > 0)
    timing.rowHitRate = static_cast<double>(timing.memory.rowHits) / static_cast<double>(rowAccesses);
  const double peakMacsPerCycle =
      static_cast<double>(config_.lanes) * config_.lanes * std::max(1, config_.systolicArraysPerCore);
  if (timing.cycles > 0)
    timing.systolicUtilisation =
        static_cast<double>(timing.macs) / (peakMacsPerCycle * config_.numCores * static_cast<double>(timing.cycles));

  // Bounds round down, so that a launch exactly at its bound has ratio 1.
  timing.computeBoundPs = static_cast<TimePs>(std::floor(computeBoundCycles * static_cast<double>(period)));
  timing.memoryBoundPs = static_cast<TimePs>(std::floor(dramBytes / config_.dram.peakBytesPerSecond() * 1.0e12));
  timing.rooflineBoundPs = std::max(timing.computeBoundPs, timing.memoryBoundPs);
  timing.boundRatio = timing.rooflineBoundPs > 0
                          ? static_cast<double>(timing.timePs) / static_cast<double>(timing.rooflineBoundPs)
                          : 1.0;
  if (trace_)
    trace_->endLaunch(timing.timePs);
  return timing;
}

LaunchTiming accumulate(const std::vector<LaunchTiming> &launches) {
  LaunchTiming total;
  total.kernel = "total";
  std::array<double, kNumUnitKinds> busyPs{};
  for (const LaunchTiming &launch : launches) {
    total.instances += launch.instances;
    total.instructions += launch.instructions;
    total.lateInstructions += launch.lateInstructions;
    total.cycles += launch.cycles;
    total.timePs += launch.timePs;
    for (size_t kind = 0; kind < busyPs.size(); ++kind)
      busyPs[kind] += launch.busyPercent[kind] * static_cast<double>(launch.timePs);
    total.dramBytesRead += launch.dramBytesRead;
    total.dramBytesWritten += launch.dramBytesWritten;
    total.macs += launch.macs;
    total.vectorElementOps += launch.vectorElementOps;
    total.systolicUtilisation += launch.systolicUtilisation * static_cast<double>(launch.timePs);
    total.computeBoundPs += launch.computeBoundPs;
    total.memoryBoundPs += launch.memoryBoundPs;
    total.rooflineBoundPs += launch.rooflineBoundPs;
    total.memory.addCounts(launch.memory);
    total.activity.add(launch.activity);
  }
  if (total.timePs > 0) {
    const auto time = static_cast<double>(total.timePs);
    for (size_t kind = 0; kind < busyPs.size(); ++kind)
      total.busyPercent[kind] = busyPs[kind] / time;
    total.systolicUtilisation /= time;
    total.achievedBandwidthGBs =
        static_cast<double>(total.dramBytesRead + total.dramBytesWritten) / time * 1000.0;
  }
  const int64_t rowAccesses = total.memory.rowHits + total.memory.rowMisses + total.memory.rowConflicts;
  if (rowAccesses > 0)
    total.rowHitRate = static_cast<double>(total.memory.rowHits) / static_cast<double>(rowAccesses);
  if (total.rooflineBoundPs > 0)
    total.boundRatio = static_cast<double>(total.timePs) / static_cast<double>(total.rooflineBoundPs);
  return total;
}

} // namespace npusim::timing
