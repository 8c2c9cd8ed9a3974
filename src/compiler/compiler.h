#pragma once
// The NPU compiler: one TileIR function (one Triton kernel for fixed constexprs)
// -> one NPU program (npu/program.h) for a given machine. docs/compiler.md
// describes the passes and the decisions they make.
#include "config/hardware.h"
#include "core/error.h"
#include "ir/ir.h"
#include "npu/program.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace npusim::compiler {

/// Thrown when the scratchpad plan of a kernel does not fit one lane's bank.
/// The caller usually retries with smaller block sizes.
class ScratchpadOverflow : public core::CompileError {
public:
  ScratchpadOverflow(core::SourceLocation where, const std::string &kernelName, int64_t needed, int64_t available);
  int64_t bytesNeeded = 0;
  int64_t bytesAvailable = 0;
};

/// One stage of turning a kernel into an NPU program.
struct Stage {
  /// Mapping: the library's tile choice for a library call's GEMM-shaped
  /// kernels, before their source exists; BlockSizes: the block-size search,
  /// before TileIR exists (both run by their callers); the others run by compile.
  enum class Kind { Mapping, BlockSizes, TileIRPass, Lowering, Schedule, ScratchpadPlan };
  std::string_view name; // a TileIR pass: its name in transform::findPass
  Kind kind;
  /// The module whose code runs the stage ("library", "compiler", "transform").
  std::string_view module;
  /// Left out when the scratchpad plan overflows (the stages then run again
  /// without it).
  bool droppedOnOverflow;
  std::string_view summary;
};

/// Every stage, in order (docs/compiler.md, "Stages"): first those the
/// callers run before TileIR exists, the mapping of a library call's GEMMs
/// (library::planCall bakes the tiles of its registered mapping strategy into
/// the kernel source) and the block-size search (searchBlockSizes, with the
/// front end lowering each candidate, since block sizes are constexprs); then
/// the stages compile runs.
std::span<const Stage> pipeline();

/// Compiles one kernel: the stages of pipeline() after the block sizes, on a
/// copy of `function`. Throws core::CompileError naming the kernel and the
/// TileIR source location for constructs the NPU cannot run, and
/// ScratchpadOverflow when the tiles do not fit the scratchpad.
npu::Program compile(const ir::Function &function, const config::HardwareConfig &machine);

/// One block-size constexpr of an Inductor kernel: its name (XBLOCK, YBLOCK,
/// R0_BLOCK, RBLOCK, ...), the number of elements of the axis it tiles, and
/// whether that axis is reduced.
struct BlockParameter {
  std::string name;
  int64_t numel = 1;
  bool reduction = false;
  /// The kernel is only correct for blocks that divide numel (Inductor left out
  /// the axis's mask because the launch's block divided it).
  bool mustDivide = false;
};

/// Values for every block parameter, in the parameters' order.
struct BlockChoice {
  std::vector<std::pair<std::string, int64_t>> values;
};

/// Block sizes for a kernel of the given Inductor kind ("pointwise",
/// "reduction", "persistent_reduction", "template", ...), largest first: the
/// caller lowers and compiles with each until one fits. Persistent reductions
/// keep their reduction block >= next_pow2(numel). Sizes are powers of two
/// chosen so that one program instance plans at most half the scratchpad.
std::vector<BlockChoice> proposeBlockSizes(std::string_view kind, const std::vector<BlockParameter> &parameters,
                                           const config::HardwareConfig &machine);

} // namespace npusim::compiler
