// Every kernel of the corpus compiles for the default machine and for a small
// 8-lane one, with block sizes from proposeBlockSizes.
#include "compiler/kernel_support.h"

#include <gtest/gtest.h>

#include <sstream>

namespace npusim::compiler {
namespace {

void compileCorpus(const config::HardwareConfig &machine) {
  const std::vector<std::string> files = testing::corpusKernelFiles();
  ASSERT_GE(files.size(), 260u);
  int compiled = 0;
  std::ostringstream failures;
  for (const std::string &path : files) {
    try {
      testing::CompiledKernel kernel = testing::compileKernelFile(path, machine);
      EXPECT_LE(kernel.program.spadBytesUsed, machine.spadBytesPerLane()) << path;
      EXPECT_FALSE(kernel.program.body.empty()) << path;
      npu::validate(kernel.program); // operands, shapes, dtypes and bank ranges as each opcode requires
      ++compiled;
    } catch (const std::exception &e) {
      failures << path << ": " << e.what() << "\n";
    }
  }
  EXPECT_EQ(compiled, static_cast<int>(files.size())) << failures.str();
  std::printf("%d of %zu kernels compile for %s\n", compiled, files.size(), machine.name.c_str());
}

TEST(Corpus, CompilesForDefaultMachine) {
  config::HardwareConfig machine;
  machine.name = "default";
  compileCorpus(machine);
}

TEST(Corpus, CompilesForEightLaneMachine) { compileCorpus(testing::smallMachine()); }

} // namespace
} // namespace npusim::compiler
