// Output files: written whole through a temporary file and a rename, or not
// at all, with the operating system's reason when they cannot be.
#include "core/error.h"
#include "core/output_file.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace npusim::core {
namespace {

namespace fs = std::filesystem;

class OutputFileTest : public ::testing::Test {
protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "npusim-output-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override {
    std::error_code ec;
    fs::permissions(dir_, fs::perms::owner_all, fs::perm_options::add, ec);
    fs::remove_all(dir_, ec);
  }
  std::string path(const std::string &name) const { return (dir_ / name).string(); }
  std::string read(const std::string &name) const {
    std::ifstream in(path(name), std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
  }
  /// The names in the directory, sorted.
  std::string listing() const {
    std::vector<std::string> names;
    for (const fs::directory_entry &e : fs::directory_iterator(dir_))
      names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    std::string text;
    for (const std::string &n : names)
      text += n + " ";
    return text;
  }
  std::string errorOf(const std::function<void()> &write) const {
    try {
      write();
    } catch (const InputError &e) {
      return e.what();
    }
    return "";
  }
  fs::path dir_;
};

TEST_F(OutputFileTest, WritesWholeFilesAndReplacesOldOnes) {
  writeFileAtomically(path("a.txt"), "first", "a.txt");
  EXPECT_EQ(read("a.txt"), "first");
  writeFileAtomically(path("a.txt"), std::string(300000, 'x'), "a.txt"); // several buffers
  EXPECT_EQ(read("a.txt"), std::string(300000, 'x'));
  EXPECT_EQ(listing(), "a.txt ");
  // The permissions of any new file of the process (umask), not mkstemp's 0600.
  const mode_t mask = ::umask(0);
  ::umask(mask);
  EXPECT_EQ(static_cast<mode_t>(fs::status(path("a.txt")).permissions()) & 0777, 0666 & ~mask);
}

TEST_F(OutputFileTest, AnUncommittedFileLeavesTheOldOneAndNoTemporary) {
  writeFileAtomically(path("a.txt"), "good", "a.txt");
  {
    OutputFile file(path("a.txt"), "--report a.txt");
    file.stream() << "half of a new file";
    EXPECT_EQ(listing().find(".a.txt.tmp-"), 0u) << listing(); // next to it, hidden
  }
  EXPECT_EQ(read("a.txt"), "good");
  EXPECT_EQ(listing(), "a.txt ");
}

TEST_F(OutputFileTest, ErrorsGiveTheReason) {
  EXPECT_EQ(errorOf([&] { writeFileAtomically(path("none/a.txt"), "x", "--html none/a.txt"); }),
            "--html none/a.txt: cannot write the file: " + path("none") + ": No such file or directory");
  fs::create_directory(dir_ / "d");
  EXPECT_EQ(errorOf([&] { writeFileAtomically(path("d"), "x", "--trace d"); }), "--trace d: is a directory");
  EXPECT_EQ(errorOf([&] { checkOutputPath("", "--trace"); }), "--trace: the path is empty");
  std::ofstream(path("file")) << "x";
  EXPECT_EQ(errorOf([&] { checkOutputPath(path("file/a.txt"), "w"); }),
            "w: cannot write the file: " + path("file") + " is not a directory");
  EXPECT_EQ(errorOf([&] { checkOutputDirectory(path("file/sub"), "--out"); }),
            "--out: cannot create the directory: " + path("file/sub") + ": Not a directory");
  EXPECT_EQ(errorOf([&] { checkOutputDirectory(path("new/deeper"), "--out"); }), "");
  if (::geteuid() != 0) { // root writes anywhere
    fs::permissions(dir_ / "d", fs::perms::owner_write, fs::perm_options::remove);
    EXPECT_NE(errorOf([&] { checkOutputPath(path("d/a.txt"), "w"); }).find("Permission denied"),
              std::string::npos);
  }
}

TEST_F(OutputFileTest, AFileSizeLimitFailsTheWriteAndKeepsTheOldFile) {
  writeFileAtomically(path("a.txt"), "good", "a.txt");
  // In a child process: the limit and the ignored SIGXFSZ stay there.
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    ::signal(SIGXFSZ, SIG_IGN);
    const rlimit limit{4096, 4096};
    ::setrlimit(RLIMIT_FSIZE, &limit);
    try {
      writeFileAtomically(path("a.txt"), std::string(100000, 'y'), "--html a.txt");
    } catch (const InputError &e) {
      ::_exit(std::string(e.what()) == "--html a.txt: cannot write the file: File too large" ? 0 : 2);
    }
    ::_exit(3);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  EXPECT_EQ(read("a.txt"), "good");
  EXPECT_EQ(listing(), "a.txt ");
}

TEST_F(OutputFileTest, RemoveTemporaryFilesRemovesOnlyUnfinishedOnes) {
  writeFileAtomically(path("done.txt"), "x", "done.txt");
  OutputFile file(path("a.txt"), "a.txt");
  file.stream() << "unfinished";
  removeTemporaryFiles();
  EXPECT_EQ(listing(), "done.txt ");
}

} // namespace
} // namespace npusim::core
