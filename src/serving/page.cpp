// The page of `npusim serve --html`: per placement the tenants' latencies,
// throughput and DRAM shares, the cores' utilisation, and charts of DRAM
// bandwidth and request latency over time, built with the report module's
// page frame and charts (docs/reports.md, "Serve page").
#include "core/text_format.h"
#include "report/html_page.h"
#include "report/run_page.h"
#include "report/svg_chart.h"
#include "serving/serving.h"

#include <algorithm>
#include <cstdio>
#include <string>

namespace npusim::serving {

namespace {

using report::Chart;
using report::Series;
using report::Table;

constexpr double kPsPerUs = 1.0e6;

Table::Cell number(double value, int digits) {
  return Table::number(core::fixedDigits(value, digits), value);
}

std::string streamText(const StreamSpec &stream) {
  if (stream.arrival == "fixed")
    return "fixed, " + std::to_string(stream.timesUs.size()) + " arrivals";
  if (stream.arrival == "poisson")
    return "poisson, " + report::shortNumber(stream.ratePerSecond) + " per s, seed " +
           std::to_string(stream.seed) + ", " + std::to_string(stream.count) + " requests";
  if (stream.arrival == "closed_loop")
    return "closed loop, " + std::to_string(stream.outstanding) + " outstanding, think " +
           report::shortNumber(stream.thinkUs) + " us, " + std::to_string(stream.count) + " requests";
  return stream.arrival;
}

std::string coresText(const std::vector<int> &cores) {
  std::string text;
  for (int core : cores)
    text += (text.empty() ? "" : ",") + std::to_string(core);
  return text.empty() ? "-" : text;
}

void scenarioSection(const Scenario &scenario, const std::vector<Workload> &workloads,
                     report::HtmlPage &page) {
  std::vector<std::pair<std::string, std::string>> lines = {
      {"scenario", scenario.path},
      {"values", scenario.values ? "computed and verified (full mode)" : "cycles only"},
      {"placements", std::to_string(scenario.placements.size())},
      {"core queue depth", std::to_string(scenario.coreQueueDepth)}};
  for (auto &line : report::machineDefinitions(report::machineJson(scenario.machine)))
    lines.push_back(std::move(line));
  page.heading("Scenario and machine");
  page.definitions(lines);
  Table tenants;
  tenants.caption = "The tenants: what one request executes, and the request stream.";
  tenants.headings = {"tenant", "bundle", "priority", "requests", "launches", "instances", "values"};
  for (size_t t = 0; t < scenario.tenants.size(); ++t) {
    const TenantSpec &spec = scenario.tenants[t];
    int64_t instances = 0;
    const Workload *workload = t < workloads.size() ? &workloads[t] : nullptr;
    if (workload)
      for (const Workload::Launch &launch : workload->launches)
        instances += static_cast<int64_t>(launch.instances.size());
    const auto launches = workload ? static_cast<double>(workload->launches.size()) : 0.0;
    tenants.rows.push_back({Table::text(spec.name), Table::text(spec.bundle),
                            Table::number(std::to_string(spec.priority), spec.priority),
                            Table::text(streamText(spec.requests)), number(launches, 0),
                            number(static_cast<double>(instances), 0),
                            Table::text(workload ? workload->values : "-")});
  }
  page.table(tenants);
}

Table tenantTable(const PlacementResult &result) {
  Table table;
  table.caption = "Per tenant; click a heading to sort. GB/s running: its bytes over the time it had a "
                  "request in flight; contended share: of the bytes moved while two tenants or more moved "
                  "bytes.";
  table.headings = {"tenant",   "cores", "requests",  "p50 (us)",     "p95 (us)",   "p99 (us)",
                    "max (us)", "req/s", "DRAM GB/s", "GB/s running", "DRAM share", "contended share"};
  for (const TenantResult &tenant : result.tenants)
    table.rows.push_back(
        {Table::text(tenant.name), Table::text(coresText(tenant.cores)),
         number(static_cast<double>(tenant.requests), 0), number(tenant.p50Us, 3), number(tenant.p95Us, 3),
         number(tenant.p99Us, 3), number(tenant.maxUs, 3), number(tenant.throughputPerSecond, 1),
         number(tenant.dramGBs, 2), number(tenant.dramGBsInFlight, 2),
         Table::number(core::fixedDigits(100.0 * tenant.dramShare, 1) + "%", tenant.dramShare),
         Table::number(core::fixedDigits(100.0 * tenant.dramShareContended, 1) + "%", tenant.dramShareContended)});
  return table;
}

Table coreTable(const PlacementResult &result) {
  Table table;
  table.caption = "Per core: percent of the makespan an instance was on it, in all and per tenant, and per "
                  "unit.";
  table.headings = {"core", "busy"};
  for (const TenantResult &tenant : result.tenants)
    table.headings.push_back(tenant.name);
  for (const std::string &unit : result.unitNames)
    table.headings.push_back(unit);
  const auto percent = [](double value) { return Table::number(core::fixedDigits(value, 1) + "%", value); };
  for (const CoreResult &core : result.cores) {
    std::vector<Table::Cell> row = {Table::number(std::to_string(core.core), core.core),
                                    percent(core.busyPercent)};
    for (size_t t = 0; t < result.tenants.size(); ++t)
      row.push_back(percent(t < core.tenantBusyPercent.size() ? core.tenantBusyPercent[t] : 0.0));
    for (size_t u = 0; u < result.unitNames.size(); ++u)
      row.push_back(percent(u < core.unitBusyPercent.size() ? core.unitBusyPercent[u] : 0.0));
    table.rows.push_back(std::move(row));
  }
  return table;
}

/// One step line per tenant: its GB/s held over each bucket.
Chart bandwidthChart(const PlacementResult &result) {
  Chart chart{"DRAM bandwidth per tenant over time", {"simulated time (us)"}, {"GB/s"}, {}};
  chart.width = 900;
  for (const TenantResult &tenant : result.tenants) {
    Series series{tenant.name, Series::Style::Line, {}, {}};
    for (size_t i = 0; i < tenant.bandwidthGBs.size(); ++i) {
      const double start = static_cast<double>(i) * result.bucketUs;
      series.points.emplace_back(start, tenant.bandwidthGBs[i]);
      series.points.emplace_back(start + result.bucketUs, tenant.bandwidthGBs[i]);
    }
    chart.series.push_back(std::move(series));
  }
  return chart;
}

/// One point per request: its latency at its arrival time.
Chart latencyChart(const PlacementResult &result) {
  Chart chart{"Request latency against arrival time", {"arrival (us)"}, {"latency (us)"}, {}};
  chart.width = 900;
  for (const TenantResult &tenant : result.tenants)
    chart.series.push_back({tenant.name, Series::Style::Points, {}, {}});
  for (const RequestResult &request : result.requests) {
    if (request.tenant < 0 || static_cast<size_t>(request.tenant) >= chart.series.size())
      continue;
    Series &series = chart.series[static_cast<size_t>(request.tenant)];
    const double arrival = static_cast<double>(request.arrival) / kPsPerUs;
    const double latency = static_cast<double>(request.latency()) / kPsPerUs;
    series.points.emplace_back(arrival, latency);
    series.labels.push_back(series.name + " request " + std::to_string(request.index) + ": arrival " +
                            core::fixedDigits(arrival, 3) + " us, start " +
                            core::fixedDigits(static_cast<double>(request.start) / kPsPerUs, 3) + " us, finish " +
                            core::fixedDigits(static_cast<double>(request.finish) / kPsPerUs, 3) + " us, latency " +
                            core::fixedDigits(latency, 3) + " us");
  }
  return chart;
}

/// One point per request: its share of its tenant's energy at its finish time.
Chart energyChart(const PlacementResult &result) {
  Chart chart{"Energy per request over time", {"finish (us)"}, {"energy (uJ)"}, {}};
  chart.width = 900;
  chart.y.min = 0.0; // from zero, so tenants' energies compare by height
  for (const TenantResult &tenant : result.tenants)
    chart.series.push_back({tenant.name, Series::Style::Points, {}, {}});
  double highest = 0.0;
  for (const RequestResult &request : result.requests) {
    if (request.tenant < 0 || static_cast<size_t>(request.tenant) >= chart.series.size())
      continue;
    Series &series = chart.series[static_cast<size_t>(request.tenant)];
    const double finish = static_cast<double>(request.finish) / kPsPerUs;
    series.points.emplace_back(finish, request.energyUj);
    series.labels.push_back(series.name + " request " + std::to_string(request.index) + ": finish " +
                            core::fixedDigits(finish, 3) + " us, energy " + core::fixedDigits(request.energyUj, 3) + " uJ");
    highest = std::max(highest, request.energyUj);
  }
  chart.y.max = highest > 0.0 ? highest * 1.1 : 1.0;
  return chart;
}

void placementSection(const PlacementResult &result, report::HtmlPage &page) {
  page.heading("Placement " + result.placement + (result.policy.empty() ? "" : " (" + result.policy + ")"));
  std::vector<std::pair<std::string, std::string>> lines = {
      {"makespan", core::fixedDigits(static_cast<double>(result.makespan) / kPsPerUs, 3) + " us"},
      {"requests", std::to_string(result.requests.size())},
      {"DRAM peak", core::fixedDigits(result.dramPeakGBs, 1) + " GB/s"}};
  if (const int64_t rows = result.rowHits + result.rowMisses + result.rowConflicts; rows > 0)
    lines.emplace_back("DRAM rows",
                       core::fixedDigits(100.0 * static_cast<double>(result.rowHits) / static_cast<double>(rows), 1) +
                           "% hits, " + std::to_string(result.rowMisses) + " misses, " +
                           std::to_string(result.rowConflicts) + " conflicts");
  std::string perRequest, perToken;
  for (const TenantResult &tenant : result.tenants) {
    perRequest += (perRequest.empty() ? "" : ", ") + tenant.name + " " + core::fixedDigits(tenant.energyPerRequestUj, 3) + " uJ";
    if (tenant.energyPerTokenUj)
      perToken += (perToken.empty() ? "" : ", ") + tenant.name + " " + core::fixedDigits(*tenant.energyPerTokenUj, 6) + " uJ";
  }
  lines.emplace_back("energy", core::fixedDigits(result.energy.totalPj() * 1e-6, 3) + " uJ, " +
                                   core::fixedDigits(result.energy.averageWatts(), 3) + " W average (docs/serving.md, \"Energy\")");
  lines.emplace_back("energy per request", perRequest);
  // Language models only (docs/energy.md, "Energy per token").
  if (!perToken.empty())
    lines.emplace_back("energy per token", perToken);
  page.definitions(lines);
  page.table(tenantTable(result));
  page.table(coreTable(result));
  page.raw(bandwidthChart(result).svg());
  page.paragraph("Each tenant's DRAM bytes of its completed requests per " +
                 report::shortNumber(result.bucketUs) + " us bucket.");
  page.raw(latencyChart(result).svg());
  page.paragraph("One point per request, from arrival to finish; hover a point for its times.");
  page.raw(energyChart(result).svg());
  page.paragraph("One point per request at its finish: its share of its tenant's energy, in proportion to the "
                 "core time its instances held (docs/serving.md, \"Energy\"); hover a point for its numbers.");
}

} // namespace

void writePage(const Scenario &scenario, const std::vector<Workload> &workloads,
               const std::vector<PlacementResult> &results, const std::string &path) {
  report::HtmlPage page("npusim serve: " + scenario.path);
  scenarioSection(scenario, workloads, page);
  for (const PlacementResult &result : results)
    placementSection(result, page);
  page.write(path, "--html " + path);
}

} // namespace npusim::serving
