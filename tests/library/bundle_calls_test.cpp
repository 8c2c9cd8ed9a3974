// Every distinct library call of the committed bundles, exactly as the bundle
// spells it (shapes, strides, offsets, arguments, unrecorded results), planned
// and run on the reference interpreter against the host calls. The
// largest (more than 40 million multiply-accumulates) are left to the family
// tests, which run them at reduced sizes, to keep this test to seconds.
#include "library/bundle_calls.h"

#include <gtest/gtest.h>

namespace npusim::library {
namespace {

TEST(LibraryBundleCalls, MatchTheReferenceLibrary) {
  std::vector<harness::BundleCall> calls = harness::bundleCalls();
  int64_t run = 0, macs = 0;
  double kernelSeconds = 0, referenceSeconds = 0;
  for (harness::BundleCall &call : calls) {
    if (call.macs > 40'000'000)
      continue;
    harness::RunStats stats;
    EXPECT_EQ(call.fixture.compare(call.op, call.args, call.outs, MachineShape{}, {}, &stats), "") << call.label;
    ++run;
    macs += call.macs;
    kernelSeconds += stats.kernelSeconds;
    referenceSeconds += stats.referenceSeconds;
  }
  EXPECT_GE(run, 60);
  std::printf("%lld of %zu calls, %.1f M MACs: kernels on the interpreter %.2f s, host calls %.2f s\n",
              static_cast<long long>(run), calls.size(), static_cast<double>(macs) / 1e6, kernelSeconds,
              referenceSeconds);
}

} // namespace
} // namespace npusim::library
