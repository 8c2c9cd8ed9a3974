// The progress line: a carriage return and an erase-line sequence redraw it.
#include "progress.h"

#include <cstdio>
#include <ostream>
#include <unistd.h>

namespace npusim::cli {

std::string durationText(double seconds) {
  char text[48];
  if (seconds < 60.0)
    std::snprintf(text, sizeof text, "%.1f s", seconds);
  else if (seconds < 3600.0)
    std::snprintf(text, sizeof text, "%d min %02d s", static_cast<int>(seconds / 60.0),
                  static_cast<int>(seconds) % 60);
  else
    std::snprintf(text, sizeof text, "%d h %02d min", static_cast<int>(seconds / 3600.0),
                  static_cast<int>(seconds / 60.0) % 60);
  return text;
}

ProgressLine::ProgressLine(std::ostream &err, bool enabled)
    : err_(err), shown_(enabled && isatty(STDERR_FILENO) == 1), start_(std::chrono::steady_clock::now()),
      lastDraw_(start_ - std::chrono::seconds(1)) {}

ProgressLine::~ProgressLine() {
  clear();
}

void ProgressLine::update(size_t done, size_t total, const std::string &what, bool always) {
  if (!shown_)
    return;
  const auto now = std::chrono::steady_clock::now();
  if (!always && now - lastDraw_ < std::chrono::milliseconds(100))
    return;
  lastDraw_ = now;
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  std::string line = "[" + std::to_string(done) + "/" + std::to_string(total) + "] " + what;
  if (line.size() > 70)
    line = line.substr(0, 67) + "...";
  line += "  elapsed " + durationText(elapsed);
  if (done > 0 && done < total)
    line +=
        "  left ~" + durationText(elapsed / static_cast<double>(done) * static_cast<double>(total - done));
  err_ << "\r\033[K" << line << std::flush;
  drawn_ = true;
}

void ProgressLine::clear() {
  if (drawn_)
    err_ << "\r\033[K" << std::flush;
  drawn_ = false;
}

} // namespace npusim::cli
