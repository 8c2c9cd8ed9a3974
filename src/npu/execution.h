#pragma once
// What one execution of an NPU program did, instruction by instruction: the
// contract between the functional simulator (which produces it) and the timing
// simulator (which times it). Loops appear unrolled: each executed instance of a
// body instruction is one record.
#include "npu/program.h"

#include <cstdint>
#include <vector>

namespace npusim::npu {

/// A contiguous range of DRAM bytes one instruction transferred, in the flat
/// address space the runtime lays buffers out in.
struct DramRun {
  uint64_t address = 0;
  uint32_t bytes = 0;
  bool write = false;
};

/// One instruction as one program instance executed it.
struct ExecutedInstruction {
  const Instruction *instruction = nullptr;
  /// DMA, SLoad, SStore: the DRAM bytes touched, adjacent ranges merged, in
  /// the order the engine issues them (row-major over the tile).
  std::vector<DramRun> dram;
  /// DMA: elements transferred (mask true); vector and cross-lane operations:
  /// elements of the result.
  int64_t elements = 0;
  /// MMatmul: the rows of A that streamed through the array (its row bound,
  /// clamped to [0, M]; 0 for a block wholly past its column bound);
  /// MLoadWeights: 0 for a block wholly past its column bound; -1 otherwise.
  int64_t streamedRows = -1;
};

/// The executed instructions of one program instance, in program order.
struct InstanceTrace {
  int64_t instance = 0; // linear program id: x + gridX * (y + gridY * z)
  std::vector<ExecutedInstruction> instructions;
};

/// Receives each instance's trace as soon as the instance has run.
class ExecutionListener {
public:
  virtual ~ExecutionListener() = default;
  virtual void instanceDone(InstanceTrace &&trace) = 0;
};

/// What timing a program needs beyond scalars and strided addresses.
enum class ValueNeed : uint8_t {
  None,         // scalars, DMA descriptors and the tiles an address-only run
                // computes on the vector units (masks, gather indices from
                // program ids and constants) give every address
  OwnValues,    // an assert, or an index tile made from program ids and
                // constants through another unit (the systolic arrays): the
                // program must compute values, whatever its inputs hold
  LoadedValues, // an address, a loop bound, a branch or an assert depends on a
                // value loaded from DRAM: the inputs must hold their real values
};

/// `reason` gets a sentence naming the instruction, for reports. For
/// LoadedValues, `arguments` (when given) gets the indices of the pointer
/// arguments whose loaded contents the addresses, control or asserts depend on.
ValueNeed timingValueNeed(const Program &program, std::string *reason, std::vector<int> *arguments = nullptr);

/// timingValueNeed(...) != ValueNeed::None.
bool timingNeedsValues(const Program &program, std::string *reason);

} // namespace npusim::npu
