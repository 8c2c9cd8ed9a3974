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
// so the DRAM time is 8,388,608 B / 481.28 GB/s = 17.43 us. The compiler runs
// such DRAM-bound kernels one instance at a time in tiles of up to 512 KiB, so
// reads and writes reach the DRAM in separate phases of 512 KiB (about 1.09 us
// each at the peak, against a round trip of about 50 ns and all-bank refreshes
// of 329 of every 3,666 DRAM cycles, 9 %). The transpose, permuted on chip, must
// stay within the issue's 1.3 x 17.43 = 22.66 us and cost no more than a
// contiguous copy of the same bytes (tests/data/kernels/
// triton_poi_fused_clone_copy_0.py); the copy, whose 512 KiB phases hit one
// DRAM bank per channel at a time, within 1.45 x 17.43 = 25.27 us. (Two
// instances in flight mixed each instance's loads with the other's stores:
// 1.76x for the transpose, 1.96x for the copy.)
TEST(TilingTiming, TransposeCostsWhatACopyCosts) {
  const double dramUs = 8388608.0 / 481.28e9 * 1e6;
  const auto [transposeUs, transposeRoofline] = timedLaunch("triton_poi_fused_clone_transpose_0.py");
  const auto [copyUs, copyRoofline] = timedLaunch("triton_poi_fused_clone_copy_0.py");
  EXPECT_NEAR(transposeRoofline, dramUs, 0.01);
  EXPECT_NEAR(copyRoofline, dramUs, 0.01);
  EXPECT_GE(transposeUs, dramUs); // never below the roofline
  EXPECT_GE(copyUs, dramUs);
  EXPECT_LE(transposeUs, 1.3 * dramUs);
  EXPECT_LE(copyUs, 1.45 * dramUs);
  EXPECT_LE(transposeUs, 1.05 * copyUs);
}

} // namespace
} // namespace npusim::runtime
