// One placement of a scenario on one timing simulation of the machine:
// arrivals, the launches of each request one after another, and the
// placement's policy filling each core's queue with instances.
#include "core/error.h"
#include "core/host_memory.h"
#include "serving/policies.h"
#include "serving/serving.h"
#include "machine/unit_costs.h"
#include "timing/shared_machine.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <map>

namespace npusim::serving {
namespace {

/// Tenants' DRAM regions start on a multiple of this (many rows, and a
/// multiple of every request size).
constexpr uint64_t kRegionAlignment = uint64_t{1} << 20;

struct Request {
  int tenant = 0;
  int64_t index = 0;  // within the tenant
  int64_t global = 0; // over all tenants, in arrival order
  TimePs arrival = 0, start = -1, finish = -1;
  size_t launch = 0;        // the launch running
  size_t nextInstance = 0;  // its first instance not yet on a core
  size_t instancesLeft = 0; // its instances not yet completed
};

struct Tenant {
  const Workload *work = nullptr;
  std::vector<int> cores;
  std::vector<bool> onCore; // by core
  int priority = 0;
  std::unique_ptr<RequestStream> stream;
  std::deque<size_t> active; // requests arrived and not finished, in arrival order
  std::vector<int> programs; // the machine's program ids, by workload program
  uint64_t addressBase = 0;
  int64_t arrived = 0;
};

/// Length of the union of [start, end) intervals.
TimePs unionLength(std::vector<std::pair<TimePs, TimePs>> intervals) {
  std::sort(intervals.begin(), intervals.end());
  TimePs length = 0, covered = 0;
  for (const auto &[from, to] : intervals) {
    length += std::max<TimePs>(0, to - std::max(from, covered));
    covered = std::max(covered, to);
  }
  return length;
}

/// Each request's share of its tenant's energy: its instances' core time (per
/// core, the union of its spans, added over the cores) over the sum of its
/// tenant's requests' core times, so a tenant's requests add up to its energy.
void chargeRequests(int cores, PlacementResult &out) {
  std::map<std::pair<int, int64_t>, std::vector<std::vector<std::pair<TimePs, TimePs>>>> spansOf;
  for (const InstanceSpan &span : out.spans) {
    auto &byCore = spansOf[{span.tenant, span.request}];
    byCore.resize(static_cast<size_t>(cores));
    byCore[static_cast<size_t>(span.core)].emplace_back(span.start, span.end);
  }
  std::map<std::pair<int, int64_t>, double> requestTime;
  std::vector<double> tenantRequestTime(out.tenants.size(), 0.0);
  for (const auto &[key, byCore] : spansOf) {
    double time = 0.0;
    for (const auto &intervals : byCore)
      time += static_cast<double>(unionLength(intervals));
    requestTime[key] = time;
    tenantRequestTime[static_cast<size_t>(key.first)] += time;
  }
  for (RequestResult &request : out.requests) {
    const auto t = static_cast<size_t>(request.tenant);
    const auto found = requestTime.find({request.tenant, request.index});
    if (found != requestTime.end() && tenantRequestTime[t] > 0.0)
      request.energyUj = out.tenants[t].energyUj * found->second / tenantRequestTime[t];
  }
}

class Server {
public:
  Server(const Scenario &scenario, const PlacementSpec &placement,
         const std::vector<const Workload *> &workloads)
      : scenario_(scenario), machine_(scenario.machine), energyTable_(energy::loadTable(scenario.machine.energy)),
        inFlight_(static_cast<size_t>(scenario.machine.numCores), 0) {
    if (workloads.size() != scenario.tenants.size())
      throw core::RuntimeError("serving: " + std::to_string(workloads.size()) + " workloads for " +
                               std::to_string(scenario.tenants.size()) + " tenants");
    ResolvedPlacement place = resolvePlacement(scenario, placement);
    const std::vector<std::vector<int>> &cores = place.cores;
    policy_ = std::move(place.policy);
    result_.placement = placement.name;
    result_.policy = place.shared ? place.policyName : "";
    uint64_t nextBase = 0;
    for (size_t t = 0; t < workloads.size(); ++t) {
      Tenant tenant;
      tenant.work = workloads[t];
      tenant.cores = cores[t];
      tenant.onCore.assign(static_cast<size_t>(scenario.machine.numCores), false);
      for (int core : tenant.cores)
        tenant.onCore[static_cast<size_t>(core)] = true;
      tenant.priority = scenario.tenants[t].priority;
      tenant.stream =
          makeNamed<RequestStreams>(scenario.tenants[t].requests.where, "arrival",
                                    scenario.tenants[t].requests.arrival, scenario.tenants[t].requests);
      for (const auto &program : tenant.work->programs)
        tenant.programs.push_back(machine_.addProgram(*program));
      tenant.addressBase = nextBase;
      nextBase += (tenant.work->dramBytes + kRegionAlignment - 1) / kRegionAlignment * kRegionAlignment +
                  kRegionAlignment;
      tenants_.push_back(std::move(tenant));
    }
  }

  PlacementResult run() {
    for (size_t t = 0; t < tenants_.size(); ++t)
      for (TimePs at : tenants_[t].stream->initialArrivals())
        machine_.at(at, [this, t] { arrive(t); });
    machine_.run();
    return finishResult();
  }

private:
  void arrive(size_t t) {
    Tenant &tenant = tenants_[t];
    Request request;
    request.tenant = static_cast<int>(t);
    request.index = tenant.arrived++;
    request.global = static_cast<int64_t>(requests_.size());
    request.arrival = machine_.now();
    requests_.push_back(request);
    const size_t id = requests_.size() - 1;
    if (beginLaunch(requests_[id], 0))
      tenant.active.push_back(id);
    else
      finishRequest(id);
    fillCores();
  }

  /// Moves the request to its first launch from `launch` on that has
  /// instances; false when none is left.
  bool beginLaunch(Request &request, size_t launch) {
    const auto &launches = tenants_[static_cast<size_t>(request.tenant)].work->launches;
    while (launch < launches.size() && launches[launch].instances.empty())
      ++launch;
    request.launch = launch;
    request.nextInstance = 0;
    request.instancesLeft = launch < launches.size() ? launches[launch].instances.size() : 0;
    return launch < launches.size();
  }

  /// The oldest request of the tenant with an instance not yet on a core.
  std::optional<size_t> readyRequest(const Tenant &tenant) const {
    for (size_t id : tenant.active) {
      const Request &request = requests_[id];
      if (request.nextInstance < tenant.work->launches[request.launch].instances.size())
        return id;
    }
    return std::nullopt;
  }

  /// Passes over the cores, each giving every core with room at most one
  /// instance, until a pass gives none: the instances of a launch spread over
  /// its tenant's cores as instance i goes to core i % cores in
  /// Simulator::timeLaunch.
  void fillCores() {
    std::vector<Candidate> candidates;
    std::vector<size_t> requestOf;
    for (bool gave = true; gave;) {
      gave = false;
      for (int core = 0; core < scenario_.machine.numCores; ++core) {
        if (inFlight_[static_cast<size_t>(core)] >= scenario_.coreQueueDepth)
          continue;
        candidates.clear();
        requestOf.clear();
        for (size_t t = 0; t < tenants_.size(); ++t) {
          if (!tenants_[t].onCore[static_cast<size_t>(core)])
            continue;
          if (const std::optional<size_t> id = readyRequest(tenants_[t])) {
            const Request &request = requests_[*id];
            candidates.push_back(
                Candidate{static_cast<int>(t), tenants_[t].priority, request.arrival, request.global});
            requestOf.push_back(*id);
          }
        }
        if (candidates.empty())
          continue;
        const size_t chosen = policy_->pick(core, candidates);
        if (chosen >= candidates.size())
          throw core::RuntimeError("serving: policy '" + result_.policy + "' chose candidate " +
                                   std::to_string(chosen) + " of " + std::to_string(candidates.size()));
        submit(requestOf[chosen], core);
        gave = true;
      }
    }
  }

  void submit(size_t id, int core) {
    Request &request = requests_[id];
    Tenant &tenant = tenants_[static_cast<size_t>(request.tenant)];
    const Workload::Launch &launch = tenant.work->launches[request.launch];
    const size_t instance = request.nextInstance++;
    const int launchIndex = static_cast<int>(request.launch);
    ++inFlight_[static_cast<size_t>(core)];
    machine_.submit(tenant.programs[static_cast<size_t>(launch.program)], core, launch.instances[instance],
                    request.tenant, tenant.addressBase,
                    [this, id, core, launchIndex, instance](TimePs s, TimePs e) {
                      // Bookkeeping after the core's own completion work, at the same time.
                      machine_.at(machine_.now(), [this, id, core, launchIndex, instance, s, e] {
                        instanceDone(id, core, launchIndex, instance, s, e);
                      });
                    });
  }

  void instanceDone(size_t id, int core, int launch, size_t instance, TimePs start, TimePs end) {
    --inFlight_[static_cast<size_t>(core)];
    Request &request = requests_[id];
    const Tenant &tenant = tenants_[static_cast<size_t>(request.tenant)];
    result_.spans.push_back(InstanceSpan{
        request.tenant, core, request.index, launch,
        tenant.work->launches[static_cast<size_t>(launch)].instances[instance].instance, start, end});
    if (request.start < 0 || start < request.start)
      request.start = start;
    if (--request.instancesLeft == 0 &&
        request.nextInstance == tenant.work->launches[request.launch].instances.size() &&
        !beginLaunch(request, request.launch + 1))
      finishRequest(id);
    fillCores();
  }

  void finishRequest(size_t id) {
    Request &request = requests_[id];
    Tenant &tenant = tenants_[static_cast<size_t>(request.tenant)];
    request.finish = machine_.now();
    if (request.start < 0)
      request.start = request.finish;
    tenant.active.erase(std::remove(tenant.active.begin(), tenant.active.end(), id), tenant.active.end());
    const size_t t = static_cast<size_t>(request.tenant);
    if (const std::optional<TimePs> next = tenant.stream->afterCompletion(machine_.now()))
      machine_.at(*next, [this, t] { arrive(t); });
  }

  PlacementResult finishResult();
  void priceEnergy(const timing::MemoryStats &memory, PlacementResult &out) const;

  const Scenario &scenario_;
  timing::SharedMachine machine_;
  energy::Table energyTable_;
  std::unique_ptr<SchedulingPolicy> policy_;
  std::vector<Tenant> tenants_;
  std::vector<Request> requests_;
  std::vector<int> inFlight_; // by core
  PlacementResult result_;
};

/// The whole machine over the makespan as one launch (its cores' counts and
/// busy time, the DRAM's statistics), priced; each tenant gets the share of
/// it that its instances' core time is of all tenants' (docs/serving.md, "Energy").
void Server::priceEnergy(const timing::MemoryStats &memory, PlacementResult &out) const {
  timing::LaunchTiming whole;
  whole.timePs = out.makespan;
  const int cores = scenario_.machine.numCores;
  const auto makespan = static_cast<double>(std::max<TimePs>(1, out.makespan));
  for (int core = 0; core < cores; ++core) {
    const timing::CoreStats stats = machine_.coreStats(core);
    whole.activity.add(stats.activity);
    for (size_t kind = 0; kind < stats.busyPs.size(); ++kind)
      whole.busyPercent[kind] += 100.0 * static_cast<double>(stats.busyPs[kind]) / makespan / cores;
  }
  whole.memory = memory;
  out.energy = energy::estimate(whole, scenario_.machine, energyTable_);
  std::vector<double> coreTime(out.tenants.size(), 0.0);
  double allCoreTime = 0.0;
  for (const CoreResult &core : out.cores)
    for (size_t t = 0; t < core.tenantBusyPercent.size() && t < coreTime.size(); ++t) {
      coreTime[t] += core.tenantBusyPercent[t];
      allCoreTime += core.tenantBusyPercent[t];
    }
  for (size_t t = 0; t < out.tenants.size(); ++t) {
    TenantResult &tenant = out.tenants[t];
    tenant.energyUj = allCoreTime > 0.0 ? out.energy.totalPj() * 1e-6 * coreTime[t] / allCoreTime : 0.0;
    tenant.energyPerRequestUj = tenant.requests > 0 ? tenant.energyUj / static_cast<double>(tenant.requests) : 0.0;
    if (const std::optional<int64_t> tokens = tenants_[t].work->tokensPerRequest; tokens && tenant.requests > 0)
      tenant.energyPerTokenUj = tenant.energyPerRequestUj / static_cast<double>(*tokens);
  }
  chargeRequests(cores, out);
}

PlacementResult Server::finishResult() {
  PlacementResult &out = result_;
  for (const Request &request : requests_) {
    if (request.finish < 0)
      throw core::RuntimeError("serving: request " + std::to_string(request.index) + " of tenant " +
                               scenario_.tenants[static_cast<size_t>(request.tenant)].name +
                               " never finished");
    out.requests.push_back(
        RequestResult{request.tenant, request.index, request.arrival, request.start, request.finish});
    out.makespan = std::max(out.makespan, request.finish);
  }
  // About a thousand samples over the run, each a whole number of the machine's buckets.
  const int64_t machineBucketsPerSample =
      std::max<int64_t>(1, (out.makespan / timing::SharedMachine::kBucketPs + 999) / 1000);
  out.bucketUs = static_cast<double>(machineBucketsPerSample * timing::SharedMachine::kBucketPs) / 1.0e6;
  const auto samples =
      static_cast<size_t>((out.makespan + machineBucketsPerSample * timing::SharedMachine::kBucketPs - 1) /
                          (machineBucketsPerSample * timing::SharedMachine::kBucketPs));
  out.dramPeakGBs = scenario_.machine.dram.peakBytesPerSecond() / 1.0e9;
  int64_t allBytes = 0;
  for (size_t t = 0; t < tenants_.size(); ++t)
    allBytes += machine_.bytesRead(static_cast<int>(t)) + machine_.bytesWritten(static_cast<int>(t));

  // Buckets in which two tenants or more moved bytes.
  std::map<int64_t, std::vector<int64_t>> byBucket;
  for (size_t t = 0; t < tenants_.size(); ++t)
    for (const auto &[bucket, bucketBytes] : machine_.bytesOverTime(static_cast<int>(t))) {
      std::vector<int64_t> &row = byBucket[bucket];
      row.resize(tenants_.size(), 0);
      row[t] += bucketBytes;
    }
  std::vector<int64_t> contendedOf(tenants_.size(), 0);
  int64_t contendedBytes = 0;
  for (const auto &[bucket, row] : byBucket)
    if (std::count_if(row.begin(), row.end(), [](int64_t b) { return b > 0; }) >= 2)
      for (size_t t = 0; t < row.size(); ++t) {
        contendedOf[t] += row[t];
        contendedBytes += row[t];
      }

  for (size_t t = 0; t < tenants_.size(); ++t) {
    TenantResult tenant;
    tenant.name = scenario_.tenants[t].name;
    tenant.cores = tenants_[t].cores;
    std::vector<double> latencies;
    TimePs first = -1, last = 0;
    for (const RequestResult &request : out.requests)
      if (request.tenant == static_cast<int>(t)) {
        latencies.push_back(static_cast<double>(request.latency()) / 1.0e6);
        first = first < 0 ? request.arrival : std::min(first, request.arrival);
        last = std::max(last, request.finish);
      }
    std::sort(latencies.begin(), latencies.end());
    tenant.requests = static_cast<int64_t>(latencies.size());
    if (!latencies.empty()) {
      double sum = 0;
      for (double l : latencies)
        sum += l;
      tenant.meanUs = sum / static_cast<double>(latencies.size());
      tenant.p50Us = percentile(latencies, 0.50);
      tenant.p95Us = percentile(latencies, 0.95);
      tenant.p99Us = percentile(latencies, 0.99);
      tenant.maxUs = latencies.back();
      if (last > first)
        tenant.throughputPerSecond =
            static_cast<double>(latencies.size()) / (static_cast<double>(last - first) / 1.0e12);
    }
    tenant.dramBytesRead = machine_.bytesRead(static_cast<int>(t));
    tenant.dramBytesWritten = machine_.bytesWritten(static_cast<int>(t));
    const auto bytes = static_cast<double>(tenant.dramBytesRead + tenant.dramBytesWritten);
    if (out.makespan > 0)
      tenant.dramGBs = bytes / static_cast<double>(out.makespan) * 1.0e3; // bytes per ns
    if (allBytes > 0)
      tenant.dramShare = bytes / static_cast<double>(allBytes);
    std::vector<std::pair<TimePs, TimePs>> inFlight;
    for (const RequestResult &request : out.requests)
      if (request.tenant == static_cast<int>(t))
        inFlight.emplace_back(request.start, request.finish);
    if (const TimePs span = unionLength(inFlight); span > 0)
      tenant.dramGBsInFlight = bytes / static_cast<double>(span) * 1.0e3;
    if (contendedBytes > 0)
      tenant.dramShareContended = static_cast<double>(contendedOf[t]) / static_cast<double>(contendedBytes);
    tenant.bandwidthGBs.assign(samples, 0.0);
    for (const auto &[bucket, bucketBytes] : machine_.bytesOverTime(static_cast<int>(t))) {
      const auto sample = static_cast<size_t>(bucket / machineBucketsPerSample);
      if (sample < samples)
        tenant.bandwidthGBs[sample] +=
            static_cast<double>(bucketBytes) / (out.bucketUs * 1.0e3); // bytes/ns = GB/s
    }
    out.tenants.push_back(std::move(tenant));
  }

  for (int core = 0; core < scenario_.machine.numCores; ++core) {
    CoreResult result;
    result.core = core;
    std::vector<std::pair<TimePs, TimePs>> all;
    std::vector<std::vector<std::pair<TimePs, TimePs>>> byTenant(tenants_.size());
    for (const InstanceSpan &span : out.spans)
      if (span.core == core) {
        all.emplace_back(span.start, span.end);
        byTenant[static_cast<size_t>(span.tenant)].emplace_back(span.start, span.end);
      }
    const auto makespan = static_cast<double>(std::max<TimePs>(1, out.makespan));
    result.busyPercent = 100.0 * static_cast<double>(unionLength(all)) / makespan;
    for (auto &intervals : byTenant)
      result.tenantBusyPercent.push_back(100.0 * static_cast<double>(unionLength(intervals)) / makespan);
    const timing::CoreStats stats = machine_.coreStats(core);
    for (TimePs busy : stats.busyPs)
      result.unitBusyPercent.push_back(100.0 * static_cast<double>(busy) / makespan);
    out.cores.push_back(std::move(result));
  }
  const timing::MemoryStats memory = machine_.memoryStats();
  priceEnergy(memory, out);
  out.rowHits = memory.rowHits;
  out.rowMisses = memory.rowMisses;
  out.rowConflicts = memory.rowConflicts;
  for (int kind = 0; kind < timing::kNumUnitKinds; ++kind)
    out.unitNames.emplace_back(timing::unitKindName(static_cast<timing::UnitKind>(kind)));
  std::stable_sort(out.spans.begin(), out.spans.end(),
                   [](const InstanceSpan &a, const InstanceSpan &b) { return a.start < b.start; });
  return out;
}

} // namespace

double percentile(std::vector<double> sorted, double fraction) {
  if (sorted.empty())
    return 0.0;
  std::sort(sorted.begin(), sorted.end());
  const auto rank = static_cast<size_t>(std::ceil(fraction * static_cast<double>(sorted.size())));
  return sorted[std::min(sorted.size(), std::max<size_t>(rank, 1)) - 1];
}

namespace {

/// Throws naming the tenant's request count when its requests' instructions
/// would not fit in the memory: better than std::bad_alloc after minutes.
void checkMemory(const Scenario &scenario, const std::vector<const Workload *> &workloads) {
  const uint64_t available = core::hostMemoryBytes();
  uint64_t total = 0;
  for (size_t t = 0; t < workloads.size() && t < scenario.tenants.size(); ++t) {
    uint64_t perRequest = 0;
    for (const Workload::Launch &launch : workloads[t]->launches)
      for (const npu::InstanceTrace &instance : launch.instances)
        perRequest += instance.instructions.size() + 1;
    const StreamSpec &stream = scenario.tenants[t].requests;
    const bool fixed = stream.arrival == "fixed";
    const auto requests =
        static_cast<uint64_t>(fixed ? static_cast<int64_t>(stream.timesUs.size()) : stream.count);
    const uint64_t bytes = requests * perRequest * timing::kBytesPerTimedInstruction;
    total += bytes;
    if (total > available / 2)
      throw core::InputError(stream.at(fixed ? "times_us" : "count") + ": " + std::to_string(requests) +
                             " requests of tenant '" + scenario.tenants[t].name + "', " +
                             std::to_string(perRequest) + " instructions each, take about " +
                             core::bytesText(bytes) + " to simulate (all tenants: " + core::bytesText(total) +
                             "), more than half of the " + core::bytesText(available) +
                             " of memory this process may use");
  }
}

} // namespace

PlacementResult simulate(const Scenario &scenario, const PlacementSpec &placement,
                         const std::vector<const Workload *> &workloads) {
  checkMemory(scenario, workloads);
  Server server(scenario, placement, workloads);
  return server.run();
}

} // namespace npusim::serving
