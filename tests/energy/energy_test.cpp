// The energy model against closed forms (docs/energy.md), each with its
// arithmetic. Launches are timed on hand-built programs (timing_support.h);
// the tables are written here with round numbers, so every expected value
// follows from a count and a table entry by hand.
#include "energy/energy.h"
#include "timing/timing_support.h"

#include "config/hardware.h"
#include "core/error.h"

#include <gtest/gtest.h>

#include <string>

namespace npusim::energy {
namespace {

using namespace timing::testing;
using core::DType;
using npu::ElementOp;

/// A table whose every entry is a distinct round number.
constexpr const char *kTable = R"(mac_pj: {fp32: 2.0, bf16: 0.5}
vector_op_pj: {simple: 1.0, multiply: 3.0, divide: 10.0, transcendental: 20.0}
cross_lane_op_pj: 1.5
scalar_instruction_pj: 7.0
spad_read_pj_per_byte: 0.25
spad_write_pj_per_byte: 0.5
dma_descriptor_pj: 100.0
noc_flit_hop_pj: 4.0
dram_activate_pj: 1000.0
dram_read_pj_per_bit: 3.0
dram_write_pj_per_bit: 5.0
dram_refresh_pj: 0.0
static_mw: {core: 100, scalar: 10, dma: 20, vector_per_lane: 1.0, cross_lane_per_lane: 0.5,
            systolic_per_pe: 0.01, spad_per_mib: 8, noc_per_port: 2, dram_per_channel: 50}
gated_idle_fraction: 0.25
)";

Table roundTable() { return parseTable(kTable, "round.yaml", "round"); }

timing::LaunchTiming timeOne(const config::HardwareConfig &config, const npu::Program &program,
                             std::vector<npu::ExecutedInstruction> instructions, bool detailedDram = false) {
  timing::Simulator simulator = detailedDram ? timing::Simulator(config)
                                             : timing::Simulator(config, testMemoryFactory(config, 100'000));
  std::vector<npu::InstanceTrace> traces(1);
  traces[0].instructions = std::move(instructions);
  return simulator.timeLaunch(program, std::move(traces));
}

/// One fp32 fold: weights 128 x 128, 256 rows of A.
timing::LaunchTiming gemmLaunch(const config::HardwareConfig &config, ProgramBuilder &builder) {
  const int a = builder.tile("a", {256, 128}, DType::Float32, 0);
  const int b = builder.tile("b", {128, 128}, DType::Float32, 4096);
  const int c = builder.tile("c", {256, 128}, DType::Float32, 8192);
  builder.add(loadWeights(0, b, 0, 0));
  builder.add(matmul(0, c, a, 0, 0, false));
  const auto &body = builder.program.body;
  return timeOne(config, builder.program, {executed(body[0]), executed(body[1])});
}

TEST(EnergyClosedForms, GemmMacEnergyIsMacsTimesTheTableFigure) {
  const auto config = roundConfig();
  ProgramBuilder builder(128);
  const timing::LaunchTiming launch = gemmLaunch(config, builder);
  const Energy e = estimate(launch, config, roundTable());
  // 256 rows x 128 (K) x 128 (N) = 4,194,304 fp32 MACs at 2.0 pJ = 8,388,608 pJ.
  EXPECT_DOUBLE_EQ(e.dynamicPj[static_cast<size_t>(Part::Systolic)], 8'388'608.0);
  EXPECT_EQ(e.unpricedMacs, 0);
  // Scratchpad: the weights 128 x 128 x 4 = 65,536 B and A 256 x 128 x 4 =
  // 131,072 B read at 0.25 pJ/B (49,152 pJ); C's block 256 x 128 x 4 = 131,072 B
  // written (not accumulating) at 0.5 pJ/B (65,536 pJ): 114,688 pJ.
  EXPECT_DOUBLE_EQ(e.dynamicPj[static_cast<size_t>(Part::Scratchpad)], 114'688.0);
}

TEST(EnergyClosedForms, MacsOfAnUnpricedDtypeAreCountedNotCharged) {
  const auto config = roundConfig();
  ProgramBuilder builder(128);
  const int a = builder.tile("a", {128, 128}, DType::Int8, 0);
  const int b = builder.tile("b", {128, 128}, DType::Int8, 4096);
  const int c = builder.tile("c", {128, 128}, DType::Int32, 8192);
  builder.add(loadWeights(0, b, 0, 0));
  builder.add(matmul(0, c, a, 0, 0, false));
  const auto &body = builder.program.body;
  const timing::LaunchTiming launch = timeOne(config, builder.program, {executed(body[0]), executed(body[1])});
  const Energy e = estimate(launch, config, roundTable()); // prices fp32 and bf16 only
  EXPECT_EQ(e.unpricedMacs, 128 * 128 * 128);
  EXPECT_EQ(e.dynamicPj[static_cast<size_t>(Part::Systolic)], 0.0);
}

TEST(EnergyClosedForms, StreamingReadIsActivationsPlusBits) {
  // tpuv3-like's detailed HBM2: 16 channels of 64-byte accesses, address
  // mapping RoBaRaCoCh (channel lowest, then the column: 128 columns / prefetch
  // 4 = 32 granules per row, docs/dram.md "Address mapping"): one row in every
  // channel holds 16 x 32 x 64 B = 32 KiB. A 64 KiB read from address 0 opens
  // row 0 of bank 0 and then row 0 of bank 1 in each channel, once each:
  // 2 x 16 = 32 activations.
  config::HardwareConfig config = config::loadConfig("tpuv3-like");
  ProgramBuilder builder(config.lanes);
  const int x = builder.tile("x", {128, 128}, DType::Float32, 0);
  builder.add(dmaLoad(x));
  const timing::LaunchTiming launch =
      timeOne(config, builder.program, {executedDma(builder.program.body[0], 0, 65536, false)}, true);
  ASSERT_EQ(launch.memory.rowMisses + launch.memory.rowConflicts, 32);
  ASSERT_EQ(launch.memory.refreshes, 0); // 64 KiB take well under tREFI (3.9 us)
  const Energy e = estimate(launch, config, roundTable());
  // 32 x 1000 pJ = 32,000 pJ; 65,536 B x 8 bits x 3 pJ = 1,572,864 pJ; sum 1,604,864 pJ.
  EXPECT_DOUBLE_EQ(e.dramActivatePj, 32'000.0);
  EXPECT_DOUBLE_EQ(e.dramTransferPj, 1'572'864.0);
  EXPECT_DOUBLE_EQ(e.dynamicPj[static_cast<size_t>(Part::Dram)], 1'604'864.0);
  // One descriptor at 100 pJ; the tile's 65,536 B written into the scratchpad at 0.5 pJ/B.
  EXPECT_DOUBLE_EQ(e.dynamicPj[static_cast<size_t>(Part::Dma)], 100.0);
  EXPECT_DOUBLE_EQ(e.dynamicPj[static_cast<size_t>(Part::Scratchpad)], 32'768.0);
  // NoC: 1024 pieces of 64 B; a read request is one flit out, its 64 B of data one
  // flit back (64-byte ports): 2048 flit-hops x 4 pJ = 8,192 pJ.
  EXPECT_DOUBLE_EQ(e.dynamicPj[static_cast<size_t>(Part::Noc)], 8'192.0);
}

TEST(EnergyClosedForms, StaticEnergyIsPowerTimesSimulatedTime) {
  const auto config = roundConfig();
  ProgramBuilder builder(128);
  const int x = builder.tile("x", {128, 1024}, DType::Float32, 0);
  const int y = builder.tile("y", {128, 1024}, DType::Float32, 4096);
  builder.add(vector(ElementOp::Math, y, {x}, core::MathFn::Exp));
  const timing::LaunchTiming launch =
      timeOne(config, builder.program, {executed(builder.program.body[0], 128 * 1024)});
  // 143 cycles of 1 ns (the timing tests derive it): 143,000 ps. mW x ps = 1e-3 pJ.
  ASSERT_EQ(launch.timePs, 143'000);
  const Energy e = estimate(launch, config, roundTable());
  // core: 100 mW x 143,000 ps = 14,300 pJ.
  EXPECT_DOUBLE_EQ(e.staticPj[static_cast<size_t>(Part::Core)], 14'300.0);
  // vector: 1 mW x 128 lanes x 143,000 ps = 18,304 pJ.
  EXPECT_DOUBLE_EQ(e.staticPj[static_cast<size_t>(Part::Vector)], 18'304.0);
  // systolic: 0.01 mW x 128 x 128 PEs x 2 arrays = 327.68 mW x 143,000 ps = 46,858.24 pJ.
  EXPECT_NEAR(e.staticPj[static_cast<size_t>(Part::Systolic)], 46'858.24, 1e-6);
  // Dynamic: 131,072 exp at 20 pJ = 2,621,440 pJ.
  EXPECT_DOUBLE_EQ(e.dynamicPj[static_cast<size_t>(Part::Vector)], 2'621'440.0);
  // Average power: the total over the time (pJ / ps = W).
  EXPECT_DOUBLE_EQ(e.averageWatts(), e.totalPj() / 143'000.0);

  // Clock gating: the vector unit is busy all the time and keeps all of its
  // static power; the idle arrays draw 0.25 of theirs: 11,714.56 pJ.
  auto gatedConfig = config;
  gatedConfig.energyClockGating = 1;
  const Energy gated = estimate(launch, gatedConfig, roundTable());
  EXPECT_DOUBLE_EQ(gated.staticPj[static_cast<size_t>(Part::Vector)], 18'304.0);
  EXPECT_NEAR(gated.staticPj[static_cast<size_t>(Part::Systolic)], 11'714.56, 1e-6);
  EXPECT_DOUBLE_EQ(gated.staticPj[static_cast<size_t>(Part::Core)], 14'300.0); // never gated
}

/// Parts other than `part` are unchanged, bit for bit.
void expectOthersUnchanged(const Energy &a, const Energy &b, Part part, bool dynamicChanged) {
  for (int k = 0; k < kNumParts; ++k) {
    const auto i = static_cast<size_t>(k);
    if (static_cast<Part>(k) != part || !dynamicChanged) {
      EXPECT_EQ(a.dynamicPj[i], b.dynamicPj[i]) << partName(static_cast<Part>(k));
    }
    if (static_cast<Part>(k) != part || dynamicChanged) {
      EXPECT_EQ(a.staticPj[i], b.staticPj[i]) << partName(static_cast<Part>(k));
    }
  }
}

TEST(EnergyClosedForms, DoublingAnEntryDoublesExactlyWhatItFeeds) {
  const auto config = roundConfig();
  ProgramBuilder builder(128);
  const timing::LaunchTiming launch = gemmLaunch(config, builder);
  const Table table = roundTable();
  const Energy base = estimate(launch, config, table);

  Table macs = table;
  *macs.macPj[static_cast<size_t>(DType::Float32)] *= 2;
  const Energy m = estimate(launch, config, macs);
  EXPECT_EQ(m.dynamicPj[static_cast<size_t>(Part::Systolic)], 2 * base.dynamicPj[static_cast<size_t>(Part::Systolic)]);
  expectOthersUnchanged(base, m, Part::Systolic, true);

  Table pes = table;
  pes.staticMw.systolicPerPe *= 2;
  const Energy p = estimate(launch, config, pes);
  EXPECT_EQ(p.staticPj[static_cast<size_t>(Part::Systolic)], 2 * base.staticPj[static_cast<size_t>(Part::Systolic)]);
  expectOthersUnchanged(base, p, Part::Systolic, false);

  // The write price feeds only the C block's 131,072 B written: +65,536 pJ.
  Table writes = table;
  writes.spadWritePjPerByte *= 2;
  const Energy w = estimate(launch, config, writes);
  EXPECT_EQ(w.dynamicPj[static_cast<size_t>(Part::Scratchpad)] - base.dynamicPj[static_cast<size_t>(Part::Scratchpad)],
            65'536.0);
  expectOthersUnchanged(base, w, Part::Scratchpad, true);
}

TEST(EnergyClosedForms, DoublingTheActivationEnergyDoublesOnlyTheActivations) {
  config::HardwareConfig config = config::loadConfig("tpuv3-like");
  ProgramBuilder builder(config.lanes);
  const int x = builder.tile("x", {128, 128}, DType::Float32, 0);
  builder.add(dmaLoad(x));
  const timing::LaunchTiming launch =
      timeOne(config, builder.program, {executedDma(builder.program.body[0], 0, 65536, false)}, true);
  Table table = roundTable();
  const Energy base = estimate(launch, config, table);
  table.dramActivatePj *= 2;
  const Energy twice = estimate(launch, config, table);
  EXPECT_EQ(twice.dramActivatePj, 2 * base.dramActivatePj);
  EXPECT_EQ(twice.dramTransferPj, base.dramTransferPj);
  EXPECT_EQ(twice.dynamicPj[static_cast<size_t>(Part::Dram)] - base.dynamicPj[static_cast<size_t>(Part::Dram)],
            base.dramActivatePj);
  expectOthersUnchanged(base, twice, Part::Dram, true);
}

TEST(EnergyTables, BuiltInTablesCarryTheirCitedFigures) {
  const Table t7 = loadTable("7nm");
  EXPECT_EQ(*t7.macPj[static_cast<size_t>(DType::Float32)], 5.05); // NPUWattch fp32 MAC
  EXPECT_EQ(*t7.macPj[static_cast<size_t>(DType::BFloat16)], 1.56); // NPUWattch bf16 MAC
  EXPECT_EQ(t7.dramActivatePj, 909.0);                              // PyTorchSim HBM2
  EXPECT_EQ(t7.dramReadPjPerBit, 3.48);                             // 1.51 + 1.17 + 0.80
  const Table t45 = loadTable("45nm");
  EXPECT_EQ(*t45.macPj[static_cast<size_t>(DType::Float32)], 4.6); // Horowitz 3.7 + 0.9
  EXPECT_EQ(t45.spadReadPjPerByte, 9.4);                           // Accelergy 75.2 pJ / 8 B
  EXPECT_EQ(t45.dramReadPjPerBit, 8.0);                            // Accelergy LPDDR4 512 pJ / 64 bits
}

void expectInputError(const std::string &text, const std::string &fragment) {
  try {
    (void)parseTable(text, "bad.yaml", "bad");
    ADD_FAILURE() << "no error for: " << text;
  } catch (const core::InputError &e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

TEST(EnergyTables, BadTablesAreRejectedWithFileLineAndKey) {
  std::string text = kTable;
  expectInputError(text + "mac_energy: 1\n", "bad.yaml:16: unknown key 'mac_energy'");
  std::string missing = text;
  missing.replace(missing.find("noc_flit_hop_pj: 4.0\n"), 21, "");
  expectInputError(missing, "missing key 'noc_flit_hop_pj'");
  std::string negative = text;
  negative.replace(negative.find("dma_descriptor_pj: 100.0"), 24, "dma_descriptor_pj: -1");
  expectInputError(negative, "bad.yaml:7: key 'dma_descriptor_pj': -1 must be a non-negative number");
  std::string word = text;
  word.replace(word.find("cross_lane_op_pj: 1.5"), 21, "cross_lane_op_pj: lots");
  expectInputError(word, "key 'cross_lane_op_pj': 'lots' is not a number");
  std::string dtype = text;
  dtype.replace(dtype.find("bf16: 0.5"), 9, "fp33: 0.5");
  expectInputError(dtype, "key 'mac_pj.fp33': unknown dtype");
  std::string fraction = text;
  fraction.replace(fraction.find("gated_idle_fraction: 0.25"), 25, "gated_idle_fraction: 1.5");
  expectInputError(fraction, "must be at most 1");
  EXPECT_THROW((void)loadTable("3nm"), core::InputError);
  EXPECT_THROW((void)loadTable("/nonexistent/table.yaml"), core::InputError);
}

TEST(EnergyTables, ConfigNamesAKnownTable) {
  EXPECT_EQ(config::parseConfig("energy: 45nm\n", "m.yaml").energy, "45nm");
  EXPECT_EQ(config::defaultConfig().energy, "7nm");
  try {
    (void)config::parseConfig("lanes: 128\nenergy: 3nm\n", "m.yaml");
    ADD_FAILURE() << "no error for an unknown energy table";
  } catch (const core::InputError &e) {
    EXPECT_NE(std::string(e.what()).find("m.yaml:2"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("unknown energy table '3nm'"), std::string::npos) << e.what();
  }
}

} // namespace
} // namespace npusim::energy
