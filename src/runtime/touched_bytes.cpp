// The union of the DRAM runs a step touched (touched_bytes.h).
#include "runtime/touched_bytes.h"

#include <algorithm>
#include <iterator>

namespace npusim::runtime {

void ByteRanges::add(uint64_t address, uint64_t bytes) {
  if (bytes == 0)
    return;
  uint64_t start = address, end = address + bytes;
  // Runs arrive mostly in address order: one that starts inside or right
  // after the highest range extends it without a search.
  if (!ranges_.empty()) {
    auto &[first, last] = *ranges_.rbegin();
    if (start >= first && start <= last) {
      last = std::max(last, end);
      return;
    }
  }
  // The first range that could touch [start, end): the one before the first
  // range starting after `start`, when it reaches `start`.
  auto it = ranges_.upper_bound(start);
  if (it != ranges_.begin() && std::prev(it)->second >= start)
    --it;
  while (it != ranges_.end() && it->first <= end) {
    start = std::min(start, it->first);
    end = std::max(end, it->second);
    it = ranges_.erase(it);
  }
  ranges_.emplace_hint(it, start, end);
}

uint64_t ByteRanges::bytesWithin(uint64_t lo, uint64_t hi) const {
  if (hi <= lo)
    return 0;
  uint64_t total = 0;
  auto it = ranges_.upper_bound(lo);
  if (it != ranges_.begin())
    --it;
  for (; it != ranges_.end() && it->first < hi; ++it) {
    const uint64_t a = std::max(lo, it->first), b = std::min(hi, it->second);
    if (b > a)
      total += b - a;
  }
  return total;
}

void TouchedBytes::add(const npu::InstanceTrace &trace) {
  for (const npu::ExecutedInstruction &e : trace.instructions)
    for (const npu::DramRun &run : e.dram)
      (run.write ? written : read).add(run.address, run.bytes);
}

} // namespace npusim::runtime
