#pragma once
// The controller of one DRAM channel: read and write queues, banks with open
// rows under an open-page policy, write drain between two watermarks, and
// all-bank refresh; which queued request gets the next command is the
// scheduler's choice (dram_scheduler.h, DramConfig::scheduler). It issues at most one command per DRAM
// cycle, checked against the timing table (dram_timing.h). It ticks only while
// a queue holds work, and sleeps through cycles in which nothing can issue
// (docs/dram.md).
#include "config/hardware.h"
#include "timing/event_queue.h"
#include "machine/dram_address.h"
#include "timing/memory/dram_scheduler.h"
#include "timing/memory/dram_timing.h"
#include "timing/memory_port.h"

#include <functional>
#include <limits>
#include <memory>
#include <span>
#include <vector>

namespace npusim::timing {

/// One command as it went out on the channel's command bus.
struct DramCommandRecord {
  int64_t cycle;
  DramCommand command;
  int bankGroup, bank; // -1 for channel commands
  int64_t row;         // -1 when the command names no row
  int column;          // -1 when the command names no column
};

class DramController {
public:
  struct Callbacks {
    // At the column command: when the read's data will be back or the write done.
    std::function<void(const MemoryRequest &, TimePs)> complete;
    std::function<void()> entryFreed; // a queue entry freed
  };

  DramController(const config::DramConfig &dram, EventQueue &events, TimePs clockPs, Callbacks callbacks);
  DramController(const DramController &) = delete;
  DramController &operator=(const DramController &) = delete;

  int freeEntries(bool write) const;
  /// Takes a request for this channel; the caller checked freeEntries().
  void enqueue(const MemoryRequest &request, const DramLocation &location);
  const MemoryStats &stats() const { return stats_; }
  /// Appends every command issued from now on to `log` (nullptr stops).
  void recordCommands(std::vector<DramCommandRecord> *log) { log_ = log; }

  int writeHighWatermark() const { return writeHigh_; }
  int writeLowWatermark() const { return writeLow_; }

private:
  using Entry = DramQueueEntry;
  /// A queue in age order, contiguous for the scheduler's view. Removing an
  /// entry moves the shorter side of the queue by one, so serving the oldest
  /// (streaming) moves nothing but the head.
  class RequestQueue {
  public:
    explicit RequestQueue(size_t capacity) : storage_(2 * capacity + 1) {}
    size_t size() const { return tail_ - head_; }
    bool empty() const { return tail_ == head_; }
    Entry &operator[](size_t index) { return storage_[head_ + index]; }
    std::span<const Entry> entries() const { return {storage_.data() + head_, size()}; }
    void push_back(const Entry &entry);
    void erase(size_t index);

  private:
    std::vector<Entry> storage_;
    size_t head_ = 0, tail_ = 0;
  };
  static constexpr int64_t kNoRow = kNoOpenRow;
  static constexpr int64_t kNever = std::numeric_limits<int64_t>::max();

  void wake();
  void scheduleTick(int64_t cycle);
  void tick(int64_t cycle, uint64_t generation);
  /// A refresh is due at `cycle`: PREA or REF if ready. Returns the next cycle
  /// refresh may make progress.
  int64_t refreshStep(int64_t cycle);
  /// Performs, at the cycles they would have had, the refreshes that fell due
  /// while the controller slept, up to (not including) `cycle`.
  void catchUpRefresh(int64_t cycle);
  RequestQueue &chooseQueue(int64_t cycle);
  DramChannelView view(const RequestQueue &queue) const;
  /// Issues the scheduler's choice over one queue; returns whether a command issued.
  bool scheduleFrom(RequestQueue &queue, int64_t cycle);
  void serve(RequestQueue &queue, size_t index, int64_t cycle);
  void issue(DramCommand command, int bankGroup, int bank, int64_t row, int column, int64_t cycle);
  bool anyRowOpen() const;

  EventQueue &events_;
  TimePs clockPs_;
  Callbacks callbacks_;
  config::DramTiming timing_;
  int banksPerGroup_;
  int queueEntries_, writeHigh_, writeLow_;
  DramTimingState state_;
  std::vector<int64_t> openRow_; // [bankGroup * banksPerGroup + bank]
  std::unique_ptr<DramScheduler> scheduler_;
  RequestQueue reads_, writes_;
  bool drainingWrites_ = false;
  bool tickScheduled_ = false;
  int64_t scheduledCycle_ = -1;
  uint64_t tickGeneration_ = 0; // a tick event of an older generation was superseded by an earlier one
  int64_t lastTickCycle_ = -1;
  int64_t lastCommandCycle_ = -1;
  int64_t nextRefreshCycle_;
  std::vector<DramCommandRecord> *log_ = nullptr;
  MemoryStats stats_;
};

} // namespace npusim::timing
