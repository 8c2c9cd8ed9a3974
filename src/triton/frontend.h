#pragma once
// The Triton front end: a kernel file as TorchInductor writes it -> its metadata
// and, for given constexpr values, a verified TileIR function.
#include "core/error.h"
#include "ir/ir.h"
#include "triton/ast.h"

#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace npusim::triton {

/// Which Inductor heuristic decorates the kernel (from `@triton_heuristics.X`).
enum class KernelKind { Pointwise, Reduction, PersistentReduction, Template, Foreach, Plain };
const char *name(KernelKind kind);

/// A compile-time value: an int, a float, a bool, or absent (None).
using ConstexprValue = std::variant<std::monostate, int64_t, double, bool>;
std::string toString(const ConstexprValue &value);

/// One parameter of the kernel's `def`, typed from `triton_meta['signature']`.
struct ParameterSpec {
  std::string name;
  std::string typeString; // as written: "*fp32", "i32", "constexpr"
  bool isConstexpr = false;
  bool isPointer = false;
  core::DType dtype = core::DType::Int32;     // element type (pointee for pointers)
  std::optional<ConstexprValue> defaultValue; // `XBLOCK: tl.constexpr = 64`, or triton_meta constants
  core::SourceLocation location;              // of the parameter in the def
};

/// What the decorators say about the kernel; read, checked and kept.
struct KernelMetadata {
  std::string kernelName; // the def's name
  KernelKind kind = KernelKind::Plain;
  std::vector<ParameterSpec> parameters; // in def order, constexprs included
  std::string gridType;                  // "Grid1D", "Grid2D", "Grid3D", "FixedGrid", ... or ""
  std::vector<std::string> mutatedArgNames;
  std::map<std::string, int64_t> sizeHints;         // {"x": 1024, "r0_": 512}
  std::map<std::string, ConstexprValue> configArgs; // template block sizes etc.
  std::map<std::string, ConstexprValue> constants;  // triton_meta['constants']
  std::string reductionHint;                        // "INNER", "OUTER", "DEFAULT", ...
  int numLoads = 0, numReductions = 0;
  /// Scalar parameters the kernel body re-binds to an integer literal at its top
  /// level (`xnumel = 1024`): Inductor bakes the sizes into the source this way,
  /// so the argument's value is unused and these are its natural defaults.
  std::map<std::string, int64_t> bodyConstants;
  /// Integer constexprs the kernel body binds at its top level
  /// (`BLOCK_M : tl.constexpr = 64`, as Inductor's templates carry their block
  /// sizes). lowerKernel's bindings may name them to lower the body with
  /// another value (docs/frontend.md, "Body constexprs").
  std::map<std::string, int64_t> bodyConstexprs;
  core::SourceLocation location; // of the def

  const ParameterSpec *findParameter(const std::string &name) const;
  /// Constexpr parameters without a default: block sizes the launcher must pick.
  std::vector<std::string> freeConstexprs() const;
};

/// A parsed and checked kernel file.
struct KernelFile {
  ast::Module module;
  KernelMetadata metadata;
  const ast::FunctionDef *kernel = nullptr; // the decorated kernel; other defs are helpers
};

/// Parses the file and reads the decorators. Throws core::CompileError.
KernelFile loadKernel(std::string_view source, std::string fileName);
/// Reads FILE from disk, then loadKernel. Throws core::CompileError (unreadable file too).
KernelFile loadKernelFile(const std::string &path);

using ConstexprBindings = std::map<std::string, ConstexprValue>;

/// A block-size constexpr of Inductor's kernels and the axis it tiles: XBLOCK
/// tiles xnumel (size hint "x"), R0_BLOCK and RBLOCK tile r0_numel / rnumel
/// (hint "r0_"), R1_BLOCK r1_numel. The one definition of this mapping.
struct BlockAxis {
  std::string_view block;         // "XBLOCK"
  std::string_view numelArgument; // "xnumel": the argument or body constant with the axis' length
  std::string_view hintKey;       // "x": the key in the size_hints
  bool reduction;                 // an r axis
  int programIdAxis;              // its program_id; -1 for an r axis (looped in one program)
};
/// Every block-size constexpr: XBLOCK, YBLOCK, ZBLOCK, R0_BLOCK, RBLOCK, R1_BLOCK.
std::span<const BlockAxis> blockAxes();
/// The axis the constexpr `block` tiles, or null when it is no block size.
const BlockAxis *findBlockAxis(std::string_view block);

/// Block sizes for the free constexprs of a kernel, chosen from its size hints
/// and kind within maxTileElements elements per tile (a launch is legal with any
/// power-of-two sizes; these are defaults).
ConstexprBindings defaultConstexprs(const KernelMetadata &metadata, int64_t maxTileElements = 4096);

/// Lowers the kernel to TileIR for the given constexpr values (every free
/// constexpr must be bound; a body constexpr named here replaces the value
/// its top-level assignment gives) and verifies it. Helper `@triton.jit` functions are
/// inlined. Throws core::CompileError naming file, line and column.
std::unique_ptr<ir::Function> lowerKernel(const KernelFile &file, const ConstexprBindings &constexprs);

/// The grid Inductor's launcher would use, from the grid type, the numel
/// arguments and the block sizes (Grid1D: cdiv(xnumel, XBLOCK), ...). Returns
/// nothing for FixedGrid and unknown grid types: those need an explicit grid.
struct GridSize {
  int64_t x = 1, y = 1, z = 1;
};
std::optional<GridSize> inferGrid(const KernelMetadata &metadata, const ConstexprBindings &constexprs,
                                  const std::map<std::string, int64_t> &scalarArguments);

} // namespace npusim::triton
