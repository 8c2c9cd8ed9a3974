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

/// Whether timing this program needs element values (not only scalars and
/// addresses): a gathered or scattered DMA needs its index tile, and a value
/// loaded from DRAM that steers control flow or an address needs the load.
/// `reason` gets a sentence naming the instruction, for reports.
bool timingNeedsValues(const Program &program, std::string *reason);

} // namespace npusim::npu
