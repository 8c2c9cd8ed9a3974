#pragma once
// The built npusim binary run as a user runs it, from a temporary directory of
// its own per test: exit code, stdout and stderr.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <vector>

namespace npusim::cli {

struct Result {
  int exitCode = -1;
  std::string out;
  std::string err;
};

/// `s` as one single-quoted shell word.
inline std::string quote(const std::string &s) {
  std::string q = "'";
  for (char c : s)
    q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

inline std::string slurp(const std::filesystem::path &p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

inline bool contains(const std::string &text, const std::string &part) {
  return text.find(part) != std::string::npos;
}

class CommandTest : public ::testing::Test {
protected:
  void SetUp() override {
    std::string pattern = (std::filesystem::temp_directory_path() / "npusim-cli-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override {
    std::error_code ec;
    std::filesystem::permissions(dir_, std::filesystem::perms::owner_all, std::filesystem::perm_options::add,
                                 ec);
    std::filesystem::remove_all(dir_, ec);
  }

  /// Runs npusim with `args` in the test's temporary directory; `prefix` is
  /// shell text before the command (`ulimit -f 1;`).
  Result run(const std::vector<std::string> &args, const std::string &prefix = "") const {
    std::string command = "cd " + quote(dir_.string()) + " && " + prefix + quote(NPUSIM_BINARY);
    for (const std::string &a : args)
      command += " " + quote(a);
    command += " > " + quote((dir_ / "stdout.txt").string()) + " 2> " + quote((dir_ / "stderr.txt").string());
    const int status = std::system(("(" + command + ")").c_str());
    Result r;
    r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    r.out = slurp(dir_ / "stdout.txt");
    r.err = slurp(dir_ / "stderr.txt");
    return r;
  }

  std::string path(const std::string &name) const { return (dir_ / name).string(); }

  /// Writes `text` to `name` in the test's directory; returns its path.
  std::string writeText(const std::string &name, const std::string &text) const {
    std::ofstream(path(name), std::ios::binary) << text;
    return path(name);
  }

  std::filesystem::path dir_;
};

} // namespace npusim::cli
