#pragma once
// The DRAM bytes a step's programs touched (internal to the runtime): the
// union of the runs its DMA and scalar accesses read and wrote, kept apart.
// A gather touches the table rows its indices name and a kernel that reads a
// prefix of a buffer (a KV cache up to the current length) touches that
// prefix, where the step's views name the whole storage; the honest roofline
// counts the smaller of the two (compulsory_bytes.h).
#include "npu/execution.h"

#include <cstdint>
#include <map>

namespace npusim::runtime {

/// A union of half-open byte ranges of the flat DRAM address space.
class ByteRanges {
public:
  /// Adds [address, address + bytes).
  void add(uint64_t address, uint64_t bytes);
  /// Bytes of the union inside [lo, hi).
  uint64_t bytesWithin(uint64_t lo, uint64_t hi) const;
  /// Disjoint ranges held (adjacent ones are merged).
  size_t ranges() const { return ranges_.size(); }
  void clear() { ranges_.clear(); }

private:
  std::map<uint64_t, uint64_t> ranges_; // start -> end, disjoint and not adjacent
};

/// What one step's program instances read and wrote in DRAM.
struct TouchedBytes {
  ByteRanges read, written;
  /// Adds every DRAM run of one executed program instance.
  void add(const npu::InstanceTrace &trace);
};

} // namespace npusim::runtime
