#include "timing/shared_machine.h"

#include "core/error.h"
#include "timing/core/instruction_catalog.h"
#include "timing/core/memory_interface.h"
#include "timing/memory/memory_system.h"

#include <string>

namespace npusim::timing {

SharedMachine::SharedMachine(const config::HardwareConfig &config)
    : SharedMachine(config, [config](EventQueue &queue) { return makeMemorySystem(config, queue); }) {}

SharedMachine::SharedMachine(const config::HardwareConfig &config, MemoryFactory memoryFactory)
    : config_(config) {
  if (config_.numCores <= 0)
    throw core::InputError("timing: hardware '" + config_.name + "' has " + std::to_string(config_.numCores) +
                           " cores");
  memory_ = memoryFactory(queue_);
  if (!memory_)
    throw core::RuntimeError("timing: the memory factory built no memory system");
  // The cores' slot layout depends on the machine alone; an empty program's
  // catalog gives it to every core.
  static const npu::Program kNoProgram{};
  catalogs_.push_back(std::make_unique<InstructionCatalog>(kNoProgram, config_));
  instancesOnCore_.resize(static_cast<size_t>(config_.numCores));
  for (int core = 0; core < config_.numCores; ++core) {
    interfaces_.push_back(std::make_unique<MemoryInterface>(
        core, config_.dmaOutstandingRequests, config_.dmaRequestBytes, queue_, *memory_, nextRequestId_));
    cores_.push_back(
        std::make_unique<CoreModel>(core, config_, *catalogs_.front(), queue_, *interfaces_.back(), nullptr));
    cores_.back()->setGroupCallback([this](int64_t group, TimePs start, TimePs end) {
      const auto found = pending_.find(group);
      if (found == pending_.end())
        throw core::RuntimeError("timing: instance group " + std::to_string(group) + " completed twice");
      InstanceDone done = std::move(found->second.onDone);
      pending_.erase(found);
      if (done)
        done(start, end);
    });
  }
  memory_->setCompletionCallback([this](const MemoryRequest &request, TimePs at) {
    if (request.core < 0 || static_cast<size_t>(request.core) >= interfaces_.size())
      throw core::RuntimeError("timing: memory completed a request of unknown core " +
                               std::to_string(request.core));
    MemoryInterface &interface = *interfaces_[static_cast<size_t>(request.core)];
    const auto owner = pending_.find(interface.groupOf(request));
    if (owner != pending_.end()) {
      TenantTraffic &tenant = traffic(owner->second.tenant);
      tenant.buckets[at / kBucketPs] += request.bytes;
      (request.write ? tenant.written : tenant.read) += request.bytes;
    }
    interface.complete(request, at);
  });
  // As in Simulator::timeLaunch: round-robin retries, one core further each time.
  memory_->setRetryCallback([this] {
    const size_t count = interfaces_.size();
    for (size_t k = 0; k < count; ++k)
      interfaces_[(firstToRetry_ + k) % count]->pump();
    firstToRetry_ = (firstToRetry_ + 1) % count;
  });
}

SharedMachine::~SharedMachine() = default;

int SharedMachine::addProgram(const npu::Program &program) {
  catalogs_.push_back(std::make_unique<InstructionCatalog>(program, config_));
  programs_.push_back(&program);
  for (auto &counts : instancesOnCore_)
    counts.push_back(0);
  return static_cast<int>(programs_.size()) - 1;
}

void SharedMachine::submit(int program, int core, const npu::InstanceTrace &trace, int tenant,
                           uint64_t addressBase, InstanceDone onDone) {
  if (program < 0 || static_cast<size_t>(program) >= programs_.size())
    throw core::RuntimeError("timing: program " + std::to_string(program) + " was not added");
  if (core < 0 || core >= config_.numCores)
    throw core::InputError("timing: core " + std::to_string(core) + " of a machine with " +
                           std::to_string(config_.numCores) + " cores");
  if (tenant < 0)
    throw core::RuntimeError("timing: tenant " + std::to_string(tenant) + " is negative");
  if (config_.dmaRequestBytes > 0 && addressBase % static_cast<uint64_t>(config_.dmaRequestBytes) != 0)
    throw core::RuntimeError("timing: address base " + std::to_string(addressBase) +
                             " is not a multiple of the request size");
  int64_t &count = instancesOnCore_[static_cast<size_t>(core)][static_cast<size_t>(program)];
  const int64_t shift = count % 2 == 1 ? programs_[static_cast<size_t>(program)]->instanceBankStride : 0;
  ++count;
  const int64_t group = nextGroup_++;
  traffic(tenant);
  pending_.emplace(group, Pending{tenant, std::move(onDone)});
  cores_[static_cast<size_t>(core)]->addInstance(*catalogs_[static_cast<size_t>(program) + 1], trace, shift,
                                                 TransferOwner{group, addressBase});
}

void SharedMachine::at(TimePs when, std::function<void()> callback) {
  if (when < queue_.now())
    throw core::RuntimeError("timing: an event at " + std::to_string(when) + " ps is in the past (now " +
                             std::to_string(queue_.now()) + " ps)");
  queue_.schedule(when, std::move(callback));
}

void SharedMachine::run() {
  if (!started_) {
    started_ = true;
    for (auto &core : cores_)
      core->start();
  }
  queue_.run();
  for (size_t core = 0; core < cores_.size(); ++core)
    if (const int64_t left = cores_[core]->unfinished(); left > 0)
      throw core::RuntimeError("timing: core " + std::to_string(core) + ": " + std::to_string(left) +
                               " instructions never completed");
}

SharedMachine::TenantTraffic &SharedMachine::traffic(int tenant) {
  if (static_cast<size_t>(tenant) >= traffic_.size())
    traffic_.resize(static_cast<size_t>(tenant) + 1);
  return traffic_[static_cast<size_t>(tenant)];
}

const std::map<int64_t, int64_t> &SharedMachine::bytesOverTime(int tenant) const {
  static const std::map<int64_t, int64_t> kNone;
  return tenant >= 0 && static_cast<size_t>(tenant) < traffic_.size()
             ? traffic_[static_cast<size_t>(tenant)].buckets
             : kNone;
}

int64_t SharedMachine::bytesRead(int tenant) const {
  return tenant >= 0 && static_cast<size_t>(tenant) < traffic_.size()
             ? traffic_[static_cast<size_t>(tenant)].read
             : 0;
}

int64_t SharedMachine::bytesWritten(int tenant) const {
  return tenant >= 0 && static_cast<size_t>(tenant) < traffic_.size()
             ? traffic_[static_cast<size_t>(tenant)].written
             : 0;
}

CoreStats SharedMachine::coreStats(int core) const {
  if (core < 0 || core >= config_.numCores)
    throw core::InputError("timing: core " + std::to_string(core) + " of a machine with " +
                           std::to_string(config_.numCores) + " cores");
  return cores_[static_cast<size_t>(core)]->stats();
}

MemoryStats SharedMachine::memoryStats() const {
  return memory_->stats();
}

} // namespace npusim::timing
