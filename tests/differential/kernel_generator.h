#pragma once
// Random Inductor-style Triton kernels for the differential test: from a seed,
// the source text of one kernel (pointwise 1-D or 2-D, persistent or looped
// reduction) with random sizes, strides, masks, broadcasts, reductions, dtypes
// and elementwise expression trees, plus how large each buffer must be.
#include "core/dtype.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace npusim::differential {

/// One pointer parameter: the elements its buffer needs so that every active
/// element the kernel touches lies inside it.
struct GeneratedBuffer {
  std::string name;
  core::DType dtype = core::DType::Float32;
  int64_t elements = 1;
  bool written = false;
};

struct GeneratedKernel {
  uint64_t seed = 0;
  std::string family; // "pointwise1d", "pointwise2d", "persistent", "looped"
  std::string name;   // the kernel's def name
  std::string source; // a whole kernel file, as Inductor writes one
  std::vector<GeneratedBuffer> buffers;
  /// Values of the integer scalar parameters (xnumel, r0_numel, ...): the
  /// kernel body bakes most of them in, as Inductor does for static shapes;
  /// the others are true run-time arguments (dynamic shapes).
  std::map<std::string, int64_t> scalars;
};

/// The same seed gives the same kernel on every platform (the generator uses
/// its own integer arithmetic, no std distributions).
GeneratedKernel generateKernel(uint64_t seed);

} // namespace npusim::differential
