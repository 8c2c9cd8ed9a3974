// Dynamic sizes (docs/bundle-format.md, "Dynamic sizes"): the expression syntax,
// `--set` bindings of the committed dynamic bundle (an MLP captured on an H200 with
// its batch a symbol), their errors, and a static bundle left as it was.
#include "core/error.h"
#include "runtime/bundle_storages.h"
#include "config/hardware.h"
#include "core/npy.h"
#include "runtime/generator.h"
#include "runtime/loader.h"
#include "runtime/runner.h"
#include "runtime/sizes_internal.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace npusim::runtime {
namespace {

namespace fs = std::filesystem;

const fs::path kMlp = fs::path(NPUSIM_TEST_DATA) / "bundles" / "mlp_dynamic";
const fs::path kSizesTiny = fs::path(NPUSIM_TEST_DATA) / "bundles" / "tiny";

int64_t eval(const std::string &text, const std::map<std::string, int64_t> &values = {}, bool cmp = false) {
  return detail::evaluateSizeExpression(text, values, "test", cmp);
}

std::string errorOf(const std::function<void()> &f) {
  try {
    f();
  } catch (const core::InputError &e) {
    return e.what();
  }
  return "(no error)";
}

TEST(SizeExpressions, ArithmeticAsPython) {
  // Python: 64*3 + 3 - 1 = 194; -7 // 2 = -4; -7 % 3 = 2; 7 % -3 = -2; ceil(192 / 128) = 2.
  EXPECT_EQ(eval("64*b + b - 1", {{"b", 3}}), 194);
  EXPECT_EQ(eval("-7 // 2"), -4);
  EXPECT_EQ(eval("-7 % 3"), 2);
  EXPECT_EQ(eval("7 % -3"), -2);
  EXPECT_EQ(eval("cdiv(64*batch, 128)", {{"batch", 3}}), 2);
  EXPECT_EQ(eval("cdiv(64*batch, 128)", {{"batch", 2}}), 1);
  EXPECT_EQ(eval("min(b, 5) * max(b, 5)", {{"b", 3}}), 15);
  EXPECT_EQ(eval("(b + 1)*(b + 2)", {{"b", 3}}), 20);
  EXPECT_EQ(eval("(64*b) <= 2147483647", {{"b", 33554431}}, true), 1); // 64 * 33554431 = 2^31 - 64
  EXPECT_EQ(eval("(64*b) <= 2147483647", {{"b", 33554432}}, true), 0); // 2^31
  EXPECT_EQ(eval("b != 3", {{"b", 3}}, true), 0);
}

TEST(SizeExpressions, ErrorsNameTheExpression) {
  EXPECT_NE(errorOf([] { eval("seq*2", {{"b", 3}}); }).find("expression 'seq*2': unknown symbol 'seq'"),
            std::string::npos);
  EXPECT_NE(errorOf([] { eval("5 // (b - 3)", {{"b", 3}}); }).find("division by zero"), std::string::npos);
  EXPECT_NE(errorOf([] { eval("b*b*b", {{"b", int64_t{1} << 22}}); }).find("overflows 64 bits"), std::string::npos);
  EXPECT_NE(errorOf([] { eval("floor(3)"); }).find("unknown function 'floor'"), std::string::npos);
  EXPECT_NE(errorOf([] { eval("3 +"); }).find("unexpected end"), std::string::npos);
  EXPECT_NE(errorOf([] { eval("3", {}, true); }).find("expected a comparison"), std::string::npos);
  const std::string deep = std::string(100000, '(') + "1" + std::string(100000, ')');
  EXPECT_NE(errorOf([&] { eval(deep); }).find("nested more than 200 deep"), std::string::npos);
}

TEST(SizeBindings, Parse) {
  const SizeBinding b = parseSizeBinding("seq=2048, batch=8", "--set");
  EXPECT_EQ(b.at("seq"), 2048);
  EXPECT_EQ(b.at("batch"), 8);
  EXPECT_NE(errorOf([] { parseSizeBinding("seq", "--set"); }).find("--set: 'seq' is not NAME=VALUE"),
            std::string::npos);
  EXPECT_NE(errorOf([] { parseSizeBinding("seq=2k", "--set"); }).find("seq=2k: the value is not an integer"),
            std::string::npos);
  EXPECT_NE(errorOf([] { parseSizeBinding("a=1,a=2", "--set"); }).find("a is given twice"), std::string::npos);
}

TEST(DynamicBundle, BindsStoragesViewsScalarsAndGrids) {
  const Bundle captured = loadBundle(kMlp);
  ASSERT_EQ(captured.sizes.symbols.size(), 1u);
  EXPECT_EQ(captured.sizes.symbols[0].name, "batch");
  EXPECT_EQ(captured.sizes.symbols[0].value, 8);
  EXPECT_TRUE(captured.sizes.atCaptured);
  EXPECT_EQ(captured.sizes.guardsChecked, 2);
  EXPECT_EQ(captured.storages[2].elements, 32 * 8); // x: [batch, 32]
  EXPECT_FALSE(captured.steps[1].fingerprints.empty());

  const Bundle b3 = loadBundle(kMlp, {{"batch", 3}});
  EXPECT_FALSE(b3.sizes.atCaptured);
  EXPECT_EQ(b3.storages[2].elements, 32 * 3);
  EXPECT_EQ(b3.storages[5].elements, 64 * 3);       // the hidden layer
  EXPECT_EQ(b3.storages[6].elements, 16 * 3);       // the output
  EXPECT_EQ(b3.inputs[2].tensor.shape[0], 3);
  EXPECT_EQ(b3.steps[1].args[2].intValue, 64 * 3); // xnumel
  EXPECT_EQ(b3.steps[1].grid[0], 2);                     // cdiv(192, XBLOCK 128)
  for (const Step &s : b3.steps)
    EXPECT_TRUE(s.fingerprints.empty()); // recorded only at batch 8
  EXPECT_FALSE(b3.outputs[0].hasFingerprint);
}

TEST(DynamicBundle, BindingErrorsNameSymbolValueAndGuard) {
  const std::string outside = errorOf([] { loadBundle(kMlp, {{"batch", 1}}); });
  EXPECT_NE(outside.find("size batch=1 lies outside its range [2, unbounded] (captured at 8)"), std::string::npos)
      << outside;
  const std::string guard = errorOf([] { loadBundle(kMlp, {{"batch", 33554432}}); });
  EXPECT_NE(guard.find("batch=33554432 fails guard guards[1] '(64*batch) <= 2147483647'"), std::string::npos)
      << guard;
  const std::string unknown = errorOf([] { loadBundle(kMlp, {{"seq", 4}}); });
  EXPECT_NE(unknown.find("no size named 'seq'; the bundle's sizes: batch"), std::string::npos) << unknown;
}

TEST(DynamicBundle, StaticBundleUnchanged) {
  const Bundle tiny = loadBundle(kSizesTiny);
  EXPECT_TRUE(tiny.sizes.symbols.empty());
  EXPECT_TRUE(tiny.sizes.atCaptured);
  EXPECT_FALSE(tiny.outputs.empty());
  EXPECT_TRUE(tiny.outputs[0].hasFingerprint);
  const std::string e = errorOf([] { loadBundle(kSizesTiny, {{"batch", 3}}); });
  EXPECT_NE(e.find("the bundle has no dynamic sizes; cannot set batch"), std::string::npos) << e;
}

RunOptions fullVerify() {
  RunOptions o;
  o.mode = Mode::Full;
  o.verify = true;
  o.threads = 1;
  o.machine = config::loadConfig("tpuv3-like");
  return o;
}

TEST(DynamicBundle, FullModeVerifiesAtTheCapturedAndOtherBindings) {
  // At batch 8 against the H200's fingerprints and eager PyTorch's output; at 3 and
  // 37 (not recorded) every step's NPU buffers against npusim's reference.
  const RunReport at8 = runBundle(loadBundle(kMlp), fullVerify());
  EXPECT_TRUE(at8.verified) << at8.failure;
  EXPECT_EQ(at8.fingerprintsCompared, 3); // mm, the ReLU kernel, addmm: one written tensor each
  ASSERT_EQ(at8.outputs.size(), 1u);
  EXPECT_EQ(at8.outputs[0].result, Outcome::Verified);
  // Batch 9 the capture also recorded on the GPU: its fingerprints and eager PyTorch's
  // output at 9 apply there.
  const RunReport at9 = runBundle(loadBundle(kMlp, {{"batch", 9}}), fullVerify());
  EXPECT_TRUE(at9.verified) << at9.failure;
  EXPECT_TRUE(at9.sizes.recorded);
  EXPECT_EQ(at9.fingerprintsCompared, 3);
  EXPECT_EQ(at9.outputs[0].result, Outcome::Verified);
  for (int64_t batch : {3, 37}) {
    const RunReport r = runBundle(loadBundle(kMlp, {{"batch", batch}}), fullVerify());
    EXPECT_TRUE(r.verified) << batch << ": " << r.failure;
    EXPECT_EQ(r.fingerprintsCompared, 0);
    EXPECT_GE(r.buffersCompared, 3) << batch; // each step's written buffer at least
    EXPECT_FALSE(r.sizes.atCaptured);
    EXPECT_FALSE(r.sizes.recorded);
    EXPECT_EQ(r.outputs[0].result, Outcome::Unverified);
  }
}

TEST(DynamicBundle, RecordedFingerprintsAreCompared) {
  // A recorded output sample moved by 1 (far beyond 1e-4) fails at batch 9 only; a
  // recorded entry with a list per step of the wrong length is an error naming it.
  const fs::path dir = fs::temp_directory_path() / ("npusim-sizes-rec-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::copy(kMlp, dir, fs::copy_options::recursive);
  std::ifstream in(dir / "graph.json");
  nlohmann::json g = nlohmann::json::parse(in);
  in.close();
  g["recorded_sizes"][0]["outputs"][0]["fingerprint"]["samples"][0][1] =
      g["recorded_sizes"][0]["outputs"][0]["fingerprint"]["samples"][0][1].get<double>() + 1.0;
  std::ofstream(dir / "graph.json") << g.dump(1);
  const RunReport at9 = runBundle(loadBundle(dir, {{"batch", 9}}), fullVerify());
  EXPECT_FALSE(at9.verified);
  EXPECT_NE(at9.failure.find("output output_0 diverges"), std::string::npos) << at9.failure;
  EXPECT_TRUE(runBundle(loadBundle(dir, {{"batch", 10}}), fullVerify()).verified);
  g["recorded_sizes"][1]["steps"].erase(0);
  std::ofstream(dir / "graph.json") << g.dump(1);
  const std::string e = errorOf([&] { loadBundle(dir, {{"batch", 10}}); });
  EXPECT_NE(e.find("recorded_sizes[1].steps: has 2 entries; the bundle has 3 steps"), std::string::npos) << e;
  fs::remove_all(dir);
}

TEST(DynamicBundle, SmallerBatchIsTheCapturedOutputsFirstRows) {
  // The generator makes element i of a storage from (seed, stream, i) only, so x at
  // batch 3 is the first 3 rows of x at batch 8 and the weights are the same: the
  // MLP's output at batch 3 must be the first 3 rows of eager PyTorch's output at
  // batch 8 (reference/output_0.npy, computed on the GPU), within fp32's 1e-4.
  const Bundle b = loadBundle(kMlp, {{"batch", 3}});
  std::vector<std::unique_ptr<reference::Buffer>> storages = test::zeroStorages(b);
  for (const Input &in : b.inputs)
    fillInput(*storages[static_cast<size_t>(in.tensor.storage)], in.init, b.seed);
  RunOptions o = fullVerify();
  o.mode = Mode::Functional;
  const RunReport r = runBundle(b, o, storages);
  ASSERT_TRUE(r.failure.empty()) << r.failure;
  const core::NpyArray ref = core::readNpy((kMlp / "reference" / "output_0.npy").string());
  ASSERT_EQ(ref.numElements(), 8 * 16);
  const reference::Buffer &out = *storages[static_cast<size_t>(b.outputs[0].tensor.storage)];
  ASSERT_EQ(out.numElements(), 3 * 16);
  for (size_t i = 0; i < 3 * 16; ++i) {
    float got = 0.0F, want = 0.0F;
    std::memcpy(&got, out.bytes.data() + 4 * i, 4);
    std::memcpy(&want, ref.bytes.data() + 4 * i, 4);
    EXPECT_LE(std::fabs(got - want), 1e-4 + 1e-4 * std::fabs(want)) << "element " << i;
  }
}

TEST(DynamicBundle, TwoSymbolsBindTogether) {
  // A hand-written graph: tokens [batch * seq, 32] @ w [32, 16] as one aten.mm whose
  // sizes are expressions of both symbols, with the guard batch * seq <= 4096.
  const fs::path dir = fs::temp_directory_path() / ("npusim-sizes-two-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const nlohmann::json rows = {{"sym", "batch*seq"}};
  const nlohmann::json g = {
      {"format", "npusim-bundle"},
      {"version", 1},
      {"seed", 3},
      {"symbols",
       {{{"name", "batch"}, {"value", 2}, {"min", 2}, {"max", nullptr}},
        {{"name", "seq"}, {"value", 8}, {"min", 2}, {"max", 2048}}}},
      {"guards", {{{"expr", "batch*seq <= 4096"}, {"checked", true}}}},
      {"storages",
       {{{"id", 0}, {"dtype", "fp32"}, {"elements", {{"sym", "32*batch*seq"}}}},
        {{"id", 1}, {"dtype", "fp32"}, {"elements", 512}},
        {{"id", 2}, {"dtype", "fp32"}, {"elements", {{"sym", "16*batch*seq"}}}}}},
      {"inputs",
       {{{"name", "tokens"},
         {"tensor", {{"storage", 0}, {"offset", 0}, {"shape", {rows, 32}}, {"stride", {32, 1}}}},
         {"init", {{"kind", "uniform"}, {"low", -1.0}, {"high", 1.0}, {"stream", 0}}}},
        {{"name", "w"},
         {"tensor", {{"storage", 1}, {"offset", 0}, {"shape", {32, 16}}, {"stride", {16, 1}}}},
         {"init", {{"kind", "uniform"}, {"low", -0.5}, {"high", 0.5}, {"stream", 1}}}}}},
      {"steps",
       {{{"kind", "call"},
         {"op", "aten.mm"},
         {"args",
          {{{"tensor", {{"storage", 0}, {"offset", 0}, {"shape", {rows, 32}}, {"stride", {32, 1}}}}},
           {{"tensor", {{"storage", 1}, {"offset", 0}, {"shape", {32, 16}}, {"stride", {16, 1}}}}}}},
         {"out", {{{"tensor", {{"storage", 2}, {"offset", 0}, {"shape", {rows, 16}}, {"stride", {16, 1}}}}}}}}}},
      {"outputs",
       {{{"name", "y"},
         {"tensor", {{"storage", 2}, {"offset", 0}, {"shape", {rows, 16}}, {"stride", {16, 1}}}}}}}};
  std::ofstream(dir / "graph.json") << g.dump(1);
  const Bundle b = loadBundle(dir, {{"seq", 5}, {"batch", 3}});
  EXPECT_EQ(b.sizes.describe(), "batch=3, seq=5");
  EXPECT_EQ(b.storages[0].elements, 32 * 3 * 5);
  EXPECT_EQ(b.steps[0].out[0]->shape[0], 15);
  RunOptions o = fullVerify();
  o.mode = Mode::Functional;
  const RunReport r = runBundle(b, o);
  EXPECT_TRUE(r.verified) << r.failure;
  EXPECT_EQ(r.buffersCompared, 1); // the mm's output against the host's
  // 64 * 128 = 8192 > 4096; seq 4096 > its max 2048; an unknown name lists both.
  EXPECT_NE(errorOf([&] { loadBundle(dir, {{"seq", 128}, {"batch", 64}}); })
                .find("batch=64, seq=128 fails guard guards[0] 'batch*seq <= 4096'"),
            std::string::npos);
  EXPECT_NE(errorOf([&] { loadBundle(dir, {{"seq", 4096}}); }).find("size seq=4096 lies outside its range [2, 2048]"),
            std::string::npos);
  EXPECT_NE(errorOf([&] { loadBundle(dir, {{"heads", 4}}); }).find("the bundle's sizes: batch, seq"),
            std::string::npos);
  fs::remove_all(dir);
}

TEST(DynamicBundle, CommandLineSet) {
  const fs::path dir = fs::temp_directory_path() / ("npusim-sizes-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const auto run = [&](const std::string &args, std::string &out) {
    const std::string cmd = std::string(NPUSIM_BINARY) + " run " + kMlp.string() + " " + args + " --quiet > " +
                            (dir / "out.txt").string() + " 2>&1";
    const int status = std::system(cmd.c_str());
    std::ifstream in(dir / "out.txt");
    std::ostringstream s;
    s << in.rdbuf();
    out = s.str();
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  };
  std::string out;
  EXPECT_EQ(run("--mode functional --verify --set batch=5", out), 0) << out;
  EXPECT_NE(out.find("sizes: batch=5 (not the captured sizes: no device fingerprints here, verification is the "
                     "NPU against npusim's reference); 2 guards checked"),
            std::string::npos)
      << out;
  EXPECT_EQ(run("--mode functional --set seq=4", out), 1) << out;
  EXPECT_NE(out.find("no size named 'seq'; the bundle's sizes: batch"), std::string::npos) << out;
  EXPECT_EQ(run("--mode functional --set batch", out), 1) << out;
  EXPECT_NE(out.find("--set: 'batch' is not NAME=VALUE"), std::string::npos) << out;
  fs::remove_all(dir);
}

} // namespace
} // namespace npusim::runtime
