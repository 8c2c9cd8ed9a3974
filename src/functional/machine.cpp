// The launch loop: instances, dispatch of instructions to their units,
// control flow, and which tiles an address-only run must compute.
#include "functional/machine.h"

#include "npu/layout.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <sstream>

namespace npusim::functional {
namespace detail {

namespace {

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
      if (b < 0 || b >= static_cast<int>(buffers_.size()) ||
          (!buffers_[static_cast<size_t>(b)].bytes && buffers_[static_cast<size_t>(b)].absentBytes <= 0))
        setupError("pointer argument '" + program_.arguments[a].name + "' has no buffer");
    }
  bankBytes_ = program_.spadBytesPerLane;
  // Only the bytes the program's tiles can occupy are stored (both placements
  // of an instance): a launch then clears kilobytes per lane instead of the
  // whole bank. Whether a tile lies inside the bank is checked against
  // bankBytes_ all the same. Banks are stored one after another with a cache
  // line of padding between them: with a power-of-two size, the same slot of
  // every lane would otherwise map to the same cache set.
  bankStride_ = storedBankBytes(program_);
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
    // Positions depend on the layout alone: tiles of one layout share them.
    std::vector<int> representative; // per layout class, its first tile
    layoutClass_.resize(program_.tiles.size());
    for (size_t t = 0; t < program_.tiles.size(); ++t) {
      size_t c = 0;
      while (c < representative.size() &&
             !(program_.tiles[static_cast<size_t>(representative[c])].layout == program_.tiles[t].layout))
        ++c;
      if (c == representative.size())
        representative.push_back(static_cast<int>(t));
      layoutClass_[t] = static_cast<int>(c);
    }
    if (positions_.size() < representative.size())
      positions_.resize(representative.size());
    positionsReady_.assign(representative.size(), 0);
  }
  tileWritten_.assign(program_.tiles.size(), 0);
  complete_.assign(program_.tiles.size(), 0);
  regs_.resize(program_.scalarRegs.size());
  int next = 0;
  number(program_.body, next);
}

Machine::~Machine() = default;

void Machine::computePositions(int t) {
  const auto c = static_cast<size_t>(layoutClass_[static_cast<size_t>(t)]);
  npu::elementPositions(layout(t), program_.lanes, bankStride_, positions_[c]);
  positionsReady_[c] = 1;
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
      for (int64_t x = 0; x < grid_.x; ++x) {
        if (options_.firstInstances > 0 && stats_.instances >= options_.firstInstances)
          break;
        runInstance(x + grid_.x * (y + grid_.y * z), x, y, z);
      }
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
  systolicUnit_.unload();
  std::fill(regs_.begin(), regs_.end(), Scalar{});
  execute(program_.body);
  // Forget what this instance wrote: the next one must not read it.
  std::fill(complete_.begin(), complete_.end(), 0);
  maskOf_ = -1;
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
  // The tile lists are built once per instruction: an address-only run
  // executes mostly small instructions, where building them dominates.
  const bool vectorLike = unit == npu::Unit::Vector || unit == npu::Unit::CrossLane;
  std::vector<int> reads;
  const bool readsListed = (maskValues_ && vectorLike) || valuesNow_ || unit == npu::Unit::Dma;
  if (readsListed)
    reads = npu::readTiles(in);
  if (maskValues_)
    valuesNow_ = vectorLike && writesAddressTile(in) && operandsAvailable(reads);
  if (valuesNow_ || unit == npu::Unit::Scalar || unit == npu::Unit::Control || unit == npu::Unit::Dma) {
    if (valuesNow_ || unit == npu::Unit::Dma) {
      if (!readsListed)
        reads = npu::readTiles(in);
      for (int t : reads)
        checkTileInBank(t);
    }
    for (int t : in.dsts)
      checkTileInBank(t);
  }
  forgetMask(in);
  switch (unit) {
  case npu::Unit::Scalar: scalarUnit(in); break;
  case npu::Unit::Dma: dmaUnit_.execute(in); break;
  case npu::Unit::Vector:
  case npu::Unit::CrossLane:
    if (in.opcode == npu::Opcode::VReduce || in.opcode == npu::Opcode::VScan ||
        in.opcode == npu::Opcode::VSort || in.opcode == npu::Opcode::XReduce ||
        in.opcode == npu::Opcode::XScan || in.opcode == npu::Opcode::XSort)
      reduceUnit_.execute(in);
    else
      vectorUnit_.execute(in);
    break;
  case npu::Unit::Systolic: systolicUnit_.execute(in); break;
  case npu::Unit::Control: break;
  }
  if (maskValues_ && !valuesNow_ && unit != npu::Unit::Control)
    for (int t : in.dsts) // npu::writtenTiles, without its copy
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

bool Machine::operandsAvailable(const std::vector<int> &reads) {
  for (int t : reads) {
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
  for (int t : in.dsts) // npu::writtenTiles, without its copy
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

} // namespace detail

Workspace::Workspace() : storage_(std::make_unique<Storage>()) {}
Workspace::~Workspace() = default;

RunStats run(const npu::Program &program, const Grid &grid, std::vector<DramBuffer> &buffers,
             const std::vector<LaunchArgument> &arguments, const RunOptions &options) {
  const std::array<int64_t, 3> launched{grid.x, grid.y, grid.z};
  for (size_t axis = 0; axis < 3; ++axis)
    if (program.compiledForGrid[axis] > 0 && launched[axis] > program.compiledForGrid[axis])
      throw core::RuntimeError("kernel '" + program.kernelName + "' was compiled for a grid of " +
                               std::to_string(program.compiledForGrid[0]) + " x " +
                               std::to_string(program.compiledForGrid[1]) + " x " +
                               std::to_string(program.compiledForGrid[2]) + " programs and is launched with " +
                               std::to_string(grid.x) + " x " + std::to_string(grid.y) + " x " +
                               std::to_string(grid.z) + ": its index ranges assume no more");
  detail::Machine machine(program, grid, buffers, arguments, options);
  return machine.run();
}

} // namespace npusim::functional

namespace npusim::functional {

int64_t storedBankBytes(const npu::Program &program) {
  int64_t stored = 0;
  for (const npu::Tile &tile : program.tiles)
    stored =
        std::max(stored, std::max<int64_t>(0, tile.bankOffset) + tile.layout.bytesPerLane(program.lanes));
  stored += std::max<int64_t>(0, program.instanceBankStride);
  return (stored + 63) / 64 * 64 + 64;
}

int64_t scratchpadStorageBytes(const npu::Program &program) {
  return 2 * storedBankBytes(program) * int64_t{program.lanes};
}

} // namespace npusim::functional
