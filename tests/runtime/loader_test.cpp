// The bundle loader: the tiny bundle loads; each malformed variant of it (one
// field mutated here) is rejected with the file and the JSON path of the field.
#include "core/error.h"
#include "runtime/loader.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>

namespace npusim::runtime {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const fs::path kTiny = fs::path(NPUSIM_TEST_DATA) / "bundles" / "tiny";

class LoaderTest : public ::testing::Test {
protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "npusim-loader-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
    fs::copy(kTiny, dir_, fs::copy_options::recursive);
    std::ifstream in(dir_ / "graph.json");
    graph_ = json::parse(in);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  /// Writes the mutated graph and expects loadBundle to reject it with a message
  /// containing "graph.json: " + `expected`.
  void expectRejected(const std::function<void(json &)> &mutate, const std::string &expected) {
    json g = graph_;
    mutate(g);
    std::ofstream(dir_ / "graph.json") << g.dump(1);
    try {
      loadBundle(dir_);
      ADD_FAILURE() << "the bundle was accepted; expected: " << expected;
    } catch (const core::InputError &e) {
      const std::string message = e.what();
      EXPECT_NE(message.find((dir_ / "graph.json").string() + ": " + expected), std::string::npos)
          << "message: " << message << "\nexpected: " << expected;
    }
  }

  fs::path dir_;
  json graph_;
};

TEST_F(LoaderTest, TheTinyBundleLoads) {
  const Bundle b = loadBundle(kTiny);
  EXPECT_EQ(b.seed, 7u);
  ASSERT_EQ(b.storages.size(), 9u);
  ASSERT_EQ(b.steps.size(), 3u);
  EXPECT_EQ(b.steps[0].kind, Step::Kind::Launch);
  EXPECT_EQ(b.steps[0].name, "triton_poi_fused_add_relu_0");
  EXPECT_EQ(b.steps[0].grid, (std::array<int64_t, 3>{8, 1, 1}));
  EXPECT_EQ(b.steps[1].name, "aten.addmm");
  EXPECT_EQ(b.steps[1].callArgs.size(), 5u);
  EXPECT_EQ(b.steps[1].callArgs[2].tensor.stride, (std::vector<int64_t>{1, 40}));
  EXPECT_EQ(b.steps[2].callArgs[8].intValue, 2);
  ASSERT_EQ(b.outputs.size(), 2u);
  EXPECT_EQ(b.outputs[0].fingerprint.samples.size(), 64u);
  EXPECT_EQ(b.kernels.size(), 1u);
}

TEST_F(LoaderTest, ListsEveryMissingLibraryCallWithItsSteps) {
  // Steps 1 and 3 call one operator npusim lacks, step 2 another: one error
  // names both, each with its steps, in order of first use.
  expectRejected(
      [](json &g) {
        json again = g["steps"][1];
        g["steps"][1]["op"] = "aten.nonzero";
        g["steps"][2]["op"] = "transformers.no_such_op";
        again["op"] = "aten.nonzero";
        g["steps"].push_back(again);
      },
      "steps: 2 library calls not implemented by npusim: aten.nonzero (steps 1, 3); "
      "transformers.no_such_op (step 2)");
}

TEST_F(LoaderTest, OneMissingLibraryCall) {
  expectRejected([](json &g) { g["steps"][2]["op"] = "aten.nonzero.default"; },
                 "steps: 1 library call not implemented by npusim: aten.nonzero.default (step 2)");
}

TEST_F(LoaderTest, RejectsNotJson) {
  std::ofstream(dir_ / "graph.json") << "{\"format\": ";
  EXPECT_THROW(loadBundle(dir_), core::InputError);
}

TEST_F(LoaderTest, RejectsNumbersOutOfRange) {
  // 1e400 is no double: the JSON reader's range error becomes the loader's.
  std::ofstream(dir_ / "graph.json") << "{\"format\": \"npusim-bundle\", \"version\": 1e400}";
  try {
    loadBundle(dir_);
    ADD_FAILURE() << "the bundle was accepted";
  } catch (const core::InputError &e) {
    EXPECT_NE(std::string(e.what()).find("graph.json: not valid JSON"), std::string::npos) << e.what();
  }
}

TEST_F(LoaderTest, RejectsWrongFormatAndVersion) {
  expectRejected([](json &g) { g["format"] = "other"; }, "format: expected \"npusim-bundle\"");
  expectRejected([](json &g) { g["version"] = 2; },
                 "version: this npusim reads bundle format version 1, got the number 2");
  expectRejected([](json &g) { g.erase("seed"); }, "(top level): missing key 'seed'");
}

TEST_F(LoaderTest, RejectsUnknownKeys) {
  expectRejected([](json &g) { g["extra"] = 1; }, "extra: unknown key 'extra'");
  expectRejected([](json &g) { g["steps"][2]["args"][0]["tensor"]["dtype"] = "fp32"; },
                 "steps[2].args[0].tensor.dtype: unknown key");
  expectRejected([](json &g) { g["steps"][0]["fingerprints"][0]["mean"] = 0; },
                 "steps[0].fingerprints[0].mean: unknown key");
  // Only "model" is free-form.
  json g = graph_;
  g["model"]["anything"] = {{"goes", true}};
  std::ofstream(dir_ / "graph.json") << g.dump();
  EXPECT_NO_THROW(loadBundle(dir_));
}

TEST_F(LoaderTest, ReadsWhereTheFingerprintsComeFrom) {
  EXPECT_EQ(loadBundle(kTiny).fingerprintSource, "device"); // absent: the capturing device's
  json g = graph_;
  g["fingerprint_source"] = "npusim-reference";
  std::ofstream(dir_ / "graph.json") << g.dump();
  EXPECT_EQ(loadBundle(dir_).fingerprintSource, "npusim-reference");
  expectRejected([](json &b) { b["fingerprint_source"] = "gpu"; },
                 "fingerprint_source: expected \"device\" or \"npusim-reference\", got the string \"gpu\"");
  expectRejected([](json &b) { b["fingerprint_source"] = 1; }, "fingerprint_source: expected a string");
}

TEST_F(LoaderTest, RejectsBadStorages) {
  expectRejected([](json &g) { g["storages"][2]["dtype"] = "fp8"; },
                 "storages[2].dtype: unknown dtype 'fp8'");
  expectRejected([](json &g) { g["storages"][1]["id"] = 5; },
                 "storages[1].id: storage ids are dense from 0 in order: expected 1, got 5");
  expectRejected([](json &g) { g["storages"][0]["elements"] = -1; },
                 "storages[0].elements: expected an integer >= 0, got -1");
}

TEST_F(LoaderTest, RejectsBadTensorReferences) {
  expectRejected([](json &g) { g["steps"][1]["args"][1]["tensor"]["storage"] = 99; },
                 "steps[1].args[1].tensor.storage: no storage 99 (the bundle has 9)");
  expectRejected(
      [](json &g) {
        g["steps"][1]["args"][2]["tensor"]["stride"] = json::array({1, 41});
      },
      "steps[1].args[2].tensor: the view (offset 0, shape [40, 16], stride [1, 41]) addresses element 654, "
      "outside storage 3 of 640 elements");
  expectRejected(
      [](json &g) {
        g["steps"][2]["args"][0]["tensor"]["stride"] = json::array({400, 100, 10});
      },
      "steps[2].args[0].tensor.stride: has 3 entries but shape has 4");
  expectRejected([](json &g) { g["inputs"][0]["tensor"]["offset"] = -3; },
                 "inputs[0].tensor.offset: expected an integer >= 0, got -3");
  expectRejected(
      [](json &g) { g["outputs"][1]["tensor"]["shape"][0] = 26; },
      "outputs[1].tensor: the view (offset 0, shape [26, 40], stride [40, 1]) addresses element 1039");
  expectRejected(
      [](json &g) {
        g["steps"][1]["out"][0]["tensor"]["shape"] = json::array({int64_t{1} << 30, int64_t{1} << 30});
        g["steps"][1]["out"][0]["tensor"]["stride"] = json::array({0, 0});
      },
      "steps[1].out[0].tensor.shape: a view of more than 2^48 elements");
  expectRejected([](json &g) { g["steps"][1]["out"][0]["tensor"]["shape"] = "25x16"; },
                 "steps[1].out[0].tensor.shape: expected an array, got the string \"25x16\"");
}

TEST_F(LoaderTest, RejectsLaunchesThatDoNotFitTheKernel) {
  expectRejected([](json &g) { g["steps"][0]["args"].erase(3); },
                 "steps[0].args: 3 arguments, but triton_poi_fused_add_relu_0 has 4 run-time parameters");
  expectRejected(
      [](json &g) {
        g["steps"][0]["args"][3] = {{"value", 1.5}};
      },
      "steps[0].args[3].value: expected an integer, got the number 1.5");
  expectRejected(
      [](json &g) {
        g["steps"][0]["args"][0] = {{"value", 3}};
      },
      "steps[0].args[0].value: unknown key");
  expectRejected(
      [](json &g) {
        g["steps"][0]["args"][3] = {{"value", int64_t{1} << 40}};
      },
      "steps[0].args[3].value: 1099511627776 does not fit xnumel's type i32");
  expectRejected([](json &g) { g["steps"][0]["kernel"] = "triton_missing_0"; },
                 "steps[0].kernel: the kernel file");
  expectRejected([](json &g) { g["steps"][0]["kernel"] = "../tiny/kernels/x"; },
                 "steps[0].kernel: a kernel name is a file name in kernels/");
  expectRejected([](json &g) { g["steps"][0]["constexprs"] = json::object(); },
                 "steps[0].constexprs: the kernel's constexpr XBLOCK has no value");
  expectRejected([](json &g) { g["steps"][0]["constexprs"]["YBLOCK"] = 4; },
                 "steps[0].constexprs.YBLOCK: 'YBLOCK' is not a constexpr parameter");
  expectRejected([](json &g) { g["steps"][0]["writes"] = json::array({3}); },
                 "steps[0].writes[0]: argument 3 is not a pointer argument");
  expectRejected(
      [](json &g) {
        g["steps"][0]["grid"] = json::array({8, 1, 1, 1});
      },
      "steps[0].grid: a grid has 1 to 3 entries, got 4");
  expectRejected([](json &g) { g["storages"][2]["dtype"] = "fp16"; },
                 "steps[0].args[2].tensor.storage: storage 2 holds fp16 but out_ptr0 is *fp32");
}

/// A kernel whose xnumel Triton specialised to the constant 1 (a constexpr in the
/// signature, listed in constants), as Inductor writes them for single-row reductions.
const char *const kSpecialisedKernel = R"(import triton
import triton.language as tl
from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.hints import DeviceProperties

@triton_heuristics.pointwise(
    size_hints={'x': 1},
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'constexpr', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0), 'constants': {'xnumel': 1}, 'configs': []},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_poi_fused_mul_9', 'mutated_arg_names': []},
)
@triton.jit
def triton_poi_fused_mul_9(in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 1
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    tmp0 = tl.load(in_ptr0 + (xindex), xmask)
    tl.store(out_ptr0 + (xindex), tmp0 * 2.0, xmask)
)";

TEST_F(LoaderTest, SpecialisedConstantsMayBeListedWithTheirValue) {
  std::ofstream(dir_ / "kernels" / "triton_poi_fused_mul_9.py") << kSpecialisedKernel;
  auto addLaunch = [](json &g, json xnumel) {
    g["storages"].push_back({{"id", 9}, {"dtype", "fp32"}, {"elements", 1}});
    json in = {{"storage", 0}, {"offset", 0}, {"shape", {1}}, {"stride", {1}}};
    json out = {{"storage", 9}, {"offset", 0}, {"shape", {1}}, {"stride", {1}}};
    g["steps"].push_back({{"kind", "launch"},
                          {"kernel", "triton_poi_fused_mul_9"},
                          {"grid", {1, 1, 1}},
                          {"constexprs", {{"XBLOCK", 1}}},
                          {"args", {{{"tensor", in}}, {{"tensor", out}}, {{"value", xnumel}}}},
                          {"writes", {1}}});
  };
  json g = graph_;
  addLaunch(g, 1);
  std::ofstream(dir_ / "graph.json") << g.dump();
  const Bundle b = loadBundle(dir_);
  ASSERT_EQ(b.steps.size(), 4u);
  EXPECT_EQ(b.steps[3].argNames, (std::vector<std::string>{"in_ptr0", "out_ptr0", "xnumel"}));
  EXPECT_TRUE(b.steps[3].args[2].isConstant);
  expectRejected(
      [&](json &m) { addLaunch(m, 2); },
      "steps[3].args[2].value: xnumel is specialised to the constant 1 in the kernel, got the number 2");
  expectRejected(
      [&](json &m) {
        addLaunch(m, 1);
        m["steps"][3]["args"].erase(2);
        m["steps"][3]["args"].erase(1);
      },
      "steps[3].args: 1 arguments, but triton_poi_fused_mul_9 has 2 run-time parameters (3 with its "
      "specialised constants)");
}

TEST_F(LoaderTest, RejectsMalformedKernelFiles) {
  std::ofstream(dir_ / "kernels" / "triton_poi_fused_add_relu_0.py") << "def broken(:\n";
  json g = graph_;
  std::ofstream(dir_ / "graph.json") << g.dump();
  try {
    loadBundle(dir_);
    ADD_FAILURE() << "accepted";
  } catch (const core::InputError &e) {
    EXPECT_NE(std::string(e.what()).find("graph.json: steps[0].kernel: "), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("triton_poi_fused_add_relu_0.py:1:"), std::string::npos) << e.what();
  }
}

TEST_F(LoaderTest, MaskedResultsTakeTheirResultPositions) {
  // aten.convolution_backward with output_mask [false, true, false] returns
  // (None, grad_weight, None); the capture lists the one tensor it writes, so
  // out[0] and fingerprint 0 of the file name grad_weight, result 1.
  json g = graph_;
  json call = g["steps"][1];
  const json t = call["out"][0]["tensor"];
  const json ref = {{"tensor", t}};
  call["op"] = "aten.convolution_backward";
  call["args"] =
      json::array({ref, ref, ref, json::array({0}), json::array({1, 1}), json::array({0, 0}),
                   json::array({1, 1}), false, json::array({0, 0}), 1, json::array({false, true, false})});
  g["steps"].push_back(call);
  std::ofstream(dir_ / "graph.json") << g.dump(1);
  const Bundle b = loadBundle(dir_);
  const Step &step = b.steps.back();
  ASSERT_EQ(step.out.size(), 3u);
  EXPECT_FALSE(step.out[0].has_value());
  ASSERT_TRUE(step.out[1].has_value());
  EXPECT_EQ(step.out[1]->storage, t["storage"].get<int64_t>());
  EXPECT_FALSE(step.out[2].has_value());
  ASSERT_EQ(step.fingerprints.size(), 1u);
  EXPECT_EQ(step.fingerprints[0].target, 1);
}

TEST_F(LoaderTest, RejectsMalformedSteps) {
  expectRejected([](json &g) { g["steps"][1]["kind"] = "kernel"; },
                 "steps[1].kind: unknown step kind 'kernel' (launch or call)");
  expectRejected([](json &g) { g["steps"][1].erase("op"); }, "steps[1]: missing key 'op'");
  expectRejected(
      [](json &g) {
        g["steps"][2]["args"][0] = {{"tensr", 1}};
      },
      "steps[2].args[0].tensr: unknown key");
  expectRejected([](json &g) { g["steps"][1]["out"] = json::array({7}); },
                 "steps[1].out[0]: expected an object, got the number 7");
}

TEST_F(LoaderTest, RejectsMalformedFingerprints) {
  expectRejected([](json &g) { g["steps"][1]["fingerprints"][0]["samples"][3][0] = 400; },
                 "steps[1].fingerprints[0].samples[3][0]: sample index 400 is outside the 400 elements");
  expectRejected([](json &g) { g["steps"][2]["fingerprints"][0]["elements"] = 299; },
                 "steps[2].fingerprints[0].elements: 299 elements, but the tensor [1, 6, 5, 10] has 300");
  expectRejected([](json &g) { g["steps"][0]["fingerprints"][0]["arg"] = 3; },
                 "steps[0].fingerprints[0].arg: arg 3 is not a tensor");
  expectRejected([](json &g) { g["steps"][1]["fingerprints"][0]["out"] = 1; },
                 "steps[1].fingerprints[0].out: index 1 is out of range (there are 1)");
  expectRejected([](json &g) { g["steps"][1]["fingerprints"][0]["sum"] = "lots"; },
                 "steps[1].fingerprints[0].sum: expected a number (or \"nan\", \"inf\", \"-inf\")");
  expectRejected([](json &g) { g["steps"][1]["fingerprints"][0]["samples"][2] = json::array({5}); },
                 "steps[1].fingerprints[0].samples[2]: a sample is [index, value]");
  expectRejected([](json &g) { g["steps"][1]["fingerprints"][0]["samples"][2][0] = 0; },
                 "steps[1].fingerprints[0].samples[2][0]: sample indices must not decrease");
  expectRejected([](json &g) { g["steps"][1]["fingerprints"][0]["samples"][2][0] = 30; },
                 "steps[1].fingerprints[0].samples[2][0]: sample 2 is at index 30; expected round(2 * (n - "
                 "1) / 63) = 13");
  expectRejected([](json &g) { g["steps"][1]["fingerprints"][0]["samples"].erase(63); },
                 "steps[1].fingerprints[0].samples: 63 samples; a fingerprint of 400 elements has 64");
  expectRejected([](json &g) { g["steps"][0]["fingerprints"][0]["arg"] = 0; },
                 "steps[0].fingerprints[0].arg: argument 0 is not in writes");
  expectRejected([](json &g) { g["outputs"][0]["fingerprint"]["out"] = 0; },
                 "outputs[0].fingerprint.out: unknown key");
  expectRejected([](json &g) { g["outputs"][0].erase("fingerprint"); },
                 "outputs[0]: missing key 'fingerprint'");
}

TEST_F(LoaderTest, RejectsBadInputsAndOutputs) {
  expectRejected([](json &g) { g["inputs"][0]["init"]["kind"] = "normal"; },
                 "inputs[0].init.kind: unknown init kind 'normal'");
  expectRejected([](json &g) { g["inputs"][1]["init"]["stream"] = 0; },
                 "inputs[1].init.stream: stream 0 is used by another input");
  expectRejected([](json &g) { g["inputs"][0]["init"]["value"] = 1; }, "inputs[0].init.value: unknown key");
  expectRejected(
      [](json &g) {
        g["inputs"][0]["init"] = {{"kind", "randint"}, {"low", 3}, {"high", 3}, {"stream", 0}};
      },
      "inputs[0].init.high: randint needs high > low");
  expectRejected([](json &g) { g["outputs"][0]["reference"] = "reference/missing.npy"; },
                 "outputs[0].reference: ");
  expectRejected([](json &g) { g["outputs"][0]["reference"] = "../tiny/reference/output_0.npy"; },
                 "outputs[0].reference: the reference must be a relative path inside the bundle");
  expectRejected([](json &g) { g["outputs"][0]["reference"] = "reference/output_1.npy"; },
                 "outputs[0].reference: ");
  expectRejected([](json &g) { g["outputs"][0].erase("reference"); },
                 "outputs[0]: an output of 300 elements (at most 65,536) carries its reference values");
  expectRejected(
      [](json &g) {
        g["inputs"].push_back(g["inputs"][0]);
        g["inputs"][6]["name"] = "x_again";
        g["inputs"][6]["init"]["low"] = -2.0;
      },
      "inputs[6].init: storage 0 is also input 0's, with a different init");
  expectRejected(
      [](json &g) {
        g["steps"][1]["args"][1]["tensor"]["stride"] = json::array({40, -1});
      },
      "steps[1].args[1].tensor: the view (offset 0, shape [25, 40], stride [40, -1]) addresses element -39");
}

} // namespace
} // namespace npusim::runtime
