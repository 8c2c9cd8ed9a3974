#pragma once
// Errors that carry where they come from: a source position in a kernel file,
// or a named runtime context (kernel, program id, buffer).
#include <stdexcept>
#include <string>

namespace npusim::core {

/// A position in a source file. Lines and columns count from 1; 0 means unknown.
struct SourceLocation {
  std::string file;
  int line = 0;
  int col = 0;

  bool known() const { return line > 0; }
  /// "FILE:LINE:COL" (or just FILE when the position is unknown).
  std::string str() const;
};

/// An error in the user's input that points at a source position.
/// what() is formatted as "FILE:LINE:COL: error: message".
class CompileError : public std::runtime_error {
public:
  CompileError(SourceLocation where, std::string message);
  const SourceLocation &where() const { return where_; }
  const std::string &message() const { return message_; }

private:
  SourceLocation where_;
  std::string message_;
};

/// An error found while running a kernel (out-of-bounds access, failed device
/// assert, bad argument); the message names the kernel, program and buffer.
class RuntimeError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// An error in a file or argument given to npusim (not a kernel source), e.g. a
/// malformed .npy file; the message names the file.
class InputError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

} // namespace npusim::core
