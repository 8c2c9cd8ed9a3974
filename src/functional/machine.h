#pragma once
// Internals of the functional simulator: the state of one launch (scratchpad,
// its written-bytes shadow, scalar registers) with the control and scalar
// units (machine.cpp, scalar_unit.cpp, scratchpad.cpp), and the units that
// compute, one class each with its own state (units.h: vector.cpp,
// reduce.cpp, dma.cpp, matmul.cpp).
#include "core/axis_fold.h"
#include "core/element_math.h"
#include "functional/simulator.h"

#include <unordered_map>
#include <utility>
#include <vector>

namespace npusim::functional::detail {

using core::DType;
using npu::Instruction;

/// A scalar register or operand value: integers and bools in i, floats in f.
struct Scalar {
  int64_t i = 0;
  double f = 0.0;
};

/// v normalised to a register of dtype d (rounded, wrapped, bool 0/1).
Scalar scalarValue(const Scalar &v, DType d);

/// A tile's elements widened into 64-bit slots (row-major), reused between
/// instructions so that the steady state allocates nothing.
struct Values {
  std::vector<double> f;
  std::vector<int64_t> i;
  DType dtype = DType::Float32;
  int64_t size = 0;

  void define(DType d, int64_t n) {
    dtype = d;
    size = n;
    if (core::isFloatType(d)) {
      if (static_cast<int64_t>(f.size()) < n)
        f.resize(static_cast<size_t>(n));
    } else if (static_cast<int64_t>(i.size()) < n) {
      i.resize(static_cast<size_t>(n));
    }
  }
  bool isFloat() const { return core::isFloatType(dtype); }
  core::ConstSlots in() const { return {f.data(), i.data()}; }
  core::Slots out() { return {f.data(), i.data()}; }
};

/// A tile seen as [outer, length, inner] around an axis (row-major).
using Split = core::AxisSplit;

/// Weights held by one systolic array: a lanes x lanes block of B, zero padded.
struct ArrayState {
  bool loaded = false;
  int64_t kBlock = 0, nBlock = 0;
  int64_t rows = 0, cols = 0; // valid part of the block
  Values weights;             // lanes * lanes, row-major [k][n]
};

/// Floats per vector of multiplyFloat32; its row length must be a multiple.
constexpr int64_t kFloat32GemmWidth = 16;
/// c[M, ld] += a[M, rows] b[rows, ld] (row-major, ld a multiple of
/// kFloat32GemmWidth): for each element, c = c + a[m, k] * b[k, n] for k = 0,
/// 1, ..., every product and sum rounded to float (float_gemm.cpp).
void multiplyFloat32(const float *a, const float *b, float *c, int64_t M, int64_t rows, int64_t ld);

using Float32GemmKernel = void (*)(const float *a, const float *b, float *c, int64_t M, int64_t rows,
                                   int64_t ld);
/// One instruction set's variant of multiplyFloat32.
struct Float32GemmVariant {
  const char *isa;
  Float32GemmKernel kernel;
};
/// The variants this host can run, widest first; multiplyFloat32 uses the
/// first. All give the same bits.
std::vector<Float32GemmVariant> float32GemmVariants();

/// An element function over one lane's n contiguous slots: the result's and
/// each operand's bytes (lane_kernels.cpp).
using LaneKernel = void (*)(uint8_t *result, const uint8_t *const *operands, int64_t n);
/// The typed loop of fn with a result of dtype `result`, computing exactly
/// what Machine::apply computes; nullptr for functions and dtypes it lacks.
LaneKernel laneKernel(const npu::ElementFunction &fn, DType result);

/// dst element e = src element from[e] for e < n, at the byte positions
/// dstPos / srcPos, the value passing through a slot as the slot path does;
/// false (nothing done) for fp16 and bf16 (lane_kernels.cpp).
bool copyElements(DType d, uint8_t *dst, const int64_t *dstPos, const uint8_t *src, const int64_t *srcPos,
                  const int64_t *from, int64_t n);

} // namespace npusim::functional::detail

namespace npusim::functional {

/// The scratchpad's storage (Workspace). `written` is all zero between
/// launches: each instance clears what it wrote; `clean` says a launch ended
/// normally, so nothing is left over from one that failed.
struct Workspace::Storage {
  std::vector<uint8_t> spad, written;
  std::vector<std::vector<int64_t>> positions;
  bool clean = true;
};

} // namespace npusim::functional

namespace npusim::functional::detail {

/// One lane of a lane-local broadcast: for each of `groups` lane groups g and
/// each dst slot r of a group, dst slot g * restDst + r = src slot g *
/// restSrc + restMap[r], the value passing through a slot as the slot path
/// does; false (nothing done) for fp16 and bf16 (lane_kernels.cpp).
bool broadcastLane(DType d, uint8_t *dst, const uint8_t *src, const int64_t *restMap, int64_t restDst,
                   int64_t restSrc, int64_t groups);

/// The buffer behind a pointer argument and the byte offset it points at.
struct Pointer {
  DramBuffer *buffer = nullptr;
  int64_t byteOffset = 0;
  int elementBytes = 0;
};

class Machine;

// The units that compute. Each executes the instructions of its unit on the
// machine it is given, keeping only its own state; the scratchpad, the
// registers and the trace are the machine's.

/// The vector unit (lane-local: splat, iota, elementwise, broadcast) and the
/// cross-lane unit's data movement (vector.cpp).
class VectorUnit {
public:
  explicit VectorUnit(Machine &owner) : machine(owner) {}
  void execute(const Instruction &in);

private:
  Machine &machine;
  std::vector<int64_t> sourceIndex_; // per element of a broadcast or relayout
  std::vector<int64_t> restMap_;     // per slot of a lane group of a lane-local broadcast
  /// A v.broadcast lane by lane when source and destination put every
  /// element in the same lane and share no bytes; false (nothing done) when
  /// that does not apply.
  bool broadcastByLane(const Instruction &in);
};

/// Reductions, scans and sorts, within lanes and across them (reduce.cpp).
class ReduceUnit {
public:
  explicit ReduceUnit(Machine &owner) : machine(owner) {}
  void execute(const Instruction &in);

private:
  Machine &machine;
  std::vector<Values> combineRegs_, combineTmp_ = std::vector<Values>(4);
  void combine(const Instruction &in, const Split &split, bool isScan);
};

/// DMA transfers between DRAM and the scratchpad (dma.cpp).
class DmaUnit {
public:
  explicit DmaUnit(Machine &owner) : machine(owner) {}
  void execute(const Instruction &in);

private:
  Machine &machine;
  std::vector<int64_t> offsets_;
  std::vector<uint8_t> clipMask_; // activeMask's bytes under a clip
  /// The active elements of a transfer over `l`, one byte per element in
  /// row-major order, or null when every element is: the mask tile (where
  /// this run has it) and the descriptor's clip box together.
  const uint8_t *activeMask(const npu::DmaDescriptor &dma, const npu::TileLayout &l);
  /// Element count and DMA bytes of the current instruction.
  void countDma(npu::Opcode opcode, int64_t active, int size);
  /// A strided load or store whose last axis has DRAM stride 1, row by row.
  void dmaRows(const Instruction &in, const Pointer &p, const npu::TileLayout &l, int64_t base);
  /// A transfer of a run that computes values, to or from a buffer that holds
  /// no contents (DramBuffer): the addresses and the trace of an address-only
  /// transfer; a load gives zeros (so does an atomic's old value). Only data no
  /// address, mask or control depends on may come from such a buffer.
  void dmaAbsent(const Instruction &in);
};

/// The systolic arrays: weights held per array, matmuls against them (matmul.cpp).
class SystolicUnit {
public:
  explicit SystolicUnit(Machine &owner) : machine(owner) {}
  void execute(const Instruction &in);
  /// Drops the weights every array holds (a new instance), keeping their storage.
  void unload() {
    for (ArrayState &array : arrays)
      array.loaded = false;
  }

private:
  Machine &machine;
  std::vector<ArrayState> arrays;
  /// Element lists, reused between instructions.
  std::vector<int64_t> elemsA, elemsC;
  std::vector<float> floatsA, floatsB, floatsC;
  /// An MMatmul with fp32 C: the block's operands gathered densely and
  /// multiplied by multiplyFloat32.
  void multiplyFloat32Block(const Instruction &in, const ArrayState &array, int64_t M, int64_t N, int64_t K,
                            int64_t rows, int64_t cols);
  /// The same block when A and C have their lane axis last (each column one
  /// run of floats in a lane): multiplied transposed from whole columns;
  /// false (nothing done) for other layouts or a column of C not written.
  bool multiplyFloat32Lanes(const Instruction &in, const ArrayState &array, int64_t M, int64_t rows,
                            int64_t cols);
  /// The matmul's block of A (M x rows, row-major) converted to C's dtype.
  void convertedA(const Instruction &in, int64_t M, int64_t K, int64_t rows, Values &converted);
};

/// The machine one launch runs on: the scratchpad and its written-bytes
/// shadow, the scalar registers, the control and scalar units; the units
/// that compute (vector, reduce, DMA, systolic) are their own classes in
/// units.h and reach the scratchpad through the methods below.
class Machine {
public:
  Machine(const npu::Program &program, const Grid &grid, std::vector<DramBuffer> &buffers,
          const std::vector<LaunchArgument> &arguments, const RunOptions &options);
  ~Machine();
  RunStats run();

  // ---- used by the unit handlers
  [[noreturn]] void fail(const std::string &message) const;
  const npu::Program &program() const { return program_; }
  const npu::TileLayout &layout(int t) const { return program_.tiles[static_cast<size_t>(t)].layout; }
  int lanes() const { return program_.lanes; }
  /// Whether the instruction being executed computes values: always in a run
  /// with values; in an address-only run, only the vector and cross-lane work
  /// whose operands were computed in this instance (see maskValues_).
  bool computeValues() const { return valuesNow_; }
  /// In an address-only run that computes masks: whether every byte of tile t
  /// was written in this instance by an instruction that computed values.
  bool tileAvailable(int t);

  Scalar scalar(const npu::ScalarOperand &operand) const;
  /// The operand as an integer / as a value of dtype d (rounded or wrapped to it).
  int64_t scalarInt(const npu::ScalarOperand &operand) const;
  Scalar scalarAs(const npu::ScalarOperand &operand, DType d) const;

  /// Reads a whole tile (row-major) into v, checking every byte was written.
  void readTile(int t, Values &v);
  /// A DMA mask (a bool tile): one byte per element in row-major order,
  /// nonzero where true, checked written as readTile; valid until the next
  /// call, which returns the same bytes again for the same tile until an
  /// instruction may have changed them (forgetMask).
  const uint8_t *readMask(int t);
  /// Writes v (row-major, the tile's dtype) into a tile and marks it written.
  void writeTile(int t, const Values &v);
  /// The first `count` slots of one lane of a tile (its elements in slot
  /// order), checked to be written / marked written.
  void readLane(int t, int lane, int64_t count, Values &v);
  void writeLane(int t, int lane, int64_t count, const Values &v);
  /// Fails as readLane does unless the first `count` slots of one lane of
  /// tile t were written.
  void checkLaneWritten(int t, int lane, int64_t count);
  /// The bytes of slot 0 of one lane of tile t in this instance's placement.
  uint8_t *laneBytes(int t, int lane) {
    return spad_.data() + program_.tiles[static_cast<size_t>(t)].bankOffset + shift_ + lane * bankStride_;
  }
  /// Marks the first `count` slots of one lane of tile t written.
  void markLaneWritten(int t, int lane, int64_t count);
  /// Marks every element of tile t written.
  void markTileWritten(int t);
  /// Sets every element of tile t to the value with these bits (core::toBits), marked written.
  void fillTile(int t, uint64_t bits);
  /// Fails as readTile does unless every element of tile t was written. The
  /// shadow only gains bytes within an instance, so a tile found complete
  /// stays complete until the instance ends: repeated reads skip the scan.
  void checkTileWritten(int t);
  /// Records that every element of tile t is written (its shadow bytes all set).
  void markComplete(int t) { complete_[static_cast<size_t>(t)] = 1; }
  /// Notes that tile t's shadow bytes may be set in this instance.
  void noteTileWritten(int t) {
    uint8_t &marked = tileWritten_[static_cast<size_t>(t)];
    if (!marked)
      writtenList_.push_back(t);
    marked = 1;
  }
  /// The row-major elements elems[0..n) of tile t into v[0..n); with
  /// `check`, each is checked in order as readElement does.
  void readElements(int t, const int64_t *elems, int64_t n, Values &v, bool check);
  /// v[0..n) into the row-major elements elems[0..n) of tile t, marked written.
  void writeElements(int t, const int64_t *elems, int64_t n, const Values &v);
  /// Scratchpad bytes of element e of tile t (checked to be written when reading).
  uint8_t *elementBytes(int t, int64_t e);
  void checkWritten(int t, int64_t e);
  /// A tile's bytes and written-shadow in this instance's placement, and the
  /// position of each element (row-major) relative to them.
  struct TileBytes {
    uint8_t *data = nullptr;
    uint8_t *shadow = nullptr;
    const int64_t *pos = nullptr;
  };
  TileBytes tileBytes(int t) {
    const int64_t begin = program_.tiles[static_cast<size_t>(t)].bankOffset + shift_;
    noteTileWritten(t); // conservatively: the caller may write
    return TileBytes{spad_.data() + begin, written_.data() + begin, positionsOf(t)};
  }
  /// Where each element of tile t (row-major) lies relative to the tile's
  /// bytes: lane * bank stride + slot * size; computed on first use in a launch.
  const int64_t *positionsOf(int t) {
    if (!positionsReady_[static_cast<size_t>(layoutClass_[static_cast<size_t>(t)])])
      computePositions(t);
    return positions_[static_cast<size_t>(layoutClass_[static_cast<size_t>(t)])].data();
  }
  /// One element, checked to be written / marked written.
  Scalar readElement(int t, int64_t e);
  void writeElement(int t, int64_t e, const Scalar &v);
  void markWritten(int t, int64_t e);

  /// Reusable value arrays (kScratch of them, so references stay valid).
  static constexpr size_t kScratch = 12;
  Values &scratch(size_t k) { return scratch_.at(k); }
  void countElements(int64_t n) { current_.elements = n; }
  void countStreamedRows(int64_t rows) { current_.streamedRows = rows; }
  int64_t countedElements() const { return current_.elements; }
  /// Runs the next instructions with or without values (DmaUnit::dmaAbsent's
  /// address-only transfer inside a run that computes values).
  void setComputeValues(bool values) { valuesNow_ = values; }
  /// Appends DRAM bytes to the current instruction's trace, merged into the
  /// last run when they continue it (inline: DMA calls it per element).
  void addDram(uint64_t address, uint32_t bytes, bool write) {
    if (!options_.listener)
      return;
    std::vector<npu::DramRun> &runs = current_.dram;
    if (!runs.empty()) {
      npu::DramRun &last = runs.back();
      if (last.write == write && last.address + last.bytes == address) {
        last.bytes += bytes;
        return;
      }
    }
    runs.push_back(npu::DramRun{address, bytes, write});
  }
  RunStats &stats() { return stats_; }
  /// Whether a listener takes the trace of DRAM runs.
  bool tracing() const { return options_.listener != nullptr; }
  /// Whether tile t is known complete in this instance (see checkTileWritten).
  bool tileComplete(int t) const { return complete_[static_cast<size_t>(t)] != 0; }

  /// Applies an element function to n elements (vector.cpp).
  void apply(const npu::ElementFunction &function, const core::ConstSlots *operands, Values &result,
             int64_t n);

  /// The buffer behind a pointer argument and the byte offset it points at.
  Pointer pointer(int argument) const;
  /// Fails unless element `elementOffset` (relative to the pointer) lies inside
  /// the buffer; returns its byte offset in the buffer. `tileElement` (>= 0)
  /// names the data tile element for the message.
  int64_t dramByte(const Pointer &p, int64_t elementOffset, int64_t tileElement) const {
    int64_t byte = 0;
    if (__builtin_mul_overflow(elementOffset, int64_t{p.elementBytes}, &byte) ||
        __builtin_add_overflow(byte, p.byteOffset, &byte) || byte < 0 ||
        byte + p.elementBytes > p.buffer->size())
      outOfBounds(p, elementOffset, tileElement);
    return byte;
  }
  [[noreturn]] void outOfBounds(const Pointer &p, int64_t elementOffset, int64_t tileElement) const;
  /// Whether every element offset of offsets[0..n) lies inside the buffer
  /// (then no element needs dramByte's check).
  bool allInside(const Pointer &p, const int64_t *offsets, int64_t n) const;

private:
  void runInstance(int64_t linear, int64_t x, int64_t y, int64_t z);
  void execute(const std::vector<Instruction> &body);
  void executeOne(const Instruction &in);
  void scalarUnit(const Instruction &in);
  void control(const Instruction &in);
  void checkTileInBank(int t) const;
  /// Marks tile t's bytes unwritten in this instance (an address-only run's
  /// DMA load or skipped instruction leaves no values there).
  void forgetTile(int t);
  /// Clears the shadow bytes of every tile this instance wrote (end of an instance).
  void clearWrittenShadow();
  /// Whether every tile of `reads` (an instruction's npu::readTiles) is written.
  bool operandsAvailable(const std::vector<int> &reads);
  /// The first row-major element of tile t with a byte not written in this
  /// instance, or -1 (then the tile is remembered as complete).
  int64_t firstUnwritten(int t);
  void number(const std::vector<Instruction> &body, int &next);

  const npu::Program &program_;
  Grid grid_;
  std::vector<DramBuffer> &buffers_;
  const std::vector<LaunchArgument> &arguments_;
  RunOptions options_;
  RunStats stats_;

  void computePositions(int t);

  int64_t bankBytes_ = 0, bankStride_ = 0;
  Workspace::Storage ownStorage_;
  Workspace::Storage &storage_; // ownStorage_ or the options' workspace
  std::vector<uint8_t> &spad_, &written_;
  std::vector<std::vector<int64_t>> &positions_; // per layout class, per element: see positionsOf
  std::vector<int> layoutClass_;                 // per tile: its layout's index in positions_
  std::vector<uint8_t> positionsReady_;          // per layout class: positions_ computed in this launch
  std::vector<uint8_t> tileWritten_;             // per tile: written in this instance
  std::vector<int> writtenList_;                 // the tiles of tileWritten_, in the order they were marked
  std::vector<std::pair<int64_t, int64_t>> clearRanges_; // clearWrittenShadow's byte ranges, kept to reuse
  std::vector<uint8_t> complete_;                        // per tile: every element written in this instance
  // An address-only run of a program with masked DMA still computes, on the
  // vector and cross-lane units, every tile whose operands it computed itself
  // (program ids, constants, iotas and what follows from them), so that each
  // transfer's mask, and with it the bytes it moves, is what a run with values
  // gives. Tiles a DMA load or a skipped instruction writes are marked
  // unwritten, so nothing computed from DRAM contents is ever taken for valid.
  bool maskValues_ = false;
  bool valuesNow_ = true;
  // Per tile, in such a run: its bytes overlap those of a tile a DMA mask or
  // index reads, directly or through vector and cross-lane instructions. Only
  // instructions that write such a tile are computed; the rest cannot change
  // what a mask or index holds.
  std::vector<uint8_t> addressTile_;
  void findAddressTiles();
  bool writesAddressTile(const Instruction &in) const;
  int64_t shift_ = 0; // instanceBankStride placement of this instance
  std::vector<Scalar> regs_;
  std::vector<Values> scratch_ = std::vector<Values>(kScratch);
  std::vector<uint8_t> mask_; // readMask's bytes
  /// The bool tile whose bytes mask_ holds, or -1. Consecutive DMAs of a
  /// program often share one mask: it stays valid while only DMAs run that
  /// write no scratchpad bytes of it, within one instance (forgetMask).
  int maskOf_ = -1;
  /// Drops mask_ when `in` may change the bytes of its tile.
  void forgetMask(const Instruction &in);
  std::unordered_map<const Instruction *, int> positionOf_;
  // The units that compute, each with its own state (units.h).
  VectorUnit vectorUnit_{*this};
  ReduceUnit reduceUnit_{*this};
  DmaUnit dmaUnit_{*this};
  SystolicUnit systolicUnit_{*this};

  int64_t instance_ = 0, pid_[3] = {0, 0, 0};
  const Instruction *instruction_ = nullptr;
  npu::ExecutedInstruction current_;
  npu::InstanceTrace trace_;
};

} // namespace npusim::functional::detail
