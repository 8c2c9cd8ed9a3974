// The reference interpreter against real Triton on a GPU: for every launch in
// tests/data/gpu_golden/manifest.json (the Inductor kernel corpus kernels that
// `npusim kernel FILE` runs with no flags), run the same launch with the npusim
// binary (same kernel, grid, constexprs, scalars, buffer sizes and generated
// inputs) and compare a fingerprint of every pointer buffer after the launch with
// the one recorded on an NVIDIA H200 with Triton (fingerprints.json, made by
// `python/tools/gpu_golden.py run`; the fingerprint is defined there).
//
// Integers and bools must match exactly. Floats: each of the 64 sampled values
// within 1e-4 + 1e-4*|gpu| (NaN matches NaN, an infinity the same infinity), equal
// NaN/+inf/-inf counts, and the sums of the finite values and of their magnitudes
// within 1e-4*(gpu abs-sum + 1) + 1e-3 (summation order differs: reductions, FMA
// contraction on the GPU). A manifest kernel without a GPU fingerprint fails.
#include "core/dtype.h"
#include "core/float16.h"
#include "core/npy.h"

#include <gtest/gtest.h>

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <sys/wait.h>
#include <utility>
#include <vector>

namespace npusim::cli {
namespace {

namespace fs = std::filesystem;

// ---------------------------------------------------------------- a small JSON reader

struct Json {
  enum class Kind { Null, Bool, Number, String, Array, Object };
  Kind kind = Kind::Null;
  bool boolean = false;
  double number = 0;
  bool integral = false; // a number written without '.', 'e' or 'E'
  int64_t integer = 0;   // when integral
  std::string text;      // a string's value, or a number as written
  std::vector<Json> items;
  std::vector<std::pair<std::string, Json>> members;

  const Json *find(const std::string &key) const {
    for (const auto &[k, v] : members)
      if (k == key)
        return &v;
    return nullptr;
  }
  const Json &at(const std::string &key) const {
    if (const Json *v = find(key))
      return *v;
    throw std::runtime_error("missing key '" + key + "'");
  }
  std::string str() const {
    if (kind != Kind::String)
      throw std::runtime_error("expected a string");
    return text;
  }
  int64_t i64() const {
    if (kind != Kind::Number || !integral)
      throw std::runtime_error("expected an integer, got '" + text + "'");
    return integer;
  }
  /// A float fingerprint value: a number, or "nan", "inf", "-inf".
  double f64() const {
    if (kind == Kind::Number)
      return number;
    if (kind == Kind::String) {
      if (text == "nan")
        return std::numeric_limits<double>::quiet_NaN();
      if (text == "inf")
        return std::numeric_limits<double>::infinity();
      if (text == "-inf")
        return -std::numeric_limits<double>::infinity();
    }
    throw std::runtime_error("expected a float");
  }
};

class JsonParser {
public:
  explicit JsonParser(std::string text) : s_(std::move(text)) {}

  Json parse() {
    Json v = value();
    skip();
    if (p_ != s_.size())
      fail("trailing characters");
    return v;
  }

private:
  [[noreturn]] void fail(const std::string &what) const {
    throw std::runtime_error("JSON: " + what + " at byte " + std::to_string(p_));
  }
  void skip() {
    while (p_ < s_.size() && (s_[p_] == ' ' || s_[p_] == '\n' || s_[p_] == '\r' || s_[p_] == '\t'))
      ++p_;
  }
  bool eat(char c) {
    skip();
    if (p_ < s_.size() && s_[p_] == c) {
      ++p_;
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!eat(c))
      fail(std::string("expected '") + c + "'");
  }
  bool word(const char *w) {
    const size_t n = std::strlen(w);
    if (s_.compare(p_, n, w) == 0) {
      p_ += n;
      return true;
    }
    return false;
  }

  Json value() {
    skip();
    if (p_ >= s_.size())
      fail("unexpected end");
    Json v;
    const char c = s_[p_];
    if (c == '{') {
      ++p_;
      v.kind = Json::Kind::Object;
      if (eat('}'))
        return v;
      do {
        skip();
        std::string key = string();
        expect(':');
        v.members.emplace_back(std::move(key), value());
      } while (eat(','));
      expect('}');
    } else if (c == '[') {
      ++p_;
      v.kind = Json::Kind::Array;
      if (eat(']'))
        return v;
      do
        v.items.push_back(value());
      while (eat(','));
      expect(']');
    } else if (c == '"') {
      v.kind = Json::Kind::String;
      v.text = string();
    } else if (word("true")) {
      v.kind = Json::Kind::Bool;
      v.boolean = true;
    } else if (word("false")) {
      v.kind = Json::Kind::Bool;
    } else if (word("null")) {
      v.kind = Json::Kind::Null;
    } else {
      const size_t start = p_;
      while (p_ < s_.size() && std::strchr("+-0123456789.eE", s_[p_]))
        ++p_;
      if (p_ == start)
        fail("unexpected character");
      v.kind = Json::Kind::Number;
      v.text = s_.substr(start, p_ - start);
      v.integral = v.text.find_first_of(".eE") == std::string::npos;
      char *end = nullptr;
      v.number = std::strtod(v.text.c_str(), &end);
      if (v.integral) {
        errno = 0;
        v.integer = std::strtoll(v.text.c_str(), &end, 10);
        if (errno)
          fail("integer out of range");
      }
    }
    return v;
  }

  std::string string() {
    if (p_ >= s_.size() || s_[p_] != '"')
      fail("expected a string");
    ++p_;
    std::string out;
    while (true) {
      if (p_ >= s_.size())
        fail("unterminated string");
      const char c = s_[p_++];
      if (c == '"')
        return out;
      if (c != '\\') {
        out += c;
        continue;
      }
      if (p_ >= s_.size())
        fail("unterminated escape");
      const char e = s_[p_++];
      switch (e) {
      case 'n': out += '\n'; break;
      case 't': out += '\t'; break;
      case 'r': out += '\r'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'u': {
        if (p_ + 4 > s_.size())
          fail("short \\u escape");
        const unsigned code = static_cast<unsigned>(std::stoul(s_.substr(p_, 4), nullptr, 16));
        p_ += 4;
        // Enough for messages: code points below U+0800 exactly, the rest as '?'.
        if (code < 0x80) {
          out += static_cast<char>(code);
        } else if (code < 0x800) {
          out += static_cast<char>(0xC0 | (code >> 6));
          out += static_cast<char>(0x80 | (code & 0x3F));
        } else {
          out += '?';
        }
        break;
      }
      default: out += e; break; // \" \\ \/
      }
    }
  }

  std::string s_;
  size_t p_ = 0;
};

Json readJson(const fs::path &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw std::runtime_error("cannot read " + path.string());
  std::ostringstream s;
  s << in.rdbuf();
  try {
    return JsonParser(s.str()).parse();
  } catch (const std::exception &e) {
    throw std::runtime_error(path.string() + ": " + e.what());
  }
}

// ---------------------------------------------------------------- fingerprints

struct DTypeInfo {
  const char *name;
  core::DType dtype;
};
constexpr DTypeInfo kDTypes[] = {
    {"bool", core::DType::Bool},       {"int8", core::DType::Int8},         {"int16", core::DType::Int16},
    {"int32", core::DType::Int32},     {"int64", core::DType::Int64},       {"uint8", core::DType::UInt8},
    {"uint16", core::DType::UInt16},   {"uint32", core::DType::UInt32},     {"uint64", core::DType::UInt64},
    {"float16", core::DType::Float16}, {"bfloat16", core::DType::BFloat16}, {"float32", core::DType::Float32},
    {"float64", core::DType::Float64},
};

core::DType dtypeNamed(const std::string &name) {
  for (const DTypeInfo &d : kDTypes)
    if (name == d.name)
      return d.dtype;
  throw std::runtime_error("unknown dtype '" + name + "'");
}

constexpr int kSamples = 64;

/// round(k*(n-1)/63) for k = 0..63, as gpu_golden.py's sample_positions.
std::vector<int64_t> samplePositions(int64_t n) {
  std::vector<int64_t> pos;
  if (n <= 0)
    return pos;
  for (int64_t k = 0; k < kSamples; ++k)
    pos.push_back((2 * k * (n - 1) + (kSamples - 1)) / (2 * (kSamples - 1)));
  return pos;
}

struct Fingerprint {
  int64_t n = 0;
  bool isFloat = false;
  int64_t nan = 0, posinf = 0, neginf = 0;
  double sum = 0, absSum = 0;         // floats: over the finite elements
  int64_t intSum = 0, intAbsSum = 0;  // integers and bools
  std::vector<double> floatSamples;
  std::vector<int64_t> intSamples;
};

template <typename T> T load(const uint8_t *p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

double floatAt(core::DType dtype, const uint8_t *p) {
  switch (dtype) {
  case core::DType::Float16: return core::halfToFloat(load<uint16_t>(p));
  case core::DType::BFloat16: return core::bfloat16ToFloat(load<uint16_t>(p));
  case core::DType::Float32: return load<float>(p);
  default: return load<double>(p);
  }
}

int64_t intAt(core::DType dtype, const uint8_t *p) {
  switch (dtype) {
  case core::DType::Bool: return *p != 0;
  case core::DType::Int8: return load<int8_t>(p);
  case core::DType::Int16: return load<int16_t>(p);
  case core::DType::Int32: return load<int32_t>(p);
  case core::DType::Int64: return load<int64_t>(p);
  case core::DType::UInt8: return load<uint8_t>(p);
  case core::DType::UInt16: return load<uint16_t>(p);
  case core::DType::UInt32: return load<uint32_t>(p);
  default: return static_cast<int64_t>(load<uint64_t>(p));
  }
}

Fingerprint fingerprintOf(const std::vector<uint8_t> &bytes, core::DType dtype) {
  Fingerprint fp;
  const int size = core::byteSize(dtype);
  fp.n = static_cast<int64_t>(bytes.size()) / size;
  fp.isFloat = core::isFloat(dtype);
  const std::vector<int64_t> pos = samplePositions(fp.n);
  if (fp.isFloat) {
    for (int64_t i = 0; i < fp.n; ++i) {
      const double v = floatAt(dtype, bytes.data() + i * size);
      if (std::isnan(v))
        ++fp.nan;
      else if (std::isinf(v))
        ++(v > 0 ? fp.posinf : fp.neginf);
      else {
        fp.sum += v;
        fp.absSum += std::fabs(v);
      }
    }
    for (int64_t i : pos)
      fp.floatSamples.push_back(floatAt(dtype, bytes.data() + i * size));
  } else {
    for (int64_t i = 0; i < fp.n; ++i) {
      const int64_t v = intAt(dtype, bytes.data() + i * size);
      fp.intSum += v;
      fp.intAbsSum += v < 0 ? -v : v;
    }
    for (int64_t i : pos)
      fp.intSamples.push_back(intAt(dtype, bytes.data() + i * size));
  }
  return fp;
}

std::string show(double v) {
  std::ostringstream s;
  s.precision(9);
  s << v;
  return s.str();
}

bool sampleMatches(double got, double want) {
  if (std::isnan(got) || std::isnan(want))
    return std::isnan(got) && std::isnan(want);
  if (std::isinf(got) || std::isinf(want))
    return got == want;
  return std::fabs(got - want) <= 1e-4 + 1e-4 * std::fabs(want);
}

/// Differences between npusim's fingerprint and the GPU's (a JSON object), one line each.
std::vector<std::string> compare(const Fingerprint &got, const Json &want) {
  std::vector<std::string> diffs;
  if (got.n != want.at("n").i64())
    return {"element count " + std::to_string(got.n) + " (npusim) vs " + std::to_string(want.at("n").i64()) +
            " (GPU)"};
  const Json &samples = want.at("samples");
  if (samples.items.size() != (got.isFloat ? got.floatSamples.size() : got.intSamples.size()))
    return {"sample count differs: " + std::to_string(samples.items.size()) + " on the GPU"};
  if (got.isFloat) {
    const std::pair<const char *, int64_t> counts[] = {{"nan", got.nan}, {"posinf", got.posinf}, {"neginf", got.neginf}};
    for (const auto &[key, value] : counts)
      if (value != want.at(key).i64())
        diffs.push_back(std::string(key) + " count " + std::to_string(value) + " (npusim) vs " +
                        std::to_string(want.at(key).i64()) + " (GPU)");
    const double wantAbs = want.at("abs_sum").f64();
    const double bound = 1e-4 * (wantAbs + 1) + 1e-3;
    const std::pair<const char *, double> sums[] = {{"sum", got.sum}, {"abs_sum", got.absSum}};
    for (const auto &[key, value] : sums) {
      const double w = want.at(key).f64();
      if (!(std::fabs(value - w) <= bound))
        diffs.push_back(std::string(key) + " " + show(value) + " (npusim) vs " + show(w) + " (GPU), bound " +
                        show(bound));
    }
    int bad = 0;
    for (size_t k = 0; k < got.floatSamples.size(); ++k) {
      const double w = samples.items[k].f64();
      if (!sampleMatches(got.floatSamples[k], w) && ++bad <= 4)
        diffs.push_back("sample k=" + std::to_string(k) + " " + show(got.floatSamples[k]) + " (npusim) vs " +
                        show(w) + " (GPU)");
    }
    if (bad > 4)
      diffs.push_back(std::to_string(bad) + " of " + std::to_string(got.floatSamples.size()) + " samples differ");
  } else {
    if (got.intSum != want.at("sum").i64())
      diffs.push_back("sum " + std::to_string(got.intSum) + " (npusim) vs " + std::to_string(want.at("sum").i64()) +
                      " (GPU)");
    if (got.intAbsSum != want.at("abs_sum").i64())
      diffs.push_back("abs_sum " + std::to_string(got.intAbsSum) + " (npusim) vs " +
                      std::to_string(want.at("abs_sum").i64()) + " (GPU)");
    int bad = 0;
    for (size_t k = 0; k < got.intSamples.size(); ++k) {
      const int64_t w = samples.items[k].i64();
      if (got.intSamples[k] != w && ++bad <= 4)
        diffs.push_back("sample k=" + std::to_string(k) + " " + std::to_string(got.intSamples[k]) + " (npusim) vs " +
                        std::to_string(w) + " (GPU)");
    }
    if (bad > 4)
      diffs.push_back(std::to_string(bad) + " of " + std::to_string(got.intSamples.size()) + " samples differ");
  }
  return diffs;
}

// ---------------------------------------------------------------- the cases

const fs::path kGolden = fs::path(NPUSIM_TEST_DATA) / "gpu_golden";
const fs::path kRepo = fs::path(NPUSIM_TEST_DATA).parent_path().parent_path();

struct Documents {
  Json manifest;
  Json fingerprints;
  std::string error; // loading failed
};

const Documents &documents() {
  static const Documents docs = [] {
    Documents d;
    try {
      d.manifest = readJson(kGolden / "manifest.json");
      d.fingerprints = readJson(kGolden / "fingerprints.json");
    } catch (const std::exception &e) {
      d.error = e.what();
    }
    return d;
  }();
  return docs;
}

struct GoldenCase {
  std::string id;       // the kernel file under tests/data/inductor_kernels, without .py
  std::string testName; // the id as a test name
  const Json *kernel = nullptr; // manifest entry
  const Json *gpu = nullptr;    // fingerprints entry, null when missing
  std::string error;
};

void PrintTo(const GoldenCase &c, std::ostream *os) { *os << c.id; }

std::vector<GoldenCase> cases() {
  const Documents &docs = documents();
  if (!docs.error.empty())
    return {GoldenCase{"", "load_error", nullptr, nullptr, docs.error}};
  std::vector<GoldenCase> out;
  std::map<std::string, int> names;
  try {
    const Json *gpuKernels = docs.fingerprints.find("kernels");
    for (const Json &k : docs.manifest.at("kernels").items) {
      GoldenCase c;
      c.id = k.at("id").str();
      c.kernel = &k;
      c.gpu = gpuKernels ? gpuKernels->find(c.id) : nullptr;
      for (char ch : c.id)
        c.testName += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
      if (int seen = names[c.testName]++)
        c.testName += "_" + std::to_string(seen);
      out.push_back(std::move(c));
    }
  } catch (const std::exception &e) {
    return {GoldenCase{"", "load_error", nullptr, nullptr, "manifest.json: " + std::string(e.what())}};
  }
  if (out.empty())
    return {GoldenCase{"", "load_error", nullptr, nullptr, "manifest.json lists no kernels"}};
  return out;
}

std::string quote(const std::string &s) {
  std::string q = "'";
  for (char c : s)
    q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string slurp(const fs::path &p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// A --const value as the command line takes it.
std::string constText(const Json &v) {
  if (v.kind == Json::Kind::Bool)
    return v.boolean ? "True" : "False";
  if (v.kind == Json::Kind::Null)
    return "None";
  if (v.kind == Json::Kind::Number)
    return v.text;
  throw std::runtime_error("unexpected constexpr value");
}

bool sameLaunch(const Json &a, const Json &b) {
  // grid: three integers; constexprs: the same names and values in the same order.
  const Json &ga = a.at("grid"), &gb = b.at("grid");
  if (ga.items.size() != gb.items.size())
    return false;
  for (size_t i = 0; i < ga.items.size(); ++i)
    if (ga.items[i].text != gb.items[i].text)
      return false;
  const Json &ca = a.at("constexprs"), &cb = b.at("constexprs");
  if (ca.members.size() != cb.members.size())
    return false;
  for (size_t i = 0; i < ca.members.size(); ++i)
    if (ca.members[i].first != cb.members[i].first || constText(ca.members[i].second) != constText(cb.members[i].second))
      return false;
  return true;
}

class GpuGoldenTest : public ::testing::TestWithParam<GoldenCase> {
protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "npusim-gpu-golden-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  fs::path dir_;
};

TEST_P(GpuGoldenTest, MatchesTriton) {
  const GoldenCase &c = GetParam();
  ASSERT_TRUE(c.error.empty()) << c.error;
  const Json &k = *c.kernel;
  ASSERT_NE(c.gpu, nullptr) << c.id << ": fingerprints.json has no entry for this manifest kernel; run "
                            << "`python3 python/tools/gpu_golden.py run tests/data/gpu_golden/manifest.json OUT.json` "
                            << "on a GPU machine";
  const Json &gpu = *c.gpu;
  if (const Json *error = gpu.find("error"))
    FAIL() << c.id << ": the launch failed on the GPU: " << error->str();
  ASSERT_TRUE(sameLaunch(k, gpu)) << c.id << ": manifest.json and fingerprints.json record different launches "
                                  << "(grid or constexprs); regenerate the fingerprints";

  // The same launch: grid, constexprs, scalars and buffer sizes as recorded.
  std::string command = quote(NPUSIM_BINARY) + " kernel " + quote((kRepo / k.at("file").str()).string()) +
                        " --out " + quote(dir_.string()) +
                        " --seed " + std::to_string(documents().manifest.at("seed").i64()) + " --grid ";
  const Json &grid = k.at("grid");
  for (size_t i = 0; i < grid.items.size(); ++i)
    command += (i ? "," : "") + std::to_string(grid.items[i].i64());
  for (const auto &[name, value] : k.at("constexprs").members)
    command += " --const " + quote(name + "=" + constText(value));
  for (const Json &p : k.at("params").items) {
    if (p.at("kind").str() == "scalar")
      command += " --arg " + quote(p.at("name").str() + "=" + p.at("value").text);
    else
      command += " --size " + quote(p.at("name").str() + "=" + std::to_string(p.at("n").i64()));
  }
  const fs::path log = dir_ / "log.txt";
  command += " > " + quote(log.string()) + " 2>&1";
  const int status = std::system(command.c_str());
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
      << c.id << ": npusim failed (status " << status << "):\n" << command << "\n" << slurp(log);

  const Json &buffers = gpu.at("buffers");
  size_t pointers = 0;
  for (const Json &p : k.at("params").items) {
    if (p.at("kind").str() != "pointer")
      continue;
    ++pointers;
    const std::string name = p.at("name").str();
    const core::DType dtype = dtypeNamed(p.at("dtype").str());
    const Json *want = buffers.find(name);
    if (!want) {
      ADD_FAILURE() << c.id << ": buffer " << name << ": no GPU fingerprint";
      continue;
    }
    const core::NpyArray array = core::readNpy((dir_ / (name + ".npy")).string());
    ASSERT_EQ(core::byteSize(array.dtype), core::byteSize(dtype)) << c.id << ": buffer " << name;
    EXPECT_EQ(want->at("dtype").str(), p.at("dtype").str()) << c.id << ": buffer " << name;
    const Fingerprint got = fingerprintOf(array.bytes, dtype);
    std::string report;
    for (const std::string &d : compare(got, *want))
      report += "\n  " + d;
    EXPECT_TRUE(report.empty()) << c.id << " (" << k.at("name").str() << "): buffer " << name << " ("
                                << p.at("dtype").str() << ", " << got.n << " elements) differs from Triton on the GPU:"
                                << report;
  }
  EXPECT_EQ(buffers.members.size(), pointers) << c.id << ": the GPU fingerprinted a different set of buffers";
}

INSTANTIATE_TEST_SUITE_P(Corpus, GpuGoldenTest, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<GoldenCase> &param) { return param.param.testName; });

} // namespace
} // namespace npusim::cli
