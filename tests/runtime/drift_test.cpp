// The drift analysis (runtime/drift.h): a two-step chain Y = A @ B, Z = Y @ C
// whose "device" Y differs from npusim's within the fixed tolerance, in a
// pattern that adds up in Z's first column beyond it. The analysis accepts
// that; it does not accept a step that is 1% off on the same drifted inputs,
// nor a divergence on inputs without drift; and an allowance widens a
// fingerprint's tolerance by exactly its amount.
#include "runtime/drift.h"

#include "runtime/bundle_storages.h"
#include "config/hardware.h"
#include "core/npy.h"
#include "reference/host_calls.h"
#include "runtime/fingerprint.h"
#include "runtime/generator.h"
#include "runtime/loader.h"
#include "runtime/runner.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace npusim::runtime {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr int kDriftN = 64;
constexpr uint64_t kSeed = 11;
constexpr double kDeviceDrift = 6e-5; // relative: within rtol = atol = 1e-4 for every Y

/// Input `stream` of kSeed as the generator makes it: uniform [-1, 1), fp32.
std::vector<double> generated(int64_t elements, uint64_t stream) {
  reference::Buffer b;
  b.dtype = core::DType::Float32;
  b.bytes.resize(static_cast<size_t>(elements) * 4);
  InputInit init;
  init.low = -1.0;
  init.high = 1.0;
  init.stream = stream;
  fillInput(b, init, kSeed);
  reference::TensorView v;
  v.buffer = &b;
  v.shape = {elements};
  v.stride = {1};
  return reference::readValues(v);
}

/// (1 x kDriftN) @ (kDriftN x kDriftN), summed in double.
std::vector<double> rowTimes(const std::vector<double> &row, const std::vector<double> &m) {
  std::vector<double> out(kDriftN, 0.0);
  for (int j = 0; j < kDriftN; ++j)
    for (int i = 0; i < kDriftN; ++i)
      out[static_cast<size_t>(j)] += row[static_cast<size_t>(i)] * m[static_cast<size_t>(i * kDriftN + j)];
  return out;
}

double fp32(double v) {
  return static_cast<double>(static_cast<float>(v));
}

json driftTensor(int storage, std::vector<int64_t> shape) {
  std::vector<int64_t> stride(shape.size(), 1);
  for (size_t d = shape.size() - 1; d > 0; --d)
    stride[d - 1] = stride[d] * shape[d];
  return {{"storage", storage}, {"offset", 0}, {"shape", shape}, {"stride", stride}};
}

json driftFingerprint(const std::vector<double> &values) {
  double sum = 0.0, absSum = 0.0;
  json samples = json::array();
  for (size_t i = 0; i < values.size(); ++i) {
    sum += values[i];
    absSum += std::fabs(values[i]);
    samples.push_back({i, values[i]});
  }
  return {{"out", 0}, {"elements", values.size()}, {"sum", sum}, {"abs_sum", absSum}, {"nan", 0},
          {"inf", 0}, {"samples", samples}};
}

/// A bundle of `storages` fp32 storages, 1 and 3 of kDriftN x kDriftN elements, the others of kDriftN.
json graph(int storages, const json &inputs, const json &steps, const json &outputs) {
  json list = json::array();
  for (int s = 0; s < storages; ++s)
    list.push_back({{"id", s}, {"dtype", "fp32"}, {"elements", s == 1 || s == 3 ? kDriftN * kDriftN : kDriftN}});
  return {{"format", "npusim-bundle"}, {"version", 1},     {"model", json::object()}, {"seed", kSeed},
          {"storages", list},          {"inputs", inputs}, {"steps", steps},          {"outputs", outputs}};
}

class DriftTest : public ::testing::Test {
protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "npusim-drift-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
    a_ = generated(kDriftN, 0);
    b_ = generated(kDriftN * kDriftN, 1);
    c_ = generated(kDriftN * kDriftN, 2);
    for (double &y : npusimY_ = rowTimes(a_, b_))
      y = fp32(y); // the host mm: double sums, rounded once
    // The device's Y drifted by kDeviceDrift, with the sign of Y_i * C_i0, so
    // that the drift adds up in Z's first column.
    deviceY_ = npusimY_;
    for (int i = 0; i < kDriftN; ++i) {
      const double sign =
          npusimY_[static_cast<size_t>(i)] * c_[static_cast<size_t>(i * kDriftN)] >= 0.0 ? 1.0 : -1.0;
      deviceY_[static_cast<size_t>(i)] = fp32(npusimY_[static_cast<size_t>(i)] * (1.0 + sign * kDeviceDrift));
    }
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  /// The chain with Y's fingerprint `y` and Z's `z`.
  Bundle chain(const std::vector<double> &y, const std::vector<double> &z) const {
    json inputs = json::array();
    for (int s : {0, 1, 3})
      inputs.push_back(
          {{"name", "in" + std::to_string(s)},
           {"tensor", s == 0 ? driftTensor(0, {1, kDriftN}) : driftTensor(s, {kDriftN, kDriftN})},
           {"init", {{"kind", "uniform"}, {"low", -1.0}, {"high", 1.0}, {"stream", s == 3 ? 2 : s}}}});
    const json mm = {{"kind", "call"}, {"op", "aten.mm"}};
    json step0 = mm, step1 = mm;
    step0["args"] = {{{"tensor", driftTensor(0, {1, kDriftN})}}, {{"tensor", driftTensor(1, {kDriftN, kDriftN})}}};
    step0["out"] = {{{"tensor", driftTensor(2, {1, kDriftN})}}};
    step0["fingerprints"] = {driftFingerprint(y)};
    step1["args"] = {{{"tensor", driftTensor(2, {1, kDriftN})}}, {{"tensor", driftTensor(3, {kDriftN, kDriftN})}}};
    step1["out"] = {{{"tensor", driftTensor(4, {1, kDriftN})}}};
    step1["fingerprints"] = {driftFingerprint(z)};
    std::ofstream(dir_ / "graph.json") << graph(5, inputs, {step0, step1}, json::array()).dump(1);
    return loadBundle(dir_);
  }

  /// The device's Z = deviceY @ C, divided by `error` (a step that far off), in fp32.
  std::vector<double> deviceZ(double error) const {
    std::vector<double> z = rowTimes(deviceY_, c_);
    for (double &v : z)
      v = fp32(v / error);
    return z;
  }

  RunOptions verify() const {
    RunOptions o;
    o.verify = true;
    o.threads = 1;
    return o;
  }

  fs::path dir_;
  std::vector<double> a_, b_, c_, npusimY_, deviceY_;
};

TEST_F(DriftTest, TheDeviceChainDivergesOnlyThroughItsDrift) {
  // The premise, by hand: Y agrees within the fixed tolerance, Z's first column does not.
  for (int i = 0; i < kDriftN; ++i)
    ASSERT_TRUE(floatsMatch(npusimY_[static_cast<size_t>(i)], deviceY_[static_cast<size_t>(i)])) << i;
  const std::vector<double> zDevice = rowTimes(deviceY_, c_), zNpusim = rowTimes(npusimY_, c_);
  EXPECT_FALSE(floatsMatch(zNpusim[0], zDevice[0])) << zNpusim[0] << " vs " << zDevice[0];
}

TEST_F(DriftTest, ADivergenceWithinTheInputsDriftVerifies) {
  const std::vector<double> z = deviceZ(1.0);
  Bundle bundle = chain(deviceY_, z);
  const RunReport plain = runBundle(bundle, verify());
  ASSERT_FALSE(plain.verified);
  EXPECT_NE(plain.failure.find("step 1 (call aten.mm): out[0] diverges from the fingerprint"),
            std::string::npos)
      << plain.failure;

  const RunReport r = runBundleAllowingDrift(bundle, verify());
  EXPECT_TRUE(r.verified) << r.failure;
  ASSERT_EQ(r.stepsWithinDrift, std::vector<size_t>{1});
  EXPECT_NE(r.steps[1].message.find("verified with a drift allowance: inputs' measured drift"),
            std::string::npos)
      << r.steps[1].message;
  // Step 0 read generated inputs only: no allowance.
  for (const Sample &s : bundle.steps[0].fingerprints[0].samples)
    EXPECT_EQ(s.driftAllowance, 0.0);
  EXPECT_GT(bundle.steps[1].fingerprints[0].samples[0].driftAllowance, 0.0);
  const json report = json::parse(reportJson(r, "chain"));
  EXPECT_EQ(report["steps_within_drift"], json::array({1}));
  EXPECT_EQ(report["result"], "verified");
}

TEST_F(DriftTest, TheCommandLineAllowsForDriftOnTheNpu) {
  const std::vector<double> z = deviceZ(1.0);
  chain(deviceY_, z);
  const std::string out = (dir_ / "out.txt").string();
  for (const std::string mode : {"--mode full", "--mode functional --config edge-8lane"}) {
    const std::string command = std::string(NPUSIM_BINARY) + " run " + dir_.string() + " --verify --quiet " +
                                mode + " > " + out + " 2>&1";
    const int status = std::system(command.c_str());
    std::ifstream in(out);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(status, 0) << mode << ": " << text;
    EXPECT_NE(text.find("verification: passed"), std::string::npos) << mode << ": " << text;
    EXPECT_NE(text.find("drift: 1 steps matched with their inputs' drift allowed for: 1\n"),
              std::string::npos)
        << mode << ": " << text;
  }
}

TEST_F(DriftTest, AStepOnePercentOffStillFails) {
  // A wrong step on the same drifted inputs: Z 1% larger than Y @ C.
  const std::vector<double> z = deviceZ(1.01);
  Bundle bundle = chain(deviceY_, z);
  const RunReport r = runBundleAllowingDrift(bundle, verify());
  EXPECT_FALSE(r.verified);
  EXPECT_NE(r.failure.find("step 1 (call aten.mm): out[0] diverges from the fingerprint"), std::string::npos)
      << r.failure;
  EXPECT_NE(r.failure.find("(beyond the drift of its inputs: inputs' measured drift"), std::string::npos)
      << r.failure;
  EXPECT_TRUE(r.stepsWithinDrift.empty());
}

TEST_F(DriftTest, ADivergenceOnInputsWithoutDriftIsNotAllowedFor) {
  // Y's fingerprint is npusim's own Y: the inputs of step 1 carry no drift, so
  // the same difference in Z is a wrong step.
  const std::vector<double> z = deviceZ(1.0);
  Bundle bundle = chain(npusimY_, z);
  const RunReport r = runBundleAllowingDrift(bundle, verify());
  EXPECT_FALSE(r.verified);
  EXPECT_NE(r.failure.find("(its inputs carry no measured drift)"), std::string::npos) << r.failure;
  for (const Sample &s : bundle.steps[1].fingerprints[0].samples)
    EXPECT_EQ(s.driftAllowance, 0.0);
}

/// A threshold in the chain, as a ReLU6 backward has one at 6: Y = A @ B,
/// then M = where(Y >= T, 0, G) (a Triton kernel), then Z = M @ C, Z the
/// output. T lies between npusim's Y_k and the device's, which drifted down by
/// 6e-5 (within the fixed tolerance): the device keeps G_k, npusim masks it,
/// and Z differs from the device wherever row k of C reaches.
class ThresholdDriftTest : public DriftTest {
protected:
  void SetUp() override {
    DriftTest::SetUp();
    g_ = generated(kDriftN, 4);
    // k: the largest Y, far from every other (the premise test checks it).
    k_ = static_cast<size_t>(std::max_element(npusimY_.begin(), npusimY_.end()) - npusimY_.begin());
    const double y = npusimY_[k_];
    threshold_ = fp32(y * (1.0 - 1e-5));
    thresholdY_ = npusimY_;
    thresholdY_[k_] = fp32(y * (1.0 - 6e-5));
    deviceM_ = g_;
    npusimM_ = g_;
    npusimM_[k_] = 0.0;
    for (double &z : deviceZ_ = rowTimes(deviceM_, c_))
      z = fp32(z);
  }

  /// The chain with the given fingerprints of Y (none when empty), M and Z,
  /// Z's also as the bundle output's reference.
  Bundle thresholdChain(const std::vector<double> &y, const std::vector<double> &m,
                        const std::vector<double> &z) const {
    char literal[32];
    std::snprintf(literal, sizeof literal, "%.9g", threshold_);
    fs::create_directories(dir_ / "kernels");
    std::ofstream(dir_ / "kernels" / "triton_poi_mask_0.py")
        << "import triton\nimport triton.language as tl\n\n\n@triton.jit\n"
           "def triton_poi_mask_0(in_ptr0: \"*fp32\", in_ptr1: \"*fp32\", out_ptr0: \"*fp32\", xnumel: "
           "\"i32\",\n"
           "                      XBLOCK: tl.constexpr):\n"
           "    xindex = tl.program_id(0) * XBLOCK + tl.arange(0, XBLOCK)[:]\n"
           "    xmask = xindex < xnumel\n"
           "    y = tl.load(in_ptr0 + xindex, xmask)\n"
           "    g = tl.load(in_ptr1 + xindex, xmask)\n"
           "    tl.store(out_ptr0 + xindex, tl.where(y >= "
        << literal << ", 0.0, g), xmask)\n";
    json inputs = json::array();
    for (int s : {0, 1, 3, 6})
      inputs.push_back({{"name", "in" + std::to_string(s)},
                        {"tensor", s == 1 || s == 3 ? driftTensor(s, {kDriftN, kDriftN}) : driftTensor(s, {1, kDriftN})},
                        {"init",
                         {{"kind", "uniform"},
                          {"low", -1.0},
                          {"high", 1.0},
                          {"stream", s == 3   ? 2
                                     : s == 6 ? 4
                                              : s}}}});
    const json mm = {{"kind", "call"}, {"op", "aten.mm"}};
    json step0 = mm, step2 = mm;
    step0["args"] = {{{"tensor", driftTensor(0, {1, kDriftN})}}, {{"tensor", driftTensor(1, {kDriftN, kDriftN})}}};
    step0["out"] = {{{"tensor", driftTensor(2, {1, kDriftN})}}};
    if (!y.empty())
      step0["fingerprints"] = {driftFingerprint(y)};
    json mask = driftFingerprint(m);
    mask.erase("out");
    mask["arg"] = 2;
    const json step1 = {{"kind", "launch"},
                        {"kernel", "triton_poi_mask_0"},
                        {"grid", {1, 1, 1}},
                        {"constexprs", {{"XBLOCK", kDriftN}}},
                        {"args",
                         {{{"tensor", driftTensor(2, {1, kDriftN})}},
                          {{"tensor", driftTensor(6, {1, kDriftN})}},
                          {{"tensor", driftTensor(5, {1, kDriftN})}},
                          {{"value", kDriftN}}}},
                        {"writes", {2}},
                        {"fingerprints", {mask}}};
    step2["args"] = {{{"tensor", driftTensor(5, {1, kDriftN})}}, {{"tensor", driftTensor(3, {kDriftN, kDriftN})}}};
    step2["out"] = {{{"tensor", driftTensor(4, {1, kDriftN})}}};
    step2["fingerprints"] = {driftFingerprint(z)};
    core::NpyArray reference;
    reference.shape = {1, kDriftN};
    std::vector<float> zf(z.begin(), z.end());
    reference.bytes.resize(zf.size() * 4);
    std::memcpy(reference.bytes.data(), zf.data(), reference.bytes.size());
    fs::create_directories(dir_ / "reference");
    core::writeNpy((dir_ / "reference" / "output_0.npy").string(), reference);
    json output = {{"name", "output_0"},
                   {"tensor", driftTensor(4, {1, kDriftN})},
                   {"reference", "reference/output_0.npy"},
                   {"fingerprint", driftFingerprint(z)}};
    output["fingerprint"].erase("out");
    std::ofstream(dir_ / "graph.json")
        << graph(7, inputs, {step0, step1, step2}, json::array({output})).dump(1);
    return loadBundle(dir_);
  }

  std::vector<double> g_, thresholdY_, deviceM_, npusimM_, deviceZ_;
  size_t k_ = 0;
  double threshold_ = 0.0;
};

TEST_F(ThresholdDriftTest, ThePremise) {
  const double y = npusimY_[k_];
  ASSERT_GT(y, threshold_);
  ASSERT_LT(thresholdY_[k_], threshold_);
  ASSERT_TRUE(floatsMatch(thresholdY_[k_], y));
  for (size_t i = 0; i < npusimY_.size(); ++i)
    if (i != k_) {
      ASSERT_LT(npusimY_[i], threshold_ - 1e-3) << i; // no other element near the threshold
    }
  ASSERT_FALSE(floatsMatch(g_[k_], 0.0)) << g_[k_];
}

TEST_F(ThresholdDriftTest, AMaskFlipWithinTheInputsDriftGoesOnFromTheDevicesSide) {
  for (const char *preset : {"", "edge-8lane"}) {
    Bundle bundle = thresholdChain(thresholdY_, deviceM_, deviceZ_);
    RunOptions options = verify();
    if (*preset) {
      options.mode = Mode::Functional;
      options.machine = config::loadConfig(preset);
    }
    const RunReport plain = runBundle(bundle, options);
    ASSERT_FALSE(plain.verified) << preset;
    EXPECT_NE(plain.failure.find("step 1 (launch triton_poi_mask_0)"), std::string::npos) << plain.failure;

    const RunReport r = runBundleAllowingDrift(bundle, options);
    EXPECT_TRUE(r.verified) << preset << ": " << r.failure;
    EXPECT_EQ(r.stepsWithinDrift, std::vector<size_t>{1}) << preset;
    ASSERT_GT(r.steps.size(), 2u);
    EXPECT_NE(r.steps[1].message.find("the device took the other side of a threshold"), std::string::npos)
        << r.steps[1].message;
    EXPECT_FALSE(bundle.steps[1].deviceSide.empty());
    // Downstream of the flip the chain is the device's again: the product and
    // the output verify with the fixed tolerance, no allowance.
    for (const Sample &s : bundle.steps[2].fingerprints[0].samples)
      EXPECT_EQ(s.driftAllowance, 0.0);
    EXPECT_EQ(bundle.steps[2].fingerprints[0].sumDriftAllowance, 0.0);
    ASSERT_EQ(r.outputs.size(), 1u);
    EXPECT_EQ(r.outputs[0].result, Outcome::Verified) << r.outputs[0].message;
  }
}

TEST_F(ThresholdDriftTest, AStepAfterTheFlipOnePercentOffStillFails) {
  std::vector<double> z = deviceZ_;
  for (double &v : z)
    v = fp32(v / 1.01);
  Bundle bundle = thresholdChain(thresholdY_, deviceM_, z);
  const RunReport r = runBundleAllowingDrift(bundle, verify());
  EXPECT_FALSE(r.verified);
  EXPECT_NE(r.failure.find("step 2 (call aten.mm): out[0] diverges from the fingerprint"), std::string::npos)
      << r.failure;
}

TEST_F(ThresholdDriftTest, AFlipOnInputsWithoutDriftStaysAFailure) {
  // The device's Y is npusim's: nothing lets the mask differ.
  Bundle bundle = thresholdChain(npusimY_, deviceM_, deviceZ_);
  const RunReport r = runBundleAllowingDrift(bundle, verify());
  EXPECT_FALSE(r.verified);
  EXPECT_NE(r.failure.find("step 1 (launch triton_poi_mask_0)"), std::string::npos) << r.failure;
  EXPECT_NE(r.failure.find("(its inputs carry no measured drift)"), std::string::npos) << r.failure;
  EXPECT_TRUE(bundle.steps[1].deviceSide.empty());
}

/// The same chain where the NPU's own rounding puts Y_k on the other side of
/// T from the reference's, and the device's values are the reference's: the
/// NPU GEMM sums in float32 where the host mm rounds a double sum once, and T
/// is the larger of the two Y_k. Y has no fingerprint (a flip its own step
/// does not show), so no drift is measured and the drift analysis cannot
/// explain the mask's divergence; the reference chain and the step-by-step
/// NPU checks judge the run (docs/bundle-format.md, "When the NPU chain leaves
/// the device's").
class NpuChainTest : public ThresholdDriftTest {
protected:
  /// Y = A @ B as `options` computes it (the mask's T does not enter).
  std::vector<double> yOn(const RunOptions &options) {
    Bundle bundle = thresholdChain({}, deviceM_, deviceZ_);
    std::vector<std::unique_ptr<reference::Buffer>> storages = test::zeroStorages(bundle);
    for (const Input &in : bundle.inputs)
      fillInput(*storages[static_cast<size_t>(in.tensor.storage)], in.init, bundle.seed);
    RunOptions plain = options;
    plain.verify = false;
    bundle.steps.resize(1);
    const RunReport r = runBundle(bundle, plain, storages);
    EXPECT_TRUE(r.failure.empty()) << r.failure;
    reference::TensorView v;
    v.buffer = storages[2].get();
    v.shape = {kDriftN};
    v.stride = {1};
    return reference::readValues(v);
  }

  /// Sets T to the larger Y_k of the NPU's and the reference's at the element
  /// of the largest |Y| where they differ, and the device's M and Z to the
  /// reference's on that T; false when no element differs.
  bool splitAtTheNpusRounding(const std::vector<double> &npuY) {
    double largest = -1.0;
    for (size_t i = 0; i < npuY.size(); ++i)
      if (npuY[i] != npusimY_[i] && std::fabs(npusimY_[i]) > largest) {
        largest = std::fabs(npusimY_[i]);
        k_ = i;
      }
    if (largest < 0.0)
      return false;
    threshold_ = std::max(npuY[k_], npusimY_[k_]);
    deviceM_ = g_;
    for (size_t i = 0; i < deviceM_.size(); ++i)
      if (npusimY_[i] >= threshold_)
        deviceM_[i] = 0.0;
    for (double &z : deviceZ_ = rowTimes(deviceM_, c_))
      z = fp32(z);
    return true;
  }

  RunOptions onEdge() const {
    RunOptions options = verify();
    options.mode = Mode::Functional;
    options.machine = config::loadConfig("edge-8lane");
    return options;
  }
};

TEST_F(NpuChainTest, AFlipTheNpusRoundingMakesIsJudgedByTheReferenceChain) {
  const RunOptions options = onEdge();
  ASSERT_TRUE(splitAtTheNpusRounding(yOn(options))) << "the NPU GEMM rounds every Y as the host does";
  Bundle bundle = thresholdChain({}, deviceM_, deviceZ_);
  const RunReport plain = runBundle(bundle, options);
  ASSERT_FALSE(plain.verified);
  EXPECT_NE(plain.failure.find("step 1 (launch triton_poi_mask_0)"), std::string::npos) << plain.failure;

  const RunReport r = runBundleAllowingDrift(bundle, options);
  EXPECT_TRUE(r.verified) << r.failure;
  ASSERT_TRUE(r.npuChainLeftDevice.has_value());
  EXPECT_EQ(*r.npuChainLeftDevice, 1u);
  EXPECT_NE(r.npuChainNote.find("step 1 (launch triton_poi_mask_0)"), std::string::npos) << r.npuChainNote;
  ASSERT_EQ(r.steps.size(), 3u); // the NPU chain ran every step, each checked against the reference
  for (const StepResult &s : r.steps)
    EXPECT_EQ(s.npuCheck, "matches the reference") << s.index;
  ASSERT_EQ(r.outputs.size(), 1u); // compared on the reference chain
  EXPECT_EQ(r.outputs[0].result, Outcome::Verified) << r.outputs[0].message;
  const json report = json::parse(reportJson(r, "chain"));
  EXPECT_EQ(report["npu_chain_left_device"]["step"], 1);
  EXPECT_EQ(report["result"], "verified");
}

TEST_F(NpuChainTest, AReferenceChainThatMissesTheDeviceKeepsTheFailure) {
  const RunOptions options = onEdge();
  ASSERT_TRUE(splitAtTheNpusRounding(yOn(options)));
  std::vector<double> z = deviceZ_;
  for (double &v : z)
    v = fp32(v * 1.01); // the device's product 1% off what the semantics give
  Bundle bundle = thresholdChain({}, deviceM_, z);
  const RunReport r = runBundleAllowingDrift(bundle, options);
  EXPECT_FALSE(r.verified);
  EXPECT_FALSE(r.npuChainLeftDevice.has_value());
  EXPECT_NE(r.failure.find("step 1 (launch triton_poi_mask_0)"), std::string::npos) << r.failure;
  EXPECT_NE(r.failure.find("(the reference chain does not match the device either: step 2 (call aten.mm)"),
            std::string::npos)
      << r.failure;
}

TEST(DriftAllowance, WidensTheToleranceByItsAmountAndNeverMatchesNaN) {
  reference::Buffer b;
  b.dtype = core::DType::Float64;
  b.bytes.resize(2 * 8);
  reference::TensorView v;
  v.buffer = &b;
  v.shape = {2};
  v.stride = {1};
  reference::writeValues(v, std::vector<double>{1.0, 2.0});
  Fingerprint f;
  f.elements = 2;
  f.sum = 3.0;
  f.absSum = 3.0;
  // 1.01 against 1.0: error 0.01, fixed tolerance 1e-4 + 1e-4 = 2e-4.
  f.samples = {{0, 1.01, 0, false}, {1, 2.0, 0, false}};
  EXPECT_FALSE(compareFingerprint(v, f).ok);
  f.samples[0].driftAllowance = 0.0097; // 2e-4 + 0.0097 < 0.01
  EXPECT_FALSE(compareFingerprint(v, f).ok);
  f.samples[0].driftAllowance = 0.0099; // 2e-4 + 0.0099 > 0.01
  const Comparison ok = compareFingerprint(v, f);
  EXPECT_TRUE(ok.ok) << ok.message;
  // The sum: 3 against 3.5, allowed 1e-4 * 4.5 plus its allowance.
  f.sum = 3.5;
  EXPECT_FALSE(compareFingerprint(v, f).ok);
  f.sumDriftAllowance = 0.5;
  EXPECT_TRUE(compareFingerprint(v, f).ok);
  // A NaN never matches a finite value through an allowance.
  reference::writeValues(v, std::vector<double>{std::numeric_limits<double>::quiet_NaN(), 2.0});
  f.samples[0].driftAllowance = 1e300;
  EXPECT_FALSE(compareFingerprint(v, f).ok);
}

} // namespace
} // namespace npusim::runtime

namespace npusim::runtime {
namespace {

TEST(MeasuredDrift, TheSumBoundsTheDriftTheSamplesMiss) {
  // Four elements [1, -2, 3, -4] on npusim; the device's fingerprint samples
  // elements 0 and 1 exactly, and its sum is -2.01 where npusim's is -2:
  // elements within d (|x| + m) of the device's move the sum by at most
  // d (abs_sum + 4 m) = 2 d abs_sum, abs_sum 10, so d >= 0.01 / 20 = 5e-4.
  reference::Buffer b;
  b.dtype = core::DType::Float64;
  const std::vector<double> values = {1.0, -2.0, 3.0, -4.0};
  b.bytes.resize(values.size() * sizeof(double));
  std::memcpy(b.bytes.data(), values.data(), b.bytes.size());
  const reference::TensorView view{&b, 0, {4}, {1}};
  Fingerprint device;
  device.elements = 4;
  device.sum = -2.01;
  device.absSum = 10.0;
  device.samples = {Sample{0, 1.0}, Sample{1, -2.0}};
  const MeasuredDrift d = measureDrift(view, device);
  EXPECT_DOUBLE_EQ(d.scale, 2.5);
  EXPECT_NEAR(d.drift, 0.01 / 20.0, 1e-12);
  // A device sample of -2.035 where npusim has -2: 0.035 / (|-2.035| + 2.5)
  // = 7.7e-3, more than the sum implies: the larger one stands.
  device.samples[1].value = -2.035;
  EXPECT_NEAR(measureDrift(view, device).drift, 0.035 / 4.535, 1e-12);
}

} // namespace
} // namespace npusim::runtime
