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

#include <algorithm>
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

/// What pauses a streamed launch's event queue (CoreModel::streamInstances).
struct StreamGate {
  int hungry = 0;   // cores with fewer instances ahead than the lookahead
  int overfull = 0; // cores holding more instances than their cap
  /// What EventQueue::run watches: a core is hungry and none is overfull.
  int pause = 0;
  void update() { pause = hungry > 0 && overfull == 0 ? 1 : 0; }
};

class CoreModel {
public:
  CoreModel(int core, const config::HardwareConfig &config, InstructionCatalog &catalog, EventQueue &queue,
            MemoryInterface &memory, TraceRecorder *trace);
  CoreModel(const CoreModel &) = delete;
  CoreModel &operator=(const CoreModel &) = delete;

  /// Appends the instructions of the core's next program instance;
  /// `bankShift` places its tiles higher in the banks (double buffering).
  /// The core keeps the trace until the instance's instructions have all
  /// completed, then frees it.
  void addInstance(npu::InstanceTrace &&trace, int64_t bankShift);

  /// A streamed launch (Simulator::beginLaunch): instances arrive while the
  /// queue runs. The core counts itself in `gate.hungry` while fewer than
  /// `lookahead` instances follow the latest one it has started, until
  /// endSupply(); the launch pauses the queue then, so that every instance is
  /// appended before any of its instructions could start (docs/timing.md,
  /// "Memory of a launch"). It counts itself in `gate.overfull` while it
  /// holds more than `maxHeld` instances (0: no cap); the queue then runs on
  /// although another core waits, and that core's instructions may start
  /// late (lateInstructions).
  void streamInstances(StreamGate *gate, int64_t lookahead, int64_t maxHeld);
  /// At most `window` instances of the core run at once: an instruction of
  /// the core's instance k may start once its instances before k - window
  /// have completed. Without it the scalar unit, which no tile waits on,
  /// runs through every instance of a launch while the DMA engines work on
  /// the first ones, and a launch holds all of them. 0: no limit.
  void limitInstances(int64_t window) { window_ = window; }
  void endSupply();
  /// Instructions appended after their slot had run dry with no dependency
  /// left to wait for: the lookahead was too short for them, and they may
  /// start later than in a launch appended whole. Zero for every kernel whose
  /// instances use the same units.
  int64_t lateInstructions() const { return lateInstructions_; }
  /// Instances and instructions held now (not yet completed and freed).
  int64_t heldInstances() const { return static_cast<int64_t>(owned_.size()); }
  int64_t heldInstructions() const { return static_cast<int64_t>(ops_.size()); }

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
  using OpIndex = uint64_t; // numbered in append order over the whole launch
  struct Op {
    const InstructionInfo *info = nullptr;
    const npu::ExecutedInstruction *executed = nullptr;
    int64_t instance = 0;
    int64_t sequence = 0; // the instance's position among the core's instances
    std::vector<OpIndex> consumers;
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
    std::deque<OpIndex> queue; // appended, not yet started
    bool startScheduled = false;
    bool blocked = false; // waiting for memory before the next instruction may start
    TimePs freeAt = 0;
    // Systolic arrays: weights load into a shadow buffer while the array
    // streams rows through the previous weights.
    TimePs lastStart = 0, loaderFreeAt = 0, streamerFreeAt = 0, weightsReadyAt = 0;
  };

  /// The union of [start, end) intervals, folded as they become final so
  /// that it holds only the intervals of instructions still in flight.
  class BusyUnion {
  public:
    void add(TimePs from, TimePs to) { pending_.emplace_back(from, to); }
    size_t pending() const { return pending_.size(); }
    /// Folds what lies before `final`: no interval added later starts before it.
    void fold(TimePs final);
    TimePs length(); // folds everything

  private:
    std::vector<std::pair<TimePs, TimePs>> pending_;
    TimePs total_ = 0, coveredUntil_ = 0;
  };

  Op &op(OpIndex index) { return ops_[static_cast<size_t>(index - firstOp_)]; }
  const Op &op(OpIndex index) const { return ops_[static_cast<size_t>(index - firstOp_)]; }
  TimePs alignToClock(TimePs at) const;
  void tryIssue(int slot);
  void startHead(int slot);
  void startMemoryOp(int slot, OpIndex index);
  void memoryDone(OpIndex index, TimePs at);
  void finish(OpIndex index, TimePs at);
  void append(InstructionCatalog &catalog, const npu::InstanceTrace &trace, int64_t bankShift, int64_t group);
  /// Adds a completed instruction into the statistics.
  void account(const Op &op);
  /// Frees the completed instructions at the front and the traces they used.
  void retire();
  void foldBusy();
  void updateHunger();

  int core_;
  const config::HardwareConfig &config_;
  InstructionCatalog &catalog_;
  EventQueue &queue_;
  MemoryInterface &memory_;
  TraceRecorder *trace_;
  TimePs period_;
  DependencyTracker tracker_;
  /// Instructions from the oldest one not completed to the last appended;
  /// the first is number firstOp_.
  std::deque<Op> ops_;
  OpIndex firstOp_ = 0;
  /// Traces of addInstance(InstanceTrace &&), with their sequence, until
  /// their instructions are retired.
  std::deque<std::pair<int64_t, npu::InstanceTrace>> owned_;
  std::vector<Slot> slots_;
  std::vector<TimePs> lastCompleteOfStream_;
  /// Per completion stream, memory instructions waiting to complete in the
  /// order they started (only memory streams use it).
  std::vector<std::deque<OpIndex>> memoryInOrder_;
  std::vector<uint64_t> dependencyBuffer_;
  int64_t instancesAdded_ = 0;
  bool started_ = false;
  // Statistics of the completed instructions (stats() adds the rest).
  CoreStats done_;
  std::array<BusyUnion, kNumUnitKinds> kindBusy_; // the units but the arrays
  std::vector<BusyUnion> slotBusy_;              // the arrays, one per slot
  size_t busyPending_ = 0;
  /// Intervals waiting to be folded into the unions, at most (about).
  static constexpr size_t kFoldEvery = 4096;
  int64_t instructions_ = 0;
  // Streaming (streamInstances).
  StreamGate *gate_ = nullptr;
  bool countedHungry_ = false, countedOverfull_ = false;
  int64_t lookahead_ = 0, maxHeld_ = 0;
  int64_t latestStarted_ = -1; // sequence of the latest instance started
  int64_t lateInstructions_ = 0;
  // The instance window (limitInstances): instructions left to complete of
  // every instance from the oldest not completed on.
  int64_t window_ = 0;
  int64_t completedInstances_ = 0;
  std::deque<int64_t> remaining_;
  bool withinWindow(const Op &op) const { return window_ == 0 || op.sequence < completedInstances_ + window_; }
  /// The cycles an MMatmul streams where its bounds left rows out, or an
  /// MLoadWeights of a block past its column bound (at least one: any
  /// instruction holds its array a cycle); -1 where nothing was left out.
  static int64_t streamedRows(const Op &op) {
    const int64_t rows = op.executed ? op.executed->streamedRows : -1;
    const npu::Opcode opcode = op.info->instruction->opcode;
    if (rows < 0 || (opcode != npu::Opcode::MMatmul && opcode != npu::Opcode::MLoadWeights))
      return -1;
    const int64_t kept = std::max<int64_t>(rows, 1);
    return kept < op.info->cost.occupancy ? kept : -1;
  }
  /// Counts the completed instances at the front; true when the window moved.
  bool advanceWindow();
  std::unordered_map<int64_t, GroupProgress> groups_;
  GroupDone groupDone_;
};

} // namespace npusim::timing
