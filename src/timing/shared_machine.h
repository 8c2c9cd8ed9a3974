#pragma once
// Several programs on one NPU at once: the cores, NoC and DRAM of one timing
// simulation, into which the caller appends program instances as simulated
// time goes on. Each instance is tagged with a tenant; it runs on the core the
// caller names, interleaved with whatever else that core runs, and its DMA
// requests contend in the NoC and DRAM with every other tenant's. The caller
// (src/serving) decides what runs where and when from the completions it is
// told about. docs/timing.md, "Sharing the machine".
//
// Simulator::timeLaunch is the single-launch path; this class adds nothing
// to it and changes none of its cycles.
#include "config/hardware.h"
#include "npu/execution.h"
#include "timing/core/core_model.h"
#include "timing/event_queue.h"
#include "timing/memory_port.h"
#include "timing/simulator.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <vector>

namespace npusim::timing {

class InstructionCatalog;
class MemoryInterface;

class SharedMachine {
public:
  /// Where an instance ran, in picoseconds from the start of the simulation.
  using InstanceDone = std::function<void(TimePs start, TimePs end)>;

  /// The memory system the configuration describes (makeMemorySystem).
  explicit SharedMachine(const config::HardwareConfig &config);
  SharedMachine(const config::HardwareConfig &config, MemoryFactory memoryFactory);
  ~SharedMachine();
  SharedMachine(const SharedMachine &) = delete;
  SharedMachine &operator=(const SharedMachine &) = delete;

  /// Makes `program` known; returns its id for submit(). The program must
  /// outlive the machine.
  int addProgram(const npu::Program &program);
  /// Appends one instance of program `program` to `core`'s instruction
  /// stream now (at now()); `trace` must live until `onDone` has run. Its
  /// DRAM addresses are offset by `addressBase` (a multiple of
  /// dmaRequestBytes: the tenant's region). The j-th instance of a program on
  /// a core is double buffered as in timeLaunch (odd j shifted by
  /// instanceBankStride). Throws core::InputError for a core out of range.
  void submit(int program, int core, const npu::InstanceTrace &trace, int tenant, uint64_t addressBase,
              InstanceDone onDone);
  /// Runs `callback` at simulated time `at` (>= now()).
  void at(TimePs at, std::function<void()> callback);
  /// Runs the simulation until nothing is left to do.
  void run();
  TimePs now() const { return queue_.now(); }
  const config::HardwareConfig &config() const { return config_; }

  /// Width of one sample of bandwidthOf().
  static constexpr TimePs kBucketPs = 1'000'000; // 1 us
  /// DRAM bytes (read + written) tenant `tenant`'s requests completed per
  /// kBucketPs bucket, by bucket index.
  const std::map<int64_t, int64_t> &bytesOverTime(int tenant) const;
  /// Total DRAM bytes of each tenant's requests, read and written.
  int64_t bytesRead(int tenant) const;
  int64_t bytesWritten(int tenant) const;
  /// Busy time per unit kind of a core, as LaunchTiming::busyPercent counts it.
  CoreStats coreStats(int core) const;
  MemoryStats memoryStats() const;

private:
  struct TenantTraffic {
    std::map<int64_t, int64_t> buckets;
    int64_t read = 0, written = 0;
  };
  struct Pending {
    int tenant = 0;
    InstanceDone onDone;
  };
  TenantTraffic &traffic(int tenant);

  config::HardwareConfig config_;
  EventQueue queue_;
  std::unique_ptr<MemoryPort> memory_;
  uint64_t nextRequestId_ = 1;
  std::vector<std::unique_ptr<MemoryInterface>> interfaces_;
  std::vector<std::unique_ptr<CoreModel>> cores_;
  std::vector<std::unique_ptr<InstructionCatalog>> catalogs_;
  std::vector<const npu::Program *> programs_;
  std::vector<std::vector<int64_t>> instancesOnCore_; // [core][program]
  std::map<int64_t, Pending> pending_;                // by group id
  int64_t nextGroup_ = 0;
  std::vector<TenantTraffic> traffic_;
  size_t firstToRetry_ = 0;
  bool started_ = false;
};

} // namespace npusim::timing
