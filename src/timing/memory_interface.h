#pragma once
// A core's side of the memory port: turns the DRAM byte runs of DMA and scalar
// memory instructions into requests of at most dmaRequestBytes, keeps at most
// dmaOutstandingRequests of them in flight, and waits for the port's retry
// callback when it refuses one. Transfers are served first come, first served.
#include "npu/execution.h"
#include "timing/memory_port.h"

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <unordered_map>
#include <vector>

namespace npusim::timing {

class MemoryInterface {
public:
  /// Time the transfer's last request was accepted by the port.
  using IssuedCallback = std::function<void(TimePs)>;
  /// Time the transfer's last response arrived (or, without requests, its start).
  using DoneCallback = std::function<void(TimePs)>;

  MemoryInterface(int core, int maxOutstanding, int requestBytes, EventQueue &queue, MemoryPort &port,
                  uint64_t &nextRequestId);

  /// Queues the requests of `runs`. A read-modify-write transfer (atomics)
  /// issues a read and then a write for every granule.
  void submit(const std::vector<npu::DramRun> &runs, bool readModifyWrite, IssuedCallback onIssued,
              DoneCallback onDone);
  /// Sends what the outstanding limit and the port allow now.
  void pump();
  /// The port's completion of one of this core's requests.
  void complete(const MemoryRequest &request, TimePs at);

  int outstanding() const { return outstanding_; }
  bool idle() const { return transfers_.empty() && outstanding_ == 0; }

private:
  struct Transfer {
    std::vector<MemoryRequest> requests; // id assigned on issue
    size_t nextRequest = 0;
    int64_t inFlight = 0;
    IssuedCallback onIssued;
    DoneCallback onDone;
  };

  int core_;
  int maxOutstanding_;
  int requestBytes_;
  EventQueue &queue_;
  MemoryPort &port_;
  uint64_t &nextRequestId_;
  int outstanding_ = 0;
  std::deque<std::shared_ptr<Transfer>> transfers_; // not yet fully issued, in order
  std::unordered_map<uint64_t, std::shared_ptr<Transfer>> inFlight_;
};

} // namespace npusim::timing
