// Serving against closed forms: disjoint cores with ample bandwidth give each
// tenant its solo time; two DRAM-bound tenants split the bandwidth; a single
// deterministic server under Poisson arrivals queues as M/D/1 says.
#include "serving/serving_support.h"
#include "timing/simulator.h"

#include <gtest/gtest.h>

#include <cmath>

namespace npusim::serving {
namespace {

using namespace testing;

std::vector<const Workload *> pointers(const std::vector<Workload> &workloads) {
  std::vector<const Workload *> out;
  for (const Workload &workload : workloads)
    out.push_back(&workload);
  return out;
}

PlacementSpec partitioned() {
  return PlacementSpec{"partitioned", {}, "", "test.yaml:1"};
}

/// The time of one request of `workload` alone on a 1-core machine through
/// the single-launch path (timing::Simulator::timeLaunch, launches end to
/// end): independent of serving.
double soloUs(const Workload &workload, const config::HardwareConfig &hardware) {
  config::HardwareConfig one = hardware;
  one.numCores = 1;
  timing::Simulator simulator(one);
  timing::TimePs total = 0;
  for (const Workload::Launch &launch : workload.launches) {
    std::vector<npu::InstanceTrace> traces = launch.instances;
    total += simulator.timeLaunch(*workload.programs[static_cast<size_t>(launch.program)], std::move(traces))
                 .timePs;
  }
  return static_cast<double>(total) / 1.0e6;
}

TEST(ServingClosedForm, DisjointCoresWithAmpleBandwidthTakeTheirSoloTime) {
  // Two real bundles, one request each at t = 0, each on a core of its own of
  // a 2-core tpuv3-like machine with 64 channels of the fixed-latency DRAM
  // (no banks: bandwidth is the only thing to share; 64 x ~30 GB/s, while mlp
  // alone moves about 1 MB in 6.5 us, ~150 GB/s). Sharing only DRAM and NoC,
  // which neither comes near filling, each must take the time it takes alone
  // on a 1-core machine, within 1%. (With the detailed DRAM the tenants'
  // rows conflict in shared banks: contention that is not bandwidth.)
  config::HardwareConfig hardware = machine(2, 64);
  hardware.dram.model = "fixed_latency";
  std::vector<Workload> workloads;
  workloads.push_back(captureBundle(NPUSIM_SOURCE_DIR "/examples/mlp", hardware, false));
  workloads.push_back(captureBundle(NPUSIM_TEST_DATA "/bundles/tiny", hardware, false));
  const Scenario scenario = scenarioOf(hardware, {fixedAt({0.0}), fixedAt({0.0})});
  const PlacementResult result = simulate(scenario, partitioned(), pointers(workloads));
  ASSERT_EQ(result.requests.size(), 2u);
  for (int t = 0; t < 2; ++t) {
    const double solo = soloUs(workloads[static_cast<size_t>(t)], hardware);
    EXPECT_NEAR(meanLatencyUs(result, t), solo, 0.01 * solo) << "tenant " << t;
    EXPECT_EQ(result.tenants[static_cast<size_t>(t)].cores, std::vector<int>{t});
  }
}

TEST(ServingClosedForm, TwoDramBoundTenantsEachGetHalfTheBandwidth) {
  // One channel of the tpuv3-like set (hbm2-tpuv3, docs/config.md): 64 bytes
  // per 2 tCK of 1/940 MHz, B = 64 B / 2.128 ns = 30.08 GB/s. Each tenant
  // streams 256 instances of 32 KiB (8 MiB) on a core of its own; a core
  // keeps up to 512 requests of 64 B in flight, 32 KiB over a round trip of a
  // few hundred ns, far more than B needs, so alone a tenant runs at nearly B:
  // T1 = 8 MiB / B = 279 us. Together the DRAM serves both: 16 MiB at B, each
  // tenant at B / 2, both finishing at 2 T1.
  const config::HardwareConfig hardware = machine(2, 1);
  const double peakGBs = hardware.dram.peakBytesPerSecond() / 1.0e9;
  std::vector<Workload> workloads;
  workloads.push_back(streamingWorkload(hardware.lanes, 256, 32768));
  workloads.push_back(streamingWorkload(hardware.lanes, 256, 32768));

  const Scenario alone = scenarioOf(hardware, {fixedAt({0.0})});
  const PlacementResult solo = simulate(alone, partitioned(), {&workloads[0]});
  const double soloGBs = solo.tenants[0].dramGBs;
  EXPECT_GT(soloGBs, 0.8 * peakGBs) << "alone, the tenant is DRAM-bound";
  EXPECT_LE(soloGBs, peakGBs * 1.0001);

  const Scenario both = scenarioOf(hardware, {fixedAt({0.0}), fixedAt({0.0})});
  const PlacementResult result = simulate(both, partitioned(), pointers(workloads));
  for (int t = 0; t < 2; ++t) {
    const TenantResult &tenant = result.tenants[static_cast<size_t>(t)];
    EXPECT_EQ(tenant.dramBytesRead, 256 * 32768);
    EXPECT_NEAR(tenant.dramShare, 0.5, 1e-9);
    // Each tenant's bandwidth over its own request: half of what it had alone.
    const double seconds = static_cast<double>(result.requests[static_cast<size_t>(t)].latency()) / 1.0e12;
    const double gbs = static_cast<double>(tenant.dramBytesRead) / seconds / 1.0e9;
    EXPECT_NEAR(gbs, soloGBs / 2, 0.1 * soloGBs / 2) << "tenant " << t;
    // The report's own figures: the same bandwidth (the request starts at its
    // arrival, t = 0), and half of the bytes moved while both moved bytes.
    EXPECT_NEAR(tenant.dramGBsInFlight, gbs, 0.01 * gbs);
    EXPECT_NEAR(tenant.dramShareContended, 0.5, 0.05);
    EXPECT_NEAR(meanLatencyUs(result, t), 2 * meanLatencyUs(solo, 0), 0.1 * 2 * meanLatencyUs(solo, 0));
  }
}

TEST(ServingClosedForm, PoissonQueueingFollowsMD1) {
  // One tenant, one core, each request one vector instruction over the same
  // tile: a deterministic server of service time S (measured alone, no
  // DRAM). Poisson arrivals at rate lambda give load rho = lambda S and, by
  // Pollaczek-Khinchine for M/D/1, mean latency S (1 + rho / (2 (1 - rho))):
  // rho 0.05: 1.026 S; 0.5: 1.5 S; 0.8: 3 S; 0.9: 5.5 S.
  const config::HardwareConfig hardware = machine(1);
  std::vector<Workload> workloads;
  workloads.push_back(computeWorkload(hardware.lanes, 4096));
  const PlacementResult one =
      simulate(scenarioOf(hardware, {fixedAt({0.0})}), partitioned(), pointers(workloads));
  const double serviceUs = meanLatencyUs(one, 0);
  ASSERT_GT(serviceUs, 0.0);
  double previous = 0.0;
  for (const double rho : {0.05, 0.5, 0.8, 0.9}) {
    const double rate = rho / (serviceUs * 1.0e-6);
    const Scenario scenario = scenarioOf(hardware, {poisson(rate, 7, 4000)});
    const PlacementResult result = simulate(scenario, partitioned(), pointers(workloads));
    const double mean = meanLatencyUs(result, 0) / serviceUs;
    const double md1 = 1.0 + rho / (2.0 * (1.0 - rho));
    // 4000 requests: the sample mean of the wait is within a few percent at
    // low load and within ~20% near saturation, where busy periods are long.
    EXPECT_NEAR(mean, md1, rho < 0.6 ? 0.05 * md1 : 0.2 * md1) << "rho " << rho;
    EXPECT_GT(mean, previous) << "queueing grows with the load";
    previous = mean;
    for (const RequestResult &request : result.requests)
      EXPECT_GE(request.latency(), one.requests[0].latency() - 1000000 / 940) << "no request beats S";
  }
}

TEST(ServingClosedForm, ClosedLoopKeepsOneRequestInFlight) {
  // One outstanding request and no think time: each request arrives when the
  // previous finishes and never waits, so every latency is S and the
  // throughput 1 / S.
  const config::HardwareConfig hardware = machine(1);
  std::vector<Workload> workloads;
  workloads.push_back(computeWorkload(hardware.lanes, 4096));
  const PlacementResult one =
      simulate(scenarioOf(hardware, {fixedAt({0.0})}), partitioned(), pointers(workloads));
  const timing::TimePs service = one.requests[0].latency();
  const PlacementResult result =
      simulate(scenarioOf(hardware, {closedLoop(1, 10)}), partitioned(), pointers(workloads));
  ASSERT_EQ(result.requests.size(), 10u);
  for (size_t k = 0; k < result.requests.size(); ++k) {
    // Within a clock period: each request starts on the next clock edge.
    EXPECT_NEAR(static_cast<double>(result.requests[k].latency()), static_cast<double>(service), 1064.0);
    if (k > 0) {
      EXPECT_EQ(result.requests[k].arrival, result.requests[k - 1].finish);
    }
  }
}

} // namespace
} // namespace npusim::serving
