#pragma once
// One NPU core: in-order queues (slots) for the scalar unit, the DMA engine,
// the vector unit, the cross-lane unit and each systolic array. An instruction
// starts, at a core clock edge, once it heads its slot, its slot's resources are
// free and every instruction it depends on (dependency_tracker.h) has
// completed. Everything happens in events; an idle unit schedules nothing.
#include "config/hardware.h"
#include "npu/execution.h"
#include "timing/activity.h"
#include "timing/chrome_trace.h"
#include "timing/core/dependency_tracker.h"
#include "timing/core/instruction_catalog.h"
#include "timing/core/memory_interface.h"
#include "timing/event_queue.h"

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <unordered_map>
#include <vector>

namespace npusim::timing {

/// What a core did during a launch.
struct CoreStats {
  std::array<TimePs, kNumUnitKinds> busyPs{}; // systolic: averaged over the arrays
  int64_t instructions = 0;
  int64_t macs = 0;
  int64_t vectorElementOps = 0;
  /// Cycles the vector unit needs at its peak throughput for this core's
  /// element operations, and the systolic arrays for its MACs (the roofline).
  double vectorBoundCycles = 0.0;
  double matmulBoundCycles = 0.0;
  TimePs endPs = 0; // completion of the core's last instruction
  Activity activity; // the work of its units, for the energy model
};

class CoreModel {
public:
  CoreModel(int core, const config::HardwareConfig &config, InstructionCatalog &catalog, EventQueue &queue,
            MemoryInterface &memory, TraceRecorder *trace);
  CoreModel(const CoreModel &) = delete;
  CoreModel &operator=(const CoreModel &) = delete;

  /// Appends the instructions of the core's next program instance;
  /// `bankShift` places its tiles higher in the banks (double buffering).
  void addInstance(const npu::InstanceTrace &trace, int64_t bankShift);

  /// Several programs sharing the machine (timing/shared_machine.h): appends
  /// an instance of the program `catalog` describes, at any time, before or
  /// after start(). Its instructions start no earlier than now and depend, as
  /// every instruction does, on the core's earlier ones (a completed
  /// producer only delays them to its completion). When the last of them
  /// completes, the group callback gets `group` with the instance's first
  /// start and its completion; its DMA requests carry `owner`.
  void addInstance(InstructionCatalog &catalog, const npu::InstanceTrace &trace, int64_t bankShift,
                   TransferOwner owner);
  using GroupDone = std::function<void(int64_t group, TimePs start, TimePs end)>;
  void setGroupCallback(GroupDone callback) { groupDone_ = std::move(callback); }

  /// Schedules the first instructions; the event queue runs the rest.
  void start();
  /// Instructions that never completed (a dependency cycle would leave some).
  int64_t unfinished() const;
  CoreStats stats() const;

private:
  struct Op {
    const InstructionInfo *info = nullptr;
    const npu::ExecutedInstruction *executed = nullptr;
    int64_t instance = 0;
    std::vector<uint32_t> consumers;
    uint32_t pendingDependencies = 0;
    TimePs readyAt = 0;      // latest completion among its dependencies
    TimePs start = -1;
    TimePs busyEnd = 0;      // end of the unit's busy interval
    TimePs memoryDoneAt = -1; // DMA and scalar memory: last response
    TimePs complete = -1;
    int64_t group = -1;       // shared-machine instances only
  };
  struct GroupProgress {
    int64_t left = 0;
    TimePs firstStart = -1;
    uint64_t addressBase = 0;
  };
  struct Slot {
    std::vector<uint32_t> queue;
    size_t head = 0;
    bool startScheduled = false;
    bool blocked = false; // waiting for memory before the next instruction may start
    TimePs freeAt = 0;
    // Systolic arrays: weights load into a shadow buffer while the array
    // streams rows through the previous weights.
    TimePs lastStart = 0, loaderFreeAt = 0, streamerFreeAt = 0, weightsReadyAt = 0;
  };

  TimePs alignToClock(TimePs at) const;
  void tryIssue(int slot);
  void startHead(int slot);
  void startMemoryOp(int slot, uint32_t index);
  void memoryDone(uint32_t index, TimePs at);
  void finish(uint32_t index, TimePs at);
  void append(InstructionCatalog &catalog, const npu::InstanceTrace &trace, int64_t bankShift, int64_t group);

  int core_;
  const config::HardwareConfig &config_;
  InstructionCatalog &catalog_;
  EventQueue &queue_;
  MemoryInterface &memory_;
  TraceRecorder *trace_;
  TimePs period_;
  DependencyTracker tracker_;
  std::vector<Op> ops_;
  std::vector<Slot> slots_;
  std::vector<TimePs> lastCompleteOfStream_;
  /// Per completion stream, memory instructions waiting to complete in the
  /// order they started (only memory streams use it).
  std::vector<std::deque<uint32_t>> memoryInOrder_;
  std::vector<uint32_t> dependencyBuffer_;
  int64_t instancesAdded_ = 0;
  bool started_ = false;
  std::unordered_map<int64_t, GroupProgress> groups_;
  GroupDone groupDone_;
};

} // namespace npusim::timing
