// Output files through a temporary file and a rename (POSIX: rename within one
// directory replaces the target in one step).
#include "core/output_file.h"

#include "core/error.h"

#include <array>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <streambuf>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace npusim::core {

namespace fs = std::filesystem;

namespace {

/// The temporary files being written, for removeTemporaryFiles: a fixed
/// table of atomics, which a signal handler may read.
constexpr size_t kTrackedTemporaries = 64;
std::array<std::atomic<const char *>, kTrackedTemporaries> gTemporaries{};

void track(const char *path) {
  for (std::atomic<const char *> &slot : gTemporaries) {
    const char *empty = nullptr;
    if (slot.compare_exchange_strong(empty, path))
      return;
  }
}

void untrack(const char *path) {
  for (std::atomic<const char *> &slot : gTemporaries) {
    const char *expected = path;
    if (slot.compare_exchange_strong(expected, nullptr))
      return;
  }
}

std::string reason(int error) {
  return std::strerror(error);
}

/// The directory a path's file lives in ("." for a bare name).
fs::path directoryOf(const std::string &path) {
  const fs::path parent = fs::path(path).parent_path();
  return parent.empty() ? fs::path(".") : parent;
}

} // namespace

/// A stream buffer over a file descriptor that keeps the first write error.
class OutputFile::Buffer : public std::streambuf {
public:
  explicit Buffer(int fd) : fd_(fd), data_(size_t{1} << 16) {
    setp(data_.data(), data_.data() + data_.size());
  }
  ~Buffer() override {
    if (fd_ >= 0)
      ::close(fd_);
  }
  int error() const { return error_; }
  /// Writes out the buffer, syncs and closes; false on an error (error()).
  bool finish() {
    if (sync() != 0)
      return false;
    if (::fsync(fd_) != 0 && errno != EINVAL) // EINVAL: a file system that cannot sync, such as a pipe
      error_ = errno;
    if (::close(fd_) != 0 && error_ == 0)
      error_ = errno;
    fd_ = -1;
    return error_ == 0;
  }

protected:
  int_type overflow(int_type c) override {
    if (sync() != 0)
      return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }
  int sync() override {
    if (error_ != 0)
      return -1;
    const char *from = pbase();
    while (from < pptr()) {
      const ssize_t n = ::write(fd_, from, static_cast<size_t>(pptr() - from));
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0) {
        error_ = n < 0 ? errno : EIO;
        return -1;
      }
      from += n;
    }
    setp(data_.data(), data_.data() + data_.size());
    return 0;
  }

private:
  int fd_;
  int error_ = 0;
  std::vector<char> data_;
};

OutputFile::OutputFile(std::string path, std::string what) : path_(std::move(path)), what_(std::move(what)) {
  checkOutputPath(path_, what_);
  // A hidden name in the same directory, unique to this process and file.
  std::string pattern =
      (directoryOf(path_) / ("." + fs::path(path_).filename().string() + ".tmp-XXXXXX")).string();
  const int fd = ::mkstemp(pattern.data());
  if (fd < 0)
    throw InputError(what_ + ": cannot write the file: " + reason(errno));
  // mkstemp creates the file for its owner only; an output file gets the
  // permissions any new file of the process gets.
  const mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(fd, 0666 & ~mask);
  temporary_ = pattern;
  track(temporary_.c_str());
  buffer_ = std::make_unique<Buffer>(fd);
  stream_ = std::make_unique<std::ostream>(buffer_.get());
}

OutputFile::~OutputFile() {
  if (temporary_.empty())
    return;
  untrack(temporary_.c_str());
  if (!committed_)
    ::unlink(temporary_.c_str());
}

void removeTemporaryFiles() noexcept {
  for (std::atomic<const char *> &slot : gTemporaries)
    if (const char *path = slot.load())
      ::unlink(path);
}

std::ostream &OutputFile::stream() {
  return *stream_;
}

void OutputFile::commit() {
  if (committed_)
    return;
  stream_->flush();
  if (!buffer_->finish() || !*stream_)
    throw InputError(what_ +
                     ": cannot write the file: " + reason(buffer_->error() != 0 ? buffer_->error() : EIO));
  if (::rename(temporary_.c_str(), path_.c_str()) != 0)
    throw InputError(what_ + ": cannot write the file: " + reason(errno));
  committed_ = true;
}

void writeFileAtomically(const std::string &path, std::string_view text, const std::string &what) {
  OutputFile file(path, what);
  file.stream().write(text.data(), static_cast<std::streamsize>(text.size()));
  file.commit();
}

void checkOutputPath(const std::string &path, const std::string &what) {
  if (path.empty())
    throw InputError(what + ": the path is empty");
  struct stat status {};
  if (::stat(path.c_str(), &status) == 0 && S_ISDIR(status.st_mode))
    throw InputError(what + ": is a directory");
  const fs::path directory = directoryOf(path);
  if (::stat(directory.c_str(), &status) != 0)
    throw InputError(what + ": cannot write the file: " + directory.string() + ": " + reason(errno));
  if (!S_ISDIR(status.st_mode))
    throw InputError(what + ": cannot write the file: " + directory.string() + " is not a directory");
  if (::access(directory.c_str(), W_OK | X_OK) != 0)
    throw InputError(what + ": cannot write the file: " + directory.string() + ": " + reason(errno));
}

void checkOutputDirectory(const std::string &directory, const std::string &what) {
  if (directory.empty())
    throw InputError(what + ": the path is empty");
  fs::path at = fs::path(directory);
  struct stat status {};
  // The nearest existing ancestor decides: an existing file on the way is an error.
  while (::stat(at.c_str(), &status) != 0) {
    if (errno != ENOENT)
      throw InputError(what + ": cannot create the directory: " + at.string() + ": " + reason(errno));
    const fs::path parent = at.parent_path();
    at = parent.empty() ? fs::path(".") : parent;
  }
  if (!S_ISDIR(status.st_mode))
    throw InputError(what + ": cannot create the directory: " + at.string() + " is not a directory");
  if (::access(at.c_str(), W_OK | X_OK) != 0)
    throw InputError(what + ": cannot create the directory: " + at.string() + ": " + reason(errno));
}

} // namespace npusim::core
