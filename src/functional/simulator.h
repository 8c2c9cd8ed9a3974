#pragma once
// The functional NPU simulator: executes an NPU program (npu/program.h) for
// every program instance of a launch grid, over DRAM buffers and a lane-banked
// scratchpad, with the element numerics of the reference interpreter
// (core/element_math.h). docs/npu.md is the normative description.
//
// It is strict: each of these is a core::RuntimeError naming the kernel, the
// program instance, the instruction (opcode, position, TileIR source line) and
// the address or buffer: a DMA element outside its buffer (active elements
// only), vector-unit operands that do not share the element -> lane mapping, a
// tile outside the bank, a scratchpad read of bytes nothing wrote since the
// instance started, a reduce/scan/sort on the wrong unit for its axis, a
// failing assert.
#include "npu/execution.h"
#include "npu/program.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace npusim::functional {
namespace detail {
class Machine;
}

/// One DRAM buffer: `bytes` holds its elements (little-endian), `address` is
/// where it lies in the flat address space the trace reports.
struct DramBuffer {
  std::string name;
  core::DType dtype = core::DType::Float32;
  uint64_t address = 0;
  /// The contents, or null for a buffer of `absentBytes` bytes whose contents
  /// nothing the run computes depends on (the runtime's timing mode holds no
  /// weights or activations that no address, mask or control depends on):
  /// transfers check their bounds and give the trace as always, but loads give
  /// zeros and stores write nothing.
  std::vector<uint8_t> *bytes = nullptr;
  int64_t absentBytes = 0;

  int64_t size() const { return bytes ? static_cast<int64_t>(bytes->size()) : absentBytes; }
};

/// One program argument, in Program::arguments order. Pointers: `buffer`
/// indexes the DramBuffer list, `elementOffset` (in elements of the argument's
/// pointee dtype) is where the pointer points inside it. Scalars: intValue for
/// integers and bool, floatValue for floats.
struct LaunchArgument {
  int buffer = -1;
  int64_t elementOffset = 0;
  int64_t intValue = 0;
  double floatValue = 0.0;
};

struct Grid {
  int64_t x = 1, y = 1, z = 1;
  int64_t size() const { return x * y * z; }
};

/// Storage a launch's scratchpad uses, kept from one launch to the next so
/// that a run of many launches allocates (and faults in) its scratchpad
/// once: the banks, their written-bytes shadow and the tiles' element
/// positions. Any program may use it; one launch at a time.
class Workspace {
public:
  Workspace();
  ~Workspace();
  Workspace(const Workspace &) = delete;
  Workspace &operator=(const Workspace &) = delete;

private:
  friend class detail::Machine;
  struct Storage;
  std::unique_ptr<Storage> storage_;
};

struct RunOptions {
  /// false: only the scalar unit, control flow and DMA address generation run
  /// (no data moves, no checks on values), plus the vector and cross-lane work
  /// computed from program ids and constants alone, so that DMA masks are
  /// exact and the trace equals a run with values; for programs where
  /// npu::timingNeedsValues is false. Elements outside their buffer are left
  /// out of the trace.
  bool computeValues = true;
  npu::ExecutionListener *listener = nullptr;
  /// Instance i runs on core i % numCores; decides instanceBankStride placement.
  int numCores = 1;
  /// Most iterations one Loop instruction may run (a guard against runaway loops).
  int64_t maxLoopIterations = int64_t{1} << 31;
  /// Scratchpad storage reused between launches; null: the launch allocates its own.
  Workspace *workspace = nullptr;
  /// > 0: only the first this many instances run (in linear order, x
  /// fastest), for a launch timed on a sample of its instances. Their traces
  /// are those of the whole launch: instances run one after another, and none
  /// depends on a later one.
  int64_t firstInstances = 0;
};

struct RunStats {
  int64_t instances = 0;
  int64_t instructions = 0; // executed, loops unrolled
  int64_t dmaBytesRead = 0;  // DRAM -> scratchpad and scalar loads
  int64_t dmaBytesWritten = 0;
};

/// The bytes of one lane's bank that the simulator stores for `program`
/// (its tiles, both placements of an instance, padding), and the bytes a
/// launch of it allocates in all: the banks and their written-bytes shadow.
int64_t storedBankBytes(const npu::Program &program);
int64_t scratchpadStorageBytes(const npu::Program &program);

RunStats run(const npu::Program &program, const Grid &grid, std::vector<DramBuffer> &buffers,
             const std::vector<LaunchArgument> &arguments, const RunOptions &options = {});

} // namespace npusim::functional
