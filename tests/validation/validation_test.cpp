// The validation suite file, the error arithmetic and the PNG plot.
#include "validation/validation.h"

#include "core/error.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

namespace npusim::validation {
namespace {

namespace fs = std::filesystem;

/// A suite file in a fresh temporary directory.
std::string writeSuite(const std::string &name, const std::string &text) {
  const fs::path dir = fs::temp_directory_path() / ("npusim-validation-test-" + name);
  fs::create_directories(dir);
  const fs::path file = dir / "suite.yaml";
  std::ofstream(file) << text;
  return file.string();
}

std::string errorOf(const std::string &path) {
  try {
    loadSuite(path);
  } catch (const core::InputError &e) {
    return e.what();
  }
  return "";
}

const char *const kHeader = "title: t\nmachine: tpuv3-like\nsource: a measurement\nmax_mae_percent: 10\n";

TEST(Suite, ReadsWorkloadsAndResolvesBundlesAgainstItsDirectory) {
  const std::string path = writeSuite("good", std::string(kHeader) +
                                                  "workloads:\n"
                                                  "  - {name: a, bundle: b1, silicon_cycles: 100}\n"
                                                  "  - name: c\n    bundle: sub/b2\n    silicon_cycles: 2500\n");
  const Suite suite = loadSuite(fs::path(path).parent_path().string()); // the directory finds suite.yaml
  ASSERT_EQ(suite.workloads.size(), 2u);
  EXPECT_EQ(suite.workloads[0].name, "a");
  EXPECT_EQ(suite.workloads[0].siliconCycles, 100);
  EXPECT_EQ(suite.workloads[0].line, 6);
  EXPECT_EQ(suite.workloads[1].bundle, (fs::path(path).parent_path() / "sub" / "b2").string());
  EXPECT_EQ(suite.workloads[1].line, 7);
  EXPECT_DOUBLE_EQ(suite.maxMaePercent, 10.0);
  EXPECT_EQ(suite.machine, "tpuv3-like");
}

// The bad entry on different lines: the error names that line.
TEST(Suite, ErrorsNameTheLineOfTheBadValue) {
  for (int padding = 0; padding < 3; ++padding) {
    std::string text = kHeader;
    text += "workloads:\n";
    for (int i = 0; i < padding; ++i)
      text += "  - {name: w" + std::to_string(i) + ", bundle: b, silicon_cycles: 5}\n";
    text += "  - {name: bad, bundle: b, silicon_cycles: -3}\n";
    const int line = 6 + padding;
    const std::string message = errorOf(writeSuite("line" + std::to_string(padding), text));
    EXPECT_NE(message.find("suite.yaml:" + std::to_string(line) + ":"), std::string::npos) << message;
    EXPECT_NE(message.find("silicon_cycles"), std::string::npos) << message;
  }
}

TEST(Suite, RefusesWhatItCannotTrust) {
  EXPECT_NE(errorOf(writeSuite("unknown", std::string(kHeader) +
                                              "workloads:\n  - {name: a, bundle: b, silicon_cycles: 1, x: 2}\n"))
                .find(":6: unknown key 'x'"),
            std::string::npos);
  EXPECT_NE(errorOf(writeSuite("nosource", "machine: m\nmax_mae_percent: 5\nworkloads:\n"
                                           "  - {name: a, bundle: b, silicon_cycles: 1}\n"))
                .find("no 'source'"),
            std::string::npos);
  EXPECT_NE(errorOf(writeSuite("twodocs", std::string(kHeader) +
                                              "workloads:\n  - {name: a, bundle: b, silicon_cycles: 1}\n---\nx: 1\n"))
                .find("suite.yaml:7: a second YAML document"),
            std::string::npos);
  // Text on which yaml-cpp's YAML::LoadAll never ends (config/yaml_input.h).
  EXPECT_NE(errorOf(writeSuite("comma", ",")).find("suite.yaml:1: malformed YAML"), std::string::npos);
  EXPECT_NE(errorOf(writeSuite("fraction", std::string(kHeader) +
                                               "workloads:\n  - {name: a, bundle: b, silicon_cycles: 1.5}\n"))
                .find("whole number"),
            std::string::npos);
  EXPECT_NE(errorOf(writeSuite("nocycles", std::string(kHeader) + "workloads:\n  - {name: a, bundle: b}\n"))
                .find("needs 'silicon_cycles'"),
            std::string::npos);
  EXPECT_NE(errorOf("/nonexistent/suite.yaml").find("cannot read"), std::string::npos);
}

Row row(const char *name, int64_t silicon, int64_t cycles, bool ran = true) {
  Row r;
  r.workload.name = name;
  r.workload.siliconCycles = silicon;
  r.ran = ran;
  r.cycles = cycles;
  r.errorPercent = ran ? 100.0 * static_cast<double>(cycles - silicon) / static_cast<double>(silicon) : 0.0;
  if (!ran)
    r.failure = "it broke";
  return r;
}

// Errors +10%, -30% and +5% (1100/1000, 700/1000, 2100/2000): MAE (10 + 30 +
// 5) / 3 = 15%, the largest 30%; the failed row counts as failed, not as 0%.
TEST(Result, MeanAbsoluteErrorOverTheRowsThatRan) {
  Result result;
  result.suite.maxMaePercent = 15.0;
  result.rows = {row("a", 1000, 1100), row("b", 1000, 700), row("c", 2000, 2100)};
  summarise(result);
  EXPECT_NEAR(result.maePercent, 15.0, 1e-12);
  EXPECT_NEAR(result.maxAbsErrorPercent, 30.0, 1e-12);
  EXPECT_TRUE(result.withinLimit());
  result.suite.maxMaePercent = 14.9;
  EXPECT_FALSE(result.withinLimit());

  result.suite.maxMaePercent = 50.0;
  result.rows.push_back(row("d", 10, 0, false));
  summarise(result);
  EXPECT_EQ(result.ran, 3);
  EXPECT_EQ(result.failed, 1);
  EXPECT_NEAR(result.maePercent, 15.0, 1e-12);
  EXPECT_FALSE(result.withinLimit()) << "a failed workload fails the check";
  const std::string text = table(result);
  EXPECT_NE(text.find("MAE 15.0% over 3 of 4 workloads (largest 30.0%"), std::string::npos) << text;
  EXPECT_NE(text.find("d ("), std::string::npos) << "the failure is named: " << text;
}

uint32_t be32(const std::string &s, size_t at) {
  return (static_cast<uint32_t>(static_cast<uint8_t>(s[at])) << 24) |
         (static_cast<uint32_t>(static_cast<uint8_t>(s[at + 1])) << 16) |
         (static_cast<uint32_t>(static_cast<uint8_t>(s[at + 2])) << 8) | static_cast<uint8_t>(s[at + 3]);
}

// The PNG read back: signature, IHDR, the inflated scanlines, a pixel of a
// filled rectangle and of the text, and the IEND chunk whose CRC-32 is the
// fixed 0xAE426082 of every PNG. The image is smaller than its raw pixels.
TEST(Png, DecodesToThePixelsDrawn) {
  report::RasterImage image(300, 250);
  image.fillRect(10, 20, 30, 40, {1, 2, 3});
  image.text(100, 100, "MAE 8%", {200, 0, 0}, 2);
  const std::string png = image.png();
  ASSERT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n"));
  ASSERT_EQ(be32(png, 8), 13u);
  EXPECT_EQ(png.substr(12, 4), "IHDR");
  EXPECT_EQ(be32(png, 16), 300u);
  EXPECT_EQ(be32(png, 20), 250u);
  EXPECT_EQ(png[24], 8);  // bits per sample
  EXPECT_EQ(png[25], 2);  // RGB
  const size_t idat = 8 + 12 + 13;
  ASSERT_EQ(png.substr(idat + 4, 4), "IDAT");
  const uint32_t length = be32(png, idat);
  const std::string z = png.substr(idat + 8, length);
  std::string raw(250u * (1 + 3 * 300), '\0');
  uLongf rawSize = static_cast<uLongf>(raw.size());
  ASSERT_EQ(uncompress(reinterpret_cast<Bytef *>(raw.data()), &rawSize, reinterpret_cast<const Bytef *>(z.data()),
                       static_cast<uLong>(z.size())),
            Z_OK); // zlib checks the stream's Adler-32
  ASSERT_EQ(rawSize, raw.size()) << "one filter byte and 3 bytes a pixel per row";
  for (int y = 0; y < 250; ++y)
    ASSERT_EQ(raw[static_cast<size_t>(y) * (1 + 3 * 300)], '\0') << "filter type 0 on row " << y;
  auto pixelAt = [&](int x, int y) {
    const size_t p = static_cast<size_t>(y) * (1 + 3 * 300) + 1 + 3 * static_cast<size_t>(x);
    return std::to_string(static_cast<uint8_t>(raw[p])) + "," + std::to_string(static_cast<uint8_t>(raw[p + 1])) +
           "," + std::to_string(static_cast<uint8_t>(raw[p + 2]));
  };
  EXPECT_EQ(pixelAt(15, 25), "1,2,3");
  EXPECT_EQ(pixelAt(30, 25), "255,255,255") << "the rectangle ends before x1";
  int red = 0;
  for (int y = 100; y < 114; ++y)
    for (int x = 100; x < 100 + report::RasterImage::textWidth("MAE 8%", 2); ++x)
      red += pixelAt(x, y) == "200,0,0";
  EXPECT_GT(red, 60) << "the text is drawn";
  const size_t iend = idat + 12 + length;
  EXPECT_EQ(png.substr(iend + 4, 4), "IEND");
  EXPECT_EQ(be32(png, iend + 8), 0xAE426082u);
  EXPECT_EQ(iend + 12, png.size());
  EXPECT_LT(png.size(), raw.size() / 10) << "flat colours compress";
}

} // namespace
} // namespace npusim::validation
