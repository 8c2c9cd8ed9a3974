#include "timing/memory/dram_controller.h"

#include "core/error.h"

#include <algorithm>

namespace npusim::timing {

DramController::DramController(const config::DramConfig &dram, EventQueue &events, TimePs clockPs,
                               Callbacks callbacks)
    : events_(events), clockPs_(clockPs), callbacks_(std::move(callbacks)), timing_(dram.timing),
      banksPerGroup_(dram.timing.banksPerGroup), queueEntries_(dram.queueEntries),
      // Ramulator's defaults: drain writes from 80% full down to 20%.
      writeHigh_(std::max(1, dram.queueEntries * 4 / 5)), writeLow_(dram.queueEntries / 5),
      state_(dram.timing.bankGroups, dram.timing.banksPerGroup, buildTimingTable(dram.timing)),
      openRow_(static_cast<size_t>(dram.timing.banks()), kNoRow),
      scheduler_(DramSchedulers::make("dram_scheduler", dram.scheduler, dram)),
      reads_(static_cast<size_t>(std::max(0, dram.queueEntries))),
      writes_(static_cast<size_t>(std::max(0, dram.queueEntries))),
      nextRefreshCycle_(dram.timing.nREFI > 0 ? dram.timing.nREFI : kNever) {
  if (queueEntries_ <= 0 || timing_.burstCycles <= 0 || clockPs_ <= 0)
    throw core::InputError("dram: queueEntries, burst cycles and the clock period must be positive");
}

void DramController::RequestQueue::push_back(const Entry &entry) {
  if (tail_ == storage_.size()) { // only when the head has moved: the capacity is half the storage
    std::move(storage_.begin() + static_cast<std::ptrdiff_t>(head_),
              storage_.begin() + static_cast<std::ptrdiff_t>(tail_), storage_.begin());
    tail_ -= head_;
    head_ = 0;
  }
  storage_[tail_++] = entry;
}

void DramController::RequestQueue::erase(size_t index) {
  const auto at = storage_.begin() + static_cast<std::ptrdiff_t>(head_ + index);
  if (index < size() / 2) {
    std::move_backward(storage_.begin() + static_cast<std::ptrdiff_t>(head_), at, at + 1);
    ++head_;
  } else {
    std::move(at + 1, storage_.begin() + static_cast<std::ptrdiff_t>(tail_), at);
    --tail_;
  }
}

int DramController::freeEntries(bool write) const {
  return queueEntries_ - static_cast<int>(write ? writes_.size() : reads_.size());
}

void DramController::enqueue(const MemoryRequest &request, const DramLocation &location) {
  if (freeEntries(request.write) <= 0)
    throw core::RuntimeError("DRAM channel " + std::to_string(location.channel) + ": request " +
                             std::to_string(request.id) + " sent to a full queue (check canAccept first)");
  const int bankIndex = location.bankGroup * banksPerGroup_ + location.bank;
  const int64_t arrival = (events_.now() + clockPs_ - 1) / clockPs_;
  RequestQueue &queue = request.write ? writes_ : reads_;
  queue.push_back(Entry{request, location, bankIndex, arrival});
  scheduler_->queued(view(queue), queue.size() - 1);
  wake();
}

void DramController::wake() {
  const int64_t cycle = std::max((events_.now() + clockPs_ - 1) / clockPs_, lastTickCycle_ + 1);
  if (tickScheduled_ && scheduledCycle_ <= cycle)
    return;
  if (!tickScheduled_)
    catchUpRefresh(cycle); // it slept: refresh bookkeeping catches up first
  scheduleTick(cycle);
}

void DramController::scheduleTick(int64_t cycle) {
  tickScheduled_ = true;
  scheduledCycle_ = cycle;
  const uint64_t generation = ++tickGeneration_;
  // Two words of capture stay inside std::function's own storage: no allocation per tick.
  events_.schedule(cycle * clockPs_, [this, generation] { tick(scheduledCycle_, generation); });
}

void DramController::tick(int64_t cycle, uint64_t generation) {
  if (generation != tickGeneration_)
    return; // an arrival moved this tick earlier
  tickScheduled_ = false;
  lastTickCycle_ = cycle;
  int64_t next = cycle + 1;
  if (cycle >= nextRefreshCycle_) {
    next = refreshStep(cycle);
  } else {
    RequestQueue &queue = chooseQueue(cycle);
    if (!queue.empty() && !scheduleFrom(queue, cycle)) {
      next = std::min(nextRefreshCycle_, scheduler_->nextUsefulCycle(view(queue), cycle));
      // Serving reads, the controller also wakes when the oldest write starts
      // starving (chooseQueue then drains).
      if (&queue == &reads_ && !writes_.empty())
        next = std::min(next, std::max(cycle + 1, writes_.entries().front().arrivalCycle + kStarvationCycles + 1));
    }
  }
  if (!reads_.empty() || !writes_.empty())
    scheduleTick(std::max(next, cycle + 1));
}

bool DramController::anyRowOpen() const {
  return std::any_of(openRow_.begin(), openRow_.end(), [](int64_t row) { return row != kNoRow; });
}

int64_t DramController::refreshStep(int64_t cycle) {
  const DramCommand command = anyRowOpen() ? DramCommand::PrechargeAll : DramCommand::Refresh;
  if (!state_.ready(command, 0, 0, cycle))
    return state_.earliest(command, 0, 0);
  issue(command, -1, -1, kNoRow, -1, cycle);
  return cycle + 1;
}

void DramController::catchUpRefresh(int64_t cycle) {
  while (nextRefreshCycle_ < cycle) {
    int64_t at = std::max(nextRefreshCycle_, lastCommandCycle_ + 1);
    if (anyRowOpen()) {
      at = std::max(at, state_.earliest(DramCommand::PrechargeAll, 0, 0));
      if (at >= cycle)
        return; // the live ticks take it from here
      issue(DramCommand::PrechargeAll, -1, -1, kNoRow, -1, at);
      ++at;
    }
    at = std::max(at, state_.earliest(DramCommand::Refresh, 0, 0));
    if (at >= cycle)
      return;
    issue(DramCommand::Refresh, -1, -1, kNoRow, -1, at);
  }
}

DramController::RequestQueue &DramController::chooseQueue(int64_t cycle) {
  const int queuedWrites = static_cast<int>(writes_.size());
  // A write that has waited kStarvationCycles starts the drain as a full queue
  // does: with fewer writes in flight than the high watermark (a core's
  // outstanding requests spread over the channels) and reads always queued,
  // the writes would otherwise wait until the reads stop.
  const bool starved = queuedWrites > 0 && cycle - writes_.entries().front().arrivalCycle > kStarvationCycles;
  if (queuedWrites >= writeHigh_ || starved)
    drainingWrites_ = true;
  else if (queuedWrites <= writeLow_)
    drainingWrites_ = false;
  if (drainingWrites_ || reads_.empty())
    return writes_;
  return reads_;
}

DramChannelView DramController::view(const RequestQueue &queue) const {
  return DramChannelView{queue.entries(), &queue == &writes_, openRow_, state_};
}

bool DramController::scheduleFrom(RequestQueue &queue, int64_t cycle) {
  const DramChoice choice = scheduler_->choose(view(queue), cycle);
  if (choice.kind == DramChoice::Kind::None)
    return false;
  Entry &entry = queue[choice.index];
  const auto bank = static_cast<size_t>(entry.bankIndex);
  const int group = entry.location.bankGroup, bankInGroup = entry.location.bank;
  switch (choice.kind) {
  case DramChoice::Kind::Column: serve(queue, choice.index, cycle); break;
  case DramChoice::Kind::Activate:
    issue(DramCommand::Activate, group, bankInGroup, entry.location.row, -1, cycle);
    openRow_[bank] = entry.location.row;
    entry.openedRow = true;
    scheduler_->rowChanged(view(reads_), view(writes_), entry.bankIndex);
    break;
  case DramChoice::Kind::Precharge:
    issue(DramCommand::Precharge, group, bankInGroup, openRow_[bank], -1, cycle);
    openRow_[bank] = kNoRow;
    entry.closedRow = true;
    scheduler_->rowChanged(view(reads_), view(writes_), entry.bankIndex);
    break;
  case DramChoice::Kind::None: break;
  }
  return true;
}

void DramController::serve(RequestQueue &queue, size_t index, int64_t cycle) {
  const Entry entry = queue[index];
  const MemoryRequest &request = entry.request;
  issue(request.write ? DramCommand::Write : DramCommand::Read, entry.location.bankGroup, entry.location.bank,
        entry.location.row, entry.location.column, cycle);
  queue.erase(index);
  scheduler_->removed(view(queue), index, entry.bankIndex);
  if (entry.closedRow)
    ++stats_.rowConflicts;
  else if (entry.openedRow)
    ++stats_.rowMisses;
  else
    ++stats_.rowHits;
  // A read's data is back nCL + nBL after RD; a write's data is in nCWL + nBL after WR.
  const int64_t doneCycle = cycle + (request.write ? timing_.nCWL : timing_.nCL) + timing_.burstCycles;
  const TimePs done = doneCycle * clockPs_;
  stats_.countCompleted(request, done);
  callbacks_.complete(request, done);
  callbacks_.entryFreed();
}

void DramController::issue(DramCommand command, int bankGroup, int bank, int64_t row, int column,
                           int64_t cycle) {
  state_.issue(command, bankGroup, bank, cycle);
  lastCommandCycle_ = cycle;
  if (command == DramCommand::PrechargeAll) {
    std::fill(openRow_.begin(), openRow_.end(), kNoRow);
    scheduler_->allRowsClosed();
  }
  if (command == DramCommand::Refresh) {
    ++stats_.refreshes;
    nextRefreshCycle_ += timing_.nREFI;
  }
  if (log_)
    log_->push_back(DramCommandRecord{cycle, command, bankGroup, bank, row, column});
}

} // namespace npusim::timing
