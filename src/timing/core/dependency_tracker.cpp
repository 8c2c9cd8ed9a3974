#include "timing/core/dependency_tracker.h"

#include <algorithm>

namespace npusim::timing {

using npu::Opcode;

int registerWritten(const npu::Instruction &instruction) {
  switch (instruction.opcode) {
  case Opcode::SMove:
  case Opcode::SArgument:
  case Opcode::SProgramId:
  case Opcode::SNumPrograms:
  case Opcode::SElementwise:
  case Opcode::SLoad:
  case Opcode::Loop: return instruction.dstReg;
  default: return -1;
  }
}

DependencyTracker::DependencyTracker(int numStreams)
    : numStreams_(numStreams), lastOfStream_(static_cast<size_t>(numStreams), kNone) {}

int DependencyTracker::rangeId(const BankRange &range) {
  auto [it, inserted] = rangeIds_.emplace(std::make_pair(range.begin, range.end), 0);
  if (!inserted)
    return it->second;
  const int id = static_cast<int>(ranges_.size());
  it->second = id;
  RangeState state;
  state.range = range;
  state.lastReaderPerStream.assign(static_cast<size_t>(numStreams_), kNone);
  for (int other = 0; other < id; ++other) {
    RangeState &existing = ranges_[static_cast<size_t>(other)];
    if (existing.range.overlaps(range)) {
      existing.overlapping.push_back(id);
      state.overlapping.push_back(other);
    }
  }
  state.overlapping.push_back(id);
  ranges_.push_back(std::move(state));
  return id;
}

void DependencyTracker::add(uint64_t op, int stream, const Accesses &accesses,
                            std::vector<uint64_t> &deps) {
  const size_t firstNew = deps.size();
  const auto self = static_cast<int64_t>(op);
  auto depend = [&deps, self](int64_t producer) {
    if (producer != kNone && producer != self)
      deps.push_back(static_cast<uint64_t>(producer));
  };

  depend(lastBarrier_);
  if (accesses.barrier)
    for (int64_t last : lastOfStream_)
      depend(last);
  for (int reg : accesses.registerReads)
    if (reg >= 0 && static_cast<size_t>(reg) < lastRegisterWriter_.size())
      depend(lastRegisterWriter_[static_cast<size_t>(reg)]);

  // Resolve ids first: creating a range may grow ranges_.
  std::vector<int> readIds, writeIds;
  for (const BankRange &range : accesses.reads)
    if (range.end > range.begin)
      readIds.push_back(rangeId(range));
  for (const BankRange &range : accesses.writes)
    if (range.end > range.begin)
      writeIds.push_back(rangeId(range));

  for (int id : readIds)
    for (int other : ranges_[static_cast<size_t>(id)].overlapping)
      depend(ranges_[static_cast<size_t>(other)].lastWriter);
  for (int id : writeIds)
    for (int other : ranges_[static_cast<size_t>(id)].overlapping) {
      const RangeState &state = ranges_[static_cast<size_t>(other)];
      depend(state.lastWriter);
      for (int64_t reader : state.lastReaderPerStream)
        depend(reader);
    }

  // Update the state: reads first, so that an instruction reading and writing
  // one range leaves itself as its writer only.
  for (int id : readIds)
    ranges_[static_cast<size_t>(id)].lastReaderPerStream[static_cast<size_t>(stream)] = self;
  for (int id : writeIds) {
    RangeState &state = ranges_[static_cast<size_t>(id)];
    state.lastWriter = self;
    std::fill(state.lastReaderPerStream.begin(), state.lastReaderPerStream.end(), kNone);
  }
  if (accesses.registerWrite >= 0) {
    if (static_cast<size_t>(accesses.registerWrite) >= lastRegisterWriter_.size())
      lastRegisterWriter_.resize(static_cast<size_t>(accesses.registerWrite) + 1, kNone);
    lastRegisterWriter_[static_cast<size_t>(accesses.registerWrite)] = self;
  }
  lastOfStream_[static_cast<size_t>(stream)] = self;
  if (accesses.barrier)
    lastBarrier_ = self;

  std::sort(deps.begin() + static_cast<std::ptrdiff_t>(firstNew), deps.end());
  deps.erase(std::unique(deps.begin() + static_cast<std::ptrdiff_t>(firstNew), deps.end()), deps.end());
}

} // namespace npusim::timing
