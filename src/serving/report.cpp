// The serve report (JSON) and the Perfetto trace of every placement.
#include "core/error.h"
#include "core/output_file.h"
#include "core/text_format.h"
#include "serving/serving.h"

#include <nlohmann/json.hpp>

#include <fstream>

namespace npusim::serving {
namespace {

using nlohmann::json;

void writeJson(const json &document, const std::string &path, const char *option) {
  core::writeFileAtomically(path, document.dump(1, ' ', false, json::error_handler_t::replace) + "\n",
                            std::string(option) + " " + path);
}

json placementJson(const Scenario &scenario, const PlacementResult &result) {
  json placement = {{"placement", result.placement}, {"makespan_us", timing::microseconds(result.makespan)}};
  if (!result.policy.empty())
    placement["policy"] = result.policy;
  json tenants = json::array();
  for (const TenantResult &tenant : result.tenants) {
    tenants.push_back({{"name", tenant.name},
                       {"cores", tenant.cores},
                       {"requests", tenant.requests},
                       {"latency_us",
                        {{"mean", tenant.meanUs},
                         {"p50", tenant.p50Us},
                         {"p95", tenant.p95Us},
                         {"p99", tenant.p99Us},
                         {"max", tenant.maxUs}}},
                       {"throughput_per_s", tenant.throughputPerSecond},
                       {"dram_bytes_read", tenant.dramBytesRead},
                       {"dram_bytes_written", tenant.dramBytesWritten},
                       {"dram_gbs", tenant.dramGBs},
                       {"dram_share", tenant.dramShare},
                       {"dram_gbs_in_flight", tenant.dramGBsInFlight},
                       {"dram_share_contended", tenant.dramShareContended},
                       {"dram_gbs_over_time", tenant.bandwidthGBs},
                       {"energy_uj", tenant.energyUj},
                       {"energy_per_request_uj", tenant.energyPerRequestUj}});
    // A language model's only; absent, never zero, for any other tenant.
    if (tenant.energyPerTokenUj)
      tenants.back()["energy_per_token_uj"] = *tenant.energyPerTokenUj;
  }
  placement["tenants"] = tenants;
  placement["energy"] = {{"table", scenario.machine.energy},
                         {"total_uj", result.energy.totalPj() * 1e-6},
                         {"dynamic_uj", result.energy.dynamicTotalPj() * 1e-6},
                         {"static_uj", result.energy.staticTotalPj() * 1e-6},
                         {"average_w", result.energy.averageWatts()},
                         {"unpriced_macs", result.energy.unpricedMacs},
                         {"dram_requests_without_row_statistics", result.energy.requestsWithoutRowStatistics}};
  placement["dram_bucket_us"] = result.bucketUs;
  placement["dram_peak_gbs"] = result.dramPeakGBs;
  const int64_t rowAccesses = result.rowHits + result.rowMisses + result.rowConflicts;
  placement["dram_rows"] = {
      {"hits", result.rowHits},
      {"misses", result.rowMisses},
      {"conflicts", result.rowConflicts},
      {"hit_rate",
       rowAccesses > 0 ? static_cast<double>(result.rowHits) / static_cast<double>(rowAccesses) : 0.0}};
  json cores = json::array();
  for (const CoreResult &core : result.cores) {
    json units = json::object();
    for (size_t k = 0; k < core.unitBusyPercent.size() && k < result.unitNames.size(); ++k)
      units[result.unitNames[k]] = core.unitBusyPercent[k];
    json byTenant = json::object();
    for (size_t t = 0; t < core.tenantBusyPercent.size(); ++t)
      byTenant[scenario.tenants[t].name] = core.tenantBusyPercent[t];
    cores.push_back({{"core", core.core},
                     {"busy_percent", core.busyPercent},
                     {"tenant_busy_percent", byTenant},
                     {"unit_busy_percent", units}});
  }
  placement["cores"] = cores;
  json requests = json::array();
  for (const RequestResult &request : result.requests)
    requests.push_back({{"tenant", scenario.tenants[static_cast<size_t>(request.tenant)].name},
                        {"index", request.index},
                        {"arrival_us", timing::microseconds(request.arrival)},
                        {"start_us", timing::microseconds(request.start)},
                        {"finish_us", timing::microseconds(request.finish)},
                        {"latency_us", timing::microseconds(request.latency())},
                        {"energy_uj", request.energyUj}});
  placement["requests"] = requests;
  return placement;
}

} // namespace

void writeReport(const Scenario &scenario, const std::vector<Workload> &workloads,
                 const std::vector<PlacementResult> &results, const std::string &path) {
  json tenants = json::array();
  for (size_t t = 0; t < scenario.tenants.size(); ++t) {
    const TenantSpec &spec = scenario.tenants[t];
    json tenant = {{"name", spec.name},
                   {"bundle", spec.bundle},
                   {"priority", spec.priority},
                   {"arrival", spec.requests.arrival}};
    if (t < workloads.size()) {
      int64_t instances = 0;
      for (const Workload::Launch &launch : workloads[t].launches)
        instances += static_cast<int64_t>(launch.instances.size());
      tenant["launches"] = workloads[t].launches.size();
      tenant["instances"] = instances;
      tenant["values"] = workloads[t].values;
      if (workloads[t].tokensPerRequest)
        tenant["tokens_per_request"] = *workloads[t].tokensPerRequest;
    }
    tenants.push_back(tenant);
  }
  json placements = json::array();
  for (const PlacementResult &result : results)
    placements.push_back(placementJson(scenario, result));
  const json document = {{"scenario", scenario.path},
                         {"machine", scenario.machine.name},
                         {"cores", scenario.machine.numCores},
                         {"core_queue_depth", scenario.coreQueueDepth},
                         {"tenants", tenants},
                         {"placements", placements}};
  writeJson(document, path, "--report");
}

void writeTrace(const Scenario &scenario, const std::vector<Workload> &workloads,
                const std::vector<PlacementResult> &results, const std::string &path) {
  json events = json::array();
  const int cores = scenario.machine.numCores;
  const auto tenantCount = static_cast<int>(scenario.tenants.size());
  auto meta = [&events](const char *kind, int pid, int tid, const std::string &name) {
    events.push_back({{"ph", "M"}, {"name", kind}, {"pid", pid}, {"tid", tid}, {"args", {{"name", name}}}});
  };
  for (size_t p = 0; p < results.size(); ++p) {
    const PlacementResult &result = results[p];
    const std::string label = result.placement + (result.policy.empty() ? "" : " (" + result.policy + ")");
    // Per placement: one process per core, then one of requests, then DRAM.
    const int base = static_cast<int>(p) * (cores + 2);
    for (int core = 0; core < cores; ++core) {
      meta("process_name", base + core, 0, label + ": core " + std::to_string(core));
      for (int t = 0; t < tenantCount; ++t)
        meta("thread_name", base + core, t, scenario.tenants[static_cast<size_t>(t)].name);
    }
    meta("process_name", base + cores, 0, label + ": requests");
    meta("process_name", base + cores + 1, 0, label + ": DRAM");
    for (const InstanceSpan &span : result.spans) {
      const auto tenant = static_cast<size_t>(span.tenant);
      const std::string kernel = tenant < workloads.size()
                                     ? workloads[tenant].launches[static_cast<size_t>(span.launch)].name
                                     : "launch " + std::to_string(span.launch);
      events.push_back({{"ph", "X"},
                        {"name", kernel},
                        {"pid", base + span.core},
                        {"tid", span.tenant},
                        {"ts", timing::microseconds(span.start)},
                        {"dur", timing::microseconds(span.end - span.start)},
                        {"args",
                         {{"tenant", scenario.tenants[tenant].name},
                          {"request", span.request},
                          {"launch", span.launch},
                          {"instance", span.instance}}}});
    }
    for (int t = 0; t < tenantCount; ++t)
      meta("thread_name", base + cores, t, scenario.tenants[static_cast<size_t>(t)].name);
    for (const RequestResult &request : result.requests) {
      // Requests of one tenant overlap: async events, one id per request.
      const std::string name = scenario.tenants[static_cast<size_t>(request.tenant)].name + " request " +
                               std::to_string(request.index);
      const json id =
          std::to_string(p) + ":" + std::to_string(request.tenant) + ":" + std::to_string(request.index);
      const json args = {{"arrival_us", timing::microseconds(request.arrival)},
                         {"start_us", timing::microseconds(request.start)},
                         {"latency_us", timing::microseconds(request.latency())}};
      events.push_back({{"ph", "b"},
                        {"cat", "request"},
                        {"name", name},
                        {"id", id},
                        {"pid", base + cores},
                        {"tid", request.tenant},
                        {"ts", timing::microseconds(request.arrival)},
                        {"args", args}});
      events.push_back({{"ph", "e"},
                        {"cat", "request"},
                        {"name", name},
                        {"id", id},
                        {"pid", base + cores},
                        {"tid", request.tenant},
                        {"ts", timing::microseconds(request.finish)}});
    }
    for (size_t sample = 0; !result.tenants.empty() && sample < result.tenants[0].bandwidthGBs.size();
         ++sample) {
      json series = json::object();
      for (const TenantResult &tenant : result.tenants)
        series[tenant.name] = tenant.bandwidthGBs[sample];
      events.push_back({{"ph", "C"},
                        {"name", "bandwidth GB/s"},
                        {"pid", base + cores + 1},
                        {"tid", 0},
                        {"ts", static_cast<double>(sample) * result.bucketUs},
                        {"args", series}});
    }
  }
  writeJson(json{{"traceEvents", events}, {"displayTimeUnit", "ns"}}, path, "--trace");
}

} // namespace npusim::serving
