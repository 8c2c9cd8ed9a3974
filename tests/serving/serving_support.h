#pragma once
// Scenarios and workloads for the serving tests, built in code: tiny
// synthetic programs (one DMA or one vector instruction per instance) whose
// service times and DRAM traffic follow from the configuration by hand.
#include "serving/serving.h"

#include <cstdint>
#include <string>
#include <vector>

namespace npusim::serving::testing {

/// tpuv3-like with `cores` cores and `channels` DRAM channels.
config::HardwareConfig machine(int cores, int channels = 16);

/// A scenario with `tenants` tenants named t0, t1, ... (bundle paths unused).
Scenario scenarioOf(const config::HardwareConfig &machine, const std::vector<StreamSpec> &streams);

StreamSpec fixedAt(std::vector<double> timesUs);
StreamSpec poisson(double ratePerSecond, uint64_t seed, int64_t count);
StreamSpec closedLoop(int64_t outstanding, int64_t count);

/// One launch of `instances` instances, each loading `bytesPerInstance`
/// contiguous DRAM bytes (instance i from i x bytesPerInstance) into one of
/// two alternating tiles (double buffered): DRAM-bound.
Workload streamingWorkload(int lanes, int64_t instances, uint32_t bytesPerInstance);
/// One launch of one instance running one vector instruction over a tile of
/// `elementsPerLane` fp32 per lane: no DRAM, and consecutive requests write
/// the same tile, so they run one after another (a deterministic server).
Workload computeWorkload(int lanes, int64_t elementsPerLane);

/// The mean latency of a tenant's requests, in microseconds.
double meanLatencyUs(const PlacementResult &result, int tenant);

} // namespace npusim::serving::testing
