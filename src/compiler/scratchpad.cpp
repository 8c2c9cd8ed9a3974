// Scratchpad allocation (docs/compiler.md "Scratchpad"). Every tile gets the
// same byte range in every lane's bank. A tile is live from its first to its
// last access in program order; a tile accessed inside a loop but written
// before it stays live to the end of the loop (loop-carried homes, and values
// the body reads every iteration). Tiles that share storage (free reshapes)
// are one allocation. Offsets are first fit in order of first access.
#include "compiler/compiler_internal.h"

#include <algorithm>
#include <map>

namespace npusim::compiler {

namespace {

struct Interval {
  int64_t first = -1, last = -1;
};

struct LoopSpan {
  int64_t begin = 0, end = 0;
};

class Liveness {
public:
  explicit Liveness(size_t tiles, const std::vector<int> &root) : intervals(tiles), root_(root) {}

  void walk(const std::vector<npu::Instruction> &body) {
    for (const npu::Instruction &instruction : body) {
      const int64_t here = position_++;
      order.push_back(&instruction);
      for (int t : tilesRead(instruction))
        touch(t, here);
      for (int t : tilesWritten(instruction))
        touch(t, here);
      if (!instruction.body.empty() || !instruction.elseBody.empty()) {
        const int64_t begin = position_;
        walk(instruction.body);
        walk(instruction.elseBody);
        if (instruction.opcode == npu::Opcode::Loop)
          loops.push_back(LoopSpan{begin, position_});
      }
    }
  }

  void extendOverLoops() {
    // Inner loops come first in `loops`, so one sweep settles nested loops.
    for (const LoopSpan &loop : loops)
      for (Interval &in : intervals)
        if (in.first >= 0 && in.first < loop.begin && in.last >= loop.begin && in.last < loop.end)
          in.last = loop.end;
  }

  std::vector<Interval> intervals; // by storage root
  std::vector<LoopSpan> loops;
  std::vector<const npu::Instruction *> order; // by position

private:
  void touch(int tile, int64_t at) {
    if (tile < 0 || tile >= static_cast<int>(root_.size()))
      return;
    Interval &in = intervals[root_[tile]];
    if (in.first < 0 || at < in.first)
      in.first = at;
    in.last = std::max(in.last, at);
  }

  const std::vector<int> &root_;
  int64_t position_ = 0;
};

int64_t bytesPerLane(const npu::TileLayout &layout, int lanes) {
  int64_t rest = 1;
  for (int a = 0; a < static_cast<int>(layout.shape.size()); ++a)
    if (a != layout.laneAxis)
      rest *= layout.shape[a];
  const int64_t laneExtent = layout.shape.empty() ? 1 : layout.shape[layout.laneAxis];
  const int64_t slots = (laneExtent + lanes - 1) / lanes * rest;
  return slots * core::byteSize(layout.dtype);
}

int64_t alignUp(int64_t v, int64_t alignment) {
  return (v + alignment - 1) / alignment * alignment;
}

// An elementwise result may take the bytes of a source of the same layout
// that dies at that instruction (each lane reads an element before it writes
// that element): the two become one allocation.
void coalesce(const npu::Program &program, Liveness &liveness, std::vector<int> &root,
              const std::vector<int64_t> &size, const std::vector<int64_t> &offset) {
  for (size_t position = 0; position < liveness.order.size(); ++position) {
    const npu::Instruction &in = *liveness.order[position];
    if (in.opcode != npu::Opcode::VElementwise || in.dsts.size() != 1)
      continue;
    const int d = root[in.dsts[0]];
    Interval &dst = liveness.intervals[d];
    if (dst.first != static_cast<int64_t>(position))
      continue;
    const npu::TileLayout &dl = program.tiles[in.dsts[0]].layout;
    for (int src : in.srcs) {
      const int s = root[src];
      const npu::TileLayout &sl = program.tiles[src].layout;
      Interval &from = liveness.intervals[s];
      if (s == d || from.last != static_cast<int64_t>(position) || size[s] != size[d] || offset[src] != 0 ||
          offset[in.dsts[0]] != 0 || sl.shape != dl.shape || sl.laneAxis != dl.laneAxis ||
          core::byteSize(sl.dtype) != core::byteSize(dl.dtype))
        continue;
      for (int &r : root)
        if (r == d)
          r = s;
      from.last = dst.last;
      dst = Interval{};
      break;
    }
  }
}

/// Marks the storage root of every tile a DMA load writes (loops and
/// branches included).
void markLoadDestinations(const std::vector<npu::Instruction> &body, const std::vector<int> &root,
                          std::vector<bool> &marked) {
  for (const npu::Instruction &instruction : body) {
    if (instruction.opcode == npu::Opcode::DmaLoad)
      for (int t : instruction.dsts)
        marked[static_cast<size_t>(root[static_cast<size_t>(t)])] = true;
    markLoadDestinations(instruction.body, root, marked);
    markLoadDestinations(instruction.elseBody, root, marked);
  }
}

} // namespace

std::vector<int> tilesRead(const npu::Instruction &instruction) {
  std::vector<int> tiles = instruction.srcs;
  if (instruction.dma.indexTile >= 0)
    tiles.push_back(instruction.dma.indexTile);
  if (instruction.dma.maskTile >= 0)
    tiles.push_back(instruction.dma.maskTile);
  if (instruction.opcode == npu::Opcode::MMatmul && instruction.accumulate)
    tiles.insert(tiles.end(), instruction.dsts.begin(), instruction.dsts.end());
  return tiles;
}

std::vector<int> tilesWritten(const npu::Instruction &instruction) {
  return instruction.dsts;
}

ScratchpadOverflow::ScratchpadOverflow(core::SourceLocation where, const std::string &kernelName,
                                       int64_t needed, int64_t available)
    : core::CompileError(std::move(where), "kernel " + kernelName + ": the scratchpad plan needs " +
                                               std::to_string(needed) + " bytes per lane, the bank has " +
                                               std::to_string(available)),
      bytesNeeded(needed), bytesAvailable(available) {}

void planScratchpad(npu::Program &program, const TileStorage &storage, int64_t alignment,
                    const core::SourceLocation &where) {
  const size_t n = program.tiles.size();
  std::vector<int64_t> size(n, 0);
  for (size_t t = 0; t < n; ++t) {
    const int root = storage.root[t];
    size[root] =
        std::max(size[root], alignUp(storage.offset[t] + bytesPerLane(program.tiles[t].layout, program.lanes),
                                     alignment));
  }
  std::vector<int> root = storage.root;
  Liveness liveness(n, root);
  liveness.walk(program.body);
  liveness.extendOverLoops();
  coalesce(program, liveness, root, size, storage.offset);

  std::vector<int> order;
  for (size_t t = 0; t < n; ++t)
    if (root[t] == static_cast<int>(t))
      order.push_back(static_cast<int>(t));
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return liveness.intervals[a].first < liveness.intervals[b].first; });
  std::vector<int64_t> offset(n, 0);
  const int64_t half = program.spadBytesPerLane / 2 / alignment * alignment;
  // Every allocation its own bytes when they all fit in half the bank: tiles
  // that would share bytes only because their lifetimes do not overlap make
  // one unit wait for another (a load into the bytes a broadcast still reads),
  // which serialises DMA against compute within and across instances.
  int64_t unshared = 0;
  for (int t : order)
    if (liveness.intervals[t].first >= 0)
      unshared += size[t];
  const bool privateBytes = unshared <= half;
  // First fit of the tiles `pick` selects, in order, from `base` up: a tile
  // takes the lowest offset no tile live beside it holds. Returns the peak.
  auto firstFit = [&](const std::vector<bool> &pick, int64_t base) {
    std::multimap<int64_t, int> active; // offset -> root, of the tiles live now
    int64_t peak = base;
    for (int t : order) {
      const Interval &in = liveness.intervals[t];
      if (!pick[static_cast<size_t>(t)] || in.first < 0)
        continue; // another group's, or never accessed: needs no bytes
      for (auto it = active.begin(); it != active.end();)
        it = liveness.intervals[it->second].last < in.first ? active.erase(it) : std::next(it);
      int64_t candidate = base;
      for (const auto &[start, other] : active) {
        if (candidate + size[t] <= start)
          break;
        candidate = std::max(candidate, start + size[other]);
      }
      offset[t] = candidate;
      active.emplace(candidate, t);
      peak = std::max(peak, candidate + size[t]);
    }
    return peak;
  };
  // Offsets: the tiles `own` marks from 0 up, each with bytes of its own
  // (`shareAmongOwn` false) or first fit among themselves; the others first
  // fit above them. Returns the peak.
  auto place = [&](const std::vector<bool> &own, bool shareAmongOwn) {
    int64_t base = 0;
    if (shareAmongOwn) {
      base = firstFit(own, 0);
    } else {
      for (int t : order)
        if (own[static_cast<size_t>(t)] && liveness.intervals[t].first >= 0) {
          offset[t] = base;
          base += size[t];
        }
    }
    std::vector<bool> rest(n);
    for (size_t t = 0; t < n; ++t)
      rest[t] = !own[t];
    return std::max(base, firstFit(rest, base));
  };
  int64_t peak = 0;
  if (privateBytes) {
    peak = place(std::vector<bool>(n, true), false);
  } else {
    // Where they do not all fit: the DMA loads' destinations alone get bytes
    // of their own when that still fits half the bank, so that no load waits
    // for the last reader of a tile another unit used before it (a loop's
    // next A tile behind the stores of the products that took its bytes).
    // Else they share bytes among themselves, first fit, in a region of
    // their own: a load then waits only for an earlier load's readers (the
    // dots of the tile it replaces, a ring of buffers), never for a store
    // (a loop unrolled four times over a resident GEMM's A tiles in pieces:
    // 3337 x 540 x 546 took 70,881 cycles with the products in the A tiles'
    // bytes). Otherwise every tile first fit.
    std::vector<bool> loaded(n, false);
    markLoadDestinations(program.body, root, loaded);
    peak = place(loaded, false);
    if (peak > half)
      peak = place(loaded, true);
    if (peak > half)
      peak = place(std::vector<bool>(n, false), false);
  }
  for (size_t t = 0; t < n; ++t)
    program.tiles[t].bankOffset = offset[root[t]] + storage.offset[t];
  program.spadBytesUsed = peak;
  if (peak > program.spadBytesPerLane)
    throw ScratchpadOverflow(where, program.kernelName, peak, program.spadBytesPerLane);
  program.instanceBankStride = peak <= half ? half : 0;
}

} // namespace npusim::compiler
