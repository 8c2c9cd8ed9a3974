// Verification of a real AdamW step (runtime/optimizer_bound.h):
// examples/bert-train-adamw, captured from torch.compile on a GPU, whose
// compiled optimizer is Inductor's: one kernel adds 1 to every step count, two
// foreach kernels (triton_for_fused_1, _2) each write the moments and value of
// many parameters, one block of the kernel per parameter. Its attention key
// biases have a gradient that is 0 in exact arithmetic (softmax ignores a
// shift of all of a query's scores), so their 2 x 64 first-step updates are
// decided by rounding. The bundle verifies with exactly those elements judged
// by the bound; copies of it whose AdamW kernel is deliberately wrong fail.
#include "runtime/optimizer_bound.h"

#include "core/npy.h"
#include "runtime/loader.h"
#include "runtime/runner.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

namespace npusim::runtime {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const char *kKernel = "triton_for_fused_1"; // writes the key biases of both layers

class RealAdamWTest : public ::testing::Test {
protected:
  void SetUp() override {
    source_ = fs::path(NPUSIM_SOURCE_DIR) / "examples" / "bert-train-adamw";
    dir_ = fs::temp_directory_path() /
           ("npusim_real_adamw_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::copy(source_, dir_, fs::copy_options::recursive);
    std::ifstream in(kernelPath());
    text_.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path kernelPath() const { return dir_ / "kernels" / (std::string(kKernel) + ".py"); }

  /// Replaces every `from` in the kernel's text by `to`; returns how many.
  int replace(const std::string &from, const std::string &to) {
    int n = 0;
    for (size_t at = text_.find(from); at != std::string::npos; at = text_.find(from, at + to.size())) {
      text_.replace(at, from.size(), to);
      ++n;
    }
    return n;
  }

  /// The kernel parameter through which the kernel stores into input `input`'s
  /// storage (Inductor passes a mutated tensor twice, as in_ptrK and out_ptrJ).
  std::string pointerWriting(const std::string &input) const {
    const Bundle bundle = loadBundle(source_);
    int64_t storage = -1;
    for (const Input &in : bundle.inputs)
      if (in.name == input)
        storage = in.tensor.storage;
    for (const Step &step : bundle.steps)
      if (step.name == kKernel)
        for (int64_t w : step.writes)
          if (step.args[static_cast<size_t>(w)].tensor.storage == storage &&
              text_.find("tl.store(" + step.argNames[static_cast<size_t>(w)] + " + (") != std::string::npos)
            return step.argNames[static_cast<size_t>(w)];
    return "";
  }

  /// The value the kernel stores through `pointer` ("tmp36" of
  /// "tl.store(out_ptr3 + (x0), tmp36, None)") and where that name starts.
  std::pair<std::string, size_t> storedValue(const std::string &pointer) const {
    const std::string store = "tl.store(" + pointer + " + (";
    const size_t at = text_.find(store);
    if (at == std::string::npos)
      return {"", at};
    const size_t begin = text_.find(", ", at + store.size()) + 2;
    return {text_.substr(begin, text_.find(',', begin) - begin), begin};
  }

  json graph() const {
    std::ifstream in(dir_ / "graph.json");
    return json::parse(in);
  }
  void write(const json &g) const { std::ofstream(dir_ / "graph.json", std::ios::trunc) << g.dump(); }

  static int64_t storageOf(const json &g, const std::string &input) {
    for (const json &in : g["inputs"])
      if (in["name"] == input)
        return in["tensor"]["storage"].get<int64_t>();
    return -1;
  }

  RunReport run() {
    std::ofstream(kernelPath(), std::ios::trunc) << text_;
    RunOptions o;
    o.verify = true;
    o.threads = 1;
    o.mode = Mode::Reference;
    return runBundle(loadBundle(dir_), o);
  }

  static std::map<std::string, int64_t> judged(const RunReport &r) {
    std::map<std::string, int64_t> out;
    for (const auto &p : r.optimizerBound.parameters)
      if (p.withinRounding > 0)
        out[p.name] = p.withinRounding;
    return out;
  }

  fs::path source_, dir_;
  std::string text_;
};

TEST_F(RealAdamWTest, TheCapturedStepVerifiesWithTheKeyBiasesJudgedByTheBound) {
  const RunReport r = run();
  ASSERT_TRUE(r.verified) << r.failure;
  ASSERT_EQ(r.optimizerBound.optimizer, "adamw");
  // Every element of both key biases and nothing else: the other gradients are
  // well determined, and the unused position embeddings' exact zeros are the
  // device's exact zeros (no rounding).
  const std::map<std::string, int64_t> expected = {{"encoder.layer.0.attention.self.key.bias", 64},
                                                   {"encoder.layer.1.attention.self.key.bias", 64}};
  EXPECT_EQ(judged(r), expected);
  EXPECT_TRUE(r.optimizerBound.notCovered.empty());
  for (const auto &p : r.optimizerBound.parameters)
    EXPECT_TRUE(p.measured) << p.name;
  EXPECT_EQ(r.optimizerBound.parameters.size(), 39u); // every parameter of the model
}

TEST_F(RealAdamWTest, DeliberatelyWrongAdamWKernelsFail) {
  struct Wrong {
    const char *what, *from, *to;
  };
  // Constants of Inductor's AdamW arithmetic (lr 0.01, betas 0.9 and 0.999): 1 - b1 of the
  // moment, b1 of its bias correction, 1 - b2, and 1 / lr of the update.
  for (const Wrong &w : {Wrong{"beta1 0.8 in the moment", "tl.full([1], 0.09999999999999998, tl.float32)",
                               "tl.full([1], 0.19999999999999996, tl.float32)"},
                         Wrong{"beta1 0.8 in the bias correction", "tl.full([1], 0.9, tl.float32)",
                               "tl.full([1], 0.8, tl.float32)"},
                         Wrong{"beta2 0.99", "tl.full([1], 0.0010000000000000009, tl.float32)",
                               "tl.full([1], 0.010000000000000009, tl.float32)"},
                         Wrong{"sign flip", "tl.full([1], 100.0, tl.float32)", "tl.full([1], -100.0, tl.float32)"}}) {
    SetUp();
    ASSERT_GT(replace(w.from, w.to), 0) << w.what;
    const RunReport r = run();
    EXPECT_FALSE(r.verified) << w.what;
    EXPECT_NE(r.failure.find(std::string("launch ") + kKernel), std::string::npos) << w.what << ": " << r.failure;
  }
}

TEST_F(RealAdamWTest, TheBoundCatchesAWrongValueOfAKeyBias) {
  // Only the block of one key bias is wrong: it stores the first moment (about 1e-12)
  // where the new parameter goes (about 0.1), beyond the decayed parameter +- lr B(1).
  // Every element of it is judged by the bound, so only the bound can catch this.
  const std::string name = "encoder.layer.0.attention.self.key.bias";
  const auto [parameter, at] = storedValue(pointerWriting(name));
  const std::string moment = storedValue(pointerWriting("optimizer." + name + ".exp_avg")).first;
  ASSERT_FALSE(parameter.empty());
  ASSERT_FALSE(moment.empty());
  ASSERT_NE(parameter, moment);
  text_.replace(at, parameter.size(), moment);
  const RunReport r = run();
  EXPECT_FALSE(r.verified);
  EXPECT_NE(r.failure.find(std::string("launch ") + kKernel), std::string::npos) << r.failure;
  // The key bias's fingerprint (through either of its two parameters) diverges.
  const Bundle bundle = loadBundle(source_);
  std::string viewed;
  for (const Input &in : bundle.inputs)
    if (in.name == name)
      for (const Step &step : bundle.steps)
        if (step.name == kKernel)
          for (size_t a = 0; a < step.args.size(); ++a)
            if (step.args[a].isTensor && step.args[a].tensor.storage == in.tensor.storage &&
                r.failure.find(": " + step.argNames[a] + " (args[" + std::to_string(a) + "]) diverges") !=
                    std::string::npos)
              viewed = step.argNames[a];
  EXPECT_FALSE(viewed.empty()) << r.failure;
}

TEST_F(RealAdamWTest, ExactZerosAreRoundingOnlyWhereTheDeviceDoesNotShareThem) {
  // The position embeddings of the 496 unused positions get no gradient term: exactly 0
  // here and on the device (the samples of the step's fingerprint there are 0 on both
  // sides), so none is judged (the first test). A device whose moment is not 0 at one
  // such sample shows that npusim's exact zeros may be rounding: all are judged.
  json g = graph();
  const int64_t storage = storageOf(g, "optimizer.embeddings.position_embeddings.weight.exp_avg");
  int changed = 0;
  for (json &step : g["steps"])
    for (json &f : step["fingerprints"])
      if (f.contains("arg") && step["args"][f["arg"].get<size_t>()]["tensor"]["storage"] == storage) {
        json &last = f["samples"].back();
        ASSERT_EQ(last[0], 32767);
        ASSERT_EQ(last[1], 0.0);
        last[1] = 1e-12;
        ++changed;
      }
  ASSERT_GT(changed, 0);
  write(g);
  const RunReport r = run();
  EXPECT_TRUE(r.verified) << r.failure;
  EXPECT_EQ(judged(r)["embeddings.position_embeddings.weight"], (512 - 16) * 64);
}

TEST_F(RealAdamWTest, AnOutputOfTheFirstMomentMeasuresItsRounding) {
  // Without the step's fingerprints of a key bias's exp_avg the rounding of its
  // moment is not measured: its elements keep the fixed tolerance and fail.
  const std::string name = "encoder.layer.0.attention.self.key.bias";
  json g = graph();
  const int64_t storage = storageOf(g, "optimizer." + name + ".exp_avg");
  json removed;
  for (json &step : g["steps"]) {
    json kept = json::array();
    for (json &f : step["fingerprints"]) {
      if (f.contains("arg") && step["args"][f["arg"].get<size_t>()]["tensor"]["storage"] == storage)
        removed = f;
      else
        kept.push_back(f);
    }
    step["fingerprints"] = kept;
  }
  ASSERT_FALSE(removed.is_null());
  write(g);
  RunReport r = run();
  EXPECT_FALSE(r.verified);
  EXPECT_NE(r.failure.find(std::string("launch ") + kKernel), std::string::npos) << r.failure;
  for (const auto &p : r.optimizerBound.parameters) {
    if (p.name == name) {
      EXPECT_FALSE(p.measured);
    }
  }
  // An output of that storage with the device's values (the 64 samples are all 64
  // elements) measures it: every element is judged and the step verifies.
  removed.erase("arg");
  core::NpyArray array;
  array.shape = {64};
  array.bytes.resize(64 * 4);
  for (const json &sample : removed["samples"]) {
    const float v = sample[1].get<float>();
    std::memcpy(array.bytes.data() + sample[0].get<size_t>() * 4, &v, 4);
  }
  const std::string file = "reference/updated.optimizer." + name + ".exp_avg.npy";
  core::writeNpy((dir_ / file).string(), array);
  json tensor;
  for (const json &in : g["inputs"])
    if (in["name"] == "optimizer." + name + ".exp_avg")
      tensor = in["tensor"];
  g["outputs"].push_back({{"name", "updated.optimizer." + name + ".exp_avg"},
                          {"tensor", tensor},
                          {"reference", file},
                          {"fingerprint", removed}});
  write(g);
  r = run();
  EXPECT_TRUE(r.verified) << r.failure;
  EXPECT_EQ(judged(r)[name], 64);
}

} // namespace
} // namespace npusim::runtime
