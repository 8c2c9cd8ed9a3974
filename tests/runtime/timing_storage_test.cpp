// Timing mode holds only the storages whose contents the timing depends on
// (docs/architecture.md, "Run modes"): an embedding gather's indices, not its
// table, its output or the weights of the steps that follow; and its cycles
// are full mode's, step by step.
#include "config/hardware.h"
#include "runtime/loader.h"
#include "runtime/runner.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace npusim::runtime {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr int64_t kStorageRows = 4096, kStorageWidth = 64, kTokens = 16;

const char *kHeader = R"(
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties

@triton_heuristics.pointwise(
    size_hints={'x': 1024},
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*SIG0', 'in_ptr1': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'constants': {}},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'NAME', 'mutated_arg_names': []},
    min_elem_per_thread=0
)
@triton.jit
)";

std::string kernelSource(const std::string &name, const std::string &firstPointer, const std::string &body) {
  std::string s = kHeader;
  s.replace(s.find("SIG0"), 4, firstPointer);
  s.replace(s.find("NAME"), 4, name);
  return s + "def " + name + "(in_ptr0, in_ptr1, out_ptr0, xnumel, XBLOCK : tl.constexpr):\n" + body;
}

json storageTensor(int storage, std::vector<int64_t> shape) {
  std::vector<int64_t> stride(shape.size(), 1);
  for (size_t i = shape.size() - 1; i-- > 0;)
    stride[i] = stride[i + 1] * shape[i + 1];
  return {{"storage", storage}, {"offset", 0}, {"shape", shape}, {"stride", stride}};
}

/// A bundle in `dir` of two launches: an embedding gather
/// (out[t, :] = table[ids[t], :]) and then out + bias.
void writeBundle(const fs::path &dir) {
  fs::create_directories(dir / "kernels");
  const std::string n = std::to_string(kTokens * kStorageWidth), w = std::to_string(kStorageWidth);
  std::ofstream(dir / "kernels" / "triton_poi_embedding_0.py")
      << kernelSource("triton_poi_embedding_0", "i64",
                      "    xnumel = " + n +
                          "\n"
                          "    xoffset = tl.program_id(0) * XBLOCK\n"
                          "    xindex = xoffset + tl.arange(0, XBLOCK)[:]\n"
                          "    xmask = xindex < xnumel\n"
                          "    x1 = xindex // " +
                          w + "\n    x0 = (xindex % " + w +
                          ")\n"
                          "    tmp0 = tl.load(in_ptr0 + (x1), xmask, eviction_policy='evict_last')\n"
                          "    tmp1 = tl.load(in_ptr1 + (x0 + " +
                          w +
                          "*tmp0), xmask)\n"
                          "    tl.store(out_ptr0 + (xindex), tmp1, xmask)\n");
  std::ofstream(dir / "kernels" / "triton_poi_add_1.py")
      << kernelSource("triton_poi_add_1", "fp32",
                      "    xnumel = " + n +
                          "\n"
                          "    xoffset = tl.program_id(0) * XBLOCK\n"
                          "    xindex = xoffset + tl.arange(0, XBLOCK)[:]\n"
                          "    xmask = xindex < xnumel\n"
                          "    tmp0 = tl.load(in_ptr0 + (xindex), xmask)\n"
                          "    tmp1 = tl.load(in_ptr1 + (xindex), xmask)\n"
                          "    tl.store(out_ptr0 + (xindex), tmp0 + tmp1, xmask)\n");
  json g = {
      {"format", "npusim-bundle"}, {"version", 1}, {"model", {{"spec", "embedding gather"}}}, {"seed", 3}};
  g["storages"] = {{{"id", 0}, {"dtype", "i64"}, {"elements", kTokens}},
                   {{"id", 1}, {"dtype", "fp32"}, {"elements", kStorageRows * kStorageWidth}},
                   {{"id", 2}, {"dtype", "fp32"}, {"elements", kTokens * kStorageWidth}},
                   {{"id", 3}, {"dtype", "fp32"}, {"elements", kTokens * kStorageWidth}},
                   {{"id", 4}, {"dtype", "fp32"}, {"elements", kTokens * kStorageWidth}}};
  g["inputs"] = {{{"name", "ids"},
                  {"tensor", storageTensor(0, {kTokens})},
                  {"init", {{"kind", "randint"}, {"low", 0}, {"high", kStorageRows}, {"stream", 0}}}},
                 {{"name", "table"},
                  {"tensor", storageTensor(1, {kStorageRows, kStorageWidth})},
                  {"init", {{"kind", "uniform"}, {"low", -1.0}, {"high", 1.0}, {"stream", 1}}}},
                 {{"name", "bias"},
                  {"tensor", storageTensor(3, {kTokens, kStorageWidth})},
                  {"init", {{"kind", "uniform"}, {"low", -1.0}, {"high", 1.0}, {"stream", 2}}}}};
  const auto launch = [&](const std::string &kernel, int a, int b, int out) {
    return json{{"kind", "launch"},
                {"kernel", kernel},
                {"grid", {kTokens * kStorageWidth / 128, 1, 1}},
                {"constexprs", {{"XBLOCK", 128}}},
                {"args",
                 {{{"tensor", storageTensor(a, {kTokens * kStorageWidth})}},
                  {{"tensor", storageTensor(b, {kTokens * kStorageWidth})}},
                  {{"tensor", storageTensor(out, {kTokens * kStorageWidth})}},
                  {{"value", kTokens * kStorageWidth}}}},
                {"writes", {2}}};
  };
  json gather = launch("triton_poi_embedding_0", 0, 1, 2);
  gather["args"][0]["tensor"] = storageTensor(0, {kTokens});
  gather["args"][1]["tensor"] = storageTensor(1, {kStorageRows, kStorageWidth});
  g["steps"] = {gather, launch("triton_poi_add_1", 2, 3, 4)};
  g["outputs"] = json::array();
  std::ofstream(dir / "graph.json") << g.dump(1);
}

class TimingStorageTest : public ::testing::Test {
protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "npusim-timing-storage-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
    writeBundle(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  RunReport run(Mode mode) const {
    const Bundle bundle = loadBundle(dir_);
    RunOptions options;
    options.mode = mode;
    options.machine = config::loadConfig("tpuv3-like");
    options.threads = 1;
    return runBundle(bundle, options);
  }
  fs::path dir_;
};

TEST_F(TimingStorageTest, HoldsOnlyTheGathersIndicesAndKeepsFullModesCycles) {
  const RunReport timing = run(Mode::Timing);
  ASSERT_TRUE(timing.completed) << timing.failure;
  const RunReport full = run(Mode::Full);
  ASSERT_TRUE(full.completed) << full.failure;

  // All storages: 16 int64 indices, a 4096 x 64 fp32 table and three 16 x 64
  // fp32 tensors: 16*8 + 4*(4096*64 + 3*16*64) bytes.
  const int64_t all = 16 * 8 + 4 * (4096 * 64 + 3 * 16 * 64);
  EXPECT_EQ(timing.storageBytes, all);
  EXPECT_EQ(full.storageBytes, all);
  EXPECT_EQ(full.heldStorageBytes, all);
  // The gather's addresses depend on the indices alone: 16 x 8 bytes. Its
  // table, its output and the add's operands hold nothing.
  EXPECT_EQ(timing.heldStorageBytes, 16 * 8);

  ASSERT_EQ(timing.steps.size(), 2u);
  EXPECT_TRUE(timing.steps[0].valuesComputed);
  EXPECT_FALSE(timing.steps[1].valuesComputed);
  ASSERT_EQ(full.steps.size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    ASSERT_TRUE(timing.steps[i].timed && full.steps[i].timed) << "step " << i;
    EXPECT_GT(timing.steps[i].timing.cycles, 0) << "step " << i;
    EXPECT_EQ(timing.steps[i].timing.cycles, full.steps[i].timing.cycles) << "step " << i;
  }
}

// An index outside the table is the same error with and without the table's
// contents: the bounds come from the storage's size.
TEST_F(TimingStorageTest, AnIndexOutsideTheTableFailsAsInFullMode) {
  std::ifstream in(dir_ / "graph.json");
  json g = json::parse(in);
  in.close();
  g["inputs"][0]["init"]["low"] = kStorageRows;
  g["inputs"][0]["init"]["high"] = kStorageRows + 1;
  std::ofstream(dir_ / "graph.json") << g.dump(1);
  const RunReport timing = run(Mode::Timing);
  const RunReport full = run(Mode::Full);
  EXPECT_FALSE(timing.completed);
  EXPECT_FALSE(full.completed);
  EXPECT_NE(timing.failure.find("outside buffer"), std::string::npos) << timing.failure;
  EXPECT_NE(full.failure.find("outside buffer"), std::string::npos) << full.failure;
}

} // namespace
} // namespace npusim::runtime
