// The TileIR passes on small text tests: tests/compiler/passes/PASS/*.tileir
// hold a function and the CHECK lines its output must satisfy after PASS runs
// (filecheck_support.h). Every file found is one test.
#include "compiler/compiler.h"
#include "filecheck_support.h"
#include "ir/ir.h"
#include "transform/transform.h"

#include <gtest/gtest.h>

#include <sys/wait.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <span>
#include <sstream>
#include <string_view>
#include <tuple>

namespace npusim::compiler::testing {
namespace {

namespace fs = std::filesystem;

fs::path passesRoot() {
  return fs::path(NPUSIM_TEST_DATA).parent_path() / "compiler" / "passes";
}

std::vector<std::string> passTestFiles() {
  std::vector<std::string> files;
  if (!fs::is_directory(passesRoot()))
    return files;
  for (const auto &entry : fs::recursive_directory_iterator(passesRoot()))
    if (entry.is_regular_file() && entry.path().extension() == ".tileir")
      files.push_back(fs::relative(entry.path(), passesRoot()).string());
  std::sort(files.begin(), files.end());
  return files;
}

std::string readPassesFile(const fs::path &path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

/// The machine a test file names on a `// CONFIG: NAME` line, else the
/// default preset (as `npusim opt` without --config).
std::string passesMachineText(const std::string &text) {
  const std::string key = "// CONFIG:";
  const size_t at = text.find(key);
  if (at == std::string::npos)
    return "tpuv3-like";
  const size_t begin = text.find_first_not_of(' ', at + key.size());
  return text.substr(begin, text.find_first_of(" \n", begin) - begin);
}

class PassText : public ::testing::TestWithParam<std::string> {};

TEST_P(PassText, OutputMatchesItsChecks) {
  const fs::path file = passesRoot() / GetParam();
  const std::string passName = fs::path(GetParam()).parent_path().string();
  const transform::Pass *pass = transform::findPass(passName);
  ASSERT_NE(pass, nullptr) << "no pass named after the folder " << passName;
  const std::string text = readPassesFile(file);
  const std::vector<CheckDirective> directives = checkDirectives(text);
  ASSERT_FALSE(directives.empty()) << file << " has no CHECK lines";
  auto function = ir::parse(text, file.string());
  pass->run(*function, config::loadConfig(passesMachineText(text)));
  ir::verify(*function);
  const std::string output = ir::print(*function);
  const std::string failure = runChecks(directives, output);
  EXPECT_TRUE(failure.empty()) << file.string() << ":" << failure << "\noutput:\n" << output;
}

std::string passesTestName(const ::testing::TestParamInfo<std::string> &info) {
  std::string name = info.param;
  for (char &c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)))
      c = '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(Files, PassText, ::testing::ValuesIn(passTestFiles()), passesTestName);

TEST(PassText, EveryPassHasTests) {
  const std::vector<std::string> files = passTestFiles();
  for (const transform::Pass &pass : transform::passes()) {
    const bool any = std::any_of(files.begin(), files.end(), [&](const std::string &f) {
      return fs::path(f).parent_path().string() == pass.name;
    });
    EXPECT_TRUE(any) << "no tests under tests/compiler/passes/" << pass.name;
  }
}

// The stages as docs/compiler.md's table "Stages" lists them: one row per
// stage, in order, the stage's name in its first cell; a TileIR pass dropped
// on overflow says so in its row.
struct DocumentedStage {
  std::string name;
  bool droppedOnOverflow = false;
};

std::vector<DocumentedStage> documentedStages() {
  std::ifstream in(fs::path(NPUSIM_TEST_DATA).parent_path().parent_path() / "docs" / "compiler.md");
  std::vector<DocumentedStage> stages;
  std::string line;
  bool inSection = false;
  while (std::getline(in, line)) {
    if (line.rfind("## ", 0) == 0)
      inSection = line == "## Stages";
    if (!inSection || line.rfind("| `", 0) != 0)
      continue;
    const size_t end = line.find('`', 3);
    if (end == std::string::npos)
      continue;
    stages.push_back({line.substr(3, end - 3), line.find("dropped on overflow") != std::string::npos});
  }
  return stages;
}

// The one list of stages: the library's mapping and the block sizes (before
// TileIR exists), then the TileIR passes exactly as transform::passes() lists
// them, then lowering, schedule and scratchpad plan; and docs/compiler.md's
// table of stages is that list (the same names in the same order, "dropped on
// overflow" exactly on the stages that are).
TEST(Pipeline, ListsEveryStageInOrder) {
  const std::span<const compiler::Stage> stages = compiler::pipeline();
  std::vector<std::string_view> tileIR;
  for (const compiler::Stage &stage : stages) {
    EXPECT_FALSE(stage.summary.empty()) << stage.name;
    if (stage.kind == compiler::Stage::Kind::TileIRPass) {
      EXPECT_EQ(stage.module, "transform") << stage.name;
      tileIR.push_back(stage.name);
    } else {
      EXPECT_EQ(stage.module, stage.kind == compiler::Stage::Kind::Mapping ? "library" : "compiler")
          << stage.name;
      EXPECT_FALSE(stage.droppedOnOverflow) << stage.name;
    }
  }
  std::vector<std::string_view> registered;
  for (const transform::Pass &pass : transform::passes())
    registered.push_back(pass.name);
  EXPECT_EQ(tileIR, registered);
  ASSERT_GE(stages.size(), 5u);
  EXPECT_EQ(stages[0].kind, compiler::Stage::Kind::Mapping);
  EXPECT_EQ(stages[1].kind, compiler::Stage::Kind::BlockSizes);
  EXPECT_EQ(stages[2].kind, compiler::Stage::Kind::TileIRPass);
  EXPECT_EQ(stages[stages.size() - 3].kind, compiler::Stage::Kind::Lowering);
  EXPECT_EQ(stages[stages.size() - 2].kind, compiler::Stage::Kind::Schedule);
  EXPECT_EQ(stages.back().kind, compiler::Stage::Kind::ScratchpadPlan);

  const std::vector<DocumentedStage> documented = documentedStages();
  ASSERT_EQ(documented.size(), stages.size())
      << "docs/compiler.md's table \"Stages\" is stale; `npusim opt --stages` prints the pipeline";
  for (size_t i = 0; i < stages.size(); ++i) {
    EXPECT_EQ(documented[i].name, stages[i].name)
        << "row " << i + 1 << " of docs/compiler.md's table \"Stages\"";
    EXPECT_EQ(documented[i].droppedOnOverflow, stages[i].droppedOnOverflow) << stages[i].name;
  }
}

/// Runs the built npusim with `arguments`; the exit status and stdout + stderr.
std::pair<int, std::string> runNpusim(const std::string &arguments) {
  const std::string command = std::string(NPUSIM_BINARY) + " " + arguments + " 2>&1";
  FILE *pipe = popen(command.c_str(), "r");
  std::string output;
  char buffer[4096];
  while (pipe && std::fgets(buffer, sizeof buffer, pipe))
    output += buffer;
  const int status = pipe ? pclose(pipe) : -1;
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, output};
}

TEST(OptCommand, RunsThePassesInOrderAndPrints) {
  const fs::path file = passesRoot() / "hoist-invariants" / "invariant_chain.tileir";
  auto expected = ir::parse(readPassesFile(file), file.string());
  const config::HardwareConfig machine = config::loadConfig("tpuv3-like");
  transform::findPass("hoist-invariants")->run(*expected, machine);
  transform::findPass("cse")->run(*expected, machine);
  const auto [status, output] = runNpusim("opt --pass=hoist-invariants --pass cse " + file.string());
  EXPECT_EQ(status, 0) << output;
  EXPECT_EQ(output, ir::print(*expected));
}

TEST(OptCommand, ConfigChoosesTheMachine) {
  // The same reduction puts its kept axis on the lanes on 8 lanes, and the
  // reduced one on 128 (reduce_edge_8lane.tileir and reduce_across_lanes.tileir).
  const fs::path file = passesRoot() / "layout" / "reduce_across_lanes.tileir";
  for (const std::string machine : {"edge-8lane", "tpuv3-like"}) {
    auto expected = ir::parse(readPassesFile(file), file.string());
    transform::findPass("layout")->run(*expected, config::loadConfig(machine));
    const auto [status, output] = runNpusim("opt --pass=layout --config " + machine + " " + file.string());
    EXPECT_EQ(status, 0) << output;
    EXPECT_EQ(output, ir::print(*expected)) << machine;
  }
  const auto [status, output] = runNpusim("opt --pass=layout " + file.string());
  EXPECT_EQ(status, 0) << output;
  EXPECT_NE(output.find("%3 = load %2 : fp32[8, 256] lane=1"), std::string::npos) << output;
}

TEST(OptCommand, ListsEveryPass) {
  const auto [status, output] = runNpusim("opt --list");
  EXPECT_EQ(status, 0);
  std::string expected;
  for (const transform::Pass &pass : transform::passes())
    expected += std::string(pass.name) + "  " + std::string(pass.summary) + "\n";
  EXPECT_EQ(output, expected);
}

// The stages as the product lists them: the library's mapping first, the
// scratchpad plan last, one line per stage.
TEST(OptCommand, ListsEveryStage) {
  const auto [status, output] = runNpusim("opt --stages");
  EXPECT_EQ(status, 0);
  EXPECT_EQ(output.rfind("mapping  library  library calls only", 0), 0u) << output;
  EXPECT_NE(output.find("\nblock-sizes  compiler  "), std::string::npos) << output;
  EXPECT_NE(output.find("\nscratchpad  compiler  "), std::string::npos) << output;
  EXPECT_EQ(static_cast<size_t>(std::count(output.begin(), output.end(), '\n')), compiler::pipeline().size());
}

TEST(OptCommand, ErrorsNameTheFileAndTheirExitStatus) {
  const fs::path bad = fs::temp_directory_path() / "npusim_opt_bad.tileir";
  std::ofstream(bad) << "tile.func @k(%0 x: i32) {\n  %1 = frob %0 : i32\n}\n";
  auto [status, output] = runNpusim("opt " + bad.string());
  EXPECT_EQ(status, 1);
  EXPECT_EQ(output, bad.string() + ":2:8: error: TileIR parser: unknown op 'frob'\n");
  std::tie(status, output) = runNpusim("opt --pass=no-such-pass " + bad.string());
  EXPECT_EQ(status, 2);
  EXPECT_NE(output.find("no pass named 'no-such-pass'"), std::string::npos) << output;
  fs::remove(bad);
}

// The checker itself: each directive kind passes and fails where it should.
TEST(FileCheck, DirectivesPassAndFail) {
  const std::string out = "a = 1\nb = 2\nc = 3\n";
  auto check = [&](const std::string &test) { return runChecks(checkDirectives(test), out); };
  EXPECT_EQ(check("// CHECK: a = 1\n// CHECK-NEXT: b =\n// CHECK: c"), "");
  EXPECT_EQ(check("// CHECK: a\n// CHECK-NOT: x\n// CHECK: c"), "");
  EXPECT_EQ(check("// CHECK:   b   =   2"), "");         // spacing is free
  EXPECT_NE(check("// CHECK: b\n// CHECK: a"), "");      // order matters
  EXPECT_NE(check("// CHECK: a\n// CHECK-NEXT: c"), ""); // c is not next
  EXPECT_NE(check("// CHECK: a\n// CHECK-NOT: b\n// CHECK: c"), "");
  EXPECT_NE(check("// CHECK: a\n// CHECK-NOT: c"), ""); // a trailing NOT runs to the end
  EXPECT_NE(check("// CHECK-NEXT: a"), "");
  EXPECT_NE(check("// CHECK: d"), "");
}

} // namespace
} // namespace npusim::compiler::testing
