// What npusim promises whatever its input: the right answer or an error
// naming the input, in every mode. Faults, bad configurations and sweep files,
// output files that cannot be written.
#include "cli_fixture.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace npusim::cli {
namespace {

const std::string kAddMul = std::string(NPUSIM_TEST_DATA) + "/cli/triton_poi_fused_add_mul_0.py";

/// The add-mul kernel with `from` replaced by `to` in its source.
std::string edited(const std::string &from, const std::string &to) {
  std::string text = slurp(kAddMul);
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos)
    text.replace(at, from.size(), to);
  return text;
}

/// The message after "FILE: error: " on stderr.
std::string errorMessage(const std::string &err) {
  const size_t at = err.find(": error: ");
  return at == std::string::npos ? err : err.substr(at + 9);
}

class ReliabilityTest : public CommandTest {};

// An out-of-bounds access is the same fault in every NPU mode: timing mode
// checks the addresses it computes as the functional mode does.
TEST_F(ReliabilityTest, OutOfBoundsAccessFailsInEveryMode) {
  struct Case {
    std::string file, from, to, buffer, offset;
  };
  const std::vector<Case> cases = {
      {"store.py", "tl.store(out_ptr0 + (x0), tmp4, xmask)", "tl.store(out_ptr0 + (x0 + 5), tmp4)", "out_ptr0",
       "element offset 1000,"},
      {"load.py", "tl.load(in_ptr0 + (x0), xmask)", "tl.load(in_ptr0 + (x0 + 100000000), xmask)", "in_ptr0",
       "element offset 100000000,"},
  };
  for (const Case &c : cases) {
    writeText(c.file, edited(c.from, c.to));
    std::string functional;
    for (const std::string mode : {"functional", "timing", "full"}) {
      const Result r = run({"kernel", c.file, "--mode", mode});
      EXPECT_EQ(r.exitCode, 1) << c.file << " " << mode << ": " << r.out;
      EXPECT_TRUE(contains(r.err, "is outside buffer '" + c.buffer + "'")) << mode << ": " << r.err;
      EXPECT_TRUE(contains(r.err, c.offset)) << mode << ": " << r.err;
      EXPECT_EQ(r.out, "") << mode;
      if (functional.empty())
        functional = errorMessage(r.err);
      else
        EXPECT_EQ(errorMessage(r.err), functional) << mode;
    }
    const Result reference = run({"kernel", c.file});
    EXPECT_EQ(reference.exitCode, 1);
    EXPECT_TRUE(contains(reference.err, "out-of-bounds")) << reference.err;
  }
}

} // namespace
} // namespace npusim::cli
