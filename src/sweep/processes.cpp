#include "sweep/processes.h"

#include "core/error.h"

#include <array>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace npusim::sweep {

namespace {

/// The running children, for a signal handler: a fixed table of atomics
/// (no allocation, no lock). More children than slots than this are not
/// forwarded a stop, but still die with the sweep (the parent-death signal).
constexpr size_t kSlots = 4096;
std::array<std::atomic<pid_t>, kSlots> gChildren{};
std::atomic<int> gStopSignal{0};

void remember(pid_t pid) {
  for (std::atomic<pid_t> &slot : gChildren) {
    pid_t empty = 0;
    if (slot.compare_exchange_strong(empty, pid))
      return;
  }
}

void forget(pid_t pid) {
  for (std::atomic<pid_t> &slot : gChildren) {
    pid_t expected = pid;
    if (slot.compare_exchange_strong(expected, 0))
      return;
  }
}

void onSignal(int signal) {
  requestStop(signal);
}

} // namespace

pid_t startChild(const std::vector<std::string> &argv, const std::string &logPath, int *stdoutPipe) {
  // Everything the child needs is prepared before fork(): after it, only
  // async-signal-safe calls until exec.
  std::vector<char *> args;
  for (const std::string &a : argv)
    args.push_back(const_cast<char *>(a.c_str()));
  args.push_back(nullptr);
  int pipeFds[2] = {-1, -1};
  if (stdoutPipe && ::pipe2(pipeFds, O_CLOEXEC) != 0)
    throw core::InputError("cannot start " + argv.front() + ": " + std::strerror(errno));
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) {
    const int error = errno;
    if (stdoutPipe) {
      ::close(pipeFds[0]);
      ::close(pipeFds[1]);
    }
    throw core::InputError("cannot start " + argv.front() + ": " + std::strerror(error));
  }
  if (pid == 0) {
    ::prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (::getppid() != parent) // the sweep died before prctl
      ::_exit(127);
    if (!logPath.empty()) {
      const int log = ::open(logPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
      if (log < 0)
        ::_exit(127);
      ::dup2(log, STDERR_FILENO);
      if (!stdoutPipe)
        ::dup2(log, STDOUT_FILENO);
    }
    if (stdoutPipe)
      ::dup2(pipeFds[1], STDOUT_FILENO);
    ::execvp(args[0], args.data());
    ::_exit(127);
  }
  remember(pid);
  if (stdoutPipe) {
    ::close(pipeFds[1]);
    *stdoutPipe = pipeFds[0];
  }
  // A stop that came while this child was starting reaches it too.
  if (const int signal = gStopSignal.load())
    ::kill(pid, signal);
  return pid;
}

int waitChild(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  forget(pid);
  return status;
}

void requestStop(int signal) noexcept {
  int none = 0;
  gStopSignal.compare_exchange_strong(none, signal);
  for (std::atomic<pid_t> &slot : gChildren)
    if (const pid_t pid = slot.load(); pid > 0)
      ::kill(pid, signal);
}

int stopSignal() noexcept {
  return gStopSignal.load();
}

void exitWithParentIfAsked() {
  const char *asked = std::getenv(kExitWithParent);
  if (!asked || std::strcmp(asked, "1") != 0)
    return;
  const pid_t parent = ::getppid();
  ::prctl(PR_SET_PDEATHSIG, SIGTERM);
  if (::getppid() != parent) // the parent ended before prctl
    ::raise(SIGTERM);
}

void stopOnSignals() {
  ::setenv(kExitWithParent, "1", 1);
  struct sigaction action {};
  action.sa_handler = onSignal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  for (int signal : {SIGINT, SIGTERM, SIGHUP})
    ::sigaction(signal, &action, nullptr);
}

} // namespace npusim::sweep
