// External GEMM mappings (--mapping FILE.json): parsing and the errors that
// name the file and the field.
#include "core/error.h"
#include "runtime/mapping_file.h"

#include <gtest/gtest.h>

#include <string>

namespace npusim::runtime {
namespace {

std::string errorOf(const std::string &text) {
  try {
    parseMapping(text, "m.json");
  } catch (const core::InputError &e) {
    return e.what();
  }
  return "";
}

TEST(MappingFile, ReadsTilesByShape) {
  const auto m = parseMapping(R"({"1024_512_256": {"TILE_M": 512, "TILE_N": 128, "TILE_K": 64},
                                  "7_8_9": {"TILE_K": 16, "TILE_N": 16, "TILE_M": 32}})",
                              "m.json");
  ASSERT_EQ(m.size(), 2u);
  const library::GemmTiles &t = m.at("1024_512_256");
  EXPECT_EQ(t.tileM, 512);
  EXPECT_EQ(t.tileN, 128);
  EXPECT_EQ(t.tileK, 64);
  EXPECT_NE(t.where.find("m.json"), std::string::npos);
  EXPECT_EQ(m.at("7_8_9").tileM, 32);
}

TEST(MappingFile, MalformedFilesNameTheFileAndTheField) {
  EXPECT_NE(errorOf("{").find("m.json: not JSON"), std::string::npos);
  EXPECT_NE(errorOf("[1, 2]").find("m.json"), std::string::npos);
  EXPECT_NE(errorOf(R"({"1024x1024": {}})").find("the key must be M_N_K"), std::string::npos);
  EXPECT_NE(errorOf(R"({"1_2_0": {"TILE_M": 16, "TILE_N": 16, "TILE_K": 16}})").find("M_N_K"),
            std::string::npos);
  EXPECT_NE(errorOf(R"({"1_2_3_": {"TILE_M": 16, "TILE_N": 16, "TILE_K": 16}})").find("M_N_K"),
            std::string::npos);
  const std::string missing = errorOf(R"({"4_4_4": {"TILE_M": 16, "TILE_N": 16}})");
  EXPECT_NE(missing.find("m.json"), std::string::npos) << missing;
  EXPECT_NE(missing.find("TILE_K"), std::string::npos) << missing;
  const std::string unknown =
      errorOf(R"({"4_4_4": {"TILE_M": 16, "TILE_N": 16, "TILE_K": 16, "TILE_Q": 1}})");
  EXPECT_NE(unknown.find("TILE_Q"), std::string::npos) << unknown;
  EXPECT_NE(errorOf(R"({"4_4_4": {"TILE_M": "big", "TILE_N": 16, "TILE_K": 16}})").find("TILE_M"),
            std::string::npos);
}

TEST(MappingFile, UnreadableFileIsAnError) {
  EXPECT_THROW(loadMapping("/nonexistent/m.json"), core::InputError);
}

} // namespace
} // namespace npusim::runtime
