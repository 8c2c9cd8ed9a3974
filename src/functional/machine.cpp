// The launch loop, control flow, the scalar unit and scratchpad access.
#include "functional/machine.h"

#include "npu/layout.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <sstream>
#include <type_traits>

namespace npusim::functional {
namespace detail {

namespace {

/// Calls fn(lane, count) for each lane of a tile's layout with elements in
/// it: they fill a prefix of `count` slots of the lane (docs/npu.md §2).
template <class Fn> void forEachLane(const npu::TileLayout &l, int lanes, Fn &&fn) {
  const int64_t n = l.numElements();
  const int64_t laneExtent = l.shape[static_cast<size_t>(l.laneAxis)];
  if (n == 0)
    return;
  for (int lane = 0; lane < std::min<int64_t>(lanes, laneExtent); ++lane)
    fn(lane, (laneExtent - lane + lanes - 1) / lanes * (n / laneExtent));
}

bool dmaReadsTiles(const std::vector<Instruction> &body) {
  for (const Instruction &in : body) {
    const npu::Unit unit = npu::unitOf(in.opcode);
    if ((unit == npu::Unit::Dma && (in.dma.maskTile >= 0 || in.dma.gathered())) || dmaReadsTiles(in.body) ||
        dmaReadsTiles(in.elseBody))
      return true;
  }
  return false;
}

} // namespace

Machine::Machine(const npu::Program &program, const Grid &grid, std::vector<DramBuffer> &buffers,
                 const std::vector<LaunchArgument> &arguments, const RunOptions &options)
    : program_(program), grid_(grid), buffers_(buffers), arguments_(arguments), options_(options),
      storage_(options.workspace ? *options.workspace->storage_ : ownStorage_), spad_(storage_.spad),
      written_(storage_.written), positions_(storage_.positions) {
  auto setupError = [&](const std::string &message) {
    throw core::RuntimeError("kernel '" + program_.kernelName + "': " + message);
  };
  if (program_.lanes <= 0 || program_.spadBytesPerLane <= 0)
    setupError("the program has no lanes or no scratchpad");
  if (grid_.x < 1 || grid_.y < 1 || grid_.z < 1)
    setupError("empty launch grid");
  if (options_.numCores < 1)
    setupError("numCores must be at least 1");
  if (arguments_.size() != program_.arguments.size())
    setupError("the launch passes " + std::to_string(arguments_.size()) + " arguments, the program takes " +
               std::to_string(program_.arguments.size()));
  for (size_t a = 0; a < arguments_.size(); ++a)
    if (program_.arguments[a].isPointer) {
      const int b = arguments_[a].buffer;
      if (b < 0 || b >= static_cast<int>(buffers_.size()) || !buffers_[static_cast<size_t>(b)].bytes)
        setupError("pointer argument '" + program_.arguments[a].name + "' has no buffer");
    }
  bankBytes_ = program_.spadBytesPerLane;
  // Only the bytes the program's tiles can occupy are stored (both placements
  // of an instance): a launch then clears kilobytes per lane instead of the
  // whole bank. Whether a tile lies inside the bank is checked against
  // bankBytes_ all the same. Banks are stored one after another with a cache
  // line of padding between them: with a power-of-two size, the same slot of
  // every lane would otherwise map to the same cache set.
  int64_t stored = 0;
  for (const npu::Tile &tile : program_.tiles)
    stored =
        std::max(stored, std::max<int64_t>(0, tile.bankOffset) + tile.layout.bytesPerLane(program_.lanes));
  stored += std::max<int64_t>(0, program_.instanceBankStride);
  bankStride_ = (stored + 63) / 64 * 64 + 64;
  const size_t spadSize = static_cast<size_t>(bankStride_) * static_cast<size_t>(program_.lanes);
  valuesNow_ = options_.computeValues;
  maskValues_ = !options_.computeValues && dmaReadsTiles(program_.body);
  if (maskValues_)
    findAddressTiles();
  if (options_.computeValues || maskValues_) {
    // Nothing reads scratchpad bytes this launch did not write (the shadow
    // says which), so the banks keep what an earlier launch left there.
    if (!storage_.clean)
      std::fill(written_.begin(), written_.end(), 0);
    if (spad_.size() < spadSize) {
      spad_.resize(spadSize, 0);
      written_.resize(spadSize, 0);
    }
    storage_.clean = false; // until the launch ends normally
    if (positions_.size() < program_.tiles.size())
      positions_.resize(program_.tiles.size());
    positionsReady_.assign(program_.tiles.size(), 0);
  }
  tileWritten_.assign(program_.tiles.size(), 0);
  complete_.assign(program_.tiles.size(), 0);
  regs_.resize(program_.scalarRegs.size());
  int next = 0;
  number(program_.body, next);
}

Machine::~Machine() = default;

void Machine::computePositions(int t) {
  npu::elementPositions(layout(t), program_.lanes, bankStride_, positions_[static_cast<size_t>(t)]);
  positionsReady_[static_cast<size_t>(t)] = 1;
}

void Machine::number(const std::vector<Instruction> &body, int &next) {
  for (const Instruction &in : body) {
    positionOf_[&in] = next++;
    number(in.body, next);
    number(in.elseBody, next);
  }
}

void Machine::fail(const std::string &message) const {
  std::ostringstream s;
  s << "kernel '" << program_.kernelName << "', program instance " << instance_ << " (pid " << pid_[0] << ", "
    << pid_[1] << ", " << pid_[2] << ")";
  if (instruction_) {
    s << ", instruction #" << positionOf_.at(instruction_) << " " << npu::name(instruction_->opcode);
    if (instruction_->loc.known())
      s << " (" << instruction_->loc.str() << ")";
  }
  s << ": " << message;
  throw core::RuntimeError(s.str());
}

RunStats Machine::run() {
  for (int64_t z = 0; z < grid_.z; ++z)
    for (int64_t y = 0; y < grid_.y; ++y)
      for (int64_t x = 0; x < grid_.x; ++x)
        runInstance(x + grid_.x * (y + grid_.y * z), x, y, z);
  storage_.clean = true; // every instance cleared the shadow bytes it set
  return stats_;
}

void Machine::runInstance(int64_t linear, int64_t x, int64_t y, int64_t z) {
  instance_ = linear;
  pid_[0] = x;
  pid_[1] = y;
  pid_[2] = z;
  instruction_ = nullptr;
  const int64_t ordinalOnCore = linear / options_.numCores;
  shift_ = (ordinalOnCore % 2 == 1) ? program_.instanceBankStride : 0;
  trace_ = npu::InstanceTrace{};
  trace_.instance = linear;
  for (ArrayState &array : arrays)
    array.loaded = false; // keeps the weight storage for the next instance
  std::fill(regs_.begin(), regs_.end(), Scalar{});
  execute(program_.body);
  // Forget what this instance wrote: the next one must not read it.
  std::fill(complete_.begin(), complete_.end(), 0);
  if (!written_.empty())
    clearWrittenShadow();
  ++stats_.instances;
  if (options_.listener)
    options_.listener->instanceDone(std::move(trace_));
}

void Machine::clearWrittenShadow() {
  // Tiles with disjoint lifetimes share bytes: clear the union of the written
  // tiles' byte ranges, each byte once per lane.
  clearRanges_.clear();
  for (const int t : writtenList_) {
    tileWritten_[static_cast<size_t>(t)] = 0;
    const npu::Tile &tile = program_.tiles[static_cast<size_t>(t)];
    const int64_t begin = tile.bankOffset + shift_;
    clearRanges_.emplace_back(begin, begin + tile.layout.bytesPerLane(program_.lanes));
  }
  std::sort(clearRanges_.begin(), clearRanges_.end());
  size_t merged = 0;
  for (const auto &[begin, end] : clearRanges_) {
    if (merged > 0 && begin <= clearRanges_[merged - 1].second)
      clearRanges_[merged - 1].second = std::max(clearRanges_[merged - 1].second, end);
    else
      clearRanges_[merged++] = {begin, end};
  }
  clearRanges_.resize(merged);
  writtenList_.clear();
  for (int lane = 0; lane < program_.lanes; ++lane)
    for (const auto &[begin, end] : clearRanges_)
      std::memset(written_.data() + lane * bankStride_ + begin, 0, static_cast<size_t>(end - begin));
}

void Machine::execute(const std::vector<Instruction> &body) {
  for (const Instruction &in : body)
    executeOne(in);
}

void Machine::executeOne(const Instruction &in) {
  instruction_ = &in;
  ++stats_.instructions;
  current_ = npu::ExecutedInstruction{};
  current_.instruction = &in;
  const npu::Unit unit = npu::unitOf(in.opcode);
  if (maskValues_)
    valuesNow_ = (unit == npu::Unit::Vector || unit == npu::Unit::CrossLane) && writesAddressTile(in) &&
                 operandsAvailable(in);
  if (valuesNow_ || unit == npu::Unit::Scalar || unit == npu::Unit::Control || unit == npu::Unit::Dma) {
    if (valuesNow_ || unit == npu::Unit::Dma)
      for (int t : npu::readTiles(in))
        checkTileInBank(t);
    for (int t : in.dsts)
      checkTileInBank(t);
  }
  switch (unit) {
  case npu::Unit::Scalar: scalarUnit(in); break;
  case npu::Unit::Dma: dmaUnit(in); break;
  case npu::Unit::Vector:
  case npu::Unit::CrossLane:
    if (in.opcode == npu::Opcode::VReduce || in.opcode == npu::Opcode::VScan ||
        in.opcode == npu::Opcode::VSort || in.opcode == npu::Opcode::XReduce ||
        in.opcode == npu::Opcode::XScan || in.opcode == npu::Opcode::XSort)
      reduceUnit(in);
    else
      vectorUnit(in);
    break;
  case npu::Unit::Systolic: systolicUnit(in); break;
  case npu::Unit::Control: break;
  }
  if (maskValues_ && !valuesNow_ && unit != npu::Unit::Control)
    for (int t : npu::writtenTiles(in))
      forgetTile(t);
  if (unit != npu::Unit::Control) {
    if (options_.listener)
      trace_.instructions.push_back(std::move(current_));
    return;
  }
  // Control instructions are recorded before their bodies run.
  if (options_.listener)
    trace_.instructions.push_back(std::move(current_));
  control(in);
  instruction_ = nullptr;
}

bool Machine::tileAvailable(int t) {
  return firstUnwritten(t) < 0;
}

int64_t Machine::firstUnwritten(int t) {
  if (complete_[static_cast<size_t>(t)])
    return -1;
  const npu::Tile &tile = program_.tiles[static_cast<size_t>(t)];
  const uint8_t *shadow = written_.data() + tile.bankOffset + shift_;
  const int size = core::byteSize(tile.layout.dtype);
  bool complete = true;
  forEachLane(tile.layout, program_.lanes, [&](int lane, int64_t count) {
    complete = complete && !std::memchr(shadow + lane * bankStride_, 0, static_cast<size_t>(count * size));
  });
  if (complete) {
    complete_[static_cast<size_t>(t)] = 1;
    return -1;
  }
  // Name the first unwritten element in row-major order: the zero byte lies
  // in some element's bytes.
  const int64_t *pos = positionsOf(t);
  for (int64_t e = 0; e < tile.layout.numElements(); ++e)
    for (int b = 0; b < size; ++b)
      if (!shadow[pos[e] + b])
        return e;
  return 0;
}

bool Machine::operandsAvailable(const Instruction &in) {
  for (int t : npu::readTiles(in)) {
    checkTileInBank(t);
    if (!tileAvailable(t))
      return false;
  }
  return true;
}

void Machine::findAddressTiles() {
  const size_t tiles = program_.tiles.size();
  addressTile_.assign(tiles, 0);
  std::vector<const Instruction *> all;
  std::function<void(const std::vector<Instruction> &)> collect = [&](const std::vector<Instruction> &body) {
    for (const Instruction &in : body) {
      all.push_back(&in);
      collect(in.body);
      collect(in.elseBody);
    }
  };
  collect(program_.body);
  // Tiles sharing bytes (views, reused offsets) are not told apart: one that
  // overlaps an address tile is one.
  auto overlap = [&](size_t a, size_t b) {
    const npu::Tile &x = program_.tiles[a], &y = program_.tiles[b];
    return x.bankOffset < y.bankOffset + y.layout.bytesPerLane(program_.lanes) &&
           y.bankOffset < x.bankOffset + x.layout.bytesPerLane(program_.lanes);
  };
  std::vector<size_t> work;
  auto mark = [&](int t) {
    if (t < 0 || static_cast<size_t>(t) >= tiles || addressTile_[static_cast<size_t>(t)])
      return;
    addressTile_[static_cast<size_t>(t)] = 1;
    work.push_back(static_cast<size_t>(t));
  };
  for (const Instruction *in : all)
    if (npu::unitOf(in->opcode) == npu::Unit::Dma) {
      mark(in->dma.maskTile);
      if (in->dma.gathered())
        mark(in->dma.indexTile);
    }
  while (!work.empty()) {
    const size_t t = work.back();
    work.pop_back();
    for (size_t u = 0; u < tiles; ++u)
      if (!addressTile_[u] && overlap(t, u))
        mark(static_cast<int>(u));
    for (const Instruction *in : all) {
      const npu::Unit unit = npu::unitOf(in->opcode);
      if (unit != npu::Unit::Vector && unit != npu::Unit::CrossLane)
        continue;
      const std::vector<int> written = npu::writtenTiles(*in);
      if (std::find(written.begin(), written.end(), static_cast<int>(t)) != written.end())
        for (int r : npu::readTiles(*in))
          mark(r);
    }
  }
}

bool Machine::writesAddressTile(const Instruction &in) const {
  for (int t : npu::writtenTiles(in))
    if (addressTile_[static_cast<size_t>(t)])
      return true;
  return false;
}

void Machine::forgetTile(int t) {
  const npu::Tile &tile = program_.tiles[static_cast<size_t>(t)];
  const int64_t begin = tile.bankOffset + shift_, bytes = tile.layout.bytesPerLane(program_.lanes);
  // Only tiles marked written in this instance have set shadow bytes (an
  // instance starts with a clear shadow): when none of them overlaps this
  // tile, its shadow bytes are clear already and no tile's completeness changes.
  const bool overlapsWritten = std::any_of(writtenList_.begin(), writtenList_.end(), [&](int w) {
    const npu::Tile &other = program_.tiles[static_cast<size_t>(w)];
    return other.bankOffset < tile.bankOffset + bytes &&
           tile.bankOffset < other.bankOffset + other.layout.bytesPerLane(program_.lanes);
  });
  if (!overlapsWritten)
    return;
  for (int lane = 0; lane < program_.lanes; ++lane)
    std::memset(written_.data() + lane * bankStride_ + begin, 0, static_cast<size_t>(bytes));
  // Tiles over the same bytes (views, reused offsets) are not known here, so
  // every tile's completeness is checked again.
  std::fill(complete_.begin(), complete_.end(), 0);
}

void Machine::checkTileInBank(int t) const {
  const npu::Tile &tile = program_.tiles[static_cast<size_t>(t)];
  const int64_t begin = tile.bankOffset + shift_, end = begin + tile.layout.bytesPerLane(program_.lanes);
  if (begin < 0 || end > bankBytes_)
    fail("scratchpad overflow: tile t" + std::to_string(t) + " (" + tile.name + ") occupies bank bytes [" +
         std::to_string(begin) + ", " + std::to_string(end) + ") of a " + std::to_string(bankBytes_) +
         "-byte bank" + (shift_ ? " (odd instance, placed instanceBankStride higher)" : ""));
}

// ------------------------------------------------------------ scalars

Scalar Machine::scalar(const npu::ScalarOperand &operand) const {
  if (operand.isRegister()) {
    const Scalar &r = regs_[static_cast<size_t>(operand.reg)];
    if (core::isFloatType(program_.scalarRegs[static_cast<size_t>(operand.reg)].dtype))
      return Scalar{core::floatToInt<DType::Int64>(r.f), r.f};
    return Scalar{r.i, static_cast<double>(r.i)};
  }
  return Scalar{operand.intValue, operand.floatValue};
}

int64_t Machine::scalarInt(const npu::ScalarOperand &operand) const {
  if (operand.isRegister() && core::isFloatType(program_.scalarRegs[static_cast<size_t>(operand.reg)].dtype))
    return core::floatToInt<DType::Int64>(regs_[static_cast<size_t>(operand.reg)].f);
  return scalar(operand).i;
}

Scalar Machine::scalarAs(const npu::ScalarOperand &operand, DType d) const {
  Scalar s = scalar(operand);
  if (core::isFloatType(d)) {
    s.f = core::roundFloatTo(d, s.f);
  } else {
    if (operand.isRegister() &&
        core::isFloatType(program_.scalarRegs[static_cast<size_t>(operand.reg)].dtype))
      s.i = core::floatToInt<DType::Int64>(s.f);
    s.i = d == DType::Bool ? (s.i != 0 ? 1 : 0) : core::wrapIntTo(d, static_cast<uint64_t>(s.i));
  }
  return s;
}

void Machine::scalarUnit(const Instruction &in) {
  const auto regType = [&](int r) { return program_.scalarRegs[static_cast<size_t>(r)].dtype; };
  auto set = [&](const Scalar &v) {
    regs_[static_cast<size_t>(in.dstReg)] = scalarValue(v, regType(in.dstReg));
  };
  switch (in.opcode) {
  case npu::Opcode::SMove: set(scalarAs(in.scalars.at(0), regType(in.dstReg))); return;
  case npu::Opcode::SArgument: {
    const LaunchArgument &a = arguments_[static_cast<size_t>(in.argument)];
    set(Scalar{a.intValue, a.floatValue});
    return;
  }
  case npu::Opcode::SProgramId: set(Scalar{pid_[in.axis], 0.0}); return;
  case npu::Opcode::SNumPrograms: {
    const int64_t sizes[3] = {grid_.x, grid_.y, grid_.z};
    set(Scalar{sizes[in.axis], 0.0});
    return;
  }
  case npu::Opcode::SElementwise: {
    const npu::ElementFunction &f = in.function;
    Scalar operands[3];
    core::ConstSlots slots[3];
    for (int k = 0; k < f.arity(); ++k) {
      const DType d = (f.op == npu::ElementOp::Select && k == 0) ? DType::Bool : f.operandType;
      operands[k] = scalarAs(in.scalars.at(static_cast<size_t>(k)), d);
      slots[k] = core::ConstSlots{&operands[k].f, &operands[k].i};
    }
    Values &result = scratch(0);
    result.define(f.op == npu::ElementOp::Cmp ? DType::Bool : f.resultType, 1);
    apply(f, slots, result, 1);
    set(result.isFloat() ? Scalar{0, result.f[0]} : Scalar{result.i[0], 0.0});
    return;
  }
  case npu::Opcode::SLoad:
  case npu::Opcode::SStore: {
    const Pointer p = pointer(in.argument);
    const int64_t element = scalarInt(in.scalars.at(0));
    const int64_t byte = dramByte(p, element, -1);
    uint8_t *q = p.buffer->bytes->data() + byte;
    const DType d = program_.arguments[static_cast<size_t>(in.argument)].dtype;
    const bool write = in.opcode == npu::Opcode::SStore;
    addDram(p.buffer->address + static_cast<uint64_t>(byte), static_cast<uint32_t>(p.elementBytes), write);
    (write ? stats_.dmaBytesWritten : stats_.dmaBytesRead) += p.elementBytes;
    if (!write) {
      uint64_t bits = 0;
      std::memcpy(&bits, q, static_cast<size_t>(p.elementBytes));
      Scalar v;
      core::fromBits(d, bits, v.f, v.i);
      set(v);
    } else if (options_.computeValues) {
      const Scalar v = scalarAs(in.scalars.at(1), d);
      const uint64_t bits = core::toBits(d, v.f, v.i);
      std::memcpy(q, &bits, static_cast<size_t>(p.elementBytes));
    }
    current_.elements = 1;
    return;
  }
  default: fail("internal: not a scalar instruction");
  }
}

void Machine::control(const Instruction &in) {
  switch (in.opcode) {
  case npu::Opcode::Loop: {
    const int64_t lower = scalarInt(in.scalars.at(0)), upper = scalarInt(in.scalars.at(1)),
                  step = scalarInt(in.scalars.at(2));
    if (step == 0)
      fail("loop step is 0");
    const DType ivType = program_.scalarRegs[static_cast<size_t>(in.dstReg)].dtype;
    int64_t iterations = 0;
    for (int64_t iv = lower; step > 0 ? iv < upper : iv > upper;) {
      if (++iterations > options_.maxLoopIterations)
        fail("loop ran more than " + std::to_string(options_.maxLoopIterations) + " iterations");
      regs_[static_cast<size_t>(in.dstReg)] = scalarValue(Scalar{iv, static_cast<double>(iv)}, ivType);
      execute(in.body);
      instruction_ = &in;
      if (__builtin_add_overflow(iv, step, &iv))
        break; // past the end of int64: no further iteration
    }
    return;
  }
  case npu::Opcode::If: execute(scalarInt(in.scalars.at(0)) != 0 ? in.body : in.elseBody); return;
  case npu::Opcode::Barrier: return;
  case npu::Opcode::Assert: {
    if (!options_.computeValues)
      return;
    if (!in.srcs.empty()) {
      Values &v = scratch(0);
      readTile(in.srcs[0], v);
      for (int64_t e = 0; e < v.size; ++e)
        if (!v.i[static_cast<size_t>(e)])
          fail("assertion failed at element " + std::to_string(e) + " of tile t" +
               std::to_string(in.srcs[0]) + ": " + in.message);
    } else if (scalarInt(in.scalars.at(0)) == 0) {
      fail("assertion failed: " + in.message);
    }
    return;
  }
  default: fail("internal: not a control instruction");
  }
}

Scalar scalarValue(const Scalar &v, DType d) {
  if (core::isFloatType(d))
    return Scalar{0, core::roundFloatTo(d, v.f)};
  return Scalar{d == DType::Bool ? (v.i != 0 ? 1 : 0) : core::wrapIntTo(d, static_cast<uint64_t>(v.i)), 0.0};
}

// ------------------------------------------------------------ scratchpad

uint8_t *Machine::elementBytes(int t, int64_t e) {
  return spad_.data() + program_.tiles[static_cast<size_t>(t)].bankOffset + shift_ + positionsOf(t)[e];
}

void Machine::checkWritten(int t, int64_t e) {
  const npu::Tile &tile = program_.tiles[static_cast<size_t>(t)];
  const int64_t p = tile.bankOffset + shift_ + positionsOf(t)[e];
  const int size = core::byteSize(tile.layout.dtype);
  for (int b = 0; b < size; ++b)
    if (!written_[static_cast<size_t>(p + b)]) {
      const int64_t lane = p / bankStride_;
      fail("reads scratchpad bytes nothing wrote in this instance: tile t" + std::to_string(t) + " (" +
           tile.name + ") element " + std::to_string(e) + ", lane " + std::to_string(lane) + " bank byte " +
           std::to_string(p - lane * bankStride_ + b));
    }
}

void Machine::markWritten(int t, int64_t e) {
  const npu::Tile &tile = program_.tiles[static_cast<size_t>(t)];
  const int64_t p = tile.bankOffset + shift_ + positionsOf(t)[e];
  std::memset(written_.data() + p, 1, static_cast<size_t>(core::byteSize(tile.layout.dtype)));
  noteTileWritten(t);
}

Scalar Machine::readElement(int t, int64_t e) {
  checkWritten(t, e);
  const DType d = layout(t).dtype;
  uint64_t bits = 0;
  std::memcpy(&bits, elementBytes(t, e), static_cast<size_t>(core::byteSize(d)));
  Scalar v;
  core::fromBits(d, bits, v.f, v.i);
  return v;
}

void Machine::writeElement(int t, int64_t e, const Scalar &v) {
  const DType d = layout(t).dtype;
  const uint64_t bits = core::toBits(d, v.f, v.i);
  std::memcpy(elementBytes(t, e), &bits, static_cast<size_t>(core::byteSize(d)));
  markWritten(t, e);
}

namespace {

template <class T> T load(const uint8_t *p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
template <class T> void store(uint8_t *p, T v) {
  std::memcpy(p, &v, sizeof v);
}

} // namespace

namespace {

/// Decodes n elements of dtype d at base + pos(e) into slots.
template <class Pos> void decode(DType d, const uint8_t *base, Pos pos, int64_t n, Values &v) {
  double *f = v.f.data();
  int64_t *iv = v.i.data();
  switch (d) {
  case DType::Float32:
    for (int64_t e = 0; e < n; ++e)
      f[e] = load<float>(base + pos(e));
    break;
  case DType::Float64:
    for (int64_t e = 0; e < n; ++e)
      f[e] = load<double>(base + pos(e));
    break;
  case DType::Float16:
    for (int64_t e = 0; e < n; ++e)
      f[e] = core::halfToFloat(load<uint16_t>(base + pos(e)));
    break;
  case DType::BFloat16:
    for (int64_t e = 0; e < n; ++e)
      f[e] = core::bfloat16ToFloat(load<uint16_t>(base + pos(e)));
    break;
  case DType::Bool:
    for (int64_t e = 0; e < n; ++e)
      iv[e] = base[pos(e)] != 0 ? 1 : 0;
    break;
  case DType::Int8:
    for (int64_t e = 0; e < n; ++e)
      iv[e] = load<int8_t>(base + pos(e));
    break;
  case DType::UInt8:
    for (int64_t e = 0; e < n; ++e)
      iv[e] = base[pos(e)];
    break;
  case DType::Int16:
    for (int64_t e = 0; e < n; ++e)
      iv[e] = load<int16_t>(base + pos(e));
    break;
  case DType::UInt16:
    for (int64_t e = 0; e < n; ++e)
      iv[e] = load<uint16_t>(base + pos(e));
    break;
  case DType::Int32:
    for (int64_t e = 0; e < n; ++e)
      iv[e] = load<int32_t>(base + pos(e));
    break;
  case DType::UInt32:
    for (int64_t e = 0; e < n; ++e)
      iv[e] = load<uint32_t>(base + pos(e));
    break;
  case DType::Int64:
  case DType::UInt64:
    for (int64_t e = 0; e < n; ++e)
      iv[e] = load<int64_t>(base + pos(e));
    break;
  }
}

/// Encodes n slots as dtype d at base + pos(e) and marks them in the shadow
/// (unless that is null: the caller marks them).
template <class Pos>
void encode(DType d, uint8_t *base, uint8_t *shadow, Pos pos, int64_t n, const Values &v) {
  const double *f = v.f.data();
  const int64_t *iv = v.i.data();
  switch (d) {
  case DType::Float32:
    for (int64_t e = 0; e < n; ++e)
      store<float>(base + pos(e), static_cast<float>(f[e]));
    break;
  case DType::Float64:
    for (int64_t e = 0; e < n; ++e)
      store<double>(base + pos(e), f[e]);
    break;
  case DType::Float16:
    for (int64_t e = 0; e < n; ++e)
      store<uint16_t>(base + pos(e), core::floatToHalf(static_cast<float>(f[e])));
    break;
  case DType::BFloat16:
    for (int64_t e = 0; e < n; ++e)
      store<uint16_t>(base + pos(e), core::floatToBFloat16(static_cast<float>(f[e])));
    break;
  case DType::Bool:
  case DType::Int8:
  case DType::UInt8:
    for (int64_t e = 0; e < n; ++e)
      base[pos(e)] = static_cast<uint8_t>(iv[e]);
    break;
  case DType::Int16:
  case DType::UInt16:
    for (int64_t e = 0; e < n; ++e)
      store<uint16_t>(base + pos(e), static_cast<uint16_t>(iv[e]));
    break;
  case DType::Int32:
  case DType::UInt32:
    for (int64_t e = 0; e < n; ++e)
      store<uint32_t>(base + pos(e), static_cast<uint32_t>(iv[e]));
    break;
  case DType::Int64:
  case DType::UInt64:
    for (int64_t e = 0; e < n; ++e)
      store<int64_t>(base + pos(e), iv[e]);
    break;
  }
  if (!shadow)
    return;
  const int size = core::byteSize(d);
  if (size == 4)
    for (int64_t e = 0; e < n; ++e)
      store<uint32_t>(shadow + pos(e), 0x01010101u);
  else
    for (int64_t e = 0; e < n; ++e)
      std::memset(shadow + pos(e), 1, static_cast<size_t>(size));
}

} // namespace

void Machine::readTile(int t, Values &v) {
  const npu::Tile &tile = program_.tiles[static_cast<size_t>(t)];
  const DType d = tile.layout.dtype;
  const int64_t n = tile.layout.numElements();
  v.define(d, n);
  const int64_t *pos = positionsOf(t);
  const uint8_t *base = spad_.data() + tile.bankOffset + shift_;
  checkTileWritten(t);
  decode(
      d, base, [pos](int64_t e) { return pos[e]; }, n, v);
}

void Machine::checkTileWritten(int t) {
  if (const int64_t e = firstUnwritten(t); e >= 0)
    checkWritten(t, e);
}

void Machine::readElements(int t, const int64_t *elems, int64_t n, Values &v, bool check) {
  const npu::Tile &tile = program_.tiles[static_cast<size_t>(t)];
  const DType d = tile.layout.dtype;
  v.define(d, n);
  const int64_t *pos = positionsOf(t);
  const int64_t begin = tile.bankOffset + shift_;
  if (check) {
    const uint8_t *shadow = written_.data() + begin;
    const int size = core::byteSize(d);
    for (int64_t e = 0; e < n; ++e) {
      const uint8_t *s = shadow + pos[elems[e]];
      // All bytes, as readElement checks them.
      for (int b = 0; b < size; ++b)
        if (!s[b]) {
          checkWritten(t, elems[e]);
          break;
        }
    }
  }
  decode(
      d, spad_.data() + begin, [pos, elems](int64_t e) { return pos[elems[e]]; }, n, v);
}

void Machine::writeElements(int t, const int64_t *elems, int64_t n, const Values &v) {
  const npu::Tile &tile = program_.tiles[static_cast<size_t>(t)];
  const int64_t *pos = positionsOf(t);
  const int64_t begin = tile.bankOffset + shift_;
  encode(
      tile.layout.dtype, spad_.data() + begin, written_.data() + begin,
      [pos, elems](int64_t e) { return pos[elems[e]]; }, n, v);
  noteTileWritten(t);
}

void Machine::writeTile(int t, const Values &v) {
  const npu::Tile &tile = program_.tiles[static_cast<size_t>(t)];
  const int64_t n = tile.layout.numElements();
  const int64_t *pos = positionsOf(t);
  const int64_t begin = tile.bankOffset + shift_;
  encode(
      tile.layout.dtype, spad_.data() + begin, nullptr, [pos](int64_t e) { return pos[e]; }, n, v);
  markTileWritten(t);
  current_.elements = n;
}

void Machine::readLane(int t, int lane, int64_t count, Values &v) {
  const npu::Tile &tile = program_.tiles[static_cast<size_t>(t)];
  const DType d = tile.layout.dtype;
  v.define(d, count);
  const int64_t begin = tile.bankOffset + shift_ + lane * bankStride_;
  checkLaneWritten(t, lane, count);
  const int size = core::byteSize(d);
  decode(
      d, spad_.data() + begin, [size](int64_t e) { return e * size; }, count, v);
}

void Machine::checkLaneWritten(int t, int lane, int64_t count) {
  const npu::Tile &tile = program_.tiles[static_cast<size_t>(t)];
  if (complete_[static_cast<size_t>(t)]) {
    // Within the lane's own elements a complete tile has nothing unwritten.
    const npu::TileLayout &l = tile.layout;
    const int64_t laneExtent = l.shape[static_cast<size_t>(l.laneAxis)];
    const int64_t own = lane < laneExtent ? (laneExtent - lane + program_.lanes - 1) / program_.lanes *
                                                (l.numElements() / laneExtent)
                                          : 0;
    if (count <= own)
      return;
  }
  const int64_t bytes = count * core::byteSize(tile.layout.dtype);
  const uint8_t *shadow = written_.data() + tile.bankOffset + shift_ + lane * bankStride_;
  if (bytes > 0 && (std::memchr(shadow, 0, static_cast<size_t>(bytes)) != nullptr)) {
    // Name the first unwritten element in row-major terms.
    const int64_t *pos = positionsOf(t);
    for (int64_t e = 0; e < tile.layout.numElements(); ++e)
      if (pos[e] / bankStride_ == lane)
        checkWritten(t, e);
  }
}

void Machine::markTileWritten(int t) {
  forEachLane(layout(t), program_.lanes, [&](int lane, int64_t count) { markLaneWritten(t, lane, count); });
  noteTileWritten(t);
  complete_[static_cast<size_t>(t)] = 1;
}

void Machine::fillTile(int t, uint64_t bits) {
  const int size = core::byteSize(layout(t).dtype);
  forEachLane(layout(t), program_.lanes, [&](int lane, int64_t count) {
    uint8_t *p = laneBytes(t, lane);
    // The element size as a constant, so that the copies compile to moves;
    // little-endian: an element's bytes are the low bytes of `bits`.
    auto fill = [&](auto sizeTag) {
      constexpr size_t S = decltype(sizeTag)::value;
      for (int64_t k = 0; k < count; ++k)
        std::memcpy(p + k * static_cast<int64_t>(S), &bits, S);
    };
    switch (size) {
    case 1: fill(std::integral_constant<size_t, 1>{}); break;
    case 2: fill(std::integral_constant<size_t, 2>{}); break;
    case 4: fill(std::integral_constant<size_t, 4>{}); break;
    default: fill(std::integral_constant<size_t, 8>{}); break;
    }
    markLaneWritten(t, lane, count);
  });
  noteTileWritten(t);
  current_.elements = layout(t).numElements();
}

void Machine::markLaneWritten(int t, int lane, int64_t count) {
  const npu::Tile &tile = program_.tiles[static_cast<size_t>(t)];
  std::memset(written_.data() + tile.bankOffset + shift_ + lane * bankStride_, 1,
              static_cast<size_t>(count * core::byteSize(tile.layout.dtype)));
  noteTileWritten(t);
}

void Machine::writeLane(int t, int lane, int64_t count, const Values &v) {
  const npu::Tile &tile = program_.tiles[static_cast<size_t>(t)];
  const DType d = tile.layout.dtype;
  const int64_t begin = tile.bankOffset + shift_ + lane * bankStride_;
  const int size = core::byteSize(d);
  encode(
      d, spad_.data() + begin, nullptr, [size](int64_t e) { return e * size; }, count, v);
  markLaneWritten(t, lane, count);
}

// ------------------------------------------------------------ DRAM

Machine::Pointer Machine::pointer(int argument) const {
  const LaunchArgument &a = arguments_[static_cast<size_t>(argument)];
  Pointer p;
  p.buffer = &buffers_[static_cast<size_t>(a.buffer)];
  p.elementBytes = core::byteSize(program_.arguments[static_cast<size_t>(argument)].dtype);
  p.byteOffset = a.elementOffset * p.elementBytes;
  return p;
}

void Machine::outOfBounds(const Pointer &p, int64_t elementOffset, int64_t tileElement) const {
  const int64_t size = static_cast<int64_t>(p.buffer->bytes->size());
  // In the buffer's terms: the pointer's own offset plus the element's.
  const int64_t element = static_cast<int64_t>(static_cast<uint64_t>(p.byteOffset / p.elementBytes) +
                                               static_cast<uint64_t>(elementOffset));
  const uint64_t byte = static_cast<uint64_t>(element) * static_cast<uint64_t>(p.elementBytes);
  std::ostringstream s;
  if (tileElement >= 0)
    s << "element " << tileElement << " of the data tile";
  else
    s << "the scalar access";
  s << " is outside buffer '" << p.buffer->name << "' (" << size / p.elementBytes << " elements of "
    << p.elementBytes << " bytes): element offset " << element << ", byte offset "
    << static_cast<int64_t>(byte) << ", address 0x" << std::hex << (p.buffer->address + byte);
  fail(s.str());
}

} // namespace detail

Workspace::Workspace() : storage_(std::make_unique<Storage>()) {}
Workspace::~Workspace() = default;

RunStats run(const npu::Program &program, const Grid &grid, std::vector<DramBuffer> &buffers,
             const std::vector<LaunchArgument> &arguments, const RunOptions &options) {
  detail::Machine machine(program, grid, buffers, arguments, options);
  return machine.run();
}

} // namespace npusim::functional
