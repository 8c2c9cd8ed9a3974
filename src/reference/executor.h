#pragma once
// The op dispatcher: runs the program instances of one launch over a flat array
// of tiles indexed by ir::Value::id (internal to the reference module).
#include "reference/analysis.h"
#include "reference/interpreter.h"
#include "reference/kernels.h"
#include "reference/memory.h"

#include <string>
#include <vector>

namespace npusim::reference {

class Executor {
public:
  /// The arguments must have been checked against the parameters (interpreter.cpp).
  Executor(const ir::Function &function, const Analysis &analysis, const Grid &grid,
           std::vector<Argument> &arguments, const LaunchOptions &options);

  void runProgram(int64_t x, int64_t y, int64_t z);
  const LaunchStats &stats() const { return stats_; }

private:
  /// Runs the ops of a block up to its terminator; returns the terminating
  /// Yield (or null when the block has none).
  const ir::Op *runBlock(const ir::Block &block);
  void execute(const ir::Op &op);
  /// "kernel 'NAME', program (X, Y, Z), at FILE:LINE:COL: "
  std::string context(const ir::Op &op) const;

  // Tiles of values. A value of type T holds numElements(T) * lanes_ elements:
  // lanes_ is 1 except while a combine region runs on all lanes at once.
  int64_t count(const ir::Value *v) const {
    return analysis_.numElements[static_cast<size_t>(v->id)] * lanes_;
  }
  Tile &tile(const ir::Value *v) { return tiles_[static_cast<size_t>(v->id)]; }
  const Tile &in(const ir::Op &op, size_t i) const { return tiles_[static_cast<size_t>(op.operands[i]->id)]; }
  Tile &def(const ir::Value *v) {
    Tile &t = tiles_[static_cast<size_t>(v->id)];
    t.define(analysis_.storage[static_cast<size_t>(v->id)], count(v));
    return t;
  }
  int64_t scalarInt(const ir::Value *v) const { return tiles_[static_cast<size_t>(v->id)].i()[0]; }

  /// Moves the values a region yields into `destinations` (all read before any
  /// is written, so a yield may permute the region's own arguments).
  void transfer(const ir::Op &yield, const ir::Block &region, const std::vector<ir::Value *> &destinations,
                size_t firstDestination, size_t numDestinations);

  // Ops with more logic than a kernel call (control.cpp).
  void runFor(const ir::Op &op);
  void runIf(const ir::Op &op);
  void runReduce(const ir::Op &op);
  void runScan(const ir::Op &op);
  void runCombine(const ir::Op &op, bool isScan);
  void runAssert(const ir::Op &op);

  // Division-by-zero poison (DivisionByZero::ErrorWhenUsed, poison.cpp): a
  // poisoned element that reaches memory or control flow at an active element
  // is an error; elsewhere poison only propagates.
  void checkPoisonUse(const ir::Op &op) const;
  void propagatePoison(const ir::Op &op);
  void markDivisionByZero(const ir::Op &op);
  [[noreturn]] void poisonError(const std::string &use, uint8_t id) const;

  const ir::Function &function_;
  const Analysis &analysis_;
  const LaunchOptions &options_;
  Memory memory_;
  std::vector<Tile> tiles_;
  std::vector<Tile> transferScratch_;
  DotScratch dotScratch_;
  std::vector<const Tile *> mathOperands_;
  int64_t programId_[3] = {0, 0, 0};
  int64_t numPrograms_[3] = {1, 1, 1};
  int64_t lanes_ = 1;
  /// Source locations of this program's divisions by zero; poison byte i names
  /// divisionOrigins_[i - 1] (the last id stands for all beyond 254).
  std::vector<std::string> divisionOrigins_;
  LaunchStats stats_;
};

} // namespace npusim::reference
