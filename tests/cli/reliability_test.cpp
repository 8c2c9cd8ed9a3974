// What npusim promises whatever its input: the right answer or an error
// naming the input, in every mode. Faults, bad configurations and sweep files,
// output files that cannot be written.
#include "cli_fixture.h"

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <fcntl.h>
#include <filesystem>
#include <regex>
#include <functional>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace npusim::cli {
namespace {

namespace fs = std::filesystem;

const std::string kAddMulKernel = std::string(NPUSIM_TEST_DATA) + "/cli/triton_poi_fused_add_mul_0.py";
const std::string kTiny = std::string(NPUSIM_TEST_DATA) + "/bundles/tiny";
#if defined(__SANITIZE_ADDRESS__)
/// AddressSanitizer reserves terabytes of address space, which `ulimit -v`
/// cannot cap; the Release build runs the memory-cap tests.
constexpr bool kAddressSanitizer = true;
#else
constexpr bool kAddressSanitizer = false;
#endif

/// A bundle whose timing run takes about a second (the tiny one under the
/// sanitizers, as slow): a sweep of it is still running when signalled.
const std::string kSlowBundle =
    kAddressSanitizer ? kTiny : std::string(NPUSIM_TEST_DATA) + "/../../examples/bert";

/// The processes whose command line mentions `text`, this one aside.
int processesMentioning(const std::string &text) {
  int count = 0;
  for (const fs::directory_entry &e : fs::directory_iterator("/proc")) {
    const std::string name = e.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos || name == std::to_string(::getpid()))
      continue;
    std::string cmdline = slurp(e.path() / "cmdline");
    for (char &c : cmdline)
      c = c == '\0' ? ' ' : c;
    count += contains(cmdline, text) ? 1 : 0;
  }
  return count;
}

/// Waits up to `seconds` for `done`.
bool waitFor(const std::function<bool()> &done, double seconds) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (!done()) {
    if (std::chrono::steady_clock::now() > end)
      return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return true;
}

/// The add-mul kernel with `from` replaced by `to` in its source.
std::string edited(const std::string &from, const std::string &to) {
  std::string text = slurp(kAddMulKernel);
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos)
    text.replace(at, from.size(), to);
  return text;
}

/// The message after "FILE: error: " on stderr.
std::string errorMessage(const std::string &err) {
  const size_t at = err.find(": error: ");
  return at == std::string::npos ? err : err.substr(at + 9);
}

class ReliabilityTest : public CommandTest {};

// An out-of-bounds access is the same fault in every NPU mode: timing mode
// checks the addresses it computes as the functional mode does.
TEST_F(ReliabilityTest, OutOfBoundsAccessFailsInEveryMode) {
  struct Case {
    std::string file, from, to, buffer, offset;
  };
  const std::vector<Case> cases = {
      {"store.py", "tl.store(out_ptr0 + (x0), tmp4, xmask)", "tl.store(out_ptr0 + (x0 + 5), tmp4)",
       "out_ptr0", "element offset 1000,"},
      {"load.py", "tl.load(in_ptr0 + (x0), xmask)", "tl.load(in_ptr0 + (x0 + 100000000), xmask)", "in_ptr0",
       "element offset 100000000,"},
  };
  for (const Case &c : cases) {
    writeText(c.file, edited(c.from, c.to));
    std::string functional;
    for (const std::string mode : {"functional", "timing", "full"}) {
      const Result r = run({"kernel", c.file, "--mode", mode});
      EXPECT_EQ(r.exitCode, 1) << c.file << " " << mode << ": " << r.out;
      EXPECT_TRUE(contains(r.err, "is outside buffer '" + c.buffer + "'")) << mode << ": " << r.err;
      EXPECT_TRUE(contains(r.err, c.offset)) << mode << ": " << r.err;
      EXPECT_EQ(r.out, "") << mode;
      if (functional.empty())
        functional = errorMessage(r.err);
      else
        EXPECT_EQ(errorMessage(r.err), functional) << mode;
    }
    const Result reference = run({"kernel", c.file});
    EXPECT_EQ(reference.exitCode, 1);
    EXPECT_TRUE(contains(reference.err, "out-of-bounds")) << reference.err;
  }
}

// Output paths are checked before the run, every bad one named with the
// operating system's reason, and an empty path is an error like any other.
TEST_F(ReliabilityTest, BadOutputPathsFailBeforeTheRun) {
  const Result r = run({"run", kTiny, "--mode", "timing", "--report", "nodir/r.json", "--html",
                        "nodir/p.html", "--trace", ""});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_EQ(r.out, ""); // nothing ran
  EXPECT_TRUE(contains(r.err, ": error: --report nodir/r.json: cannot write the file: nodir: No such file or "
                              "directory\n"))
      << r.err;
  EXPECT_TRUE(contains(r.err, ": error: --html nodir/p.html: cannot write the file: nodir: No such file or "
                              "directory\n"))
      << r.err;
  EXPECT_TRUE(contains(r.err, ": error: --trace: the path is empty\n")) << r.err;
  fs::create_directory(path("d"));
  const Result kernel = run({"kernel", kAddMulKernel, "--mode", "timing", "--trace", "d"});
  EXPECT_EQ(kernel.exitCode, 1);
  EXPECT_TRUE(contains(kernel.err, "error: --trace d: is a directory")) << kernel.err;
  writeText("file", "x");
  const Result out = run({"kernel", kAddMulKernel, "--out", "file/sub"});
  EXPECT_EQ(out.exitCode, 1);
  EXPECT_TRUE(contains(out.err, "error: --out file/sub: cannot create the directory")) << out.err;
  EXPECT_EQ(run({"compare", "a.json", "b.json", "--html", "nodir/c.html"}).err,
            "npusim compare: error: --html nodir/c.html: cannot write the file: nodir: No such file or "
            "directory\n");
}

// A write that fails part-way (here past `ulimit -f`) leaves the file that was
// there, no half-written one and no temporary file; every failure is reported.
TEST_F(ReliabilityTest, FailedWritesKeepTheOldFilesAndAreAllReported) {
  Result r = run({"run", kTiny, "--mode", "timing", "--report", "r.json", "--html", "p.html", "--trace",
                  "t.json", "--quiet"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const std::string page = slurp(path("p.html")), trace = slurp(path("t.json"));
  ASSERT_GT(page.size(), 8192u);
  ASSERT_GT(trace.size(), 8192u);
  r = run({"run", kTiny, "--mode", "timing", "--report", "r.json", "--html", "p.html", "--trace", "t.json",
           "--quiet"},
          "ulimit -f 8; ");
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_TRUE(contains(r.err, "error: --html p.html: cannot write the file: File too large")) << r.err;
  EXPECT_TRUE(contains(r.err, "--trace t.json: cannot write the file: File too large")) << r.err;
  EXPECT_EQ(slurp(path("p.html")), page);
  EXPECT_EQ(slurp(path("t.json")), trace);
  for (const fs::directory_entry &e : fs::directory_iterator(dir_))
    EXPECT_FALSE(contains(e.path().filename().string(), ".tmp-")) << e.path();

  r = run({"kernel", kAddMulKernel, "--out", "o"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const std::string before = slurp(path("o/in_ptr0.npy"));
  r = run({"kernel", kAddMulKernel, "--out", "o", "--seed", "1"}, "ulimit -f 1; ");
  EXPECT_EQ(r.exitCode, 1);
  for (const std::string name : {"in_ptr0", "in_ptr1", "out_ptr0"})
    EXPECT_TRUE(contains(r.err, "o/" + name + ".npy: cannot write the file: File too large")) << r.err;
  EXPECT_EQ(slurp(path("o/in_ptr0.npy")), before);
}

// A machine or a scenario that would not fit in the memory is an error naming
// the key before the allocation, not an out-of-memory kill minutes later.
TEST_F(ReliabilityTest, HugeAllocationsNameTheKeyFirst) {
  if (kAddressSanitizer)
    GTEST_SKIP() << "ulimit -v cannot cap an AddressSanitizer build";
  writeText("m.yaml", "base: tpuv3-like\nspad_kib_per_lane: 8192\n");
  Result r = run({"run", kTiny, "--mode", "timing", "--config", "m.yaml", "--quiet"}, "ulimit -v 1500000; ");
  EXPECT_EQ(r.exitCode, 1);
  // The first kernel the run simulates fails (with main's GEMM-kernel choice,
  // a library GEMM's): its second placement lies half a bank (4 MiB) up, so
  // 4 MiB a lane stored twice (banks and shadow) on 128 lanes: 1.0 GiB.
  EXPECT_TRUE(std::regex_search(r.err, std::regex("hardware config m.yaml: key 'spad_kib_per_lane': 8192 KiB per "
                                                  "lane on 128 lanes \\(key 'lanes'\\): simulating kernel [a-z0-9_]+ "
                                                  "takes 1.0 GiB of scratchpad storage, more than half of the 1.4 GiB "
                                                  "of memory")))
      << r.err;
  r = run({"kernel", kAddMulKernel, "--mode", "functional", "--config", "m.yaml"}, "ulimit -v 1500000; ");
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_TRUE(contains(r.err, "key 'spad_kib_per_lane'")) << r.err;
  writeText("s.yaml", "machine: tpuv3-like\ntenants:\n  - name: t\n    bundle: " + kTiny +
                          "\n    requests:\n      arrival: poisson\n      rate_per_s: 100000\n"
                          "      count: 1000000\n");
  r = run({"serve", "s.yaml"}, "ulimit -v 1500000; ");
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_TRUE(contains(r.err, "s.yaml:8: key 'count': 1000000 requests of tenant 't', ")) << r.err;
  EXPECT_TRUE(contains(r.err, " instructions each")) << r.err;
}

// A trace keeps a bounded number of instruction events and says so when it
// left some out.
TEST_F(ReliabilityTest, ACappedTraceSaysSo) {
  Result r = run({"kernel", kAddMulKernel, "--grid", "80000", "--mode", "timing", "--trace", "t.json", "--quiet"});
  EXPECT_EQ(r.exitCode, 0) << r.err;
  // 13 instructions per instance, 1,040,000 events in all.
  EXPECT_TRUE(
      contains(r.err, "note: --trace t.json: kept the first 1000000 instruction events and left out 40000"))
      << r.err;
  EXPECT_TRUE(contains(slurp(path("t.json")), "\"droppedInstructionEvents\":40000"));
  r = run({"kernel", kAddMulKernel, "--grid", "10", "--mode", "timing", "--trace", "t.json", "--quiet"});
  EXPECT_EQ(r.err, "");
}

// A launch whose cores lag each other by more than the stream holds per core
// (timing::LaunchStream::kMaxHeldPerCore) runs on with a core waiting; the
// instructions that start late are counted on the summary line and named on
// stderr, never left silent. Even instances do all the work (odd ones are
// masked off whole), so on two cores core 1 waits while core 0 lags: about
// 2000 of 4000 instances behind, past the cap of 1024.
TEST_F(ReliabilityTest, LateInstructionsAreReported) {
  writeText("skew.py", edited("xoffset = tl.program_id(0) * XBLOCK", "xoffset = (tl.program_id(0) % 2) * XBLOCK"));
  writeText("two.yaml", "base: tpuv3-like\nnum_cores: 2\n");
  Result r = run({"kernel", "skew.py", "--grid", "4000", "--mode", "timing", "--config", "two.yaml", "--quiet"});
  EXPECT_EQ(r.exitCode, 0) << r.err;
  std::smatch late;
  ASSERT_TRUE(std::regex_search(r.out, late, std::regex(" late_instructions=([0-9]+) "))) << r.out;
  EXPECT_GT(std::stoll(late[1].str()), 0) << r.out;
  EXPECT_TRUE(contains(r.err, "skew.py: note: " + late[1].str() + " instructions started later than")) << r.err;
  // The same grid of the kernel whose instances are alike: nothing late, nothing said.
  r = run({"kernel", kAddMulKernel, "--grid", "4000", "--mode", "timing", "--config", "two.yaml", "--quiet"});
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_FALSE(contains(r.out, "late_instructions")) << r.out;
  EXPECT_EQ(r.err, "");
}

// kernel and serve show a progress line on a terminal (and only there), as run does.
TEST_F(ReliabilityTest, KernelAndServeShowProgressOnATerminal) {
  const auto onTerminal = [this](const std::string &args) {
    const std::string command = quote(NPUSIM_BINARY) + " " + args;
    const std::string shell =
        "cd " + quote(dir_.string()) + " && script -qec " + quote(command) + " /dev/null > tty.txt 2>&1";
    EXPECT_EQ(std::system(shell.c_str()), 0) << shell;
    return slurp(dir_ / "tty.txt");
  };
  std::string tty = onTerminal("kernel " + quote(kAddMulKernel) + " --grid 20000 --mode timing");
  EXPECT_TRUE(contains(tty, "\r\033[K[20000/20000] timing the launch")) << tty;
  EXPECT_TRUE(contains(tty, " program instances  elapsed ")) << tty;
  const std::string scenario = std::string(NPUSIM_TEST_DATA) + "/../../examples/serving/mlp-tiny.yaml";
  tty = onTerminal("serve " + quote(scenario));
  EXPECT_TRUE(contains(tty, "] mlp: step ")) << tty;
  EXPECT_TRUE(contains(tty, "\r\033[K")) << tty;
  EXPECT_FALSE(contains(onTerminal("serve " + quote(scenario) + " --quiet"), "\033[K"));
  // Not in a file.
  const Result r = run({"kernel", kAddMulKernel, "--grid", "2000", "--mode", "timing"});
  EXPECT_EQ(r.err, "");
}

/// A sweep of the slow bundle on `machines` clock frequencies.
std::string slowSweep(int machines) {
  std::string text = "bundles: [" + kSlowBundle + "]\nmode: timing\ngrid:\n  core_freq_mhz: [";
  for (int i = 0; i < machines; ++i)
    text += (i ? ", " : "") + std::to_string(900 + 10 * i);
  return text + "]\n";
}

/// The rows of results.csv with `status`.
int rowsWith(const std::string &csv, const std::string &status) {
  int n = 0;
  for (size_t at = csv.find("," + status + ","); at != std::string::npos;
       at = csv.find("," + status + ",", at + 1))
    ++n;
  return n;
}

// Two sweeps into one folder: the second fails at once, naming the first.
// A stopped sweep (SIGTERM) forwards the signal, leaves no child running,
// writes results.csv for what finished and exits 128 + 15; a killed one
// (SIGKILL) takes its children with it; a rerun finishes the rest.
TEST_F(ReliabilityTest, SweepsAreLockedAndSafeToStop) {
  // Enough tasks that the sweep still runs when signalled (the tiny bundle's are short).
  const int kMachines = kAddressSanitizer ? 8 : 4;
  writeText("s.yaml", slowSweep(kMachines));
  const std::string out = path("out");
  const auto startSweep = [&] {
    const pid_t pid = ::fork();
    if (pid == 0) {
      const int log = ::open(path("sweep.log").c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
      ::dup2(log, STDOUT_FILENO);
      ::dup2(log, STDERR_FILENO);
      ::execl(NPUSIM_BINARY, NPUSIM_BINARY, "sweep", path("s.yaml").c_str(), "--out", out.c_str(), "--jobs",
              "1", "--quiet", static_cast<char *>(nullptr));
      ::_exit(127);
    }
    return pid;
  };
  const auto finished = [&] {
    int n = 0;
    std::error_code ec;
    if (fs::exists(out + "/tasks"))
      for (const fs::directory_entry &e : fs::directory_iterator(out + "/tasks", ec))
        n += fs::exists(e.path() / "status.json") ? 1 : 0;
    return n;
  };

  pid_t sweep = startSweep();
  ASSERT_TRUE(waitFor([&] { return processesMentioning(out + "/tasks") > 0; }, 30)); // a task runs
  const Result second = run({"sweep", "s.yaml", "--out", "out"});
  EXPECT_EQ(second.exitCode, 1);
  EXPECT_TRUE(contains(second.err, "npusim sweep: error: --out out: another npusim sweep (process " +
                                       std::to_string(sweep) + ") is writing to this folder"))
      << second.err;
  ASSERT_TRUE(waitFor([&] { return finished() >= 1; }, 60));
  ::kill(sweep, SIGTERM);
  int status = 0;
  ASSERT_EQ(::waitpid(sweep, &status, 0), sweep);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 128 + SIGTERM) << status;
  EXPECT_EQ(processesMentioning(out), 0); // no orphan
  const std::string csv = slurp(out + "/results.csv");
  const int done = finished();
  EXPECT_GE(done, 1);
  EXPECT_EQ(rowsWith(csv, "ok"), done) << csv;
  EXPECT_EQ(rowsWith(csv, "pending"), kMachines - done) << csv;

  if (done < kMachines) {
    sweep = startSweep();
    ASSERT_TRUE(waitFor([&] { return processesMentioning(out + "/tasks") > 0; }, 30));
    ::kill(sweep, SIGKILL);
    ASSERT_EQ(::waitpid(sweep, &status, 0), sweep);
    // The parent-death signal ends the task's run.
    EXPECT_TRUE(waitFor([&] { return processesMentioning(out) == 0; }, 10));
  }
  const Result rerun = run({"sweep", "s.yaml", "--out", "out", "--jobs", "2"});
  EXPECT_EQ(rerun.exitCode, 0) << rerun.err;
  EXPECT_EQ(rowsWith(slurp(out + "/results.csv"), "ok"), kMachines);
}

} // namespace
} // namespace npusim::cli
