// Timed near-ties (docs/compiler.md, "Timed near-ties"): where the block-size
// search's estimates tie, the runtime times the tied candidates on the launch
// and runs the fastest; once per distinct launch, the same with any thread
// count, and the same blocks in every NPU mode.
#include "config/hardware.h"
#include "runtime/loader.h"
#include "runtime/runner.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace npusim::runtime {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string runCommand(const std::string &command) {
  std::unique_ptr<FILE, int (*)(FILE *)> pipe(popen(command.c_str(), "r"), pclose);
  std::string out;
  char buffer[4096];
  while (pipe && fgets(buffer, sizeof buffer, pipe.get()))
    out += buffer;
  return out;
}

// The looped softmax of validation/tpuv3/softmax-2048 on 64 rows of 1024
// fp32 (256 KiB read twice, 256 KiB written), as a bundle of one launch.
const fs::path kBundle = fs::path(NPUSIM_TEST_DATA) / "near_ties";
const fs::path kSoftmax = kBundle / "kernels" / "triton_red_fused__softmax_exp_prepare_softmax_online_sub_0.py";

std::string kernelCommand(const std::string &options) {
  return std::string("'") + NPUSIM_BINARY + "' kernel '" + kSoftmax.string() + "' --mode timing --quiet " +
         options + " 2>&1";
}

int64_t cyclesOf(const std::string &out) {
  std::smatch m;
  if (!std::regex_search(out, m, std::regex(R"( cycles=([0-9]+) )"))) {
    ADD_FAILURE() << out;
    return 0;
  }
  return std::stoll(m[1]);
}

// The search estimates several row and column blocks of the softmax at the
// same DRAM floor, which the timing simulator puts apart (row-buffer hits,
// the latency of each pass). Each near-tie the launch timed, run on its own
// with its blocks pinned (--const, so no search and no near-ties), gives its
// cycles; the launch with free blocks must run the fastest of them, with
// exactly its cycles (these candidates have at most two instances, so each
// was timed whole).
TEST(NearTies, TheLaunchRunsTheFastestNearTie) {
  const std::string out = runCommand("NPUSIM_TILING_TRACE=1 " + kernelCommand(""));
  std::vector<std::pair<int64_t, int64_t>> ties;
  const std::regex line(R"(tiling timed XBLOCK=([0-9]+), R0_BLOCK=([0-9]+): [0-9]+ cycles)");
  for (std::sregex_iterator it(out.begin(), out.end(), line), end; it != end; ++it)
    ties.emplace_back(std::stoll((*it)[1]), std::stoll((*it)[2]));
  ASSERT_GE(ties.size(), 2u) << out;
  EXPECT_NE(out.find(" near_ties_timed=" + std::to_string(ties.size()) + " "), std::string::npos) << out;

  int64_t fastest = std::numeric_limits<int64_t>::max(), slowest = 0;
  std::string fastestBlocks;
  for (const auto &[x, r] : ties) {
    const std::string blocks = "XBLOCK=" + std::to_string(x) + ", R0_BLOCK=" + std::to_string(r);
    const std::string alone =
        runCommand(kernelCommand("--const XBLOCK=" + std::to_string(x) + " --const R0_BLOCK=" + std::to_string(r)));
    EXPECT_EQ(alone.find("near_ties_timed"), std::string::npos) << alone;
    const int64_t cycles = cyclesOf(alone);
    slowest = std::max(slowest, cycles);
    if (cycles < fastest) {
      fastest = cycles;
      fastestBlocks = blocks;
    }
  }
  EXPECT_GT(slowest, fastest) << "the near-ties should time differently";
  EXPECT_EQ(cyclesOf(out), fastest) << out;
  EXPECT_NE(out.find("constexprs=(" + fastestBlocks + ")"), std::string::npos) << fastestBlocks << "\n" << out;
}

RunReport runWith(const Bundle &bundle, Mode mode, int threads) {
  RunOptions options;
  options.mode = mode;
  options.verify = mode != Mode::Timing;
  options.machine = config::loadConfig("tpuv3-like");
  options.threads = threads;
  return runBundle(bundle, options);
}

// The choice is made on the caller's thread from an idle machine, so the
// timing threads change nothing; the functional and full modes run the blocks
// the timing mode chose, and their values match the reference interpreter's.
TEST(NearTies, SameChoiceWithOneAndTwoThreadsAndInEveryMode) {
  const Bundle bundle = loadBundle(kBundle);
  const RunReport one = runWith(bundle, Mode::Timing, 1);
  ASSERT_EQ(one.failure, "");
  ASSERT_EQ(one.steps.size(), 1u);
  EXPECT_NE(one.steps[0].blockSizes.find("near-ties timed"), std::string::npos) << one.steps[0].blockSizes;
  EXPECT_EQ(one.nearTieLaunches, 1);
  EXPECT_GE(one.nearTieTimings, 2);
  const RunReport two = runWith(bundle, Mode::Timing, 2);
  ASSERT_EQ(two.failure, "");
  EXPECT_EQ(two.steps[0].blockSizes, one.steps[0].blockSizes);
  EXPECT_EQ(two.totalCycles, one.totalCycles);
  EXPECT_EQ(two.nearTieTimings, one.nearTieTimings);
  const RunReport full = runWith(bundle, Mode::Full, 2);
  ASSERT_EQ(full.failure, "");
  EXPECT_EQ(full.steps[0].blockSizes, one.steps[0].blockSizes);
  EXPECT_EQ(full.totalCycles, one.totalCycles);
  const RunReport functional = runWith(bundle, Mode::Functional, 1);
  ASSERT_EQ(functional.failure, "");
  EXPECT_EQ(functional.steps[0].blockSizes, one.steps[0].blockSizes);
  for (const RunReport *r : {&full, &functional}) {
    ASSERT_EQ(r->steps.size(), 1u);
    EXPECT_EQ(r->steps[0].npuCheck, "matches the reference") << r->steps[0].message;
  }
}

// The same launch twice (a model's repeated layers): the second reuses the
// first's choice, so the candidates are timed once, and both steps run the
// same blocks for the same cycles.
TEST(NearTies, ARepeatedLaunchIsTimedOnce) {
  std::ifstream in(kBundle / "graph.json");
  std::stringstream text;
  text << in.rdbuf();
  json graph = json::parse(text.str());
  ASSERT_EQ(graph["steps"].size(), 1u);
  graph["steps"].push_back(graph["steps"][0]);
  const Bundle twice = parseBundle(graph.dump(), kBundle, "graph.json");
  const RunReport once = runWith(loadBundle(kBundle), Mode::Timing, 1);
  const RunReport repeated = runWith(twice, Mode::Timing, 1);
  ASSERT_EQ(once.failure, "");
  ASSERT_EQ(repeated.failure, "");
  ASSERT_EQ(repeated.steps.size(), 2u);
  EXPECT_GE(once.nearTieTimings, 2);
  EXPECT_EQ(repeated.nearTieLaunches, 1);
  EXPECT_EQ(repeated.nearTieTimings, once.nearTieTimings);
  EXPECT_EQ(repeated.steps[1].blockSizes, repeated.steps[0].blockSizes);
  EXPECT_EQ(repeated.steps[0].blockSizes, once.steps[0].blockSizes);
  EXPECT_EQ(repeated.steps[1].timing.cycles, repeated.steps[0].timing.cycles);
  EXPECT_EQ(repeated.totalCycles, 2 * once.totalCycles);
}

} // namespace
} // namespace npusim::runtime
