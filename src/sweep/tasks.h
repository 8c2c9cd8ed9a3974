#pragma once
// The tasks of a sweep, one per (machine, bundle) and one per (machine, LLM
// scenario, rate, request count), and their records under the
// output folder: DIR/tasks/KEY/{config.yaml, report.json, log.txt, status.json}.
// A task is finished when its status.json exists (written last, by rename), so
// a rerun skips it and an interrupted sweep loses only the tasks in flight.
#include "sweep/sweep_file.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace npusim::sweep {

struct Task {
  /// 16 hex digits: FNV-1a of npusim's version, the mode, the resolved
  /// configuration (every key, as `npusim presets FILE` prints it) and the
  /// bundle's content; for a scenario task, of the version, the
  /// configuration, the scenario file's content, its bundles' content, the
  /// rate and the request count. Equal keys are the same experiment.
  std::string key;
  size_t point = 0; // index into expandPoints()
  std::string bundle;         // a bundle task's bundle; empty for a scenario task
  std::string scenario;       // a scenario task's LLM scenario (`npusim serve`); empty for a bundle task
  double ratePerSecond = 0.0; // a scenario task's arrival rate and request count
  int64_t count = 0;
  std::string mode;
  std::string config;      // the resolved configuration as YAML; empty when invalid
  std::string configError; // why the point is not a valid machine
};

/// Every (point, bundle) pair, then every (point, scenario, rate, count), points
/// outermost. Bundle contents are hashed once each.
std::vector<Task> makeTasks(const SweepFile &sweep, const std::vector<Point> &points,
                            const std::string &version);

/// What a finished task left in its status.json.
struct TaskStatus {
  std::string status; // "ok" or "failed"
  int exitCode = 0;
  double wallSeconds = 0.0;
  std::string error; // failed: the last error line of the run
};

std::string taskFolder(const std::string &outDir, const Task &task);
/// The task's status, if it finished (ok or failed).
std::optional<TaskStatus> readStatus(const std::string &outDir, const Task &task);
/// Writes status.json through a temporary file and a rename.
void writeStatus(const std::string &outDir, const Task &task, const TaskStatus &status);

/// An exclusive lock on a sweep's output folder (flock on DIR/.npusim-sweep.lock),
/// held while the object lives: two sweeps into one folder would run the same
/// tasks twice. Throws core::InputError naming the folder and the process
/// that holds it.
class OutputLock {
public:
  explicit OutputLock(const std::string &outDir);
  ~OutputLock();
  OutputLock(const OutputLock &) = delete;
  OutputLock &operator=(const OutputLock &) = delete;

private:
  int fd_ = -1;
};

/// Runs the tasks on `jobs` processes of `npusim run` at a time (one thread
/// each), writing each task's records. `onDone(finished, total, task,
/// status)` is called under a lock as each ends. After a stop
/// (processes.h) no task starts, and the ones that the stop ended leave no
/// record.
using TaskDone = std::function<void(size_t, size_t, const Task &, const TaskStatus &)>;
void runLocally(const std::vector<const Task *> &tasks, const std::string &outDir, const std::string &npusim,
                int jobs, const TaskDone &onDone);

/// The arguments of `npusim run` for a bundle task, of `npusim serve` for a
/// scenario task (after the program), reading the configuration at
/// `configPath` and writing the report to `reportPath`.
std::vector<std::string> runArguments(const Task &task, const std::string &configPath,
                                      const std::string &reportPath);

/// A rate as the shortest text that reads back as the same number (for the
/// command line, the key and messages).
std::string rateText(double ratePerSecond);

/// What a task runs, for messages: the bundle folder's name, or the
/// scenario file's name with its rate and request count.
std::string taskLabel(const Task &task);

} // namespace npusim::sweep
