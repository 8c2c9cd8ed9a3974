#pragma once
// The DRAM bytes a step cannot avoid (internal to the runtime): every element
// its input views address read once and every element its outputs address
// written once, whatever its program does. The honest roofline of a timed
// step is its compute bound against these bytes at the DRAM's peak, so that a
// mapping that re-reads its operands does not raise its own roofline
// (docs/reports.md, "Roofline"). Where the step ran on the NPU, what its
// programs touched bounds them too: a gather reads the rows its indices name,
// not the table its view spans.
#include "runtime/bundle.h"

#include <cstdint>
#include <map>

namespace npusim::runtime {

struct CompulsoryBytes {
  int64_t read = 0, written = 0;
  int64_t total() const { return read + written; }
};

/// The distinct DRAM bytes a step's programs read and wrote in one storage
/// (touched_bytes.h).
struct TouchedStorage {
  int64_t read = 0, written = 0;
};
using TouchedByStorage = std::map<int64_t, TouchedStorage>; // by storage id

/// A launch reads every tensor argument but the pure outputs (`out_ptr*`
/// parameters it writes) and writes those in `writes`; a call reads its
/// tensor arguments (in lists too) and writes its outputs. A view's elements
/// are its extent over the axes of non-zero stride, at most its storage's;
/// the views of one storage add up to at most the storage. With `touched`
/// (the step ran as NPU programs), each storage's bytes are at most what
/// the programs touched of it (none for a storage they left alone).
CompulsoryBytes compulsoryBytes(const Step &step, const std::vector<Storage> &storages,
                                const TouchedByStorage *touched = nullptr);

} // namespace npusim::runtime
