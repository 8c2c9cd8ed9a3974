// npusim sweep SWEEP.yaml --out DIR: bundles over a grid or a sample of
// machines, locally on every core or on a Dask cluster; docs/sweeps.md.
#include "cli.h"
#include "progress.h"

#include "core/output_file.h"
#include "sweep/dask.h"
#include "sweep/processes.h"
#include "sweep/results.h"
#include "sweep/sweep_file.h"
#include "sweep/tasks.h"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <optional>
#include <ostream>
#include <set>
#include <thread>
#include <unistd.h>

namespace npusim::cli {

const char *const kSweepUsage =
    R"(usage: npusim sweep SWEEP.yaml --out DIR [--jobs N] [--dask ADDRESS|local] [--workers N]
                    [--python PATH] [--retry-failed] [--dry-run] [--quiet]

Runs every bundle of the sweep file on every machine it describes (a grid of key
lists and/or samples of key ranges over a base preset; docs/sweeps.md), one
`npusim run` per (machine, bundle) task, and serves every LLM scenario it names
on every machine at every arrival rate of its `requests:`, one `npusim serve` per
(machine, scenario, rate, count) task. Each task's records go to DIR/tasks/KEY/,
KEY a hash of the resolved machine, the bundle's (or the scenario's and its
bundles') content, the mode (or the rate and count) and npusim's
version: a rerun skips the tasks already finished, and an interrupted sweep loses
only those in flight. A failed task is recorded with its error and the sweep goes
on. At the end DIR/results.csv has one row per task and DIR/report.html the plots.

options:
  --out DIR           the output folder (created; required)
  --jobs N            local tasks at a time, default the machine's cores
  --dask ADDRESS      run the tasks on the Dask cluster of that scheduler
                      (tcp://HOST:8786); 'local' starts a LocalCluster here
  --workers N         LocalCluster workers, default the machine's cores
  --python PATH       the Python with Dask's distributed (default $NPUSIM_PYTHON, else
                      /usr/bin/python3 where it exists, else python3)
  --retry-failed      run the failed tasks again (finished ones are always kept)
  --dry-run           list the tasks and whether each is finished; run nothing
  --quiet             no progress line (it shows only when stderr is a terminal)
  --help              show this help

One sweep at a time may write to DIR. SIGINT, SIGTERM and SIGHUP stop the sweep:
the signal reaches every running task, and results.csv is written for the tasks
finished; a rerun runs the others.

exit status: 0 every task ran; 1 the sweep file is wrong, a task failed (its
error is in results.csv) or another sweep writes to DIR; 2 the command line is
wrong; 128 + the signal when stopped by one.
)";

namespace {

namespace fs = std::filesystem;

constexpr OptionSpec kSweepOptions[] = {
    {"--out", true, false},     {"--jobs", true, false},     {"--dask", true, false},
    {"--workers", true, false}, {"--python", true, false},   {"--retry-failed", false, false},
    {"--quiet", false, false},  {"--dry-run", false, false},
};

int positive(const ParsedOptions &options, const char *name, int fallback) {
  const std::optional<std::string> text = options.get(name);
  if (!text)
    return fallback;
  const std::optional<int64_t> n = parseInteger(*text);
  if (!n || *n < 1 || *n > 4096)
    throw UsageError(std::string(name) + " expects an integer from 1 to 4096, got '" + *text + "'");
  return static_cast<int>(*n);
}

std::string defaultPython() {
  if (const char *p = std::getenv("NPUSIM_PYTHON"); p && *p)
    return p;
  // Debian's python3-distributed is installed for the system interpreter.
  return fs::exists("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
}

/// " KEY=VALUE ..." after a bundle name.
std::string pointText(const sweep::Point &p) {
  return p.empty() ? std::string() : " " + sweep::describe(p);
}

} // namespace

int runSweep(std::span<const std::string> args, std::ostream &out, std::ostream &err) {
  const ParsedOptions options = parseOptions(args, kSweepOptions, "sweep");
  if (options.help) {
    out << kSweepUsage;
    return kExitOk;
  }
  if (options.positionals.size() != 1)
    throw UsageError("sweep takes one sweep file");
  const std::optional<std::string> outDir = options.get("--out");
  if (!outDir)
    throw UsageError("sweep needs --out DIR");
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const int jobs = positive(options, "--jobs", cores);
  const int workers = positive(options, "--workers", cores);
  const std::optional<std::string> dask = options.get("--dask");
  if (dask && options.has("--jobs"))
    throw UsageError("--jobs is for local runs; with --dask the cluster's workers run the tasks");
  if (!dask && (options.has("--workers") || options.has("--python")))
    throw UsageError("--workers and --python need --dask");
  if (options.has("--workers") && *dask != "local")
    throw UsageError("--workers is for --dask local; a cluster has the workers it was started with");
  const std::string &file = options.positionals.front();
  try {
    const sweep::SweepFile sweepFile = sweep::loadSweepFile(file);
    const std::vector<sweep::Point> points = sweep::expandPoints(sweepFile);
    const std::vector<sweep::Task> tasks = sweep::makeTasks(sweepFile, points, std::string(kVersion));
    const std::vector<std::string> keys = sweep::variedKeys(sweepFile);
    core::checkOutputDirectory(*outDir, "--out " + *outDir);
    fs::create_directories(*outDir);
    // One sweep at a time per folder: a second one would run the same tasks.
    const std::optional<sweep::OutputLock> lock =
        options.has("--dry-run") ? std::nullopt : std::make_optional<sweep::OutputLock>(*outDir);
    std::vector<const sweep::Task *> todo;
    std::set<std::string> queued;
    size_t finished = 0;
    for (const sweep::Task &t : tasks) {
      const std::optional<sweep::TaskStatus> s = sweep::readStatus(*outDir, t);
      const bool done = s && (s->status == "ok" || !options.has("--retry-failed"));
      finished += done;
      if (options.has("--dry-run"))
        out << t.key << " " << (done ? s->status : std::string("to run")) << " "
            << (t.scenario.empty() ? t.bundle
                                   : t.scenario + " rate_per_s=" + sweep::rateText(t.ratePerSecond) +
                                         " count=" + std::to_string(t.count))
            << pointText(points[t.point]) << "\n";
      if (!done && queued.insert(t.key).second)
        todo.push_back(&t);
    }
    if (options.has("--dry-run"))
      return kExitOk;
    // Per machine: each bundle, and each scenario at each (rate, count).
    const size_t scenarioRuns = sweepFile.scenarios.size() * std::max<size_t>(sweepFile.rates.size(), 1) *
                                std::max<size_t>(sweepFile.counts.size(), 1);
    const std::string perMachine = scenarioRuns == 0 ? std::to_string(sweepFile.bundles.size()) + " bundles"
                                   : sweepFile.bundles.empty()
                                       ? std::to_string(scenarioRuns) + " scenario runs"
                                       : "(" + std::to_string(sweepFile.bundles.size()) + " bundles + " +
                                             std::to_string(scenarioRuns) + " scenario runs)";
    out << "sweep " << file << ": " << tasks.size() << " tasks (" << points.size() << " machines x "
        << perMachine << "), " << finished << " finished before, " << todo.size() << " to run "
        << (dask ? "on Dask (" + *dask + ")" : "on " + std::to_string(jobs) + " local jobs") << "\n"
        << std::flush;
    const std::string npusim = fs::read_symlink("/proc/self/exe").string();
    const std::string csvPath = (fs::path(*outDir) / "results.csv").string(),
                      pagePath = (fs::path(*outDir) / "report.html").string();
    // results.csv and report.html for every task finished so far: rewritten
    // as tasks end (at most every few seconds) and at every exit but a kill -9.
    const auto writeResults = [&] {
      const std::vector<sweep::ResultRow> rows = sweep::collectResults(tasks, points, *outDir);
      core::writeFileAtomically(csvPath, sweep::resultsCsv(keys, rows), csvPath);
      sweep::sweepPage("npusim sweep: " + file, keys, rows).write(pagePath, pagePath);
      return rows;
    };
    auto lastWrite = std::chrono::steady_clock::now();
    double writeSeconds = 0.0;
    ProgressLine progress(err, !options.has("--quiet"));
    size_t failedNow = 0;
    const sweep::TaskDone onDone = [&](size_t done, size_t total, const sweep::Task &t,
                                       const sweep::TaskStatus &s) {
      failedNow += s.status != "ok";
      progress.update(done, total, sweep::taskLabel(t) + pointText(points[t.point]) + " " + s.status);
      const auto now = std::chrono::steady_clock::now();
      if (std::chrono::duration<double>(now - lastWrite).count() < std::max(2.0, 10.0 * writeSeconds))
        return;
      try {
        writeResults();
      } catch (const std::exception &) {
        // Written again at the end, where an error is reported.
      }
      lastWrite = std::chrono::steady_clock::now();
      writeSeconds = std::chrono::duration<double>(lastWrite - now).count();
    };
    sweep::stopOnSignals();
    const auto start = std::chrono::steady_clock::now();
    std::string runError;
    try {
      if (!todo.empty()) {
        if (dask)
          sweep::runOnDask(todo, *outDir, npusim,
                           {*dask, options.has("--workers") ? workers : 0,
                            options.get("--python").value_or(defaultPython())},
                           onDone);
        else
          sweep::runLocally(todo, *outDir, npusim, jobs, onDone);
      }
    } catch (const std::exception &e) {
      runError = e.what();
    }
    progress.clear();
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const std::vector<sweep::ResultRow> rows = writeResults();
    size_t failed = 0, pending = 0;
    for (const sweep::ResultRow &r : rows) {
      failed += r.status == "failed";
      pending += r.status != "ok" && r.status != "failed";
    }
    if (const int signal = sweep::stopSignal()) {
      err << "npusim sweep: stopped by " << strsignal(signal) << ": " << rows.size() - pending << " of "
          << rows.size() << " tasks finished (" << csvPath
          << "); run the same command again to run the other " << pending << "\n";
      return 128 + signal;
    }
    if (!runError.empty()) {
      err << "npusim sweep: error: " << runError << "\n";
      return kExitError;
    }
    out << "ran " << todo.size() << " tasks in " << durationText(wall) << " (" << failedNow << " failed); "
        << rows.size() - failed - pending << " of " << rows.size() << " tasks ok: " << csvPath << ", "
        << pagePath << "\n";
    for (const sweep::ResultRow &r : rows) {
      const std::string rate = r.ratePerSecond ? " rate_per_s=" + sweep::rateText(*r.ratePerSecond) : "";
      const std::string task =
          "npusim sweep: task " + r.key + " (" + r.model + rate + pointText(r.point) + ")";
      if (r.status == "failed")
        err << task << " failed: " << r.error << "\n";
      else if (r.status != "ok")
        err << task << " has no result (the cluster lost it): run the same command again to run it\n";
    }
    return failed + pending == 0 ? kExitOk : kExitError;
  } catch (const std::exception &e) {
    err << "npusim sweep: error: " << e.what() << "\n";
  }
  return kExitError;
}

} // namespace npusim::cli
