#pragma once
// Runs one kernel source through the reference interpreter and through
// compile + the functional simulator on the same deterministic inputs, and
// compares every pointer buffer afterwards.
#include "config/hardware.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace npusim::differential {

/// The default machine (128 lanes) and an 8-lane machine with 32 KiB per lane.
config::HardwareConfig defaultMachine();
config::HardwareConfig eightLaneMachine();

struct DifferentialRun {
  std::string source;   // the whole kernel file
  std::string fileName; // for error messages
  /// Elements of each pointer parameter's buffer; a parameter not named here
  /// starts at the product of the numels and grows until the reference stays
  /// inside its buffers.
  std::map<std::string, int64_t> bufferElements;
  /// Integer scalar arguments (xnumel, ...); one not named here takes the
  /// value the kernel body binds it to, else its size hint.
  std::map<std::string, int64_t> scalarArguments;
  uint64_t inputSeed = 1;
  /// The reference picks its own block sizes (triton::defaultConstexprs with
  /// this tile budget), so results must not depend on block sizes.
  int64_t referenceMaxTileElements = 4096;
  /// Non-zero: the NPU first tries random power-of-two block sizes drawn from
  /// this seed (any sizes are legal), then compiler::proposeBlockSizes' list.
  uint64_t npuBlockSeed = 0;
};

enum class Verdict {
  Match,
  Mismatch, // the NPU differs from the reference, or compile / the simulator failed
  Invalid,  // the front end or the reference rejects the kernel (a generator fault)
};

struct RunResult {
  Verdict verdict = Verdict::Match;
  std::string machine; // where it failed
  std::string detail;
  /// Elements the reference changed (a kernel that writes nothing tests nothing).
  int64_t elementsChanged = 0;
};

/// Runs the reference once, then the NPU on each machine; stops at the first failure.
RunResult runDifferential(const DifferentialRun &run, const std::vector<config::HardwareConfig> &machines);

/// An environment variable as a number, or the fallback when unset or empty.
uint64_t environmentNumber(const char *name, uint64_t fallback);

} // namespace npusim::differential
