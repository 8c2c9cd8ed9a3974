// Task keys, task records and the local process pool.
#include "sweep/tasks.h"

#include "config/hardware.h"
#include "core/error.h"
#include "core/output_file.h"
#include "sweep/processes.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <sstream>
#include <sys/file.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace npusim::sweep {

namespace {

namespace fs = std::filesystem;

struct Fnv {
  uint64_t h = 0xcbf29ce484222325ULL;
  void add(std::string_view bytes) {
    for (unsigned char c : bytes) {
      h ^= c;
      h *= 0x100000001b3ULL;
    }
    add8(bytes.size()); // so that "ab"+"c" and "a"+"bc" differ
  }
  void add8(uint64_t v) {
    for (int i = 0; i < 8; ++i) {
      h ^= (v >> (8 * i)) & 0xff;
      h *= 0x100000001b3ULL;
    }
  }
};

std::string slurp(const fs::path &path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// Every regular file of the bundle, by path relative to it, in sorted order.
uint64_t bundleDigest(const std::string &bundle) {
  std::vector<fs::path> files;
  for (const fs::directory_entry &e : fs::recursive_directory_iterator(bundle))
    if (e.is_regular_file())
      files.push_back(fs::relative(e.path(), bundle));
  std::sort(files.begin(), files.end());
  Fnv f;
  for (const fs::path &p : files) {
    f.add(p.generic_string());
    f.add(slurp(fs::path(bundle) / p));
  }
  return f.h;
}

std::string hex(uint64_t v) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(v));
  return text;
}

/// The last line of the log that says "error", else its last line.
std::string errorLine(const std::string &log) {
  std::istringstream lines(log);
  std::string line, last, error;
  while (std::getline(lines, line)) {
    if (line.empty())
      continue;
    last = line;
    if (line.find("error") != std::string::npos)
      error = line;
  }
  return error.empty() ? last : error;
}

/// Runs one task; nothing when the sweep was stopped while it ran (no
/// record: a rerun runs it).
std::optional<TaskStatus> runOne(const Task &task, const std::string &outDir, const std::string &npusim) {
  const fs::path folder = taskFolder(outDir, task);
  fs::create_directories(folder);
  const auto start = std::chrono::steady_clock::now();
  TaskStatus status;
  if (!task.configError.empty()) {
    status.status = "failed";
    status.exitCode = 1;
    status.error = task.configError;
    return status;
  }
  // What a run killed in an earlier sweep left: its report is not this run's.
  std::error_code ec;
  fs::remove(folder / "report.json", ec);
  for (const fs::directory_entry &e : fs::directory_iterator(folder, ec))
    if (e.path().filename().string().starts_with(".") &&
        e.path().filename().string().find(".tmp-") != std::string::npos)
      fs::remove(e.path(), ec);
  core::writeFileAtomically((folder / "config.yaml").string(), task.config,
                            (folder / "config.yaml").string());
  const std::string report = (folder / "report.json").string(), log = (folder / "log.txt").string();
  std::vector<std::string> args = runArguments(task, (folder / "config.yaml").string(), report);
  args.insert(args.begin(), npusim);
  int wstatus = 0;
  try {
    wstatus = waitChild(startChild(args, log));
    status.exitCode = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 128 + WTERMSIG(wstatus);
  } catch (const core::InputError &e) {
    status.exitCode = 127;
    status.error = e.what();
  }
  if (stopSignal() != 0 && !(WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0))
    return std::nullopt;
  status.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  status.status = status.exitCode == 0 && fs::exists(report) ? "ok" : "failed";
  if (status.status == "failed" && status.error.empty())
    status.error = errorLine(slurp(log));
  if (status.status == "failed" && status.error.empty())
    status.error = std::string(task.scenario.empty() ? "npusim run" : "npusim serve") +
                   " ended with status " + std::to_string(status.exitCode);
  return status;
}

} // namespace

OutputLock::OutputLock(const std::string &outDir) {
  const std::string path = (fs::path(outDir) / ".npusim-sweep.lock").string();
  fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0)
    throw core::InputError("--out " + outDir + ": cannot create " + path + ": " + std::strerror(errno));
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    const int error = errno;
    char holder[32] = {};
    const ssize_t n = ::pread(fd_, holder, sizeof holder - 1, 0);
    ::close(fd_);
    fd_ = -1;
    if (error == EWOULDBLOCK)
      throw core::InputError("--out " + outDir + ": another npusim sweep" +
                             (n > 0 ? " (process " + std::string(holder, static_cast<size_t>(n)) + ")" : "") +
                             " is writing to this folder; wait for it to end, or give another --out");
    throw core::InputError("--out " + outDir + ": cannot lock " + path + ": " + std::strerror(error));
  }
  const std::string pid = std::to_string(::getpid());
  if (::ftruncate(fd_, 0) == 0 && ::pwrite(fd_, pid.data(), pid.size(), 0) < 0) {
    // The pid is only for the message of a second sweep.
  }
}

OutputLock::~OutputLock() {
  if (fd_ >= 0)
    ::close(fd_); // releases the lock
}

std::vector<Task> makeTasks(const SweepFile &sweep, const std::vector<Point> &points,
                            const std::string &version) {
  std::map<std::string, uint64_t> digests;
  for (const std::string &b : sweep.bundles)
    digests.emplace(b, bundleDigest(b));
  for (const ScenarioSpec &scenario : sweep.scenarios)
    for (const std::string &b : scenario.bundles)
      if (!digests.count(b))
        digests.emplace(b, bundleDigest(b));
  std::vector<Task> tasks;
  for (size_t p = 0; p < points.size(); ++p) {
    std::string config, error;
    try {
      config = config::toYaml(pointMachine(sweep, points[p]));
    } catch (const std::exception &e) {
      error = e.what();
    }
    for (const std::string &bundle : sweep.bundles) {
      Task t;
      t.point = p;
      t.bundle = bundle;
      t.mode = sweep.mode;
      t.config = config;
      t.configError = error;
      Fnv f;
      f.add("npusim " + version);
      f.add(sweep.mode);
      f.add(config.empty() ? configText(sweep, points[p]) : config);
      f.add8(digests.at(bundle));
      t.key = hex(f.h);
      tasks.push_back(std::move(t));
    }
    for (const ScenarioSpec &scenario : sweep.scenarios) {
      const std::vector<double> rates =
          sweep.rates.empty() ? std::vector<double>{scenario.ratePerSecond} : sweep.rates;
      const std::vector<int64_t> counts =
          sweep.counts.empty() ? std::vector<int64_t>{scenario.count} : sweep.counts;
      for (const double rate : rates)
        for (const int64_t count : counts) {
          Task t;
          t.point = p;
          t.scenario = scenario.path;
          t.ratePerSecond = rate;
          t.count = count;
          t.mode = "timing"; // an LLM iteration is timed; serve has no other mode
          t.config = config;
          t.configError = error;
          Fnv f;
          f.add("npusim " + version);
          f.add("serve");
          f.add(config.empty() ? configText(sweep, points[p]) : config);
          f.add(slurp(scenario.path));
          for (const std::string &bundle : scenario.bundles)
            f.add8(digests.at(bundle));
          f.add(rateText(rate));
          f.add8(static_cast<uint64_t>(count));
          t.key = hex(f.h);
          tasks.push_back(std::move(t));
        }
    }
  }
  return tasks;
}

std::string rateText(double ratePerSecond) {
  char text[32];
  for (int digits = 6; digits <= 17; ++digits) {
    std::snprintf(text, sizeof text, "%.*g", digits, ratePerSecond);
    if (std::strtod(text, nullptr) == ratePerSecond)
      break;
  }
  return text;
}

std::string taskLabel(const Task &task) {
  if (task.scenario.empty())
    return fs::path(task.bundle).filename().string();
  return fs::path(task.scenario).stem().string() + " rate_per_s=" + rateText(task.ratePerSecond) +
         " count=" + std::to_string(task.count);
}

std::string taskFolder(const std::string &outDir, const Task &task) {
  return (fs::path(outDir) / "tasks" / task.key).string();
}

std::optional<TaskStatus> readStatus(const std::string &outDir, const Task &task) {
  const fs::path path = fs::path(taskFolder(outDir, task)) / "status.json";
  if (!fs::exists(path))
    return std::nullopt;
  const nlohmann::json doc = nlohmann::json::parse(slurp(path), nullptr, false);
  if (doc.is_discarded() || !doc.is_object())
    return std::nullopt; // an unreadable record: the task runs again
  TaskStatus s;
  s.status = doc.value("status", std::string("failed"));
  s.exitCode = doc.value("exit_code", 1);
  s.wallSeconds = doc.value("wall_s", 0.0);
  s.error = doc.value("error", std::string());
  return s;
}

void writeStatus(const std::string &outDir, const Task &task, const TaskStatus &status) {
  nlohmann::json doc = {{"key", task.key},
                        {"bundle", task.bundle},
                        {"status", status.status},
                        {"exit_code", status.exitCode},
                        {"wall_s", status.wallSeconds},
                        {"error", status.error}};
  if (!task.scenario.empty()) {
    doc["scenario"] = task.scenario;
    doc["rate_per_s"] = task.ratePerSecond;
    doc["count"] = task.count;
  }
  const std::string path = (fs::path(taskFolder(outDir, task)) / "status.json").string();
  core::writeFileAtomically(path, doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n",
                            path);
}

std::vector<std::string> runArguments(const Task &task, const std::string &configPath,
                                      const std::string &reportPath) {
  if (!task.scenario.empty())
    return {"serve",        task.scenario,
            "--config",     configPath,
            "--rate-per-s", rateText(task.ratePerSecond),
            "--count",      std::to_string(task.count),
            "--report",     reportPath,
            "--quiet"};
  return {"run",      task.bundle, "--mode",    task.mode, "--config", configPath, "--report",
          reportPath, "--quiet",   "--threads", "1",       "--top",    "1"};
}

void runLocally(const std::vector<const Task *> &tasks, const std::string &outDir, const std::string &npusim,
                int jobs, const TaskDone &onDone) {
  std::atomic<size_t> next{0};
  std::mutex lock;
  size_t finished = 0;
  const auto work = [&] {
    for (size_t i = next++; i < tasks.size(); i = next++) {
      if (stopSignal() != 0)
        break;
      TaskStatus status;
      try {
        const std::optional<TaskStatus> ran = runOne(*tasks[i], outDir, npusim);
        if (!ran)
          break; // stopped: the task stays pending
        status = *ran;
        writeStatus(outDir, *tasks[i], status);
      } catch (const std::exception &e) {
        // No record: the task runs again next time (a full disk, a removed folder).
        status = {"failed", 1, 0.0, e.what()};
      }
      const std::lock_guard<std::mutex> hold(lock);
      onDone(++finished, tasks.size(), *tasks[i], status);
    }
  };
  std::vector<std::thread> threads;
  const size_t n = std::min(static_cast<size_t>(std::max(jobs, 1)), tasks.size());
  for (size_t i = 0; i < n; ++i)
    threads.emplace_back(work);
  for (std::thread &t : threads)
    t.join();
}

} // namespace npusim::sweep
