#pragma once
// Internals of the compiler, shared by its stages (docs/compiler.md, "Stages"):
//   compiler.cpp      the pipeline: the list of stages, and compile
//   tiling.cpp        the block-size search (cost_model.cpp, blocks.cpp)
//   (src/transform)   the TileIR passes, lane axes included
//   lower_*.cpp       TileIR ops -> NPU instructions (class Lowering)
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

// --------------------------------------------------------------- scratchpad

/// Assigns bank offsets to program.tiles by liveness over the program text;
/// every tile starts at a multiple of `alignment` bytes (one lane's vector
/// register, vlen_bits / 8).
/// storageRoot[t] is the tile whose bytes tile t shares (itself when it owns
/// its bytes). Sets spadBytesUsed and instanceBankStride; throws
/// ScratchpadOverflow when the plan exceeds the bank.
void planScratchpad(npu::Program &program, const std::vector<int> &storageRoot, int64_t alignment,
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
/// (docs/compiler.md, "Stages"). Its parts are spread over
/// emit.cpp and lower_*.cpp; only the compiler's pipeline drives it.
class Lowering {
public:
  /// `function` has its lane axes chosen (the `layout` pass).
  Lowering(const ir::Function &function, const config::HardwareConfig &machine);
  /// The program with unplaced tiles, and the storage root of every tile.
  npu::Program run(std::vector<int> &storageRoot);

private:
  // Everything the lowering has decided so far besides instructions.
  struct State {
    std::vector<npu::ScalarRegister> registers;
    std::vector<npu::Tile> tiles;
    std::vector<int> storageRoot;
    std::vector<ValueState> values;
    std::map<std::pair<int, int>, int> materialized; // (value id, lane axis) -> tile
    std::vector<std::vector<std::pair<int, int>>> scopes;
    std::map<int, int> widened; // register -> its i64 copy
    std::vector<std::vector<int>> widenedScopes;
    // Values that share another's state (an equal earlier op, x + 0, an add
    // fused into a matmul): value id -> the id whose state it shares, -1 for none.
    std::vector<int> canonical;
    std::map<std::string, const ir::Op *> pureOps; // by transform::equalityKey
    std::vector<std::vector<std::string>> pureOpScopes;
    std::set<const ir::Op *> lowered;     // ops already done by an earlier op (fused adds)
    std::map<std::string, int> lazyTiles; // materialised splats and iotas by content
    std::vector<std::vector<std::string>> lazyTileScopes;
    int64_t dots = 0; // dots lowered so far: the next one runs on array `dots % arrays`
    // Sums of dots accumulated in place: value id -> the carried value whose
    // home holds them; and the array of each such chain, by the carried id.
    std::map<int, const ir::Value *> accumulatorRoots;
    std::map<int, int> chainArrays;
  };

  // emit.cpp: registers, tiles, instructions, materialisation.
  const ir::Function &function;
  const config::HardwareConfig &machine;
  State s;
  std::vector<npu::Instruction> *out = nullptr;
  const ir::Op *currentOp = nullptr;
  const ir::Block *currentBlock = nullptr;
  std::vector<int> uses; // by value id: operands of ops (yields included) that name it

  [[noreturn]] void unsupported(const std::string &what) const;
  int newRegister(DType type, const std::string &name);
  int newTile(DType type, const ir::Shape &shape, int laneAxis, const std::string &name);
  int aliasTile(int tile, const ir::Shape &shape, int laneAxis, const std::string &name);
  npu::Instruction &emit(npu::Opcode opcode);
  int idOf(const ir::Value *v) const { return s.canonical.at(v->id) >= 0 ? s.canonical[v->id] : v->id; }
  ValueState &state(const ir::Value *v) { return s.values.at(idOf(v)); }
  /// Reuses an equal earlier visible op's results; false when there is none.
  bool reuseEqualOp(const ir::Op &op);
  int laneAxisOf(const ir::Value *v) const;
  std::string nameOf(const ir::Value *v) const;
  void enterScope();
  void leaveScope();

  Scalar immediate(DType type, int64_t v) const;
  Scalar scalarOf(const ir::Value *v);
  Scalar widen(Scalar x); // to i64 (sign or zero extension)
  Scalar scalarOp(npu::ElementFunction function, const std::vector<Scalar> &operands,
                  const std::string &name);
  Scalar scalarArith(npu::ElementOp op, Scalar a, Scalar b, DType type); // folds immediates of integers

  bool isLazy(const ir::Value *v) {
    return state(v).kind == ValueState::Kind::Tile && state(v).lazy.has_value();
  }
  int materializeLazy(const LazyTile &lazy, DType type, const ir::Shape &shape, int laneAxis,
                      const std::string &name);
  /// The value in a tile with the given lane axis (scalars: their [1] tile),
  /// materialising lazy forms and relayouting as needed; cached per value and
  /// layout within the current scope. Pointers give their i64 element offsets.
  int tileOf(const ir::Value *v, int laneAxis);
  /// Materialises, before the loop `op`, the broadcasts defined before it
  /// that its body uses, in the layouts the `layout` pass gave them.
  void stretchBroadcastsBefore(const ir::Op &loop);
  int relayout(int tile, int laneAxis, const std::string &name);
  /// The value's tile in whatever layout it already has (else `laneAxis`).
  int anyTileOf(const ir::Value *v, int laneAxis);
  void setTile(const ir::Value *v, int tile);
  void setScalar(const ir::Value *v, Scalar x) {
    state(v).kind = ValueState::Kind::Scalar, state(v).scalar = x;
  }
  void setLazy(const ir::Value *v, LazyTile lazy);
  /// A tile of shape [1] holding a scalar value (scalar registers are splat).
  int scalarTileOf(const ir::Value *v);
  void copyTile(int from, int to);

  // lower_block.cpp: dispatch.
  void lowerBlock(const ir::Block &block);
  void lowerOp(const ir::Op &op);

  // lower_compute.cpp
  void lowerSource(const ir::Op &op);
  void lowerShape(const ir::Op &op);
  void lowerElementwise(const ir::Op &op);
  npu::ElementFunction elementFunction(const ir::Op &op) const;
  bool lowerLazyArithmetic(const ir::Op &op);
  int broadcastTile(int source, const ir::Shape &to, int laneAxis, const std::string &name);
  /// `source` computed again at shape `to` when it is one pure elementwise op
  /// of scalars and lazy tiles whose broadcast would stretch the lane axis;
  /// -1 otherwise (emit.cpp).
  int recomputedBroadcast(const ir::Value *source, const ir::Shape &to, int laneAxis,
                          const std::string &name);

  // lower_memory.cpp
  void lowerAddPtr(const ir::Op &op);
  void lowerLoad(const ir::Op &op);
  /// A rank-1 load of `pointer + (start + s * arange) % C` as one period
  /// gathered and replicated on chip; -1 when the load is not of that form.
  int periodicGather(const ir::Value *pointer, const ir::Value *mask, const ir::Value *result);
  void lowerStore(const ir::Op &op);
  void lowerAtomic(const ir::Op &op);
  npu::DmaDescriptor dmaFor(const ir::Value *pointer, const ir::Value *mask, const ir::Shape &shape,
                            int laneAxis);

  // lower_box.cpp: Inductor's `//` and `%` index arithmetic as strided boxes.
  /// One digit of a blocked axis: coefficient * ((i[axis] / divisor) % modulus),
  /// no modulus when it is 0; i is the index within the block.
  struct BoxTerm {
    int axis = 0;
    int64_t divisor = 1;
    int64_t modulus = 0;
    int64_t coefficient = 0;
  };
  /// An index tile as base + sum of digits; `multiple` is a known positive
  /// multiple of a register base (0: unknown).
  struct BoxIndex {
    Scalar base;
    int64_t multiple = 0;
    std::vector<BoxTerm> terms;
  };
  /// The offset's box form; with `emit` false nothing is emitted and the
  /// base is only good for the checks (immediate or not).
  std::optional<BoxIndex> boxIndex(const ir::Value *offset, int depth, bool emit);
  /// A strided DMA over `shape` with each axis split at its digits' periods
  /// (`shape` is then the split shape, the same bytes as the access's tile).
  struct BoxAccess {
    npu::DmaDescriptor dma;
    ir::Shape shape;
    int laneAxis = 0;
  };
  /// The box form of an access through a gathered pointer `splat + offset`,
  /// or nullopt when the offset is not a box over the block.
  std::optional<BoxAccess> boxAccess(const ir::Value *pointer, const ir::Value *mask, const ir::Shape &shape,
                                     int laneAxis);

  // lower_reduce.cpp
  void lowerReduce(const ir::Op &op);
  void lowerScan(const ir::Op &op);
  void lowerSort(const ir::Op &op);
  std::shared_ptr<const npu::CombineProgram> combineProgram(const ir::Block &region);

  // lower_dot.cpp
  void lowerDot(const ir::Op &op);
  /// For `acc = acc + dot(a, b, 0)` carried by the enclosing loop (or a
  /// chain `acc + dot + dot ...` of an unrolled body): the home of acc, which
  /// the matmuls then accumulate into in place, with `root` the carried
  /// value; -1 otherwise.
  int accumulateInPlace(const ir::Op &dot, const ir::Value *&root);

  // lower_memory.cpp: DMA walks in another axis order.
  /// `tile` seen with its axes in `order`: a view of the same bytes, or a relayout.
  int permutedView(int tile, const std::vector<int> &order);
  /// Walks `dma` in `order`: strides and mask permuted alike.
  void permuteDma(npu::DmaDescriptor &dma, const std::vector<int> &order);

  // lower_control.cpp
  /// Lowers the loop once, with the homes chooseCarriedForms decides.
  void lowerFor(const ir::Op &op);
  void lowerIf(const ir::Op &op);
  /// Carried-value plumbing: `targets` receive `sources` at once (a parallel copy).
  void assignCarried(const std::vector<const ir::Value *> &sources, const std::vector<ValueState> &targets,
                     const std::vector<CarriedForm> &forms);
};

} // namespace npusim::compiler
