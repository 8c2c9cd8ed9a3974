#pragma once
// The progress line of long commands (kernel, run, serve, sweep): on stderr, rewritten in
// place, only when stderr is a terminal and --quiet is not given.
#include <chrono>
#include <cstddef>
#include <iosfwd>
#include <string>

namespace npusim::cli {

class ProgressLine {
public:
  /// Shows nothing unless `enabled` and stderr is a terminal.
  ProgressLine(std::ostream &err, bool enabled);
  ~ProgressLine();
  ProgressLine(const ProgressLine &) = delete;
  ProgressLine &operator=(const ProgressLine &) = delete;

  bool shown() const { return shown_; }
  /// `done` of `total` items are finished and `what` is under way: prints
  /// "[done/total] what  elapsed 12 s  left ~30 s" (the estimate: the mean time
  /// of a finished item times the items left). At most ten redraws a second,
  /// unless `always` (a change of phase that must show).
  void update(size_t done, size_t total, const std::string &what, bool always = false);
  /// Clears the line (also on destruction).
  void clear();

private:
  std::ostream &err_;
  bool shown_ = false;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_, lastDraw_;
};

/// "8.3 s", "4 min 05 s", "2 h 03 min".
std::string durationText(double seconds);

} // namespace npusim::cli
