#pragma once
// The runtime's wall clock for the report's *_ms fields.
#include <chrono>

namespace npusim::runtime {

using Clock = std::chrono::steady_clock;

/// Milliseconds from `start` to now.
inline double millisecondsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

} // namespace npusim::runtime
