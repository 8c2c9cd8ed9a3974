#pragma once
// The lowering's parts (docs/compiler.md, "Lowering"): one lowerer per op
// family, each holding only its own state, around one context they share.
//   emit.cpp          LoweringContext: registers, tiles, instructions, how each
//                     value is held, and the materialisation of lazy forms
//   lower_compute.cpp ComputeLowerer: sources, shapes, elementwise ops
//   lower_memory.cpp  MemoryLowerer: pointers, loads, stores, atomics
//   lower_box.cpp     BoxLowerer: Inductor's `//` and `%` index arithmetic as strided boxes
//   lower_reduce.cpp  ReduceLowerer: reductions, scans, sorts
//   lower_dot.cpp     DotLowerer: dots on the systolic arrays
//   lower_control.cpp ControlLowerer: for, if, assert, barrier
//   lower_block.cpp   Lowering: the walk over the ops, each to its family
// Only lower() in compiler_internal.h is seen outside these files.
#include "compiler/compiler_internal.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace npusim::compiler {

/// What every family's lowerer shares: the function and the machine, the
/// program built so far, how each TileIR value is held, and the scopes that
/// bound what may be reused. Its methods are the bookkeeping every family
/// needs (emit.cpp).
class LoweringContext {
public:
  LoweringContext(const ir::Function &function, const config::HardwareConfig &machine);

  const ir::Function &function;
  const config::HardwareConfig &machine;

  // The program under construction.
  std::vector<npu::Instruction> *out = nullptr; // where emit appends (a loop's or branch's body inside one)
  std::vector<npu::ScalarRegister> registers;
  std::vector<npu::Tile> tiles;
  std::vector<int> storageRoot;            // TileStorage::root
  std::vector<int64_t> storageOffset;      // TileStorage::offset
  const ir::Op *currentOp = nullptr;       // for the messages of unsupported
  const ir::Block *currentBlock = nullptr; // the block being walked
  std::vector<int> uses;                   // by value id: operands of ops (yields included) that name it

  // How values are held, and what may be reused within the current scope.
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

  [[noreturn]] void unsupported(const std::string &what) const;
  int newRegister(DType type, const std::string &name);
  int newTile(DType type, const ir::Shape &shape, int laneAxis, const std::string &name);
  int aliasTile(int tile, const ir::Shape &shape, int laneAxis, const std::string &name);
  /// A tile of `shape` whose bytes start `byteOffset` bytes per lane into `tile`'s.
  int windowTile(int tile, const ir::Shape &shape, int laneAxis, int64_t byteOffset, const std::string &name);
  npu::Instruction &emit(npu::Opcode opcode);
  int idOf(const ir::Value *v) const { return canonical.at(v->id) >= 0 ? canonical[v->id] : v->id; }
  ValueState &state(const ir::Value *v) { return values.at(idOf(v)); }
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
  /// The element function of an elementwise op (Add, Cmp, Cast, ...).
  npu::ElementFunction elementFunction(const ir::Op &op) const;

  bool isLazy(const ir::Value *v) {
    return state(v).kind == ValueState::Kind::Tile && state(v).lazy.has_value();
  }
  int materializeLazy(const LazyTile &lazy, DType type, const ir::Shape &shape, int laneAxis,
                      const std::string &name);
  /// The value in a tile with the given lane axis (scalars: their [1] tile),
  /// materialising lazy forms and relayouting as needed; cached per value and
  /// layout within the current scope. Pointers give their i64 element offsets.
  int tileOf(const ir::Value *v, int laneAxis);
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
  int broadcastTile(int source, const ir::Shape &to, int laneAxis, const std::string &name);
  /// `source` computed again at shape `to` when it is one pure elementwise op
  /// of scalars and lazy tiles whose broadcast would stretch the lane axis;
  /// -1 otherwise.
  int recomputedBroadcast(const ir::Value *source, const ir::Shape &to, int laneAxis,
                          const std::string &name);
};

/// Sources (constants, program ids, aranges), shape ops and elementwise ops.
class ComputeLowerer {
public:
  explicit ComputeLowerer(LoweringContext &context) : cx(context) {}
  void lowerSource(const ir::Op &op);
  void lowerShape(const ir::Op &op);
  void lowerElementwise(const ir::Op &op);

private:
  LoweringContext &cx;
  bool lowerLazyArithmetic(const ir::Op &op);
};

/// Inductor's `//` and `%` index arithmetic as strided boxes (docs/compiler.md
/// "Box accesses").
class BoxLowerer {
public:
  explicit BoxLowerer(LoweringContext &context) : cx(context) {}
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

private:
  LoweringContext &cx;
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
  /// The offset's box form; with `emitting` false nothing is emitted and the
  /// base is only good for the checks (immediate or not).
  std::optional<BoxIndex> boxIndex(const ir::Value *offset, int depth, bool emitting);
  /// The box form of the sum of `offsets` (each of the access's rank, every
  /// axis its extent or 1), or nullopt.
  std::optional<BoxIndex> sumOfBoxes(const std::vector<const ir::Value *> &offsets, bool emitting);
  /// a + sign * b with the sum's base `base` (computed by the caller).
  static BoxIndex combine(const BoxIndex &a, const BoxIndex &b, int64_t sign, const Scalar &base);
};

/// Pointer arithmetic, loads, stores and atomics: the DMA forms
/// (docs/compiler.md "DMA forms").
class MemoryLowerer {
public:
  explicit MemoryLowerer(LoweringContext &context) : cx(context), boxes(context) {}
  void lowerAddPtr(const ir::Op &op);
  void lowerLoad(const ir::Op &op);
  void lowerStore(const ir::Op &op);
  void lowerAtomic(const ir::Op &op);

private:
  LoweringContext &cx;
  BoxLowerer boxes; // the box forms of gathered accesses
  /// A rank-1 load of `pointer + (start + s * arange) % C` as one period
  /// gathered and replicated on chip; -1 when the load is not of that form.
  int periodicGather(const ir::Value *pointer, const ir::Value *mask, const ir::Value *result);
  npu::DmaDescriptor dmaFor(const ir::Value *pointer, const ir::Value *mask, const ir::Shape &shape,
                            int laneAxis);
  /// `tile` seen with its axes in `order`: a view of the same bytes, or a relayout.
  int permutedView(int tile, const std::vector<int> &order);
  /// Walks `dma` in `order`: strides, mask and clip permuted alike.
  void permuteDma(npu::DmaDescriptor &dma, const std::vector<int> &order);

  // Masks as clip boxes (lower_clip.cpp).
  /// One bound on one axis of the data tile: i >= n - base + adjust (lower)
  /// or i < n - base + adjust (upper).
  struct ClipBound {
    int axis = 0;
    bool upper = true;
    Scalar n, base;
    int64_t adjust = 0;
  };
  /// Sets `dma`'s clip box to the mask over a tile of `shape` when the mask
  /// is an `and` of single-axis bounds; false (dma untouched) otherwise.
  bool clipDma(npu::DmaDescriptor &dma, const ir::Value *mask, const ir::Shape &shape);
  /// The bounds of `mask`, whose axis a is the data tile's axis axisOf[a]
  /// (-1: the mask is the same along it); false when a leaf is of no such form.
  bool clipTerms(const ir::Value *mask, const std::vector<int> &axisOf, std::vector<ClipBound> &terms,
                 int depth);
  std::optional<Scalar> uniformScalar(const ir::Value *v);
};

/// Reductions, scans and sorts, with their combine regions.
class ReduceLowerer {
public:
  explicit ReduceLowerer(LoweringContext &context) : cx(context) {}
  void lowerReduce(const ir::Op &op);
  void lowerScan(const ir::Op &op);
  void lowerSort(const ir::Op &op);

private:
  LoweringContext &cx;
  std::shared_ptr<const npu::CombineProgram> combineProgram(const ir::Block &region);
  /// A reduction (`scan` false) or a scan: one instruction over the operands'
  /// tiles, in lanes or across them as the axis is the lane axis.
  void lowerCombining(const ir::Op &op, bool scan);
};

/// Dots on the systolic arrays, accumulated in place where a loop carries the sum.
class DotLowerer {
public:
  explicit DotLowerer(LoweringContext &context) : cx(context) {}
  void lowerDot(const ir::Op &op);

private:
  LoweringContext &cx;
  int64_t dots = 0; // dots lowered so far: the next one runs on array `dots % arrays`
  // Sums of dots accumulated in place: value id -> the carried value whose
  // home holds them; and the array of each such chain, by the carried id.
  std::map<int, const ir::Value *> accumulatorRoots;
  std::map<int, int> chainArrays;
  std::map<int, int> productArrays; // dot result id -> the array its matmuls ran on
  /// For `acc = acc + dot(a, b, 0)` carried by the enclosing loop (or a
  /// chain `acc + dot + dot ...` of an unrolled body): the home of acc, which
  /// the matmuls then accumulate into in place, with `root` the carried
  /// value; -1 otherwise.
  int accumulateInPlace(const ir::Op &dot, const ir::Value *&root);
  /// The bound past which a rank-2 tile is +0 along `axis`: the end of the
  /// clip box on that axis of the DMA load that last wrote the tile in the
  /// current body (from index 0, filling +0); nothing where it came otherwise.
  std::optional<npu::ScalarOperand> zeroFromClip(int tile, size_t axis) const;
};

/// Structured control flow (docs/compiler.md "Control flow"), asserts and
/// barriers. The bodies of loops and branches go back to `lowerBlock`.
class ControlLowerer {
public:
  ControlLowerer(LoweringContext &context, std::function<void(const ir::Block &)> lowerBody)
      : cx(context), lowerBlock(std::move(lowerBody)) {}
  /// Lowers the loop once, with the homes chooseCarriedForms decides.
  void lowerFor(const ir::Op &op);
  void lowerIf(const ir::Op &op);
  void lowerAssert(const ir::Op &op);
  void lowerBarrier();

private:
  LoweringContext &cx;
  std::function<void(const ir::Block &)> lowerBlock;
  /// Materialises, before the loop `op`, the broadcasts defined before it
  /// that its body uses, in the layouts the `layout` pass gave them.
  void stretchBroadcastsBefore(const ir::Op &loop);
  /// Carried-value plumbing: `targets` receive `sources` at once (a parallel copy).
  void assignCarried(const std::vector<const ir::Value *> &sources, const std::vector<ValueState> &targets,
                     const std::vector<CarriedForm> &forms);
};

/// The walk over the ops in program order, each op to its family's lowerer
/// (lower_block.cpp).
class Lowering {
public:
  Lowering(const ir::Function &function, const config::HardwareConfig &machine);
  npu::Program run(TileStorage &storage);

private:
  LoweringContext cx;
  ComputeLowerer compute;
  MemoryLowerer memory;
  ReduceLowerer reduce;
  DotLowerer dot;
  ControlLowerer control;

  void lowerBlock(const ir::Block &block);
  void lowerOp(const ir::Op &op);
  /// Reuses an equal earlier visible op's results; false when there is none.
  bool reuseEqualOp(const ir::Op &op);
};

} // namespace npusim::compiler
