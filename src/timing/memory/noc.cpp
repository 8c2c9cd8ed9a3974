#include "timing/memory/noc.h"

#include "core/error.h"
#include "timing/memory/memory_system.h"

#include <algorithm>

namespace npusim::timing {

CrossbarNoc::CrossbarNoc(const config::HardwareConfig &hardware, EventQueue &events,
                         std::unique_ptr<DramModel> dram)
    : events_(events), dram_(std::move(dram)), corePeriodPs_(periodPs(hardware.coreFreqMhz)),
      numCores_(hardware.numCores), portsPerCore_(hardware.noc.portsPerCore),
      latencyCycles_(hardware.noc.latencyCycles), bytesPerCycle_(hardware.noc.bytesPerCyclePerPort) {
  if (!dram_)
    throw core::InputError("noc: no DRAM model behind the crossbar");
  if (numCores_ <= 0 || portsPerCore_ <= 0 || bytesPerCycle_ <= 0 || latencyCycles_ < 0 ||
      hardware.coreFreqMhz <= 0.0)
    throw core::InputError("noc: cores, ports per core, bytes per cycle and the core clock must be "
                           "positive, latency not negative");
  const auto corePorts = static_cast<size_t>(numCores_) * static_cast<size_t>(portsPerCore_);
  const auto channels = static_cast<size_t>(dram_->channels());
  coreOut_.assign(corePorts, 0);
  coreIn_.assign(corePorts, 0);
  channelIn_.assign(channels, 0);
  channelOut_.assign(channels, 0);
  inFlight_.assign(channels * 2, 0);
  piecesPerChannel_.assign(channels, 0);
  dram_->setCompletionCallback([this](const MemoryRequest &piece, TimePs at) { pieceDone(piece, at); });
  dram_->setRetryCallback([this] {
    // Only a requester that was refused is waiting for news.
    if (refused_ && retry_) {
      refused_ = false;
      retry_();
    }
  });
}

void CrossbarNoc::split(const MemoryRequest &request) const {
  if (request.bytes == 0)
    throw core::RuntimeError("memory request " + std::to_string(request.id) + " has no bytes");
  if (request.core < 0 || request.core >= numCores_)
    throw core::RuntimeError("memory request " + std::to_string(request.id) + " from core " +
                             std::to_string(request.core) + " of " + std::to_string(numCores_));
  // canAccept and then accept split the same request: the pieces depend on its bytes alone.
  if (!scratch_.empty() && splitAddress_ == request.address && splitBytes_ == request.bytes)
    return;
  splitAddress_ = request.address;
  splitBytes_ = request.bytes;
  approved_ = false; // a yes was for the request split before
  const uint64_t granule = dram_->addressMapper().granuleBytes();
  scratch_.clear();
  for (int channel : splitChannels_)
    piecesPerChannel_[static_cast<size_t>(channel)] = 0;
  splitChannels_.clear();
  const uint64_t end = request.address + request.bytes;
  for (uint64_t at = request.address; at < end;) {
    const uint64_t pieceEnd = std::min(end, (at / granule + 1) * granule);
    const int channel = dram_->addressMapper().decode(at).channel;
    scratch_.push_back(Piece{at, static_cast<uint32_t>(pieceEnd - at), channel});
    if (piecesPerChannel_[static_cast<size_t>(channel)]++ == 0)
      splitChannels_.push_back(channel);
    at = pieceEnd;
  }
}

bool CrossbarNoc::canAccept(const MemoryRequest &request) const {
  split(request);
  approved_ = false;
  const int write = request.write ? 1 : 0;
  for (int channel : splitChannels_) {
    // Pieces of this request bound for the same channel need a credit each.
    const int needed = piecesPerChannel_[static_cast<size_t>(channel)];
    if (needed > dram_->queueEntries())
      throw core::RuntimeError("memory request " + std::to_string(request.id) + " needs " +
                               std::to_string(needed) + " entries of channel " + std::to_string(channel) +
                               "'s queue, which holds " + std::to_string(dram_->queueEntries()));
    if (dram_->freeEntries(channel, request.write) - inFlight_[static_cast<size_t>(channel * 2 + write)] <
        needed) {
      refused_ = true;
      return false;
    }
  }
  approved_ = true;
  approvedWrite_ = request.write;
  return true;
}

int CrossbarNoc::serializationCycles(uint32_t payloadBytes) const {
  // A message without payload (a read request, a write acknowledgement) still
  // takes one cycle of its port.
  return std::max(1, static_cast<int>((payloadBytes + static_cast<uint32_t>(bytesPerCycle_) - 1) /
                                      static_cast<uint32_t>(bytesPerCycle_)));
}

TimePs CrossbarNoc::reserve(TimePs &portFree, TimePs earliest, int cycles) const {
  const TimePs start = std::max(portFree, earliest);
  portFree = start + cycles * corePeriodPs_;
  return start;
}

TimePs CrossbarNoc::alignToCoreClock(TimePs time) const {
  return (time + corePeriodPs_ - 1) / corePeriodPs_ * corePeriodPs_;
}

void CrossbarNoc::accept(const MemoryRequest &request) {
  // A yes from canAccept holds until the next accept: a piece's arrival at its
  // channel takes a queue entry and returns its credit, a served request frees
  // an entry, so only accepting another request takes space away.
  split(request);
  const bool approved = approved_ && approvedWrite_ == request.write;
  if (!approved && !canAccept(request))
    throw core::RuntimeError("noc: request " + std::to_string(request.id) +
                             " sent while its channels have no queue space (check canAccept first)");
  uint32_t slot = 0;
  if (freeTransactions_.empty()) {
    slot = static_cast<uint32_t>(transactions_.size());
    transactions_.emplace_back();
  } else {
    slot = freeTransactions_.back();
    freeTransactions_.pop_back();
  }
  approved_ = false;
  transactions_[slot] = Transaction{request, static_cast<int>(scratch_.size())};
  stats_.countRequest(request);

  const TimePs start = alignToCoreClock(events_.now());
  const TimePs latency = latencyCycles_ * corePeriodPs_;
  for (const Piece &piece : scratch_) {
    const size_t corePort = static_cast<size_t>(request.core * portsPerCore_ + piece.channel % portsPerCore_);
    const int cycles = serializationCycles(request.write ? piece.bytes : 0);
    stats_.nocFlits += cycles;
    stats_.nocFlitHops += cycles; // one switch
    // Cut-through: the head leaves the core port, crosses the crossbar, and the
    // piece has arrived once its tail has passed the channel port.
    const TimePs leaves = reserve(coreOut_[corePort], start, cycles);
    const TimePs enters = reserve(channelIn_[static_cast<size_t>(piece.channel)], leaves + latency, cycles);
    const TimePs arrives = enters + cycles * corePeriodPs_;
    const size_t credit = static_cast<size_t>(piece.channel * 2 + (request.write ? 1 : 0));
    ++inFlight_[credit];
    MemoryRequest toDram = request;
    toDram.id = slot;
    toDram.address = piece.address;
    toDram.bytes = piece.bytes;
    toDram.tag = static_cast<uint32_t>(piece.channel); // the transaction keeps the requester's tag
    events_.schedule(arrives, [this, toDram, credit] {
      --inFlight_[credit];
      dram_->accept(toDram);
    });
  }
}

void CrossbarNoc::pieceDone(const MemoryRequest &piece, TimePs dramDone) {
  const auto channel = static_cast<int>(piece.tag);
  const size_t corePort = static_cast<size_t>(piece.core * portsPerCore_ + channel % portsPerCore_);
  const int cycles = serializationCycles(piece.write ? 0 : piece.bytes);
  stats_.nocFlits += cycles;
  stats_.nocFlitHops += cycles;
  const TimePs leaves =
      reserve(channelOut_[static_cast<size_t>(channel)], alignToCoreClock(dramDone), cycles);
  const TimePs enters = reserve(coreIn_[corePort], leaves + latencyCycles_ * corePeriodPs_, cycles);
  const TimePs arrives = enters + cycles * corePeriodPs_;
  const auto slot = static_cast<uint32_t>(piece.id);
  events_.schedule(arrives, [this, slot] {
    const TimePs back = events_.now();
    Transaction &transaction = transactions_[slot];
    if (--transaction.piecesLeft > 0)
      return;
    const MemoryRequest request = transaction.request;
    freeTransactions_.push_back(slot);
    stats_.busyUntil = std::max(stats_.busyUntil, back);
    if (complete_)
      complete_(request, back);
  });
}

MemoryStats CrossbarNoc::stats() const {
  MemoryStats result = stats_;
  const MemoryStats dram = dram_->stats();
  result.rowHits = dram.rowHits;
  result.rowMisses = dram.rowMisses;
  result.rowConflicts = dram.rowConflicts;
  result.refreshes = dram.refreshes;
  return result;
}

namespace {
[[maybe_unused]] const bool kCrossbarRegistered = NocModels::add<CrossbarNoc>("crossbar");
} // namespace

} // namespace npusim::timing
