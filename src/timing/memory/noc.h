#pragma once
// The network on chip: a crossbar between the cores and the DRAM channels.
// Each core has NocConfig::portsPerCore ports and each channel one port; every
// port moves bytesPerCyclePerPort bytes per core cycle in each direction, and
// a message crosses the crossbar in latencyCycles core cycles each way. A
// request is split at DRAM access granules into pieces, each travelling to its
// own channel; the request completes when its last piece has come back.
// Back-pressure passes through: the NoC accepts a request only when every
// channel it touches has queue space left after the pieces already travelling
// towards it (credits).
#include "config/hardware.h"
#include "timing/memory/dram_model.h"

#include <memory>
#include <vector>

namespace npusim::timing {

class CrossbarNoc final : public MemoryPort {
public:
  CrossbarNoc(const config::HardwareConfig &hardware, EventQueue &events, std::unique_ptr<DramModel> dram);
  // Callbacks registered with the event queue and the DRAM hold `this`.
  CrossbarNoc(const CrossbarNoc &) = delete;
  CrossbarNoc &operator=(const CrossbarNoc &) = delete;

  bool canAccept(const MemoryRequest &request) const override;
  void accept(const MemoryRequest &request) override;
  void setRetryCallback(std::function<void()> callback) override { retry_ = std::move(callback); }
  void setCompletionCallback(Completion callback) override { complete_ = std::move(callback); }
  /// Requests and bytes as the cores sent them; row and refresh counts from the DRAM.
  MemoryStats stats() const override;

  DramModel &dram() { return *dram_; }
  const DramModel &dram() const { return *dram_; }
  TimePs corePeriodPs() const { return corePeriodPs_; }

private:
  struct Piece {
    uint64_t address;
    uint32_t bytes;
    int channel;
  };
  struct Transaction {
    MemoryRequest request;
    int piecesLeft = 0;
  };

  /// Fills scratch_ with the pieces of `request`, one per access granule it touches.
  void split(const MemoryRequest &request) const;
  int serializationCycles(uint32_t payloadBytes) const;
  /// Reserves `cycles` core cycles on a port that is free from `portFree`
  /// onwards, starting no earlier than `earliest`; returns the start time.
  TimePs reserve(TimePs &portFree, TimePs earliest, int cycles) const;
  TimePs alignToCoreClock(TimePs time) const;
  void pieceDone(const MemoryRequest &piece, TimePs dramDone);

  EventQueue &events_;
  std::unique_ptr<DramModel> dram_;
  TimePs corePeriodPs_;
  int numCores_, portsPerCore_, latencyCycles_, bytesPerCycle_;
  // Next free time of each port, one vector per direction.
  std::vector<TimePs> coreOut_, coreIn_;       // [core * portsPerCore + port]
  std::vector<TimePs> channelIn_, channelOut_; // [channel]
  std::vector<int> inFlight_;                  // [channel * 2 + write]: pieces on their way to the DRAM
  std::vector<Transaction> transactions_;
  std::vector<uint32_t> freeTransactions_;
  mutable std::vector<Piece> scratch_; // the pieces of the request last split
  // Of the request last split: its channels in order of first piece, and the
  // pieces bound for each channel, so that canAccept is one pass.
  mutable std::vector<int> splitChannels_;
  mutable std::vector<int> piecesPerChannel_; // [channel]; zero outside splitChannels_
  mutable uint64_t splitAddress_ = 0;
  mutable uint32_t splitBytes_ = 0;
  mutable bool refused_ = false;
  // canAccept said yes to the request last split (with this direction), and
  // nothing was accepted since.
  mutable bool approved_ = false;
  mutable bool approvedWrite_ = false;
  std::function<void()> retry_;
  Completion complete_;
  MemoryStats stats_;
};

} // namespace npusim::timing
