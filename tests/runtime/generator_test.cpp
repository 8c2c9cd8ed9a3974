// The bundle input generator (docs/bundle-format.md, "Inputs") on fixed vectors:
// SplitMix64's published outputs, values derived here with an independent
// implementation, and, when the Python side has committed
// python/tests/generator_vectors.json, every vector in it.
#include "core/dtype.h"
#include "core/float16.h"
#include "reference/host_calls.h"
#include "runtime/generator.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>

namespace npusim::runtime {
namespace {

/// An independent SplitMix64: the state advanced by the golden gamma, then
/// Stafford's "Mix13" finaliser, spelled as in Vigna's splitmix64.c.
uint64_t referenceNext(uint64_t &state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
uint64_t referenceMix(uint64_t z) {
  uint64_t state = z;
  return referenceNext(state);
}
uint64_t referenceH(uint64_t seed, uint64_t stream, uint64_t i) {
  return referenceMix(referenceMix(referenceMix(seed) + stream) + i);
}

TEST(Generator, SplitMix64MatchesThePublishedSequence) {
  // splitmix64.c seeded with 0 gives e220a8397b1dcdaf, 6e789e6aa1b965f4, 06c45d188009454f.
  uint64_t state = 0;
  const uint64_t published[] = {0xe220a8397b1dcdafULL, 0x6e789e6aa1b965f4ULL, 0x06c45d188009454fULL};
  for (uint64_t k = 0; k < 3; ++k) {
    EXPECT_EQ(referenceNext(state), published[k]);
    EXPECT_EQ(splitmix64(k * 0x9e3779b97f4a7c15ULL), published[k]) << k;
  }
}

TEST(Generator, BitsOfFixedVectors) {
  // Derived by hand from the formula (and checked with the reference above).
  struct Vector {
    uint64_t seed, stream, index, h;
  } const vectors[] = {
      {0, 0, 0, 0x238275bc38fcbe91ULL},
      {0, 0, 1, 0x421daf3033e887a3ULL},
      {7, 3, 5, 0xe8dd447cc79f0003ULL},
      {123456789, 2, 1000000, 0x10ce63829aad9a2fULL},
  };
  for (const Vector &v : vectors) {
    EXPECT_EQ(referenceH(v.seed, v.stream, v.index), v.h);
    EXPECT_EQ(generatorBits(v.seed, v.stream, v.index), v.h);
  }
  for (uint64_t i = 0; i < 1000; i += 37)
    EXPECT_EQ(generatorBits(42, 9, i), referenceH(42, 9, i));
}

reference::Buffer storage(core::DType dtype, int64_t n) {
  reference::Buffer b;
  b.dtype = dtype;
  b.bytes.assign(static_cast<size_t>(n * core::byteSize(dtype)), 0);
  return b;
}

TEST(Generator, UniformValuesRoundOnceToTheDtype) {
  InputInit init;
  init.kind = InitKind::Uniform;
  init.low = -0.25;
  init.high = 0.25;
  init.stream = 0;
  reference::Buffer f64 = storage(core::DType::Float64, 2), f32 = storage(core::DType::Float32, 2);
  fillInput(f64, init, 0);
  fillInput(f32, init, 0);
  // u = (h >> 11) * 2^-53 = 0.13870941014555427 for (0, 0, 0); value = -0.25 + 0.5 * u.
  EXPECT_EQ(reference::loadElement(f64, 0), -0.18064529492722287);
  EXPECT_EQ(reference::loadElement(f32, 0), static_cast<double>(-0.18064530193805695f));
  EXPECT_EQ(reference::loadElement(f64, 1), -0.12086727654063534);
  for (int64_t i = 0; i < 2; ++i) {
    const double u = std::ldexp(static_cast<double>(referenceH(0, 0, static_cast<uint64_t>(i)) >> 11), -53);
    EXPECT_EQ(reference::loadElement(f64, i), -0.25 + 0.5 * u);
  }
  // fp32 (written without storeElement): the double rounded once to float, element by element.
  reference::Buffer many = storage(core::DType::Float32, 4096);
  fillInput(many, init, 0);
  for (int64_t i = 0; i < 4096; ++i) {
    const double u = std::ldexp(static_cast<double>(referenceH(0, 0, static_cast<uint64_t>(i)) >> 11), -53);
    ASSERT_EQ(reference::loadElement(many, i), static_cast<double>(static_cast<float>(-0.25 + 0.5 * u))) << i;
  }
  // fp16 and bf16: nearest even of the double, one rounding.
  for (core::DType t : {core::DType::Float16, core::DType::BFloat16}) {
    reference::Buffer b = storage(t, 64);
    init.low = -3.0;
    init.high = 5.0;
    init.stream = 11;
    fillInput(b, init, 5);
    for (int64_t i = 0; i < 64; ++i) {
      const double v =
          -3.0 +
          8.0 * std::ldexp(static_cast<double>(referenceH(5, 11, static_cast<uint64_t>(i)) >> 11), -53);
      const double got = reference::loadElement(b, i);
      // The nearest representable value: no other value of the dtype is closer.
      const int precision = t == core::DType::Float16 ? 11 : 8;
      int e = 0;
      std::frexp(v, &e);
      const double ulp = std::ldexp(1.0, e - precision);
      EXPECT_LE(std::fabs(got - v), ulp / 2) << i;
    }
  }
}

TEST(Generator, RandintConstantAndBool) {
  InputInit init;
  init.kind = InitKind::Randint;
  init.intLow = -3;
  init.intHigh = 7;
  init.stream = 0;
  reference::Buffer i64 = storage(core::DType::Int64, 3);
  fillInput(i64, init, 0);
  // h(0, 0, 0) = 2558736989570252433: -3 + h % 10 = 0; h(0, 0, 1) % 10 = 9: 6.
  EXPECT_EQ(reference::loadIntegerElement(i64, 0), 0);
  EXPECT_EQ(reference::loadIntegerElement(i64, 1), 6);
  EXPECT_EQ(reference::loadIntegerElement(i64, 2), -3 + static_cast<int64_t>(referenceH(0, 0, 2) % 10));

  init.intLow = 0;
  init.intHigh = 2;
  reference::Buffer flags = storage(core::DType::Bool, 16);
  fillInput(flags, init, 3);
  for (int64_t i = 0; i < 16; ++i)
    EXPECT_EQ(reference::loadIntegerElement(flags, i),
              static_cast<int64_t>(referenceH(3, 0, static_cast<uint64_t>(i)) % 2));

  init.kind = InitKind::Constant;
  init.integerValue = 5;
  reference::Buffer n = storage(core::DType::Int64, 2);
  fillInput(n, init, 0);
  EXPECT_EQ(reference::loadIntegerElement(n, 1), 5);
  init.integerValue.reset();
  init.value = 0.1;
  reference::Buffer c = storage(core::DType::Float32, 2);
  fillInput(c, init, 0);
  EXPECT_EQ(reference::loadElement(c, 1), static_cast<double>(0.1f));
}

// ------------------------------------------------------- the Python side's vectors

/// A 64-bit value written as a "0x..." hex string or a JSON integer.
uint64_t u64(const nlohmann::json &j) {
  if (j.is_string()) {
    const std::string s = j.get<std::string>();
    const bool hex = s.rfind("0x", 0) == 0;
    return std::stoull(hex ? s.substr(2) : s, nullptr, hex ? 16 : 10);
  }
  return j.get<uint64_t>();
}

/// The raw little-endian bits of element 0.
uint64_t rawBits(const reference::Buffer &b) {
  uint64_t bits = 0;
  std::memcpy(&bits, b.bytes.data(), b.bytes.size());
  return bits;
}

// python/tests/generator_vectors.json (written by `python3 -m npusim.generator
// --vectors`): {"splitmix64": [{"z", "out"}], "h": [{"seed", "stream", "index", "h"}],
// "uniform": [{"seed", "stream", "index", "dtype", "low", "high", "value", "bits"}],
// "randint": [{"seed", "stream", "index", "dtype", "low", "high", "value"}]}; hex
// strings are 64-bit hashes or the raw bits of the value in its dtype.
TEST(Generator, PythonVectorsWhenPresent) {
  const std::filesystem::path file =
      std::filesystem::path(NPUSIM_SOURCE_DIR) / "python/tests/generator_vectors.json";
  if (!std::filesystem::exists(file)) {
    std::cout << "note: " << file << " is not there yet; only npusim's own vectors were checked\n";
    return;
  }
  std::ifstream in(file);
  const nlohmann::json doc = nlohmann::json::parse(in);
  int checked = 0;
  for (const nlohmann::json &v : doc.value("splitmix64", nlohmann::json::array())) {
    EXPECT_EQ(splitmix64(u64(v.at("z"))), u64(v.at("out"))) << v.dump();
    ++checked;
  }
  for (const nlohmann::json &v : doc.value("h", nlohmann::json::array())) {
    EXPECT_EQ(generatorBits(u64(v.at("seed")), u64(v.at("stream")), u64(v.at("index"))), u64(v.at("h")))
        << v.dump();
    ++checked;
  }
  for (const char *kind : {"uniform", "randint"})
    for (const nlohmann::json &v : doc.value(kind, nlohmann::json::array())) {
      const std::optional<core::DType> dtype = core::parseDType(v.at("dtype").get<std::string>());
      ASSERT_TRUE(dtype.has_value()) << v.dump();
      // Through fillInput, over a storage that ends at the vector's element.
      InputInit init;
      init.stream = u64(v.at("stream"));
      const uint64_t seed = u64(v.at("seed")), index = u64(v.at("index"));
      reference::Buffer one = storage(*dtype, 1);
      const uint64_t h = generatorBits(seed, init.stream, index);
      if (std::string(kind) == "uniform") {
        init.kind = InitKind::Uniform;
        init.low = v.at("low").get<double>();
        init.high = v.at("high").get<double>();
        reference::storeElement(one, 0, uniformValue(h, init.low, init.high));
        EXPECT_EQ(rawBits(one), u64(v.at("bits"))) << v.dump();
        EXPECT_EQ(reference::loadElement(one, 0), v.at("value").get<double>()) << v.dump();
      } else {
        init.kind = InitKind::Randint;
        init.intLow = v.at("low").get<int64_t>();
        init.intHigh = v.at("high").get<int64_t>();
        reference::storeIntegerElement(one, 0, randintValue(h, init.intLow, init.intHigh));
        EXPECT_EQ(reference::loadIntegerElement(one, 0), v.at("value").get<int64_t>()) << v.dump();
      }
      if (index < 64) { // and the whole-storage path agrees
        reference::Buffer whole = storage(*dtype, static_cast<int64_t>(index) + 1);
        fillInput(whole, init, seed);
        EXPECT_EQ(std::memcmp(whole.bytes.data() + index * static_cast<uint64_t>(core::byteSize(*dtype)),
                              one.bytes.data(), one.bytes.size()),
                  0)
            << v.dump();
      }
      ++checked;
    }
  EXPECT_GT(checked, 0) << file << ": no vectors";
  std::cout << "checked " << checked << " vectors from " << file << "\n";
}

} // namespace
} // namespace npusim::runtime
