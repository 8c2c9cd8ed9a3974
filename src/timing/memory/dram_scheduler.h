#pragma once
// The command-selection policy inside the detailed DRAM model's channel
// controller (dram_controller.h). The controller owns the queues, the banks'
// open rows, refresh and the timing state; once per DRAM cycle it asks its
// scheduler which request of the active queue gets a command, and issues it.
// Schedulers register by name (registry.h); DramConfig::scheduler chooses one.
// Adding a policy is one .cpp file: a DramScheduler subclass and the line
//
//   const bool kRegistered = DramSchedulers::add<MyScheduler>("my_policy");
#include "config/hardware.h"
#include "machine/dram_address.h"
#include "timing/memory/dram_timing.h"
#include "timing/memory_port.h"
#include "timing/registry.h"

#include <cstdint>
#include <span>

namespace npusim::timing {

// The machine's address mapping (src/machine), as timing names it.
using machine::DramLocation;

/// One queued request as the controller keeps it.
struct DramQueueEntry {
  MemoryRequest request;
  DramLocation location;
  int bankIndex; // bankGroup * banksPerGroup + bank
  int64_t arrivalCycle;
  bool openedRow = false; // issued an ACT for itself: a row miss
  bool closedRow = false; // issued a PRE for itself: a row conflict
};

/// What a scheduler sees of its channel at one cycle.
struct DramChannelView {
  std::span<const DramQueueEntry> queue; // oldest first; never empty in choose() and nextUsefulCycle()
  bool writes;                           // `queue` is the write queue
  std::span<const int64_t> openRow;      // per bank index; kNoOpenRow when closed
  const DramTimingState &timing;
};
inline constexpr int64_t kNoOpenRow = -1;

/// DRAM cycles a request may wait, counted from its arrival, before the
/// controller serves it ahead of what would otherwise go first: the oldest read
/// before younger row hits to its bank (frfcfs), the oldest write before the
/// reads (the controller's write drain).
inline constexpr int64_t kStarvationCycles = 1024;

/// The command a scheduler picked: the column command (RD or WR) of a row hit,
/// or the ACT or PRE that the request at `index` needs next.
struct DramChoice {
  enum class Kind : uint8_t { None, Column, Activate, Precharge };
  Kind kind = Kind::None;
  size_t index = 0; // into DramChannelView::queue
};

class DramScheduler {
public:
  virtual ~DramScheduler() = default;
  /// A command that is ready at `cycle` (DramTimingState::ready), or Kind::None.
  virtual DramChoice choose(const DramChannelView &channel, int64_t cycle) = 0;
  /// After choose() returned None at `cycle`, with nothing issued or enqueued
  /// since: the first cycle after `cycle` at which choose() could pick a command
  /// (ignoring refresh, which the controller handles). The controller sleeps
  /// until then, so the answer is part of the timing: a later cycle delays
  /// commands, and an earlier one adds a tick that an arrival in that same
  /// cycle has to follow (it is then served a cycle later).
  virtual int64_t nextUsefulCycle(const DramChannelView &channel, int64_t cycle) const = 0;

  // Every change to what choose() sees, for a policy that keeps its own
  // summary of the queues instead of scanning them at every cycle. The
  // controller calls them right after the change; the defaults ignore them.
  /// `channel.queue[index]` was appended (it is the youngest).
  virtual void queued(const DramChannelView & /*channel*/, size_t /*index*/) {}
  /// The entry at `index` of `channel.queue` was removed (entries after it moved down by one).
  virtual void removed(const DramChannelView & /*channel*/, size_t /*index*/, int /*bankIndex*/) {}
  /// The open row of one bank changed (ACT or PRE); both queues as they are now.
  virtual void rowChanged(const DramChannelView & /*reads*/, const DramChannelView & /*writes*/,
                          int /*bankIndex*/) {}
  /// Every bank was precharged (PREA).
  virtual void allRowsClosed() {}
};

/// Built from the channel's DRAM configuration.
using DramSchedulers = Registry<DramScheduler, const config::DramConfig &>;

} // namespace npusim::timing
