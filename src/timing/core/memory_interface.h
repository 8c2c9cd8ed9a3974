#pragma once
// A core's side of the memory port: turns the DRAM byte runs of DMA and scalar
// memory instructions into requests of at most dmaRequestBytes, keeps at most
// dmaOutstandingRequests of them in flight, and waits for the port's retry
// callback when it refuses one. Transfers are served first come, first served.
// Requests are made one at a time as the port takes them, and each carries its
// transfer's slot (MemoryRequest::tag), so a request costs no allocation.
#include "npu/execution.h"
#include "timing/memory_port.h"

#include <cstdint>
#include <deque>
#include <functional>
#include <vector>

namespace npusim::timing {

/// Whose transfer it is, when several programs share the machine
/// (timing/shared_machine.h): a group id the port's completions can be
/// attributed to, and a base added to every address (the group's DRAM region).
struct TransferOwner {
  int64_t group = -1;
  uint64_t addressBase = 0; // a multiple of the request size, so requests split as without it
};

class MemoryInterface {
public:
  /// Time the transfer's last request was accepted by the port.
  using IssuedCallback = std::function<void(TimePs)>;
  /// Time the transfer's last response arrived (or, without requests, its start).
  using DoneCallback = std::function<void(TimePs)>;

  MemoryInterface(int core, int maxOutstanding, int requestBytes, EventQueue &queue, MemoryPort &port,
                  uint64_t &nextRequestId);

  /// Which bytes of a transfer's reads the engine serves on chip instead of
  /// reading DRAM again (docs/timing.md, "DMA engine"): none; for a strided
  /// descriptor, a run starting inside the stretch of DRAM it is streaming
  /// (rows one pixel apart of an im2col tile, a stride-0 broadcast): the
  /// engine computes where it put those bytes; for a gather, a run starting
  /// inside the last request granule it read.
  enum class ReadReuse : uint8_t { None, Stretch, LastGranule };

  /// Queues the requests of `runs`. A read-modify-write transfer (atomics)
  /// issues a read and then a write for every granule.
  void submit(const std::vector<npu::DramRun> &runs, bool readModifyWrite, IssuedCallback onIssued,
              DoneCallback onDone, TransferOwner owner = {}, ReadReuse reuse = ReadReuse::None);
  /// Sends what the outstanding limit and the port allow now.
  void pump();
  /// The port's completion of one of this core's requests.
  void complete(const MemoryRequest &request, TimePs at);
  /// The owner group of one of this core's requests in flight (before complete()).
  int64_t groupOf(const MemoryRequest &request) const;

  int outstanding() const { return outstanding_; }
  bool idle() const { return waiting_.empty() && outstanding_ == 0; }

private:
  struct Transfer {
    std::vector<npu::DramRun> runs;
    bool readModifyWrite = false;
    bool live = false;
    // The next request: runs[run], from `address`; for read-modify-write, whether its read went.
    size_t run = 0;
    uint64_t address = 0;
    bool readSent = false;
    int64_t inFlight = 0;
    TransferOwner owner;
    IssuedCallback onIssued;
    DoneCallback onDone;
    bool allIssued() const { return run == runs.size(); }
  };
  /// The next request of `transfer` (not yet advanced past).
  MemoryRequest nextRequest(const Transfer &transfer, uint32_t slot) const;
  void advance(Transfer &transfer) const;
  /// Skips empty runs.
  static void settle(Transfer &transfer);
  /// `runs` into `transfer.runs`, the reads `reuse` serves on chip merged
  /// into the run before them.
  void takeRuns(Transfer &transfer, const std::vector<npu::DramRun> &runs, ReadReuse reuse) const;

  int core_;
  int maxOutstanding_;
  int requestBytes_;
  EventQueue &queue_;
  MemoryPort &port_;
  uint64_t &nextRequestId_;
  int outstanding_ = 0;
  std::vector<Transfer> transfers_; // slots, reused
  std::vector<uint32_t> freeSlots_;
  std::deque<uint32_t> waiting_; // slots not yet fully issued, in order
};

} // namespace npusim::timing
