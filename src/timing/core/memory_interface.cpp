#include "timing/core/memory_interface.h"

#include "core/error.h"

#include <algorithm>

namespace npusim::timing {

MemoryInterface::MemoryInterface(int core, int maxOutstanding, int requestBytes, EventQueue &queue,
                                 MemoryPort &port, uint64_t &nextRequestId)
    : core_(core), maxOutstanding_(std::max(1, maxOutstanding)), requestBytes_(std::max(1, requestBytes)),
      queue_(queue), port_(port), nextRequestId_(nextRequestId) {}

void MemoryInterface::settle(Transfer &transfer) {
  while (transfer.run < transfer.runs.size() &&
         transfer.address >= transfer.runs[transfer.run].address + transfer.runs[transfer.run].bytes) {
    if (++transfer.run < transfer.runs.size())
      transfer.address = transfer.runs[transfer.run].address;
  }
}

void MemoryInterface::takeRuns(Transfer &transfer, const std::vector<npu::DramRun> &runs, ReadReuse reuse) const {
  transfer.runs.clear();
  for (const npu::DramRun &run : runs) {
    if (reuse != ReadReuse::None && !run.write && !transfer.runs.empty() && !transfer.runs.back().write) {
      npu::DramRun &last = transfer.runs.back();
      const uint64_t end = last.address + last.bytes;
      const auto granule = static_cast<uint64_t>(requestBytes_);
      const uint64_t from =
          reuse == ReadReuse::Stretch ? last.address : std::max(last.address, end > granule ? end - granule : 0);
      // A run that starts past the end but in the granule the last request
      // reads (elements a few bytes apart: a strided axis, nearby indices)
      // is served by that request: the burst carries its bytes anyway.
      const bool sameGranule = run.address > end && run.address / granule == (end - 1) / granule;
      if ((run.address >= from && run.address <= end) || sameGranule) {
        last.bytes = static_cast<uint32_t>(std::max(end, run.address + run.bytes) - last.address);
        continue;
      }
    }
    transfer.runs.push_back(run);
  }
}

void MemoryInterface::submit(const std::vector<npu::DramRun> &runs, bool readModifyWrite,
                             IssuedCallback onIssued, DoneCallback onDone, TransferOwner owner, ReadReuse reuse) {
  uint32_t slot = 0;
  if (freeSlots_.empty()) {
    slot = static_cast<uint32_t>(transfers_.size());
    transfers_.emplace_back();
  } else {
    slot = freeSlots_.back();
    freeSlots_.pop_back();
  }
  Transfer &transfer = transfers_[slot];
  takeRuns(transfer, runs, readModifyWrite ? ReadReuse::None : reuse);
  transfer.readModifyWrite = readModifyWrite;
  transfer.live = true;
  transfer.run = 0;
  transfer.address = runs.empty() ? 0 : runs.front().address;
  transfer.readSent = false;
  transfer.inFlight = 0;
  transfer.owner = owner;
  transfer.onIssued = std::move(onIssued);
  transfer.onDone = std::move(onDone);
  settle(transfer);
  if (transfer.allIssued()) {
    const TimePs now = queue_.now();
    transfer.live = false;
    freeSlots_.push_back(slot);
    // Moved out first: the callbacks may submit again and reuse the slot.
    IssuedCallback issued = std::move(transfer.onIssued);
    DoneCallback done = std::move(transfer.onDone);
    issued(now);
    done(now);
    return;
  }
  waiting_.push_back(slot);
  pump();
}

MemoryRequest MemoryInterface::nextRequest(const Transfer &transfer, uint32_t slot) const {
  // Requests never cross a granule boundary: a run starting or ending inside
  // a granule gives a partial request there.
  const npu::DramRun &run = transfer.runs[transfer.run];
  const auto granule = static_cast<uint64_t>(requestBytes_);
  const uint64_t stop = std::min(run.address + run.bytes, (transfer.address / granule + 1) * granule);
  MemoryRequest request;
  request.address = transfer.address + transfer.owner.addressBase;
  request.bytes = static_cast<uint32_t>(stop - transfer.address);
  request.core = core_;
  request.write = transfer.readModifyWrite ? transfer.readSent : run.write;
  request.tag = slot;
  return request;
}

void MemoryInterface::advance(Transfer &transfer) const {
  if (transfer.readModifyWrite && !transfer.readSent) {
    transfer.readSent = true;
    return;
  }
  transfer.readSent = false;
  const auto granule = static_cast<uint64_t>(requestBytes_);
  transfer.address = (transfer.address / granule + 1) * granule;
  settle(transfer);
}

void MemoryInterface::pump() {
  while (!waiting_.empty() && outstanding_ < maxOutstanding_) {
    const uint32_t slot = waiting_.front();
    Transfer &transfer = transfers_[slot];
    MemoryRequest request = nextRequest(transfer, slot);
    if (!port_.canAccept(request))
      return; // the port's retry callback calls pump() again
    request.id = nextRequestId_++;
    port_.accept(request);
    ++outstanding_;
    ++transfer.inFlight;
    advance(transfer);
    if (transfer.allIssued()) {
      waiting_.pop_front();
      // Moved out first: the callback may submit, which may grow transfers_.
      IssuedCallback issued = std::move(transfer.onIssued);
      issued(queue_.now());
    }
  }
}

int64_t MemoryInterface::groupOf(const MemoryRequest &request) const {
  if (request.core != core_ || request.tag >= transfers_.size() || !transfers_[request.tag].live)
    throw core::RuntimeError("timing: memory completed request " + std::to_string(request.id) +
                             " that core " + std::to_string(core_) + " has not issued");
  return transfers_[request.tag].owner.group;
}

void MemoryInterface::complete(const MemoryRequest &request, TimePs at) {
  if (request.core != core_ || request.tag >= transfers_.size() || !transfers_[request.tag].live ||
      transfers_[request.tag].inFlight == 0)
    throw core::RuntimeError("timing: memory completed request " + std::to_string(request.id) +
                             " that core " + std::to_string(core_) + " has not issued");
  const uint32_t slot = request.tag;
  --outstanding_;
  if (--transfers_[slot].inFlight == 0 && transfers_[slot].allIssued()) {
    transfers_[slot].live = false;
    freeSlots_.push_back(slot);
    DoneCallback done = std::move(transfers_[slot].onDone);
    done(at);
  }
  pump();
}

} // namespace npusim::timing
