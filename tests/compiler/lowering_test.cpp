// The lowering on small text tests, by op family:
// tests/compiler/lowering/FAMILY/*.tileir hold a TileIR function and the CHECK
// lines (filecheck_support.h) its NPU program must satisfy after
// compiler::compile, the stages `npusim compile --dump` runs after the block
// sizes. A `// CONFIG: NAME` line picks the machine (tpuv3-like by default).
// Every file found is one test.
#include "compiler/compiler.h"
#include "config/hardware.h"
#include "filecheck_support.h"
#include "ir/ir.h"
#include "npu/program.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace npusim::compiler::testing {
namespace {

namespace fs = std::filesystem;

fs::path loweringRoot() {
  return fs::path(NPUSIM_TEST_DATA).parent_path() / "compiler" / "lowering";
}

std::vector<std::string> loweringTestFiles() {
  std::vector<std::string> files;
  if (!fs::is_directory(loweringRoot()))
    return files;
  for (const auto &entry : fs::recursive_directory_iterator(loweringRoot()))
    if (entry.is_regular_file() && entry.path().extension() == ".tileir")
      files.push_back(fs::relative(entry.path(), loweringRoot()).string());
  std::sort(files.begin(), files.end());
  return files;
}

std::string readLoweringFile(const fs::path &path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

/// The machine a test file names on a `// CONFIG: NAME` line, else the
/// default machine.
config::HardwareConfig loweringMachine(const std::string &text) {
  const std::string key = "// CONFIG:";
  const size_t at = text.find(key);
  if (at == std::string::npos)
    return config::defaultConfig();
  const size_t begin = text.find_first_not_of(' ', at + key.size());
  return config::loadConfig(text.substr(begin, text.find_first_of(" \n", begin) - begin));
}

class LoweringText : public ::testing::TestWithParam<std::string> {};

TEST_P(LoweringText, ProgramMatchesItsChecks) {
  const fs::path file = loweringRoot() / GetParam();
  const std::string text = readLoweringFile(file);
  const std::vector<CheckDirective> directives = checkDirectives(text);
  ASSERT_FALSE(directives.empty()) << file << " has no CHECK lines";
  const auto function = ir::parse(text, file.string());
  ir::verify(*function);
  const std::string output = npu::print(compiler::compile(*function, loweringMachine(text)));
  const std::string failure = runChecks(directives, output);
  EXPECT_TRUE(failure.empty()) << file.string() << ":" << failure << "\noutput:\n" << output;
}

std::string loweringTestName(const ::testing::TestParamInfo<std::string> &info) {
  std::string name = info.param;
  name = name.substr(0, name.size() - std::string(".tileir").size());
  for (char &c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)))
      c = '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(Files, LoweringText, ::testing::ValuesIn(loweringTestFiles()), loweringTestName);

// Every family of the lowering has its text tests.
TEST(LoweringText, EveryFamilyHasTests) {
  const std::vector<std::string> files = loweringTestFiles();
  for (const std::string family : {"memory", "compute", "control", "dot", "reduce", "box"}) {
    const auto count = std::count_if(files.begin(), files.end(), [&](const std::string &f) {
      return fs::path(f).parent_path().string() == family;
    });
    EXPECT_GE(count, 5) << "tests/compiler/lowering/" << family;
  }
}

} // namespace
} // namespace npusim::compiler::testing
