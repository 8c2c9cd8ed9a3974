#pragma once
// Internals of the compiler, shared by its stages (docs/compiler.md, "Stages"):
//   compiler.cpp      the pipeline: the list of stages, and compile
//   tiling.cpp        the block-size search (cost_model.cpp, blocks.cpp)
//   (src/transform)   the TileIR passes, lane axes included
//   lower_*.cpp       TileIR ops -> NPU instructions, one lowerer per op family
//                     (lowering_internal.h; emit.cpp: the context they share)
//   carried_forms.cpp the homes of loop-carried values, before a loop is lowered
//   schedule.cpp      DMA loads and their inputs first, within straight-line runs
//   scratchpad.cpp    liveness and bank offsets of the tiles
#include "compiler/compiler.h"

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace npusim::compiler {

using core::DType;
using npu::ScalarOperand;

/// A CompileError at `loc` whose message names the kernel.
[[noreturn]] void fail(const ir::Function &function, const core::SourceLocation &loc,
                       const std::string &what);

/// Where each tile's bytes lie before the scratchpad plan. `root[t]` is the
/// tile whose allocation tile t shares (itself when it owns one: a reshape or
/// permute shares its operand's); `offset[t]` is where tile t starts in that
/// allocation, in bytes per lane (nonzero for a window of a tile, a slice).
struct TileStorage {
  std::vector<int> root;
  std::vector<int64_t> offset;
};

// --------------------------------------------------------------- scratchpad

/// Assigns bank offsets to program.tiles by liveness over the program text;
/// every tile starts at a multiple of `alignment` bytes (one lane's vector
/// register, vlen_bits / 8).
/// `storage` says which tiles share bytes. Sets spadBytesUsed and
/// instanceBankStride; throws ScratchpadOverflow when the plan exceeds the bank.
void planScratchpad(npu::Program &program, const TileStorage &storage, int64_t alignment,
                    const core::SourceLocation &where);

/// Tiles an instruction reads and writes, DMA index and mask tiles included
/// (its nested bodies excluded).
std::vector<int> tilesRead(const npu::Instruction &instruction);
std::vector<int> tilesWritten(const npu::Instruction &instruction);

/// Reorders each straight-line run of instructions (between loops,
/// conditionals, barriers and asserts; nested bodies alike) so that every DMA
/// load, with the instructions it depends on, comes as early as its
/// dependencies allow: the in-order vector queue then computes the next
/// load's index before it waits on the previous load's data, and independent
/// loads are in flight together (docs/compiler.md "Load scheduling").
/// Dependencies: tiles by storage root, scalar registers and DRAM (a store,
/// atomic or scalar store keeps its place against every DRAM access). A run
/// with systolic instructions keeps its order. Returns whether anything moved.
bool scheduleDmaLoads(std::vector<npu::Instruction> &body, const std::vector<int> &storageRoot);

// ----------------------------------------------------------------- lowering

/// A value of the scalar unit: an immediate or a register, with its dtype.
struct Scalar {
  ScalarOperand operand;
  DType type = DType::Int32;

  bool isImmediate() const { return !operand.isRegister(); }
  bool isImmediateInt(int64_t v) const { return isImmediate() && operand.intValue == v; }
  /// The same immediate, or the same register.
  bool sameOperand(const Scalar &other) const {
    if (isImmediate() != other.isImmediate())
      return false;
    return isImmediate() ? operand.intValue == other.operand.intValue : operand.reg == other.operand.reg;
  }
};

/// A known divisor of a non-negative scalar: immediates, program ids, grid sizes and their
/// products, sums and widening casts, defined once in `body`; 0 when nothing is
/// known (then the value may even be negative).
int64_t knownMultiple(const std::vector<npu::Instruction> &body, const npu::ScalarOperand &x, int depth = 0);

/// A tile not (yet) in the scratchpad: element i = base + sum_a strides[a] * i[a].
/// Floats and bools have zero strides (a splat). Integer and pointer-offset
/// arithmetic on lazy tiles is done on the scalar unit in 64 bits.
struct LazyTile {
  Scalar base;
  std::vector<Scalar> strides;

  bool uniform() const;
};

/// How the lowering holds a TileIR value.
struct ValueState {
  enum class Kind { Unset, Scalar, ScalarTile, Tile };
  Kind kind = Kind::Unset;
  Scalar scalar;                // Kind::Scalar
  int tile = -1;                // Kind::ScalarTile (a [1] tile) and materialized tiles
  std::optional<LazyTile> lazy; // Kind::Tile not materialized
  /// Pointers: the pointer argument they address; the element offset (i64) is
  /// held as above (scalar, [1] tile, offset tile or lazy affine offsets).
  int argument = -1;
  /// A broadcast not done yet: the value is this operand stretched to the
  /// value's shape, materialised in the layout its first user asks for.
  const ir::Value *broadcastOf = nullptr;
  /// Pointers with a materialised tile: the element offsets are tile[i] +
  /// gatherBase (a pointer advanced by a scalar moves only its base).
  Scalar gatherBase{ScalarOperand::immediate(0), DType::Int64};

  bool hasGatherBase() const { return !gatherBase.isImmediateInt(0); }
};

/// What a for loop carries: the form of each carried value's home.
enum class CarriedForm { Register, ScalarTile, Tile, AffinePointer, GatherPointer };

/// How the lowering holds a value defined before a loop.
using ValueStateOf = std::function<const ValueState &(const ir::Value *)>;

/// The homes of `loop`'s carried values, decided before the loop is lowered
/// (carried_forms.cpp): the narrowest form that holds the init, as `outside`
/// gives the lowering's state of a value defined before the loop, and that
/// certainly holds what the body yields.
std::vector<CarriedForm> chooseCarriedForms(const ir::Op &loop, const ValueStateOf &outside);

/// TileIR ops -> NPU instructions, one pass over the ops in program order
/// (docs/compiler.md, "Lowering"): the program with unplaced tiles, and in
/// `storage` which tiles share bytes. `function` has its
/// lane axes chosen (the `layout` pass). The lowerers of each op family and
/// the context they share are in lowering_internal.h.
npu::Program lower(const ir::Function &function, const config::HardwareConfig &machine, TileStorage &storage);

} // namespace npusim::compiler
