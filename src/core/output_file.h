#pragma once
// Files npusim writes. Each one goes to a temporary file in the directory of
// its path and is renamed onto the path only when all of it was written, so
// that a reader never sees half a file and a failed write (a full disk, a file
// size limit, a kill) never replaces a good file that was there. Errors give
// the operating system's reason.
#include <memory>
#include <ostream>
#include <string>
#include <string_view>

namespace npusim::core {

/// One output file under construction: write to stream(), then commit(). A
/// file destroyed without commit() leaves `path` as it was and removes its
/// temporary file.
class OutputFile {
public:
  /// Creates the temporary file next to `path`. `what` names the file in
  /// errors, e.g. "--report out.json". Throws InputError "WHAT: cannot write
  /// the file: REASON".
  OutputFile(std::string path, std::string what);
  ~OutputFile();
  OutputFile(const OutputFile &) = delete;
  OutputFile &operator=(const OutputFile &) = delete;

  std::ostream &stream();
  /// Writes out what the stream holds, syncs it to the disk and renames it
  /// onto the path. Throws InputError with the first error's reason.
  void commit();

private:
  class Buffer;
  std::string path_, what_, temporary_;
  std::unique_ptr<Buffer> buffer_;
  std::unique_ptr<std::ostream> stream_;
  bool committed_ = false;
};

/// Removes the temporary files of the OutputFiles alive now (at most 64 at a
/// time are tracked). Async-signal-safe: a handler of SIGINT or SIGTERM calls
/// it before the process dies, so that a killed write leaves nothing behind.
void removeTemporaryFiles() noexcept;

/// `text` to `path` through an OutputFile.
void writeFileAtomically(const std::string &path, std::string_view text, const std::string &what);

/// Checks, before any work, that `path` can become an output file: not empty,
/// not a directory, its directory exists and lets us create files. Throws
/// InputError "WHAT: REASON" (WHAT as for OutputFile).
void checkOutputPath(const std::string &path, const std::string &what);

/// Checks, before any work, that `directory` exists as a directory we may
/// create files in, or can be created: its nearest existing ancestor is a
/// directory we may create entries in. Throws InputError "WHAT: REASON".
void checkOutputDirectory(const std::string &directory, const std::string &what);

} // namespace npusim::core
