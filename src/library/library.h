#pragma once
// NPU implementations of the library calls that bundles contain (aten.mm,
// addmm, bmm, baddbmm, convolution and its backward, scaled-dot-product
// attention, topk, _grouped_mm and transformers.grouped_mm_fallback, histc,
// embeddings, fills and copies, add and sub, index_put, scatter, randint), as
// Triton kernels that the normal pipeline compiles: the GEMMs and convolutions
// run on the systolic arrays (tl.dot), epilogues on the vector unit.
//
// planCall turns one call into launches of kernels whose sources live in this
// module (kernels_*.cpp). Sizes and strides are baked into each launch as
// constexprs, as Inductor does, so that pointer arithmetic stays affine. The
// interface uses no type of another module: tensors name buffers by number and
// the caller maps those numbers to its own storages. docs/library-kernels.md
// describes the kernels, their tiling and their numerics.
#include "config/hardware.h"
#include "core/dtype.h"
#include "core/operator_call.h"

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace npusim::library {

/// A strided view on a buffer, counted in elements: element [i0, i1, ...] is
/// buffer element offset + sum(i_k * stride[k]).
struct TensorRef {
  int buffer = -1;
  int64_t offset = 0;
  std::vector<int64_t> shape, stride;
  core::DType dtype = core::DType::Float32;
};

/// One positional argument of a library call, in the schema's order
/// (core::findSchema; docs/library-calls.md), tensors naming buffers by number.
using CallArgument = core::CallValue<TensorRef>;

/// The value of one run-time (non-constexpr) kernel parameter.
struct KernelArgument {
  bool isPointer = false;
  int buffer = -1;           // pointers: the buffer (a TensorRef's, or a scratch buffer's id)...
  int64_t elementOffset = 0; // ...and the element the pointer points at
  int64_t intValue = 0;      // integer scalars
  double floatValue = 0.0;   // float scalars
};

/// One kernel launch: a Triton source file in Inductor's style (one
/// @triton.jit kernel with typed parameters), the constexpr values of this
/// launch, the grid, and one argument per run-time parameter in def order.
struct KernelLaunch {
  std::string kernelName; // unique per source text
  std::string source;
  std::vector<std::pair<std::string, int64_t>> constexprs;
  int64_t grid[3] = {1, 1, 1};
  std::vector<KernelArgument> arguments;
};

/// A temporary buffer a plan needs. Scratch buffer i has the id
/// scratchBufferBase(args, outs) + i: numbered after every buffer the call names.
struct ScratchBuffer {
  core::DType dtype = core::DType::Float32;
  int64_t elements = 0;
};

/// The launches that compute a call, in order, and per entry of `outs`
/// whether the call defines its values (false for results PyTorch leaves
/// unspecified, such as attention's philox seed; those are not written).
struct CallPlan {
  std::vector<KernelLaunch> launches;
  std::vector<ScratchBuffer> scratch;
  std::vector<bool> outputDefined;
};

/// Tiles of one GEMM shape from an external mapping (`--mapping FILE.json`).
struct GemmTiles {
  int64_t tileM = 0, tileN = 0, tileK = 0;
  std::string where; // "FILE.json: \"M_N_K\"", for errors
};

/// The parts of the NPU that choose block sizes, and the machine's latencies
/// the estimates charge (src/machine); machineShapeOf() reads them all from a
/// hardware description.
struct MachineShape {
  /// Lanes, scratchpad and vector width as given; the latencies those of the
  /// default preset (config::defaultConfig()).
  MachineShape(int lanes_ = 128, int64_t spadBytesPerLane_ = 128 * 1024, int vlenBits_ = 256);
  int lanes = 128;                          // systolic array width = vector lanes
  int64_t spadBytesPerLane = 128 * 1024;    // scratchpad bytes per lane
  int vlenBits = 256;                       // vector register width per lane
  int systolicArrays = 2;                   // arrays per core
  double dramBytesPerCycle = 512;           // peak DRAM bandwidth per core clock
  int cores = 1;                            // cores a launch's programs are spread over
  double dramLatencyCycles = 0;             // a DRAM read with nothing queued (machine::dramRoundTripCycles)
  int64_t dmaRequestBytes = 64;             // the DMA's request granule (HardwareConfig::dmaRequestBytes)
  /// Core cycles one pass over an array costs beyond its rows: the weight
  /// load, fill and drain (machine::arrayPassOverheadCycles).
  double arrayPassOverheadCycles() const;
  std::map<std::string, GemmTiles> mapping; // external tiles by "M_N_K" (GEMM rows, columns, reduction)
  /// The mapping strategy of the shapes `mapping` does not name, by its
  /// registered name (mappingStrategies(); docs/library-kernels.md).
  std::string mappingStrategy = "search";
  /// The GEMM kernel of mm, addmm, bmm and baddbmm (and of the 1x1
  /// convolutions planned as GEMMs): "" picks tiled or resident by the cost
  /// estimates; "tiled", "resident", "pipelined", "deep-k" or "vector" (gemmKernels()) asks for
  /// that one, and planCall throws core::RuntimeError where it cannot run
  /// the call (docs/library-kernels.md, "GEMM kernels").
  std::string gemmKernel;
  /// The kernel of aten.convolution: "" or "implicit" the one the layer's
  /// shape selects (docs/library-kernels.md, "Operators"); "shifted" the
  /// shifted-tap kernel, "window" the window kernel, where they apply
  /// (convKernels()).
  std::string convKernel;
  /// The kernel of the scaled-dot-product attention calls: "" or "rows" the
  /// scores by query rows, "columns" transposed (attentionKernels()).
  std::string attentionKernel;
};

/// The shape and latencies of a machine: lanes, scratchpad, vector width,
/// arrays and cores, its DRAM's peak bytes per core cycle and round trip.
MachineShape machineShapeOf(const config::HardwareConfig &machine);

/// The convolution kernels MachineShape::convKernel may name.
/// "a, b, c": the names of a kernel list, for messages.
std::string joinNames(const std::vector<std::string> &names);

const std::vector<std::string> &convKernels();
/// Whether `op` is a convolution call convKernel applies to.
bool isConvolutionCall(std::string_view op);
/// The attention kernels MachineShape::attentionKernel may name.
const std::vector<std::string> &attentionKernels();
/// Whether `op` is an attention (forward) call attentionKernel applies to.
bool isAttentionCall(std::string_view op);

/// The GEMM kernels MachineShape::gemmKernel may name, in the order ties go.
const std::vector<std::string> &gemmKernels();
/// Whether `op` is one of the GEMM calls gemmKernel applies to.
bool isGemmCall(std::string_view op);

/// Plans the call `op` ("aten.mm", "aten.convolution", ...; "aten.X.default"
/// means "aten.X") on `args` (positional, schema order; missing trailing ones
/// take the schema's defaults) writing `outs` (one per result; null: a result
/// the caller does not record, which is then not written). Throws
/// core::RuntimeError naming the operator and the argument at fault, also for
/// a planned operator whose arguments this module does not implement (such as
/// transposed convolutions).
CallPlan planCall(std::string_view op, std::span<const CallArgument> args,
                  std::span<const TensorRef *const> outs, const MachineShape &machine);

/// The registered mapping strategies (names for MachineShape::mappingStrategy), sorted.
std::vector<std::string> mappingStrategies();

/// Whether planCall implements `op`.
bool isPlanned(std::string_view op);
/// The operators planCall implements.
std::vector<std::string> plannedOperators();

/// The first scratch buffer id of a plan for these arguments: one more than
/// the largest buffer id they name (0 when they name none).
int scratchBufferBase(std::span<const CallArgument> args, std::span<const TensorRef *const> outs);

} // namespace npusim::library
