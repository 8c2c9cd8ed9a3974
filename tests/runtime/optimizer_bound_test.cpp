// Verification of an optimizer step (runtime/optimizer_bound.h): a hand-made
// training step with two parameters, a weight whose gradient is well
// determined and a bias whose gradient is rounding noise (zero in exact
// arithmetic) that the "device" computed with other signs. The device's values
// are AdamW's formula evaluated here in double on the device's gradients; the
// step's kernels are Triton kernels written here, correct or deliberately wrong.
#include "runtime/optimizer_bound.h"

#include "config/hardware.h"
#include "core/npy.h"
#include "reference/host_calls.h"
#include "runtime/generator.h"
#include "runtime/loader.h"
#include "runtime/runner.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace npusim::runtime {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr int kOptimizerN = 64; // every element is a fingerprint sample
constexpr uint64_t kOptimizerSeed = 5;
/// The bias gradient's size: noise, as a sum that cancels leaves it, well above
/// eps (1e-8), so that AdamW's first step moves the bias by about lr either way.
constexpr double kNoise = 1e-6;

double optimizerFp32(double v) {
  return static_cast<double>(static_cast<float>(v));
}

std::vector<double> generated(const InputInit &init) {
  reference::Buffer b;
  b.dtype = core::DType::Float32;
  b.bytes.resize(kOptimizerN * 4);
  fillInput(b, init, kOptimizerSeed);
  reference::TensorView v;
  v.buffer = &b;
  v.shape = {kOptimizerN};
  v.stride = {1};
  return reference::readValues(v);
}

InputInit uniform(double low, double high, uint64_t stream) {
  InputInit i;
  i.low = low;
  i.high = high;
  i.stream = stream;
  return i;
}

json tensor(int storage, int64_t n) {
  if (n == 1)
    return {{"storage", storage}, {"offset", 0}, {"shape", json::array()}, {"stride", json::array()}};
  return {{"storage", storage}, {"offset", 0}, {"shape", {n}}, {"stride", {1}}};
}

json fingerprint(const std::vector<double> &values, const char *key, int target) {
  double sum = 0.0, absSum = 0.0;
  json samples = json::array();
  for (size_t i = 0; i < values.size(); ++i) {
    sum += values[i];
    absSum += std::fabs(values[i]);
    samples.push_back({i, values[i]});
  }
  json f = {{"elements", values.size()}, {"sum", sum}, {"abs_sum", absSum}, {"nan", 0}, {"inf", 0},
            {"samples", samples}};
  if (key)
    f[key] = target;
  return f;
}

/// What one parameter's optimizer kernel computes. The defaults are AdamW's
/// first step as torch.optim.AdamW defines it, with the bundle's numbers.
struct Kernel {
  bool sgd = false;
  double lr = 0.01, beta1 = 0.9, beta2 = 0.999, eps = 1e-8, weightDecay = 0.01;
  double biasCorrectionBeta1 = 0.9; // a wrong one: beta1 differs in m and in 1 - beta1^t
  bool biasCorrection = true;
  double sign = 1.0; // -1: the update goes uphill
};

std::string literal(double v) {
  char text[40];
  std::snprintf(text, sizeof text, "%.17g", v);
  return text;
}

std::string kernelSource(const std::string &name, const Kernel &k) {
  std::string s = "import triton\nimport triton.language as tl\n"
                  "from torch._inductor.runtime.triton_helpers import libdevice\n\n\n@triton.jit\n"
                  "def " + name +
                  "(p_ptr: \"*fp32\", g_ptr: \"*fp32\", m_ptr: \"*fp32\", v_ptr: \"*fp32\", step_ptr: \"*fp32\",\n"
                  "        xnumel: \"i32\", XBLOCK: tl.constexpr):\n"
                  "    xindex = tl.program_id(0) * XBLOCK + tl.arange(0, XBLOCK)[:]\n"
                  "    xmask = xindex < xnumel\n"
                  "    p = tl.load(p_ptr + xindex, xmask)\n"
                  "    g = tl.load(g_ptr + xindex, xmask)\n";
  if (k.sgd)
    return s + "    b = tl.load(m_ptr + xindex, xmask)\n"
               "    b = " + literal(0.9) + " * b + g\n"
               "    tl.store(m_ptr + xindex, b, xmask)\n"
               "    tl.store(p_ptr + xindex, p - " + literal(k.lr) + " * b, xmask)\n";
  s += "    m = tl.load(m_ptr + xindex, xmask)\n"
       "    v = tl.load(v_ptr + xindex, xmask)\n"
       "    t = tl.load(step_ptr + tl.full([XBLOCK], 0, tl.int32), xmask)\n"
       "    m = " + literal(k.beta1) + " * m + " + literal(1.0 - k.beta1) + " * g\n"
       "    v = " + literal(k.beta2) + " * v + " + literal(1.0 - k.beta2) + " * (g * g)\n";
  if (k.biasCorrection)
    s += "    bc1 = 1.0 - libdevice.pow(tl.full([XBLOCK], " + literal(k.biasCorrectionBeta1) + ", tl.float32), t)\n"
         "    bc2 = 1.0 - libdevice.pow(tl.full([XBLOCK], " + literal(k.beta2) + ", tl.float32), t)\n";
  else
    s += "    bc1 = tl.full([XBLOCK], 1.0, tl.float32)\n    bc2 = tl.full([XBLOCK], 1.0, tl.float32)\n";
  s += "    denom = tl.sqrt_rn(v / bc2) + " + literal(k.eps) + "\n"
       "    p = p * " + literal(1.0 - k.lr * k.weightDecay) + " - " + literal(k.sign * k.lr) + " * ((m / bc1) / denom)\n"
       "    tl.store(p_ptr + xindex, p, xmask)\n"
       "    tl.store(m_ptr + xindex, m, xmask)\n"
       "    tl.store(v_ptr + xindex, v, xmask)\n";
  return s;
}

const char *kStepKernel = "import triton\nimport triton.language as tl\n\n\n@triton.jit\n"
                          "def step_count(in_out_ptr0: \"*fp32\", XBLOCK: tl.constexpr):\n"
                          "    xindex = tl.arange(0, XBLOCK)[:]\n"
                          "    xmask = xindex < 1\n"
                          "    t = tl.load(in_out_ptr0 + xindex, xmask)\n"
                          "    tl.store(in_out_ptr0 + xindex, t + 1.0, xmask)\n";

const char *kScaleKernel = "import triton\nimport triton.language as tl\n\n\n@triton.jit\n"
                           "def gradient(in_ptr0: \"*fp32\", out_ptr0: \"*fp32\", scale: \"fp32\", xnumel: \"i32\",\n"
                           "             XBLOCK: tl.constexpr):\n"
                           "    xindex = tl.program_id(0) * XBLOCK + tl.arange(0, XBLOCK)[:]\n"
                           "    xmask = xindex < xnumel\n"
                           "    tl.store(out_ptr0 + xindex, tl.load(in_ptr0 + xindex, xmask) * scale, xmask)\n";

/// The device's first step of one parameter, in double from its gradient, as
/// torch.optim defines it (SGD with momentum 0.9, or Adam/AdamW).
struct DeviceStep {
  std::vector<double> p, m, v;
};

DeviceStep deviceStep(const std::string &optimizer, const Kernel &described, const std::vector<double> &p0,
                      const std::vector<double> &g) {
  DeviceStep d;
  for (size_t i = 0; i < p0.size(); ++i) {
    if (optimizer == "sgd") {
      d.m.push_back(optimizerFp32(g[i]));
      d.p.push_back(optimizerFp32(p0[i] - described.lr * g[i]));
      continue;
    }
    const double b1 = described.beta1, b2 = described.beta2, t = 1.0;
    const double m = (1.0 - b1) * g[i], v = (1.0 - b2) * g[i] * g[i];
    const double mHat = m / (1.0 - std::pow(b1, t)), vHat = v / (1.0 - std::pow(b2, t));
    const double decayed = optimizer == "adamw" ? p0[i] * (1.0 - described.lr * described.weightDecay) : p0[i];
    d.p.push_back(optimizerFp32(decayed - described.lr * mHat / (std::sqrt(vHat) + described.eps)));
    d.m.push_back(optimizerFp32(m));
    d.v.push_back(optimizerFp32(v));
  }
  return d;
}

class OptimizerBoundTest : public ::testing::Test {
protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "npusim-optimizer-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  struct Case {
    std::string optimizer = "adamw"; // model.optimizer's name; "" for none
    Kernel described;                // the bundle's numbers, which the device used
    Kernel weightKernel, biasKernel; // what npusim runs
    double weightScale = 1.0;        // the weight gradient: generated values times this
    /// The device's weight gradient: npusim's times (1 + deviceDrift * r), r uniform in [-1, 1).
    double deviceDrift = 0.0;
  };

  /// The bundle of `c`: storages 0-1 gradient sources, 2-3 the weight w and the
  /// bias b, 4-6 and 7-9 their state (exp_avg, exp_avg_sq, step; SGD: the
  /// momentum buffer in 4 and 7), 10-11 the gradients. Steps: the two
  /// gradients (the bias's kNoise of generated values: noise, and the
  /// device's other noise), the step counts, the two updates.
  Bundle build(const Case &c) {
    const bool sgd = c.optimizer == "sgd";
    const InputInit wSource = uniform(-1.0, 1.0, 0), bSource = uniform(-1.0, 1.0, 1);
    const InputInit wInit = uniform(-0.5, 0.5, 2), bInit = uniform(-0.1, 0.1, 3);
    const std::vector<double> ws = generated(wSource), bs = generated(bSource);
    const std::vector<double> w0 = generated(wInit), b0 = generated(bInit);
    std::vector<double> gw, gb, gwDevice, gbDevice;
    const std::vector<double> r = generated(uniform(-1.0, 1.0, 99));
    for (int i = 0; i < kOptimizerN; ++i) {
      gw.push_back(optimizerFp32(ws[i] * optimizerFp32(c.weightScale)));
      gb.push_back(optimizerFp32(bs[i] * optimizerFp32(kNoise)));
      gwDevice.push_back(optimizerFp32(gw[i] * (1.0 + c.deviceDrift * r[i])));
      // Other rounding, other noise: the device's sums gave other values and signs.
      gbDevice.push_back(optimizerFp32(-kNoise * bs[(i + 7) % kOptimizerN]));
    }
    const DeviceStep w = deviceStep(c.optimizer, c.described, w0, gwDevice);
    const DeviceStep b = deviceStep(c.optimizer, c.described, b0, gbDevice);

    fs::create_directories(dir_ / "kernels");
    fs::create_directories(dir_ / "reference");
    std::ofstream(dir_ / "kernels" / "gradient.py") << kScaleKernel;
    std::ofstream(dir_ / "kernels" / "step_count.py") << kStepKernel;
    Kernel weightKernel = c.weightKernel, biasKernel = c.biasKernel;
    weightKernel.sgd = biasKernel.sgd = sgd;
    std::ofstream(dir_ / "kernels" / "update_w.py") << kernelSource("update_w", weightKernel);
    std::ofstream(dir_ / "kernels" / "update_b.py") << kernelSource("update_b", biasKernel);

    json storages = json::array();
    for (int s = 0; s < 12; ++s)
      storages.push_back({{"id", s}, {"dtype", "fp32"}, {"elements", s == 6 || s == 9 ? 1 : kOptimizerN}});
    const auto init = [](const InputInit &i) {
      return json{{"kind", "uniform"}, {"low", i.low}, {"high", i.high}, {"stream", i.stream}};
    };
    const json zero = {{"kind", "constant"}, {"value", 0}};
    json inputs = {{{"name", "w_source"}, {"tensor", tensor(0, kOptimizerN)}, {"init", init(wSource)}},
                   {{"name", "b_source"}, {"tensor", tensor(1, kOptimizerN)}, {"init", init(bSource)}},
                   {{"name", "w"}, {"tensor", tensor(2, kOptimizerN)}, {"init", init(wInit)}},
                   {{"name", "b"}, {"tensor", tensor(3, kOptimizerN)}, {"init", init(bInit)}}};
    for (const char *p : {"w", "b"}) {
      const int base = p[0] == 'w' ? 4 : 7;
      const std::string state = std::string("optimizer.") + p;
      if (sgd) {
        inputs.push_back({{"name", state + ".momentum_buffer"}, {"tensor", tensor(base, kOptimizerN)}, {"init", zero}});
        continue;
      }
      inputs.push_back({{"name", state + ".exp_avg"}, {"tensor", tensor(base, kOptimizerN)}, {"init", zero}});
      inputs.push_back({{"name", state + ".exp_avg_sq"}, {"tensor", tensor(base + 1, kOptimizerN)}, {"init", zero}});
      inputs.push_back({{"name", state + ".step"}, {"tensor", tensor(base + 2, 1)}, {"init", zero}});
    }
    const auto gradientStep = [&](int source, int out, double scale, const std::vector<double> &device) {
      return json{{"kind", "launch"},
                  {"kernel", "gradient"},
                  {"grid", {1, 1, 1}},
                  {"constexprs", {{"XBLOCK", kOptimizerN}}},
                  {"args", {{{"tensor", tensor(source, kOptimizerN)}}, {{"tensor", tensor(out, kOptimizerN)}}, {{"value", scale}},
                            {{"value", kOptimizerN}}}},
                  {"writes", {1}},
                  {"fingerprints", {fingerprint(device, "arg", 1)}}};
    };
    json steps = {gradientStep(0, 10, c.weightScale, gwDevice), gradientStep(1, 11, kNoise, gbDevice)};
    if (!sgd)
      for (int s : {6, 9})
        steps.push_back({{"kind", "launch"},
                         {"kernel", "step_count"},
                         {"grid", {1, 1, 1}},
                         {"constexprs", {{"XBLOCK", 1}}},
                         {"args", {{{"tensor", tensor(s, 1)}}}},
                         {"writes", {0}},
                         {"fingerprints", {fingerprint({1.0}, "arg", 0)}}});
    const auto update = [&](const char *kernel, int p, int base, int g, const DeviceStep &d) {
      json fingerprints = {fingerprint(d.p, "arg", 0), fingerprint(d.m, "arg", 2)};
      if (!sgd)
        fingerprints.push_back(fingerprint(d.v, "arg", 3));
      const int v = sgd ? base : base + 1, step = sgd ? base : base + 2;
      return json{{"kind", "launch"},
                  {"kernel", kernel},
                  {"grid", {1, 1, 1}},
                  {"constexprs", {{"XBLOCK", kOptimizerN}}},
                  {"args", {{{"tensor", tensor(p, kOptimizerN)}}, {{"tensor", tensor(g, kOptimizerN)}}, {{"tensor", tensor(base, kOptimizerN)}},
                            {{"tensor", tensor(v, kOptimizerN)}}, {{"tensor", tensor(step, sgd ? kOptimizerN : 1)}}, {{"value", kOptimizerN}}}},
                  {"writes", sgd ? json{0, 2} : json{0, 2, 3}},
                  {"fingerprints", fingerprints}};
    };
    steps.push_back(update("update_w", 2, 4, 10, w));
    steps.push_back(update("update_b", 3, 7, 11, b));
    json outputs = json::array();
    for (const auto &[name, storage, values] : {std::tuple{"updated.w", 2, w.p}, std::tuple{"updated.b", 3, b.p}}) {
      core::NpyArray array;
      array.shape = {kOptimizerN};
      std::vector<float> f(values.begin(), values.end());
      array.bytes.resize(f.size() * 4);
      std::memcpy(array.bytes.data(), f.data(), array.bytes.size());
      const std::string file = std::string("reference/") + name + ".npy";
      core::writeNpy((dir_ / file).string(), array);
      outputs.push_back({{"name", name}, {"tensor", tensor(storage, kOptimizerN)}, {"reference", file},
                         {"fingerprint", fingerprint(values, nullptr, 0)}});
    }
    json model = json::object();
    if (!c.optimizer.empty()) {
      model["optimizer"] = {{"name", c.optimizer}, {"lr", c.described.lr}};
      if (sgd)
        model["optimizer"]["momentum"] = 0.9;
      else
        model["optimizer"].update({{"betas", {c.described.beta1, c.described.beta2}},
                                   {"eps", c.described.eps},
                                   {"weight_decay", c.described.weightDecay}});
    }
    const json graph = {{"format", "npusim-bundle"}, {"version", 1}, {"model", model}, {"seed", kOptimizerSeed},
                        {"storages", storages}, {"inputs", inputs}, {"steps", steps}, {"outputs", outputs}};
    std::ofstream(dir_ / "graph.json") << graph.dump(1);
    return loadBundle(dir_);
  }

  RunReport run(const Case &c, Mode mode = Mode::Reference, const char *machine = "tpuv3-like") {
    const Bundle bundle = build(c);
    RunOptions o;
    o.verify = true;
    o.threads = 1;
    o.mode = mode;
    if (mode != Mode::Reference)
      o.machine = config::loadConfig(machine);
    return runBundle(bundle, o);
  }

  static const OptimizerBoundReport::Parameter *parameter(const RunReport &r, const std::string &name) {
    for (const auto &p : r.optimizerBound.parameters)
      if (p.name == name)
        return &p;
    return nullptr;
  }

  fs::path dir_;
};

TEST_F(OptimizerBoundTest, ACorrectAdamWWithANoiseGradientBiasVerifies) {
  const Case c;
  for (const auto &[mode, machine] : {std::pair{Mode::Reference, "tpuv3-like"},
                                      std::pair{Mode::Functional, "edge-8lane"}}) {
    const RunReport r = run(c, mode, machine);
    EXPECT_TRUE(r.verified) << r.failure;
    ASSERT_EQ(r.optimizerBound.optimizer, "adamw");
    // Every bias element's gradient is noise on both sides: all are judged by the bound,
    // no weight element is (its gradient is the same on both sides).
    EXPECT_EQ(r.optimizerBound.withinRounding(), kOptimizerN);
    EXPECT_EQ(r.optimizerBound.parametersWithinRounding(), 1);
    ASSERT_NE(parameter(r, "b"), nullptr);
    EXPECT_EQ(parameter(r, "b")->withinRounding, kOptimizerN);
    EXPECT_TRUE(parameter(r, "b")->measured);
    EXPECT_EQ(parameter(r, "w")->withinRounding, 0);
    EXPECT_EQ(r.optimizerBound.epsRegime(), 0);
    const json report = json::parse(reportJson(r, "adamw"));
    EXPECT_EQ(report["optimizer_bound"]["elements_within_rounding"], kOptimizerN);
    EXPECT_EQ(report["optimizer_bound"]["parameters_within_rounding"], 1);
  }
}

TEST_F(OptimizerBoundTest, WithoutTheOptimizersDescriptionTheNoiseFailsTheStep) {
  // The premise: the bias's updates go the ways their noise points, lr apart.
  Case c;
  c.optimizer = "";
  const RunReport r = run(c);
  EXPECT_FALSE(r.verified);
  EXPECT_NE(r.failure.find("launch update_b"), std::string::npos) << r.failure;
  EXPECT_TRUE(r.optimizerBound.optimizer.empty());
}

TEST_F(OptimizerBoundTest, DeliberatelyWrongAdamWStillFails) {
  struct Wrong {
    const char *what;
    Kernel kernel;
    const char *failsAt;
  };
  Kernel beta1, bc, noBc, sign, beta2;
  beta1.beta1 = beta1.biasCorrectionBeta1 = 0.8; // m wrong (its bias correction agrees)
  bc.biasCorrectionBeta1 = 0.8;                  // m right, m^ half of it
  noBc.biasCorrection = false;                   // updates of 3.16 lr
  sign.sign = -1.0;
  beta2.beta2 = 0.99;
  for (const Wrong &w : {Wrong{"beta1", beta1, "launch update_w"}, Wrong{"beta1 in 1 - beta1^t", bc, "launch update_w"},
                         Wrong{"no bias correction", noBc, "launch update_w"},
                         Wrong{"sign flip", sign, "launch update_w"}, Wrong{"beta2", beta2, "launch update_w"}}) {
    Case c;
    c.weightKernel = c.biasKernel = w.kernel;
    const RunReport r = run(c);
    EXPECT_FALSE(r.verified) << w.what;
    EXPECT_NE(r.failure.find(w.failsAt), std::string::npos) << w.what << ": " << r.failure;
  }
}

TEST_F(OptimizerBoundTest, TheBoundItselfCatchesAnUpdateLargerThanAdamAllows) {
  // Only the noise bias's kernel is wrong: without bias correction it moves each
  // element by lr * 0.1 / sqrt(0.001) = 3.16 lr, beyond the bound lr * B(1) = lr.
  Case c;
  c.biasKernel.biasCorrection = false;
  for (Mode mode : {Mode::Reference, Mode::Functional}) {
    const RunReport r = run(c, mode, "edge-8lane");
    EXPECT_FALSE(r.verified);
    EXPECT_NE(r.failure.find("launch update_b"), std::string::npos) << r.failure;
    EXPECT_NE(r.failure.find("p_ptr (args[0]) diverges"), std::string::npos) << r.failure;
  }
  // A wrong sign on noise is within the bound: which way noise moves is open.
  Case flipped;
  flipped.biasKernel.sign = -1.0;
  EXPECT_TRUE(run(flipped).verified);
}

TEST_F(OptimizerBoundTest, AdamWithoutWeightDecay) {
  Case c;
  c.optimizer = "adam";
  c.described.weightDecay = c.weightKernel.weightDecay = c.biasKernel.weightDecay = 0.0;
  RunReport r = run(c);
  EXPECT_TRUE(r.verified) << r.failure;
  EXPECT_EQ(r.optimizerBound.optimizer, "adam");
  EXPECT_EQ(r.optimizerBound.withinRounding(), kOptimizerN);
  c.weightKernel.sign = -1.0;
  r = run(c);
  EXPECT_FALSE(r.verified);
  EXPECT_NE(r.failure.find("launch update_w"), std::string::npos) << r.failure;
}

TEST_F(OptimizerBoundTest, SgdKeepsTheFixedTolerance) {
  // SGD's step is linear in the gradient: the bias's noise moves it by lr * 1e-6.
  Case c;
  c.optimizer = "sgd";
  RunReport r = run(c);
  EXPECT_TRUE(r.verified) << r.failure;
  EXPECT_TRUE(r.optimizerBound.optimizer.empty());
  c.weightKernel.lr = 0.011;
  r = run(c);
  EXPECT_FALSE(r.verified);
  EXPECT_NE(r.failure.find("launch update_w"), std::string::npos) << r.failure;
}

TEST_F(OptimizerBoundTest, AdamsEpsRegime) {
  // Weight gradients near eps, 3% apart on the device: the update x / (|x| + eps)
  // moves by up to lr * 0.03 / 4 between the two, beyond the fixed tolerance
  // for lr = 0.1.
  Case c;
  c.described.lr = c.weightKernel.lr = c.biasKernel.lr = 0.1;
  c.weightScale = 1e-8;
  c.deviceDrift = 0.03;
  RunReport r = run(c);
  EXPECT_TRUE(r.verified) << r.failure;
  ASSERT_NE(parameter(r, "w"), nullptr);
  EXPECT_GT(parameter(r, "w")->epsRegime, 0);
  EXPECT_LT(parameter(r, "w")->withinRounding, kOptimizerN / 2);
  EXPECT_EQ(r.optimizerBound.epsRegime(), parameter(r, "w")->epsRegime);
  // The premise: without the description the same run fails on the weight.
  Case plain = c;
  plain.optimizer = "";
  EXPECT_FALSE(run(plain).verified);
  // A wrong eps is beyond the allowance.
  c.weightKernel.eps = 1e-7;
  r = run(c);
  EXPECT_FALSE(r.verified);
  EXPECT_NE(r.failure.find("launch update_w"), std::string::npos) << r.failure;
}

TEST_F(OptimizerBoundTest, TheCommandLineNamesAndCountsTheJudgedElements) {
  build(Case{});
  const std::string out = (dir_ / "out.txt").string();
  const std::string command =
      std::string(NPUSIM_BINARY) + " run " + dir_.string() + " --mode reference --verify > " + out + " 2>&1";
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
  std::ifstream in(out);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("verification: passed ("), std::string::npos) << text;
  EXPECT_NE(text.find("; 64 elements of 1 parameters judged by the AdamW bound: gradient within rounding of zero)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  adamw bound: b: 64 of 64 elements within rounding of zero (0 1 2 "), std::string::npos)
      << text;
}

TEST(AdamUpdateBound, IsTheLargestNormalisedUpdateOfTSteps) {
  const double b1 = 0.9, b2 = 0.999;
  EXPECT_DOUBLE_EQ(adamUpdateBound(b1, b2, 1), 1.0);
  for (int64_t t : {1, 2, 5, 40}) {
    // Equality in Cauchy-Schwarz: g_i proportional to (b1 / b2)^(t - i).
    double m = 0.0, v = 0.0;
    for (int64_t i = 1; i <= t; ++i) {
      const double g = std::pow(b1 / b2, static_cast<double>(t - i));
      m = b1 * m + (1.0 - b1) * g;
      v = b2 * v + (1.0 - b2) * g * g;
    }
    const double td = static_cast<double>(t);
    const double ratio = (m / (1.0 - std::pow(b1, td))) / std::sqrt(v / (1.0 - std::pow(b2, td)));
    EXPECT_NEAR(adamUpdateBound(b1, b2, t), ratio, 1e-12 * ratio) << t;
    // Any other history stays below it.
    m = v = 0.0;
    for (int64_t i = 1; i <= t; ++i) {
      const double g = std::sin(static_cast<double>(i) * 1.7) + 0.3;
      m = b1 * m + (1.0 - b1) * g;
      v = b2 * v + (1.0 - b2) * g * g;
    }
    EXPECT_LE(std::fabs(m / (1.0 - std::pow(b1, td))) / std::sqrt(v / (1.0 - std::pow(b2, td))),
              adamUpdateBound(b1, b2, t) * (1.0 + 1e-12))
        << t;
  }
}

TEST(AdamFirstStepSpread, IsTheRangeOfTheUpdateOverTheRounding) {
  const double eps = 1e-8;
  const auto u = [&](double x) { return x / (std::fabs(x) + eps); };
  // |x| = 2 eps known to 10%: u from 1.8/2.8 to 2.2/3.2.
  EXPECT_NEAR(adamFirstStepSpread(2e-8, 2e-9, eps), u(2.2e-8) - u(1.8e-8), 1e-15);
  EXPECT_NEAR(adamFirstStepSpread(-2e-8, 2e-9, eps), u(2.2e-8) - u(1.8e-8), 1e-15);
  // Far from eps the update is its sign: no spread to speak of.
  // 2 * 1e-6 * eps / 1e-3^2 = 2e-8.
  EXPECT_NEAR(adamFirstStepSpread(1e-3, 1e-6, eps), u(1.001e-3) - u(0.999e-3), 1e-15);
  EXPECT_LT(adamFirstStepSpread(1e-3, 1e-6, eps), 2.1e-8);
  EXPECT_EQ(adamFirstStepSpread(1e-3, 0.0, eps), 0.0);
}

} // namespace
} // namespace npusim::runtime
