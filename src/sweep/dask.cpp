// The Dask driver: a Python process this program starts and reads a line per
// finished task from.
#include "sweep/dask.h"

#include "core/error.h"
#include "core/output_file.h"
#include "sweep/processes.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

namespace npusim::sweep {

namespace {

namespace fs = std::filesystem;

} // namespace

void runOnDask(const std::vector<const Task *> &tasks, const std::string &outDir, const std::string &npusim,
               const DaskOptions &options, const TaskDone &onDone) {
  nlohmann::json list = nlohmann::json::array();
  std::map<std::string, std::vector<const Task *>> byKey;
  for (const Task *t : tasks) {
    nlohmann::json entry = {{"key", t->key},
                            {"bundle", t->bundle},
                            {"config", t->config},
                            {"args", runArguments(*t, "@CONFIG@", "@REPORT@")}};
    if (!t->scenario.empty()) {
      entry["scenario"] = t->scenario;
      entry["rate_per_s"] = t->ratePerSecond;
      entry["count"] = t->count;
    }
    list.push_back(std::move(entry));
    byKey[t->key].push_back(t);
  }
  const fs::path taskFile = fs::path(outDir) / "dask-tasks.json",
                 driver = fs::path(outDir) / "dask_driver.py";
  core::writeFileAtomically(taskFile.string(),
                            list.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n",
                            taskFile.string());
  core::writeFileAtomically(driver.string(), daskDriverScript(), driver.string());
  const fs::path log = fs::path(outDir) / "dask.log";
  int output = -1;
  const pid_t child = startChild({options.python, driver.string(), "--tasks", taskFile.string(), "--out",
                                  outDir, "--scheduler", options.scheduler, "--workers",
                                  std::to_string(options.localWorkers), "--npusim", npusim},
                                 log.string(), &output);
  FILE *pipe = ::fdopen(output, "r");
  if (!pipe) {
    ::close(output);
    waitChild(child);
    throw core::InputError("--dask: cannot read from " + options.python);
  }
  size_t finished = 0;
  char line[512];
  while (std::fgets(line, sizeof line, pipe)) {
    std::istringstream words(line);
    std::string event, key, status;
    words >> event >> key;
    std::getline(words >> std::ws, status);
    const auto it = byKey.find(key);
    if ((event != "done" && event != "lost") || it == byKey.end() || it->second.empty())
      continue;
    const Task *task = it->second.back();
    it->second.pop_back();
    // A lost task has no record and shows as pending: a rerun runs it.
    const TaskStatus s = event == "lost" ? TaskStatus{"lost", 1, 0.0, "lost by the cluster: " + status}
                                         : readStatus(outDir, *task).value_or(TaskStatus{status, 0, 0.0, ""});
    onDone(++finished, tasks.size(), *task, s);
  }
  std::fclose(pipe);
  const int status = waitChild(child);
  if (stopSignal() != 0)
    return; // stopped: the tasks not recorded stay pending
  if (status != 0 || finished < tasks.size()) {
    std::ifstream in(log);
    std::string text, last;
    while (std::getline(in, text))
      if (!text.empty())
        last = text;
    throw core::InputError("--dask " + options.scheduler + ": the driver (" + options.python + " " +
                           driver.string() + ") stopped after " + std::to_string(finished) + " of " +
                           std::to_string(tasks.size()) + " tasks" + (last.empty() ? "" : ": " + last) +
                           " (all of it in " + log.string() + ")");
  }
}

} // namespace npusim::sweep
