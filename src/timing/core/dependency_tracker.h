#pragma once
// Which earlier instructions of a core an instruction must wait for. Tiles
// conflict through scratchpad bytes, not through tile ids (two tiles with
// disjoint lifetimes may share bytes, and double buffering moves an instance's
// tiles), so accesses are byte ranges of the lane banks. Scalar registers give
// read-after-write dependencies only: a unit captures its scalar operands when
// the instruction is dispatched, so a later write cannot disturb it.
#include "npu/program.h"

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

namespace npusim::timing {

/// Bytes [begin, end) of every lane's bank.
struct BankRange {
  int64_t begin = 0;
  int64_t end = 0;
  bool overlaps(const BankRange &other) const { return begin < other.end && other.begin < end; }
};

/// What one executed instruction touches, as the tracker needs it.
struct Accesses {
  std::vector<BankRange> reads, writes;
  std::vector<int> registerReads;
  int registerWrite = -1;
  bool barrier = false; // waits for every earlier instruction; every later one waits for it
};

/// The register it defines (scalar instructions and Loop's counter), or -1.
int registerWritten(const npu::Instruction &instruction);

/// Tracks, per core, the last writer and the last readers of every byte range
/// seen so far. Instructions are numbered in program order; a completion stream
/// is a sequence of instructions that complete in the order they start (one per
/// in-order pipeline), so only its last reader of a range matters.
class DependencyTracker {
public:
  explicit DependencyTracker(int numStreams);

  /// Records instruction `op` (numbered in increasing order) of completion
  /// stream `stream`; appends to `deps` the earlier instructions it waits for
  /// (RAW, WAR and WAW on bytes, RAW on registers, barriers), without duplicates.
  void add(uint64_t op, int stream, const Accesses &accesses, std::vector<uint64_t> &deps);

private:
  static constexpr int64_t kNone = -1;
  struct RangeState {
    BankRange range;
    std::vector<int> overlapping; // range ids, itself included
    int64_t lastWriter = kNone;
    std::vector<int64_t> lastReaderPerStream;
  };
  int rangeId(const BankRange &range);

  int numStreams_;
  std::map<std::pair<int64_t, int64_t>, int> rangeIds_;
  std::vector<RangeState> ranges_;
  std::vector<int64_t> lastRegisterWriter_;
  std::vector<int64_t> lastOfStream_;
  int64_t lastBarrier_ = kNone;
};

} // namespace npusim::timing
