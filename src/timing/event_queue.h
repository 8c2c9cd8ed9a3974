#pragma once
// The simulated clock: a queue of callbacks ordered by time, then by the order
// they were scheduled, so that two runs of the same program give the same
// cycles. Time is in picoseconds, a common base for the core, NoC and DRAM
// clocks; a unit with nothing to do schedules nothing and costs nothing.
#include <cstdint>
#include <functional>
#include <queue>
#include <vector>

namespace npusim::timing {

using TimePs = int64_t;

/// Picoseconds of one cycle of a clock of `mhz` megahertz, rounded to the
/// nearest picosecond.
inline TimePs periodPs(double mhz) { return static_cast<TimePs>(1.0e6 / mhz + 0.5); }

class EventQueue {
public:
  using Action = std::function<void()>;

  TimePs now() const { return now_; }
  /// Runs `action` at time `at` (not before now()).
  void schedule(TimePs at, Action action) {
    events_.push(Event{at < now_ ? now_ : at, sequence_++, std::move(action)});
  }
  bool empty() const { return events_.empty(); }
  /// Runs events until none is left; returns the time of the last one.
  TimePs run() {
    while (!events_.empty()) {
      Event event = events_.top();
      events_.pop();
      now_ = event.at;
      event.action();
    }
    return now_;
  }

private:
  struct Event {
    TimePs at;
    uint64_t sequence;
    Action action;
    bool operator>(const Event &other) const {
      return at != other.at ? at > other.at : sequence > other.sequence;
    }
  };
  std::priority_queue<Event, std::vector<Event>, std::greater<>> events_;
  TimePs now_ = 0;
  uint64_t sequence_ = 0;
};

} // namespace npusim::timing
