#pragma once
// The files a command writes (--report, --html, --trace, ...): every path is
// checked before the work starts, and after it every file is written, each
// failure reported on a line of its own (docs/cli.md, "Output files").
#include "cli.h"

#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

namespace npusim::cli {

/// "--trace PATH: kept the first K instruction events, left out D ...": a
/// trace keeps a bounded number of instruction events (docs/timing.md).
std::string traceCapNote(const std::string &path, int64_t kept, int64_t dropped);

class OutputFiles {
public:
  /// `option`'s path, when the command line gives one.
  void add(const ParsedOptions &options, const std::string &option);
  /// A path the command writes without an option (`what` names it in errors).
  void addPath(const std::string &what, const std::string &path);

  /// Checks every path (core::checkOutputPath); prints "PREFIX: error: MESSAGE"
  /// for each bad one. False when any is bad.
  bool check(const std::string &prefix, std::ostream &err) const;

  /// Runs `write` for the output of `option` when it was given; its error is
  /// printed and remembered (failed()).
  void write(const std::string &option, const std::function<void(const std::string &path)> &write,
             const std::string &prefix, std::ostream &err);
  bool failed() const { return failed_; }
  /// The path of `option`, or "" when not given.
  std::string path(const std::string &option) const;

private:
  struct Output {
    std::string what, path;
  };
  std::vector<Output> outputs_;
  bool failed_ = false;
};

} // namespace npusim::cli
