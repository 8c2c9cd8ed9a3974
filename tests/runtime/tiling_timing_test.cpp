// Cycles of kernels whose best program is known in closed form, through the
// built `npusim kernel --mode timing` (compiler search, functional trace,
// timing simulator) on tpuv3-like.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <regex>
#include <string>

namespace npusim::runtime {
namespace {

namespace fs = std::filesystem;

/// time_us and roofline_us of one timed launch of a kernel file.
std::pair<double, double> timedLaunch(const std::string &kernel) {
  const std::string command = std::string("'") + NPUSIM_BINARY + "' kernel '" +
                              (fs::path(NPUSIM_TEST_DATA) / "kernels" / kernel).string() +
                              "' --mode timing 2>&1";
  std::unique_ptr<FILE, int (*)(FILE *)> pipe(popen(command.c_str(), "r"), pclose);
  std::string out;
  char buffer[4096];
  while (pipe && fgets(buffer, sizeof buffer, pipe.get()))
    out += buffer;
  std::smatch m;
  if (!std::regex_search(out, m, std::regex(R"(time_us=([0-9.]+) roofline_us=([0-9.]+))"))) {
    ADD_FAILURE() << command << ":\n" << out;
    return {0.0, 0.0};
  }
  return {std::stod(m[1]), std::stod(m[2])};
}

// out[y, x] = in[x, y] for 1024 x 1024 fp32: 4 MiB read and 4 MiB written.
// tpuv3-like's DRAM: 16 channels x 64 B per 2 cycles at 940 MHz = 481.28 GB/s,
// so the DRAM time is 8,388,608 B / 481.28 GB/s = 17.43 us. In this DRAM model
// a contiguous copy of the same bytes (tests/data/kernels/
// triton_poi_fused_clone_copy_0.py) takes 1.8-1.9x that: read/write turnarounds
// and row misses. The transpose, permuted on chip, must cost no more than the
// copy and stay within 1.8x of the DRAM time (the old rule's YBLOCK=1024,
// XBLOCK=16 tiles took 9.7x).
TEST(TilingTiming, TransposeCostsWhatACopyCosts) {
  const double dramUs = 8388608.0 / 481.28e9 * 1e6;
  const auto [transposeUs, transposeRoofline] = timedLaunch("triton_poi_fused_clone_transpose_0.py");
  const auto [copyUs, copyRoofline] = timedLaunch("triton_poi_fused_clone_copy_0.py");
  EXPECT_NEAR(transposeRoofline, dramUs, 0.01);
  EXPECT_NEAR(copyRoofline, dramUs, 0.01);
  EXPECT_GE(transposeUs, dramUs); // never below the roofline
  EXPECT_LE(transposeUs, 1.8 * dramUs);
  EXPECT_LE(transposeUs, 1.05 * copyUs);
}

} // namespace
} // namespace npusim::runtime
