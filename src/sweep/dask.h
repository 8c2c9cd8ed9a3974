#pragma once
// Running a sweep's tasks on Dask (python3-distributed): an existing cluster
// by its scheduler address, or a LocalCluster. The Python side is
// python/npusim/sweep_dask.py, built into the binary.
#include "sweep/tasks.h"

#include <string>
#include <vector>

namespace npusim::sweep {

/// The text of python/npusim/sweep_dask.py.
std::string_view daskDriverScript();

struct DaskOptions {
  std::string scheduler; // "tcp://HOST:8786", or "local"
  int localWorkers = 0;  // LocalCluster workers; 0: one per core
  std::string python;    // the interpreter that has `distributed`
};

/// Writes DIR/dask-tasks.json and DIR/dask_driver.py, runs the driver and
/// calls onDone as it reports each task. Throws core::InputError when the
/// driver cannot start or fails (its last error line).
void runOnDask(const std::vector<const Task *> &tasks, const std::string &outDir, const std::string &npusim,
               const DaskOptions &options, const TaskDone &onDone);

} // namespace npusim::sweep
