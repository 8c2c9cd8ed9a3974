#pragma once
// What every DRAM model offers the NoC in front of it, beyond the MemoryPort:
// where an address lives (its channel) and how much queue space each channel
// has, so the NoC can reserve space for requests still travelling towards a
// channel (credits) instead of finding the queue full on arrival.
// Models register by name (registry.h); DramConfig::model chooses one. Adding a
// model is one .cpp file: a DramModel subclass and the line
//
//   const bool kRegistered = DramModels::add<MyDram>("my_dram");
#include "config/hardware.h"
#include "machine/dram_address.h"
#include "timing/memory_port.h"
#include "timing/registry.h"

#include <cstdint>
#include <functional>

namespace npusim::timing {

// The machine's costs and address mapping (src/machine), as timing names them.
using machine::DramAddressMapper;
using machine::DramLocation;

/// Picoseconds of one DRAM clock cycle (config::DramConfig::clockPeriodPs).
TimePs dramClockPeriodPs(const config::DramConfig &dram);


class DramModel : public MemoryPort {
public:
  // Callbacks registered with the event queue hold `this`.
  DramModel(const DramModel &) = delete;
  DramModel &operator=(const DramModel &) = delete;
  const DramAddressMapper &addressMapper() const { return mapper_; }
  int channels() const { return mapper_.channels(); }
  /// Entries of each channel's read queue and of its write queue.
  int queueEntries() const { return queueEntries_; }
  /// Entries free in the read (write == false) or write queue of `channel`.
  virtual int freeEntries(int channel, bool write) const = 0;
  /// A DRAM model calls the retry callback (through the event queue, at most
  /// once per instant) whenever a queue entry frees, full queue or not: a NoC
  /// holding credits for requests in flight needs to hear of every free entry.
  void setRetryCallback(std::function<void()> callback) override { retry_ = std::move(callback); }
  void setCompletionCallback(Completion callback) override { complete_ = std::move(callback); }

protected:
  DramModel(const config::DramConfig &dram, EventQueue &events)
      : mapper_(dram), events_(events), queueEntries_(dram.queueEntries) {}
  /// Location of a request; throws core::RuntimeError when it is empty or
  /// crosses an access granule (the NoC splits requests at granules).
  DramLocation locate(const MemoryRequest &request) const;
  void notifyEntryFreed();
  void notifyCompletion(const MemoryRequest &request, TimePs at);

  DramAddressMapper mapper_;
  EventQueue &events_;

private:
  int queueEntries_;
  std::function<void()> retry_;
  Completion complete_;
  bool retryScheduled_ = false;
};

/// Every DRAM model is built from the DRAM configuration and the event queue.
using DramModels = Registry<DramModel, const config::DramConfig &, EventQueue &>;

} // namespace npusim::timing
