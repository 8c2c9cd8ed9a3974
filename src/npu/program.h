#pragma once
// The NPU program: what the compiler produces and what both simulators execute.
// docs/npu.md is the normative description; this header is its data structure.
//
// A program is the code of one program instance (one Triton program id), run for
// every instance of a launch's grid. It owns
//   - scalar registers (the scalar unit: addresses, loop counters, scalar values),
//   - tiles: named scratchpad allocations, each with a layout that spreads one
//     axis over the lanes (the lane axis) and keeps the rest as per-lane depth,
//   - a body of instructions; loops and conditionals nest bodies.
//
// Every instruction names the tiles it reads and writes (readTiles/writtenTiles),
// so the timing simulator derives dependencies from the same program the
// functional simulator executes.
#include "core/dtype.h"
#include "core/element_ops.h"
#include "core/error.h"

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace npusim::npu {

using core::DType;

// ---------------------------------------------------------------- operands

/// A value the scalar unit provides: an immediate, or a scalar register.
/// Integers (and bool) use intValue, floats floatValue.
struct ScalarOperand {
  int reg = -1; // >= 0: Program::scalarRegs index
  int64_t intValue = 0;
  double floatValue = 0.0;

  bool isRegister() const { return reg >= 0; }
  static ScalarOperand immediate(int64_t v) { return ScalarOperand{-1, v, static_cast<double>(v)}; }
  static ScalarOperand immediateFloat(double v) { return ScalarOperand{-1, 0, v}; }
  static ScalarOperand ofRegister(int r) { return ScalarOperand{r, 0, 0.0}; }
};

/// How a tile's elements lie in the lane-banked scratchpad. For the element at
/// multi-index i (row-major, rank 1..4):
///   lane = i[laneAxis] % lanes
///   slot = (i[laneAxis] / lanes) * rest + rowMajorIndex(i without laneAxis)
/// where rest is the product of the other axes. Slot s of lane l lives at byte
/// bankOffset + s * elementBytes of lane l's bank (bool takes one byte).
struct TileLayout {
  DType dtype = DType::Float32;
  std::vector<int64_t> shape;
  int laneAxis = 0;

  int rank() const { return static_cast<int>(shape.size()); }
  int64_t numElements() const;
  /// Slots each lane holds: ceil(shape[laneAxis] / lanes) * rest.
  int64_t slotsPerLane(int lanes) const;
  int64_t bytesPerLane(int lanes) const;
  bool operator==(const TileLayout &) const = default;
};

/// A scratchpad allocation. The same bytes [bankOffset, bankOffset +
/// layout.bytesPerLane) of every lane's bank. Tiles with disjoint lifetimes may
/// share bytes; `name` is the TileIR value (or the compiler's purpose) it holds.
struct Tile {
  std::string name;
  TileLayout layout;
  int64_t bankOffset = 0;
};

/// One kernel argument as the launch passes it.
struct Argument {
  std::string name;
  bool isPointer = false;
  DType dtype = DType::Float32; // pointee for pointers
};

struct ScalarRegister {
  std::string name;
  DType dtype = DType::Int32;
};

// ------------------------------------------------------- element functions

/// One operation on elements, used by the scalar unit, the vector unit and
/// combine programs. Operands and result follow TileIR's elementwise rules
/// (docs/tileir.md): one operand dtype, the result in resultType.
enum class ElementOp : uint8_t {
  Copy, Add, Sub, Mul, Div, Rem, And, Or, Xor, Shl, Shr, Min, Max, Neg, Not, Abs,
  Math,    // mathFn
  Cmp,     // predicate; result bool
  Select,  // (bool cond, a, b)
  Cast,    // operandType -> resultType, TileIR Cast rules
  Bitcast, // same width
};

struct ElementFunction {
  ElementOp op = ElementOp::Copy;
  DType operandType = DType::Float32; // of the data operands (Select: of a and b)
  DType resultType = DType::Float32;
  core::MathFn mathFn = core::MathFn::Exp;
  core::CmpPredicate predicate = core::CmpPredicate::Eq;
  core::NanMode nanMode = core::NanMode::Ignore;

  int arity() const;
};

/// The body of a Combine reduction or scan: N carried values. Registers 0..N-1
/// hold the left operands, N..2N-1 the right ones; each step defines the next
/// register; `results` names the N registers that form the combined value.
struct CombineProgram {
  struct Step {
    bool isConstant = false;
    ElementFunction function;     // when !isConstant
    std::vector<int> operands;    // registers
    DType constantType = DType::Float32; // when isConstant
    ScalarOperand constant;
  };
  std::vector<DType> valueTypes; // N
  std::vector<Step> steps;
  std::vector<int> results;      // N registers
};

// ------------------------------------------------------------- instructions

enum class Opcode : uint8_t {
  // Scalar unit. dstReg = ...
  SMove,         // scalars[0]
  SArgument,     // the scalar argument `argument`
  SProgramId,    // program id along `axis`
  SNumPrograms,  // grid size along `axis`
  SElementwise,  // function(scalars...)
  SLoad,         // one element of pointer argument `argument` at element scalars[0]
  SStore,        // writes scalars[1] at element scalars[0] of `argument`
  // DMA engine: DRAM <-> scratchpad.
  DmaLoad,       // dst = DRAM per `dma` (strided, or gathered by dma.indexTile)
  DmaStore,      // DRAM per `dma` = srcs[0] where the mask is true
  DmaAtomic,     // DRAM element = atomic(element, srcs[0]); dst (optional) = old values
  // Vector unit: lane-local, operands must share the element -> lane mapping.
  VSplat,        // dst = scalars[0] everywhere
  VIota,         // dst[i] = scalars[0] + sum_a scalars[1 + a] * i[a]
  VElementwise,  // dst = function(srcs...)
  VBroadcast,    // dst = srcs[0] stretched along its size-1 axes (not the lane axis)
  VReduce,       // dsts = reduce srcs along `axis` (not the lane axis)
  VScan,         // dsts = scan srcs along `axis` (not the lane axis)
  VSort,         // dsts = sort srcs along `axis` (not the lane axis)
  // Cross-lane unit: moves data between lanes.
  XReduce,       // as VReduce, along the lane axis
  XScan,         // as VScan, along the lane axis
  XSort,         // as VSort, along the lane axis
  XBroadcast,    // dst = srcs[0] stretched along a size-1 lane axis
  XRelayout,     // dst = srcs[0], same elements in another layout (lane axis, shape of equal size;
                 // with `permutation`, dst axis d is srcs[0] axis permutation[d])
  // Systolic arrays (weight stationary, lanes x lanes).
  MLoadWeights,  // array `array` = srcs[0] (B[K, N]) block (kBlock, nBlock), zero padded;
                 // scalars[0], if given: B's columns at or past it are zeros, and a block
                 // wholly past it loads nothing
  MMatmul,       // dst (C[M, N]) block nBlock (+)= srcs[0] (A[M, K]) block kBlock @ weights;
                 // scalars (accumulating only), if given: [0] A's rows at or past it are
                 // zeros and do not stream; [1] B's columns at or past it are zeros, and
                 // a block wholly past it streams nothing (C keeps its values there)
  // Control.
  Loop,          // for (dstReg = scalars[0]; dstReg < scalars[1]; dstReg += scalars[2]) body
  If,            // if (scalars[0]) body else elseBody
  Barrier,       // all units drain
  Assert,        // fails the program where srcs[0] (or scalars[0]) is false; message
};

/// A DMA transfer. Element e of the data tile (multi-index i) addresses element
///   argumentPointer + base + (indexTile ? indexTile[i] : sum_a strides[a] * i[a])
/// of pointer argument `argument`. Elements whose mask is false are not
/// transferred; loads write `fill` there.
struct DmaDescriptor {
  int argument = -1;
  ScalarOperand base;                 // elements
  std::vector<ScalarOperand> strides; // elements, one per tile axis (strided form)
  int indexTile = -1;                 // gathered form: i64 element offsets, tile shape
  int maskTile = -1;                  // bool, tile shape
  ScalarOperand fill;                 // loads: masked-off value (in the data dtype)
  core::AtomicKind atomic = core::AtomicKind::Add;
  // The box the transfer is clipped to, in tile indices: an element is
  // active only when clipLow[a] <= i[a] < clipHigh[a] on every axis a (signed
  // i64 operands, any values: a bound outside [0, extent] clips nothing or
  // everything). Both empty (no clip) or one per data tile axis. Inactive
  // elements behave as masked-off ones; with a mask tile as well, an element
  // is active when both say so.
  std::vector<ScalarOperand> clipLow, clipHigh;

  bool gathered() const { return indexTile >= 0; }
  bool clipped() const { return !clipHigh.empty(); }
  bool masked() const { return maskTile >= 0 || clipped(); }
};

struct Instruction {
  Opcode opcode = Opcode::SMove;
  core::SourceLocation loc; // TileIR source construct, for messages

  int dstReg = -1;
  std::vector<int> dsts; // tiles written
  std::vector<int> srcs; // tiles read (besides those named in dma)
  std::vector<ScalarOperand> scalars;

  int argument = -1;     // SArgument, SLoad, SStore
  int axis = 0;          // SProgramId, SNumPrograms, reductions, scans, sorts
  ElementFunction function;
  core::ReduceKind reduceKind = core::ReduceKind::Sum; // NaN handling: function.nanMode
  std::shared_ptr<const CombineProgram> combine; // ReduceKind::Combine
  bool reverse = false;    // scans
  bool descending = false; // sorts
  bool stable = false;     // sorts with values: sort_with_index(stable=True)
  DmaDescriptor dma;
  // Systolic arrays.
  int array = 0;
  int64_t kBlock = 0, nBlock = 0;
  core::InputPrecision precision = core::InputPrecision::IEEE;
  bool accumulate = true; // MMatmul: add to dst (false: overwrite the block)
  std::string message;    // Assert
  std::vector<int> permutation; // XRelayout: empty = reshape in row-major order

  std::vector<Instruction> body, elseBody; // Loop, If
};

/// Which functional unit executes an opcode; the timing simulator keeps one
/// in-order queue per unit.
enum class Unit : uint8_t { Scalar, Dma, Vector, CrossLane, Systolic, Control };
Unit unitOf(Opcode opcode);

std::string_view name(Opcode opcode);
std::string_view name(ElementOp op);
std::string_view name(Unit unit);

/// The tiles an instruction reads (srcs, DMA index and mask tiles, dst of an
/// accumulating MMatmul) and writes (dsts), without nested bodies.
std::vector<int> readTiles(const Instruction &instruction);
std::vector<int> writtenTiles(const Instruction &instruction);
/// The scalar registers an instruction reads: its scalar operands and its DMA
/// descriptor's (base, strides, fill, clip bounds).
std::vector<int> registersRead(const Instruction &instruction);

/// A compiled kernel.
struct Program {
  std::string kernelName;
  int lanes = 0;                  // the machine it was compiled for
  int64_t spadBytesPerLane = 0;   // its bank size
  std::vector<Argument> arguments;
  std::vector<ScalarRegister> scalarRegs;
  std::vector<Tile> tiles;
  std::vector<Instruction> body;
  /// Peak scratchpad bytes per lane of one program instance.
  int64_t spadBytesUsed = 0;
  /// When nonzero, odd program instances on a core place every tile this many
  /// bytes higher, so two instances can be in flight (double buffering).
  int64_t instanceBankStride = 0;
  /// The grid the program was compiled for (ir::Function::programs), 0 on
  /// an axis where any grid will do: its value ranges assume no more
  /// programs, so a launch with more is refused (functional::run).
  std::array<int64_t, 3> compiledForGrid{0, 0, 0};
  /// The block sizes the compiler chose, for dumps and reports ("XBLOCK=1024").
  std::vector<std::pair<std::string, int64_t>> blockSizes;
};

/// Checks structure: operand indices in range, tile shapes and dtypes as each
/// opcode requires, tiles inside the bank. Throws core::CompileError naming the
/// kernel and the instruction.
void validate(const Program &program);

/// The text form (docs/npu.md): one instruction per line, with the tiles each
/// reads and writes and their scratchpad byte ranges.
std::string print(const Program &program);

} // namespace npusim::npu
