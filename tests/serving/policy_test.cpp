// Shared cores under each policy, and runs that repeat bit for bit.
#include "serving/policies.h"
#include "serving/serving_support.h"

#include <gtest/gtest.h>

namespace npusim::serving {
namespace {

using namespace testing;

bool sameRequests(const PlacementResult &a, const PlacementResult &b) {
  if (a.requests.size() != b.requests.size())
    return false;
  for (size_t k = 0; k < a.requests.size(); ++k)
    if (a.requests[k].tenant != b.requests[k].tenant || a.requests[k].arrival != b.requests[k].arrival ||
        a.requests[k].start != b.requests[k].start || a.requests[k].finish != b.requests[k].finish)
      return false;
  return true;
}

TEST(ServingPolicies, RunsAreDeterministicForASeed) {
  // Two tenants sharing both cores of the machine and one DRAM channel (so
  // that they contend), Poisson arrivals: the same seeds give the same
  // requests to the picosecond; another seed gives other arrivals.
  const config::HardwareConfig hardware = machine(2, 1);
  Workload stream = streamingWorkload(hardware.lanes, 8, 16384);
  Workload compute = computeWorkload(hardware.lanes, 2048);
  const PlacementSpec shared{"shared", {}, "round_robin", "test.yaml:1"};
  const auto run = [&](uint64_t seed) {
    const Scenario scenario = scenarioOf(hardware, {poisson(2.0e5, seed, 40), poisson(4.0e5, seed + 1, 40)});
    return simulate(scenario, shared, {&stream, &compute});
  };
  const PlacementResult first = run(11);
  EXPECT_TRUE(sameRequests(first, run(11)));
  EXPECT_FALSE(sameRequests(first, run(12)));
  EXPECT_EQ(first.requests.size(), 80u);
}

TEST(ServingPolicies, PriorityServesTheHigherTenantFirst) {
  // Both tenants send 20 identical requests at t = 0 to one shared core that
  // holds one instance at a time (core_queue_depth 1); arrivals at one time
  // are taken in tenant order, so tenant 0's first request takes the idle
  // core at once. In units of the service time S:
  // - priority (tenant 1 higher): tenant 0 finishes at 1, then tenant 1's
  //   twenty at 2..21 (mean 11.5), then tenant 0's other nineteen at 22..40:
  //   tenant 0's mean (1 + 589) / 20 = 29.5;
  // - fifo: requests in arrival order, tenant 0's at 1..20 (mean 10.5),
  //   tenant 1's at 21..40 (mean 30.5).
  const config::HardwareConfig hardware = machine(1);
  Workload compute = computeWorkload(hardware.lanes, 2048);
  Scenario scenario =
      scenarioOf(hardware, {fixedAt(std::vector<double>(20, 0.0)), fixedAt(std::vector<double>(20, 0.0))});
  scenario.tenants[1].priority = 1;
  scenario.coreQueueDepth = 1;
  const PlacementResult priority =
      simulate(scenario, PlacementSpec{"shared", {}, "priority", "test.yaml:1"}, {&compute, &compute});
  EXPECT_NEAR(meanLatencyUs(priority, 0) / meanLatencyUs(priority, 1), 29.5 / 11.5, 0.01 * 29.5 / 11.5);
  const PlacementResult fifo =
      simulate(scenario, PlacementSpec{"shared", {}, "fifo", "test.yaml:1"}, {&compute, &compute});
  EXPECT_NEAR(meanLatencyUs(fifo, 0) / meanLatencyUs(fifo, 1), 10.5 / 30.5, 0.01 * 10.5 / 30.5);
}

TEST(ServingPolicies, RoundRobinAlternatesTenantsOnACore) {
  // Three tenants, one core holding one instance at a time: tenant 0's first
  // request takes the idle core, then the policy takes one instance of each
  // tenant in turn after the one it ran last, so requests finish in the
  // tenant order 0, 1, 2, 0, 1, 2, ...
  const config::HardwareConfig hardware = machine(1);
  Workload compute = computeWorkload(hardware.lanes, 2048);
  const std::vector<double> times(5, 0.0);
  Scenario scenario = scenarioOf(hardware, {fixedAt(times), fixedAt(times), fixedAt(times)});
  scenario.coreQueueDepth = 1;
  PlacementResult result = simulate(scenario, PlacementSpec{"shared", {}, "round_robin", "test.yaml:1"},
                                    {&compute, &compute, &compute});
  std::sort(result.requests.begin(), result.requests.end(),
            [](const RequestResult &a, const RequestResult &b) { return a.finish < b.finish; });
  for (size_t k = 0; k < result.requests.size(); ++k)
    EXPECT_EQ(result.requests[k].tenant, static_cast<int>(k % 3)) << "finish order " << k;
  // One instance after another from t = 0: the core is busy all the time,
  // a third of it for each tenant.
  EXPECT_GT(result.cores[0].busyPercent, 99.0);
  for (double share : result.cores[0].tenantBusyPercent)
    EXPECT_NEAR(share, 100.0 / 3, 1.0);
}

TEST(ServingPolicies, PercentileIsTheNearestRank) {
  // Nearest rank: p50 of 1..10 is the 5th value, p95 the 10th, p99 the 10th.
  const std::vector<double> values = {10, 9, 8, 7, 6, 5, 4, 3, 2, 1};
  EXPECT_EQ(percentile(values, 0.50), 5.0);
  EXPECT_EQ(percentile(values, 0.95), 10.0);
  EXPECT_EQ(percentile(values, 0.10), 1.0);
}

} // namespace
} // namespace npusim::serving
