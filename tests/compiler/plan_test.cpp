// Decisions of the compiler on small kernels (tests/compiler/data): lane axes,
// DMA forms, loop-carried pointers, scratchpad plans, block sizes, and the
// whole program text against expected dumps.
#include "compiler/kernel_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>

namespace npusim::compiler {
namespace {

const std::string kDataDir = std::string(NPUSIM_TEST_DATA) + "/../compiler/data/";

struct Compiled {
  std::unique_ptr<ir::Function> function;
  npu::Program program;
};

Compiled compileData(const std::string &name, const triton::ConstexprBindings &constexprs,
                     const config::HardwareConfig &machine) {
  const triton::KernelFile file = triton::loadKernelFile(kDataDir + name);
  Compiled c;
  c.function = triton::lowerKernel(file, constexprs);
  c.program = compile(*c.function, machine);
  return c;
}

config::HardwareConfig defaultMachine() {
  config::HardwareConfig machine;
  machine.name = "default";
  return machine;
}

// Every instruction, nested bodies included, in program order.
void forEachInstruction(const std::vector<npu::Instruction> &body,
                        const std::function<void(const npu::Instruction &)> &f) {
  for (const npu::Instruction &in : body) {
    f(in);
    forEachInstruction(in.body, f);
    forEachInstruction(in.elseBody, f);
  }
}

std::vector<const npu::Instruction *> find(const npu::Program &program, npu::Opcode opcode) {
  std::vector<const npu::Instruction *> found;
  forEachInstruction(program.body, [&](const npu::Instruction &in) {
    if (in.opcode == opcode)
      found.push_back(&in);
  });
  return found;
}

const npu::Instruction *dmaOn(const npu::Program &program, npu::Opcode opcode, int argument) {
  for (const npu::Instruction *in : find(program, opcode))
    if (in->dma.argument == argument)
      return in;
  return nullptr;
}

// ------------------------------------------------------------------ layouts

TEST(Layout, ReductionAcrossLanesWhenKeptAxisIsShort) {
  // [64, 32] summed over axis 1 on 128 lanes: 64 rows cannot fill 128 lanes, so
  // the reduced axis goes on the lanes.
  const Compiled c = compileData("reduce_rows.py", {{"XBLOCK", int64_t{64}}}, defaultMachine());
  ASSERT_EQ(find(c.program, npu::Opcode::XReduce).size(), 1u);
  EXPECT_TRUE(find(c.program, npu::Opcode::VReduce).empty());
  const npu::Instruction &reduce = *find(c.program, npu::Opcode::XReduce)[0];
  EXPECT_EQ(c.program.tiles[reduce.srcs[0]].layout.laneAxis, 1);
  EXPECT_EQ(reduce.axis, 1);
}

TEST(Layout, ReductionInLaneWhenKeptAxisFillsTheLanes) {
  // The same kernel on 8 lanes: 64 rows fill them, each lane sums its rows.
  const Compiled c = compileData("reduce_rows.py", {{"XBLOCK", int64_t{64}}}, testing::smallMachine());
  ASSERT_EQ(find(c.program, npu::Opcode::VReduce).size(), 1u);
  EXPECT_TRUE(find(c.program, npu::Opcode::XReduce).empty());
  const npu::Instruction &reduce = *find(c.program, npu::Opcode::VReduce)[0];
  EXPECT_EQ(c.program.tiles[reduce.srcs[0]].layout.laneAxis, 0);
  EXPECT_EQ(c.program.tiles[reduce.dsts[0]].layout.shape, (std::vector<int64_t>{64}));
  EXPECT_TRUE(find(c.program, npu::Opcode::XRelayout).empty());
}

// ---------------------------------------------------------------------- DMA

TEST(Dma, AffineOffsetsGiveStridedDescriptors) {
  const Compiled c = compileData("dma_forms.py", {{"XBLOCK", int64_t{64}}}, defaultMachine());
  // in_ptr0 + 2*xindex: strided, stride 2, masked by xindex < 200.
  const npu::Instruction *load0 = dmaOn(c.program, npu::Opcode::DmaLoad, 0);
  ASSERT_NE(load0, nullptr);
  EXPECT_FALSE(load0->dma.gathered());
  ASSERT_EQ(load0->dma.strides.size(), 1u);
  EXPECT_FALSE(load0->dma.strides[0].isRegister());
  EXPECT_EQ(load0->dma.strides[0].intValue, 2);
  EXPECT_TRUE(load0->dma.base.isRegister()); // 2 * program_id * XBLOCK
  // xindex < 200 is a bound along the one axis: a clip box, no mask tile.
  EXPECT_LT(load0->dma.maskTile, 0);
  ASSERT_TRUE(load0->dma.clipped());
  EXPECT_TRUE(load0->dma.clipHigh.at(0).isRegister()); // 200 - program_id * XBLOCK
  // out_ptr0 + xindex: strided, stride 1.
  const npu::Instruction *store = dmaOn(c.program, npu::Opcode::DmaStore, 3);
  ASSERT_NE(store, nullptr);
  EXPECT_FALSE(store->dma.gathered());
  EXPECT_EQ(store->dma.strides.at(0).intValue, 1);
}

TEST(Dma, NonAffineOffsetsGiveGatheredDescriptors) {
  const Compiled c = compileData("dma_forms.py", {{"XBLOCK", int64_t{64}}}, defaultMachine());
  // in_ptr1 + xindex % 7: the remainder tile itself is the index tile.
  const npu::Instruction *load1 = dmaOn(c.program, npu::Opcode::DmaLoad, 1);
  ASSERT_NE(load1, nullptr);
  ASSERT_TRUE(load1->dma.gathered());
  const npu::TileLayout &index = c.program.tiles[load1->dma.indexTile].layout;
  EXPECT_EQ(index.dtype, core::DType::Int32);
  EXPECT_EQ(index.shape, (std::vector<int64_t>{64}));
  bool producedByRem = false;
  forEachInstruction(c.program.body, [&](const npu::Instruction &in) {
    if (in.opcode == npu::Opcode::VElementwise && in.function.op == npu::ElementOp::Rem &&
        in.dsts[0] == load1->dma.indexTile)
      producedByRem = true;
  });
  EXPECT_TRUE(producedByRem);
}

TEST(Dma, MaskedChannelLoadReadsOnePeriod) {
  const Compiled c = compileData("masked_channels.py", {{"XBLOCK", int64_t{256}}}, defaultMachine());
  // in_ptr1 + xindex % 128 under xindex < 1050: the index repeats every
  // lcm(128, 128 lanes) = 128 elements, so the DRAM sees 128 elements per
  // instance, not 256, masked by the first 128 elements of the mask (the last
  // instance, at 1024, keeps only 26 of them). The block starts at a
  // multiple of 256, so the period is elements 0..127 in order: strided.
  const npu::Instruction *load1 = dmaOn(c.program, npu::Opcode::DmaLoad, 1);
  ASSERT_NE(load1, nullptr);
  EXPECT_FALSE(load1->dma.gathered());
  EXPECT_EQ(c.program.tiles[load1->dsts.at(0)].layout.shape, (std::vector<int64_t>{128}));
  ASSERT_GE(load1->dma.maskTile, 0);
  EXPECT_EQ(c.program.tiles[load1->dma.maskTile].layout.shape, (std::vector<int64_t>{128}));
  ASSERT_EQ(load1->dsts.size(), 1u);
  // Replicated on chip: [1, 1, 128] stretched to [2, 1, 128], the 256 elements.
  const auto broadcasts = find(c.program, npu::Opcode::VBroadcast);
  ASSERT_EQ(broadcasts.size(), 1u);
  EXPECT_EQ(c.program.tiles[broadcasts[0]->dsts[0]].layout.shape, (std::vector<int64_t>{2, 1, 128}));
}

TEST(Dma, PeriodicGatherCoversABlockThatIsNoMultipleOfThePeriod) {
  const Compiled c = compileData("channels96.py", {{"XBLOCK", int64_t{1024}}}, defaultMachine());
  // in_ptr1 + xindex % 96 on 128 lanes: the index repeats every
  // lcm(96, 128) = 384 elements (3 slots of every lane), which does not
  // divide the block of 1024. One period is gathered and replicated
  // ceil(1024 / 384) = 3 times, [1, 3, 128] -> [3, 3, 128] (1152 elements),
  // whose first 1024 are the block, instead of gathering all 1024.
  const npu::Instruction *load1 = dmaOn(c.program, npu::Opcode::DmaLoad, 1);
  ASSERT_NE(load1, nullptr);
  ASSERT_TRUE(load1->dma.gathered());
  EXPECT_EQ(c.program.tiles[load1->dma.indexTile].layout.shape, (std::vector<int64_t>{384}));
  const auto broadcasts = find(c.program, npu::Opcode::VBroadcast);
  ASSERT_EQ(broadcasts.size(), 1u);
  EXPECT_EQ(c.program.tiles[broadcasts[0]->dsts[0]].layout.shape, (std::vector<int64_t>{3, 3, 128}));
}

TEST(Dma, PeriodOfWholeLaneRowsLoadsInOrder) {
  const Compiled c = compileData("channels128.py", {{"XBLOCK", int64_t{1024}}}, defaultMachine());
  // in_ptr1 + xindex % 128 on 128 lanes, the block starting at a multiple
  // of 1024: the first period's indices are 0..127 in order, one strided
  // [128] DMA of stride 1 with no index tile (so no `%` on the vector unit),
  // replicated 1024 / 128 = 8 times.
  const npu::Instruction *load1 = dmaOn(c.program, npu::Opcode::DmaLoad, 1);
  ASSERT_NE(load1, nullptr);
  EXPECT_FALSE(load1->dma.gathered());
  ASSERT_EQ(load1->dma.strides.size(), 1u);
  EXPECT_EQ(load1->dma.strides[0].intValue, 1);
  EXPECT_EQ(c.program.tiles[load1->dsts.at(0)].layout.shape, (std::vector<int64_t>{128}));
  for (const npu::Instruction *in : find(c.program, npu::Opcode::VElementwise))
    EXPECT_NE(in->function.op, npu::ElementOp::Rem);
  const auto broadcasts = find(c.program, npu::Opcode::VBroadcast);
  ASSERT_EQ(broadcasts.size(), 1u);
  EXPECT_EQ(c.program.tiles[broadcasts[0]->dsts[0]].layout.shape, (std::vector<int64_t>{8, 1, 128}));
}

TEST(Dma, ScalarPointerLoadUsesScalarUnit) {
  const Compiled c = compileData("dma_forms.py", {{"XBLOCK", int64_t{64}}}, defaultMachine());
  const auto loads = find(c.program, npu::Opcode::SLoad);
  ASSERT_EQ(loads.size(), 1u);
  EXPECT_EQ(loads[0]->argument, 2);
  EXPECT_EQ(dmaOn(c.program, npu::Opcode::DmaLoad, 2), nullptr);
}

TEST(Loops, PointerAdvancedByScalarStaysStrided) {
  const Compiled c = compileData("carried_pointer.py", {}, defaultMachine());
  const auto loops = find(c.program, npu::Opcode::Loop);
  ASSERT_EQ(loops.size(), 1u);
  const npu::Instruction &loop = *loops[0];
  const npu::Instruction *load = nullptr;
  for (const npu::Instruction &in : loop.body)
    if (in.opcode == npu::Opcode::DmaLoad)
      load = &in;
  ASSERT_NE(load, nullptr);
  EXPECT_FALSE(load->dma.gathered());
  ASSERT_TRUE(load->dma.base.isRegister());
  EXPECT_EQ(load->dma.strides.at(0).intValue, 1);
  // The base register is the carried home: the body (two copies, from
  // double-buffer-loops) ends by moving the advanced base into the first
  // copy's base.
  const npu::Instruction &last = loop.body.back();
  EXPECT_EQ(last.opcode, npu::Opcode::SMove);
  const npu::Instruction *firstLoad = nullptr;
  for (const npu::Instruction &in : loop.body)
    if (in.opcode == npu::Opcode::DmaLoad && !firstLoad)
      firstLoad = &in;
  EXPECT_EQ(last.dstReg, firstLoad->dma.base.reg);
  // No index tile is built anywhere.
  EXPECT_TRUE(find(c.program, npu::Opcode::VIota).empty());
}

// A for loop's carried homes are guessed from the inits; a yield the guess
// cannot hold makes the lowering go back to the state before the loop and
// lower it again with a more general home. What the first try made (its
// register home) must be gone from the program.
/// The home of carried value `name` after widening: its tile; the first
/// try's register home must be gone.
const npu::Tile *widenedHome(const npu::Program &program, const std::string &name) {
  for (const npu::ScalarRegister &r : program.scalarRegs)
    EXPECT_NE(r.name, name) << "a register home is left";
  for (const npu::Tile &t : program.tiles)
    if (t.name == name)
      return &t;
  return nullptr;
}

TEST(Loops, CarriedHomesWidenWhenTheYieldDoesNotFit) {
  struct Case {
    const char *why;
    const char *text;
    const char *value; // the loop result whose home widens
    ir::Shape shape;
    core::DType dtype;
    size_t loops = 1;
  };
  const Case cases[] = {
      {"%7 starts as the immediate 0.0 (a register home) but the body yields 0.0 + sum(x), a scalar the "
       "vector unit computed: a [1] tile",
       R"(tile.func @k(%0 in_ptr0: *fp32, %1 out_ptr0: *fp32, %2 n: i32) {
  %3 = constant 0.0 : fp32
  %4 = constant 0 : i32
  %5 = constant 1 : i32
  %6 = splat %0 : *fp32[64]
  %7 = for %8 = %4 to %2 step %5 iter_args(%9 = %3) : fp32 {
    %10 = load %6 : fp32[64]
    %11 = reduce sum axis=0 %10 : fp32
    %12 = add %9, %11 : fp32
    yield %12
  }
  store %1, %7
}
)",
       "%7",
       {1},
       core::DType::Float32},
      {"%10 starts affine (in_ptr0 + arange: a base register home) but the body advances it by loaded "
       "indices: its i64 offsets need a tile",
       R"(tile.func @k(%0 in_ptr0: *fp32, %1 in_ptr1: *i32, %2 n: i32) {
  %3 = constant 0 : i32
  %4 = constant 1 : i32
  %5 = splat %0 : *fp32[64]
  %6 = arange 0, 64 : i32[64]
  %7 = addptr %5, %6 : *fp32[64]
  %8 = splat %1 : *i32[64]
  %9 = addptr %8, %6 : *i32[64]
  %10 = for %11 = %3 to %2 step %4 iter_args(%12 = %7) : *fp32[64] {
    %13 = load %12 : fp32[64]
    %14 = load %9 : i32[64]
    %15 = addptr %12, %14 : *fp32[64]
    yield %15
  }
  %16 = load %10 : fp32[64]
  store %10, %16
}
)",
       "%10",
       {64},
       core::DType::Int64},
      {"%11 starts gathered (in_ptr0 + loaded indices: the index tile and a base register) but the body "
       "advances it by the indices again, not by a splat: its i64 offsets need a tile of their own",
       R"(tile.func @k(%0 in_ptr0: *fp32, %1 in_ptr1: *i32, %2 n: i32) {
  %3 = arange 0, 64 : i32[64]
  %4 = splat %1 : *i32[64]
  %5 = addptr %4, %3 : *i32[64]
  %6 = load %5 : i32[64]
  %7 = splat %0 : *fp32[64]
  %8 = addptr %7, %6 : *fp32[64]
  %9 = constant 0 : i32
  %10 = constant 1 : i32
  %11 = for %12 = %9 to %2 step %10 iter_args(%13 = %8) : *fp32[64] {
    %14 = load %13 : fp32[64]
    %15 = addptr %13, %6 : *fp32[64]
    yield %15
  }
  %16 = load %11 : fp32[64]
  %17 = addptr %7, %3 : *fp32[64]
  store %17, %16
}
)",
       "%11",
       {64},
       core::DType::Int64},
      {"%7 starts as the immediate 0.0 but yields the result of an inner loop, whose own carried value "
       "widens to a [1] tile (it adds sum(x)): both homes are [1] tiles",
       R"(tile.func @k(%0 in_ptr0: *fp32, %1 out_ptr0: *fp32, %2 n: i32) {
  %3 = splat %0 : *fp32[64]
  %4 = constant 0 : i32
  %5 = constant 1 : i32
  %6 = constant 0.0 : fp32
  %7 = for %8 = %4 to %2 step %5 iter_args(%9 = %6) : fp32 {
    %10 = for %11 = %4 to %2 step %5 iter_args(%12 = %9) : fp32 {
      %13 = load %3 : fp32[64]
      %14 = reduce sum axis=0 %13 : fp32
      %15 = add %12, %14 : fp32
      yield %15
    }
    yield %10
  }
  store %1, %7
}
)",
       "%7",
       {1},
       core::DType::Float32,
       2},
  };
  for (const Case &c : cases) {
    const npu::Program program = compile(*ir::parse(c.text), defaultMachine());
    EXPECT_EQ(find(program, npu::Opcode::Loop).size(), c.loops) << c.why;
    const npu::Tile *home = widenedHome(program, c.value);
    ASSERT_NE(home, nullptr) << c.why;
    EXPECT_EQ(home->layout.shape, c.shape) << c.why;
    EXPECT_EQ(home->layout.dtype, c.dtype) << c.why;
  }
}

// -------------------------------------------------------- load scheduling

/// The position of `target` in program order (nested bodies included), -1 if absent.
int positionOf(const npu::Program &program, const npu::Instruction *target) {
  int at = 0, found = -1;
  forEachInstruction(program.body, [&](const npu::Instruction &in) {
    if (&in == target)
      found = at;
    ++at;
  });
  return found;
}

/// The first instruction in program order that reads `tile`, or null.
const npu::Instruction *firstReaderOf(const npu::Program &program, int tile) {
  const npu::Instruction *first = nullptr;
  forEachInstruction(program.body, [&](const npu::Instruction &in) {
    const std::vector<int> read = npu::readTiles(in);
    if (!first && std::find(read.begin(), read.end(), tile) != read.end())
      first = &in;
  });
  return first;
}

TEST(Schedule, IndependentGatherIssuesBeforeComputeOnThePreviousLoad) {
  const Compiled c = compileData("independent_gathers.py", {{"XBLOCK", int64_t{256}}}, defaultMachine());
  // exp(load in_ptr0) comes before the gather of in_ptr1 in the source, but
  // the gather's index (x * x) % 991 needs nothing of the first load: it is
  // issued before the exp, which waits for the first load's data, so the
  // in-order vector queue does not hold the second gather back.
  const npu::Instruction *first = dmaOn(c.program, npu::Opcode::DmaLoad, 0);
  const npu::Instruction *second = dmaOn(c.program, npu::Opcode::DmaLoad, 1);
  ASSERT_NE(first, nullptr);
  ASSERT_NE(second, nullptr);
  ASSERT_TRUE(first->dma.gathered());
  ASSERT_TRUE(second->dma.gathered());
  const npu::Instruction *exp = firstReaderOf(c.program, first->dsts.at(0));
  ASSERT_NE(exp, nullptr);
  EXPECT_EQ(exp->opcode, npu::Opcode::VElementwise);
  EXPECT_EQ(exp->function.op, npu::ElementOp::Math);
  EXPECT_LT(positionOf(c.program, second), positionOf(c.program, exp));
}

TEST(Schedule, LoadAfterAStoreToTheSameArgumentStaysAfterIt) {
  const Compiled c = compileData("independent_gathers.py", {{"XBLOCK", int64_t{256}}}, defaultMachine());
  // in_out_ptr0 is stored and then gathered from: the gather reads what the
  // store wrote, so scheduling must not hoist it above the store.
  const npu::Instruction *store = dmaOn(c.program, npu::Opcode::DmaStore, 2);
  ASSERT_NE(store, nullptr);
  const npu::Instruction *gather = nullptr;
  for (const npu::Instruction *in : find(c.program, npu::Opcode::DmaLoad))
    if (in->dma.argument == 2 && in->dma.gathered())
      gather = in;
  ASSERT_NE(gather, nullptr);
  EXPECT_GT(positionOf(c.program, gather), positionOf(c.program, store));
}

// --------------------------------------------------------------- scratchpad

TEST(Scratchpad, PlanBytesFollowTheLayouts) {
  // 128 lanes: fp32[64, 32] with lane axis 1 holds 64 slots of 4 bytes per lane
  // (256 bytes); the fp32[64] sum holds 1 slot, rounded up to 32 bytes. Both
  // are live at the reduction: 288 bytes.
  const Compiled wide = compileData("reduce_rows.py", {{"XBLOCK", int64_t{64}}}, defaultMachine());
  EXPECT_EQ(wide.program.spadBytesUsed, 256 + 32);
  EXPECT_EQ(wide.program.instanceBankStride, 64 * 1024);
  // 8 lanes: lane axis 0 gives 8 rows x 32 columns x 4 bytes = 1024 bytes, the
  // sum 8 slots x 4 bytes = 32 bytes.
  const Compiled narrow = compileData("reduce_rows.py", {{"XBLOCK", int64_t{64}}}, testing::smallMachine());
  EXPECT_EQ(narrow.program.spadBytesUsed, 1024 + 32);
}

// dma_forms at XBLOCK = 256 on 8 lanes: its tiles, each in bytes of its own,
// take 800 bytes per lane. In a 1 KiB bank that is more than the half a double
// buffered instance may use (512), so dead tiles give their bytes away.
TEST(Scratchpad, DeadTilesGiveTheirBytesAway) {
  config::HardwareConfig machine = testing::smallMachine();
  machine.spadKibPerLane = 1;
  const Compiled c = compileData("dma_forms.py", {{"XBLOCK", int64_t{256}}}, machine);
  EXPECT_LE(c.program.spadBytesUsed, 512);
  int64_t total = 0;
  for (const npu::Tile &tile : c.program.tiles)
    total += (tile.layout.numElements() / 8) * core::byteSize(tile.layout.dtype);
  EXPECT_LT(c.program.spadBytesUsed, total / 2);
  // Tiles live at once never share bytes: the value test checks results; here
  // the data and mask tiles of the DMA that keeps a mask tile (the periodic
  // gather's; the others clip) are distinct ranges.
  const npu::Instruction *masked = nullptr;
  forEachInstruction(c.program.body, [&](const npu::Instruction &i) {
    if ((i.opcode == npu::Opcode::DmaLoad || i.opcode == npu::Opcode::DmaStore) && i.dma.maskTile >= 0)
      masked = &i;
  });
  ASSERT_NE(masked, nullptr);
  const int dataTile = masked->opcode == npu::Opcode::DmaLoad ? masked->dsts.at(0) : masked->srcs.at(0);
  const npu::Tile &data = c.program.tiles.at(static_cast<size_t>(dataTile));
  const npu::Tile &mask = c.program.tiles.at(static_cast<size_t>(masked->dma.maskTile));
  const int64_t dataBytes = data.layout.bytesPerLane(8), maskBytes = mask.layout.bytesPerLane(8);
  EXPECT_TRUE(data.bankOffset + dataBytes <= mask.bankOffset || mask.bankOffset + maskBytes <= data.bankOffset);
}

// The same plan in a 1 KiB bank: the DMA loads' destinations still get bytes
// of their own (they fit in half the bank with the other tiles first fit
// above them), so no load waits for a dead tile's last reader on another
// unit; the other tiles share bytes.
TEST(Scratchpad, LoadDestinationsKeepTheirOwnBytesWhenTheRestMustShare) {
  config::HardwareConfig machine = testing::smallMachine();
  machine.spadKibPerLane = 1;
  const Compiled c = compileData("dma_forms.py", {{"XBLOCK", int64_t{256}}}, machine);
  EXPECT_LE(c.program.spadBytesUsed, 512);
  auto bytesOf = [](const npu::Tile &tile) {
    return (tile.layout.numElements() + 7) / 8 * core::byteSize(tile.layout.dtype);
  };
  std::vector<const npu::Instruction *> loads;
  forEachInstruction(c.program.body, [&](const npu::Instruction &i) {
    if (i.opcode == npu::Opcode::DmaLoad)
      loads.push_back(&i);
  });
  ASSERT_FALSE(loads.empty());
  int shared = 0;
  for (size_t t = 0; t < c.program.tiles.size(); ++t)
    for (size_t u = t + 1; u < c.program.tiles.size(); ++u) {
      const npu::Tile &a = c.program.tiles[t], &b = c.program.tiles[u];
      shared += a.bankOffset < b.bankOffset + bytesOf(b) && b.bankOffset < a.bankOffset + bytesOf(a);
    }
  EXPECT_GT(shared, 0) << "the other tiles must share bytes in a 1 KiB bank";
  for (const npu::Instruction *load : loads) {
    const int d = load->dsts.at(0);
    const npu::Tile &dst = c.program.tiles[static_cast<size_t>(d)];
    for (size_t u = 0; u < c.program.tiles.size(); ++u) {
      const npu::Tile &other = c.program.tiles[u];
      if (static_cast<int>(u) == d || other.bankOffset == dst.bankOffset)
        continue; // itself, or a free reshape of it over the same bytes
      EXPECT_TRUE(other.bankOffset >= dst.bankOffset + bytesOf(dst) ||
                  dst.bankOffset >= other.bankOffset + bytesOf(other))
          << "tile " << u << " overlaps load destination " << d;
    }
  }
}

// With 32 KiB per lane the 800 bytes fit in half the bank: no two tiles share
// bytes, so no unit waits for another only because a dead tile's bytes were
// reused (tiles over the same bytes by a free reshape excepted).
TEST(Scratchpad, TilesKeepTheirOwnBytesWhenHalfTheBankHoldsThem) {
  const Compiled c = compileData("dma_forms.py", {{"XBLOCK", int64_t{256}}}, testing::smallMachine());
  EXPECT_EQ(c.program.spadBytesUsed, 800);
  EXPECT_EQ(c.program.instanceBankStride, 16 * 1024);
  std::map<int64_t, int64_t> ranges; // offset -> bytes per lane of the allocation there
  for (const npu::Tile &tile : c.program.tiles) {
    const int64_t bytes = (tile.layout.numElements() + 7) / 8 * core::byteSize(tile.layout.dtype);
    ranges[tile.bankOffset] = std::max(ranges[tile.bankOffset], bytes);
  }
  int64_t end = 0;
  for (const auto &[offset, bytes] : ranges) {
    EXPECT_GE(offset, end) << "allocations overlap at " << offset;
    end = offset + bytes;
  }
}

TEST(Scratchpad, OverflowNamesKernelAndBytes) {
  config::HardwareConfig tiny = testing::smallMachine();
  tiny.spadKibPerLane = 1; // 1024 bytes per lane
  try {
    compileData("reduce_rows.py", {{"XBLOCK", int64_t{64}}}, tiny);
    FAIL() << "expected ScratchpadOverflow";
  } catch (const ScratchpadOverflow &e) {
    EXPECT_EQ(e.bytesAvailable, 1024);
    EXPECT_EQ(e.bytesNeeded, 1024 + 32);
    EXPECT_NE(std::string(e.what()).find("reduce_rows"), std::string::npos);
  }
}

// -------------------------------------------------------------- block sizes

TEST(BlockSizes, PersistentReductionKeepsWholeRows) {
  const std::vector<BlockParameter> parameters = {{"XBLOCK", 4096, false}, {"R0_BLOCK", 300, true}};
  const auto choices = proposeBlockSizes("persistent_reduction", parameters, defaultMachine());
  ASSERT_FALSE(choices.empty());
  int64_t previous = INT64_MAX;
  for (const BlockChoice &choice : choices) {
    ASSERT_EQ(choice.values.size(), 2u);
    EXPECT_EQ(choice.values[1].second, 512); // next_pow2(300)
    EXPECT_LE(choice.values[0].second, previous);
    previous = choice.values[0].second;
  }
  EXPECT_EQ(choices.back().values[0].second, 1);
}

TEST(BlockSizes, PointwiseBlockFitsBudgetAndNumel) {
  const auto small = proposeBlockSizes("pointwise", {{"XBLOCK", 37, false}}, defaultMachine());
  ASSERT_FALSE(small.empty());
  EXPECT_EQ(small[0].values[0].second, 64); // next_pow2(37)
  const auto large = proposeBlockSizes("pointwise", {{"XBLOCK", 1 << 20, false}}, testing::smallMachine());
  ASSERT_FALSE(large.empty());
  EXPECT_EQ(large[0].values[0].second, 8 * 8 * 8); // 8 lanes x 8 lane vectors of 8 fp32
  const auto tiles = proposeBlockSizes("pointwise", {{"YBLOCK", 1 << 20, false}, {"XBLOCK", 1 << 20, false}},
                                       defaultMachine());
  EXPECT_EQ(tiles[0].values[0].second * tiles[0].values[1].second, 128 * 8 * 8);
}

// -------------------------------------------------------------------- dumps

std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The program text with the data directory left out of source locations.
std::string dump(const npu::Program &program) {
  std::string text = npu::print(program);
  const std::string prefix = kDataDir;
  for (size_t at = text.find(prefix); at != std::string::npos; at = text.find(prefix, at))
    text.erase(at, prefix.size());
  return text;
}

void expectDump(const std::string &kernel, const triton::ConstexprBindings &constexprs,
                const config::HardwareConfig &machine, const std::string &expectedName) {
  const Compiled c = compileData(kernel, constexprs, machine);
  const std::string text = dump(c.program);
  const std::string path = kDataDir + expectedName;
  if (const char *update = std::getenv("NPUSIM_UPDATE_EXPECTED"); update && *update) {
    std::ofstream(path, std::ios::binary) << text;
    return;
  }
  EXPECT_EQ(text, readFile(path)) << "expected dump " << path << " (NPUSIM_UPDATE_EXPECTED=1 rewrites it)";
}

TEST(Dumps, ReduceRows) {
  expectDump("reduce_rows.py", {{"XBLOCK", int64_t{64}}}, defaultMachine(), "reduce_rows.default.npu");
  expectDump("reduce_rows.py", {{"XBLOCK", int64_t{64}}}, testing::smallMachine(), "reduce_rows.8lanes.npu");
}

TEST(Dumps, DmaForms) {
  expectDump("dma_forms.py", {{"XBLOCK", int64_t{64}}}, defaultMachine(), "dma_forms.default.npu");
  expectDump("dma_forms.py", {{"XBLOCK", int64_t{256}}}, testing::smallMachine(), "dma_forms.8lanes.npu");
}

TEST(Dumps, CarriedPointer) {
  expectDump("carried_pointer.py", {}, defaultMachine(), "carried_pointer.default.npu");
}

} // namespace
} // namespace npusim::compiler

namespace npusim::compiler {
namespace {

TEST(Errors, ScalarFromTileDataCannotBoundALoop) {
  try {
    compileData("error_data_dependent_loop.py", {}, defaultMachine());
    FAIL() << "expected a CompileError";
  } catch (const core::CompileError &e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("kernel data_dependent_loop"), std::string::npos) << message;
    EXPECT_NE(message.find("scalar computed from tile data"), std::string::npos) << message;
    EXPECT_EQ(e.where().line, 18) << message;
    EXPECT_NE(e.where().file.find("error_data_dependent_loop.py"), std::string::npos) << message;
  }
}

} // namespace
} // namespace npusim::compiler
