#pragma once
// The child processes of a sweep (each task's `npusim run`, the Dask driver).
// No child outlives the sweep: each gets Linux's parent-death signal
// (SIGTERM when the thread that started it ends, a kill -9 of the sweep
// included), and a stop (a signal to the sweep) is forwarded to every child
// still running.
#include <string>
#include <sys/types.h>
#include <vector>

namespace npusim::sweep {

/// Starts `argv` (argv[0] the program, found on PATH when it has no '/').
/// stdout and stderr go to `logPath` when it is not empty; with `stdoutPipe`
/// stdout goes to a pipe whose read end it gets (stderr to `logPath`).
/// Throws core::InputError when the process cannot be started.
pid_t startChild(const std::vector<std::string> &argv, const std::string &logPath, int *stdoutPipe = nullptr);

/// Waits for a child started by startChild; returns its wait status.
int waitChild(pid_t pid);

/// Asks the sweep to stop: no new task starts, and `signal` goes to every
/// running child. Async-signal-safe: a signal handler calls it.
void requestStop(int signal) noexcept;
/// The signal of the first requestStop, or 0.
int stopSignal() noexcept;

/// Installs requestStop as the handler of SIGINT, SIGTERM and SIGHUP, and
/// sets kExitWithParent in the environment that children inherit, so that
/// the grandchildren (the `npusim run` of a task on a local Dask cluster)
/// also end with the process that started them.
void stopOnSignals();

/// The environment variable that makes npusim end with its parent
/// (exitWithParentIfAsked, called first thing in main).
inline constexpr const char *kExitWithParent = "NPUSIM_EXIT_WITH_PARENT";
void exitWithParentIfAsked();

} // namespace npusim::sweep
