// Derived bounds of library calls (runtime/call_bounds.h): a LayerNorm of
// constant rows, whose "device" values are an fp32 one-pass LayerNorm computed
// here, and a softmax of equal logits.
#include "runtime/call_bounds.h"

#include "runtime/generator.h"
#include "runtime/loader.h"
#include "runtime/runner.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace npusim::runtime {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr int kBoundsRows = 2, kBoundsN = 64;
constexpr double kEps = 1e-5;
constexpr float kValue = 3.3f; // every input element: constant rows

json boundsTensor(int storage, std::vector<int64_t> shape) {
  std::vector<int64_t> stride(shape.size(), 1);
  for (size_t d = shape.size(); d-- > 1;)
    stride[d - 1] = stride[d] * shape[d];
  return {{"storage", storage}, {"offset", 0}, {"shape", shape}, {"stride", stride}};
}

json fingerprint(const std::vector<double> &values) {
  double sum = 0.0, absSum = 0.0;
  json samples = json::array();
  for (size_t k = 0; k < 64; ++k) {
    const size_t i = static_cast<size_t>(std::nearbyint(static_cast<double>(k) * (values.size() - 1) / 63.0));
    if (samples.empty() || samples.back()[0] != i)
      samples.push_back({i, values[i]});
  }
  for (double v : values) {
    sum += v;
    absSum += std::fabs(v);
  }
  return {{"out", 0}, {"elements", values.size()}, {"sum", sum}, {"abs_sum", absSum}, {"nan", 0}, {"inf", 0},
          {"samples", samples}};
}

class CallBoundsTest : public ::testing::Test {
protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "npusim-callbounds-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  /// One call on storage 0 ([kBoundsRows, n], every element `value`, or uniform [-1, 1) when
  /// value is NaN), with the device's out[0] `device`.
  RunReport run(const std::string &op, int64_t n, double value, const std::vector<double> &device) {
    const json init = std::isnan(value) ? json{{"kind", "uniform"}, {"low", -1.0}, {"high", 1.0}, {"stream", 0}}
                                        : json{{"kind", "constant"}, {"value", value}};
    json storages = {{{"id", 0}, {"dtype", "fp32"}, {"elements", kBoundsRows * n}},
                     {{"id", 1}, {"dtype", "fp32"}, {"elements", kBoundsRows * n}},
                     {{"id", 2}, {"dtype", "fp32"}, {"elements", kBoundsRows}},
                     {{"id", 3}, {"dtype", "fp32"}, {"elements", kBoundsRows}}};
    json step = {{"kind", "call"}, {"op", op}};
    if (op == "aten.native_layer_norm") {
      step["args"] = {{{"tensor", boundsTensor(0, {kBoundsRows, n})}}, {n}, nullptr, nullptr, kEps};
      step["out"] = {{{"tensor", boundsTensor(1, {kBoundsRows, n})}}, {{"tensor", boundsTensor(2, {kBoundsRows, 1})}},
                     {{"tensor", boundsTensor(3, {kBoundsRows, 1})}}};
    } else {
      step["args"] = {{{"tensor", boundsTensor(0, {kBoundsRows, n})}}, 1, false};
      step["out"] = {{{"tensor", boundsTensor(1, {kBoundsRows, n})}}};
    }
    step["fingerprints"] = {fingerprint(device)};
    const json graph = {{"format", "npusim-bundle"},
                        {"version", 1},
                        {"seed", 3},
                        {"storages", storages},
                        {"inputs", {{{"name", "x"}, {"tensor", boundsTensor(0, {kBoundsRows, n})}, {"init", init}}}},
                        {"steps", {step}},
                        {"outputs", json::array()}};
    std::ofstream(dir_ / "graph.json") << graph.dump(1);
    RunOptions o;
    o.verify = true;
    o.threads = 1;
    return runBundle(loadBundle(dir_), o);
  }

  fs::path dir_;
};

/// The device's LayerNorm of a row of kBoundsN copies of kValue in fp32: a running sum for
/// the mean, the mean of squared deviations, 1 / sqrt.
std::vector<double> deviceLayerNorm(double shift) {
  float sum = 0.0f;
  for (int i = 0; i < kBoundsN; ++i)
    sum += kValue;
  const float mean = sum / static_cast<float>(kBoundsN);
  const float a = kValue - mean;
  float var = 0.0f;
  for (int i = 0; i < kBoundsN; ++i)
    var += a * a;
  var /= static_cast<float>(kBoundsN);
  const float r = 1.0f / std::sqrt(var + static_cast<float>(kEps));
  return std::vector<double>(kBoundsRows * kBoundsN, static_cast<double>(a * r) + shift);
}

TEST_F(CallBoundsTest, LayerNormOfAConstantRowVerifiesWithinItsBound) {
  const std::vector<double> device = deviceLayerNorm(0.0);
  // The premise: the device's centred values are rounding, npusim's (double sums) 0,
  // and divided by sqrt(eps) they differ beyond the fixed tolerance.
  ASSERT_GT(std::fabs(device[0]), 5e-4);
  const RunReport r = run("aten.native_layer_norm", kBoundsN, kValue, device);
  EXPECT_TRUE(r.verified) << r.failure;
  ASSERT_EQ(r.derivedBounds.size(), 1u);
  EXPECT_EQ(r.derivedBounds[0].what, "LayerNorm");
  EXPECT_EQ(r.derivedBounds[0].rows, kBoundsRows);
  EXPECT_EQ(r.derivedBounds[0].constantRows, kBoundsRows);
  EXPECT_EQ(r.derivedBounds[0].samplesWithinAllowance, 64);
  const json report = json::parse(reportJson(r, "ln"));
  EXPECT_EQ(report["derived_bounds"][0]["constant_rows"], kBoundsRows);
}

TEST_F(CallBoundsTest, LayerNormBeyondItsBoundFails) {
  // The bound of a constant row: gamma_65 * 3.3 / sqrt(1e-5) = 4.0e-3 (weight 1).
  const double bound = sumRounding(kBoundsN + 1, std::ldexp(1.0, -24)) * kValue / std::sqrt(kEps);
  EXPECT_NEAR(bound, 4.0e-3, 1e-4);
  EXPECT_FALSE(run("aten.native_layer_norm", kBoundsN, kValue, deviceLayerNorm(0.01)).verified);
  // Well-spread rows keep the fixed tolerance: LayerNorm of generated rows, in double
  // here, verifies as it is and fails 3e-4 off.
  reference::Buffer b;
  b.dtype = core::DType::Float32;
  b.bytes.resize(kBoundsRows * kBoundsN * 4);
  InputInit init;
  init.low = -1.0;
  init.high = 1.0;
  fillInput(b, init, 3);
  reference::TensorView v;
  v.buffer = &b;
  v.shape = {kBoundsRows * kBoundsN};
  v.stride = {1};
  const std::vector<double> x = reference::readValues(v);
  std::vector<double> y(x.size());
  for (int row = 0; row < kBoundsRows; ++row) {
    double mean = 0.0, var = 0.0;
    for (int i = 0; i < kBoundsN; ++i)
      mean += x[static_cast<size_t>(row * kBoundsN + i)] / kBoundsN;
    for (int i = 0; i < kBoundsN; ++i)
      var += std::pow(x[static_cast<size_t>(row * kBoundsN + i)] - mean, 2) / kBoundsN;
    for (int i = 0; i < kBoundsN; ++i)
      y[static_cast<size_t>(row * kBoundsN + i)] = (x[static_cast<size_t>(row * kBoundsN + i)] - mean) / std::sqrt(var + kEps);
  }
  RunReport r = run("aten.native_layer_norm", kBoundsN, std::nan(""), y);
  EXPECT_TRUE(r.verified) << r.failure;
  EXPECT_TRUE(r.derivedBounds.empty());
  for (double &e : y)
    e += 3e-4;
  r = run("aten.native_layer_norm", kBoundsN, std::nan(""), y);
  EXPECT_FALSE(r.verified);
}

TEST_F(CallBoundsTest, SoftmaxOfEqualLogitsKeepsTheFixedTolerance) {
  // Equal logits: every p = 1 / n, and the bound (gamma_n + 4u) / n is far inside the
  // fixed tolerance; a wrong normalisation (1 / (n + 1)) fails.
  const int64_t n = 64;
  RunReport r = run("aten._softmax", n, 1.7, std::vector<double>(kBoundsRows * n, 1.0 / n));
  EXPECT_TRUE(r.verified) << r.failure;
  EXPECT_TRUE(r.derivedBounds.empty());
  r = run("aten._softmax", n, 1.7, std::vector<double>(kBoundsRows * n, 1.0 / (n + 1)));
  EXPECT_FALSE(r.verified);
  const double u = std::ldexp(1.0, -24);
  EXPECT_LT((n * u / (1 - n * u) + 4 * u) / n, 1e-7);
}

TEST(SumRounding, IsGammaN) {
  EXPECT_DOUBLE_EQ(sumRounding(10, 0.01), 0.1 / 0.9);
  EXPECT_TRUE(std::isinf(sumRounding(100, 0.01)));
}

} // namespace
} // namespace npusim::runtime
