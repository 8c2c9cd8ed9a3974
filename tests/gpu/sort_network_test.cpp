// npusim's sorts against what Triton's sorts returned on a GPU
// (tests/data/gpu_sort/, written by tests/gpu/record_sort.py): tl.sort and
// Inductor's sort_with_index, stable and not, both directions, with padding,
// on keys with many ties, -0.0 and NaN. Every case runs through `npusim
// kernel` on the reference interpreter and on the NPU (tpuv3-like and
// edge-8lane); values must match bit for bit (any NaN matches any NaN),
// indices exactly.
#include "core/npy.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/wait.h>
#include <vector>

namespace npusim {
namespace {

namespace fs = std::filesystem;

const fs::path kFixture = fs::path(NPUSIM_TEST_DATA) / "gpu_sort";
const fs::path kKernels = fs::path(NPUSIM_TEST_DATA).parent_path() / "gpu" / "sort_kernels";

std::string quote(const std::string &s) {
  return "'" + s + "'";
}

/// The n-th element's bits (4 or 8 bytes), NaNs folded into one pattern.
uint64_t elementBits(const core::NpyArray &a, int64_t i) {
  if (a.dtype == core::DType::Float32) {
    float f;
    std::memcpy(&f, a.bytes.data() + i * 4, 4);
    if (std::isnan(f))
      return 0x7fc00000u;
    uint32_t b;
    std::memcpy(&b, &f, 4);
    return b;
  }
  uint64_t b = 0;
  std::memcpy(&b, a.bytes.data() + i * 8, 8);
  return b;
}

/// One test per place a sort runs ("reference", or "functional:" and a
/// machine), so that the three run side by side under ctest -j.
class GpuSortNetwork : public ::testing::TestWithParam<const char *> {};

TEST_P(GpuSortNetwork, EveryRecordedCaseMatchesTheGpu) {
  std::ifstream in(kFixture / "manifest.json");
  ASSERT_TRUE(in) << (kFixture / "manifest.json") << " is missing: run tests/gpu/record_sort.py on a GPU";
  const nlohmann::json manifest = nlohmann::json::parse(in);
  ASSERT_FALSE(manifest.at("cases").empty());
  const std::string m(GetParam());
  const fs::path out = fs::temp_directory_path() /
                       ("npusim-gpu-sort-" + std::to_string(::getpid()) + "-" + m.substr(m.find(':') + 1));
  size_t compared = 0;
  for (const nlohmann::json &c : manifest.at("cases")) {
    const std::string name = c.at("name");
    const int64_t elements =
        static_cast<int64_t>(c.at("constexprs").at("ROWS")) * c.at("constexprs").at("N").get<int64_t>();
    {
      const char *mode = GetParam();
      std::string command = quote(NPUSIM_BINARY) + " kernel " +
                            quote((kKernels / (c.at("kernel").get<std::string>() + ".py")).string()) +
                            " --grid 1";
      for (const auto &[key, value] : c.at("constexprs").items())
        command += " --const " + key + "=" + std::to_string(value.get<int64_t>());
      command += " --arg keys_ptr=" + quote((kFixture / c.at("keys").get<std::string>()).string());
      for (const auto &[arg, file] : c.at("outputs").items())
        command += " --size " + arg + "=" + std::to_string(elements);
      if (m != "reference")
        command += " --mode functional --config " + m.substr(m.find(':') + 1);
      command += " --out " + quote(out.string()) + " > /dev/null";
      const int status = std::system(command.c_str());
      ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << name << " (" << mode << "): " << command;
      for (const auto &[arg, file] : c.at("outputs").items()) {
        const core::NpyArray want = core::readNpy((kFixture / file.get<std::string>()).string());
        const core::NpyArray got = core::readNpy((out / (arg + ".npy")).string());
        ASSERT_EQ(got.numElements(), want.numElements()) << name << " " << arg;
        for (int64_t i = 0; i < want.numElements(); ++i)
          if (elementBits(got, i) != elementBits(want, i)) {
            ADD_FAILURE() << name << " (" << mode << ") " << arg << ": element " << i
                          << " differs from the GPU's";
            break;
          }
        ++compared;
      }
    }
  }
  std::error_code ec;
  fs::remove_all(out, ec);
  EXPECT_GT(compared, 0u);
}

INSTANTIATE_TEST_SUITE_P(OnTheReferenceAndTheNpu, GpuSortNetwork,
                         ::testing::Values("reference", "functional:tpuv3-like", "functional:edge-8lane"),
                         [](const ::testing::TestParamInfo<const char *> &param) {
                           std::string name(param.param);
                           for (char &c : name)
                             if (!std::isalnum(static_cast<unsigned char>(c)))
                               c = '_';
                           return name;
                         });

} // namespace
} // namespace npusim
