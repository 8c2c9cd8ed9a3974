#include "timing/core/core_model.h"

#include "core/error.h"

#include <algorithm>
#include <limits>
#include <string>

namespace npusim::timing {

using npu::Opcode;

void CoreModel::BusyUnion::fold(TimePs final) {
  // Sorted by start, the intervals cover [from, min(to, final)) for good; what
  // reaches past `final` stays, cut at it, for later intervals to overlap.
  std::sort(pending_.begin(), pending_.end());
  std::vector<std::pair<TimePs, TimePs>> kept;
  for (const auto &[from, to] : pending_) {
    const TimePs end = std::min(to, final);
    total_ += std::max<TimePs>(0, end - std::max(from, coveredUntil_));
    coveredUntil_ = std::max(coveredUntil_, end);
    if (to > final)
      kept.emplace_back(std::max(from, final), to);
  }
  pending_ = std::move(kept);
}

TimePs CoreModel::BusyUnion::length() {
  fold(std::numeric_limits<TimePs>::max());
  return total_;
}

CoreModel::CoreModel(int core, const config::HardwareConfig &config, InstructionCatalog &catalog,
                     EventQueue &queue, MemoryInterface &memory, TraceRecorder *trace)
    : core_(core), config_(config), catalog_(catalog), queue_(queue), memory_(memory), trace_(trace),
      period_(periodPs(config.coreFreqMhz)), tracker_(catalog.slots().numStreams()),
      slots_(static_cast<size_t>(catalog.slots().numSlots())),
      lastCompleteOfStream_(static_cast<size_t>(catalog.slots().numStreams()), 0),
      memoryInOrder_(static_cast<size_t>(catalog.slots().numStreams())),
      slotBusy_(static_cast<size_t>(catalog.slots().numSlots())) {}

TimePs CoreModel::alignToClock(TimePs at) const { return (at + period_ - 1) / period_ * period_; }

void CoreModel::addInstance(npu::InstanceTrace &&trace, int64_t bankShift) {
  owned_.emplace_back(instancesAdded_, std::move(trace));
  append(catalog_, owned_.back().second, bankShift, -1);
  if (started_)
    for (int slot = 0; slot < static_cast<int>(slots_.size()); ++slot)
      tryIssue(slot);
  updateHunger();
}

void CoreModel::streamInstances(StreamGate *gate, int64_t lookahead, int64_t maxHeld) {
  gate_ = gate;
  lookahead_ = lookahead;
  maxHeld_ = maxHeld;
  updateHunger();
}

void CoreModel::endSupply() {
  lookahead_ = 0;
  maxHeld_ = 0;
  updateHunger();
  gate_ = nullptr;
}

void CoreModel::updateHunger() {
  if (!gate_)
    return;
  const bool hungry = lookahead_ > 0 && instancesAdded_ <= latestStarted_ + lookahead_;
  const bool overfull = maxHeld_ > 0 && heldInstances() > maxHeld_;
  if (hungry == countedHungry_ && overfull == countedOverfull_)
    return;
  if (hungry != countedHungry_)
    gate_->hungry += hungry ? 1 : -1;
  if (overfull != countedOverfull_)
    gate_->overfull += overfull ? 1 : -1;
  countedHungry_ = hungry;
  countedOverfull_ = overfull;
  gate_->update();
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

    const OpIndex index = firstOp_ + ops_.size();
    dependencyBuffer_.clear();
    tracker_.add(index, info.stream, accesses, dependencyBuffer_);
    Op op;
    op.info = &info;
    op.executed = &executed;
    op.instance = trace.instance;
    op.sequence = instancesAdded_;
    op.group = group;
    for (OpIndex producer : dependencyBuffer_) {
      // Appended while running (shared machine, streamed launch): a producer
      // that has completed only delays the start; one already retired
      // completed no later than now, when the new instruction cannot have
      // started yet. Never the case for instances added before start().
      if (producer < firstOp_)
        continue;
      const Op &producerOp = this->op(producer);
      const InstructionInfo &producerInfo = *producerOp.info;
      if (const TimePs done = producerOp.complete; done >= 0) {
        op.readyAt = std::max(op.readyAt, done);
        continue;
      }
      // Matmuls accumulating into one tile on one array follow each other
      // through the array's output accumulators, row by row; the array's
      // in-order stream already orders them.
      if (info.instruction->opcode == Opcode::MMatmul && producerInfo.instruction->opcode == Opcode::MMatmul &&
          producerInfo.slot == info.slot)
        continue;
      ops_[static_cast<size_t>(producer - firstOp_)].consumers.push_back(index);
      ++op.pendingDependencies;
    }
    Slot &slot = slots_[static_cast<size_t>(info.slot)];
    // A slot that ran dry in a running launch has been waiting for this
    // instruction: appended whole, it would have been its head already.
    if (started_ && group < 0 && slot.queue.empty() && op.pendingDependencies == 0 && withinWindow(op))
      ++lateInstructions_;
    slot.queue.push_back(index);
    ops_.push_back(std::move(op));
    ++instructions_;
  }
  if (group < 0) {
    remaining_.push_back(static_cast<int64_t>(trace.instructions.size()));
    advanceWindow();
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
  if (slot.startScheduled || slot.blocked || slot.queue.empty())
    return;
  const Op &op = this->op(slot.queue.front());
  if (op.pendingDependencies > 0 || !withinWindow(op))
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
  const OpIndex index = slot.queue.front();
  slot.queue.pop_front();
  Op &op = this->op(index);
  const InstructionInfo &info = *op.info;
  const TimePs now = queue_.now();
  op.start = now;
  if (op.sequence > latestStarted_) {
    latestStarted_ = op.sequence;
    updateHunger();
  }
  if (op.group >= 0) {
    GroupProgress &progress = groups_.at(op.group);
    if (progress.firstStart < 0)
      progress.firstStart = now;
  }
  if (info.unit == UnitKind::Dma || (info.memoryAccess && !op.executed->dram.empty())) {
    startMemoryOp(slotIndex, index);
    return;
  }
  int64_t occupancy = info.cost.occupancy, latency = info.cost.latency;
  if (const int64_t rows = streamedRows(op); rows >= 0) {
    // A matmul whose row bound left rows out streams only the others: one
    // cycle less of occupancy and of latency per row left out.
    latency -= occupancy - rows;
    occupancy = rows;
  }
  const TimePs issueEnd = now + occupancy * period_;
  TimePs complete = now + latency * period_;
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

void CoreModel::startMemoryOp(int slotIndex, OpIndex index) {
  Slot &slot = slots_[static_cast<size_t>(slotIndex)];
  Op &op = this->op(index);
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
    const bool load = info.instruction->opcode == Opcode::DmaLoad;
    const MemoryInterface::ReadReuse reuse =
        !load ? MemoryInterface::ReadReuse::None
              : info.instruction->dma.gathered() ? MemoryInterface::ReadReuse::LastGranule
                                                 : MemoryInterface::ReadReuse::Stretch;
    memory_.submit(runs, info.instruction->opcode == Opcode::DmaAtomic, onIssued, onDone, owner, reuse);
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

void CoreModel::memoryDone(OpIndex index, TimePs at) {
  Op &done = op(index);
  done.memoryDoneAt = at;
  std::deque<OpIndex> &inOrder = memoryInOrder_[static_cast<size_t>(done.info->stream)];
  while (!inOrder.empty() && op(inOrder.front()).memoryDoneAt >= 0) {
    const OpIndex next = inOrder.front();
    inOrder.pop_front();
    Op &op = this->op(next);
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

void CoreModel::finish(OpIndex index, TimePs at) {
  Op &op = this->op(index);
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
  for (OpIndex consumer : op.consumers) {
    Op &waiting = this->op(consumer);
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
  if (op.group < 0) {
    --remaining_[static_cast<size_t>(op.sequence - completedInstances_)];
    if (advanceWindow() && window_ > 0)
      for (int slot = 0; slot < static_cast<int>(slots_.size()); ++slot)
        tryIssue(slot);
  }
  account(op);
  retire();
}

bool CoreModel::advanceWindow() {
  bool moved = false;
  while (!remaining_.empty() && remaining_.front() == 0) {
    remaining_.pop_front();
    ++completedInstances_;
    moved = true;
  }
  return moved;
}

void CoreModel::retire() {
  while (!ops_.empty() && ops_.front().complete >= 0) {
    ops_.pop_front();
    ++firstOp_;
  }
  const int64_t oldestHeld = ops_.empty() ? instancesAdded_ : ops_.front().sequence;
  bool freed = false;
  while (!owned_.empty() && owned_.front().first < oldestHeld) {
    owned_.pop_front();
    freed = true;
  }
  if (freed && countedOverfull_)
    updateHunger();
  if (busyPending_ >= kFoldEvery)
    foldBusy();
}

void CoreModel::foldBusy() {
  // Every interval still to come belongs to an instruction in flight (started
  // at its start) or not yet started (starting now or later).
  TimePs final = queue_.now();
  for (const Op &op : ops_)
    if (op.start >= 0 && op.complete < 0)
      final = std::min(final, op.start);
  for (BusyUnion &busy : kindBusy_)
    busy.fold(final);
  for (BusyUnion &busy : slotBusy_)
    busy.fold(final);
  busyPending_ = 0;
  for (const BusyUnion &busy : kindBusy_)
    busyPending_ += busy.pending();
  for (const BusyUnion &busy : slotBusy_)
    busyPending_ += busy.pending();
}

int64_t CoreModel::unfinished() const {
  int64_t count = 0;
  for (const Op &op : ops_)
    count += op.complete < 0 ? 1 : 0;
  return count;
}

void CoreModel::account(const Op &op) {
  const InstructionInfo &info = *op.info;
  // Busy time of a unit kind: the union of its instructions' [start, end)
  // intervals over its slots (the two DMA queues count once); each array's
  // union is kept apart and the unions averaged (stats()).
  if (info.unit == UnitKind::Systolic)
    slotBusy_[static_cast<size_t>(info.slot)].add(op.start, op.busyEnd);
  else
    kindBusy_[static_cast<size_t>(info.unit)].add(op.start, op.busyEnd);
  ++busyPending_;

  CoreStats &stats = done_;
  stats.endPs = std::max(stats.endPs, op.complete);
  // Of a matmul whose bounds left rows or a block out, the MACs of the rows
  // that streamed (none for a block past its column bound).
  const int64_t streamed = op.executed ? op.executed->streamedRows : -1;
  const int64_t macs = streamed >= 0 && info.cost.occupancy > 0
                           ? info.macs * std::min(streamed, info.cost.occupancy) / info.cost.occupancy
                           : info.macs;
  stats.macs += macs;
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
    (info.instruction->opcode == npu::Opcode::DmaLoad ? activity.spadBytesWritten : activity.spadBytesRead) += bytes;
    break;
  }
  case UnitKind::Systolic:
    activity.macsByDtype[static_cast<size_t>(info.macDtype)] += macs;
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

CoreStats CoreModel::stats() const {
  // The statistics of the completed instructions; the unions are folded on a
  // copy, so that stats() may be asked for while the launch runs.
  CoreStats stats = done_;
  stats.instructions = instructions_;
  const int arrays = catalog_.slots().arrays;
  for (int kind = 0; kind < kNumUnitKinds; ++kind) {
    BusyUnion busy = kindBusy_[static_cast<size_t>(kind)];
    stats.busyPs[static_cast<size_t>(kind)] = busy.length();
  }
  for (const BusyUnion &slot : slotBusy_) {
    BusyUnion busy = slot;
    stats.busyPs[static_cast<size_t>(UnitKind::Systolic)] += busy.length() / arrays;
  }
  stats.matmulBoundCycles =
      static_cast<double>(stats.macs) / (static_cast<double>(config_.lanes) * config_.lanes * arrays);
  return stats;
}

} // namespace npusim::timing
