// The event queue's contract: events run in increasing (time, order scheduled),
// an event scheduled for the past runs now, after what is already pending now.
// Checked on random schedules that nest: every event may schedule more, for
// now, for a time already pending, for a fresh time, or for the past; more
// distinct pending times than the queue's table of recent times remembers.
#include "timing/event_queue.h"

#include <gtest/gtest.h>

#include <array>
#include <random>
#include <vector>

namespace npusim::timing {
namespace {

struct Ran {
  TimePs at;       // the time the event was due (the past clamped to the scheduling time)
  uint64_t number; // the order in which it was scheduled
  TimePs now;      // the queue's time when it ran
};

class RandomSchedule {
public:
  explicit RandomSchedule(uint32_t seed) : random_(seed) {}

  std::vector<Ran> run(size_t events) {
    budget_ = events;
    for (int i = 0; i < 50; ++i)
      add(static_cast<TimePs>(pick(0, 4000)));
    queue_.run();
    EXPECT_TRUE(queue_.empty());
    return ran_;
  }

private:
  uint64_t pick(uint64_t low, uint64_t high) {
    return std::uniform_int_distribution<uint64_t>(low, high)(random_);
  }

  void add(TimePs at) {
    if (budget_ == 0)
      return;
    --budget_;
    const uint64_t number = scheduled_++;
    const TimePs due = std::max(at, queue_.now());
    queue_.schedule(at, [this, due, number] {
      ran_.push_back(Ran{due, number, queue_.now()});
      const auto children = pick(0, 3);
      for (uint64_t c = 0; c < children; ++c) {
        const TimePs now = queue_.now();
        switch (pick(0, 4)) {
        case 0: add(now); break;                                          // now
        case 1: add(now - static_cast<TimePs>(pick(1, 50))); break;       // the past
        case 2: add(now + static_cast<TimePs>(pick(1, 3)) * 1000); break; // a clock edge, often pending
        case 3: add(now + static_cast<TimePs>(pick(1, 100000))); break;   // mostly fresh times
        default: add(now + static_cast<TimePs>(pick(1, 600)) * 7); break; // many distinct times
        }
      }
    });
  }

  std::mt19937 random_;
  EventQueue queue_;
  size_t budget_ = 0;
  uint64_t scheduled_ = 0;
  std::vector<Ran> ran_;
};

TEST(EventQueue, RunsEveryEventInTimeThenSchedulingOrderOnRandomNestedSchedules) {
  for (uint32_t seed = 1; seed <= 20; ++seed) {
    const std::vector<Ran> ran = RandomSchedule(seed).run(20000);
    ASSERT_EQ(ran.size(), 20000u) << "seed " << seed;
    for (size_t i = 0; i < ran.size(); ++i) {
      ASSERT_EQ(ran[i].now, ran[i].at) << "seed " << seed << ", event " << i;
      if (i > 0) {
        const bool ordered =
            ran[i - 1].at < ran[i].at || (ran[i - 1].at == ran[i].at && ran[i - 1].number < ran[i].number);
        ASSERT_TRUE(ordered) << "seed " << seed << ", event " << i << ": (" << ran[i - 1].at << ", #"
                             << ran[i - 1].number << ") ran before (" << ran[i].at << ", #" << ran[i].number
                             << ")";
      }
    }
  }
}

TEST(EventQueue, EventsForThePastRunNowAfterThoseAlreadyDueNow) {
  EventQueue queue;
  std::vector<int> order;
  queue.schedule(100, [&] {
    queue.schedule(40, [&] { order.push_back(3); }); // the past: now, after 2
    order.push_back(1);
  });
  queue.schedule(100, [&] { order.push_back(2); });
  queue.schedule(0, [&] { order.push_back(0); });
  EXPECT_EQ(queue.run(), 100);
  EXPECT_EQ(order, (std::vector<int>{0, 1, 2, 3}));
}

// Each event's callable, stored in place or (past EventAction::kInlineBytes)
// on the heap, runs once and is destroyed once, after it ran.
TEST(EventQueue, CallablesInPlaceAndOnTheHeapRunOnceAndAreDestroyedAfterwards) {
  struct Counts {
    int runs = 0, destroyed = 0, destroyedBeforeRun = 0;
  };
  struct Tracked {
    Counts *counts;
    bool ran = false;
    Tracked(Counts *c) : counts(c) {}
    Tracked(Tracked &&other) noexcept : counts(other.counts), ran(other.ran) { other.counts = nullptr; }
    ~Tracked() {
      if (!counts)
        return; // moved from
      ++counts->destroyed;
      if (!ran)
        ++counts->destroyedBeforeRun;
    }
  };
  Counts small, large;
  EventQueue queue;
  for (int i = 0; i < 3; ++i) {
    queue.schedule(10 * i, [tracked = Tracked(&small)]() mutable {
      tracked.ran = true;
      ++tracked.counts->runs;
    });
    queue.schedule(10 * i + 5, [tracked = Tracked(&large), padding = std::array<char, 128>{}]() mutable {
      static_assert(sizeof(padding) > EventAction::kInlineBytes);
      tracked.ran = true;
      ++tracked.counts->runs;
    });
  }
  EXPECT_EQ(queue.run(), 25);
  for (const Counts *counts : {&small, &large}) {
    EXPECT_EQ(counts->runs, 3);
    EXPECT_EQ(counts->destroyed, 3);
    EXPECT_EQ(counts->destroyedBeforeRun, 0);
  }
}

} // namespace
} // namespace npusim::timing
