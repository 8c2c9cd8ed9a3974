#pragma once
// What the units of a launch did, counted for the energy model (src/energy):
// the work each unit performed, not when. Counting changes no cycle.
// docs/energy.md says how each count is taken and what it is charged.
#include "core/dtype.h"
#include "machine/unit_costs.h"

#include <array>
#include <cstdint>

namespace npusim::timing {

inline constexpr int kNumVectorClasses = 4; // machine::VectorClass

struct Activity {
  /// Useful multiply-accumulates of the systolic arrays, by the dtype of the
  /// streamed (A) operand (core::DType order).
  std::array<int64_t, core::kNumDTypes> macsByDtype{};
  /// Result elements of vector instructions by latency class
  /// (machine::VectorClass order); reductions, scans and sorts count as Simple.
  std::array<int64_t, kNumVectorClasses> vectorOpsByClass{};
  /// Result elements of cross-lane instructions.
  int64_t crossLaneOps = 0;
  /// Scalar-unit instructions (control, scalar arithmetic, scalar loads and stores).
  int64_t scalarInstructions = 0;
  /// Scratchpad traffic: bytes of the tiles each instruction reads and writes
  /// (a DMA load writes, a store reads, the elements it transfers).
  int64_t spadBytesRead = 0, spadBytesWritten = 0;
  /// DMA instructions executed (each one descriptor).
  int64_t dmaDescriptors = 0;

  void add(const Activity &other) {
    for (size_t i = 0; i < macsByDtype.size(); ++i)
      macsByDtype[i] += other.macsByDtype[i];
    for (size_t i = 0; i < vectorOpsByClass.size(); ++i)
      vectorOpsByClass[i] += other.vectorOpsByClass[i];
    crossLaneOps += other.crossLaneOps;
    scalarInstructions += other.scalarInstructions;
    spadBytesRead += other.spadBytesRead;
    spadBytesWritten += other.spadBytesWritten;
    dmaDescriptors += other.dmaDescriptors;
  }
};

} // namespace npusim::timing
