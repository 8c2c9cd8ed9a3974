#pragma once
// Everything the timing model needs about one static instruction of a
// program, computed once per launch: its unit, cost, tiles, registers and work.
// Executed instructions (npu::ExecutedInstruction) point at static ones, so a
// loop body executed a million times is analysed once.
#include "config/hardware.h"
#include "npu/program.h"
#include "timing/core/dependency_tracker.h"
#include "machine/unit_costs.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace npusim::timing {

// The machine's costs and address mapping (src/machine), as timing names them.
using machine::UnitKind;
using machine::kNumUnitKinds;
using machine::unitKindName;
using machine::unitKindOf;
using machine::VectorClass;
using machine::vectorClassOf;
using machine::vectorLatency;
using machine::UnitCost;
using machine::ceilLog2;
using machine::costOf;
using machine::vectorElementBytes;
using machine::usefulMacs;
using machine::matmulRows;

/// Where a core executes an instruction. Slots are the in-order queues: 0
/// scalar, 1 DMA loads, 2 DMA stores (and atomics), 3 vector, 4 cross-lane,
/// 5 + a systolic array a. Loads and stores queue separately, so that the next
/// instance's loads need not wait behind this instance's stores. Completion
/// streams split the slots into pipelines whose instructions complete in the
/// order they start (docs/timing.md, "Dependencies").
struct SlotLayout {
  static constexpr int kScalar = 0, kDmaLoad = 1, kDmaStore = 2, kVector = 3, kCrossLane = 4, kFirstArray = 5;
  static constexpr int kScalarStream = 0, kScalarMemoryStream = 1, kDmaLoadStream = 2, kDmaStoreStream = 3,
                       kVectorStream = 4, kCrossLaneStream = 5, kFirstArrayStream = 6;
  int arrays = 1;

  int numSlots() const { return kFirstArray + arrays; }
  int numStreams() const { return kFirstArrayStream + 2 * arrays; }
  static int arrayLoadStream(int array) { return kFirstArrayStream + 2 * array; }
  static int arrayComputeStream(int array) { return kFirstArrayStream + 2 * array + 1; }
  /// Names of the slots, for traces.
  std::vector<std::string> slotNames() const;
};

struct InstructionInfo {
  const npu::Instruction *instruction = nullptr;
  UnitKind unit = UnitKind::Scalar;
  int slot = 0;
  int stream = 0;
  UnitCost cost;             // core cycles; DMA and scalar memory wait add to it
  bool memoryAccess = false; // SLoad, SStore: the scalar unit waits for DRAM
  std::vector<int> tilesRead, tilesWritten;
  std::vector<int> registersRead;
  int registerWritten = -1;
  bool barrier = false;
  int64_t macs = 0;
  int vectorElementBytes = 0;     // vector instructions
  int64_t resultElements = 0;     // vector instructions: elements of the result tile
  // For the energy counts (timing/activity.h).
  core::DType macDtype = core::DType::Float32;       // systolic: the A operand's dtype
  VectorClass vectorClass = VectorClass::Simple;     // vector instructions
  int64_t spadBytesRead = 0, spadBytesWritten = 0;   // tiles read and written (arrays: their blocks)
  int dmaElementBytes = 0;                           // DMA: bytes of one element of its tile
};

class InstructionCatalog {
public:
  InstructionCatalog(const npu::Program &program, const config::HardwareConfig &config);

  /// The analysis of an instruction of the program; throws core::RuntimeError
  /// for a null instruction or one naming tiles the program lacks.
  const InstructionInfo &info(const npu::Instruction *instruction);
  /// Bytes of the lane banks a tile occupies in an instance placed `shift`
  /// bytes higher (double buffering).
  BankRange tileRange(int tile, int64_t shift) const;
  const SlotLayout &slots() const { return slots_; }

private:
  /// The scratchpad bytes of the blocks an array instruction reads and
  /// writes, and an MMatmul's MAC dtype (into `info`).
  void countArrayBytes(const npu::Instruction &instruction, InstructionInfo &info) const;

  const npu::Program &program_;
  const config::HardwareConfig &config_;
  SlotLayout slots_;
  std::vector<BankRange> tileRanges_;
  std::unordered_map<const npu::Instruction *, std::unique_ptr<InstructionInfo>> infos_;
};

} // namespace npusim::timing
