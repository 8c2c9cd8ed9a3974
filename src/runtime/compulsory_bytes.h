#pragma once
// The DRAM bytes a step cannot avoid (internal to the runtime): every element
// its input views address read once and every element its outputs address
// written once, whatever its program does. The honest roofline of a timed
// step is its compute bound against these bytes at the DRAM's peak, so that a
// mapping that re-reads its operands does not raise its own roofline
// (docs/reports.md, "Roofline").
#include "runtime/bundle.h"

#include <cstdint>

namespace npusim::runtime {

struct CompulsoryBytes {
  int64_t read = 0, written = 0;
  int64_t total() const { return read + written; }
};

/// A launch reads every tensor argument but the pure outputs (`out_ptr*`
/// parameters it writes) and writes those in `writes`; a call reads its
/// tensor arguments (in lists too) and writes its outputs. A view's elements
/// are its extent over the axes of non-zero stride, at most its storage's;
/// the views of one storage add up to at most the storage.
CompulsoryBytes compulsoryBytes(const Step &step, const std::vector<Storage> &storages);

} // namespace npusim::runtime
