#pragma once
// The narrow, back-pressured port between the cores' DMA engines and memory:
// the NoC implements it towards the cores and each DRAM model implements it
// towards the NoC, so a fixed-latency DRAM swaps in for the detailed one by
// configuration alone.
#include "timing/event_queue.h"

#include <algorithm>
#include <cstdint>
#include <functional>

namespace npusim::timing {

/// One DRAM request of at most one access granule (config dmaRequestBytes).
struct MemoryRequest {
  uint64_t id = 0;      // unique per simulation, chosen by the requester
  uint64_t address = 0; // flat DRAM byte address
  uint32_t bytes = 0;
  bool write = false;
  int core = 0;         // requesting core (NoC port)
  uint32_t tag = 0;     // the requester's own, returned unchanged with the completion
};

/// Statistics every memory model keeps.
struct MemoryStats {
  int64_t reads = 0, writes = 0;
  int64_t bytesRead = 0, bytesWritten = 0;
  int64_t rowHits = 0, rowMisses = 0, rowConflicts = 0; // detailed DRAM only
  int64_t refreshes = 0; // refresh commands, all channels
  /// Flits the NoC moved (one port width each, at least one per message), and
  /// the switch hops each took: a crossbar's flits cross one switch.
  int64_t nocFlits = 0, nocFlitHops = 0;
  TimePs busyUntil = 0; // completion time of the last request

  /// Counts one request as a read or a write of its bytes.
  void countRequest(const MemoryRequest &request) {
    if (request.write) {
      ++writes;
      bytesWritten += request.bytes;
    } else {
      ++reads;
      bytesRead += request.bytes;
    }
  }
  /// Counts one request that completes at `done` (the last completion so far
  /// or a later one).
  void countCompleted(const MemoryRequest &request, TimePs done) {
    countRequest(request);
    busyUntil = std::max(busyUntil, done);
  }
  /// Adds the counts of `other` (not busyUntil, whose meaning depends on
  /// whether the two ran side by side or one after the other).
  void addCounts(const MemoryStats &other) {
    reads += other.reads;
    writes += other.writes;
    bytesRead += other.bytesRead;
    bytesWritten += other.bytesWritten;
    rowHits += other.rowHits;
    rowMisses += other.rowMisses;
    rowConflicts += other.rowConflicts;
    refreshes += other.refreshes;
    nocFlits += other.nocFlits;
    nocFlitHops += other.nocFlitHops;
  }
};

class MemoryPort {
public:
  using Completion = std::function<void(const MemoryRequest &, TimePs)>;
  virtual ~MemoryPort() = default;
  /// Whether `accept` would take this request now (queue space at its target).
  virtual bool canAccept(const MemoryRequest &request) const = 0;
  /// Takes the request; `onComplete(request, time)` runs (through the event
  /// queue) when a read's data has returned or a write has been performed.
  virtual void accept(const MemoryRequest &request) = 0;
  /// Called (through the event queue) whenever a request leaves a full queue,
  /// so that a requester refused by canAccept can retry.
  virtual void setRetryCallback(std::function<void()> callback) = 0;
  virtual void setCompletionCallback(Completion callback) = 0;
  virtual MemoryStats stats() const = 0;
};

} // namespace npusim::timing
