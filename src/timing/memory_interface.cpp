#include "timing/memory_interface.h"

#include "core/error.h"

#include <algorithm>

namespace npusim::timing {

MemoryInterface::MemoryInterface(int core, int maxOutstanding, int requestBytes, EventQueue &queue,
                                 MemoryPort &port, uint64_t &nextRequestId)
    : core_(core), maxOutstanding_(std::max(1, maxOutstanding)), requestBytes_(std::max(1, requestBytes)),
      queue_(queue), port_(port), nextRequestId_(nextRequestId) {}

void MemoryInterface::submit(const std::vector<npu::DramRun> &runs, bool readModifyWrite,
                             IssuedCallback onIssued, DoneCallback onDone) {
  auto transfer = std::make_shared<Transfer>();
  const auto granule = static_cast<uint64_t>(requestBytes_);
  for (const npu::DramRun &run : runs) {
    // Requests never cross a granule boundary: a run starting or ending inside
    // a granule gives a partial request there.
    uint64_t address = run.address;
    const uint64_t end = run.address + run.bytes;
    while (address < end) {
      const uint64_t granuleEnd = (address / granule + 1) * granule;
      const uint64_t stop = std::min(end, granuleEnd);
      MemoryRequest request;
      request.address = address;
      request.bytes = static_cast<uint32_t>(stop - address);
      request.core = core_;
      if (readModifyWrite) {
        request.write = false;
        transfer->requests.push_back(request);
        request.write = true;
        transfer->requests.push_back(request);
      } else {
        request.write = run.write;
        transfer->requests.push_back(request);
      }
      address = stop;
    }
  }
  transfer->onIssued = std::move(onIssued);
  transfer->onDone = std::move(onDone);
  if (transfer->requests.empty()) {
    const TimePs now = queue_.now();
    transfer->onIssued(now);
    transfer->onDone(now);
    return;
  }
  transfers_.push_back(std::move(transfer));
  pump();
}

void MemoryInterface::pump() {
  while (!transfers_.empty() && outstanding_ < maxOutstanding_) {
    const std::shared_ptr<Transfer> transfer = transfers_.front();
    MemoryRequest &request = transfer->requests[transfer->nextRequest];
    if (!port_.canAccept(request))
      return; // the port's retry callback calls pump() again
    request.id = nextRequestId_++;
    port_.accept(request);
    inFlight_.emplace(request.id, transfer);
    ++outstanding_;
    ++transfer->inFlight;
    if (++transfer->nextRequest == transfer->requests.size()) {
      transfers_.pop_front();
      transfer->onIssued(queue_.now());
    }
  }
}

void MemoryInterface::complete(const MemoryRequest &request, TimePs at) {
  auto it = inFlight_.find(request.id);
  if (it == inFlight_.end())
    throw core::RuntimeError("timing: memory completed request " + std::to_string(request.id) +
                             " that core " + std::to_string(core_) + " has not issued");
  std::shared_ptr<Transfer> transfer = std::move(it->second);
  inFlight_.erase(it);
  --outstanding_;
  if (--transfer->inFlight == 0 && transfer->nextRequest == transfer->requests.size())
    transfer->onDone(at);
  pump();
}

} // namespace npusim::timing
