#pragma once
// What one instruction costs on its functional unit, as pure functions of the
// instruction, its tiles and the hardware description: the one home of these
// costs, which the timing simulator schedules and the compiler's cost model
// adds up. docs/timing.md ("Unit costs") derives every formula.
#include "config/hardware.h"
#include "npu/program.h"

#include <cstdint>
#include <string_view>

namespace npusim::machine {

/// The units whose busy time a launch reports. Control instructions (Loop, If,
/// Barrier) and scalar-only asserts run on the scalar unit.
enum class UnitKind : uint8_t { Scalar, Dma, Vector, CrossLane, Systolic };
inline constexpr int kNumUnitKinds = 5;
std::string_view unitKindName(UnitKind kind);

UnitKind unitKindOf(const npu::Instruction &instruction);

/// Latency classes of the vector unit (config::VectorLatencies).
enum class VectorClass : uint8_t { Simple, Multiply, Divide, Transcendental };
VectorClass vectorClassOf(const npu::ElementFunction &function);
int vectorLatency(const config::VectorLatencies &latencies, VectorClass cls);

/// A pipelined unit's view of one instruction, in core cycles: the unit can
/// start its next instruction `occupancy` cycles after this one started, and the
/// result is complete `latency` cycles after the start (latency >= occupancy).
struct UnitCost {
  int64_t occupancy = 0;
  int64_t latency = 0;
};

/// ceil(log2(n)) for n >= 1; 0 for n <= 1.
int ceilLog2(int64_t n);

/// Costs of the compute units. `program` gives the tiles the instruction names.
/// Scalar and DMA instructions are timed by the core model (they wait for
/// memory); costOf returns their fixed part: scalarLatency, or 0 for a DMA.
UnitCost costOf(const npu::Instruction &instruction, const npu::Program &program,
                const config::HardwareConfig &config);

/// Element size the vector unit processes an instruction at: the widest dtype
/// among the tiles it reads and writes (at least 1 byte).
int vectorElementBytes(const npu::Instruction &instruction, const npu::Program &program);

/// Multiply-accumulates an MMatmul performs that contribute to the result:
/// M rows x the K extent of its block x the N extent of its block (padding
/// of a partial block excluded). 0 for other instructions.
int64_t usefulMacs(const npu::Instruction &instruction, const npu::Program &program, int lanes);

/// Rows an MMatmul streams through the array: the A tile's elements divided by
/// its last (K) axis.
int64_t matmulRows(const npu::Instruction &instruction, const npu::Program &program);

} // namespace npusim::machine
