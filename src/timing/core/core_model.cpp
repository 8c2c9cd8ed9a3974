#include "timing/core/core_model.h"

#include "core/error.h"

#include <algorithm>
#include <string>

namespace npusim::timing {

using npu::Opcode;

namespace {

TimePs unionLength(std::vector<std::pair<TimePs, TimePs>> &intervals) {
  std::sort(intervals.begin(), intervals.end());
  TimePs length = 0, coveredUntil = 0;
  for (const auto &[from, to] : intervals) {
    length += std::max<TimePs>(0, to - std::max(from, coveredUntil));
    coveredUntil = std::max(coveredUntil, to);
  }
  return length;
}

} // namespace

CoreModel::CoreModel(int core, const config::HardwareConfig &config, InstructionCatalog &catalog,
                     EventQueue &queue, MemoryInterface &memory, TraceRecorder *trace)
    : core_(core), config_(config), catalog_(catalog), queue_(queue), memory_(memory), trace_(trace),
      period_(periodPs(config.coreFreqMhz)), tracker_(catalog.slots().numStreams()),
      slots_(static_cast<size_t>(catalog.slots().numSlots())),
      lastCompleteOfStream_(static_cast<size_t>(catalog.slots().numStreams()), 0),
      memoryInOrder_(static_cast<size_t>(catalog.slots().numStreams())) {}

TimePs CoreModel::alignToClock(TimePs at) const { return (at + period_ - 1) / period_ * period_; }

void CoreModel::addInstance(const npu::InstanceTrace &trace, int64_t bankShift) {
  append(catalog_, trace, bankShift, -1);
}

void CoreModel::addInstance(InstructionCatalog &catalog, const npu::InstanceTrace &trace, int64_t bankShift,
                            TransferOwner owner) {
  if (owner.group < 0 || groups_.count(owner.group) != 0)
    throw core::RuntimeError("timing: core " + std::to_string(core_) + ": instance group " +
                             std::to_string(owner.group) + " is negative or already running");
  if (trace.instructions.empty()) {
    // Nothing to run: done now (through the queue, as any completion).
    queue_.schedule(queue_.now(), [this, group = owner.group] {
      if (groupDone_)
        groupDone_(group, queue_.now(), queue_.now());
    });
    return;
  }
  groups_[owner.group] =
      GroupProgress{static_cast<int64_t>(trace.instructions.size()), -1, owner.addressBase};
  append(catalog, trace, bankShift, owner.group);
  if (started_)
    for (int slot = 0; slot < static_cast<int>(slots_.size()); ++slot)
      tryIssue(slot);
}

void CoreModel::append(InstructionCatalog &catalog, const npu::InstanceTrace &trace, int64_t bankShift,
                       int64_t group) {
  Accesses accesses;
  for (const npu::ExecutedInstruction &executed : trace.instructions) {
    const InstructionInfo &info = catalog.info(executed.instruction);
    accesses.reads.clear();
    accesses.writes.clear();
    for (int tile : info.tilesRead)
      accesses.reads.push_back(catalog.tileRange(tile, bankShift));
    for (int tile : info.tilesWritten)
      accesses.writes.push_back(catalog.tileRange(tile, bankShift));
    accesses.registerReads = info.registersRead;
    accesses.registerWrite = info.registerWritten;
    accesses.barrier = info.barrier;

    const auto index = static_cast<uint32_t>(ops_.size());
    dependencyBuffer_.clear();
    tracker_.add(index, info.stream, accesses, dependencyBuffer_);
    Op op;
    op.info = &info;
    op.executed = &executed;
    op.instance = trace.instance;
    op.group = group;
    for (uint32_t producer : dependencyBuffer_) {
      const InstructionInfo &producerInfo = *ops_[producer].info;
      // Appended while running (shared machine): a producer that has
      // completed only delays the start. Never the case for instances added
      // before start().
      if (const TimePs done = ops_[producer].complete; done >= 0) {
        op.readyAt = std::max(op.readyAt, done);
        continue;
      }
      // Matmuls accumulating into one tile on one array follow each other
      // through the array's output accumulators, row by row; the array's
      // in-order stream already orders them.
      if (info.instruction->opcode == Opcode::MMatmul && producerInfo.instruction->opcode == Opcode::MMatmul &&
          producerInfo.slot == info.slot)
        continue;
      ops_[producer].consumers.push_back(index);
      ++op.pendingDependencies;
    }
    slots_[static_cast<size_t>(info.slot)].queue.push_back(index);
    ops_.push_back(std::move(op));
  }
  ++instancesAdded_;
}

void CoreModel::start() {
  started_ = true;
  for (int slot = 0; slot < static_cast<int>(slots_.size()); ++slot)
    tryIssue(slot);
}

void CoreModel::tryIssue(int slotIndex) {
  Slot &slot = slots_[static_cast<size_t>(slotIndex)];
  if (slot.startScheduled || slot.blocked || slot.head >= slot.queue.size())
    return;
  const Op &op = ops_[slot.queue[slot.head]];
  if (op.pendingDependencies > 0)
    return;
  TimePs earliest = std::max(queue_.now(), op.readyAt);
  if (op.info->unit == UnitKind::Systolic) {
    earliest = std::max(earliest, slot.lastStart);
    if (op.info->instruction->opcode == Opcode::MLoadWeights)
      earliest = std::max(earliest, slot.loaderFreeAt);
    else
      earliest = std::max({earliest, slot.streamerFreeAt, slot.weightsReadyAt});
  } else {
    earliest = std::max(earliest, slot.freeAt);
  }
  slot.startScheduled = true;
  queue_.schedule(alignToClock(earliest), [this, slotIndex] { startHead(slotIndex); });
}

void CoreModel::startHead(int slotIndex) {
  Slot &slot = slots_[static_cast<size_t>(slotIndex)];
  slot.startScheduled = false;
  const uint32_t index = slot.queue[slot.head++];
  Op &op = ops_[index];
  const InstructionInfo &info = *op.info;
  const TimePs now = queue_.now();
  op.start = now;
  if (op.group >= 0) {
    GroupProgress &progress = groups_.at(op.group);
    if (progress.firstStart < 0)
      progress.firstStart = now;
  }
  if (info.unit == UnitKind::Dma || (info.memoryAccess && !op.executed->dram.empty())) {
    startMemoryOp(slotIndex, index);
    return;
  }
  const TimePs issueEnd = now + info.cost.occupancy * period_;
  TimePs complete = now + info.cost.latency * period_;
  if (info.unit == UnitKind::Systolic) {
    slot.lastStart = now;
    if (info.instruction->opcode == Opcode::MLoadWeights) {
      slot.loaderFreeAt = issueEnd;
      slot.weightsReadyAt = complete;
    } else {
      slot.streamerFreeAt = issueEnd;
    }
  } else {
    slot.freeAt = issueEnd;
  }
  TimePs &streamLast = lastCompleteOfStream_[static_cast<size_t>(info.stream)];
  complete = std::max(complete, streamLast);
  streamLast = complete;
  op.busyEnd = complete;
  queue_.schedule(complete, [this, index] { finish(index, queue_.now()); });
  tryIssue(slotIndex);
}

void CoreModel::startMemoryOp(int slotIndex, uint32_t index) {
  Slot &slot = slots_[static_cast<size_t>(slotIndex)];
  Op &op = ops_[index];
  const InstructionInfo &info = *op.info;
  const TimePs now = queue_.now();
  const std::vector<npu::DramRun> &runs = op.executed->dram;
  auto onDone = [this, index](TimePs at) { memoryDone(index, at); };
  const TransferOwner owner =
      op.group < 0 ? TransferOwner{} : TransferOwner{op.group, groups_.at(op.group).addressBase};

  if (info.unit == UnitKind::Dma) {
    memoryInOrder_[static_cast<size_t>(info.stream)].push_back(index);
    slot.blocked = true;
    // The engine spends at least one cycle on every descriptor.
    const TimePs minimumEnd = now + period_;
    if (runs.empty()) {
      queue_.schedule(minimumEnd, [this, slotIndex, index] {
        Slot &dma = slots_[static_cast<size_t>(slotIndex)];
        dma.blocked = false;
        dma.freeAt = queue_.now();
        memoryDone(index, queue_.now());
        tryIssue(slotIndex);
      });
      return;
    }
    auto onIssued = [this, slotIndex, minimumEnd](TimePs at) {
      Slot &dma = slots_[static_cast<size_t>(slotIndex)];
      dma.blocked = false;
      dma.freeAt = std::max(at, minimumEnd);
      tryIssue(slotIndex);
    };
    memory_.submit(runs, info.instruction->opcode == Opcode::DmaAtomic, onIssued, onDone, owner);
    return;
  }

  // Scalar load or store: a load stalls the scalar unit until its value is
  // back; a store is posted.
  memoryInOrder_[static_cast<size_t>(info.stream)].push_back(index);
  if (info.instruction->opcode == Opcode::SLoad)
    slot.blocked = true;
  else
    slot.freeAt = now + info.cost.occupancy * period_;
  memory_.submit(
      runs, false, [](TimePs) {}, onDone, owner);
  tryIssue(slotIndex);
}

void CoreModel::memoryDone(uint32_t index, TimePs at) {
  Op &done = ops_[index];
  done.memoryDoneAt = at;
  std::deque<uint32_t> &inOrder = memoryInOrder_[static_cast<size_t>(done.info->stream)];
  while (!inOrder.empty() && ops_[inOrder.front()].memoryDoneAt >= 0) {
    const uint32_t next = inOrder.front();
    inOrder.pop_front();
    Op &op = ops_[next];
    TimePs &streamLast = lastCompleteOfStream_[static_cast<size_t>(op.info->stream)];
    const TimePs complete =
        std::max({op.memoryDoneAt, streamLast, op.start + op.info->cost.latency * period_});
    streamLast = complete;
    op.busyEnd = op.info->instruction->opcode == Opcode::SStore
                     ? op.start + op.info->cost.occupancy * period_
                     : complete;
    queue_.schedule(complete, [this, next] { finish(next, queue_.now()); });
  }
}

void CoreModel::finish(uint32_t index, TimePs at) {
  Op &op = ops_[index];
  op.complete = at;
  const InstructionInfo &info = *op.info;
  if (trace_)
    trace_->addInstruction(core_, info.slot, npu::name(info.instruction->opcode), op.start, at, op.instance);
  if (info.instruction->opcode == Opcode::SLoad && !op.executed->dram.empty()) {
    Slot &scalar = slots_[static_cast<size_t>(info.slot)];
    scalar.blocked = false;
    scalar.freeAt = at;
    tryIssue(info.slot);
  }
  for (uint32_t consumer : op.consumers) {
    Op &waiting = ops_[consumer];
    waiting.readyAt = std::max(waiting.readyAt, at);
    if (--waiting.pendingDependencies == 0)
      tryIssue(waiting.info->slot);
  }
  if (op.group >= 0) {
    const auto found = groups_.find(op.group);
    if (--found->second.left == 0) {
      const TimePs firstStart = found->second.firstStart;
      const int64_t group = op.group;
      groups_.erase(found);
      if (groupDone_)
        groupDone_(group, firstStart, at);
    }
  }
}

int64_t CoreModel::unfinished() const {
  int64_t count = 0;
  for (const Op &op : ops_)
    count += op.complete < 0 ? 1 : 0;
  return count;
}

CoreStats CoreModel::stats() const {
  CoreStats stats;
  stats.instructions = static_cast<int64_t>(ops_.size());
  const int arrays = catalog_.slots().arrays;
  // Busy time of a unit kind: the union of its instructions' [start, end)
  // intervals over its slots (the two DMA queues count once); the arrays'
  // unions are averaged.
  std::array<std::vector<std::pair<TimePs, TimePs>>, kNumUnitKinds> intervals;
  for (const Slot &slot : slots_) {
    for (uint32_t index : slot.queue) {
      const Op &op = ops_[index];
      if (op.complete >= 0)
        intervals[static_cast<size_t>(op.info->unit)].emplace_back(op.start, op.busyEnd);
    }
    if (!slot.queue.empty() && ops_[slot.queue[0]].info->unit == UnitKind::Systolic) {
      stats.busyPs[static_cast<size_t>(UnitKind::Systolic)] +=
          unionLength(intervals[static_cast<size_t>(UnitKind::Systolic)]) / arrays;
      intervals[static_cast<size_t>(UnitKind::Systolic)].clear();
    }
  }
  for (int kind = 0; kind < kNumUnitKinds; ++kind)
    if (static_cast<UnitKind>(kind) != UnitKind::Systolic)
      stats.busyPs[static_cast<size_t>(kind)] = unionLength(intervals[static_cast<size_t>(kind)]);
  for (const Op &op : ops_) {
    stats.endPs = std::max(stats.endPs, op.complete);
    const InstructionInfo &info = *op.info;
    stats.macs += info.macs;
    Activity &activity = stats.activity;
    if (info.unit == UnitKind::Vector) {
      const int64_t elements = op.executed->elements > 0 ? op.executed->elements : info.resultElements;
      stats.vectorElementOps += elements;
      const int perCycle = config_.lanes * std::max(1, config_.elementsPerLaneVector(info.vectorElementBytes));
      stats.vectorBoundCycles += static_cast<double>(elements) / perCycle;
      activity.vectorOpsByClass[static_cast<size_t>(info.vectorClass)] += elements;
    }
    switch (info.unit) {
    case UnitKind::Dma: {
      ++activity.dmaDescriptors;
      const int64_t bytes = op.executed->elements * info.dmaElementBytes;
      (info.instruction->opcode == npu::Opcode::DmaLoad ? activity.spadBytesWritten : activity.spadBytesRead) +=
          bytes;
      break;
    }
    case UnitKind::Systolic:
      activity.macsByDtype[static_cast<size_t>(info.macDtype)] += info.macs;
      activity.spadBytesRead += info.spadBytesRead;
      activity.spadBytesWritten += info.spadBytesWritten;
      break;
    case UnitKind::CrossLane:
      activity.crossLaneOps += op.executed->elements;
      activity.spadBytesRead += info.spadBytesRead;
      activity.spadBytesWritten += info.spadBytesWritten;
      break;
    case UnitKind::Vector:
      activity.spadBytesRead += info.spadBytesRead;
      activity.spadBytesWritten += info.spadBytesWritten;
      break;
    case UnitKind::Scalar: ++activity.scalarInstructions; break;
    }
  }
  stats.matmulBoundCycles =
      static_cast<double>(stats.macs) / (static_cast<double>(config_.lanes) * config_.lanes * arrays);
  return stats;
}

} // namespace npusim::timing
