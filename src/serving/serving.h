#pragma once
// Serving several models on one NPU (docs/serving.md): each tenant's bundle is
// run once on the functional simulator to record what one request executes
// (its launches and their instance traces), then every placement of the
// scenario is simulated on one timing simulation of the whole machine
// (timing::SharedMachine): requests arrive as their streams say, their
// launches run one after another, and their instances share the NoC, the DRAM
// and, when the placement shares cores, the cores.
#include "config/hardware.h"
#include "energy/energy.h"
#include "npu/execution.h"
#include "serving/scenario.h"
#include "timing/event_queue.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace npusim::serving {

using timing::TimePs;

/// What one request of a tenant executes: its NPU launches in order.
struct Workload {
  struct Launch {
    int program = 0; // index into programs
    std::string name;
    std::vector<npu::InstanceTrace> instances;
  };
  std::vector<std::unique_ptr<npu::Program>> programs;
  std::vector<Launch> launches;
  /// One past the highest DRAM byte any launch touches: the tenant's region.
  uint64_t dramBytes = 0;
  /// "verified" (values computed and checked against the reference), or
  /// "cycles only"; a failed run throws instead.
  std::string values = "cycles only";
  /// The tokens one request processes when the bundle is a language model
  /// (runtime/tokens.h, docs/energy.md "Energy per token"); absent otherwise.
  std::optional<int64_t> tokensPerRequest;
};

/// Runs the bundle on the machine in timing mode (`values`: full mode with
/// verification) and records its launches. Throws core::InputError or
/// core::RuntimeError naming the bundle when it cannot be loaded, fails or
/// diverges.
/// `onStep` (a progress line) is called before each step of the bundle.
Workload
captureBundle(const std::string &bundleDir, const config::HardwareConfig &machine, bool values,
              const std::function<void(size_t step, size_t steps, const std::string &name)> &onStep = {});

struct RequestResult {
  int tenant = 0;
  int64_t index = 0; // within the tenant, in arrival order
  TimePs arrival = 0, start = 0, finish = 0;
  /// Its share of its tenant's energy: in proportion to the core time its
  /// instances held (docs/serving.md, "Energy").
  double energyUj = 0;
  TimePs latency() const { return finish - arrival; }
};

struct TenantResult {
  std::string name;
  std::vector<int> cores;
  int64_t requests = 0;
  double meanUs = 0, p50Us = 0, p95Us = 0, p99Us = 0, maxUs = 0;
  /// Requests over the span from the first arrival to the last finish.
  double throughputPerSecond = 0;
  int64_t dramBytesRead = 0, dramBytesWritten = 0;
  /// The tenant's DRAM bytes over the run's makespan, and its share of all
  /// DRAM bytes.
  double dramGBs = 0, dramShare = 0;
  /// Its bytes over the time it had a request in flight (the union of its
  /// requests' [start, finish]): the bandwidth it got while it ran.
  double dramGBsInFlight = 0;
  /// Its share of the bytes of the 1 us buckets in which two tenants or more
  /// moved bytes (0 when there is none): how the DRAM splits under contention.
  double dramShareContended = 0;
  /// DRAM GB/s of the tenant's completed requests per bucketUs bucket.
  std::vector<double> bandwidthGBs;
  /// The placement's energy attributed to the tenant in proportion to the
  /// core time its instances held (docs/serving.md, "Energy"), and that over
  /// its requests.
  double energyUj = 0, energyPerRequestUj = 0;
  /// A language model's energy per request over the tokens one request
  /// processes (Workload::tokensPerRequest); absent for any other tenant.
  std::optional<double> energyPerTokenUj;
};

struct CoreResult {
  int core = 0;
  /// Percent of the makespan during which an instance was on the core (from
  /// its first instruction's start to its last one's completion).
  double busyPercent = 0;
  /// Percent of the makespan each tenant had an instance on the core.
  std::vector<double> tenantBusyPercent;
  /// Per unit kind (timing::UnitKind order, names in unitNames).
  std::vector<double> unitBusyPercent;
};

/// One instance of one launch of one request on a core, for traces.
struct InstanceSpan {
  int tenant = 0, core = 0;
  int64_t request = 0; // within the tenant
  int launch = 0;
  int64_t instance = 0;
  TimePs start = 0, end = 0;
};

struct PlacementResult {
  std::string placement, policy;
  TimePs makespan = 0;
  std::vector<RequestResult> requests; // in arrival order
  std::vector<TenantResult> tenants;
  std::vector<CoreResult> cores;
  std::vector<InstanceSpan> spans;
  double bucketUs = 1.0;
  std::vector<std::string> unitNames;
  double dramPeakGBs = 0;
  /// The DRAM's row statistics over all tenants (detailed model only): where
  /// tenants' rows conflict in shared banks.
  int64_t rowHits = 0, rowMisses = 0, rowConflicts = 0;
  /// The whole machine's energy over the makespan (docs/energy.md), priced by
  /// the machine's energy table.
  energy::Energy energy;
};

/// Simulates one placement of the scenario with the tenants' workloads (in
/// scenario tenant order), from an idle machine.
PlacementResult simulate(const Scenario &scenario, const PlacementSpec &placement,
                         const std::vector<const Workload *> &workloads);

/// The JSON report of every placement (docs/serving.md, "Report"); throws
/// core::InputError naming the file when it cannot be written.
void writeReport(const Scenario &scenario, const std::vector<Workload> &workloads,
                 const std::vector<PlacementResult> &results, const std::string &path);
/// The Perfetto trace: per placement and core a process, one track per
/// tenant, one event per instance (named by its launch's kernel); per tenant
/// a track of its requests and a DRAM bandwidth counter.
void writeTrace(const Scenario &scenario, const std::vector<Workload> &workloads,
                const std::vector<PlacementResult> &results, const std::string &path);

/// The self-contained HTML page of every placement (docs/reports.md, "Serve
/// page"); throws core::InputError naming the file when it cannot be written.
void writePage(const Scenario &scenario, const std::vector<Workload> &workloads,
               const std::vector<PlacementResult> &results, const std::string &path);

/// The value below which `fraction` of the sorted values lie (nearest rank:
/// the ceil(fraction x n)-th smallest).
double percentile(std::vector<double> sorted, double fraction);

} // namespace npusim::serving
