#include "serving/serving_support.h"

#include "config/hardware.h"
#include "timing/timing_support.h"

namespace npusim::serving::testing {

using timing::testing::ProgramBuilder;

config::HardwareConfig machine(int cores, int channels) {
  config::HardwareConfig config = config::loadConfig("tpuv3-like");
  config.numCores = cores;
  config.dram.channels = channels;
  return config;
}

Scenario scenarioOf(const config::HardwareConfig &hardware, const std::vector<StreamSpec> &streams) {
  Scenario scenario;
  scenario.path = "test.yaml";
  scenario.machine = hardware;
  for (size_t t = 0; t < streams.size(); ++t) {
    TenantSpec tenant;
    tenant.name = "t" + std::to_string(t);
    tenant.bundle = "unused";
    tenant.requests = streams[t];
    tenant.where = "test.yaml:" + std::to_string(t + 1);
    scenario.tenants.push_back(tenant);
  }
  return scenario;
}

StreamSpec fixedAt(std::vector<double> timesUs) {
  StreamSpec spec;
  spec.arrival = "fixed";
  spec.timesUs = std::move(timesUs);
  spec.keys = {"times_us"};
  spec.where = "test.yaml:1";
  return spec;
}

StreamSpec poisson(double ratePerSecond, uint64_t seed, int64_t count) {
  StreamSpec spec;
  spec.arrival = "poisson";
  spec.ratePerSecond = ratePerSecond;
  spec.seed = seed;
  spec.count = count;
  spec.keys = {"rate_per_s", "seed", "count"};
  spec.where = "test.yaml:1";
  return spec;
}

StreamSpec closedLoop(int64_t outstanding, int64_t count) {
  StreamSpec spec;
  spec.arrival = "closed_loop";
  spec.outstanding = outstanding;
  spec.count = count;
  spec.keys = {"outstanding", "count"};
  spec.where = "test.yaml:1";
  return spec;
}

Workload streamingWorkload(int lanes, int64_t instances, uint32_t bytesPerInstance) {
  ProgramBuilder builder(lanes, "stream");
  const int64_t perLane = bytesPerInstance / 4 / lanes;
  const int tile = builder.tile("t", {lanes, perLane}, core::DType::Float32, 0, 0);
  builder.add(timing::testing::dmaLoad(tile));
  builder.program.instanceBankStride = perLane * 4; // the second copy right above the first
  Workload workload;
  workload.programs.push_back(std::make_unique<npu::Program>(builder.program));
  Workload::Launch launch;
  launch.name = "stream";
  for (int64_t i = 0; i < instances; ++i) {
    npu::InstanceTrace trace;
    trace.instance = i;
    trace.instructions.push_back(timing::testing::executedDma(
        workload.programs[0]->body[0], static_cast<uint64_t>(i) * bytesPerInstance, bytesPerInstance, false));
    launch.instances.push_back(std::move(trace));
  }
  workload.launches.push_back(std::move(launch));
  workload.dramBytes = static_cast<uint64_t>(instances) * bytesPerInstance;
  return workload;
}

Workload computeWorkload(int lanes, int64_t elementsPerLane) {
  ProgramBuilder builder(lanes, "compute");
  const int tile = builder.tile("t", {lanes, elementsPerLane}, core::DType::Float32, 0, 0);
  builder.add(timing::testing::vector(npu::ElementOp::Math, tile, {tile}, core::MathFn::Exp));
  Workload workload;
  workload.programs.push_back(std::make_unique<npu::Program>(builder.program));
  Workload::Launch launch;
  launch.name = "compute";
  npu::InstanceTrace trace;
  trace.instructions.push_back(timing::testing::executed(workload.programs[0]->body[0]));
  launch.instances.push_back(std::move(trace));
  workload.launches.push_back(std::move(launch));
  return workload;
}

double meanLatencyUs(const PlacementResult &result, int tenant) {
  double sum = 0;
  int64_t count = 0;
  for (const RequestResult &request : result.requests)
    if (request.tenant == tenant) {
      sum += static_cast<double>(request.latency()) / 1.0e6;
      ++count;
    }
  return count > 0 ? sum / static_cast<double>(count) : 0.0;
}

} // namespace npusim::serving::testing
