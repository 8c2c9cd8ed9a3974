// The npusim command line, run as a user runs it: the built binary on the small
// Inductor-style kernels in tests/data/cli, checking exit codes, messages and the
// .npy outputs against values computed here in plain C++.
#include "cli_fixture.h"
#include "core/dtype.h"
#include "core/float16.h"
#include "core/npy.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <vector>

namespace npusim::cli {
namespace {

namespace fs = std::filesystem;

const std::string kData = std::string(NPUSIM_TEST_DATA) + "/cli/";

class CliTest : public CommandTest {
protected:
  std::string writeFloats(const std::string &name, const std::vector<float> &values,
                          std::vector<int64_t> shape = {}) const {
    core::NpyArray a;
    a.dtype = core::DType::Float32;
    a.shape = shape.empty() ? std::vector<int64_t>{static_cast<int64_t>(values.size())} : shape;
    a.bytes.resize(values.size() * 4);
    std::memcpy(a.bytes.data(), values.data(), a.bytes.size());
    core::writeNpy(path(name), a);
    return path(name);
  }

  std::vector<float> readFloats(const std::string &relative) const {
    const core::NpyArray a = core::readNpy(path(relative));
    EXPECT_EQ(a.dtype, core::DType::Float32) << relative;
    EXPECT_EQ(a.shape.size(), 1u) << relative;
    std::vector<float> v(a.bytes.size() / 4);
    std::memcpy(v.data(), a.bytes.data(), a.bytes.size());
    return v;
  }
};

const std::string kAddMul = kData + "triton_poi_fused_add_mul_0.py";
const std::string kShift = kData + "triton_poi_fused_shift_0.py";
const std::string kSum = kData + "triton_per_fused_sum_0.py";
// The add-mul kernel as Inductor writes it for dynamic shapes: the body does not re-bind xnumel.
const std::string kAddMulDynamic = kData + "triton_poi_fused_add_mul_dynamic_0.py";
const std::string kClone = kData + "triton_poi_fused_clone_0.py";
const std::string kToCopy = kData + "triton_poi_fused__to_copy_add_0.py";
const std::string kTemplate = kData + "triton_tem_fused_scale_0.py";
const std::string kSyntaxError = kData + "syntax_error.py";

/// The generator as docs/cli.md states it, written out again here.
uint64_t splitmix64(uint64_t z) {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/// Element i of the generated float buffer of parameter p, for a float of `precision` bits.
double documentedFloat(uint64_t seed, uint64_t p, uint64_t i, int precision) {
  const uint64_t h = splitmix64(splitmix64(splitmix64(seed) + p) + i);
  return static_cast<double>(h >> (64 - precision)) * std::ldexp(1.0, 1 - precision) - 1.0;
}

// ---------------------------------------------------------------------------
// Dispatch, help, exit codes

TEST_F(CliTest, VersionAndHelp) {
  Result r = run({"--version"});
  EXPECT_EQ(r.exitCode, 0);
  EXPECT_EQ(r.out, "npusim 0.1.0\n");
  for (const std::vector<std::string> &args :
       std::vector<std::vector<std::string>>{{"--help"}, {"help"}, {"-h"}}) {
    r = run(args);
    EXPECT_EQ(r.exitCode, 0) << args[0];
    EXPECT_TRUE(contains(r.out, "usage: npusim COMMAND")) << r.out;
    EXPECT_TRUE(contains(r.out, "check-kernel FILE.py"));
    EXPECT_EQ(r.err, "");
  }
  for (std::string command : {"check-kernel", "kernel", "compile", "run", "presets", "compare", "sweep"}) {
    r = run({command, "--help"});
    EXPECT_EQ(r.exitCode, 0) << command;
    EXPECT_TRUE(contains(r.out, "usage: npusim " + command)) << r.out;
    Result viaHelp = run({"help", command});
    EXPECT_EQ(viaHelp.exitCode, 0);
    EXPECT_EQ(viaHelp.out, r.out);
  }
}

TEST_F(CliTest, UsageErrorsExitTwo) {
  Result r = run({});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_TRUE(contains(r.err, "usage: npusim COMMAND"));
  EXPECT_EQ(r.out, "");

  r = run({"frobnicate"});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_TRUE(contains(r.err, "npusim: error: unknown command 'frobnicate'")) << r.err;
  EXPECT_TRUE(contains(r.err, "usage: npusim COMMAND"));

  r = run({"--frobnicate"});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_TRUE(contains(r.err, "unknown option '--frobnicate'")) << r.err;

  r = run({"help", "frobnicate"});
  EXPECT_EQ(r.exitCode, 2);

  r = run({"check-kernel", kAddMul, "--bogus"});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_TRUE(
      contains(r.err, "npusim check-kernel: error: unknown option '--bogus' for 'npusim check-kernel'"))
      << r.err;
  EXPECT_TRUE(contains(r.err, "usage: npusim check-kernel"));

  r = run({"check-kernel"});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_TRUE(contains(r.err, "check-kernel needs a kernel file"));

  r = run({"check-kernel", kAddMul, "--const", "XBLOCK"});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_TRUE(contains(r.err, "--const expects NAME=VALUE, got 'XBLOCK'")) << r.err;

  r = run({"kernel", kAddMul, "--arg"});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_TRUE(contains(r.err, "option '--arg' needs a value")) << r.err;

  r = run({"kernel", kAddMul, "--grid", "0"});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_TRUE(contains(r.err, "--grid expects X[,Y[,Z]] with positive integers, got '0'")) << r.err;

  r = run({"kernel", kAddMul, "--grid", "1,2,3,4"});
  EXPECT_EQ(r.exitCode, 2);

  r = run({"kernel", kAddMul, "--seed", "-1"});
  EXPECT_EQ(r.exitCode, 2);

  r = run({"kernel", kAddMul, "--mode", "fast"});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_TRUE(contains(r.err, "--mode expects reference, functional, timing or full")) << r.err;

  r = run({"kernel", kAddMul, "--out", "a", "--out", "b"});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_TRUE(contains(r.err, "option '--out' is given more than once")) << r.err;
}

// The NPU modes against the reference interpreter: an independent execution of
// the same kernel (TileIR interpreted element by element) must give the values
// the compiled NPU program gives on the functional simulator.
TEST_F(CliTest, KernelOnTheNpuMatchesTheReference) {
  Result r = run({"kernel", kAddMul, "--arg", "xnumel=1000", "--out", "ref"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  for (std::string mode : {"functional", "full"}) {
    for (std::string config : {"tpuv3-like", "edge-8lane"}) {
      r = run(
          {"kernel", kAddMul, "--arg", "xnumel=1000", "--mode", mode, "--config", config, "--out", "npu"});
      ASSERT_EQ(r.exitCode, 0) << r.err;
      EXPECT_TRUE(contains(r.out, "mode=" + mode + " machine=" + config)) << r.out;
      EXPECT_EQ(contains(r.out, " cycles="), mode == "full") << r.out;
      for (const char *name : {"in_ptr0.npy", "in_ptr1.npy", "out_ptr0.npy"}) {
        const core::NpyArray want = core::readNpy(path("ref/" + std::string(name)));
        const core::NpyArray got = core::readNpy(path("npu/" + std::string(name)));
        EXPECT_EQ(got.bytes, want.bytes) << mode << " " << config << " " << name;
      }
    }
  }
  // Timing alone computes no values: it reports cycles and writes nothing.
  r = run({"kernel", kAddMul, "--arg", "xnumel=1000", "--mode", "timing", "--out", "timing-only"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(contains(r.out, " cycles=")) << r.out;
  EXPECT_FALSE(fs::exists(path("timing-only")));
}

TEST_F(CliTest, CompileDumpsTheNpuProgram) {
  Result r = run({"compile", kAddMul, "--dump"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "triton_poi_fused_add_mul_0 machine=tpuv3-like blocks=(XBLOCK=")) << r.out;
  EXPECT_TRUE(contains(r.out, "dma.load")) << r.out;
  EXPECT_TRUE(contains(r.out, "dma.store")) << r.out;
  // A pinned block size is kept.
  r = run({"compile", kAddMul, "--const", "XBLOCK=256", "--config", "edge-8lane"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "blocks=(XBLOCK=256)")) << r.out;
  r = run({"compile", kAddMul, "--config", "nowhere.yaml"});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_TRUE(contains(r.err, "nowhere.yaml")) << r.err;
}

// ---------------------------------------------------------------------------
// check-kernel

/// The line without its tileir_ops count (which belongs to the front end), and the count.
std::pair<std::string, int> splitOps(const std::string &line) {
  static const std::regex ops(" tileir_ops=([0-9]+)\n$");
  std::smatch m;
  if (!std::regex_search(line, m, ops))
    return {line, -1};
  return {line.substr(0, static_cast<size_t>(m.position(0))), std::stoi(m[1].str())};
}

TEST_F(CliTest, CheckKernelPrintsOneLine) {
  Result r = run({"check-kernel", kAddMul});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.err, "");
  auto [line, ops] = splitOps(r.out);
  EXPECT_EQ(
      line,
      "triton_poi_fused_add_mul_0 kind=pointwise args=(in_ptr0: *fp32, in_ptr1: *fp32, out_ptr0: *fp32, "
      "xnumel: i32) constexprs=(XBLOCK=1024) grid=Grid1D");
  EXPECT_GT(ops, 10);

  r = run({"check-kernel", kAddMul, "--const", "XBLOCK=128"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(contains(r.out, " constexprs=(XBLOCK=128) grid=Grid1D tileir_ops=")) << r.out;

  r = run({"check-kernel", kSum});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(
      splitOps(r.out).first,
      "triton_per_fused_sum_0 kind=persistent_reduction args=(in_ptr0: *fp32, out_ptr0: *fp32, xnumel: i32, "
      "r0_numel: i32) constexprs=(XBLOCK=8) grid=Grid1D");

  r = run({"check-kernel", kClone, "--const=XBLOCK=8"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(splitOps(r.out).first,
            "triton_poi_fused_clone_0 kind=pointwise args=(in_ptr0: *fp32, out_ptr0: *fp32, "
            "ynumel: i32, xnumel: i32) constexprs=(YBLOCK=16, XBLOCK=8) grid=Grid2D");

  r = run({"check-kernel", kToCopy});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "args=(in_ptr0: *bf16, out_ptr0: *fp32, out_ptr1: *bf16, xnumel: i32)"))
      << r.out;

  r = run({"check-kernel", kTemplate});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(splitOps(r.out).first, "triton_tem_fused_scale_0 kind=template args=(arg_X: *fp32, out_ptr0: "
                                   "*fp32) constexprs=() grid=FixedGrid");
}

TEST_F(CliTest, CheckKernelDumpsIr) {
  Result r = run({"check-kernel", kAddMul, "--dump-ir", "--const", "XBLOCK=64"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const size_t newline = r.out.find('\n');
  ASSERT_NE(newline, std::string::npos);
  const std::string ir = r.out.substr(newline + 1);
  EXPECT_EQ(ir.rfind("tile.func @triton_poi_fused_add_mul_0(", 0), 0u) << ir;
  EXPECT_TRUE(contains(ir, "arange 0, 64")) << ir;
  // One op per line, plus the func line and the closing brace.
  const auto lines = std::count(ir.begin(), ir.end(), '\n');
  EXPECT_GE(lines, splitOps(r.out.substr(0, newline + 1)).second);
}

TEST_F(CliTest, SyntaxErrorGivesFileLineCol) {
  // Line 27 of syntax_error.py is "    tmp4 = tmp2 + tmp3)": the ')' is column 23.
  Result r = run({"check-kernel", kSyntaxError});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err.rfind(kSyntaxError + ":27:23: error: ", 0), 0u) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1);

  // kernel reports compile errors the same way.
  r = run({"kernel", kSyntaxError, "--arg", "xnumel=1000"});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_EQ(r.err.rfind(kSyntaxError + ":27:23: error: ", 0), 0u) << r.err;
}

TEST_F(CliTest, CheckKernelInputErrorsExitOne) {
  Result r = run({"check-kernel", path("missing.py")});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_EQ(r.err, path("missing.py") + ": error: cannot read the file\n");

  r = run({"check-kernel", kAddMul, "--const", "YBLOCK=16"});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_EQ(r.err, kAddMul + ": error: --const YBLOCK: 'YBLOCK' is not a constexpr parameter of "
                             "'triton_poi_fused_add_mul_0' (its constexprs: XBLOCK)\n");
}

// ---------------------------------------------------------------------------
// kernel

TEST_F(CliTest, KernelComputesFromNpyInputs) {
  std::vector<float> x(1000), y(1000);
  for (int i = 0; i < 1000; ++i) {
    x[i] = static_cast<float>(i) * 0.37f - 100.0f;
    y[i] = 1.0f / static_cast<float>(i + 1);
  }
  writeFloats("x.npy", x);
  writeFloats("y.npy", y, {10, 100}); // any shape: read as its C-order elements
  Result r = run({"kernel", kAddMul, "--arg", "xnumel=1000", "--arg", "in_ptr0=x.npy", "--arg",
                  "in_ptr1=y.npy", "--const", "XBLOCK=128", "--out", "results/run1"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_TRUE(
      std::regex_match(r.out, std::regex("triton_poi_fused_add_mul_0 grid=\\(8, 1, 1\\) "
                                         "constexprs=\\(XBLOCK=128\\) programs=8 wall_ms=[0-9]+\\.[0-9]{3} "
                                         "out=results/run1\n")))
      << r.out;
  const std::vector<float> out = readFloats("results/run1/out_ptr0.npy");
  ASSERT_EQ(out.size(), 1000u);
  for (int i = 0; i < 1000; ++i)
    ASSERT_EQ(out[i], x[i] * 2.0f + y[i]) << "element " << i;
  // Inputs come back unchanged, 1-D.
  EXPECT_EQ(readFloats("results/run1/in_ptr0.npy"), x);
  EXPECT_EQ(readFloats("results/run1/in_ptr1.npy"), y);
}

TEST_F(CliTest, KernelGeneratesDeterministicInputs) {
  Result r = run({"kernel", kAddMul, "--arg", "xnumel=1000", "--seed", "3"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "grid=(1, 1, 1) constexprs=(XBLOCK=1024) programs=1 ")) << r.out;
  EXPECT_TRUE(contains(r.out, " out=npusim-out\n")) << r.out;
  const std::vector<float> a = readFloats("npusim-out/in_ptr0.npy");
  const std::vector<float> b = readFloats("npusim-out/in_ptr1.npy");
  const std::vector<float> out = readFloats("npusim-out/out_ptr0.npy");
  // The default size: the product of the numel arguments (xnumel = 1000).
  ASSERT_EQ(a.size(), 1000u);
  ASSERT_EQ(b.size(), 1000u);
  ASSERT_EQ(out.size(), 1000u);
  double sum = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    ASSERT_TRUE(a[i] >= -1.0f && a[i] < 1.0f) << a[i];
    ASSERT_TRUE(b[i] >= -1.0f && b[i] < 1.0f) << b[i];
    ASSERT_EQ(out[i], a[i] * 2.0f + b[i]);
    sum += a[i];
  }
  EXPECT_LT(std::fabs(sum / 1000.0), 0.1); // roughly uniform around 0
  EXPECT_NE(a, b);                         // each buffer has its own stream
  for (size_t i = 0; i < a.size(); ++i) {
    ASSERT_EQ(a[i], static_cast<float>(documentedFloat(3, 0, i, 24))) << i; // in_ptr0 is parameter 0
    ASSERT_EQ(b[i], static_cast<float>(documentedFloat(3, 1, i, 24))) << i; // in_ptr1 is parameter 1
  }

  // The same seed gives the same bytes; another seed other bytes.
  ASSERT_EQ(run({"kernel", kAddMul, "--arg", "xnumel=1000", "--seed", "3", "--out", "again"}).exitCode, 0);
  EXPECT_EQ(readFloats("again/in_ptr0.npy"), a);
  ASSERT_EQ(run({"kernel", kAddMul, "--arg", "xnumel=1000", "--seed", "4", "--out", "other"}).exitCode, 0);
  EXPECT_NE(readFloats("other/in_ptr0.npy"), a);

  // --size overrides the numel rule for one buffer.
  ASSERT_EQ(
      run({"kernel", kAddMul, "--arg", "xnumel=1000", "--size", "in_ptr1=1500", "--out", "sized"}).exitCode,
      0);
  EXPECT_EQ(readFloats("sized/in_ptr1.npy").size(), 1500u);
  EXPECT_EQ(readFloats("sized/in_ptr0.npy").size(), 1000u);
}

TEST_F(CliTest, KernelRunsAPersistentReduction) {
  // Generated input of xnumel * r0_numel = 512 elements; out[x] = sum of row x.
  Result r = run({"kernel", kSum, "--arg", "xnumel=8", "--arg", "r0_numel=64", "--const", "XBLOCK=2"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "grid=(4, 1, 1) constexprs=(XBLOCK=2) programs=4 ")) << r.out;
  const std::vector<float> in = readFloats("npusim-out/in_ptr0.npy");
  const std::vector<float> out = readFloats("npusim-out/out_ptr0.npy");
  ASSERT_EQ(in.size(), 512u);
  ASSERT_EQ(out.size(), 512u);
  for (int x = 0; x < 8; ++x) {
    double expected = 0;
    for (int k = 0; k < 64; ++k)
      expected += in[x * 64 + k];
    EXPECT_NEAR(out[x], expected, 1e-5) << "row " << x;
  }
}

TEST_F(CliTest, KernelRunsA2DTransposeOnAGrid2D) {
  // out[y * 32 + x] = in[y + 16 * x] for y < 16, x < 32.
  std::vector<float> in(512);
  for (int i = 0; i < 512; ++i)
    in[i] = static_cast<float>(i);
  writeFloats("t.npy", in, {32, 16});
  Result r = run({"kernel", kClone, "--arg", "ynumel=16", "--arg", "xnumel=32", "--arg", "in_ptr0=t.npy",
                  "--const", "XBLOCK=8", "--const", "YBLOCK=4"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "grid=(4, 4, 1) constexprs=(YBLOCK=4, XBLOCK=8) programs=16 ")) << r.out;
  const std::vector<float> out = readFloats("npusim-out/out_ptr0.npy");
  ASSERT_EQ(out.size(), 512u); // generated: ynumel * xnumel
  for (int y = 0; y < 16; ++y)
    for (int x = 0; x < 32; ++x)
      ASSERT_EQ(out[y * 32 + x], in[y + 16 * x]) << y << ", " << x;

  // An explicit grid overrides the rule: one column of programs covers x < 8 only.
  std::filesystem::remove_all(path("npusim-out"));
  r = run({"kernel", kClone, "--arg", "ynumel=16", "--arg", "xnumel=32", "--arg", "in_ptr0=t.npy", "--const",
           "XBLOCK=8", "--const", "YBLOCK=4", "--grid", "1,4", "--size", "out_ptr0=512"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "grid=(1, 4, 1)")) << r.out;
  const std::vector<float> partial = readFloats("npusim-out/out_ptr0.npy");
  EXPECT_EQ(partial[5 * 32 + 7], in[5 + 16 * 7]);
}

TEST_F(CliTest, KernelCarriesBf16AsSixteenBitIntegers) {
  // bf16 inputs arrive as <i2 or <u2 raw bits; the bf16 output leaves as <u2.
  const std::vector<float> values = {1.0f, -2.5f, 0.15625f, 3.0f, -0.0078125f};
  for (core::DType carrier : {core::DType::Int16, core::DType::UInt16}) {
    core::NpyArray bits;
    bits.dtype = carrier;
    bits.shape = {40};
    for (int i = 0; i < 40; ++i) {
      const uint16_t b = core::floatToBFloat16(values[i % values.size()]);
      bits.bytes.push_back(static_cast<uint8_t>(b & 0xff));
      bits.bytes.push_back(static_cast<uint8_t>(b >> 8));
    }
    core::writeNpy(path("b.npy"), bits);
    Result r = run({"kernel", kToCopy, "--arg", "xnumel=40", "--arg", "in_ptr0=b.npy"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const std::vector<float> plusOne = readFloats("npusim-out/out_ptr0.npy");
    const core::NpyArray twice = core::readNpy(path("npusim-out/out_ptr1.npy"));
    const core::NpyArray echoed = core::readNpy(path("npusim-out/in_ptr0.npy"));
    EXPECT_EQ(twice.dtype, core::DType::UInt16);
    EXPECT_EQ(echoed.dtype, core::DType::UInt16);
    EXPECT_EQ(echoed.bytes, bits.bytes);
    ASSERT_EQ(plusOne.size(), 40u);
    ASSERT_EQ(twice.bytes.size(), 80u);
    for (int i = 0; i < 40; ++i) {
      const float v = values[i % values.size()];
      EXPECT_EQ(plusOne[i], v + 1.0f) << i;
      const auto b = static_cast<uint16_t>(twice.bytes[2 * i] | (twice.bytes[2 * i + 1] << 8));
      EXPECT_EQ(core::bfloat16ToFloat(b), v * 2.0f) << i;
    }
  }
}

TEST_F(CliTest, KernelGeneratesBf16OnItsOwnGrid) {
  Result r = run({"kernel", kToCopy, "--arg", "xnumel=40"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const core::NpyArray in = core::readNpy(path("npusim-out/in_ptr0.npy"));
  ASSERT_EQ(in.dtype, core::DType::UInt16);
  ASSERT_EQ(in.bytes.size(), 80u);
  for (size_t i = 0; i < 40; ++i) {
    const auto bits = static_cast<uint16_t>(in.bytes[2 * i] | (in.bytes[2 * i + 1] << 8));
    EXPECT_EQ(core::bfloat16ToFloat(bits), documentedFloat(0, 0, i, 8)) << i;
  }
}

TEST_F(CliTest, KernelRefusesANpyOfAnotherElementSize) {
  core::NpyArray wide;
  wide.dtype = core::DType::Float64;
  wide.shape = {1000};
  wide.bytes.assign(8000, 0);
  core::writeNpy(path("x8.npy"), wide);
  Result r = run({"kernel", kAddMul, "--arg", "xnumel=1000", "--arg", "in_ptr0=x8.npy"});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_EQ(r.err, kAddMul +
                       ": error: --arg in_ptr0=x8.npy: the file holds <f8 (8-byte elements) but in_ptr0 is "
                       "*fp32 (4-byte elements); the element sizes must match\n");
  EXPECT_FALSE(fs::exists(path("npusim-out"))); // nothing is written after an error

  writeFloats("x4.npy", std::vector<float>(40, 1.0f));
  r = run({"kernel", kToCopy, "--arg", "xnumel=40", "--arg", "in_ptr0=x4.npy"});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_TRUE(contains(r.err,
                       "--arg in_ptr0=x4.npy: the file holds <f4 (4-byte elements) but in_ptr0 is *bf16 "
                       "(2-byte elements)"))
      << r.err;

  std::ofstream(path("bad.npy")) << "not numpy";
  r = run({"kernel", kAddMul, "--arg", "xnumel=1000", "--arg", "in_ptr1=bad.npy"});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_EQ(r.err, kAddMul + ": error: --arg in_ptr1: bad.npy: not a .npy file (bad magic string; expected "
                             "\\x93NUMPY)\n");
}

TEST_F(CliTest, KernelNamesMissingAndWrongArguments) {
  // A size the body re-binds to a literal needs no --arg: the literal is its default.
  Result r = run({"kernel", kAddMul});
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "grid=(1, 1, 1) constexprs=(XBLOCK=1024)")) << r.out; // size hint 1024
  r = run({"kernel", kSum});
  EXPECT_EQ(r.exitCode, 0) << r.err;

  r = run({"kernel", kAddMulDynamic});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_EQ(r.err,
            kAddMulDynamic +
                ": error: missing scalar argument xnumel of 'triton_poi_fused_add_mul_dynamic_0'; give "
                "it as --arg xnumel=VALUE\n");

  r = run({"kernel", kAddMul, "--arg", "xnumel=1000", "--arg", "ynumel=4"});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_TRUE(contains(r.err, "--arg ynumel: 'triton_poi_fused_add_mul_0' has no parameter 'ynumel'"))
      << r.err;

  r = run({"kernel", kAddMul, "--arg", "xnumel=ten"});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_TRUE(contains(r.err, "--arg xnumel=ten: 'ten' is not an integer (xnumel is i32)")) << r.err;

  r = run({"kernel", kAddMul, "--arg", "xnumel=4294967296"});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_TRUE(contains(r.err, "does not fit xnumel's type i32")) << r.err;

  r = run({"kernel", kAddMul, "--arg", "xnumel=1000", "--arg", "XBLOCK=64"});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_TRUE(contains(r.err, "'XBLOCK' is a constexpr; set it with --const XBLOCK=VALUE")) << r.err;

  r = run({"kernel", kAddMul, "--arg", "xnumel=1000", "--arg", "in_ptr0=3"});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_TRUE(contains(r.err, "in_ptr0 is a pointer (*fp32); give a .npy file")) << r.err;

  r = run({"kernel", kAddMul, "--arg", "xnumel=1000", "--size", "xnumel=4"});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_TRUE(contains(r.err, "--size xnumel: 'xnumel' is not a pointer parameter")) << r.err;
}

TEST_F(CliTest, KernelReportsOutOfBoundsAccess) {
  // triton_poi_fused_shift_0 loads in_ptr0[x + 8] for x < 256 from a 256-element buffer.
  Result r = run({"kernel", kShift, "--arg", "xnumel=256", "--const", "XBLOCK=64"});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err.rfind(kShift + ": error: ", 0), 0u) << r.err;
  EXPECT_TRUE(contains(r.err, "out-of-bounds")) << r.err;
  EXPECT_TRUE(contains(r.err, "in_ptr0")) << r.err;
  EXPECT_TRUE(contains(r.err, "triton_poi_fused_shift_0")) << r.err;
  EXPECT_FALSE(fs::exists(path("npusim-out")));

  // With 8 more elements the same launch is in bounds.
  r = run({"kernel", kShift, "--arg", "xnumel=256", "--size", "in_ptr0=264"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const std::vector<float> in = readFloats("npusim-out/in_ptr0.npy");
  const std::vector<float> out = readFloats("npusim-out/out_ptr0.npy");
  for (int i = 0; i < 256; ++i)
    ASSERT_EQ(out[i], in[i + 8]);
}

TEST_F(CliTest, FixedGridKernelsNeedAGrid) {
  Result r = run({"kernel", kTemplate});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_TRUE(contains(r.err, "cannot size pointer argument arg_X: 'triton_tem_fused_scale_0' has no numel "
                              "arguments; give --arg arg_X=FILE.npy or --size arg_X=ELEMENTS"))
      << r.err;

  r = run({"kernel", kTemplate, "--size", "arg_X=200", "--size", "out_ptr0=200"});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_EQ(r.err, kTemplate + ": error: kernel has grid type FixedGrid; give --grid\n");

  r = run({"kernel", kTemplate, "--size", "arg_X=200", "--size", "out_ptr0=200", "--grid", "4"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "triton_tem_fused_scale_0 grid=(4, 1, 1) constexprs=() programs=4 ")) << r.out;
  const std::vector<float> x = readFloats("npusim-out/arg_X.npy");
  const std::vector<float> out = readFloats("npusim-out/out_ptr0.npy");
  ASSERT_EQ(out.size(), 200u);
  for (int i = 0; i < 200; ++i)
    ASSERT_EQ(out[i], x[i] * 3.0f) << i;
}

// ---------------------------------------------------------------------------
// Reports, comparisons and sweeps (docs/reports.md, docs/sweeps.md)

const std::string kTinyBundle = std::string(NPUSIM_TEST_DATA) + "/bundles/tiny";

size_t occurrences(const std::string &text, const std::string &part) {
  size_t n = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + part.size()))
    ++n;
  return n;
}

TEST_F(CliTest, RunWritesHtmlPageAndPrintsCostliestSteps) {
  Result r = run({"run", kTinyBundle, "--mode", "timing", "--html", "page.html", "--report", "r.json"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const nlohmann::json report = nlohmann::json::parse(slurp(path("r.json")));
  const size_t steps = report["steps"].size();
  ASSERT_GT(steps, 0u);
  // The table of the costliest steps, at most 5 by default, each with its bound.
  EXPECT_TRUE(contains(r.out, "top " + std::to_string(std::min<size_t>(steps, 5)) + " steps by cycles:"))
      << r.out;
  EXPECT_TRUE(contains(r.out, report["steps"][0]["timing"]["bound"].get<std::string>())) << r.out;
  EXPECT_DOUBLE_EQ(report["machine_config"]["peak_flops_per_s"].get<double>(), 2.0 * 128 * 128 * 2 * 940e6);
  const std::string html = slurp(path("page.html"));
  // Roofline, utilisation, DRAM bandwidth, power over time.
  EXPECT_EQ(occurrences(html, "<svg class=\"chart\""), 4u);
  // The step table and its heading, the energy section's table of the 9 parts
  // and its heading, and its table of every step's energy and its heading.
  EXPECT_EQ(occurrences(html, "<tr>"), (steps + 1) + (9 + 1) + (steps + 1));
  EXPECT_FALSE(contains(r.err, "elapsed")) << r.err;        // stderr is a file: no progress line
  r = run({"run", kTinyBundle, "--mode", "reference", "--top", "2"});
  EXPECT_EQ(r.exitCode, 2);
}

TEST_F(CliTest, LanguageModelsReportEnergyPerTokenAndOthersDoNot) {
  // examples/mistral: input_ids [1, 32] drawn from [0, 512), logits [1, 32, 512]:
  // 1 x 32 = 32 tokens, and energy per token = total_nj / 1000 / 32.
  const std::string examples = std::string(NPUSIM_TEST_DATA) + "/../../examples/";
  Result r = run({"run", examples + "mistral", "--mode", "timing", "--report", "lm.json", "--html", "lm.html"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const nlohmann::json lm = nlohmann::json::parse(slurp(path("lm.json")))["energy"];
  EXPECT_EQ(lm["tokens"], 32);
  const double totalNj = lm["total_nj"].get<double>();
  ASSERT_GT(totalNj, 0.0);
  // total_nj is rounded to the picojoule: within 0.5 pJ / 32 of the unrounded quotient.
  EXPECT_NEAR(lm["energy_per_token_uj"].get<double>(), totalNj / 1000.0 / 32.0, 1e-6);
  EXPECT_FALSE(lm.contains("energy_per_token_absent"));
  EXPECT_TRUE(contains(r.out, " tokens=32 energy_per_token_uj=")) << r.out;
  EXPECT_TRUE(contains(slurp(path("lm.html")), "<dt>energy per token</dt>"));

  // examples/mlp has no token ids: no per-token field at all, not a zero.
  r = run({"run", examples + "mlp", "--mode", "timing", "--report", "mlp.json"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const nlohmann::json mlp = nlohmann::json::parse(slurp(path("mlp.json")))["energy"];
  EXPECT_GT(mlp["total_nj"].get<double>(), 0.0);
  for (const char *key : {"tokens", "energy_per_token_uj", "energy_per_token_absent"})
    EXPECT_FALSE(mlp.contains(key)) << key;
  EXPECT_FALSE(contains(r.out, "token")) << r.out;
}

TEST_F(CliTest, AllTimedFailsNamingEveryStepThatRanOnTheHost) {
  // The resident GEMM has no tiles for tiny's 25 x 40 x 16 addmm (step 1), so
  // asking for it sends that call to the host, where it takes no cycles.
  Result r = run({"run", kTinyBundle, "--mode", "timing", "--gemm-kernel", "resident"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "host_calls=1")) << r.out;
  EXPECT_TRUE(contains(r.out, "untimed: 1 step ran on the host and takes no cycles: step 1 aten.addmm;")) << r.out;
  r = run({"run", kTinyBundle, "--mode", "timing", "--gemm-kernel", "resident", "--all-timed"});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_TRUE(contains(r.err, "error: --all-timed: step 1 aten.addmm ran on the host")) << r.err;
  EXPECT_EQ(occurrences(r.err, "--all-timed: step"), 1u) << r.err;
  // Every step on the NPU: --all-timed passes.
  r = run({"run", kTinyBundle, "--mode", "timing", "--all-timed"});
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "host_calls=0")) << r.out;
}

TEST_F(CliTest, ProgressLineShowsOnATerminalUnlessQuiet) {
  // script(1) gives the command a terminal.
  const std::string command = quote(NPUSIM_BINARY) + " run " + quote(kTinyBundle) + " --mode timing";
  const auto onTerminal = [&](const std::string &c) {
    const std::string line =
        "cd " + quote(dir_.string()) + " && script -qec " + quote(c) + " /dev/null > tty.txt 2>&1";
    EXPECT_EQ(std::system(line.c_str()), 0);
    return slurp(dir_ / "tty.txt");
  };
  const std::string shown = onTerminal(command);
  EXPECT_TRUE(contains(shown, "[0/")) << shown;
  EXPECT_TRUE(contains(shown, "elapsed")) << shown;
  EXPECT_FALSE(contains(onTerminal(command + " --quiet"), "elapsed"));
}

TEST_F(CliTest, CompareSaysWhichMachineIsFaster) {
  ASSERT_EQ(run({"run", kTinyBundle, "--mode", "timing", "--report", "a.json"}).exitCode, 0);
  ASSERT_EQ(
      run({"run", kTinyBundle, "--mode", "timing", "--config", "edge-8lane", "--report", "b.json"}).exitCode,
      0);
  const double a = nlohmann::json::parse(slurp(path("a.json")))["totals"]["time_us"].get<double>();
  const double b = nlohmann::json::parse(slurp(path("b.json")))["totals"]["time_us"].get<double>();
  ASSERT_LT(a, b); // 128 lanes and HBM against 8 lanes and one DDR4 channel
  char expected[64];
  std::snprintf(expected, sizeof expected, "A is %.2fx faster than B", b / a);
  Result r = run({"compare", "a.json", "b.json", "--html", "c.html"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(contains(r.out, expected)) << r.out;
  EXPECT_TRUE(contains(r.out, "B: " + kTinyBundle + " on edge-8lane")) << r.out;
  EXPECT_TRUE(contains(slurp(path("c.html")), "<svg class=\"chart\""));
  r = run({"compare", "a.json", "nowhere.json"});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_TRUE(contains(r.err, "nowhere.json: cannot read the file")) << r.err;
}

/// results.csv without its wall_s column, which differs from run to run.
std::string withoutWallTime(const std::string &csv) {
  std::istringstream lines(csv);
  std::string line, out;
  int wallColumn = -1;
  while (std::getline(lines, line)) {
    std::vector<std::string> fields;
    std::stringstream cells(line);
    for (std::string f; std::getline(cells, f, ',');)
      fields.push_back(f);
    if (wallColumn < 0)
      wallColumn = static_cast<int>(std::find(fields.begin(), fields.end(), "wall_s") - fields.begin());
    for (size_t i = 0; i < fields.size(); ++i)
      if (static_cast<int>(i) != wallColumn)
        out += fields[i] + ",";
    out += "\n";
  }
  return out;
}

TEST_F(CliTest, SweepLocallyAndOnLocalClusterGiveTheSameResults) {
  const std::string sweep = std::string(NPUSIM_TEST_DATA) + "/sweeps/small.yaml";
  Result r = run({"sweep", sweep, "--out", "local", "--jobs", "2"});
  ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "4 tasks (4 machines x 1 bundles), 0 finished before, 4 to run")) << r.out;
  const std::string local = slurp(path("local/results.csv"));
  EXPECT_EQ(occurrences(local, ",ok,"), 4u) << local;
  // Resumed: nothing runs again.
  r = run({"sweep", sweep, "--out", "local"});
  EXPECT_TRUE(contains(r.out, "4 finished before, 0 to run")) << r.out;
  EXPECT_EQ(withoutWallTime(slurp(path("local/results.csv"))), withoutWallTime(local));
  r = run({"sweep", sweep, "--out", "dask", "--dask", "local", "--workers", "2"});
  ASSERT_EQ(r.exitCode, 0) << r.out << r.err << slurp(path("dask/dask.log"));
  EXPECT_EQ(withoutWallTime(slurp(path("dask/results.csv"))), withoutWallTime(local));
  const std::string html = slurp(path("dask/report.html"));
  // Two varied keys, three Pareto fronts (peak FLOP/s, scratchpad, energy),
  // one utilisation chart; 4 points each for the key charts and the fronts,
  // 5 units x 4 tasks for utilisation.
  EXPECT_EQ(occurrences(html, "<svg class=\"chart\""), 6u);
  EXPECT_EQ(occurrences(html, "<circle class=\"point\""), 5u * 4 + 5 * 4);
}

TEST_F(CliTest, SweepServesAnLlmScenarioAtEachRateOnEachMachine) {
  const std::string scenario = std::filesystem::weakly_canonical(std::string(NPUSIM_TEST_DATA) +
                                                                 "/../../examples/serving/llama-tiny.yaml")
                                   .string();
  const std::string sweep =
      writeText("llm-sweep.yaml", "scenarios: [" + scenario +
                                      "]\nrequests: {rate_per_s: [5000, 40000], count: 8}\n"
                                      "base: tpuv4-like\ngrid:\n  core_freq_mhz: [940, 1880]\n");
  Result r = run({"sweep", sweep, "--out", "local", "--jobs", "2"});
  ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "4 tasks (2 machines x 2 scenario runs), 0 finished before, 4 to run"))
      << r.out;
  const std::string local = slurp(path("local/results.csv"));
  // The CSV as rows of named cells.
  std::istringstream lines(local);
  std::string line;
  std::vector<std::vector<std::string>> rows;
  while (std::getline(lines, line)) {
    std::vector<std::string> cells;
    std::stringstream fields(line);
    for (std::string f; std::getline(fields, f, ',');)
      cells.push_back(f);
    if (line.back() == ',')
      cells.push_back("");
    rows.push_back(cells);
  }
  ASSERT_EQ(rows.size(), 5u) << local; // the header and 4 tasks
  const auto cell = [&rows](size_t row, const std::string &name) {
    const auto at = std::find(rows[0].begin(), rows[0].end(), name);
    const size_t i = static_cast<size_t>(at - rows[0].begin());
    return at != rows[0].end() && i < rows[row].size() ? rows[row][i] : "no column " + name;
  };
  size_t fastAndBusy = 0;
  for (size_t i = 1; i < rows.size(); ++i) {
    EXPECT_EQ(cell(i, "status"), "ok") << local;
    EXPECT_EQ(cell(i, "scenario"), scenario);
    EXPECT_EQ(cell(i, "count"), "8");
    EXPECT_EQ(cell(i, "requests_completed"), "8");
    EXPECT_GT(std::stod(cell(i, "tpot_p50_us")), 0.0) << local;
    EXPECT_EQ(cell(i, "cycles"), ""); // a bundle task's column
    if (cell(i, "core_freq_mhz") == "1880" && cell(i, "rate_per_s") == "40000")
      fastAndBusy = i;
  }
  ASSERT_NE(fastAndBusy, 0u) << local;
  // The same machine and rate served alone, the machine written here by hand.
  writeText("fast.yaml", "base: tpuv4-like\ncore_freq_mhz: 1880\n");
  r = run({"serve", scenario, "--config", "fast.yaml", "--rate-per-s", "40000", "--count", "8", "--report",
           "alone.json"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const nlohmann::json alone = nlohmann::json::parse(slurp(path("alone.json")));
  char text[64];
  std::snprintf(text, sizeof text, "%.3f", alone["tpot_us"]["p50"].get<double>());
  EXPECT_EQ(cell(fastAndBusy, "tpot_p50_us"), text);
  std::snprintf(text, sizeof text, "%.3f", alone["ttft_us"]["p99"].get<double>());
  EXPECT_EQ(cell(fastAndBusy, "ttft_p99_us"), text);
  std::snprintf(text, sizeof text, "%.1f", alone["tokens_per_s"].get<double>());
  EXPECT_EQ(cell(fastAndBusy, "tokens_per_s"), text);
  // TPOT p50, TPOT p99 and TTFT p99 against the rate: 2 machines x 2 rates each.
  const std::string html = slurp(path("local/report.html"));
  EXPECT_EQ(occurrences(html, "<svg class=\"chart\""), 3u);
  EXPECT_EQ(occurrences(html, "<circle class=\"point\""), 3u * 4);
  EXPECT_TRUE(contains(html, "TPOT p50 against arrival rate"));
  // Resumed: nothing runs again; on a local Dask cluster: the same results.
  r = run({"sweep", sweep, "--out", "local"});
  EXPECT_TRUE(contains(r.out, "4 finished before, 0 to run")) << r.out;
  r = run({"sweep", sweep, "--out", "dask", "--dask", "local", "--workers", "2"});
  ASSERT_EQ(r.exitCode, 0) << r.out << r.err << slurp(path("dask/dask.log"));
  EXPECT_EQ(withoutWallTime(slurp(path("dask/results.csv"))), withoutWallTime(local));
}

TEST_F(CliTest, ServeReplacesOnlyWhatAnLlmScenarioHas) {
  const std::string examples = std::string(NPUSIM_TEST_DATA) + "/../../examples/serving/";
  Result r = run({"serve", examples + "mlp-tiny.yaml", "--rate-per-s", "5"});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_TRUE(contains(r.err, "apply to an LLM scenario")) << r.err;
  EXPECT_EQ(run({"serve", examples + "llama-tiny.yaml", "--rate-per-s", "0"}).exitCode, 2);
  EXPECT_EQ(run({"serve", examples + "llama-tiny.yaml", "--count", "1.5"}).exitCode, 2);
  writeText("trace.csv", "arrival_us,prompt_tokens,output_tokens\n0,16,4\n");
  writeText("csv.yaml",
            "machine: tpuv4-like\nllm:\n  prefill: {bundle: " + std::string(NPUSIM_TEST_DATA) +
                "/bundles/llama_prefill, tokens: seq}\n  decode: {bundle: " + std::string(NPUSIM_TEST_DATA) +
                "/bundles/llama_decode, past: past}\nrequests: {arrival: csv, file: trace.csv}\n");
  r = run({"serve", "csv.yaml", "--count", "4"});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_TRUE(contains(r.err, "csv.yaml:5: --rate-per-s and --count replace the keys of Poisson arrivals"))
      << r.err;
}

TEST_F(CliTest, SweepRecordsAFailedTaskAndGoesOn) {
  Result r = run({"sweep", std::string(NPUSIM_TEST_DATA) + "/sweeps/invalid_point.yaml", "--out", "out"});
  EXPECT_EQ(r.exitCode, 1);
  const std::string csv = slurp(path("out/results.csv"));
  EXPECT_EQ(occurrences(csv, ",ok,"), 1u) << csv;
  EXPECT_EQ(occurrences(csv, ",failed,"), 1u) << csv;
  EXPECT_TRUE(contains(csv, "must be a power of two")) << csv;
  EXPECT_TRUE(contains(r.err, "failed")) << r.err;
  r = run(
      {"sweep", std::string(NPUSIM_TEST_DATA) + "/sweeps/invalid_point.yaml", "--out", "out", "--dry-run"});
  EXPECT_EQ(occurrences(r.out, " ok "), 1u) << r.out;
  EXPECT_EQ(occurrences(r.out, " failed "), 1u) << r.out;
  EXPECT_EQ(run({"sweep", "x.yaml"}).exitCode, 2); // no --out
}

TEST_F(CliTest, SweepTaskLostByTheClusterRunsAgainOnRerun) {
  // A stand-in for the Python of --dask that reports every task lost, as the
  // driver does when a task's workers keep dying.
  const std::string fake = path("fake-python");
  std::ofstream(fake) << "#!/bin/sh\n"
                         "while [ $# -gt 0 ]; do [ \"$1\" = --tasks ] && tasks=$2; shift; done\n"
                         "grep -o '\"key\": \"[0-9a-f]*\"' \"$tasks\" | cut -d'\"' -f4 |"
                         " while read k; do echo \"lost $k KilledWorker: worker died\"; done\n";
  fs::permissions(fake, fs::perms::owner_all);
  const std::string sweep = std::string(NPUSIM_TEST_DATA) + "/sweeps/small.yaml";
  Result r = run({"sweep", sweep, "--out", "out", "--dask", "tcp://nowhere:8786", "--python", fake});
  EXPECT_EQ(r.exitCode, 1) << r.out << r.err;
  EXPECT_EQ(occurrences(slurp(path("out/results.csv")), ",pending,"), 4u);
  EXPECT_EQ(occurrences(r.err, "has no result (the cluster lost it)"), 4u) << r.err;
  r = run({"sweep", sweep, "--out", "out"});
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "0 finished before, 4 to run")) << r.out;
}

} // namespace
} // namespace npusim::cli
