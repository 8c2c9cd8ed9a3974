// How configuration files are read: one UTF-8 YAML document of bounded size,
// a regular file, and every error on the line of the key at fault wherever
// that key sits in the file.
#include "config/hardware.h"
#include "core/error.h"
#include "core/text_input.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace npusim::config {
namespace {

namespace fs = std::filesystem;

std::string errorOf(const std::string &text, const std::string &source = "cfg.yaml") {
  try {
    parseConfig(text, source);
  } catch (const core::InputError &e) {
    return e.what();
  }
  return "";
}

std::string loadError(const std::string &path) {
  try {
    loadConfig(path);
  } catch (const core::InputError &e) {
    return e.what();
  }
  return "";
}

/// `padding` lines of other keys (or blank lines and comments) before `line`.
std::string after(int padding, const std::string &line) {
  static const char *const kFillers[] = {"num_cores: 1\n",       "\n", "# a comment\n", "vlen_bits: 256\n",
                                         "core_freq_mhz: 940\n", "\n"};
  std::string text;
  for (int i = 0; i < padding; ++i)
    text += kFillers[i];
  return text + line;
}

class TempDir : public ::testing::Test {
protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "npusim-config-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  std::string write(const std::string &name, const std::string &text) const {
    std::ofstream(dir_ / name, std::ios::binary) << text;
    return (dir_ / name).string();
  }
  fs::path dir_;
};

TEST(Input, EveryErrorIsOnTheLineOfItsKey) {
  for (int padding = 0; padding < 6; ++padding) {
    const std::string line = "cfg.yaml:" + std::to_string(padding + 1) + ": ";
    EXPECT_EQ(errorOf(after(padding, "lanes: 96\n")), line + "key 'lanes': '96' must be a power of two");
    EXPECT_EQ(errorOf(after(padding, "lanes: [96]\n")),
              line + "key 'lanes': expected a single value, got a list");
    EXPECT_EQ(errorOf(after(padding, "lanes: many\n")),
              line + "key 'lanes': expected an integer, got 'many'");
    EXPECT_EQ(errorOf(after(padding, "lane: 64\n")), line + "unknown key 'lane' (did you mean 'lanes'?)");
    // An absent value: yaml-cpp places it at the next token, lines later.
    EXPECT_EQ(errorOf(after(padding, "lanes:\n\n\nscalar_latency: 1\n")),
              line + "key 'lanes': expected a single value, got nothing");
    EXPECT_EQ(errorOf(after(padding, "lanes:\n")),
              line + "key 'lanes': expected a single value, got nothing");
    EXPECT_EQ(errorOf(after(padding, "base:\n\nlanes: 64\n")),
              line + "key 'base': expected a preset name or a file path");
    EXPECT_EQ(errorOf(after(padding, "dram_timing:\n  n_cl:\n\n  n_rcd: 10\n")),
              "cfg.yaml:" + std::to_string(padding + 2) +
                  ": key 'dram_timing.n_cl': expected a single value, "
                  "got nothing");
  }
}

TEST(Input, ASecondDocumentIsAnError) {
  EXPECT_EQ(errorOf("name: x\n---\nlanes: 64\n"),
            "cfg.yaml:2: a second YAML document (after '---'); the file must hold one document");
  EXPECT_EQ(errorOf("lanes: 64\n\n---\n\nlanes: 32\n"),
            "cfg.yaml:3: a second YAML document (after '---'); the file must hold one document");
  EXPECT_NE(errorOf("lanes: 64\n---\n"), ""); // even an empty one
  // Text that yaml-cpp reads as endless empty documents (YAML::LoadAll never ends on it).
  EXPECT_EQ(errorOf(",#"), "cfg.yaml:1: malformed YAML: the text does not parse as one document");
  EXPECT_EQ(errorOf(","), "cfg.yaml:1: malformed YAML: the text does not parse as one document");
  // A document start marker before the only document, and an end marker, are one document.
  EXPECT_EQ(parseConfig("---\nlanes: 64\n...\n", "cfg.yaml").lanes, 64);
}

TEST(Input, InvalidUtf8IsAnErrorNamingTheLine) {
  EXPECT_EQ(errorOf("lanes: 64\nname: caf\xE9\n"),
            "cfg.yaml:2: invalid UTF-8 (byte 0xE9 at column 10); the file must be UTF-8 text");
  EXPECT_NE(errorOf("# \xC0\xAF overlong\nlanes: 64\n"), ""); // anywhere, comments included
  EXPECT_NE(errorOf("name: \xED\xA0\x80\n"), "");             // a surrogate
  EXPECT_NE(errorOf("name: \xF4\x90\x80\x80\n"), "");         // past U+10FFFF
  EXPECT_NE(errorOf("name: caf\xC3\n"), "");                  // cut short
  EXPECT_EQ(parseConfig("name: caf\xC3\xA9-\xE2\x82\xAC-\xF0\x9F\x98\x80\n", "cfg.yaml").name,
            "caf\xC3\xA9-\xE2\x82\xAC-\xF0\x9F\x98\x80");
}

TEST(Input, ControlCharactersYamlForbidsAreAnErrorNamingTheLine) {
  // yaml-cpp would end the scalar at the NUL and load a different name.
  EXPECT_EQ(errorOf(std::string("lanes: 64\nname: \0'a e:\0'\n", 25)),
            "cfg.yaml:2: character U+0000 at column 7 is a control character, which YAML text may not hold");
  EXPECT_EQ(errorOf("# bell \x07\nlanes: 64\n"),
            "cfg.yaml:1: character U+0007 at column 8 is a control character, which YAML text may not hold");
  EXPECT_NE(errorOf("name: a\x7F\n"), "");        // DEL
  EXPECT_NE(errorOf("name: a\xC2\x9B\n"), "");    // a C1 control
  EXPECT_NE(errorOf("name: a\xEF\xBF\xBE\n"), ""); // U+FFFE
  // Tab, carriage return, NEL and a byte-order mark are YAML text.
  EXPECT_EQ(parseConfig("\xEF\xBB\xBFlanes: 64\t# tab\r\nname: a\xC2\x85\n", "cfg.yaml").lanes, 64);
}

TEST(Input, NamesArePrintableWithoutSpacesAtTheirEnds) {
  // yaml-cpp reads an unterminated quote as the text up to the line end, folded to a space.
  EXPECT_EQ(errorOf("name: '4\n"), "cfg.yaml:1: key 'name': '4 ' has spaces at its start or end");
  EXPECT_EQ(errorOf("name: \"a\\tb\"\n"), "cfg.yaml:1: key 'name': 'a\tb' has a control character");
  EXPECT_EQ(parseConfig("name: my npu\n", "cfg.yaml").name, "my npu");
}

TEST(Input, Utf8CheckerAgainstHandPickedSequences) {
  EXPECT_TRUE(core::isValidUtf8(""));
  EXPECT_TRUE(
      core::isValidUtf8("\x7F\xC2\x80\xDF\xBF\xE0\xA0\x80\xEF\xBF\xBF\xF0\x90\x80\x80\xF4\x8F\xBF\xBF"));
  for (const char *bad :
       {"\x80", "\xBF", "\xC0\x80", "\xC1\xBF", "\xE0\x9F\xBF", "\xED\xA0\x80", "\xF0\x8F\xBF\xBF",
        "\xF4\x90\x80\x80", "\xF5\x80\x80\x80", "\xFF", "\xE2\x82", "\xC3\x28"})
    EXPECT_FALSE(core::isValidUtf8(bad)) << bad;
}

TEST_F(TempDir, ADirectoryIsNotAConfiguration) {
  fs::create_directory(dir_ / "machine.yaml");
  const std::string path = (dir_ / "machine.yaml").string();
  EXPECT_EQ(loadError(path), path + ": is a directory, not a configuration file");
  const std::string base = write("b.yaml", "\n\nbase: machine.yaml\n");
  EXPECT_EQ(loadError(base), base + ":3: key 'base': " + path + ": is a directory, not a configuration file");
  const std::string missing = (dir_ / "missing.yaml").string();
  EXPECT_EQ(loadError(missing), missing + ": cannot read the configuration file: No such file or directory");
}

TEST_F(TempDir, AnEmptyFileIsTheDefaults) {
  // docs/config.md: an empty file (or one of comments) sets no key.
  const HardwareConfig empty = loadConfig(write("empty.yaml", ""));
  const HardwareConfig comments = loadConfig(write("comments.yaml", "# nothing\n\n"));
  HardwareConfig defaults;
  defaults.dram.timing = dramTiming("hbm2");
  defaults.dram.freqMhz = 1e6 / defaults.dram.timing.tckPs;
  EXPECT_EQ(empty.lanes, defaults.lanes);
  EXPECT_EQ(empty.numCores, defaults.numCores);
  EXPECT_EQ(empty.spadKibPerLane, defaults.spadKibPerLane);
  EXPECT_EQ(empty.dram.timing.name, "hbm2");
  EXPECT_EQ(toYaml(empty).substr(toYaml(empty).find('\n', toYaml(empty).find("name:"))),
            toYaml(comments).substr(toYaml(comments).find('\n', toYaml(comments).find("name:"))));
}

TEST_F(TempDir, AnOversizedFileIsRefusedBeforeParsing) {
  std::string text;
  for (int i = 0; text.size() <= core::kMaxTextFileBytes; ++i)
    text += "k" + std::to_string(i) + ": " + std::to_string(i) + "\n";
  const std::string path = write("big.yaml", text);
  EXPECT_EQ(loadError(path), path + ": the configuration file is " + std::to_string(text.size()) +
                                 " bytes, more than the limit of " + std::to_string(core::kMaxTextFileBytes));
}

} // namespace
} // namespace npusim::config
